"""Surveys kept small (two bits a deal and the figures), and the published ones read back.

The published tables in ``docs/surveys/`` are made from the kept data in
``docs/surveys/data/`` alone: every table is made again here from it and must be the
committed one, and the counts the README and the tables quote are read from the bits.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from required import require_module
from winnable.deals import Numbering
from winnable.surveys.data import DealVerdicts, SurveyData
from winnable.surveys.report import FREECELL_UNWINNABLE, TABLES, Table, index_text, text_table, write_reports

SURVEYS = Path(__file__).resolve().parents[2] / "docs" / "surveys"
DATA = SURVEYS / "data"


def records(verdicts: dict[int, str], game: str = "black-hole") -> list[dict]:
    return [
        {
            "game": game,
            "deal": deal,
            "verdict": verdict,
            "positions": 7 * deal,
            "seconds": 0.004,
            "cpu_seconds": 0.000123 * deal,
            "moves": 51 if verdict == "won" else 0,
        }
        for deal, verdict in verdicts.items()
    ]


def write_lines(path: Path, entries: list[dict]) -> Path:
    with gzip.open(path, "wt") as handle:
        handle.writelines(json.dumps(entry) + "\n" for entry in entries)
    return path


# -- the format ----------------------------------------------------------------------------
def test_two_bits_a_deal_the_first_deal_lowest():
    verdicts = DealVerdicts.of("freecell", 10, 15, records({10: "won", 11: "lost", 12: "unknown", 14: "won", 15: "lost"}, "freecell"))
    header, packed = verdicts.to_bytes().split(b"\n")
    assert header == b"winnable-verdicts 1 freecell pysolfc 10 15"
    assert packed == bytes([0b00_11_10_01, 0b10_01])  # 13 was not surveyed: 0
    assert [verdicts.verdict(deal) for deal in range(9, 17)] == [None, "won", "lost", "unknown", None, "won", "lost", None]
    assert verdicts.counts() == {"won": 2, "lost": 2, "unknown": 1} and verdicts.surveyed == 5
    assert verdicts.deals("won") == [10, 14] and verdicts.span() == (10, 15)


def test_a_file_round_trips_and_is_the_same_bytes_each_time(tmp_path):
    verdicts = DealVerdicts.of(
        "freecell",
        1,
        1000,
        records({n: ("lost" if n % 7 == 0 else "won") for n in range(1, 1001)}, "freecell"),
        numbering=Numbering.MICROSOFT,
    )
    verdicts.write(tmp_path / "a.verdicts.gz")
    verdicts.write(tmp_path / "b.verdicts.gz")
    assert (tmp_path / "a.verdicts.gz").read_bytes() == (tmp_path / "b.verdicts.gz").read_bytes()
    again = DealVerdicts.read(tmp_path / "a.verdicts.gz")
    assert again == verdicts and again.numbering.value == "microsoft" and again.sha256 == verdicts.sha256
    assert again.deals("lost") == list(range(7, 1001, 7))


@pytest.mark.parametrize(
    "entries, message",
    [
        (records({1: "won", 6: "won"}), "deal 6 is not in the survey"),
        (records({1: "won"}) * 2, "deal 1 twice"),
        (records({1: "won"}, "freecell"), "freecell deal 1 is not in the survey of black-hole"),
    ],
)
def test_records_that_do_not_fit_the_survey_are_refused(entries, message):
    with pytest.raises(ValueError, match=message):
        DealVerdicts.of("black-hole", 1, 5, entries)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"winnable-verdicts 2 black-hole pysolfc 1 4\n\x00", "not a verdicts file of format 1"),
        (b"something else\n\x00", "not a verdicts file"),
        (b"winnable-verdicts 1 black-hole pysolfc 1 8\n\x00", "1 bytes of verdicts for deals 1-8"),
        (b"winnable-verdicts 1 black-hole pysolfc 5 1\n", "not a range of deals"),
    ],
)
def test_a_damaged_file_is_refused(data, message):
    with pytest.raises(ValueError, match=message):
        DealVerdicts.from_bytes(data)


def test_the_converter_keeps_the_figures_and_a_partial_run_leaves_deals_unsurveyed(tmp_path):
    entries = records({1: "won", 2: "lost", 3: "won", 5: "unknown"})
    survey = SurveyData.from_lines(write_lines(tmp_path / "bh.jsonl.gz", entries), "black-hole", 1, 6, run={"engine": "E"})
    assert survey.verdicts.verdict(4) is None and survey.verdicts.verdict(6) is None and survey.verdicts.surveyed == 4
    figures = survey.figures
    assert figures.count == 4 and figures.positions == {"median": 14, "p90": 35, "max": 35, "total": 77}
    assert figures.cpu_seconds["max"] == pytest.approx(0.000615) and figures.cpu_curve_us == (123, 246, 369, 615)
    assert figures.curve() == ([0.000123, 0.000246, 0.000369, 0.000615], [25.0, 50.0, 75.0, 100.0])
    written = survey.write(tmp_path / "kept", "bh")
    assert [path.name for path in written] == ["bh.verdicts.gz", "bh.json"]
    assert SurveyData.read(tmp_path / "kept", "bh") == survey


def test_figures_made_for_other_verdicts_are_refused(tmp_path):
    one = SurveyData.from_lines(write_lines(tmp_path / "a.jsonl.gz", records({1: "won", 2: "won"})))
    other = SurveyData.from_lines(write_lines(tmp_path / "b.jsonl.gz", records({1: "won", 2: "lost"})))
    one.write(tmp_path, "x")
    other.verdicts.write(tmp_path / "x.verdicts.gz")
    with pytest.raises(ValueError, match="made for other verdicts"):
        SurveyData.read(tmp_path, "x")


def test_a_report_from_json_lines_keeps_them_small_and_reads_them_back(tmp_path):
    require_module("matplotlib", "pip install -e '.[test]'")  # for the pictures
    table = Table("bh", "black-hole", 1, 5, title="Black Hole test")
    lines = write_lines(tmp_path / f"{table.data_name}.gz", records({1: "won", 2: "lost", 3: "won", 4: "won", 5: "won"}))
    first = write_reports(tmp_path, tmp_path / "out", [table]).tables[0].read_text()
    lines.unlink()
    assert (tmp_path / "black-hole-1-5.verdicts.gz").exists() and (tmp_path / "black-hole-1-5.json").exists()
    assert write_reports(tmp_path, tmp_path / "again", [table]).tables[0].read_text() == first


# -- the published surveys -----------------------------------------------------------------
@pytest.fixture(scope="module")
def published() -> dict[str, SurveyData]:
    return {table.id: SurveyData.read(DATA, table.stem) for table in TABLES.values()}


@pytest.mark.parametrize("table", TABLES.values(), ids=list(TABLES))
def test_every_published_table_is_made_from_the_kept_data(published, table):
    text = (SURVEYS / f"{table.id}.txt").read_text()
    survey = published[table.id]
    assert text_table(table, survey) == text
    counts = survey.verdicts.counts()
    for verdict in ("won", "lost", "unknown"):
        assert re.search(rf"^  {verdict} +{counts[verdict]:,} ", text, re.M), verdict
    assert f"sha256 of the verdicts file  {survey.verdicts.sha256}" in text
    assert survey.verdicts.surveyed == table.last - table.first + 1  # every published survey is whole


def test_the_index_is_made_from_the_kept_data(published):
    assert index_text([(table, published[table.id]) for table in TABLES.values()]) == (SURVEYS / "index.md").read_text()


def test_black_hole_has_the_published_count(published):
    verdicts = published["black-hole"].verdicts
    assert verdicts.counts() == {"won": 869_413, "lost": 130_587, "unknown": 0}
    assert (verdicts.first, verdicts.last) == (1, 1_000_000)
    assert (DATA / "black-hole-1-1000000.verdicts.gz").stat().st_size < 100_000  # two bits a deal, compressed


def test_freecell_lost_deals_are_the_published_ones(published):
    assert published["freecell-ms"].verdicts.deals("lost") == list(FREECELL_UNWINNABLE)
    pysolfc = published["freecell"].verdicts.deals("lost")
    assert 11982 in pysolfc and len(pysolfc) == 12 and published["freecell-100k"].verdicts.deals("lost") == [11982]


def test_the_kept_data_fits_the_repository():
    kept = [path for path in DATA.iterdir() if path.name.endswith((".verdicts.gz", ".json"))]
    assert len(kept) == 2 * len(TABLES) and sum(path.stat().st_size for path in kept) < 1_000_000


def test_the_first_black_hole_survey_agrees_with_the_million(published):
    first = DealVerdicts.read(SURVEYS / "black-hole-1-100000.verdicts.gz")
    assert first.counts() == {"won": 86_755, "lost": 13_245, "unknown": 0}
    assert "won         86,755" in (SURVEYS / "black-hole-1-100000.txt").read_text()
    assert first.codes == published["black-hole"].verdicts.codes[:100_000]


def test_the_free_cell_family_table_counts_its_verdicts():
    rows = re.findall(r"^([a-z0-9-]+) +(\d+) +(\d+) +(\d+) ", (SURVEYS / "freecell-family-1-2000.txt").read_text(), re.M)
    assert len(rows) == 10
    for game, won, lost, unknown in rows:
        verdicts = DealVerdicts.read(SURVEYS / "freecell-family-1-2000" / f"{game}-1-2000.verdicts.gz")
        assert verdicts.counts() == {"won": int(won), "lost": int(lost), "unknown": int(unknown)}, game


def test_the_spider_survey_at_60_seconds_agrees_with_its_page():
    """docs/surveys/spider-4-1-32000-60s.md: the counts and the unknown deals of
    15,461-32,000 are those of its kept verdicts."""
    page = (SURVEYS / "spider-4-1-32000-60s.md").read_text()
    verdicts = DealVerdicts.read(SURVEYS / "spider-60s" / "spider-4-15461-32000.verdicts.gz")
    assert (verdicts.game, verdicts.first, verdicts.last) == ("spider-4", 15461, 32000)
    row = re.search(r"^\| 15,461-32,000 \| ([\d,]+) \| (\d+) \| (\d+) \| ([\d, ]+) \|$", page, re.M)
    assert row, "the page's row of 15,461-32,000"
    won, lost, unknown, which = row.groups()
    assert verdicts.counts() == {"won": int(won.replace(",", "")), "lost": int(lost), "unknown": int(unknown)}
    assert verdicts.deals("unknown") == [int(deal) for deal in which.split(", ")]


def test_the_spider_survey_of_the_current_search_agrees_with_its_page():
    """docs/surveys/spider-4-1-32000-60s.md: the won and unknown deals of 1-32,000 in the
    page's first table are those of its kept verdicts."""
    page = (SURVEYS / "spider-4-1-32000-60s.md").read_text()
    verdicts = DealVerdicts.read(SURVEYS / "spider-60s" / "spider-4-1-32000.verdicts.gz")
    assert (verdicts.game, verdicts.first, verdicts.last) == ("spider-4", 1, 32000)
    row = re.search(r"^\| \*\*7c29de2\*\*[^|]*\| \*\*([\d,]+) \([\d.]+ %\)\*\* \| \*\*(\d+)\*\*: ([\d, ]+) \|$", page, re.M)
    assert row, "the page's row of the current search"
    won, unknown, which = row.groups()
    assert verdicts.counts() == {"won": int(won.replace(",", "")), "lost": 0, "unknown": int(unknown)}
    assert verdicts.deals("unknown") == [int(deal) for deal in which.split(", ")]


