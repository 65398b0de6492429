"""The contract every game implements (``winnable.game.Position``), checked for every
game id, and the solver's budget."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnable.errors import BudgetError, IllegalMoveError, WinnableError
from winnable.game import Position
from winnable.games import game_class, game_ids
from winnable.solver import Budget, Status, solve

GAMES = game_ids(library=True)


def wander(cls: type[Position], number: int, steps: int, seed: int) -> Position:
    """A position reached from deal ``number`` by up to ``steps`` random legal moves."""
    rng = random.Random(seed)
    position = cls.deal(number)
    for _ in range(steps):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.apply(rng.choice(moves))
    return position


@pytest.mark.parametrize(
    "value",
    [
        {"nodes": 0},
        {"nodes": -5},
        {"nodes": 1.5},
        {"nodes": True},
        {"seconds": 0},
        {"seconds": -1.0},
        {"seconds": math.nan},
        {"seconds": math.inf},
        {"seconds": "2"},
    ],
)
def test_a_bad_budget_is_a_winnable_error_that_says_why(value):
    with pytest.raises(BudgetError, match="must be a positive") as raised:
        Budget(**value)
    assert isinstance(raised.value, WinnableError)


@pytest.mark.parametrize("memory", [0, 8, -64, True, 1.5, "64", 1 << 21])
def test_a_memory_bound_is_whole_megabytes_within_reason(memory):
    with pytest.raises(BudgetError, match="memory bound"):
        Budget(seconds=1, memory_mb=memory)


def test_good_budgets():
    assert Budget(nodes=1, seconds=0.5) == Budget(1, 0.5)
    assert Budget(seconds=60, memory_mb=6144).memory_mb == 6144 and Budget().memory_mb is None
    assert Budget().nodes is None and Budget(seconds=2).seconds == 2


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_hidden_cards_and_its_cards(game):
    cls = game_class(game, library=True)
    position = cls.deal(1)
    assert isinstance(cls.hidden_cards, bool)
    assert cls.hidden_cards is (cls.family == "spider")
    total = {"blackhole": 51, "freecell": 52, "spider": 104, "fourteen": 52}[cls.family]
    assert position.cards_total() == total
    assert 0 < position.cards_left() <= total
    # Cards already home at the deal (Penguin's beaks) count as brought home.
    home = sum(position.foundations) if cls.family == "freecell" else 0
    assert position.cards_left() + home == total


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), number=st.integers(1, 10**6), steps=st.integers(0, 60), seed=st.integers(0, 2**32))
def test_is_legal_agrees_with_the_list_of_legal_moves(game, number, steps, seed):
    cls = game_class(game, library=True)
    position = wander(cls, number, steps, seed)
    legal = position.legal_moves()
    # Candidates: this position's moves and those of other positions of the same game.
    candidates = set(legal)
    for other in range(3):
        candidates.update(wander(cls, number + other + 1, steps, seed + other).legal_moves())
    for move in candidates:
        assert position.is_legal(move) == (move in legal), move
        if move not in legal:
            with pytest.raises(IllegalMoveError):
                position.play(move)
    for move in legal[:5]:
        assert position.play(move) == position.apply(move)


def test_play_goes_through_is_legal():
    class Refusing(game_class("black-hole")):  # type: ignore[misc, valid-type]
        def is_legal(self, move):
            return False

    position = Refusing.deal(2)
    with pytest.raises(IllegalMoveError, match="KH"):
        position.play("KH")


def test_a_time_budget_wins_what_the_same_node_budget_wins():
    # Spider-4 deal 2 needs over a million positions: with a time-only budget every pass
    # of the portfolio still gets its share (the first pass used to eat the clock).
    position = game_class("spider-4").deal(2)
    by_nodes = solve(position, Budget(nodes=1_000_000))
    by_time = solve(position, Budget(seconds=4))
    assert by_nodes.status is Status.WON and by_time.status is Status.WON
    assert position.play_line(by_time.line).is_won()


def test_black_hole_honours_a_node_and_a_time_budget():
    position = game_class("black-hole").deal(64)  # about 600 thousand positions to a win
    short = solve(position, Budget(nodes=1000))
    assert short.status is Status.UNKNOWN and short.positions == 1000
    assert solve(position, Budget(seconds=30)).status is Status.WON
    lost = game_class("black-hole").deal(400)  # lost, proved in about 730 thousand positions
    assert solve(lost, Budget(nodes=10_000)).status is Status.UNKNOWN
    assert solve(lost, Budget(seconds=30)).status is Status.LOST
