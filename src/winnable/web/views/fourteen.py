"""Fourteen Out in the browser: a move takes a pair of top cards, drawn as the first
card's pile onto the second's.

>>> from winnable.fourteen import FourteenOut
>>> position = FourteenOut.deal(1)
>>> sorted(click_choices(position)[0])
['card', 'count', 'from', 'move', 'to']
"""

from __future__ import annotations

from typing import Any

from winnable.fourteen import FourteenOut
from winnable.game import Move
from winnable.web.views.moves import Effect, MoveDescription


def describe_move(position: FourteenOut, move: Move) -> MoveDescription:
    """A move from the pile of its first card to the pile of its second."""
    cards = getattr(move, "cards", None)
    if cards is None:
        return {"move": str(move)}
    return {
        "move": str(move),
        "from": f"pile:{position.pile_of(cards[0])}",
        "to": f"pile:{position.pile_of(cards[1])}",
        "card": str(cards[0]),
        "count": 1,
    }


def click_choices(position: FourteenOut) -> list[MoveDescription]:
    """The legal moves in the rules' order."""
    return [describe_move(position, move) for move in position.legal_moves()]


def player_view(position: FourteenOut) -> dict[str, Any]:
    """Every card is face up: the whole table."""
    return position.to_json()


def effect(position: FourteenOut, move: Move) -> Effect:
    """What the legal ``move`` does: it takes out a pair adding up to 14.

    >>> from winnable.fourteen import FourteenOut
    >>> position = FourteenOut.deal(1)
    >>> effect(position, position.legal_moves()[0])["code"]
    'removes_pair'
    """
    cards = getattr(move, "cards", None) or ()
    return {"code": "removes_pair", "cards": [str(card) for card in cards]}
