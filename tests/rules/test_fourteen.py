"""Fourteen Out: the rules, PySolFC's layouts, the engine against a reference search, the
command line, and the game kept off the web app until it can draw it."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_fourteen import reference_solve
from shared_data import DATA
from winnable import _engine
from winnable.cards import Card, parse_cards
from winnable.errors import IllegalMoveError, ParseError
from winnable.fourteen import PILES, FourteenMove, FourteenOut
from winnable.games import LIBRARY_ONLY, game_class, game_ids
from winnable.solver import Budget, Status, solve

RANKS = "A23456789TJQK"


def table(*piles: str, removed: str = "") -> FourteenOut:
    """A position with these piles (bottom card first), the rest empty."""
    rows = [tuple(parse_cards(pile)) for pile in piles] + [()] * (PILES - len(piles))
    return FourteenOut(tuple(rows), tuple(parse_cards(removed)))


def wander(number: int, steps: int) -> FourteenOut:
    """Deal ``number`` after up to ``steps`` legal moves chosen by a fixed rule."""
    position = FourteenOut.deal(number)
    for index in range(steps):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(moves[(index * 7 + number) % len(moves)])
    return position


# -- the rules -------------------------------------------------------------------------
PAIRS = [("KH", "AS"), ("QC", "2D"), ("JS", "3H"), ("TD", "4C"), ("9H", "5S"), ("8C", "6D"), ("7H", "7S")]


@pytest.mark.parametrize("high, low", PAIRS)
def test_every_pair_of_values_that_make_fourteen_is_removed(high, low):
    position = table(f"3C {high}", low)
    move = FourteenMove.from_text(f"{low}+{high}")
    assert str(move) == f"{high}+{low}"
    assert position.legal_moves() == [move]
    assert position.is_legal(move)
    after = position.play(move)
    assert after.piles[:2] == ((Card.from_text("3C"),), ())
    assert set(after.removed) == {Card.from_text(high), Card.from_text(low)}
    assert after.cards_left() == 1 and position.cards_left() == 3


@pytest.mark.parametrize("a", range(1, 14))
def test_no_other_two_values_are_removed_and_the_reason_says_what_they_make(a):
    for b in range(1, 14):
        position = table(f"{RANKS[a - 1]}H", f"{RANKS[b - 1]}S")
        move = FourteenMove.from_text(f"{RANKS[a - 1]}H+{RANKS[b - 1]}S")
        assert position.is_legal(move) == (a + b == 14), (a, b)
        assert (move in position.legal_moves()) == (a + b == 14)
        if a + b != 14:
            with pytest.raises(IllegalMoveError, match=f"add up to {a + b}, not 14"):
                position.play(move)


def test_only_top_cards_are_available_and_suits_never_matter():
    position = table("KH 5C", "AS", "AH 9D", "3D JC")
    assert [str(move) for move in position.legal_moves()] == ["9D+5C"]
    with pytest.raises(IllegalMoveError, match="KH is not available: only the top card"):
        position.play("AS+KH")
    with pytest.raises(IllegalMoveError, match="3D is not available"):
        position.play("JC+3D")
    assert position.play("5C+9D").tops()[:3] == [Card.from_text("KH"), Card.from_text("AS"), Card.from_text("AH")]


def test_two_sevens_of_one_pile_never_pair_and_a_card_never_pairs_with_itself():
    position = table("7C 7D", "7H 2S")
    assert position.legal_moves() == []
    assert position.is_lost()
    with pytest.raises(IllegalMoveError, match="7C is not available"):
        position.play("7C+7D")
    with pytest.raises(IllegalMoveError, match="two different cards, not 7D twice"):
        position.play(FourteenMove(Card.from_text("7D"), Card.from_text("7D")))
    assert table("7C 7D", "7H").legal_moves() == [FourteenMove.from_text("7D+7H")]


def test_pile_numbers_are_moves_too():
    position = table("3C KH", "AS", "QD")
    assert position.parse_move("1+2") == position.parse_move("p2 p1") == FourteenMove.from_text("KH+AS")
    with pytest.raises(ParseError, match="no pile 13"):
        position.parse_move("1+13")
    with pytest.raises(ParseError, match="no pile 0"):
        position.parse_move("0+1")
    with pytest.raises(IllegalMoveError, match="pile 5 is empty"):
        position.parse_move("1+5")
    with pytest.raises(IllegalMoveError, match="add up to 25"):
        position.play("1+3")


@pytest.mark.parametrize("text", ["", "KH", "KH+AS+2C", "XX+AS", "KH+", "1"])
def test_bad_move_text_is_a_parse_error(text):
    with pytest.raises(ParseError):
        FourteenMove.from_text(text)
    with pytest.raises(ParseError):
        FourteenOut.deal(1).parse_move(text)


def test_the_ends_of_the_game():
    last = table("KH", "AS", removed="")
    assert not last.is_won() and not last.is_lost() and not last.is_over()
    won = last.play("KH+AS")
    assert won.is_won() and not won.is_lost() and won.is_over() and won.cards_left() == 0
    assert won.legal_moves() == []
    stuck = table("KH", "QS", "2D 3C")
    assert stuck.is_lost() and not stuck.is_won() and stuck.cards_left() == 4
    # A whole game: deal 7 played to the end by the solver's line.
    deal = FourteenOut.deal(7)
    assert not deal.is_over() and deal.cards_left() == deal.cards_total() == 52
    end = deal.play_line(solve(deal).line)
    assert end.is_won() and len(end.removed) == 52 and end.to_json()["won"] is True


def test_lost_deals_end_with_cards_left_and_no_pair():
    verdict = solve(FourteenOut.deal(3))
    assert verdict.status is Status.LOST
    position = FourteenOut.deal(3)
    while position.legal_moves():
        position = position.play(position.legal_moves()[0])
    assert position.is_lost() and position.cards_left() > 0
    assert position.to_json()["lost"] is True


# -- notation ------------------------------------------------------------------------
def test_every_move_has_one_spelling_that_round_trips():
    deck = [Card.from_index(index) for index in range(52)]
    moves = {FourteenMove(a, b) for a in deck for b in deck if a != b and a.rank + b.rank == 14}
    assert len(moves) == 6 * 16 + 6
    for move in moves:
        a, b = move.cards
        assert a.rank >= b.rank
        assert FourteenMove.from_text(str(move)) == move == FourteenMove.from_text(f"{b}+{a}") == FourteenMove(b, a)
        assert FourteenMove.from_text(f"{str(a).lower()} {b}") == move
        assert repr(move) == f"FourteenMove.from_text('{move}')"


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10**9), st.integers(0, 26))
def test_text_and_json_round_trip(number, steps):
    position = wander(number, steps)
    again = FourteenOut.from_text(position.to_text())
    assert again == position and again.to_text() == position.to_text()
    data = position.to_json()
    assert data["game"] == "fourteen-out" and data["deal"] == number
    assert data["piles"] == [[str(card) for card in pile] for pile in position.piles]
    assert data["removed"] == [str(card) for card in position.removed]
    assert data["cards_left"] == position.cards_left() == 52 - 2 * min(steps, len(position.removed) // 2)
    assert json.loads(json.dumps(data)) == data


def test_a_deal_reads_back_without_its_removed_line():
    text = FourteenOut.deal(5).to_text()
    assert FourteenOut.from_text(text.split("\n", 1)[1]) == FourteenOut.deal(5)


def move_top_card(lines: list[str], source: int, target: int) -> list[str]:
    """The text's lines with the top card of pile ``source`` put on pile ``target``."""
    lines = list(lines)
    card = lines[source].split()[-1]
    lines[source] = lines[source].rsplit(" ", 1)[0]
    lines[target] += f" {card}"
    return lines


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda lines: lines[:-1], "12 piles, not 11"),
        (lambda lines: lines + ["13: -"], "12 piles, not 13"),
        (lambda lines: lines[:5] + [lines[5].rsplit(" ", 1)[0] + " 2C"] + lines[6:], "a card appears twice"),
        (lambda lines: move_top_card(lines, 5, 2), "pile 2 holds at most 5 cards, not 6"),
        (lambda lines: [lines[0], "1: -"] + lines[2:], "not a whole deck"),
        (lambda lines: ["Removed: 8C"] + lines[1:], "an odd number is removed"),
        (lambda lines: ["Removed: 8C XX"] + lines[1:], "not a card"),
        (lambda lines: ["Removed: 6S 8C 7C 7C"] + lines[1:], "a card appears twice"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(change, words):
    lines = FourteenOut.deal(1).play("8C+6S").to_text().splitlines()
    assert lines[0] == "Removed: 8C 6S" and FourteenOut.from_text("\n".join(lines))
    with pytest.raises(ParseError, match=words):
        FourteenOut.from_text("\n".join(change(lines)))


def test_positions_are_immutable_values():
    position = FourteenOut.deal(1)
    assert position == FourteenOut.deal(1) and hash(position) == hash(FourteenOut.deal(1))
    with pytest.raises(AttributeError):
        position.piles = ()  # type: ignore[misc]
    after = position.play(position.legal_moves()[0])
    assert position.cards_left() == 52 and after.cards_left() == 50


# -- PySolFC's layouts ---------------------------------------------------------------------
def pysolfc_layouts() -> dict[int, list[str]]:
    layouts = {}
    for line in (DATA / "fourteen-out-pysolfc-deals.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            number, piles = line.split(": ", 1)
            layouts[int(number)] = [pile.strip() for pile in piles.split("|")]
    return layouts


def test_deals_match_pysolfcs_own_dealing():
    # The vectors were laid out by PySolFC's own code (its Fourteen.startGame, shuffle
    # and talon): see the file's header. 2,004 deals, from both of PySolFC's generators.
    layouts = pysolfc_layouts()
    assert len(layouts) == 2004 and {1, 1000, 31999, 32000, 32999, 10**20 - 1} <= set(layouts)
    for number, piles in layouts.items():
        position = FourteenOut.deal(number)
        assert [" ".join(map(str, pile)) for pile in position.piles] == piles, number


def test_the_first_four_piles_get_five_cards_the_others_four():
    position = FourteenOut.deal(123)
    assert [len(pile) for pile in position.piles] == [5] * 4 + [4] * 8
    assert sorted(card.index for pile in position.piles for card in pile) == list(range(52))
    assert FourteenOut.deal("ms123") == FourteenOut.deal(123) != FourteenOut.deal(124)


# -- the engine ----------------------------------------------------------------------------
@pytest.mark.slow
def test_engine_verdicts_match_an_exhaustive_reference_search_on_500_deals():
    won = 0
    for number in range(1, 501):
        deal = FourteenOut.deal(number)
        expected, line, _ = reference_solve(deal)
        verdict = solve(deal)  # a won line is replayed by the rules in solve()
        assert verdict.status.value == expected, number
        if verdict.won:
            won += 1
            assert len(verdict.line) == 26 and deal.play_line(verdict.line).is_won()
            # The reference's own line wins too.
            assert deal.play_line([f"{p + 1}+{q + 1}" for p, q in line]).is_won()
    assert 400 < won < 500  # both verdicts are well represented


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**9), st.integers(0, 25))
def test_engine_and_python_move_generators_agree(number, steps):
    position = wander(number, steps)
    piles = [[card.index for card in pile] for pile in position.piles]
    engine = _engine.fourteen_moves(piles)
    python = sorted(tuple(sorted(position._piles_of(*move.cards))) for move in position.legal_moves())
    assert sorted(engine) == python
    assert len(set(engine)) == len(engine)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 10**6), st.integers(4, 20))
