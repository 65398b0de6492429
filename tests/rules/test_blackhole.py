"""Black Hole rules on hand-made positions, notations and formats."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_blackhole import random_position
from winnable.blackhole import PILES, BlackHole, BlackHoleMove
from winnable.cards import Card, parse_cards
from winnable.errors import IllegalMoveError, ParseError
from winnable.web.views import click_choices

ALL = [Card.from_index(i) for i in range(52)]


def position(foundation: str, *piles: str) -> BlackHole:
    """A position from the foundation (first card first) and up to 17 piles (bottom first);
    the cards not named are taken to be on the foundation already, before its top."""
    named = [tuple(parse_cards(pile)) for pile in piles] + [()] * (PILES - len(piles))
    found = parse_cards(foundation)
    used = {card for pile in named for card in pile} | set(found)
    rest = [card for card in ALL if card not in used and card != Card.from_text("AS")]
    head = [Card.from_text("AS")] if Card.from_text("AS") not in found else []
    return BlackHole(tuple(named), tuple(head + rest + found))


def moves(pos):
    return sorted(str(move) for move in pos.legal_moves())


def test_king_takes_queen_and_ace():
    pos = position("KD", "QH", "AC", "2C", "JS", "KC")
    assert moves(pos) == ["AC", "QH"]


def test_ace_takes_king_and_two():
    pos = position("AS", "KH", "2D", "3C", "QS", "AH")
    assert moves(pos) == ["2D", "KH"]


def test_two_takes_ace_and_three_but_not_king():
    pos = position("2H", "AD", "3S", "KC", "2C")
    assert moves(pos) == ["3S", "AD"]


def test_only_top_cards_play_and_suits_never_matter():
    pos = position("7C", "8D 5S", "6H", "8S 9S")
    assert moves(pos) == ["6H"]
    after = pos.play("6H")
    assert moves(after) == ["5S"]


def test_play_checks_the_rules_with_reasons():
    pos = position("7C", "8D 5S", "6H")
    with pytest.raises(IllegalMoveError, match="not one rank above or below"):
        pos.play("5S")
    with pytest.raises(IllegalMoveError, match="not the top card"):
        pos.play("8D")
    with pytest.raises(ParseError):
        pos.play("X9")


def test_pile_numbers_are_moves_too():
    pos = position("7C", "8D 5S", "6H")
    assert pos.parse_move("2") == BlackHoleMove(Card.from_text("6H"))
    with pytest.raises(ParseError):
        pos.parse_move("18")
    with pytest.raises(IllegalMoveError):
        pos.parse_move("5")


def test_won_and_lost():
    last = position("QD", "KS")
    assert not last.is_won() and not last.is_lost() and last.cards_left() == 1
    done = last.play("KS")
    assert done.is_won() and not done.is_lost() and done.cards_left() == 0
    stuck = position("5C", "9H", "2D")
    assert stuck.is_lost() and not stuck.is_won()


def test_deal_layout():
    pos = BlackHole.deal(1)
    assert pos.foundation == (Card.from_text("AS"),)
    assert all(len(pile) == 3 for pile in pos.piles)
    assert len({card for pile in pos.piles for card in pile}) == 51
    assert pos.cards_left() == 51 and pos.deal_number == 1


def test_positions_are_immutable_values():
    pos = BlackHole.deal(5)
    first = pos.legal_moves()[0]
    after = pos.play(first)
    assert pos.cards_left() == 51 and after.cards_left() == 50
    assert after.foundation_card == first.card
    with pytest.raises(AttributeError):
        pos.piles = ()


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 100000), st.integers(0, 51))
def test_text_and_bhs_formats_round_trip(number, steps):
    pos = random_position(number, steps)
    again = BlackHole.from_text(pos.to_text())
    assert again.piles == pos.piles and again.foundation == pos.foundation
    from_bhs = BlackHole.from_bhs(pos.to_bhs())
    assert from_bhs.piles == pos.piles and from_bhs.foundation_card == pos.foundation_card
    assert from_bhs.to_bhs() == pos.to_bhs()
    assert moves(from_bhs) == moves(pos)


def test_move_notation_round_trips():
    move = BlackHoleMove(Card.from_text("QH"))
    assert str(move) == "QH" and BlackHoleMove.from_text("QH") == move
    assert eval(repr(move), {"BlackHoleMove": BlackHoleMove}) == move


@pytest.mark.parametrize("text", ["", "Foundation: AS\n1: 2C 3C 4C\n", "Foundation: AS AS\n" + "-\n" * 17, "nonsense"])
def test_bad_positions_are_parse_errors(text):
    with pytest.raises(ParseError):
        BlackHole.from_text(text)


def test_bad_bhs_boards_are_parse_errors():
    with pytest.raises(ParseError):
        BlackHole.from_bhs("Foundations: AS AH\n")
    with pytest.raises(ParseError):
        BlackHole.from_bhs("no header\n")


def deal_two_text(change) -> str:
    """Deal 2 in text notation, after ``change`` edits its lines (0: the foundation)."""
    lines = BlackHole.deal(2).to_text().splitlines()
    change(lines)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda lines: lines.__setitem__(5, " 5: -"), "not a whole deck"),  # three cards gone
        (lambda lines: lines.__setitem__(0, "Foundation: AH") or lines.__setitem__(16, "16: 9C TH"), "starts with the Ace of Spades"),
        (lambda lines: lines.__setitem__(0, "Foundation: AS 7D") or lines.__setitem__(14, "14: 6D AC"), "7D cannot follow AS"),
        (lambda lines: lines.__setitem__(1, " 1: 2S 2S 2S"), "twice"),
    ],
)
def test_text_that_is_not_a_real_game_is_refused_with_a_reason(change, words):
    with pytest.raises(ParseError, match=words):
        BlackHole.from_text(deal_two_text(change))


def test_a_position_reached_by_play_is_accepted_and_one_with_a_false_history_is_not():
    after = BlackHole.deal(2).play_line(["KH", "AD"])
    assert BlackHole.from_text(after.to_text()) == after
    # The same piles with the two cards played in an impossible order.
    swapped = after.to_text().replace("Foundation: AS KH AD", "Foundation: AS AD KH")
    with pytest.raises(ParseError, match="AD cannot follow AS"):
        BlackHole.from_text(swapped)


def test_bhs_boards_need_cards_that_could_have_been_played():
    board = BlackHole.deal(2).to_bhs().splitlines()
    assert board[9] == "4D 9D 7H" and board[13] == "QS 4H KH"

    def edited(foundation: str, **lines: str) -> str:
        out = [f"Foundations: {foundation}"] + board[1:]
        for index, text in lines.items():
            out[int(index.removeprefix("pile"))] = text
        return "\n".join(out) + "\n"

    # KH played, and pile 9 emptied before it: no walk AS ... KH uses 4D 9D 7H.
    with pytest.raises(ParseError, match="no order of the 3 cards"):
        BlackHole.from_bhs(edited("KH", pile9=":", pile13="QS 4H"))
    # Only KH played: fine, and the foundation is AS KH.
    assert BlackHole.from_bhs(edited("KH", pile13="QS 4H")).foundation == (Card.from_text("AS"), Card.from_text("KH"))
    with pytest.raises(ParseError, match="foundation shows only AS"):
        BlackHole.from_bhs(edited("AS", pile9=":"))
    with pytest.raises(ParseError, match="in the hole"):
        BlackHole.from_bhs(edited("KH", pile9="4D 9D 7H AS", pile13="QS 4H"))


def test_bhs_foundation_order_is_a_legal_sequence():
    for number in range(1, 40):
        position = BlackHole.deal(number)
        for _ in range(20):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(moves[-1])
        again = BlackHole.from_bhs(position.to_bhs())
        assert again.piles == position.piles and again.foundation_card == position.foundation_card
        assert sorted(again.foundation) == sorted(position.foundation)
        again.check_whole()


def test_json_and_click_descriptions():
    pos = BlackHole.deal(2)
    data = pos.to_json()
    assert data["game"] == "black-hole" and len(data["piles"]) == 17 and data["foundation"] == ["AS"]
    described = click_choices(pos)
    assert {entry["move"] for entry in described} == set(moves(pos))
    for entry in described:
        pile = int(entry["from"].split(":")[1])
        assert data["piles"][pile][-1] == entry["card"] and entry["to"] == "foundation"


def test_the_finishing_line_is_a_forced_ending():
    from winnable.solver import solve

    line = [str(move) for move in solve(BlackHole.deal(2)).line]
    position = BlackHole.deal(2)
    forced_from = None
    for index in range(len(line) + 1):
        finish = position.finishing_line()
        if finish is not None and forced_from is None:
            forced_from = index
            assert [str(move) for move in finish] == line[index:]  # the only way home
        if forced_from is None:
            assert finish is None or len(position.legal_moves()) == 1
        if index < len(line):
            position = position.play(line[index])
    assert position.is_won() and position.finishing_line() == []
    assert forced_from is not None
