"""Winnable's free-cell engine against fc-solve, like with like: the same deals, each
solver in one process, CPU time, process start-up left out.

    .venv/bin/python bench/freecell.py                          # FreeCell 1-1000
    .venv/bin/python bench/freecell.py --game penguin-pysolfc   # Penguin 1-500
    .venv/bin/python bench/freecell.py --game bakers-game --deals 1-200 --fc-solve-limit 200000

Winnable: every deal is dealt first (not timed), then the engine searches them one
after the other in this process; its CPU time is ``time.process_time()`` around that
loop alone. Then every winning line is replayed through the Python rules (timed
apart: the proof that a line wins, which fc-solve's range solver does not do).

Whole processes, beside the engine-only figures: a fresh Python process that imports
Winnable, deals, searches and replays every line (its CPU time from start to exit,
``RUSAGE_CHILDREN``), and fc-solve's processes with their start-up left in.

fc-solve (Debian's freecell-solver-bin), when installed:

- FreeCell: ``freecell-solver-range-parallel-solve FIRST LAST 1`` solves the whole
  range in one process, with ``-l lg`` (its fast portfolio, "looking glass") and with
  its default preset (capped with ``--total-iterations-limit``: some deals run out of
  memory without a cap). CPU time is the child's ``RUSAGE_CHILDREN``, less the CPU time
  of the same command on an empty range (start-up).
- Every other game: one ``fc-solve`` process a deal (fc-solve deals only Microsoft's
  FreeCell boards), reading the board ``winnable deal GAME N --format fcs`` prints,
  with the game's ``FCS_OPTIONS``, with its default preset and with ``-l lg``; CPU
  time less the median CPU time of a process that solves an empty board (start-up),
  deal by deal. ``-l lg`` plays a move that ignores "empty columns take Kings only",
  so where that rule holds some of its wins are not legal lines.

fc-solve counts "iterations" (positions it expanded); Winnable counts the positions
its searches generated (each new position a scan made), which is the larger count
for the same work. The default range is one the engine was not tuned on (the soft
threads were fitted on FreeCell 1001-3000, the ``mixed`` preset's cap on deals
2001-2300 of Penguin and Baker's Game).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

from winnable.games import game_class
from winnable.solver import replay
from winnable.surveys.survey import percentile

DEFAULT_DEALS = {"penguin-pysolfc": "1-500"}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cpu(command: list[str], board: str | None = None, timeout: float | None = None) -> tuple[float, str]:
    """Run ``command`` (board on stdin); return its CPU time and its output."""
    before = children_cpu()
    try:
        result = subprocess.run(command, input=board, capture_output=True, text=True, timeout=timeout)
        out = result.stdout
    except subprocess.TimeoutExpired:
        out = ""
    return children_cpu() - before, out


def range_solver(first: int, last: int, options: list[str]) -> dict:
    """fc-solve's range solver over Microsoft deals FIRST-LAST in one process."""
    command = ["freecell-solver-range-parallel-solve", str(first), str(last), "1", *options]
    # Start-up: the same command on a one-deal range of an easy deal, less nothing
    # (a lower bound; a few milliseconds at most).
    startup = min(run_cpu(["freecell-solver-range-parallel-solve", "1", "1", "1", *options])[0] for _ in range(3))
    cpu, out = run_cpu(command)
    iterations = [int(n) for n in re.findall(r"total_num_iters=(\d+)", out)]
    unsolved = len(re.findall(r"Unsolved Board No", out))
    intractable = len(re.findall(r"Intractable Board No", out))
    deals = last - first + 1
    return {
        "cpu": max(0.0, cpu - startup),
        "whole": cpu,
        "startup": startup,
        "won": deals - unsolved - intractable,
        "lost": unsolved,
        "unknown": intractable,
        "positions": iterations[-1] if iterations else 0,
    }