@pytest.mark.parametrize(
    ("name", "first", "last"),
    [
        ("black-widow-1-2660", 1, 2660),
        ("black-widow-2661-8000", 2661, 8000),
        ("black-widow-8001-10620", 8001, 10620),
        ("black-widow-10621-16200", 10621, 16200),
        ("black-widow-16201-24000", 16201, 24000),
        ("black-widow-24001-32000", 24001, 32000),
    ],
)
def test_the_black_widow_survey_at_60_seconds_agrees_with_its_page(name, first, last):
    page = (SURVEYS / "black-widow-60s.md").read_text()
    verdicts = DealVerdicts.read(SURVEYS / "spider-60s" / f"{name}.verdicts.gz")
    assert (verdicts.game, verdicts.first, verdicts.last) == ("black-widow", first, last)
    row = re.search(rf"^\| {first:,}-{last:,} \| ([\d,]+) \| (\d+) \| (\d+) \| ?([\d, ]*?) ?\|$", page, re.M)
    assert row, f"the page's row of {first}-{last}"
    won, lost, unknown, which = row.groups()
    assert verdicts.counts() == {"won": int(won.replace(",", "")), "lost": int(lost), "unknown": int(unknown)}
    assert verdicts.deals("unknown") == [int(deal) for deal in which.split(",") if deal.strip()]


@pytest.mark.parametrize(("game", "name"), [("spider-2", "Spider 2 suits"), ("spider-1", "Spider 1 suit")])
def test_the_spider_two_and_one_suit_surveys_at_60_seconds_agree_with_their_page(game, name):
    page = (SURVEYS / "spider-2-and-1-60s.md").read_text()
    verdicts = DealVerdicts.read(SURVEYS / "spider-60s" / f"{game}-1-32000.verdicts.gz")
    assert (verdicts.game, verdicts.first, verdicts.last) == (game, 1, 32000)
    row = re.search(rf"^\| {name} \| 1-32,000 \| ([\d,]+) \([\d.]+ %\) \| (\d+) \| (\d+) \|$", page, re.M)
    assert row, f"the page's row of {name}"
    won, lost, unknown = (int(group.replace(",", "")) for group in row.groups())
    assert verdicts.counts() == {"won": won, "lost": lost, "unknown": unknown}
