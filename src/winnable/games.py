"""Every game Winnable plays, by its stable id.

>>> game_class("black-hole").title
'Black Hole'
>>> "black-hole" in game_ids()
True

Some games are played by the library, the engine and the CLI before the web app can
draw them (:data:`LIBRARY_ONLY`). The web app asks :func:`game_ids` and
:func:`game_class` with their defaults, which leave those games out, so it neither
lists them nor opens them (an unknown game there); the library and the CLI ask with
``library=True``:

>>> "fourteen-out" in game_ids(), "fourteen-out" in game_ids(library=True)
(False, True)
>>> game_class("fourteen-out", library=True).title
'Fourteen Out'
>>> deal("fourteen-out", 7).cards_left()
52
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
    "fourteen-out": "winnable.fourteen:FourteenOut",
}

LIBRARY_ONLY: frozenset[str] = frozenset({"fourteen-out"})
"""Games the web app cannot draw yet: :func:`game_ids` and :func:`game_class` leave
them out unless called with ``library=True``. Taking a game off this set puts it on
the web app (its lobby, pages, Daily and pool)."""


def game_ids(*, library: bool = False) -> list[str]:
    """The games the web app offers; with ``library=True`` every game the library
    plays (those of :data:`LIBRARY_ONLY` too)."""
    return [game_id for game_id in _REGISTRY if library or game_id not in LIBRARY_ONLY]


def game_class(game_id: str, *, library: bool = False) -> type[Position]:
    """The position class of ``game_id``; :class:`UnknownGameError` names the known ones.
    A game of :data:`LIBRARY_ONLY` is known only with ``library=True``.

    >>> game_class("fourteen-out")
    Traceback (most recent call last):
    ...
    winnable.errors.UnknownGameError: unknown game 'fourteen-out' (games: black-hole, penguin, penguin-relaxed, penguin-6, penguin-5, penguin-3, penguin-0, penguin-pysolfc, freecell, eight-off, bakers-game, black-widow, spider-4, spider-2, spider-1)
    """
    found = _classes.get(game_id)
    if found is None and library:
        found = _library_classes.get(game_id)
    if found is not None:  # the web server asks on every request
        return found
    known = game_ids(library=library)
    if game_id not in known:
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(known)})")
    module_name, class_name = _REGISTRY[game_id].split(":")
    found = getattr(importlib.import_module(module_name), class_name)
    (_library_classes if game_id in LIBRARY_ONLY else _classes)[game_id] = found
    return found


_classes: dict[str, type[Position]] = {}
_library_classes: dict[str, type[Position]] = {}
"""Classes already looked up: the web's, and those of :data:`LIBRARY_ONLY` apart (so
that the web's fast path never finds one of them)."""


def deal(game_id: str, number: int) -> Position:
    """Deal ``number`` of any game the library plays."""
    return game_class(game_id, library=True).deal(number)
