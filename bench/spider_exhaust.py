"""Try to prove a Spider-family deal lost: walk every position reachable from the deal.

    .venv/bin/python bench/spider_exhaust.py spider-4 14934 --memory-mb 2048 --seconds 600

Runs the engine's exhaustive search (``_engine.spider_exhaust``, every legal move, each
canonical position once) from the deal and prints its verdict: "lost" only when the
whole space was walked; else what it reached (positions, the most waiting at once) when
memory or CPU time ran out. The count and checksum of a finished walk re-check the proof
(``tests/engine/test_spider_proof.py`` does so with the Python rules on a small position).
"""

from __future__ import annotations

import argparse
import time

from winnable import _engine
from winnable.games import game_class


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="spider-4, spider-2, spider-1 or black-widow")
    parser.add_argument("deal", type=int)
    parser.add_argument("--memory-mb", type=int, default=1024, help="what the walk may hold (megabytes)")
    parser.add_argument("--seconds", type=float, default=None, help="CPU seconds (none: until memory runs out)")
    args = parser.parse_args()
    position = game_class(args.game).deal(args.deal)
    columns = [([card.index for card in column.down], [card.index for card in column.up]) for column in position.columns]
    stock = [card.index for card in position.stock]
    cpu = time.thread_time()
    verdict, positions, checksum, frontier = _engine.spider_exhaust(
        columns, stock, len(position.foundations), position.by_suit, memory_mb=args.memory_mb, max_seconds=args.seconds
    )
    spent = time.thread_time() - cpu
    print(
        f"{args.game} {args.deal}: {verdict}; {positions:,} canonical positions reached (checksum {checksum:016x}), "
        f"at most {frontier:,} waiting; {spent:.1f} s CPU ({positions / max(spent, 1e-9):,.0f} a second); "
        f"memory bound {args.memory_mb} MB"
    )


if __name__ == "__main__":
    main()
