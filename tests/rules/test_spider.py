"""The Spider family's rules: runs, the stock, automatic turning and removal, clicks,
deals and notation."""

from __future__ import annotations

from collections import Counter

import pytest

from winnable.cards import Card, Suit, parse_cards
from winnable.errors import IllegalMoveError, ParseError
from winnable.games import game_class
from winnable.spider import (
    BlackWidow,
    Column,
    Spider,
    Spider1,
    Spider2,
    Spider4,
    SpiderMove,
)
from winnable.web.views import click_choices, describe_move, player_view
from winnable.web.views.spider import click_move

# Six runs already removed leave one suit of spades and one of hearts on the table
# (26 cards), so small positions can be written out in full.
REMOVED = (Suit.CLUBS, Suit.CLUBS, Suit.DIAMONDS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
TABLE = Counter(parse_cards(" ".join(f"{rank}{suit}" for suit in "SH" for rank in "A23456789TJQK")))


def table(cls: type[Spider], columns: dict[int, str], stock: str = "", spare: int = 9) -> Spider:
    """A position with the given columns (1-based; text as in ``Column.from_text``).
    The cards not named go face down in column ``spare`` under its last one."""
    named = Counter(card for text in columns.values() for card in Column.from_text(text).down + Column.from_text(text).up)
    named.update(parse_cards(stock))
    left = sorted((TABLE - named).elements())
    built = [Column() for _ in range(10)]
    for number, text in columns.items():
        built[number - 1] = Column.from_text(text)
    if left:
        spare_column = built[spare - 1]
        assert spare_column.is_empty, "the spare column must not be named"
        built[spare - 1] = Column(tuple(left[:-1]), (left[-1],))
    return cls(tuple(built), tuple(parse_cards(stock)), REMOVED)


def moves(position: Spider) -> list[str]:
    return [str(move) for move in position.legal_moves()]


# -- runs -----------------------------------------------------------------------------


def test_black_widow_moves_runs_by_rank_spider_by_suit() -> None:
    layout = {1: "9S 8H 7S", 2: "TH", 3: "9H", 4: "KS"}
    widow = table(BlackWidow, layout)
    spider = table(Spider4, layout)
    assert widow.movable(0) == 3
    assert spider.movable(0) == 1
    assert "1>2x3" in moves(widow)
    assert "1>2x3" not in moves(spider)
    assert "1>3x2" in moves(widow) and "1>3x2" not in moves(spider)
    with pytest.raises(IllegalMoveError, match="not a run of one suit"):
        spider.play("1>2x3")
    after = widow.play("1>2x3")
    assert after.columns[1].up == tuple(parse_cards("TH 9S 8H 7S"))
    # With one suit on top, Spider moves the run too.
    assert "1>2x2" not in moves(spider)
    suited = table(Spider4, {1: "9S 8S 7S", 2: "TH", 4: "KS"})
    assert suited.movable(0) == 3 and "1>2x3" in moves(suited)


def test_a_king_never_goes_on_an_ace() -> None:
    position = table(BlackWidow, {1: "AS", 2: "KH", 3: "QS"})
    assert "2>1" not in moves(position)
    assert "2>4" in moves(position)  # an empty column takes the King
    with pytest.raises(IllegalMoveError, match="King is never placed on an Ace"):
        position.play("2>1")
    assert "3>2" in moves(position)


def test_an_empty_column_takes_any_card_or_run() -> None:
    position = table(BlackWidow, {1: "9S 8H 7S", 3: "5H"})
    for move in ("1>2", "1>2x2", "1>2x3", "3>2"):
        assert move in moves(position)
    after = position.play("1>2x3")
    assert after.columns[0].is_empty and after.columns[1].up == tuple(parse_cards("9S 8H 7S"))


# -- the stock ------------------------------------------------------------------------


def test_the_stock_does_not_deal_while_a_column_is_empty() -> None:
    stock = "AS 2S 3S 4S 5S 6S 8S TS QS AH"
    position = table(BlackWidow, {1: "KS", 3: "QH", 4: "JS", 5: "TH", 6: "9S", 7: "8H", 8: "7S", 10: "6H"}, stock)
    assert position.columns[1].is_empty
    assert "deal" not in moves(position)
    with pytest.raises(IllegalMoveError, match="does not deal while a column is empty \\(column 2\\)"):
        position.play("deal")
    filled = position.play("10>2")  # 6H moves to column 2, column 10 is now empty
    with pytest.raises(IllegalMoveError, match="column 10"):
        filled.play("deal")


def test_a_deal_puts_one_card_on_each_column_left_to_right() -> None:
    position = BlackWidow.deal(5)
    before = position.stock[:10]
    after = position.play("deal")
    assert [column.top for column in after.columns] == list(before)
    assert after.stock == position.stock[10:]
    assert after.stocks_left() == 4
    assert player_view(position)["stock"] == 5 and player_view(after)["stock"] == 4


def test_an_empty_stock_refuses_to_deal() -> None:
    position = table(BlackWidow, {1: "KS", 2: "QH"})
    with pytest.raises(IllegalMoveError, match="stock is empty"):
        position.play("deal")


# -- automatic effects ---------------------------------------------------------------------


def test_a_completed_run_leaves_after_a_move_and_the_card_under_it_turns() -> None:
    run = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
    position = table(BlackWidow, {1: "8H | " + run, 2: "AS", 3: "5H"})
    after = position.play("2>1")
    assert after.foundations == REMOVED + (Suit.SPADES,)
    assert after.columns[0].up == (Card.from_text("8H"),) and after.columns[0].down == ()
    assert after.columns[1].is_empty
    assert after.auto == (
        {"event": "removed", "suit": "S", "at": "column:0"},
        {"event": "turned", "card": "8H", "at": "column:0"},
    )
    assert after.to_json()["auto"] == list(after.auto)


def test_a_completed_run_leaves_after_a_deal() -> None:
    # Five runs removed: one spade suit and two heart suits are left.
    removed = (Suit.CLUBS, Suit.CLUBS, Suit.DIAMONDS, Suit.DIAMONDS, Suit.SPADES)
    columns = ["AH 2H 3H", "4H 5H", "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "6H 7H", "8H 9H", "TH TH", "JH JH", "QH QH", "KH", "KH"]
    stock = "AH 2H AS 3H 4H 5H 6H 7H 8H 9H"
    position = Spider4(tuple(Column.from_text(text) for text in columns), tuple(parse_cards(stock)), removed)
    after = position.play("deal")
    assert after.foundations == removed + (Suit.SPADES,)
    assert after.columns[2].is_empty
    assert after.columns[0].top == Card.from_text("AH")
    assert after.auto == ({"event": "removed", "suit": "S", "at": "column:2"},)
    assert after.stock == ()


def test_a_face_down_card_turns_when_it_becomes_the_top() -> None:
    position = BlackWidow.deal(1)
    assert position.columns[9].down[-1] == Card.from_text("2S")
    after = position.play("10>5")
    assert after.columns[9].up == (Card.from_text("2S"),)
    assert len(after.columns[9].down) == 3
    assert player_view(after)["columns"][9] == {"down": 3, "up": ["2S"]}


def test_won_after_eight_runs() -> None:
    run = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
    hearts = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH"
    position = Spider4(
        tuple(Column.from_text(text) for text in (run, "AS", hearts.rsplit(" ", 1)[0], "AH") + ("-",) * 6),
        (),
        REMOVED,
    )
    assert not position.is_won()
    after = position.play("2>1").play("4>3")
    assert after.is_won() and after.cards_left() == 0 and not after.is_lost()
    assert player_view(after)["won"] is True


# -- clicks ---------------------------------------------------------------------------


def test_click_prefers_own_suit_then_any_suit_then_the_first_empty_column() -> None:
    position = table(BlackWidow, {1: "8H", 2: "9S", 3: "9H", 5: "7S", 6: "KH"})
    # 8H: 9S (column 2) is one higher but another suit; 9H (column 3) is its own suit.
    assert click_move(position, 0, -1) == SpiderMove.from_text("1>3")
    # 7S: 8H is the only one rank higher.
    assert click_move(position, 4, 0) == SpiderMove.from_text("5>1")
    # KH: nothing is one rank higher, so the first empty column (4).
    assert click_move(position, 5, 0) == SpiderMove.from_text("6>4")
    # Face-down cards do nothing.
    assert click_move(position, 8, 0) is None
    after = position.play("1>3")
    assert click_move(after, 1, 0) == SpiderMove.from_text("2>1")  # 9S to the first empty column
    choices = click_choices(position)
    first = {}
    for choice in choices:
        first.setdefault((choice["from"], choice["count"]), choice["to"])
    assert first[("column:0", 1)] == "column:2"
    assert first[("column:5", 1)] == "column:3"
    assert sorted(choice["move"] for choice in choices) == sorted(moves(position))


def test_click_takes_the_run_on_the_card() -> None:
    position = table(BlackWidow, {1: "9S 8H 7S", 2: "TH", 3: "TS"})
    assert click_move(position, 0, 0) == SpiderMove.from_text("1>3x3")  # 9S onto TS first
    spider = table(Spider4, {1: "9S 8H 7S", 2: "TH", 3: "TS"})
    assert click_move(spider, 0, 0) is None  # not a one-suit run
    with pytest.raises(ParseError):
        click_move(position, 12, 0)


def test_describe_move_and_player_view_shapes() -> None:
    position = BlackWidow.deal(1)
    assert describe_move(position, SpiderMove.from_text("10>5")) == {
        "move": "10>5",
        "from": "column:9",
        "to": "column:4",
        "card": "3S",
        "count": 1,
    }
    assert describe_move(position, SpiderMove.DEAL) == {"move": "deal", "from": "stock", "to": "columns", "card": None, "count": 10}
    view = player_view(position)
    assert set(view) >= {"game", "deal", "family", "columns", "stock", "foundations", "cards_left", "won", "lost"}
    assert view["game"] == "black-widow" and view["deal"] == 1 and view["family"] == "spider"
    assert [column["down"] for column in view["columns"]] == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert view["stock"] == 5 and view["cards_left"] == 104 and view["foundations"] == []
    assert "3D" not in str(view["columns"])  # a face-down card stays hidden
    full = position.to_json()
    assert full["columns"][0]["down"][0] == "3D" and len(full["stock"]) == 50


# -- deals ----------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [BlackWidow, Spider4, Spider2, Spider1])
def test_deal_layout(cls: type[Spider]) -> None:
    from winnable.deals import shuffled

    position = cls.deal(7)
    cards = [cls.map_card(card) for card in shuffled(7, decks=2)]
    assert [len(column.down) for column in position.columns] == [5] * 4 + [4] * 6
    assert [len(column.up) for column in position.columns] == [1] * 10
    assert position.columns[0].down[0] == cards[0] and position.columns[9].down[0] == cards[9]
    assert position.columns[3].down[4] == cards[43]
    assert [column.up[0] for column in position.columns] == cards[44:54]
    assert list(position.stock) == cards[54:]
    assert Counter(card.suit for card in cards) == Counter({suit: 104 // len(set(cls.suit_map)) for suit in set(cls.suit_map)})


def test_registered_ids() -> None:
    for game_id, cls in (("black-widow", BlackWidow), ("spider-4", Spider4), ("spider-2", Spider2), ("spider-1", Spider1)):
        assert game_class(game_id) is cls and cls.game_id == game_id


# -- notation -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["3>7", "3>7x4", "deal", "10>1x12"])
def test_move_notation_round_trips(text: str) -> None:
    assert str(SpiderMove.from_text(text)) == text
    assert eval(repr(SpiderMove.from_text(text))) == SpiderMove.from_text(text)


@pytest.mark.parametrize("text", ["3", "3>3", "0>4", "3>11", "a>b", "3>7x0", ""])
def test_bad_moves_are_parse_errors(text: str) -> None:
    with pytest.raises(ParseError):
        SpiderMove.from_text(text)


def test_position_text_round_trips_and_bad_text_is_refused() -> None:
    position = Spider2.deal(3).play("deal")
    assert Spider2.from_text(position.to_text()) == position
    with pytest.raises(ParseError):
        Spider2.from_text("Stock: -\nFoundations: -\n 1: KS\n")
    with pytest.raises(ParseError, match="not the cards"):
        BlackWidow.from_text(position.to_text().replace("Foundations: -", "Foundations: S"))
    with pytest.raises(ParseError, match="starts with"):
        BlackWidow.from_text("hello")
