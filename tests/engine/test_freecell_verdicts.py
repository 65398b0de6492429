"""Independent checks of the free-cell engine's verdicts.

- *Lost* verdicts: a pure-Python exhaustive solver (``reference_freecell.py``) that
  shares nothing with the engine but the rules decides small positions (a few cards
  left, every game of the family); the engine must agree, won or lost. And Debian's
  fc-solve must not find a win where the engine proved a loss (FreeCell 11982, Baker's
  Game and Penguin deals the engine calls lost).
- *Won* verdicts: every FreeCell deal 1-1000 is won, each with a line the rules
  replay, and fc-solve agrees that all 1000 are winnable.

The fc-solve checks skip where Debian's ``freecell-solver-bin`` is not installed, and
fail under ``CI=true`` (``required.py``; ``make system-deps`` installs it).
"""

from __future__ import annotations

import re
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fcsolve import fc_solve
from reference_freecell import reference_solve
from required import require_tool
from winnable.cards import Card, Rank, Suit
from winnable.freecell import BakersGame, FreeCell, Penguin, Penguin0, Penguin3
from winnable.games import game_class, game_ids
from winnable.solver import Status, solve

GAMES = tuple(game_class(game, library=True) for game in game_ids(library=True, family="freecell"))


@st.composite
def small_positions(draw):
    """A position of any free-cell game with few cards left, the rest home: the top ranks
    of each suit (counted from the base), laid out at random in columns and cells.
    Half of them are crowded (a card in every column first, so that there is less room
    to move)."""
    cls = draw(st.sampled_from(GAMES))
    base = cls.BASE_RANK or draw(st.sampled_from(list(Rank)))
    crowded = draw(st.booleans())
    most = cls.COLUMNS + cls.CELLS + 6 if crowded else 9
    left = draw(st.tuples(*[st.integers(0, 7)] * 4).filter(lambda counts: 1 <= sum(counts) <= most))
    cards = [Card(Rank((base - 1 + step) % 13 + 1), suit) for suit, count in zip(Suit, left) for step in range(13 - count, 13)]
    cards = draw(st.permutations(cards))
    columns: list[list[Card]] = [[] for _ in range(cls.COLUMNS)]
    cells: list[Card | None] = [None] * cls.CELLS
    for index, card in enumerate(cards):
        free = [i for i, cell in enumerate(cells) if cell is None]
        if crowded and index < cls.COLUMNS:
            place = index
        else:
            place = draw(st.integers(0, cls.COLUMNS + len(free) - 1))
        if place < cls.COLUMNS:
            columns[place].append(card)
        else:
            cells[free[place - cls.COLUMNS]] = card
    foundations = tuple(13 - count for count in left)
    return cls(tuple(tuple(c) for c in columns), tuple(cells), foundations, base)._normalised()


@settings(max_examples=80, deadline=None)
@given(position=small_positions())
def test_engine_verdicts_agree_with_an_exhaustive_python_search(position):
    expected, _ = reference_solve(position, 10_000)
    if expected == "unknown":
        return
    verdict = solve(position)
    assert verdict.status.value == expected, position.to_text()


@settings(max_examples=12, deadline=None)
@given(cls=st.sampled_from([Penguin0, Penguin3]), number=st.integers(1, 10**6))
def test_engine_losses_agree_with_an_exhaustive_python_search_on_whole_deals(cls, number):
    """Penguin with no flippers or three loses almost every deal, in search spaces small
    enough for the Python search to exhaust."""
    position = cls.deal(number)
    expected, _ = reference_solve(position, 8_000)
    if expected == "unknown":
        return
    assert solve(position).status.value == expected, (cls.game_id, number)


@pytest.mark.parametrize("cls, number", [(Penguin0, 1), (Penguin3, 1), (Penguin3, 11)])
def test_known_losses_are_lost_for_both(cls, number):
    assert reference_solve(cls.deal(number))[0] == "lost"
    assert solve(cls.deal(number)).status is Status.LOST


# -- fc-solve -------------------------------------------------------------------------------

# FreeCell deals of PySolFC's numbering (its Mersenne Twister deals, from 32000 on) that the
# survey of 1-1,000,000 found lost (docs/surveys/freecell.txt); fc-solve proves all eleven
# lost too, in 1,500-291,000 states. The cheapest are checked here.
FREECELL_LOST_PYSOLFC = [217703, 346952, 634978, 856278, 912821]


@pytest.mark.fcsolve
def test_fc_solve_agrees_that_freecell_11982_is_lost():
    require_tool("fc-solve")
    position = FreeCell.deal(11982)
    assert solve(position).status is Status.LOST
    assert fc_solve(position) == "lost"


@pytest.mark.fcsolve
@pytest.mark.parametrize("number", FREECELL_LOST_PYSOLFC)
def test_fc_solve_agrees_on_freecell_deals_the_survey_found_lost(number):
    require_tool("fc-solve")
    position = FreeCell.deal(number)
    assert solve(position).status is Status.LOST
    assert fc_solve(position) == "lost"


# Deals the engine proves lost (surveyed): fc-solve plays a subset of these games' moves
# (it cannot build across Penguin's wrap), so any win it found would refute the engine.
LOST = [(BakersGame, [10, 14, 22]), (Penguin, [26, 89])]


@pytest.mark.fcsolve
@pytest.mark.parametrize("cls, numbers", LOST, ids=[cls.game_id for cls, _ in LOST])
def test_fc_solve_finds_no_win_where_the_engine_proves_a_loss(cls, numbers):
    require_tool("fc-solve")
    for number in numbers:
        position = cls.deal(number)
        assert solve(position).status is Status.LOST, number
        assert fc_solve(position) != "won", number


def test_freecell_deals_1_to_1000_are_all_won_with_replayed_lines():
    for number in range(1, 1001):
        verdict = solve(FreeCell.deal(number))
        assert verdict.status is Status.WON, number
        assert len(verdict.line) > 50  # replayed by solve(): a line the rules accept


@pytest.mark.fcsolve
def test_fc_solve_wins_freecell_deals_1_to_1000_too():
    result = subprocess.run(
        [require_tool("freecell-solver-range-parallel-solve"), "1", "1000", "1", "-l", "lg"], capture_output=True, text=True, timeout=300
    )
    reached = re.findall(r"Reached Board No\. (\d+)", result.stdout)
    assert len(reached) == 1000
    assert "Unsolved" not in result.stdout and "Intractable" not in result.stdout
