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
from winnable.web.views.moves import Effect, MoveDescription


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


def effect(position: FreeCellFamily, move: Move) -> Effect:
    """What the legal ``move`` does on the table: a card home (starting or completing its
    suit; with the safe moves home it opens), a column emptied, a cell freed, a card
    uncovered that can go home, a card moved onto another, to an empty column or a cell.

    >>> from winnable.freecell import FreeCell
    >>> effect(FreeCell.deal(1), FreeCell.deal(1).parse_move("2a"))
    {'code': 'to_cell', 'card': '9C', 'cell': 'free cell'}
    """
    source, target, count = move.source, move.target, move.count  # type: ignore[attr-defined]
    card = position.moved_card(move)
    after = position.apply(move)  # type: ignore[arg-type]
    text = str(card) if card is not None else ""
    if target == FOUNDATION and card is not None:
        follow = len(after.auto) + len(safe_run(after))
        if after.foundations[card.suit] == 13:
            return {"code": "completes_suit", "card": text, "suit": card.suit.char, "follow": follow}
        if position.foundations[card.suit] == 0:
            return {"code": "starts_foundation", "card": text, "suit": card.suit.char, "follow": follow}
        return {"code": "to_foundation", "card": text, "follow": follow}
    if source in COLUMN_DIGITS:
        index = COLUMN_DIGITS.index(source)
        column = position.columns[index]
        if not after.columns[index]:  # (Penguin: the cards under it may have gone home by themselves)
            return {"code": "empties_column", "card": text, "column": index + 1}
        under = column[-count - 1]
        if after.foundation_accepts(under) or under in after.foundation_cards():
            return {"code": "uncovers", "card": str(under)}
    else:
        return {"code": "frees_cell", "card": text, "cell": position.CELL_NAME}
    if target in COLUMN_DIGITS:
        onto = position.columns[COLUMN_DIGITS.index(target)]
        if not onto:
            return {"code": "to_empty_column", "card": text, "column": COLUMN_DIGITS.index(target) + 1}
        return {"code": "builds", "card": text, "onto": str(onto[-1])}
    return {"code": "to_cell", "card": text, "cell": position.CELL_NAME}


def safe_run(position: FreeCellFamily) -> list[FreeCellMove]:
    """The safe moves home played one after another from ``position`` (as the page's
    setting plays them)."""
    played: list[FreeCellMove] = []
    while len(played) < 52:
        safe = position.safe_moves_home()
        if not safe:
            break
        played.append(safe[0])
        position = position.apply(safe[0])
    return played
