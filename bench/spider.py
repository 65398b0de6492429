"""Spider family engine figures: how many deals the engine proves winnable, and how fast.

    .venv/bin/python bench/spider.py black-widow 1-100 [--nodes 1000000] [--threads 2]

Calls the engine directly (no replay) on threads (the engine releases the GIL) and
prints the share of deals proved, the median / p90 / max wall seconds, the CPU seconds
of the searching thread (a figure that does not depend on how busy the machine is) and
positions. The survey (`winnable survey`) is the reference figure: it also replays
every line.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from winnable.games import game_class
from winnable.survey import percentile


def run(game: str, number: int, nodes: int | None, seconds: float | None) -> tuple[int, str, int, float, int, float]:
    position = game_class(game).deal(number)
    started, cpu = time.perf_counter(), time.thread_time()
    verdict, line, positions = position.engine_search(nodes, seconds)
    return number, verdict, positions, time.perf_counter() - started, len(line), time.thread_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals", help="A-B")
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--show", action="store_true", help="one line per deal")
    args = parser.parse_args()
    low, _, high = args.deals.partition("-")
    numbers = range(int(low), int(high or low) + 1)
    started = time.perf_counter()
    with ThreadPoolExecutor(args.threads) as pool:
        results = list(pool.map(lambda n: run(args.game, n, args.nodes, args.seconds), numbers))
    wall = time.perf_counter() - started
    won = [r for r in results if r[1] == "won"]
    times = sorted(r[3] for r in results)
    positions = sorted(r[2] for r in results)
    if args.show:
        for number, verdict, count, seconds, moves, _ in results:
            print(f"{number:6} {verdict:8} {count:>9,} {seconds:7.3f} s {moves:4} moves")
    print(f"{args.game} {args.deals}: won {len(won)}/{len(results)} ({100 * len(won) / len(results):.1f} %), wall {wall:.1f} s on {args.threads} threads")
    print(f"  seconds   median {statistics.median(times):.3f}  p90 {percentile(times, 0.9):.3f}  max {times[-1]:.3f}")
    cpu = sorted(r[5] for r in results)
    print(f"  cpu s     median {statistics.median(cpu):.3f}  p90 {percentile(cpu, 0.9):.3f}  max {cpu[-1]:.3f}  total {sum(cpu):.1f}")
    print(f"  positions median {statistics.median(positions):,.0f}  p90 {percentile(positions, 0.9):,.0f}")
    if won:
        print(f"  moves     median {statistics.median(r[4] for r in won):.0f}  max {max(r[4] for r in won)}")
    print(f"  unproved: {[r[0] for r in results if r[1] != 'won'][:40]}")


if __name__ == "__main__":
    main()