def test_mid_game_verdicts_agree_with_the_reference(number, steps):
    position = wander(number, steps)
    expected, _, _ = reference_solve(position)
    assert solve(position).status.value == expected


def test_budgets_give_unknown():
    hard = FourteenOut.deal(577)  # lost, proved in about 79 thousand positions
    short = solve(hard, Budget(nodes=1000))
    assert short.status is Status.UNKNOWN and short.positions == 1000
    assert solve(hard, Budget(seconds=30)).status is Status.LOST


def test_the_engine_refuses_a_bad_layout():
    with pytest.raises(ValueError, match="12 piles"):
        _engine.fourteen_solve([[0]] * 11)
    with pytest.raises(ValueError, match="twice"):
        _engine.fourteen_solve([[0], [0]] + [[]] * 10)
    with pytest.raises(ValueError, match="at most 5"):
        _engine.fourteen_solve([[0, 1, 2, 3, 4, 5]] + [[]] * 11)


def test_a_line_the_rules_refuse_is_never_trusted(monkeypatch):
    from winnable.errors import EngineError

    monkeypatch.setattr(_engine, "fourteen_solve", lambda piles, nodes, seconds: ("won", [0, 1], 1))
    with pytest.raises(EngineError, match="refused at move 1"):
        solve(FourteenOut.deal(1))