def per_process(cls, numbers: range, options: list[str], limit: int) -> dict:
    """One fc-solve process a deal; start-up CPU subtracted deal by deal."""
    won_board = "Foundations: H-K C-K D-K S-K\n" + ": \n" * cls.COLUMNS
    startup = statistics.median(run_cpu(["fc-solve", *options, "-"], won_board)[0] for _ in range(21))
    total, positions = 0.0, 0
    counts = {"won": 0, "lost": 0, "unknown": 0}
    per_deal = []
    whole = 0.0
    for number in numbers:
        board = cls.deal(number).export("fcs")
        cpu, out = run_cpu(["fc-solve", *options, "-mi", str(limit), "-"], board)
        whole += cpu
        per_deal.append(max(0.0, cpu - startup))
        if "This game is solveable" in out:
            counts["won"] += 1
        elif "I could not solve" in out:
            counts["lost"] += 1
        else:
            counts["unknown"] += 1
        found = re.search(r"Total number of states checked is (\d+)", out)
        positions += int(found.group(1)) if found else 0
    total = sum(per_deal)
    return {"cpu": total, "whole": whole, "startup": startup, "positions": positions, **counts, "per_deal": per_deal}


def solve_all(positions: list, nodes: int | None, preset: str) -> None:
    """Search every position with the engine and replay each winning line."""
    for position in positions:
        status, line, _ = position.engine_search(nodes, None, preset)
        if status == "won":
            replay(position, line)


def whole_process(args: argparse.Namespace) -> float:
    """CPU time of a fresh Python process that imports Winnable, deals the range,
    searches every deal and replays every winning line (`--child`)."""
    command = [sys.executable, os.path.abspath(__file__), "--child", "--game", args.game]
    for flag, value in (("--deals", args.deals), ("--preset", args.preset), ("--nodes", args.nodes)):
        if value is not None:
            command += [flag, str(value)]
    return run_cpu(command)[0]


