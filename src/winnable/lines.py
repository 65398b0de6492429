"""Clean winning lines: no position twice, no move taken back without need.

The engine shortens every winning line it finds (``engine/src/shorten/``); the rules
here check the result, and :func:`winnable.solver.solve` cuts any loop that got
through, so that a line it returns never repeats a position.

Positions are compared as the rules compare them (hidden cards included: in the Spider
family a position where a card has turned is another position).

>>> from winnable.freecell import FreeCell
>>> start = FreeCell.deal(1)
>>> moves = [start.parse_move(text) for text in ("1a", "ab", "ba", "2c")]
>>> repeats(start, moves)
[(1, 3)]
>>> [str(move) for move in cut_loops(start, moves)]
['1a', '2c']
"""

from __future__ import annotations

from typing import Sequence

from winnable.errors import WinnableError
from winnable.game import Move, Position

FOUNDATION = "o"


def positions(start: Position, moves: Sequence[Move]) -> list[Position]:
    """The positions of a line: ``start``, then the position after each move."""
    out = [start]
    for move in moves:
        out.append(out[-1].play(move))
    return out


def repeats(start: Position, moves: Sequence[Move]) -> list[tuple[int, int]]:
    """Each position that comes back: ``(i, j)`` with ``i < j``, the positions before
    moves ``i`` and ``j`` equal (``j == len(moves)`` for the last position)."""
    seen: dict[Position, int] = {}
    found = []
    for index, position in enumerate(positions(start, moves)):
        if position in seen:
            found.append((seen[position], index))
        seen[position] = index
    return found


def cut_loops(start: Position, moves: Sequence[Move], states: Sequence[Position] | None = None) -> tuple[Move, ...]:
    """The line without its loops: from each position, on from its last occurrence
    (``states``: the line's :func:`positions`, if known already)."""
    if states is None:
        states = positions(start, moves)
    last = {position: index for index, position in enumerate(states)}
    out: list[Move] = []
    index = 0
    while index < len(moves):
        index = last[states[index]]
        if index < len(moves):
            out.append(moves[index])
            index += 1
    return tuple(out)


def _places(move: Move) -> tuple[str, str] | None:
    """Where a move takes cards from and puts them (free-cell tokens or Spider column
    numbers), or ``None`` for a move that touches everything (a deal) or that no move
    undoes (Black Hole)."""
    source = getattr(move, "source", None)
    target = getattr(move, "target", None)
    if source is None or target is None:
        return None
    return str(source), str(target)


def _is_cell(place: str) -> bool:
    return place.isalpha() and place != FOUNDATION


def taken_back(start: Position, moves: Sequence[Move]) -> list[tuple[int, int]]:
    """Moves later taken back: ``(i, j)`` where move ``j`` puts the cards move ``i``
    moved (the same cards, as many) back where they came from (a card from a cell may
    go back to any cell), and no move between touches either place (a deal touches
    every column).
    """
    states = positions(start, moves)
    found = []
    for j, move in enumerate(moves):
        back = _places(move)
        if back is None:
            continue
        for i in range(j - 1, -1, -1):
            there = _places(moves[i])
            if there is None:
                break  # a deal: every column changed
            (a, b), (c, d) = there, back
            returns = c == b and (d == a or (_is_cell(a) and _is_cell(d)))
            if (
                returns
                and getattr(moves[i], "count", 1) == getattr(move, "count", 1)
                and _cards(states[i], moves[i]) == _cards(states[j], move)
            ):
                found.append((i, j))
                break
            if {a, b} & {c, d} - {FOUNDATION}:
                break
    return found


def _cards(position: Position, move: Move) -> object:
    """What a move takes, as the rules describe it (its deepest card)."""
    return position.moved_card(move)


def needless(start: Position, moves: Sequence[Move]) -> list[tuple[int, int]]:
    """The moves taken back (:func:`taken_back`) without need: the line without the
    two still plays and wins."""
    out = []
    for i, j in taken_back(start, moves):
        rest = [move for k, move in enumerate(moves) if k not in (i, j)]
        try:
            if start.play_line(rest).is_won():
                out.append((i, j))
        except WinnableError:
            pass
    return out
