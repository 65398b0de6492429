"""What every family's view says of a move (a ``legal`` entry of the game state, a
hint's ``describe``): the same keys in every family, so they are typed once here."""

from __future__ import annotations

from typing import NotRequired, TypedDict

AutoMove = TypedDict("AutoMove", {"card": str, "from": str, "to": str})
"""A card the free-cell family's auto-beak sends home after the move."""

MoveDescription = TypedDict(
    "MoveDescription",
    {
        "move": str,  # the move in the game's notation
        "from": NotRequired[str],  # a place: pile:i, column:i, cell:i, stock; left out for a move the view cannot place
        "to": NotRequired[str],  # a place, foundation or columns (a spider deal)
        "card": NotRequired[str | None],
        "count": NotRequired[int],
        "auto": NotRequired[list[AutoMove]],
    },
)
"""A move as the browser draws it: its two places, its card and how many cards move."""


class Effect(TypedDict):
    """What a move does on the table, as each family's view reads it from the rules
    (the position before and after): a stable ``code`` and what its phrase names, in no
    language (:mod:`winnable.web.play.why` words it). Cards in the rules' notation
    (``7C``), suits as their letter, columns and piles counted from 1."""

    code: str
    card: NotRequired[str]
    cards: NotRequired[list[str]]
    onto: NotRequired[str]
    suit: NotRequired[str]
    column: NotRequired[int]
    follow: NotRequired[int]
    cell: NotRequired[str]
