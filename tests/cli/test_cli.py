"""The ``winnable`` command as a user types it."""

import json
import subprocess
import sys

import pytest

from winnable.blackhole import BlackHole


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "winnable.cli", *args], capture_output=True, text=True, input=stdin, timeout=300)


def test_deal_prints_text_bhs_and_json():
    text = run("deal", "black-hole", "1")
    assert text.returncode == 0 and text.stdout == BlackHole.deal(1).to_text()
    bhs = run("deal", "black-hole", "1", "--format", "bhs")
    assert bhs.stdout.splitlines()[:2] == ["Foundations: AS", "JD KS TH"]
    data = json.loads(run("deal", "black-hole", "1", "--json").stdout)
    assert data["game"] == "black-hole" and data["deal"] == 1 and len(data["piles"]) == 17


def test_solve_prints_a_line_that_wins_when_typed():
    result = run("solve", "black-hole", "2")
    assert result.returncode == 0
    assert "black hole deal 2: won" in result.stdout.lower()
    moves = [word.split(".", 1)[1] for line in result.stdout.splitlines() if line.startswith("  ") for word in line.split()]
    assert len(moves) == 51
    position = BlackHole.deal(2)
    for move in moves:
        position = position.play(move)
    assert position.is_won()
    assert "positions searched" in result.stdout and "time" in result.stdout


def test_solve_json_and_lost_deal():
    data = json.loads(run("solve", "black-hole", "1", "--json").stdout)
    assert data["verdict"] == "lost" and data["moves"] == 0 and data["positions"] >= 1


def test_solve_a_position_from_a_file(tmp_path):
    board = tmp_path / "deal.txt"
    board.write_text(BlackHole.deal(2).play("KH").to_bhs())
    data = json.loads(run("solve", "black-hole", "--file", str(board), "--format", "bhs", "--json").stdout)
    assert data["verdict"] in ("won", "lost")
    stdin = run("solve", "black-hole", "--file", "-", "--json", stdin=BlackHole.deal(2).to_text())
    assert json.loads(stdin.stdout)["verdict"] == "won"


def test_survey_counts_and_writes_json_lines(tmp_path):
    out = tmp_path / "survey.jsonl"
    result = run("survey", "black-hole", "1-40", "--out", str(out), "--quiet", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["deal"] for r in records] == list(range(1, 41))
    for record in records:
        assert set(record) >= {"game", "deal", "verdict", "positions", "seconds", "cpu_seconds", "moves"}
        assert record["verdict"] in ("won", "lost")
        assert 0 <= record["cpu_seconds"] and 0 <= record["seconds"]
        assert record["moves"] == (51 if record["verdict"] == "won" else 0)
    won = sum(r["verdict"] == "won" for r in records)
    assert f"won      {won:>9}" in result.stdout
    assert "median" in result.stdout and "p90" in result.stdout and "CPU per deal" in result.stdout
    summary = json.loads(run("survey", "black-hole", "1-5", "--json", "--quiet").stdout)
    assert summary["count"] == 5 and summary["won"] + summary["lost"] + summary["unknown"] == 5
    assert set(summary["cpu_seconds"]) == {"median", "p90", "max", "total"}


def test_survey_memory_bound_reaches_the_spider_search(tmp_path):
    """Deal 2's first pass needs more than the 139,810 positions 16 MB hold: it ends there
    and a later pass wins, with other positions than at the default bound."""
    records = {}
    for memory in (None, "16"):
        out = tmp_path / f"{memory}.jsonl"
        extra = ["--memory-mb", memory] if memory else []
        result = run("survey", "spider-4", "2-2", "--nodes", "1000000", "--quiet", "--out", str(out), *extra)
        assert result.returncode == 0, result.stderr
        records[memory] = json.loads(out.read_text())
    assert records[None]["verdict"] == records["16"]["verdict"] == "won"
    assert records[None]["positions"] > 300_000 > records["16"]["positions"]


