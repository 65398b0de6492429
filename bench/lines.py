"""How long and how clean the winning lines are, and what shortening them costs.

    .venv/bin/python bench/lines.py freecell 20001-20300            # against fc-solve -l lg and -l lg -opt
    .venv/bin/python bench/lines.py penguin-pysolfc 1-300           # against fc-solve -opt, PySolFC's Penguin options
    .venv/bin/python bench/lines.py black-widow 7001-7500 --seconds 2
    .venv/bin/python bench/lines.py spider-4 7001-7500 --seconds 2

For each deal the engine searches, then shortens the search's own line (what ``solve``
does, with what the time budget leaves), each timed apart in CPU time of the thread
that ran it: the free-cell family in one call (``_engine.freecell_lines``: the engine
times the search and the shortening itself, the rules and the position made before
either clock starts), the Spider family in two (``spider_solve(shorten=False)``, then
``spider_shorten``). Both
lines are replayed by the Python rules, which count the positions a line reaches twice
and the moves it takes back without need (:mod:`winnable.lines`). Moves are counted as
a player plays them: a run moved at once is one move, moves to the foundations count.

fc-solve (Debian's freecell-solver-bin), for the free-cell games: one process a deal,
reading the board ``winnable deal GAME N --format fcs`` prints, with the game's
``FCS_OPTIONS`` (FreeCell: ``-l lg``; others: fc-solve's default preset), alone and with
``-opt`` (its optimiser: a breadth-first search over the states of its solution); its
moves are the ``Move`` lines of ``-p -t -sam``. Lengths are compared on the deals both
solved. The CPU time of fc-solve is the child's, start-up included.

Figures only: nothing here is a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

from winnable import _engine, lines
from winnable.games import game_class
from winnable.solver import replay
from winnable.surveys.survey import percentile


def spread(values: list[int]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"median {statistics.median(ordered):g} / p90 {percentile(ordered, 0.9)} / max {ordered[-1]}"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fc_solve(board: str, options: list[str]) -> tuple[int | None, float]:
    """fc-solve's line length for a board (``None`` if unsolved) and its CPU time."""
    before = children_cpu()
    result = subprocess.run(["fc-solve", *options, "-p", "-t", "-sam", "-"], input=board, capture_output=True, text=True)
    cpu = children_cpu() - before
    if "This game is solveable" not in result.stdout:
        return None, cpu
    return sum(1 for line in result.stdout.splitlines() if line.startswith("Move")), cpu


