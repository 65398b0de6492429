"""Simulated players of a few strengths, to check the grades against (``validation``):
they read nothing of the grade nor of the engine, only the rules (the legal moves, the
cards left), so a grade that orders their win rates tells something the grade was not
built from.

Every player is deterministic: its choices among equal moves are drawn from a
:class:`random.Random` seeded by the caller; a player never returns to a position it
has seen (a move that would is skipped; with nothing else left it has lost) and gives
up after :data:`MAX_MOVES` moves, or :data:`STALL_MOVES` with no card leaving play.

>>> from winnable.games import deal
>>> play(deal("fourteen-out", 7), "lookahead", seed=1)
Played(won=True, moves=26, cards_left=0)
>>> play(deal("fourteen-out", 7), "lookahead", seed=1) == play(deal("fourteen-out", 7), "lookahead", seed=1)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from winnable.game import Move, Position

MAX_MOVES = 600
"""A game longer than this is lost (every family's winning lines are shorter; Spider's
are about 200 moves)."""

STALL_MOVES = 80
"""A player gives up after this many moves with no card leaving play (a person would too;
it keeps a hopeless game from wandering to :data:`MAX_MOVES`)."""

LOOKAHEAD_WIDTH = 6
"""How many of its greedy favourites the ``lookahead`` player looks a move further into."""

PLAYERS: tuple[str, ...] = ("random", "greedy", "lookahead")
"""The simulated players, from the weakest: ``random`` plays any legal move; ``greedy``
the move that leaves the best table (:func:`_shape`: the fewest cards in play, then the
most room); ``lookahead`` the move of its :data:`LOOKAHEAD_WIDTH` greedy favourites
whose best next move leaves the best table."""


@dataclass(frozen=True)
class Played:
    """How a simulated game ended."""

    won: bool
    moves: int
    cards_left: int


Children = Sequence[tuple[Move, Position]]


def _fresh(position: Position, seen: set[Position]) -> list[tuple[Move, Position]]:
    children = []
    for move in position.legal_moves():
        child = position.apply(move)
        if child not in seen:
            children.append((move, child))
    return children


def _pick_random(children: Children, seen: set[Position], rng: random.Random) -> Position:
    return rng.choice(children)[1]


def _shape(position: Position) -> tuple[int, ...]:
    """Lower is better: the cards in play, then what a player of any of the games reads
    on the table: the cards face down, or the cards over those the foundations take next,
    then the free cells held less the empty columns (the room to move); where the table has neither (Black Hole, Fourteen Out), the legal
    moves (more is better)."""
    if position.is_won():
        return (-1, 0, 0)
    columns = getattr(position, "columns", None)
    cells = getattr(position, "cells", None)
    if columns is None and cells is None:
        return (position.cards_left(), 0, -len(position.legal_moves()))
    down = sum(len(getattr(column, "down", ())) for column in columns or ())
    empty = sum(1 for column in columns or () if not (column.down or column.up if hasattr(column, "down") else column))
    held = sum(card is not None for card in cells or ())
    accepts = getattr(position, "foundation_accepts", None)
    buried = 0
    if accepts is not None:  # how deep the cards the foundations take next lie in their columns
        buried = sum(len(column) - 1 - index for column in columns or () for index, card in enumerate(column) if accepts(card))
    return (position.cards_left(), down + buried, held - empty)


def _pick_greedy(children: Children, seen: set[Position], rng: random.Random) -> Position:
    # The random key breaks ties between equal moves, reproducibly for a seed.
    keys = [(_shape(child), rng.random(), index) for index, (_, child) in enumerate(children)]
    return children[min(keys)[-1]][1]


def _pick_lookahead(children: Children, seen: set[Position], rng: random.Random) -> Position:
    ranked = sorted((_shape(child), rng.random(), index) for index, (_, child) in enumerate(children))
    keys = []
    for shape, tie, index in ranked[:LOOKAHEAD_WIDTH]:
        child = children[index][1]
        if child.is_won():
            return child
        after = min((_shape(child.apply(move)) for move in child.legal_moves()), default=(999, 0, 0))
        keys.append((min(after, shape), shape, tie, index))
    return children[min(keys)[-1]][1]


_PICKERS: dict[str, Callable[[Children, set[Position], random.Random], Position]] = {
    "random": _pick_random,
    "greedy": _pick_greedy,
    "lookahead": _pick_lookahead,
}


def play(position: Position, player: str, seed: int = 0) -> Played:
    """Play ``position`` to its end as ``player`` (one of :data:`PLAYERS`) with ``seed``."""
    pick = _PICKERS[player]
    rng = random.Random(seed)
    seen = {position}
    moves = stalled = 0
    fewest = position.cards_left()
    while not position.is_won() and moves < MAX_MOVES and stalled < STALL_MOVES:
        children = _fresh(position, seen)
        if not children:
            break
        position = pick(children, seen, rng)
        seen.add(position)
        moves += 1
        stalled += 1
        if position.cards_left() < fewest:
            fewest, stalled = position.cards_left(), 0
    return Played(position.is_won(), moves, position.cards_left())