def dump(path: str, positions: list) -> None:
    """One deal a line, as `engine/examples/common/deal_file.rs` reads them."""
    with open(path, "w") as out:
        for position in positions:
            rules = position.engine_rules()
            flags = (
                rules.columns,
                rules.cells,
                int(rules.build == "suit"),
                ("none", "restricted", "full").index(rules.wrap),
                int(rules.empty_column == "below-base"),
                ("supermove", "unlimited", "cells").index(rules.runs),
                int(rules.auto_beak),
            )
            columns, cells, foundations, base = position.engine_layout()
            fields = [
                str(position.deal_number),
                ",".join(map(str, flags)),
                str(base),
                "|".join(",".join(map(str, c)) for c in columns),
                ",".join(map(str, cells)),
                ",".join(map(str, foundations)),
            ]
            out.write(";".join(fields) + "\n")
    print(f"wrote {len(positions)} deals to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="freecell", help="a free-cell game id (default freecell)")
    parser.add_argument("--deals", help="range A-B (default 1-1000; 1-500 for penguin-pysolfc)")
    parser.add_argument(
        "--preset", help="the engine's search preset (default: the game's ENGINE_PRESET; winnable._engine.freecell_presets() lists them)"
    )
    parser.add_argument("--nodes", type=int, help="Winnable's position budget per deal (default none)")
    parser.add_argument(
        "--fc-solve-limit", type=int, default=1_000_000, help="fc-solve's iteration cap per deal for its default preset (default 1,000,000)"
    )
    parser.add_argument("--no-fc-solve", action="store_true", help="time Winnable alone")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="rounds: each solver once a round, in turn; the fastest round of each is kept (a shared machine)",
    )
    parser.add_argument("--dump", metavar="FILE", help="write the deals for the engine's examples (fc_bench, fc_tune) and stop")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # the whole-process run
    args = parser.parse_args()

    cls = game_class(args.game)
    preset = args.preset or cls.ENGINE_PRESET
    text = args.deals or DEFAULT_DEALS.get(cls.game_id, "1-1000")
    low, _, high = text.partition("-")
    numbers = range(int(low), int(high or low) + 1)
    positions = [cls.deal(n) for n in numbers]
    if args.dump:
        dump(args.dump, positions)
        return
    if args.child:
        solve_all(positions, args.nodes, preset)
        return

    # fc-solve's runs, one of each a round, taken in turn with Winnable's (the load of a
    # shared machine changes within a minute: each side gets the same rounds).
    compare = not args.no_fc_solve and shutil.which("fc-solve") is not None
    runs: list[tuple[str, object]] = []
    if compare and cls.game_id == "freecell":
        for name, options in (("-l lg", ["-l", "lg"]), ("default", ["--total-iterations-limit", str(args.fc_solve_limit)])):
            runs.append((name, lambda options=options: range_solver(numbers.start, numbers.stop - 1, options)))
    elif compare:
        fcs_options = cls.FCS_OPTIONS.split()
        for name, extra in (("-l lg", ["-l", "lg"]), ("default", [])):
            runs.append((name, lambda extra=extra: per_process(cls, numbers, [*fcs_options, *extra], args.fc_solve_limit)))

    engine_cpu = winnable_whole = float("inf")
    results: dict[str, dict] = {}
    for _ in range(args.repeat):
        # Winnable: the engine alone (the fastest round is kept), a whole process.
        start = time.process_time()
        answers = [position.engine_search(args.nodes, None, preset) for position in positions]
        engine_cpu = min(engine_cpu, time.process_time() - start)
        winnable_whole = min(winnable_whole, whole_process(args))
        for name, run in runs:
            result = run()
            if name not in results or result["cpu"] < results[name]["cpu"]:
                results[name] = result
    counts = {"won": 0, "lost": 0, "unknown": 0}
    for status, _, _ in answers:
        counts[status] += 1
    searched = [count for _, _, count in answers]
    start = time.process_time()
    for position, (status, line, _) in zip(positions, answers):
        if status == "won":
            replay(position, line)
    replay_cpu = time.process_time() - start

    print(
        f"{cls.game_id} deals {numbers.start}-{numbers.stop - 1}, one process each, CPU time, fastest of {args.repeat} (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    print(
        f"  winnable {preset:12} {engine_cpu:8.3f} s   won {counts['won']}  lost {counts['lost']}  unknown {counts['unknown']}   "
        f"positions {sum(searched):,} (median {statistics.median(searched):,.0f}, p90 {percentile(sorted(searched), 0.9):,}, max {max(searched):,})"
    )
    print(f"  winnable replay       {replay_cpu:8.3f} s   every winning line checked by the Python rules")
    print(f"  winnable process      {winnable_whole:8.3f} s   a fresh Python process: import, deal, search, replay")
    if args.no_fc_solve:
        return
    if not compare:
        print("  fc-solve not installed (Debian: apt-get install freecell-solver-bin): skipped")
        return

    rows = [(name, results[name]) for name, _ in runs]
    for name, result in rows:
        ratio = engine_cpu / result["cpu"] if result["cpu"] else float("inf")
        whole_ratio = winnable_whole / result["whole"] if result["whole"] else float("inf")
        print(
            f"  fc-solve {name:12} {result['cpu']:8.3f} s   won {result['won']}  lost {result['lost']}  unknown {result['unknown']}   "
            f"iterations {result['positions']:,}   start-up {result['startup'] * 1000:.1f} ms subtracted"
            + (" a process" if cls.game_id != "freecell" else "")
        )
        processes = "its process" if cls.game_id == "freecell" else f"its {len(numbers)} processes"
        print(f"  fc-solve {name:12} {result['whole']:8.3f} s   {processes}, start-up included")
        print(f"    winnable / fc-solve {name}: engine {ratio:.2f}, whole processes {whole_ratio:.2f}")
    if cls.game_id != "freecell":
        print(f"  fc-solve options: {cls.FCS_OPTIONS}  (its 'lost' is not final where it cannot play every move of the rules)")


if __name__ == "__main__":
    sys.exit(main())
