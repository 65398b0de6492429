"""Winnable's free-cell engine against fc-solve, side by side on the same deals.

    .venv/bin/python bench/freecell.py                      # penguin-pysolfc 1-500
    .venv/bin/python bench/freecell.py freecell 1-1000
    .venv/bin/python bench/freecell.py penguin-pysolfc 1-500 --cells 5   # 5 flippers

For each deal: Winnable's time is `winnable.solver.solve` in this process (engine search
plus the replay of the line through the Python rules); fc-solve's time is one process
(`fc-solve` from Debian's freecell-solver-bin, default preset) reading the board that
`winnable deal GAME N --format fcs` prints, start-up included, with the options of the
game (`FCS_OPTIONS`, PySolFC's Penguin options for the Penguin presets). fc-solve's
"unsolvable" is not final where it cannot play every move of the rules (the wrap of
PySolFC's Penguin). Prints verdict counts, median / p90 / total times and the load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import time

from winnable.games import game_class
from winnable.solver import Budget, solve


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def fc_solve(board: str, options: str, seconds: float) -> tuple[str, float]:
    started = time.perf_counter()
    try:
        result = subprocess.run(["fc-solve", *options.split()], input=board, capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return "unknown", time.perf_counter() - started
    elapsed = time.perf_counter() - started
    out = result.stdout
    if "This game is solveable" in out:
        return "won", elapsed
    if "I could not solve" in out:
        return "lost", elapsed
    return "unknown", elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="penguin-pysolfc")
    parser.add_argument("deals", nargs="?", default="1-500")
    parser.add_argument("--cells", type=int, help="play the game with this many free cells (both solvers)")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per deal and solver")
    parser.add_argument("--no-fc-solve", action="store_true")
    args = parser.parse_args()
    cls = game_class(args.game)
    low, _, high = args.deals.partition("-")
    numbers = range(int(low), int(high or low) + 1)
    options = cls.FCS_OPTIONS
    if args.cells is not None:
        # The same rules with another number of cells (not a registered game).
        cls = type(f"{cls.__name__}{args.cells}", (cls,), {"CELLS": args.cells, "game_id": f"{cls.game_id}+{args.cells}cells", "__slots__": ()})
        words = options.split()
        if "--freecells-num" in words:
            words[words.index("--freecells-num") + 1] = str(args.cells)
        else:
            words += ["--freecells-num", str(args.cells)]
        options = " ".join(words)
    use_fcs = not args.no_fc_solve and shutil.which("fc-solve") is not None
    ours: dict[str, int] = {"won": 0, "lost": 0, "unknown": 0}
    theirs: dict[str, int] = {"won": 0, "lost": 0, "unknown": 0}
    our_times: list[float] = []
    our_cpu: list[float] = []
    their_times: list[float] = []
    only_ours, only_theirs = [], []
    load = os.getloadavg()[0]
    for number in numbers:
        position = cls.deal(number)
        cpu = time.process_time()
        verdict = solve(position, Budget(seconds=args.seconds))
        our_cpu.append(time.process_time() - cpu)
        ours[verdict.status.value] += 1
        our_times.append(verdict.seconds)
        if use_fcs:
            status, elapsed = fc_solve(position.export("fcs"), options, args.seconds)
            theirs[status] += 1
            their_times.append(elapsed)
            if verdict.status.value == "won" and status != "won":
                only_ours.append(number)
            if status == "won" and verdict.status.value != "won":
                only_theirs.append(number)

    def line(name: str, counts: dict[str, int], times: list[float]) -> str:
        return (
            f"  {name:9} won {counts['won']:5}  lost {counts['lost']:5}  unknown {counts['unknown']:5}   "
            f"median {statistics.median(times) * 1000:8.3f} ms  p90 {percentile(times, 0.9) * 1000:8.3f} ms  "
            f"total {sum(times):8.2f} s"
        )

    print(f"{cls.game_id} deals {args.deals} (load average at start {load:.2f} on {os.cpu_count()} cores)")
    print(line("winnable", ours, our_times))
    print(f"  winnable CPU time per deal: median {statistics.median(our_cpu) * 1000:.3f} ms  p90 {percentile(our_cpu, 0.9) * 1000:.3f} ms (wall time above; the machine is shared)")
    if use_fcs:
        print(line("fc-solve", theirs, their_times))
        print(f"  fc-solve options: {options}")
        print(f"  won by Winnable only: {len(only_ours)} {only_ours[:20]}")
        print(f"  won by fc-solve only: {len(only_theirs)} {only_theirs[:20]}")
        faster = sum(a < b for a, b in zip(our_times, their_times))
        print(f"  Winnable faster on {faster} of {len(our_times)} deals")
    elif not args.no_fc_solve:
        print("  fc-solve not found (Debian: apt-get install freecell-solver-bin)")


if __name__ == "__main__":
    main()
