"""What a survey pays per deal, split: dealing, the engine's search, the replay of the
winning line by the Python rules, and the output (record and JSON line), in CPU time.

    .venv/bin/python bench/survey_cost.py                      # Black Hole deals 1-2000
    .venv/bin/python bench/survey_cost.py black-hole 5001 7000
    .venv/bin/python bench/survey_cost.py freecell 1 500

One process, one core, the same deals for every part; start-up (imports, the first
deal) is excluded. Each part is timed over all the deals with ``time.process_time``, so
a busy machine disturbs the figures little. The last line is the whole
:func:`winnable.surveys.survey.solve_chunk` plus writing, as a survey runs it (one chunk per
500 deals), which should be close to the sum of the parts. A survey on ``J`` cores
takes about ``deals x total / J`` of wall time.
"""

from __future__ import annotations

import argparse
import io
import json
import time

from winnable.games import game_class, game_ids
from winnable.solver import Budget, replay
from winnable.surveys.survey import record, search, solve_chunk


def cpu(work) -> tuple[float, object]:
    started = time.process_time()
    result = work()
    return time.process_time() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", nargs="?", default="black-hole", choices=game_ids(), metavar="GAME", help="a game id (default black-hole)")
    parser.add_argument("first", nargs="?", type=int, default=1, help="first deal (default 1)")
    parser.add_argument("last", nargs="?", type=int, default=2000, help="last deal (default 2000)")
    parser.add_argument("nodes", nargs="?", type=int, help="positions a deal (default: no budget)")
    args = parser.parse_args()
    if not 1 <= args.first <= args.last:
        parser.error(f"the deals must be a range: {args.first}-{args.last}")
    game, first, last = args.game, args.first, args.last
    budget = Budget(nodes=args.nodes) if args.nodes else Budget()
    cls = game_class(game)
    numbers = range(first, last + 1)
    count = len(numbers)
    solve_chunk(game, first, first, budget)  # warm up: imports, tables, the first search

    deal_cpu, positions = cpu(lambda: [cls.deal(number) for number in numbers])
    search_cpu, answers = cpu(lambda: [search(position, budget) for position in positions])
    won = [(position, line) for position, (status, line, _) in zip(positions, answers) if status == "won"]
    replay_cpu, _ = cpu(lambda: [replay(position, line) for position, line in won])

    def output() -> int:
        sink = io.StringIO()
        for position, (status, line, searched) in zip(positions, answers):
            sink.write(json.dumps(record(position, status, line, searched, 0.001, 0.001, False)) + "\n")
        return sink.tell()

    output_cpu, _ = cpu(output)

    def whole() -> None:
        sink = io.StringIO()
        for start in range(first, last + 1, 500):
            records = solve_chunk(game, start, min(last, start + 499), budget)
            sink.write("".join(json.dumps(entry) + "\n" for entry in records))

    whole_cpu, _ = cpu(whole)
    parts = {"deal": deal_cpu, "search": search_cpu, "replay": replay_cpu, "output": output_cpu}
    total = sum(parts.values())
    print(f"{game} deals {first}-{last}: {count} deals ({len(won)} won, lines replayed), budget {budget}, CPU time per deal")
    for name, seconds in parts.items():
        print(f"  {name:8} {seconds / count * 1000:9.4f} ms   {100 * seconds / total:5.1f} %")
    print(f"  {'sum':8} {total / count * 1000:9.4f} ms")
    print(f"  {'survey':8} {whole_cpu / count * 1000:9.4f} ms   (solve_chunk and JSON lines, as a survey runs them)")
    around = total - search_cpu
    print(
        f"  around the search (deal, replay, output): {around / count * 1000:.4f} ms a deal; "
        f"a million deals at this cost on 2 cores: {whole_cpu / count * 1e6 / 2 / 60:.1f} min"
    )


if __name__ == "__main__":
    main()
