"""Black Hole in the browser: a move takes the top card of a pile to the foundation.

>>> from winnable.blackhole import BlackHole
>>> position = BlackHole.deal(2)
>>> [entry["from"] for entry in click_choices(position)]
['pile:1', 'pile:5', 'pile:12']
"""

from __future__ import annotations

from typing import Any

from winnable.blackhole import BlackHole
from winnable.game import Move
from winnable.web.views.moves import Effect, MoveDescription


def describe_move(position: BlackHole, move: Move) -> MoveDescription:
    """The card's pile (``pile:i``, from 0) to the foundation."""
    card = position.moved_card(move)
    pile = position.pile_of(card) if card is not None else None
    return {"move": str(move), "from": f"pile:{pile}", "to": "foundation", "card": str(card), "count": 1}


def click_choices(position: BlackHole) -> list[MoveDescription]:
    """The legal moves in the rules' order (a card has at most one)."""
    return [describe_move(position, move) for move in position.legal_moves()]


def player_view(position: BlackHole) -> dict[str, Any]:
    """Every card is face up: the whole table."""
    return position.to_json()


def effect(position: BlackHole, move: Move) -> Effect:
    """What the legal ``move`` does: it uncovers the card under the one played, or
    (the last card of its pile) plays it onto the black hole.

    >>> from winnable.blackhole import BlackHole
    >>> position = BlackHole.deal(2)
    >>> effect(position, position.parse_move("KH"))
    {'code': 'uncovers', 'card': '4H'}
    """
    card = position.moved_card(move)
    pile = position.pile_of(card) if card is not None else None
    cards = position.piles[pile] if pile is not None else ()
    if len(cards) > 1:
        return {"code": "uncovers", "card": str(cards[-2])}
    return {"code": "to_hole", "card": str(card)}