def test_survey_budget_leaves_unknowns():
    summary = json.loads(run("survey", "black-hole", "400-400", "--json", "--quiet", "--nodes", "10").stdout)
    assert summary["unknown"] == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (("solve", "chess", "1"), "unknown game"),
        (("survey", "black-hole", "10-1"), "empty range"),
        (("survey", "black-hole", "a-b"), "not a range"),
        (("deal", "black-hole", "0"), "out of range"),
        (("deal", "black-hole", "7", "--format", "fcs"), "no board format"),
        (("solve", "black-hole", "--file", "/no/such/file"), "cannot read"),
        (("solve", "black-hole"), "deal number or --file"),
        (("solve", "black-hole", "1", "--nodes", "0"), "positive"),
        (("solve", "spider-4", "1", "--memory-mb", "8"), "a memory bound must be a whole number of megabytes from 16"),
        (("survey", "spider-4", "1-2", "--memory-mb", "0"), "a memory bound must be"),
        (("deal", "freecell", "ms8589934592"), "Microsoft deal number out of range: ms8589934592 (ms0 to ms8589934591)"),
        (("solve", "freecell", "msx"), "not a deal number"),
        (("survey", "freecell", "ms1-ms99999999999"), "Microsoft deal number out of range"),
        (("survey", "freecell", "1-ms5"), "write ms1-ms1000"),
        (("survey", "freecell", "ms1-5", "--numbering", "pysolfc"), "not of --numbering pysolfc"),
        (("survey", "freecell", "1-5", "--numbering", "windows"), "no numbering 'windows'"),
        (("survey", "freecell", "ms1-5", "--database", "sqlite:///unused.db"), "--database holds PySolFC's deal numbers"),
        (("survey", "freecell", "1-5", "--numbering", "microsoft", "--database", "sqlite:///unused.db"), "--database holds"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_bad_file_contents_exit_2(tmp_path):
    board = tmp_path / "bad.txt"
    board.write_text("Foundations: AS\nQQ KK\n")
    result = run("solve", "black-hole", "--file", str(board), "--format", "bhs")
    assert result.returncode == 2 and "not a card" in result.stderr


def test_games_lists_black_hole():
    assert "black-hole" in run("games").stdout


# -- Microsoft's numbering -------------------------------------------------------------
def test_deal_and_solve_take_microsoft_numbers():
    from winnable.freecell import FreeCell

    dealt = run("deal", "freecell", "ms146692")
    assert dealt.returncode == 0 and dealt.stdout == FreeCell.deal("ms146692").to_text()
    assert dealt.stdout != run("deal", "freecell", "146692").stdout  # PySolFC's 146692 is another deal
    as_json = json.loads(run("deal", "freecell", "ms146692", "--json").stdout)
    assert as_json["deal"] == 146692 and as_json["numbering"] == "microsoft"
    assert "numbering" not in json.loads(run("deal", "freecell", "146692", "--json").stdout)
    solved = run("solve", "freecell", "ms146692", "--nodes", "3000000")
    assert solved.returncode == 0 and solved.stdout.startswith("FreeCell deal ms146692: lost")
    verdict = json.loads(run("solve", "freecell", "ms146692", "--json", "--nodes", "3000000").stdout)
    assert (verdict["deal"], verdict["verdict"], verdict["numbering"]) == (146692, "lost", "microsoft")


def test_a_microsoft_survey_says_its_numbering(tmp_path):
    out = tmp_path / "ms.jsonl"
    result = run("survey", "freecell", "ms31998-ms32001", "--out", str(out), "--quiet", "--json", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["deals"], summary["numbering"], summary["count"]) == ("ms31998-ms32001", "microsoft", 4)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["deal"], r["numbering"]) for r in records] == [(n, "microsoft") for n in range(31998, 32002)]
    same = json.loads(run("survey", "freecell", "31998-32001", "--numbering", "microsoft", "--quiet", "--json", "--jobs", "1").stdout)
    assert same["deals"] == "ms31998-ms32001" and same["positions"] == summary["positions"]
    pysolfc = json.loads(run("survey", "freecell", "31998-32001", "--quiet", "--json", "--jobs", "1").stdout)
    assert pysolfc["numbering"] == "pysolfc" and pysolfc["deals"] == "31998-32001"
