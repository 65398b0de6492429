"""The published tables: text tables, comparisons and pictures from a survey's lines."""

from __future__ import annotations

import dataclasses
import gzip
import json

import pytest

from winnable.report import TABLES, Table, lines_digest, survey_command, text_table, write_reports
from winnable.survey import verdicts_digest


def records(verdicts: dict[int, str], game: str = "freecell") -> list[dict]:
    return [{"game": game, "deal": deal, "verdict": verdict, "positions": deal * 10, "seconds": 0.002,
             "cpu_seconds": 0.001 * deal, "moves": 90 if verdict == "won" else 0} for deal, verdict in verdicts.items()]


def write_lines(path, entries) -> None:
    with gzip.open(path, "wt") as handle:
        handle.writelines(json.dumps(entry) + "\n" for entry in entries)


def test_every_table_has_a_command_that_reproduces_it():
    assert len(TABLES) == 16
    for table in TABLES.values():
        command = survey_command(table, table.data_name)
        assert command[:4] == ["winnable", "survey", table.game, f"{table.first}-{table.last}"]
        assert ("--nodes" in command) == (table.nodes is not None)
    assert TABLES["black-hole"].nodes is None and TABLES["black-hole"].published_won == 869_413


def test_a_text_table_compares_lost_deals_with_the_published_ones(tmp_path):
    table = Table("fc", "freecell", 11980, 11984, nodes=1000, title="FreeCell test", known_lost=(11982, 146692))
    entries = records({11980: "won", 11981: "won", 11982: "lost", 11983: "unknown", 11984: "lost"})
    path = tmp_path / table.data_name
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    text = text_table(table, entries, {"engine": "0.1.0+abc", "commit": "1234"}, path)
    assert "winnable survey freecell 11980-11984" in text and "--nodes 1000" in text and "0.1.0+abc" in text
    assert "won                2   40.0000 %" in text and "unknown            1   20.0000 %" in text
    assert "lost deals in this range: 11982" in text and "deal 11982: lost here" in text
    assert "lost here but not published as lost: 11984" in text and "unknown     11983" in text
    assert lines_digest(path) in text and verdicts_digest(entries) in text


def test_a_published_count_is_compared_only_on_the_whole_range(tmp_path):
    table = Table("bh", "black-hole", 1, 4, title="Black Hole test", published_won=3, published_source="a solver")
    path = tmp_path / table.data_name
    whole = records({1: "lost", 2: "won", 3: "won", 4: "won"}, "black-hole")
    assert "3 won (a solver): the same count" in text_table(table, whole, {}, _write(path, whole))
    assert "not comparable: a partial run" in text_table(table, whole[:3], {}, _write(path, whole[:3]))
    other = dataclasses.replace(table, published_won=4)
    assert "-1 here" in text_table(other, whole, {}, _write(path, whole))


def _write(path, entries):
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    return path


def test_reports_and_pictures_from_a_data_folder(tmp_path):
    pytest.importorskip("matplotlib")
    data = tmp_path / "data"
    data.mkdir()
    tables = [Table("fc", "freecell", 1, 6, nodes=100, title="FreeCell"),
              Table("bw", "black-widow", 1, 4, nodes=100, title="Black Widow")]
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
