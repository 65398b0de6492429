"""Every game Winnable plays, by its stable id.

>>> game_class("black-hole").title
'Black Hole'
>>> "black-hole" in game_ids()
True
"""

from __future__ import annotations

import importlib

from winnable.errors import UnknownGameError
from winnable.game import Position

# id -> "module:Class". One line a game; a module is imported only when its game is used.
_REGISTRY: dict[str, str] = {
    "black-hole": "winnable.blackhole:BlackHole",
    "penguin": "winnable.freecell:Penguin",
    "penguin-relaxed": "winnable.freecell:RelaxedPenguin",
    "penguin-6": "winnable.freecell:Penguin6",
    "penguin-5": "winnable.freecell:Penguin5",
    "penguin-3": "winnable.freecell:Penguin3",
    "penguin-0": "winnable.freecell:Penguin0",
    "penguin-pysolfc": "winnable.freecell:PySolFCPenguin",
    "freecell": "winnable.freecell:FreeCell",
    "eight-off": "winnable.freecell:EightOff",
    "bakers-game": "winnable.freecell:BakersGame",
    "black-widow": "winnable.spider:BlackWidow",
    "spider-4": "winnable.spider:Spider4",
    "spider-2": "winnable.spider:Spider2",
    "spider-1": "winnable.spider:Spider1",
}


def game_ids() -> list[str]:
    return list(_REGISTRY)


def game_class(game_id: str) -> type[Position]:
    """The position class of ``game_id``; :class:`UnknownGameError` names the known ones."""
    found = _classes.get(game_id)
    if found is not None:  # the web server asks on every request
        return found
    try:
        target = _REGISTRY[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(_REGISTRY)})") from None
    module_name, class_name = target.split(":")
    found = _classes[game_id] = getattr(importlib.import_module(module_name), class_name)
    return found


_classes: dict[str, type[Position]] = {}


def deal(game_id: str, number: int) -> Position:
    return game_class(game_id).deal(number)
