"""Winning lines are clean: no position twice, no move taken back without need, for
every family (the engine shortens its lines; `solve` cuts any loop left)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnable import lines
from winnable.blackhole import BlackHole
from winnable.freecell import FreeCell, Penguin
from winnable.games import game_class, game_ids
from winnable.solver import Budget, Status, solve
from winnable.spider import BlackWidow, Spider, Spider1, Spider2, Spider4

SPIDERS = [BlackWidow, Spider4, Spider2, Spider1]
FREECELL_GAMES = tuple(game_class(game, library=True) for game in game_ids(library=True, family="freecell"))


def assert_clean(verdict) -> None:
    """The verdict's line repeats no position and takes no move back without need."""
    assert verdict.won
    start = verdict.extra["start"]
    assert lines.repeats(start, verdict.line) == []
    assert lines.needless(start, verdict.line) == []
    assert start.play_line(verdict.line).is_won()


def solved(position, budget: Budget):
    verdict = solve(position, budget)
    verdict.extra["start"] = position
    return verdict


def test_penguin_655106_does_not_put_cards_in_cells_and_straight_back() -> None:
    # The search's own line moves a card to a flipper and back (moves 24 and 26).
    verdict = solved(Penguin.deal(655106), Budget(nodes=2_000_000))
    assert_clean(verdict)


def test_penguin_778607_line_repeats_no_position() -> None:
    # The search's own line comes back to a position it left two moves before.
    start = Penguin.deal(778607)
    verdict = solved(start, Budget(nodes=2_000_000))
    assert_clean(verdict)


@pytest.mark.parametrize("deal", [7004, 7009, 7010])
def test_black_widow_lines_take_nothing_back(deal: int) -> None:
    # Each of these search lines moves a run and later moves it straight back.
    assert_clean(solved(BlackWidow.deal(deal), Budget(nodes=1_000_000)))


def test_spider_4_deal_5_takes_nothing_back() -> None:
    # Leaving a loop out of this line brought 8>3x2 and its take-back 3>8x2 together
    # (moves 148 and 154) after the moves taken back had been joined (300,000 positions
    # then; the short pass takes a tenth of a node budget now, and 300,000 no longer win;
    # since each pass searches on a game of its own, 400,000 do not either: 500,000 win in
    # the second long pass, at 334,980 positions).
    assert_clean(solved(Spider4.deal(5), Budget(nodes=500_000)))


def test_solve_cuts_a_loop_the_engine_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # An engine line with a loop in it (after a card goes to a cell, it goes to another
    # cell and back): the rules replay it, and solve cuts the loop out.
    start = FreeCell.deal(1)
    status, line, positions = start.engine_search(100_000, None)
    k = next(k for k, text in enumerate(line) if text[1] in "abcd")
    cell = line[k][1]
    other = next(c for c, card in zip("abcd", start.play_line(line[: k + 1]).cells) if card is None)
    looped = line[: k + 1] + [cell + other, other + cell] + line[k + 1 :]
    assert start.play_line(looped).is_won()
    assert lines.repeats(start, [start.parse_move(text) for text in looped]) == [(k + 1, k + 3)]
    monkeypatch.setattr(FreeCell, "engine_search", lambda self, nodes, seconds, preset=None: (status, looped, positions))
    verdict = solved(start, Budget(nodes=100_000))
    assert lines.repeats(start, verdict.line) == []
    assert len(verdict.line) < len(looped)
    assert start.play_line(verdict.line).is_won()


@pytest.mark.parametrize("cls", [FreeCell, Penguin, BlackWidow, Spider4])
def test_shortening_changes_no_verdict(cls) -> None:
    from winnable import _engine

    for deal in (3, 4):
        position = cls.deal(deal)
        if cls.family == "freecell":

            def ask(shorten, position=position):
                return _engine.freecell_solve(
                    position.engine_rules(), *position.engine_layout(), 300_000, None, position.ENGINE_PRESET, shorten=shorten
                )
        else:
            columns = [([c.index for c in col.down], [c.index for c in col.up]) for col in position.columns]
            stock = [c.index for c in position.stock]

            def ask(shorten, columns=columns, stock=stock):
                return _engine.spider_solve(columns, stock, 0, cls.by_suit, 300_000, None, shorten=shorten)

        plain, short = ask(False), ask(True)
        assert (plain[0], plain[2]) == (short[0], short[2])
        if plain[0] == "won":
            assert len(short[1] if isinstance(short[1], list) else short[1].split()) <= len(
                plain[1] if isinstance(plain[1], list) else plain[1].split()
            )


# -- every family, any deal ----------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(deal=st.integers(1, 10**6))
def test_black_hole_lines_are_clean(deal: int) -> None:
    verdict = solved(BlackHole.deal(deal), Budget(nodes=200_000))
    if verdict.won:
        assert_clean(verdict)


@settings(max_examples=15, deadline=None)
@given(game=st.sampled_from(FREECELL_GAMES), deal=st.integers(1, 10**6), steps=st.integers(0, 12), seed=st.integers(0, 2**32))
def test_free_cell_lines_are_clean(game, deal: int, steps: int, seed: int) -> None:
    import random

    rng = random.Random(seed)
    position = game.deal(deal)
    for _ in range(steps):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
    verdict = solved(position, Budget(nodes=200_000))
    if verdict.won:
        assert_clean(verdict)


@settings(max_examples=6, deadline=None)
@given(variant=st.sampled_from(SPIDERS), deal=st.integers(1, 10**6))
def test_spider_lines_are_clean(variant: type[Spider], deal: int) -> None:
    verdict = solved(variant.deal(deal), Budget(nodes=300_000))
    if verdict.won:
        assert_clean(verdict)
    else:
        assert verdict.status is Status.UNKNOWN


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_free_cell_search_and_shortening_are_timed_apart(depth: int) -> None:
    # `bench/lines.py` compares these two clocks: both run, and the shortened line is the
    # search's own with its loops and take-backs out (never longer), and still wins.
    from winnable import _engine
    from winnable.solver import replay

    start = FreeCell.deal(20001)
    status, line, short, positions, search_cpu, shorten_cpu = _engine.freecell_lines(
        start.engine_rules(), *start.engine_layout(), None, None, start.ENGINE_PRESET, depth=depth
    )
    assert status == "won" and positions > 0
    assert search_cpu > 0 and shorten_cpu > 0
    moves = replay(start, short.split())
    assert len(moves) < len(replay(start, line.split()))
    assert start.play_line(moves).is_won()
    assert lines.repeats(start, moves) == [] and lines.needless(start, moves) == []
