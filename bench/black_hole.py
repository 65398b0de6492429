"""Black Hole benchmark: solve a range of deals on one core and print figures.

    .venv/bin/python bench/black_hole.py             # deals 1001-2000 (held out)
    .venv/bin/python bench/black_hole.py 1 1000      # the range the engine was tuned on
    .venv/bin/python bench/black_hole.py 1 1000 --dump bh.txt   # layouts for examples/bh_bench.rs

It times the engine alone (the search, from layout to verdict: the CPU time of this
thread, which a busy machine disturbs little, and wall time beside it), then the whole
``winnable.solve`` (search plus replaying every winning line through the Python rules),
and prints positions per second, the per-deal median, p90 and worst CPU time, and the
peak memory of this process. The engine's restart schedule was fitted on deals 1-1000,
so the default range is another one.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from winnable import _engine
from winnable.blackhole import BlackHole
from winnable.solver import solve
from winnable.surveys.survey import percentile


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog="Deals 1-1000 were used to tune the engine; the default range is held out."
    )
    parser.add_argument("first", nargs="?", type=int, default=1001, help="first deal (default 1001)")
    parser.add_argument("last", nargs="?", type=int, default=2000, help="last deal (default 2000)")
    parser.add_argument("--dump", metavar="FILE", help="write the layouts for examples/bh_bench.rs and stop")
    args = parser.parse_args()
    if not 1 <= args.first <= args.last:
        parser.error(f"not a range of deals: {args.first}-{args.last}")
    numbers = range(args.first, args.last + 1)
    positions = [BlackHole.deal(n) for n in numbers]
    if args.dump:
        with open(args.dump, "w") as out:
            for position in positions:
                out.write(" ".join(",".join(str(card.index) for card in pile) for pile in position.piles) + "\n")
        return
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    times, cpus, counts, verdicts = [], [], [], {"won": 0, "lost": 0, "unknown": 0}
    worst = (0.0, 0)
    for number, position in zip(numbers, positions):
        piles = [[card.index for card in pile] for pile in position.piles]
        rank = int(position.foundation_card.rank)
        start, cpu = time.perf_counter(), time.thread_time()
        status, _, searched = _engine.black_hole_solve(piles, rank)
        cpus.append(time.thread_time() - cpu)
        times.append(time.perf_counter() - start)
        counts.append(searched)
        verdicts[status] += 1
        worst = max(worst, (cpus[-1], number))
    engine_cpu, engine_wall = sum(cpus), sum(times)
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    start = time.process_time()
    for position in positions:
        solve(position)
    verified_cpu = time.process_time() - start

    ordered = sorted(cpus)
    print(f"Black Hole deals {args.first}-{args.last} on one core (load average {os.getloadavg()[0]:.2f})")
    print(f"  verdicts: {verdicts['won']} won, {verdicts['lost']} lost, {verdicts['unknown']} unknown")
    print(f"  engine CPU time     {engine_cpu:8.3f} s   ({len(cpus) / engine_cpu:,.0f} deals/s; wall {engine_wall:.3f} s)")
    print(f"  positions           {sum(counts):,}   ({sum(counts) / engine_cpu / 1e6:.2f} million/s)")
    print(
        f"  per deal (CPU)      median {statistics.median(ordered) * 1000:.3f} ms   p90 {percentile(ordered, 0.9) * 1000:.3f} ms   worst {worst[0] * 1000:.1f} ms (deal {worst[1]})"
    )
    print(f"  with verification   {verified_cpu:8.3f} s CPU   (search + replay of every winning line in Python)")
    print(
        f"  peak memory         {rss_after / 1024:.0f} MB for the process ({(rss_after - rss_before) / 1024:.0f} MB grown during the search)"
    )


if __name__ == "__main__":
    main()
