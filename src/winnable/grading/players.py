"""Simulated players of a few strengths, to check the grades against (``validation``):
they read nothing of the grade nor of the engine, only the rules (the legal moves, the
cards left), so a grade that orders their win rates tells something the grade was not
built from.

Every player is deterministic: its choices among equal moves are drawn from a
:class:`random.Random` seeded by the caller; a player never returns to a position it
has seen (a move that would is skipped; with nothing else left it has lost) and gives
up after :data:`MAX_MOVES` moves, or :data:`STALL_MOVES` with no card leaving play.

>>> from winnable.games import deal
>>> play(deal("fourteen-out", 4), "lookahead", seed=1)
Played(won=True, moves=26, cards_left=0)
>>> play(deal("fourteen-out", 4), "lookahead", seed=1) == play(deal("fourteen-out", 4), "lookahead", seed=1)
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

LOOKAHEAD_DEPTH = 12
"""How many moves ahead the ``lookahead`` player looks at most (depth first, the moves
that leave the fewest cards first)."""
LOOKAHEAD_NODES = 120
"""The positions it looks at before each move, shared equally by its moves."""

PLAYERS: tuple[str, ...] = ("random", "greedy", "lookahead")
"""The simulated players, from the weakest: ``random`` plays any legal move; ``greedy``
the move that leaves the fewest cards in play, then the most legal moves; ``lookahead``
the move after which the most cards can leave play within :data:`LOOKAHEAD_DEPTH`
moves (looking at :data:`LOOKAHEAD_NODES` positions), then as ``greedy``."""


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


def _pick_greedy(children: Children, seen: set[Position], rng: random.Random) -> Position:
    # The random key breaks ties between equal moves, reproducibly for a seed.
    keys = [(child.cards_left(), -len(child.legal_moves()), rng.random(), index) for index, (_, child) in enumerate(children)]
    return children[min(keys)[-1]][1]


def _fewest_within(position: Position, depth: int, budget: list[int]) -> int:
    """The fewest cards in play reached from ``position`` within ``depth`` moves, visiting
    at most ``budget[0]`` positions (shared by the whole look)."""
    if position.is_won():
        return -1
    best = position.cards_left()
    if depth == 0:
        return best
    for child in sorted((position.apply(move) for move in position.legal_moves()), key=lambda child: child.cards_left()):
        if budget[0] <= 0 or best < 0:
            break
        budget[0] -= 1
        best = min(best, _fewest_within(child, depth - 1, budget))
    return best


def _pick_lookahead(children: Children, seen: set[Position], rng: random.Random) -> Position:
    keys = []
    share = max(1, LOOKAHEAD_NODES // len(children))
    for index, (_, child) in enumerate(children):
        if child.is_won():
            return child
        mobility = len(child.legal_moves())
        keys.append((_fewest_within(child, LOOKAHEAD_DEPTH, [share]), child.cards_left(), -mobility, rng.random(), index))
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