def engine_lines(
    position, nodes: int | None, seconds: float | None, shorten: dict | None = None
) -> tuple[str, list[str], list[str], float, float]:
    """(verdict, search line, shortened line, search CPU, shortening CPU); ``shorten``:
    the shortening's own options (``depth``, ``tries``), the engine's defaults if left out."""
    shorten = shorten or {}
    if position.family == "freecell":
        # One call: the search, then the shortening of its line, each timed by the engine.
        depth = shorten.get("depth", position.SHORTEN_DEPTH)
        status, line, short, _, search_cpu, shorten_cpu = _engine.freecell_lines(
            position.engine_rules(),
            *position.engine_layout(),
            nodes,
            seconds,
            position.ENGINE_PRESET,
            depth=depth,
            tries=shorten.get("tries"),
        )
        return status, line.split(), short.split(), search_cpu, shorten_cpu
    from winnable.spider import SpiderMove

    columns = [([card.index for card in column.down], [card.index for card in column.up]) for column in position.columns]
    stock = [card.index for card in position.stock]
    removed = len(position.foundations)
    started, cpu = time.perf_counter(), time.thread_time()
    status, line, searched = _engine.spider_solve(columns, stock, removed, position.by_suit, nodes, seconds, shorten=False)
    search_cpu = time.thread_time() - cpu
    if status != "won":
        return status, [], [], search_cpu, 0.0
    left = None if seconds is None else max(1e-3, seconds - (time.perf_counter() - started))
    cpu = time.thread_time()
    short, _ = _engine.spider_shorten(columns, stock, removed, position.by_suit, line, left, searched=searched, **shorten)
    shorten_cpu = time.thread_time() - cpu

    def text(moves):
        return [str(SpiderMove.DEAL if a == 255 else SpiderMove(a, b, c)) for a, b, c in moves]

    return status, text(line), text(short), search_cpu, shorten_cpu


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", help="a game id of the free-cell or Spider family")
    parser.add_argument("deals", help="a range of deals, A-B")
    parser.add_argument("--nodes", type=int, help="the search's position budget per deal")
    parser.add_argument("--seconds", type=float, help="the time budget per deal (search and shortening)")
    parser.add_argument("--no-fc-solve", action="store_true", help="leave fc-solve out")
    parser.add_argument("--fc-solve-limit", type=int, default=1_000_000, help="fc-solve's iteration cap per deal (default 1,000,000)")
    parser.add_argument(
        "--depth",
        type=int,
        help="the shortening's depth (0: loops and moves taken back; 1, 2: shortcuts of so many moves); the engine's default if left out",
    )
    parser.add_argument("--tries", type=int, help="positions the shortening may make; the engine's default if left out")
    parser.add_argument(
        "--research",
        type=int,
        help="Spider family: positions the searches of the game's end again may make (0: none); the engine's default (a share of the search's positions) if left out",
    )
    args = parser.parse_args()
    options = {
        name: value for name, value in (("depth", args.depth), ("tries", args.tries), ("research", args.research)) if value is not None
    }

    cls = game_class(args.game)
    low, _, high = args.deals.partition("-")
    numbers = range(int(low), int(high or low) + 1)
    found: dict[str, list[int]] = {"search": [], "short": []}
    dirty = {"search": [0, 0], "short": [0, 0]}  # lines with a repeat, with a needless undo
    cpu = {"search": 0.0, "short": 0.0}
    counts: dict[str, int] = {}
    won: dict[int, int] = {}
    missed: list[int] = []
    for number in numbers:
        position = cls.deal(number)
        status, line, short, search_cpu, shorten_cpu = engine_lines(position, args.nodes, args.seconds, options)
        counts[status] = counts.get(status, 0) + 1
        if status != "won":
            missed.append(number)
        cpu["search"] += search_cpu
        cpu["short"] += shorten_cpu
        if status != "won":
            continue
        for name, text in (("search", line), ("short", short)):
            moves = replay(position, text)
            found[name].append(len(moves))
            dirty[name][0] += bool(lines.repeats(position, moves))
            dirty[name][1] += bool(lines.needless(position, moves))
        won[number] = len(short)

    budget = f"{args.nodes:,} positions" if args.nodes else (f"{args.seconds:g} s" if args.seconds else "no budget")
    print(
        f"{cls.game_id} deals {numbers.start}-{numbers.stop - 1}, {budget} a deal: "
        + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        + f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    if missed:
        print(f"  not won: {', '.join(map(str, missed))}")
    print(
        f"  search's lines    {spread(found['search'])}   with a repeated position {dirty['search'][0]}, with a move taken back without need {dirty['search'][1]}"
    )
    print(
        f"  shortened lines   {spread(found['short'])}   with a repeated position {dirty['short'][0]}, with a move taken back without need {dirty['short'][1]}"
    )
    ratio = cpu["short"] / cpu["search"] if cpu["search"] else float("inf")
    print(f"  CPU: search {cpu['search']:.3f} s, shortening {cpu['short']:.3f} s ({ratio:.2f} of the search)")
    if cls.family != "freecell" or args.no_fc_solve:
        return
    if shutil.which("fc-solve") is None:
        print("  fc-solve not installed (Debian: apt-get install freecell-solver-bin): skipped")
        return
    base = ["-l", "lg"] if cls.game_id == "freecell" else cls.FCS_OPTIONS.split()
    base += ["-mi", str(args.fc_solve_limit)]
    results: dict[str, dict[int, int]] = {}
    for name, options in (("", base), (" -opt", base + ["-opt"])):
        lengths: dict[int, int] = {}
        spent = 0.0
        for number in numbers:
            moves, used = fc_solve(cls.deal(number).export("fcs"), options)
            spent += used
            if moves is not None:
                lengths[number] = moves
        results[name] = lengths
        label = ("-l lg" if cls.game_id == "freecell" else "default") + name
        both = [n for n in won if n in lengths]
        print(f"  fc-solve {label:12} {spread([lengths[n] for n in both])}   solved {len(lengths)}, CPU {spent:.3f} s (start-up included)")
        print(f"    Winnable shortened on the same {len(both)} deals: {spread([won[n] for n in both])}")


if __name__ == "__main__":
    sys.exit(main())
