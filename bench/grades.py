"""The grades' figures, their cuts and their validation by simulated players (issue 33;
docs/grades.md gives the figures this printed).

    python bench/grades.py figures GAME FIRST LAST [--out FILE]   # a JSON line a deal
    python bench/grades.py cuts FILE...                           # each game's cuts
    python bench/grades.py validate GAME FIRST LAST [--seeds N]   # win rates by grade

``figures`` grades deals FIRST-LAST (the tuning range: deals 1-2,000) and prints each
one's figures and its CPU time; ``cuts`` reads those lines and prints the scores that
leave 40 % of the winnable deals easy, 35 % medium, 17 % hard and 8 % expert;
``validate`` grades other deals (held out: 1,000,001 on) and plays each with the
simulated players (``winnable.grading.players``): their win rate and cards left per
grade. Everything is counted in positions and seeded: the same run prints the same
figures (but the CPU times).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from winnable.errors import NotGradable
from winnable.games import deal, game_ids
from winnable.grading import CUTS, GRADES, grade_position
from winnable.grading.players import PLAYERS, play

SHARES = (0.40, 0.75, 0.92)
"""The cumulative shares the cuts aim at: easy up to 40 %, medium to 75 %, hard to 92 %."""


def figures(game: str, first: int, last: int, out: Path | None) -> None:
    sink = out.open("a") if out else sys.stdout
    for number in range(first, last + 1):
        start = time.process_time()
        try:
            report = grade_position(deal(game, number))
            row = {"game": game, "deal": number, "grade": report.grade.value, **report.figures}
        except NotGradable:
            row = {"game": game, "deal": number, "grade": None}
        row["cpu"] = round(time.process_time() - start, 5)
        print(json.dumps(row), file=sink, flush=True)


def sweep(games: list[str], last: int, chunk: int, folder: Path) -> None:
    """``figures`` for deals 1-``last`` of every game, ``chunk`` deals of each in turn (so
    that every game has a sample early), into ``folder/GAME.jsonl``; resumable: the deals
    already there are kept."""
    folder.mkdir(parents=True, exist_ok=True)
    done = {}
    for game in games:
        path = folder / f"{game}.jsonl"
        done[game] = {json.loads(line)["deal"] for line in path.read_text().splitlines()} if path.exists() else set()
    for start in range(1, last + 1, chunk):
        for game in games:
            wanted = [number for number in range(start, min(last, start + chunk - 1) + 1) if number not in done[game]]
            for number in wanted:
                figures(game, number, number, folder / f"{game}.jsonl")


HELD_OUT = 1_000_001
"""The first deal of the validation: far from the tuning range (deals 1-10,000)."""


def heldout(plan: list[str], last: int, chunk: int, folder: Path) -> None:
    """Grade held-out deals and play them: each ``GAME:PLAYER=SEEDS,...`` of ``plan``
    (``fourteen-out:random=10,greedy=1,lookahead=1``) gets ``chunk`` deals in turn, up to
    ``last`` deals, a JSON line each in ``folder/GAME.heldout.jsonl`` (resumable): the
    deal's score and grade, and each player's wins and mean cards left."""
    folder.mkdir(parents=True, exist_ok=True)
    games = []
    for entry in plan:
        game, _, players = entry.partition(":")
        games.append((game, {name: int(seeds) for name, seeds in (pair.split("=") for pair in players.split(","))}))
    done = {}
    for game, _ in games:
        path = folder / f"{game}.heldout.jsonl"
        done[game] = {json.loads(line)["deal"] for line in path.read_text().splitlines()} if path.exists() else set()
    for start in range(HELD_OUT, HELD_OUT + last, chunk):
        for game, players in games:
            with (folder / f"{game}.heldout.jsonl").open("a") as sink:
                for number in range(start, start + chunk):
                    if number in done[game]:
                        continue
                    clock = time.process_time()
                    position = deal(game, number)
                    try:
                        report = grade_position(position)
                    except NotGradable:
                        print(json.dumps({"game": game, "deal": number, "grade": None}), file=sink, flush=True)
                        continue
                    row: dict[str, object] = {"game": game, "deal": number, "grade": report.grade.value, "score": report.figures["score"]}
                    row["cpu_grade"] = round(time.process_time() - clock, 5)
                    for player, seeds in players.items():
                        runs = [play(position, player, seed) for seed in range(seeds)]
                        row[player] = [sum(run.won for run in runs), seeds, round(sum(run.cards_left for run in runs) / seeds, 2)]
                    row["cpu"] = round(time.process_time() - clock, 5)
                    print(json.dumps(row), file=sink, flush=True)


def cuts(paths: list[Path]) -> None:
    scores: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            cpu[row["game"]].append(row["cpu"])
            if row["grade"] is not None:
                scores[row["game"]].append(row["score"])
    for game, values in scores.items():
        values.sort()
        chosen = tuple(values[min(len(values) - 1, int(share * len(values)))] for share in SHARES)
        spent = sorted(cpu[game])
        print(
            f'    "{game}": {chosen},  # {len(values)} winnable of {len(spent)}; CPU a deal: mean {sum(spent) / len(spent):.4f} s, '
            f"max {spent[-1]:.3f} s"
        )


def validate(game: str, first: int, last: int, seeds: int, per_grade: int) -> None:
    """Grade deals from ``first`` on until ``per_grade`` of each grade (or ``last``), then
    play them: the random player ``seeds`` times a deal, the others once."""
    chosen: dict[str, list[int]] = defaultdict(list)
    for number in range(first, last + 1):
        if all(len(chosen[grade.value]) >= per_grade for grade in GRADES):
            break
        try:
            grade = grade_position(deal(game, number)).grade.value
        except NotGradable:
            continue
        if len(chosen[grade]) < per_grade:
            chosen[grade].append(number)
    for player in PLAYERS:
        cells = []
        start = time.process_time()
        for grade in GRADES:
            numbers = chosen[grade.value]
            runs = [play(deal(game, number), player, seed) for number in numbers for seed in range(seeds if player == "random" else 1)]
            won = sum(run.won for run in runs)
            left = sum(run.cards_left for run in runs) / max(1, len(runs))
            cells.append(f"{grade.value} {won}/{len(runs)} = {100 * won / max(1, len(runs)):.1f} % (left {left:.1f})")
        spent = time.process_time() - start
        print(
            json.dumps(
                {"game": game, "player": player, "deals": {g: len(v) for g, v in chosen.items()}, "rates": cells, "cpu": round(spent, 1)}
            ),
            flush=True,
        )


def _tier(game: str, score: float) -> str:
    """The grade of ``score`` by the cuts in force (not the one a line was written with)."""
    grade = GRADES[0]
    for candidate, cut in zip(GRADES[1:], CUTS[game]):
        if score >= cut:
            grade = candidate
    return grade.value


def table(folder: Path) -> None:
    """The published table (docs/surveys/grades.md): the share of each grade per game,
    from the ``sweep`` lines in ``folder``, graded by the cuts in force."""
    print("| game | deals | winnable | easy | medium | hard | expert | CPU a deal (mean, max) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game in game_ids(library=True):
        path = folder / f"{game}.jsonl"
        if not path.exists():
            continue
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        numbers = sorted(row["deal"] for row in rows)
        graded = [_tier(game, row["score"]) for row in rows if row["grade"] is not None]
        shares = [f"{100 * graded.count(grade.value) / len(graded):.1f} %" if graded else "-" for grade in GRADES]
        cpu = [row["cpu"] for row in rows]
        span = (
            f"{numbers[0]:,}-{numbers[-1]:,}"
            if len(numbers) == numbers[-1] - numbers[0] + 1
            else f"{len(numbers):,} of {numbers[0]:,}-{numbers[-1]:,}"
        )
        print(
            f"| {game} | {span} | {len(graded):,} ({100 * len(graded) / len(rows):.1f} %) | {' | '.join(shares)} | "
            f"{1000 * sum(cpu) / len(cpu):.1f} ms, {1000 * max(cpu):.0f} ms |"
        )


def validation(folder: Path, players: tuple[str, ...] = PLAYERS) -> None:
    """The validation table (docs/grades.md): each player's win rate (and cards left) per
    grade on the held-out deals of ``heldout``, graded by the cuts in force."""
    print("| game | player | " + " | ".join(grade.value for grade in GRADES) + " | easy+medium / hard+expert | falls? |")
    print("| --- | --- | " + " | ".join("---:" for _ in GRADES) + " | ---: | --- |")
    for game in game_ids(library=True):
        path = folder / f"{game}.heldout.jsonl"
        if not path.exists():
            continue
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        rows = [row for row in rows if row["grade"] is not None]
        for player in players:
            by_grade = {
                grade.value: [row[player] for row in rows if player in row and _tier(game, row["score"]) == grade.value] for grade in GRADES
            }
            if not any(by_grade.values()):
                continue
            cells, rates = [], []
            for grade in GRADES:
                runs = by_grade[grade.value]
                won, played = sum(run[0] for run in runs), sum(run[1] for run in runs)
                left = sum(run[2] for run in runs) / max(1, len(runs))
                rates.append(won / played if played else None)
                cells.append(f"{100 * won / played:.1f} % of {played} (left {left:.1f})" if played else "-")
            known = [rate for rate in rates if rate is not None]
            verdict = "no wins" if not any(known) else ("yes" if all(a >= b for a, b in zip(known, known[1:])) else "no")
            halves = []
            for pair in (GRADES[:2], GRADES[2:]):
                runs = [run for grade in pair for run in by_grade[grade.value]]
                won, played = sum(run[0] for run in runs), sum(run[1] for run in runs)
                halves.append(f"{100 * won / played:.1f} %" if played else "-")
            print(f"| {game} | {player} | {' | '.join(cells)} | {' / '.join(halves)} | {verdict} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("figures")
    one.add_argument("game")
    one.add_argument("first", type=int)
    one.add_argument("last", type=int)
    one.add_argument("--out", type=Path)
    sweeping = commands.add_parser("sweep")
    sweeping.add_argument("games", nargs="+")
    sweeping.add_argument("--last", type=int, default=10_000)
    sweeping.add_argument("--chunk", type=int, default=250)
    sweeping.add_argument("--dir", type=Path, required=True)
    held = commands.add_parser("heldout")
    held.add_argument("plan", nargs="+")
    held.add_argument("--last", type=int, default=1_000)
    held.add_argument("--chunk", type=int, default=25)
    held.add_argument("--dir", type=Path, required=True)
    tabling = commands.add_parser("table")
    tabling.add_argument("--dir", type=Path, required=True)
    validating = commands.add_parser("validation")
    validating.add_argument("--dir", type=Path, required=True)
    two = commands.add_parser("cuts")
    two.add_argument("files", nargs="+", type=Path)
    three = commands.add_parser("validate")
    three.add_argument("game")
    three.add_argument("first", type=int)
    three.add_argument("last", type=int)
    three.add_argument("--seeds", type=int, default=10)
    three.add_argument("--per-grade", type=int, default=40)
    args = parser.parse_args()
    if args.command == "figures":
        figures(args.game, args.first, args.last, args.out)
    elif args.command == "sweep":
        sweep(args.games, args.last, args.chunk, args.dir)
    elif args.command == "heldout":
        heldout(args.plan, args.last, args.chunk, args.dir)
    elif args.command == "table":
        table(args.dir)
    elif args.command == "validation":
        validation(args.dir)
    elif args.command == "cuts":
        cuts(args.files)
    else:
        validate(args.game, args.first, args.last, args.seeds, args.per_grade)


if __name__ == "__main__":
    main()
