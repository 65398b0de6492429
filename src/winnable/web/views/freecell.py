"""The free-cell family in the browser: places are ``column:i``, ``cell:i`` (from 0) and
``foundation``; a click sends a card home first, then onto a column with cards, then to
an empty column, then to a free cell. Penguin's moves that free the beak also say where
it goes by itself (``auto``).

>>> from winnable.freecell import FreeCell
>>> position = FreeCell.deal(1)
>>> describe_move(position, position.parse_move("2a"))
{'move': '2a', 'from': 'column:1', 'to': 'cell:0', 'card': '9C', 'count': 1}
"""

from __future__ import annotations

from typing import Any

from winnable.freecell import CELL_LETTERS, COLUMN_DIGITS, FOUNDATION, FreeCellFamily, FreeCellMove
from winnable.game import Move
from winnable.web.views.moves import MoveDescription


def where(token: str) -> str:
    """A move's end as the browser names the place: ``column:i``, ``cell:i``, ``foundation``.

    >>> where("3"), where("b"), where("o")
    ('column:2', 'cell:1', 'foundation')
    """
    if token == FOUNDATION:
        return "foundation"
    if token in COLUMN_DIGITS:
        return f"column:{COLUMN_DIGITS.index(token)}"
    return f"cell:{CELL_LETTERS.index(token)}"


def describe_move(position: FreeCellFamily, move: Move) -> MoveDescription:
    """The move's two places, its card and count; with ``auto`` when the beak follows."""
    source, target, count = move.source, move.target, move.count  # type: ignore[attr-defined]
    card = position.moved_card(move)
    description: MoveDescription = {
        "move": str(move),
        "from": where(source),
        "to": where(target),
        "card": str(card) if card else None,
        "count": count,
    }
    if position.AUTO_BEAK and position.is_legal(move):  # type: ignore[arg-type]
        after = position.apply(move)  # type: ignore[arg-type]
        if after.auto:
            description["auto"] = [{"card": str(c), "from": place, "to": "foundation"} for c, place in after.auto]
    return description


def click_choices(position: FreeCellFamily) -> list[MoveDescription]:
    """Legal moves for click-to-move: the foundation first, then a column with cards,
    then an empty column, then a free cell."""

    def rank(move: FreeCellMove) -> int:
        if move.target == FOUNDATION:
            return 0
        if move.target in COLUMN_DIGITS:
            return 1 if position.columns[COLUMN_DIGITS.index(move.target)] else 2
        return 3

    return [describe_move(position, move) for move in sorted(position.legal_moves(), key=rank)]


def player_view(position: FreeCellFamily) -> dict[str, Any]:
    """Every card is face up: the whole table."""
    return position.to_json()
