"""``winnable grade``, ``winnable deal --grade`` and ``winnable survey --grades``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from winnable.cli import app
from winnable.grading import grade_deal
from winnable.surveys.data import SurveyData


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_grade_prints_a_line_a_deal():
    result = run("grade", "black-hole", "1-4")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["black-hole 1 -"] + [f"black-hole {n} {grade_deal('black-hole', n).grade}" for n in (2, 3, 4)]


def test_grade_json_gives_the_figures():
    rows = [json.loads(line) for line in run("grade", "fourteen-out", "3-4", "--json").stdout.splitlines()]
    assert rows[0]["grade"] is None and "not proved winnable" in rows[0]["reason"]
    assert rows[1] == {"game": "fourteen-out", "deal": 4, **grade_deal("fourteen-out", 4).to_json()}


def test_grade_takes_microsoft_numbers():
    row = json.loads(run("grade", "freecell", "ms2", "--json").stdout)
    assert row["deal"] == 2 and row["numbering"] == "microsoft" and row["grade"] in ("easy", "medium", "hard", "expert")


def test_deal_grade():
    assert run("deal", "penguin", "3", "--grade").stdout == f"penguin 3 {grade_deal('penguin', 3).grade}\n"
    row = json.loads(run("deal", "penguin", "3", "--grade", "--json").stdout)
    assert row["figures"] == dict(grade_deal("penguin", 3).figures)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("grade", "nope", "1"), "unknown game 'nope'"),
        (("grade", "penguin", "5-2"), "empty range '5-2'"),
        (("grade", "penguin", "x"), "not a range of deal numbers"),
        (("grade", "penguin", "1-2", "--numbering", "vegas"), "--numbering"),
        (("deal", "penguin", "x1", "--grade"), "not a deal number"),
    ],
)
def test_bad_input_exits_2_with_a_reason(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stdout == ""


def test_survey_keeps_grades_beside_verdicts(tmp_path):
    out = tmp_path / "bh.jsonl"
    result = run("survey", "black-hole", "1-6", "--grades", "--out", str(out), "--jobs", "1", "--quiet")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["grade"] for row in rows] == [None] + [grade_deal("black-hole", n).grade.value for n in range(2, 7)]
    kept = SurveyData.from_lines(out)
    kept.write(tmp_path / "kept", "bh")
    again = SurveyData.read(tmp_path / "kept", "bh")
    assert again.grades is not None and [again.grades.grade(n) for n in range(1, 7)] == [row["grade"] for row in rows]
    plain = tmp_path / "plain.jsonl"
    run("survey", "black-hole", "1-2", "--out", str(plain), "--jobs", "1", "--quiet")
    assert "grade" not in plain.read_text() and SurveyData.from_lines(plain).grades is None
