"""The published tables: text tables, comparisons and pictures from a survey's lines."""

from __future__ import annotations

import dataclasses
import gzip
import json

import pytest

from required import require_module
from winnable.surveys.data import SurveyData, lines_digest
from winnable.surveys.report import FREECELL_UNWINNABLE, TABLES, Table, survey_command, text_table, write_reports
from winnable.surveys.survey import verdicts_digest


def records(verdicts: dict[int, str], game: str = "freecell") -> list[dict]:
    return [
        {
            "game": game,
            "deal": deal,
            "verdict": verdict,
            "positions": deal * 10,
            "seconds": 0.002,
            "cpu_seconds": 0.001 * deal,
            "moves": 90 if verdict == "won" else 0,
        }
        for deal, verdict in verdicts.items()
    ]


def write_lines(path, entries) -> None:
    with gzip.open(path, "wt") as handle:
        handle.writelines(json.dumps(entry) + "\n" for entry in entries)


def table_text(table: Table, entries: list[dict], meta: dict, path) -> str:
    """The text table of ``entries``, written as JSON lines at ``path`` and kept small."""
    if not path.exists():
        _write(path, entries)
    return text_table(table, SurveyData.from_lines(path, table.game, table.first, table.last, table.numbering, meta))


def test_every_table_has_a_command_that_reproduces_it():
    assert len(TABLES) == 18
    for table in TABLES.values():
        command = survey_command(table, table.data_name)
        assert command[:4] == ["winnable", "survey", table.game, f"{table.first}-{table.last}"]
        assert ("--nodes" in command) == (table.nodes is not None)
        assert ("--numbering" in command) == (table.id == "freecell-ms")
    assert len({table.data_name for table in TABLES.values()}) == 18  # freecell-ms has lines of its own
    assert TABLES["black-hole"].nodes is None and TABLES["black-hole"].published_won == 869_413
    assert TABLES["fourteen-out"].nodes is None and TABLES["fourteen-out"].last == 1_000_000


def test_a_text_table_compares_lost_deals_with_the_published_ones(tmp_path):
    table = Table("fc", "freecell", 11980, 11984, nodes=1000, title="FreeCell test", known_lost=(11982, 146692))
    entries = records({11980: "won", 11981: "won", 11982: "lost", 11983: "unknown", 11984: "lost"})
    path = tmp_path / table.data_name
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    text = table_text(table, entries, {"engine": "0.1.0+abc", "commit": "1234"}, path)
    assert "winnable survey freecell 11980-11984" in text and "--nodes 1000" in text and "0.1.0+abc" in text
    assert "won                2   40.0000 %" in text and "unknown            1   20.0000 %" in text
    assert "lost deals in this range: 11982" in text and "deal 11982: lost here" in text
    assert "lost here but not published as lost: 11984" in text and "unknown     11983" in text
    assert lines_digest(path) in text and verdicts_digest(entries) in text


def test_microsofts_freecell_table_compares_all_eight_known_deals():
    table = TABLES["freecell-ms"]
    assert (table.game, table.first, table.last, table.nodes) == ("freecell", 1, 1_000_000, 20_000_000)
    assert table.title == "FreeCell, Microsoft's deals 1-1,000,000" and table.data_name == "freecell-ms1-1000000.jsonl"
    assert table.known_lost == FREECELL_UNWINNABLE and len(table.known_lost) == 8
    assert survey_command(table, "x.jsonl")[4:6] == ["--numbering", "microsoft"]


@pytest.mark.parametrize("table_id", ["freecell", "freecell-100k"])
def test_pysolfc_freecell_tables_compare_only_the_deals_dealt_the_microsoft_way(tmp_path, table_id):
    table = dataclasses.replace(TABLES[table_id], last=5)
    assert TABLES[table_id].known_lost == (11982,)
    entries = records({1: "won", 2: "lost", 3: "won", 4: "won", 5: "won"})
    text = table_text(table, entries, {}, _write(tmp_path / table.data_name, entries))
    assert "lost deals in this range: none" in text
    assert "numbers from 32000 on are its Mersenne Twister's deals" in text
    assert "lost here but not published as lost: 2" in text


def test_a_microsoft_text_table_names_its_numbering(tmp_path):
    table = dataclasses.replace(TABLES["freecell-ms"], first=146690, last=146693)
    entries = [dict(entry, numbering="microsoft") for entry in records({146690: "won", 146691: "won", 146692: "lost", 146693: "won"})]
    text = table_text(table, entries, {}, _write(tmp_path / table.data_name, entries))
    assert "winnable survey freecell 146690-146693 --numbering microsoft" in text
    assert "deals       ms146,690-ms146,693: 4 surveyed" in text
    assert "lost deals in this range: 146692" in text and "deal 146692: lost here" in text
    assert "not published as lost" not in text


def test_a_published_count_is_compared_only_on_the_whole_range(tmp_path):
    table = Table("bh", "black-hole", 1, 4, title="Black Hole test", published_won=3, published_source="a solver")
    path = tmp_path / table.data_name
    whole = records({1: "lost", 2: "won", 3: "won", 4: "won"}, "black-hole")
    assert "3 won (a solver): the same count" in table_text(table, whole, {}, _write(path, whole))
    assert "not comparable: a partial run" in table_text(table, whole[:3], {}, _write(path, whole[:3]))
    other = dataclasses.replace(table, published_won=4)
    assert "-1 here" in table_text(other, whole, {}, _write(path, whole))


def _write(path, entries):
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    return path


def test_reports_and_pictures_from_a_data_folder(tmp_path):
    require_module("matplotlib", "pip install -e '.[test]'")
    data = tmp_path / "data"
    data.mkdir()
    tables = [Table("fc", "freecell", 1, 6, nodes=100, title="FreeCell"), Table("bw", "black-widow", 1, 4, nodes=100, title="Black Widow")]
    write_lines(data / f"{tables[0].data_name}.gz", records({n: "won" for n in range(1, 7)}))
    write_lines(data / f"{tables[1].data_name}.gz", records({1: "won", 2: "unknown", 3: "unknown", 4: "lost"}, "black-widow"))
    (data / f"{tables[1].data_name}.meta.json").write_text(json.dumps({"engine": "E1", "wall_seconds": 5, "cpu_seconds": 9, "jobs": 2}))
    report = write_reports(data, tmp_path, tables)
    assert [path.name for path in report.tables] == ["fc.txt", "bw.txt"]
    assert "E1" in (tmp_path / "bw.txt").read_text() and "5 s of wall time, 9 s of CPU" in (tmp_path / "bw.txt").read_text()
    for picture in report.pictures:
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 5000
    index = report.index.read_text()
    assert "| [Black Widow](bw.txt) | 4 | 25.0000 % | 25.0000 % | 50.0000 % |" in index and "win-rates.png" in index
