"""The Spider engine against the Python rules: same legal moves, same results of a move,
and winning lines that the rules accept."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnable.cards import Card
from winnable.solver import Budget, Status, replay, solve
from winnable.spider import BlackWidow, Spider, Spider1, Spider2, Spider4, SpiderMove

VARIANTS = [BlackWidow, Spider4, Spider2, Spider1]


def random_position(cls: type[Spider], deal: int, steps: int, seed: int) -> Spider:
    """A position reached from ``deal`` by ``steps`` random legal moves (deals rarer)."""
    rng = random.Random(seed)
    position = cls.deal(deal)
    for _ in range(steps):
        moves = position.legal_moves()
        if not moves:
            break
        column_moves = [move for move in moves if not move.is_deal]
        if column_moves and rng.random() < 0.9:
            position = position.apply(rng.choice(column_moves))
        else:
            position = position.apply(rng.choice(moves))
    return position


def engine_args(position: Spider) -> tuple[list, list]:
    columns = [([card.index for card in column.down], [card.index for card in column.up]) for column in position.columns]
    return columns, [card.index for card in position.stock]


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    deal=st.integers(1, 10**6),
    steps=st.integers(0, 120),
    seed=st.integers(0, 2**32),
)
def test_engine_and_rules_agree_on_moves_and_their_results(variant: type[Spider], deal: int, steps: int, seed: int) -> None:
    from winnable import _engine

    position = random_position(variant, deal, steps, seed)
    rules = [str(move) for move in position.legal_moves()]
    assert sorted(position.engine_moves()) == sorted(rules)
    # Play each legal move in the engine and in the rules: same columns, stock, runs.
    columns, stock = engine_args(position)
    for move in position.legal_moves():
        triple = (255, 255, 0) if move.is_deal else (move.source, move.target, move.count)
        engine_columns, engine_stock, removed = _engine.spider_apply(columns, stock, variant.by_suit, triple)
        after = position.apply(move)
        want_columns, want_stock = engine_args(after)
        assert [(list(down), list(up)) for down, up in engine_columns] == want_columns
        assert list(engine_stock) == want_stock
        assert removed == len(after.foundations)


def test_engine_refuses_an_illegal_move_and_bad_input() -> None:
    from winnable import _engine

    position = BlackWidow.deal(1)
    columns, stock = engine_args(position)
    with pytest.raises(ValueError):
        _engine.spider_apply(columns, stock, False, (0, 1, 1))  # 8H cannot go on TH
    with pytest.raises(ValueError):
        _engine.spider_solve(columns[:9], stock, 0, False)
    with pytest.raises(ValueError):
        _engine.spider_solve(columns, stock[:7], 0, False)


@pytest.mark.parametrize("cls", VARIANTS)
def test_engine_lines_win_when_replayed(cls: type[Spider]) -> None:
    position = cls.deal(3)
    verdict = solve(position, Budget(nodes=1_000_000))
    assert verdict.status is Status.WON
    assert position.play_line(verdict.line).is_won()


def test_engine_solves_from_the_middle_of_a_game() -> None:
    position = random_position(BlackWidow, 11, 40, seed=5)
    status, line, positions = position.engine_search(1_000_000, None)
    assert status == "won" and positions > 0
    moves = replay(position, line)
    assert all(isinstance(move, SpiderMove) for move in moves)


def test_a_position_without_moves_is_lost() -> None:
    from winnable.cards import Suit, parse_cards
    from winnable.spider import Column

    removed = (Suit.CLUBS, Suit.CLUBS, Suit.DIAMONDS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
    tops = parse_cards("KS KH JS JH 9S 9H 7S 7H 5S 5H")  # no top is one rank below another
    under = parse_cards("AS 2S 3S 4S 6S 8S TS QS AH 2H 3H 4H 6H 8H TH QH")
    columns = tuple(Column(tuple(under[2 * i : 2 * i + 2]) if i < 8 else (), (top,)) for i, top in enumerate(tops))
    position = Spider4(columns, (), removed)
    assert position.legal_moves() == [] and position.is_lost()
    assert solve(position, Budget(nodes=1000)).status is Status.LOST


def test_engine_removes_runs_and_turns_cards_like_the_rules() -> None:
    from winnable import _engine
    from winnable.cards import Suit, parse_cards
    from winnable.spider import Column

    removed = (Suit.CLUBS, Suit.CLUBS, Suit.DIAMONDS, Suit.DIAMONDS, Suit.SPADES)
    run = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
    columns = ["AH 2H | 3H", "4H 5H", "8H 9H | " + run, "6H 7H", "AS", "TH JH", "TH", "QH QH", "KH", "KH"]
    stock = "AH 2H 3H 4H 5H 6H 7H 8H 9H JH"
    position = Spider4(tuple(Column.from_text(text) for text in columns), tuple(parse_cards(stock)), removed)
    engine_columns, engine_stock = engine_args(position)
    for move in ("5>3", "deal"):
        after = position.play(move)
        parsed = SpiderMove.from_text(move)
        triple = (255, 255, 0) if parsed.is_deal else (parsed.source, parsed.target, parsed.count)
        got_columns, got_stock, got_removed = _engine.spider_apply(engine_columns, engine_stock, True, triple)
        assert [(list(down), list(up)) for down, up in got_columns] == engine_args(after)[0]
        assert got_removed == len(after.foundations)
    after = position.play("5>3")
    assert len(after.foundations) == 6 and after.columns[2].up == (Card.from_text("9H"),)
    assert after.columns[4].is_empty


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), deal=st.integers(1, 10**6), steps=st.integers(0, 80), seed=st.integers(0, 2**32))
def test_the_quick_legality_check_agrees_with_the_list_of_moves(variant: type[Spider], deal: int, steps: int, seed: int) -> None:
    position = random_position(variant, deal, steps, seed)
    legal = set(position.legal_moves())
    candidates = [SpiderMove(s, t, n) for s in range(10) for t in range(10) if s != t for n in range(1, 14)] + [SpiderMove.DEAL]
    for move in candidates:
        assert position.is_legal(move) == (move in legal), move
