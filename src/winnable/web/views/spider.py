"""The Spider family in the browser: columns are ``column:i`` (from 0), the deal goes
from ``stock`` to ``columns``; the player sees face-down cards and the stock as counts.

>>> from winnable.spider import BlackWidow
>>> position = BlackWidow.deal(1)
>>> describe_move(position, position.parse_move("10>5"))
{'move': '10>5', 'from': 'column:9', 'to': 'column:4', 'card': '3S', 'count': 1}
>>> player_view(position)["columns"][0]
{'down': 5, 'up': ['8H']}
"""

from __future__ import annotations

from typing import Any

from winnable.errors import ParseError
from winnable.game import Move
from winnable.spider import COLUMNS, Spider, SpiderMove
from winnable.web.views.moves import Effect, MoveDescription


def click_targets(position: Spider, source: int, count: int) -> list[int]:
    """Where a click sends the top ``count`` cards of column ``source``, best first:
    columns whose top is one rank higher and of the run's suit, then of any suit (left
    to right), then the first empty column."""
    card = position.columns[source].up[-count]
    same: list[int] = []
    other: list[int] = []
    empty: list[int] = []
    for target, column in enumerate(position.columns):
        if target == source:
            continue
        top = column.top
        if top is None:
            empty.append(target)
        elif top.rank == card.rank + 1:
            (same if top.suit == card.suit else other).append(target)
    return same + other + empty[:1]


def click_move(position: Spider, column: int, index: int) -> SpiderMove | None:
    """The move a click on a card plays, or ``None`` if the click does nothing.

    ``column`` counts from 0; ``index`` is the card's place in its column, face-down
    cards included, from 0 for the deepest card (negative counts from the top: -1 is
    the top card). The card moves with every card on it, to a column whose top is one
    rank higher and of its own suit first, any suit next, else to the first empty
    column.

    >>> from winnable.spider import BlackWidow
    >>> position = BlackWidow.deal(1)
    >>> click_move(position, 9, -1)
    SpiderMove.from_text('10>5')
    >>> click_move(position, 0, 0) is None  # a face-down card
    True
    """
    if not 0 <= column < COLUMNS:
        raise ParseError(f"no column {column}: columns are numbered 0 to {COLUMNS - 1} here")
    cards = position.columns[column]
    size = len(cards)
    if index < 0:
        index += size
    if not 0 <= index < size:
        raise ParseError(f"column {column} has no card {index}")
    count = size - index
    if index < len(cards.down) or count > position.movable(column):
        return None
    targets = click_targets(position, column, count)
    if not targets:
        return None
    move = SpiderMove(column, targets[0], count)
    return move if move in position.legal_moves() else None


def click_choices(position: Spider) -> list[MoveDescription]:
    """Every legal move described, in click-to-move order: for each card that can
    move, the move a click plays comes first; moves to the other empty columns
    (for dragging) and the deal follow."""
    legal = position.legal_moves()
    ordered: list[SpiderMove] = []
    for source in range(COLUMNS):
        for count in range(1, position.movable(source) + 1):
            preferred = [SpiderMove(source, target, count) for target in click_targets(position, source, count)]
            rest = [move for move in legal if move.source == source and move.count == count and move not in preferred]
            ordered += preferred + rest
    ordered += [move for move in legal if move.is_deal]
    return [describe_move(position, move) for move in ordered]


def describe_move(position: Spider, move: Move) -> MoveDescription:
    """A move between two columns, or the deal from the stock to every column."""
    if not isinstance(move, SpiderMove):
        return {"move": str(move)}
    if move.is_deal:
        return {"move": str(move), "from": "stock", "to": "columns", "card": None, "count": min(COLUMNS, len(position.stock))}
    card = position.moved_card(move)
    return {
        "move": str(move),
        "from": f"column:{move.source}",
        "to": f"column:{move.target}",
        "card": str(card) if card is not None else None,
        "count": move.count,
    }


def player_view(position: Spider) -> dict[str, Any]:
    """What a player sees: face-down cards and the stock are counts only."""
    return {
        "game": position.game_id,
        "deal": position.deal_number,
        "family": position.family,
        "columns": [{"down": len(column.down), "up": [str(card) for card in column.up]} for column in position.columns],
        "stock": position.stocks_left(),
        "foundations": [suit.char for suit in position.foundations],
        "cards_left": position.cards_left(),
        "won": position.is_won(),
        "lost": position.is_lost(),
        "auto": list(position.auto),
    }


def effect(position: Spider, move: Move) -> Effect:
    """What the legal ``move`` does on the table: a deal, a suit completed (its run
    removed), a face-down card turned (never named: the player has not seen it), a
    column emptied, a run built onto a card or moved to an empty column.

    >>> from winnable.spider import BlackWidow
    >>> position = BlackWidow.deal(1)
    >>> effect(position, position.parse_move("10>5"))
    {'code': 'turns_over', 'column': 10}
    """
    if not isinstance(move, SpiderMove) or move.is_deal:
        return {"code": "deals"}
    after = position.apply(move)
    source, target = position.columns[move.source], position.columns[move.target]  # type: ignore[index]
    card = position.moved_card(move)
    text = str(card) if card is not None else ""
    if len(after.foundations) > len(position.foundations):
        return {"code": "completes_suit", "suit": after.foundations[-1].char}
    if move.count == len(source.up) and source.down:
        return {"code": "turns_over", "column": move.source + 1}  # type: ignore[operator]
    if move.count == len(source.up):
        return {"code": "empties_column", "card": text, "column": move.source + 1}  # type: ignore[operator]
    if target.top is None:
        return {"code": "to_empty_column", "card": text, "column": move.target + 1}  # type: ignore[operator]
    return {"code": "builds", "card": text, "onto": str(target.top)}
