"""The grades (winnable.grading): every game grades, the same deal gets the same grade in
another process, the figures behind a grade hold what they claim."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from winnable import _engine
from winnable.errors import NotGradable, WinnableError
from winnable.games import deal, game_ids
from winnable.grading import CUTS, FIGURES, GRADES, Grade, GradeReport, grade_deal, grade_position
from winnable.grading.measures import CELLS_NODES, fewest_cells, forgiveness, proved

# A deal of each game its bounded search wins (the first few deals; penguin-0 has none).
WON = {game: 3 for game in game_ids(library=True)} | {"penguin-3": 12, "penguin-5": 2, "fourteen-out": 4, "bakers-game": 2}


def test_the_grades_are_ordered_and_json_able():
    assert [grade.value for grade in GRADES] == ["easy", "medium", "hard", "expert"]
    assert [grade.order for grade in GRADES] == [0, 1, 2, 3]
    assert Grade("hard") is Grade.HARD and str(Grade.EXPERT) == "expert"
    report = grade_deal("black-hole", 2)
    assert isinstance(report, GradeReport) and json.loads(json.dumps(report.to_json()))["grade"] == report.grade.value
    assert set(FIGURES) <= set(report.figures)


@pytest.mark.parametrize("game", [game for game in game_ids(library=True) if game != "penguin-0"])
def test_every_game_grades(game):
    report = grade_deal(game, WON[game])
    assert report.grade in GRADES
    assert report.figures["positions"] > 0 and report.figures["moves"] > 0
    low, middle, high = CUTS[game]
    assert low <= middle <= high
    expected = [grade for grade, cut in zip(GRADES[1:], CUTS[game]) if report.figures["score"] >= cut]
    assert report.grade == (expected[-1] if expected else Grade.EASY)


def test_a_deal_not_proved_winnable_has_no_grade():
    for game, number in [("black-hole", 1), ("penguin-0", 1), ("fourteen-out", 3)]:
        with pytest.raises(NotGradable, match=f"{game} deal {number} is not proved winnable"):
            grade_deal(game, number)
    assert issubclass(NotGradable, WinnableError)


def test_a_position_grades_as_its_deal_and_a_won_one_is_easy():
    position = deal("freecell", 5)
    assert grade_position(position) == grade_deal("freecell", 5)
    line = proved(position).line
    halfway = position.play_line(line[: len(line) // 2])
    held = sum(card is not None for card in halfway.cells)
    assert held <= grade_position(halfway).figures["cells"] <= 4  # the cards a position holds in cells count
    assert grade_position(position.play_line(line)).grade is Grade.EASY


SAMPLE = [("black-hole", 2), ("fourteen-out", 4), ("penguin", 1), ("freecell", 6), ("spider-2", 1)]


def test_grades_are_the_same_in_another_process():
    here = {f"{game} {number}": grade_deal(game, number).to_json() for game, number in SAMPLE}
    code = (
        "import json; from winnable.grading import grade_deal; "
        f"print(json.dumps({{f'{{g}} {{n}}': grade_deal(g, n).to_json() for g, n in {SAMPLE!r}}}))"
    )
    there = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout)
    assert there == here


def test_forgiveness_counts_decisions_forced_and_bits():
    position = deal("black-hole", 2)
    figures = forgiveness(position, proved(position).line)
    assert 0 < figures.forced <= figures.decisions <= 51
    assert figures.bits >= figures.forced  # a forced decision has at least two moves: a bit or more
    # A child search too small to win anything: every decision keeps one move (the line's), all forced.
    blind = forgiveness(position, proved(position).line, child_nodes=1)
    assert blind.forced == blind.decisions and blind.bits > figures.bits


def test_fewest_cells_wins_with_that_many_and_not_one_fewer():
    position = deal("freecell", 1)
    cells = fewest_cells(position)
    assert 0 <= cells.fewest <= 4
    columns, _, foundations, base = position.engine_layout()
    cls = type(position)

    def status(count: int) -> str:
        rules = _engine.FreeCellRules(
            columns=cls.COLUMNS,
            cells=count,
            build=cls.BUILD,
            wrap=cls.WRAP,
            empty_column=cls.EMPTY_COLUMN,
            runs=cls.RUNS,
            auto_beak=cls.AUTO_BEAK,
        )
        return _engine.freecell_solve(rules, columns, [255] * count, foundations, base, CELLS_NODES, None, shorten=False)[0]

    assert status(cells.fewest) == "won"
    if cells.fewest:
        assert status(cells.fewest - 1) != "won"
    score = grade_deal("freecell", 1).figures["score"]
    assert math.floor(score) == cells.fewest  # the cells first, the search's positions below the point
