"""What the browser sees of a position: the table as the player may see it, each move
as the page draws it, and the order a click tries the legal moves in.

The rules classes (:mod:`winnable.blackhole`, :mod:`winnable.freecell`, ...) know the
rules and nothing of the page; one module here per family turns a position into what
the page draws, and the web app asks the three functions below, which pick the module
its family's traits name (:attr:`winnable.games.Traits.view`, in the registry):

* :func:`player_view`: the table as the player may see it (the ``position`` of the
  API's state; games with hidden cards hide them);
* :func:`describe_move`: a move as the browser draws it: ``move`` (notation), ``from``
  and ``to`` (places such as ``pile:4``, ``column:2``, ``cell:0``, ``foundation``,
  ``stock``; indices from 0), ``card`` (the card moved, or the deepest card of a run)
  and ``count`` (cards moved);
* :func:`click_choices`: every legal move, described, in click-to-move priority: a
  click on a card plays the first entry whose ``from`` and ``count`` match that card
  (the API's ``legal``).

>>> from winnable.blackhole import BlackHole
>>> position = BlackHole.deal(2)
>>> describe_move(position, position.parse_move("KH"))
{'move': 'KH', 'from': 'pile:12', 'to': 'foundation', 'card': 'KH', 'count': 1}
>>> click_choices(position)[0] == describe_move(position, position.legal_moves()[0])
True
>>> player_view(position) == position.to_json()
True
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from winnable.game import Move, Position
from winnable.games import FAMILIES
from winnable.web.views import blackhole, fourteen, freecell, spider
from winnable.web.views.moves import Effect, MoveDescription

VIEWS: dict[str, ModuleType] = {module.__name__.rpartition(".")[2]: module for module in (blackhole, fourteen, freecell, spider)}
"""Every view module, by its name (what a family's :attr:`~winnable.games.Traits.view` says)."""

BY_FAMILY: dict[str, ModuleType] = {family.id: VIEWS[family.traits.view] for family in FAMILIES}
"""The view module of each family, by :attr:`Position.family`."""


def describe_move(position: Position, move: Move) -> MoveDescription:
    """``move`` (legal or not) as the browser draws it in ``position``."""
    view = BY_FAMILY.get(position.family)
    return {"move": str(move)} if view is None else view.describe_move(position, move)


def click_choices(position: Position) -> list[MoveDescription]:
    """The legal moves of ``position``, described, in click-to-move priority."""
    view = BY_FAMILY.get(position.family)
    if view is None:
        return [describe_move(position, move) for move in position.legal_moves()]
    choices: list[MoveDescription] = view.click_choices(position)  # a family's module: typed for its positions
    return choices


def player_view(position: Position) -> dict[str, Any]:
    """What a player may see of ``position``."""
    view = BY_FAMILY.get(position.family)
    return position.to_json() if view is None else view.player_view(position)


def effect(position: Position, move: Move) -> Effect | None:
    """What the legal ``move`` does on the table (its family's view reads it from the
    rules: :class:`~winnable.web.views.moves.Effect`), or None for a family that says nothing."""
    view = BY_FAMILY.get(position.family)
    found: Effect | None = view.effect(position, move) if view is not None and hasattr(view, "effect") else None
    return found
