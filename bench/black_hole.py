"""Black Hole benchmark: solve a fixed range of deals on one core and print figures.

    .venv/bin/python bench/black_hole.py            # deals 1-1000
    .venv/bin/python bench/black_hole.py 1 5000     # another range

It times the engine alone (the search, from layout to verdict) and then the whole
``winnable.solve`` (search plus replaying every winning line through the Python
rules), and prints deals per second (wall time, and the CPU time of the searching thread,
which a busy machine disturbs less), positions per second, the per-deal median, p90
and worst time, and the peak memory of this process. Compare runs on an idle machine.
"""

from __future__ import annotations

import resource
import statistics
import sys
import time

from winnable import _engine
from winnable.blackhole import BlackHole
from winnable.solver import solve
from winnable.survey import percentile


def main() -> None:
    first = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    last = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    numbers = range(first, last + 1)
    positions = [BlackHole.deal(n) for n in numbers]
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    times, counts, verdicts = [], [], {"won": 0, "lost": 0, "unknown": 0}
    cpu_start = time.thread_time()
    worst = (0.0, 0)
    for number, position in zip(numbers, positions):
        piles = [[card.index for card in pile] for pile in position.piles]
        start = time.perf_counter()
        status, _, searched = _engine.black_hole_solve(piles, int(position.foundation_card.rank))
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        counts.append(searched)
        verdicts[status] += 1
        worst = max(worst, (elapsed, number))
    engine_total = sum(times)
    engine_cpu = time.thread_time() - cpu_start
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    start = time.perf_counter()
    for position in positions:
        solve(position)
    verified_total = time.perf_counter() - start

    ordered = sorted(times)
    print(f"Black Hole deals {first}-{last} on one core")
    print(f"  verdicts: {verdicts['won']} won, {verdicts['lost']} lost, {verdicts['unknown']} unknown")
    print(f"  engine total        {engine_total:8.3f} s   ({len(times) / engine_total:,.0f} deals/s)   CPU time {engine_cpu:.3f} s")
    print(f"  positions           {sum(counts):,}   ({sum(counts) / engine_total / 1e6:.2f} million/s)")
    print(f"  per deal            median {statistics.median(ordered) * 1000:.3f} ms   p90 {percentile(ordered, 0.9) * 1000:.3f} ms   worst {worst[0] * 1000:.1f} ms (deal {worst[1]})")
    print(f"  with verification   {verified_total:8.3f} s   (search + replay of every winning line in Python)")
    print(f"  peak memory         {rss_after / 1024:.0f} MB for the process ({(rss_after - rss_before) / 1024:.0f} MB grown during the search)")


if __name__ == "__main__":
    main()
