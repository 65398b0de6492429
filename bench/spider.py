"""Spider family engine figures: how many deals the engine proves winnable, and how fast.

    .venv/bin/python bench/spider.py black-widow 60001-60500           # 2 s CPU each, then 60 s
    .venv/bin/python bench/spider.py spider-4 1-200 --nodes 1500000     # a node budget instead
    .venv/bin/python bench/spider.py spider-4 1-1000 --dump deals.txt   # deals for examples/spider_tune.rs

Each deal is searched from the start, one after the other in this one process (the
engine alone: no replay), with the budget a hint gets: 2 seconds of CPU time of the
searching thread unless ``--nodes`` or ``--seconds`` say otherwise. The deals it leaves
unknown are then searched again with ``--long`` seconds (60 by default; 0: not), so the
figures at 60 s are "won at 2 s, or at 60 s when 2 s did not do". Budgets are CPU time,
so a busy machine changes the wall time, not the figures (the load average is printed
beside them). It prints won / unknown, the CPU time (median, p90, max, total), wall time,
positions and positions a second (CPU), and the median length of the lines (shortened as
for a hint). The engine was tuned on deals 1-10000; report on another range
(60001-60500). The survey (``winnable survey``) also replays every line.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence

from winnable.games import game_class
from winnable.surveys.survey import percentile


def run(game: str, number: int, nodes: int | None, seconds: float | None) -> tuple[int, str, int, float, int, float]:
    position = game_class(game).deal(number)
    started, cpu = time.perf_counter(), time.thread_time()
    verdict, line, positions = position.engine_search(nodes, seconds)
    return number, verdict, positions, time.perf_counter() - started, len(line), time.thread_time() - cpu


def show(result: tuple[int, str, int, float, int, float]) -> None:
    number, verdict, count, spent, moves, cpu = result
    print(f"{number:6} {verdict:8} {count:>9,} {cpu:7.3f} s CPU {spent:7.3f} s wall {moves:4} moves", flush=True)


def dump(game: str, numbers: Sequence[int], path: str) -> None:
    """Write the deals as ``examples/spider_tune.rs`` reads them."""
    cls = game_class(game)
    with open(path, "w") as out:
        for number in numbers:
            position = cls.deal(number)
            columns = ";".join(
                ",".join(str(c.index) for c in col.down) + "/" + ",".join(str(c.index) for c in col.up) for col in position.columns
            )
            out.write(f"{number};{int(cls.by_suit)};{','.join(str(c.index) for c in position.stock)};{columns}\n")


def parse_range(text: str) -> Sequence[int]:
    """``A-B``, or deals and ranges separated by commas (``170,904,1001-1010``)."""
    if "," in text:
        return [number for part in text.split(",") if part for number in parse_range(part)]
    low, _, high = text.partition("-")
    try:
        numbers = range(int(low), int(high or low) + 1)
    except ValueError:
        raise SystemExit(f"error: {text!r} is not a range of deals such as 5001-6000") from None
    if not numbers:
        raise SystemExit(f"error: {text!r} is an empty range")
    return numbers


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog="Figures are CPU time of the searching thread; wall time shown beside."
    )
    parser.add_argument("game", help="black-widow, spider-4, spider-2 or spider-1")
    parser.add_argument("deals", help="a range of deals, A-B, or deals and ranges separated by commas (default budget: 2 s each)")
    parser.add_argument("--nodes", type=int, default=None, help="positions per deal")
    parser.add_argument("--seconds", type=float, default=None, help="CPU seconds per deal (2 unless --nodes)")
    parser.add_argument("--long", type=float, default=60.0, help="CPU seconds for the deals left unknown (0: none)")
    parser.add_argument("--show", action="store_true", help="one line per deal")
    parser.add_argument("--dump", metavar="FILE", help="write the deals for examples/spider_tune.rs and stop")
    args = parser.parse_args()
    numbers = parse_range(args.deals)
    if args.dump:
        dump(args.game, numbers, args.dump)
        return
    seconds = args.seconds if args.seconds is not None or args.nodes is not None else 2.0
    load = os.getloadavg()[0]
    started = time.perf_counter()
    results: list[tuple[int, str, int, float, int, float]] = []
    try:
        for number in numbers:
            results.append(run(args.game, number, args.nodes, seconds))
            if args.show:
                show(results[-1])
    except KeyboardInterrupt:  # a stop (SIGINT): the figures of the deals done
        if not results:
            raise SystemExit(2) from None
        print(f"  stopped: deals {numbers[0]}-{results[-1][0]} done", flush=True)
    wall = time.perf_counter() - started
    won = [r for r in results if r[1] == "won"]
    budget = ", ".join(part for part in (f"{args.nodes:,} positions" if args.nodes else "", f"{seconds:g} s" if seconds else "") if part)
    print(f"{args.game} {args.deals}, budget {budget} a deal: won {len(won)}/{len(results)} ({100 * len(won) / len(results):.1f} %)")
    cpu = sorted(r[5] for r in results)
    times = sorted(r[3] for r in results)
    positions = sorted(r[2] for r in results)
    print(f"  CPU s     median {statistics.median(cpu):.3f}  p90 {percentile(cpu, 0.9):.3f}  max {cpu[-1]:.3f}  total {sum(cpu):.1f}")
    print(f"  wall s    median {statistics.median(times):.3f}  p90 {percentile(times, 0.9):.3f}  max {times[-1]:.3f}  total {wall:.1f}")
    print(f"  positions median {statistics.median(positions):,.0f}  p90 {percentile(positions, 0.9):,.0f}  total {sum(positions):,}")
    if won:
        print(f"  moves     median {statistics.median(r[4] for r in won):.0f}  max {max(r[4] for r in won)}")
    print(f"  positions a second (CPU) {sum(positions) / max(sum(cpu), 1e-9):,.0f}")
    print(f"  load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end (2 cores)")
    unproved = [r[0] for r in results if r[1] != "won"]
    print(f"  unknown ({len(unproved)}): {unproved[:60]}")
    sys.stdout.flush()
    if unproved and args.long > 0:
        again: list[tuple[int, str, int, float, int, float]] = []
        try:
            for number in unproved:
                again.append(run(args.game, number, None, args.long))
                if args.show:
                    show(again[-1])
        except KeyboardInterrupt:
            print(f"  stopped: {len(again)} of the {len(unproved)} deals searched again", flush=True)
        still = [r[0] for r in again if r[1] != "won"] + unproved[len(again) :]
        spent = sum(r[5] for r in again)
        count = sum(r[2] for r in again)
        print(f"  at {args.long:g} s CPU: won {len(results) - len(still)}/{len(results)}, unknown {len(still)}: {still}")
        print(
            f"    those {len(again)} deals: CPU {spent:.1f} s, {count:,} positions ({count / max(spent, 1e-9):,.0f} a second), "
            f"moves {[r[4] for r in again if r[1] == 'won']}"
        )


if __name__ == "__main__":
    main()
