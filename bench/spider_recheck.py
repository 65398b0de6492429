"""Search again, with a CPU-time budget, the deals a survey table left unknown.

    .venv/bin/python bench/spider_recheck.py docs/surveys/spider-4.txt spider-4 --seconds 60

Reads the ``unknown`` line of a survey table (``docs/surveys/*.txt``) and searches each
of those deals from the start with ``--seconds`` of CPU time, as a survey does (verdicts
alone, every winning line replayed by the Python rules: ``winnable.survey.solve_deal``).
Prints one line a deal (verdict, positions, CPU seconds, moves) and the totals.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

from winnable.solver import Budget
from winnable.survey import percentile, solve_deal


def unknown_deals(table: Path) -> list[int]:
    match = re.search(r"^unknown\s+(.*)$", table.read_text(), re.M)
    if not match:
        raise SystemExit(f"error: {table} has no 'unknown' line")
    return [int(number) for number in match.group(1).split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", type=Path, help="a survey table, docs/surveys/GAME.txt")
    parser.add_argument("game", help="black-widow, spider-4, spider-2 or spider-1")
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU seconds a deal (60)")
    args = parser.parse_args()
    deals = unknown_deals(args.table)
    records = []
    for number in deals:
        record = solve_deal(args.game, number, Budget(seconds=args.seconds))
        records.append(record)
        print(f"{number:6} {record['verdict']:8} {record['positions']:>11,} {record['cpu_seconds']:8.2f} s CPU {record['moves']:4} moves")
        sys.stdout.flush()
    won = [r for r in records if r["verdict"] == "won"]
    cpu = sorted(r["cpu_seconds"] for r in records)
    print(
        f"{args.game}: {len(won)} of the {len(records)} deals {args.table.name} left unknown won within {args.seconds:g} s CPU "
        f"(lines replayed); still unknown: {[r['deal'] for r in records if r['verdict'] != 'won']}"
    )
    print(
        f"  CPU s median {statistics.median(cpu):.2f}  p90 {percentile(cpu, 0.9):.2f}  max {cpu[-1]:.2f}  total {sum(cpu):.1f}; "
        f"positions {sum(r['positions'] for r in records):,}"
    )


if __name__ == "__main__":
    main()