# -- the registry and the web app -----------------------------------------------------------
def test_the_library_and_the_web_app_play_it():
    """On the web since issue 22 (tests/web/test_fourteen.py plays it there)."""
    assert "fourteen-out" not in LIBRARY_ONLY
    assert "fourteen-out" in game_ids() and game_ids(library=True) == game_ids()
    assert game_class("fourteen-out") is game_class("fourteen-out", library=True) is FourteenOut
    import winnable

    assert winnable.deal("fourteen-out", 7) == FourteenOut.deal(7)


# -- the command line -----------------------------------------------------------------------
def run(*args):
    return subprocess.run([sys.executable, "-m", "winnable.cli", *args], capture_output=True, text=True, timeout=300)


def test_cli_deal_solve_and_survey():
    assert run("deal", "fourteen-out", "7").stdout == FourteenOut.deal(7).to_text()
    data = json.loads(run("deal", "fourteen-out", "7", "--json").stdout)
    assert data["game"] == "fourteen-out" and data["deal"] == 7 and len(data["piles"]) == 12
    solved = run("solve", "fourteen-out", "7")
    assert solved.returncode == 0 and "Fourteen Out deal 7: won" in solved.stdout
    moves = [word.split(".", 1)[1] for line in solved.stdout.splitlines() if line.startswith("  ") for word in line.split()]
    assert len(moves) == 26 and FourteenOut.deal(7).play_line(moves).is_won()
    lost = run("solve", "fourteen-out", "3")
    assert "deal 3: lost" in lost.stdout and "every reachable position was searched" in lost.stdout
    survey = json.loads(run("survey", "fourteen-out", "1-40", "-j", "1", "--quiet", "--json").stdout)
    assert (survey["won"], survey["lost"], survey["unknown"]) == (35, 5, 0)
    assert "fourteen-out" in run("games").stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("deal", "fourteen-out", "0"), "deal number out of range"),
        (("solve", "fourteen-out", "x"), "not a deal number"),
        (("survey", "fourteen-out", "5-1"), "empty range"),
        (("deal", "fourteen-out", "1", "--format", "bhs"), "no board format"),
    ],
)
def test_cli_bad_input_exits_2(args, message):
    result = run(*args)
    assert result.returncode == 2 and message in result.stderr


# -- the published survey -------------------------------------------------------------------
SURVEYS = DATA.parents[1] / "docs" / "surveys"


def test_the_published_verdicts_agree_with_the_engine_and_the_table():
    from winnable.surveys.data import DealVerdicts

    verdicts = DealVerdicts.read(SURVEYS / "data" / "fourteen-out-1-1000000.verdicts.gz")
    counts = verdicts.counts()
    won, lost = counts["won"], counts["lost"]
    assert won + lost == 1_000_000 and counts.get("unknown", 0) == 0
    table = (SURVEYS / "fourteen-out.txt").read_text()
    assert re.search(r"^  won +([\d,]+) ", table, re.M).group(1) == f"{won:,}"
    assert re.search(r"^  lost +([\d,]+) ", table, re.M).group(1) == f"{lost:,}"
    assert f"{won:,} won" in (SURVEYS / "index.md").read_text() + (SURVEYS.parents[1] / "README.md").read_text()
    # The first deals and a spread, against the engine now.
    for deal in [*range(1, 1001), *range(1001, 1_000_001, 997), 1_000_000]:
        assert (verdicts.verdict(deal) == "won") == solve(FourteenOut.deal(deal)).won, deal
