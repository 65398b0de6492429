"""Every game Winnable plays, by its stable id: the one registry of the games, their
families and variants, in the order every listing shows them (the lobby, the catalogue,
the CLI, the published tables).

A game is one line of :data:`GAMES`: its id, its family (the rules module that plays
it), its class in that module, the game it is a variant of, and whether the web app
plays it. Its title and summary are its class's (:class:`~winnable.game.Position`).
A family is one line of :data:`FAMILIES`: what the lobby and the rules pages call it,
and its :class:`Traits`, what its games can do (score, ranking, timed play, the page's
tap settings, the module that draws them): the web app and the game page (through
``/api/catalog``) read them there, and test no family's name.

>>> game_class("black-hole").title
'Black Hole'
>>> "black-hole" in game_ids()
True
>>> game_ids(family="spider")
['black-widow', 'spider-4', 'spider-2', 'spider-1']
>>> registered("penguin-6").variant_of, registered("penguin-6").title
('penguin', 'Penguin (6 flippers)')

A game can be played by the library, the engine and the CLI before the web app can
draw it: its line says ``web=False`` (:data:`LIBRARY_ONLY`; none today). The web app
asks :func:`game_ids` and :func:`game_class` with their defaults, which leave those
games out, so it neither lists them nor opens them (an unknown game there); the library
and the CLI ask with ``library=True``:

>>> sorted(LIBRARY_ONLY), game_ids() == game_ids(library=True)
([], True)
>>> game_class("fourteen-out").title
'Fourteen Out'
>>> deal("fourteen-out", 7).cards_left()
52
"""

from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any, cast

from winnable.errors import UnknownGameError
from winnable.game import Position

Picture = tuple[str | None, str | None, str | None]
"""Three cards the lobby draws for a game, in play order (``None``: a face-down card)."""


class ScoreKind(StrEnum):
    """What a game's score counts, besides winning it."""

    NONE = "none"
    """No score but the win (and the cards left): Black Hole, the Spider family."""
    FOUNDATIONS = "foundations"
    """The cards brought to the foundations (the free-cell family: "Score 40/52")."""
    TAKEN_OUT = "taken-out"
    """The cards taken out of play (Fourteen Out: "Out 40/52")."""


class RankingRule(StrEnum):
    """How a leaderboard orders the wins (every other attempt: by cards left, then moves)."""

    TIME = "time"
    """The fastest first, then the fewest moves."""
    SPEED = "speed"
    """The highest speed score first (from the moves and the seconds, the free-cell
    family's), then time and moves."""


@dataclass(frozen=True)
class Traits:
    """What a family's games can do and how the web app shows them: read by the web
    app's Python and, through ``/api/catalog`` (each game's ``traits``), by the game
    page, so that neither tests a family's name.

    >>> family_of("penguin-6").traits.as_json()["ranking"]
    'speed'
    """

    view: str
    """The module that draws its positions: ``winnable.web.views.<view>`` on the server,
    ``static/js/<view>.js`` in the browser."""
    score: ScoreKind = ScoreKind.NONE
    ranking: RankingRule = RankingRule.TIME
    timed_play: bool = False
    """A move can be given a time limit (think seconds): the game is lost when it runs out."""
    one_tap: bool = False
    """One-tap moves start switched on: a card with one place to go leaves nothing to
    choose (Black Hole: the hole; Fourteen Out: its one partner)."""
    click_move: bool = False
    """A click moves the card to its first place (as the original games did), unless the
    player chooses select-then-place."""
    safe_moves: bool = False
    """The server names the moves home that can never hurt (the setting that plays them)."""
    times_by_undo: bool = False
    """The statistics show the best time in each undo mode."""
    cells: str = "cells"
    """What the game calls its cells, for the page's words: ``cells`` (free cells) or
    ``flippers`` (Penguin's). Set per game (:attr:`Game.cells`)."""

    def as_json(self) -> dict[str, Any]:
        """The traits as ``/api/catalog`` serves them (enums as their values)."""
        return {key: str(value) if isinstance(value, StrEnum) else value for key, value in asdict(self).items()}


@dataclass(frozen=True)
class Family:
    """A family of games: one rules module (``winnable.<id>``) plays them all.

    Its texts are English msgids: the web app shows them translated (``make messages``
    extracts them with the games' titles, :func:`winnable.web.pages.i18n.extract_game_texts`).
    """

    id: str
    """``blackhole``: also the name of its rules module and of its rules page's template."""
    name: str
    """Its name in the project's own documents (the published tables' pictures)."""
    title: str
    """The lobby's heading over its games."""
    blurb: str
    """The lobby's sentence under that heading."""
    picture: Picture
    """What the lobby draws for its games that have no picture of their own."""
    traits: Traits
    """What its games can do (:class:`Traits`)."""
    rules_title: str = ""
    """Its rules page's title, if not :attr:`title`."""

    @property
    def page_title(self) -> str:
        return self.rules_title or self.title


@dataclass(frozen=True)
class Game:
    """One game of the registry: its rules are the class ``class_name`` of ``winnable.<family>``."""

    id: str
    """The stable id used everywhere: CLI, web, storage (the class's ``game_id``)."""
    family: str
    class_name: str
    variant_of: str | None = None
    """The game this one varies (``penguin`` for ``penguin-6``): the lobby lists it
    compactly after that game."""
    picture: Picture | None = None
    """The lobby's picture of how it builds; ``None``: its family's."""
    web: bool = True
    """False for a game the web app cannot draw yet (:data:`LIBRARY_ONLY`)."""
    cells: str | None = None
    """What this game calls its cells when not its family's word (Penguin's ``flippers``)."""

    @property
    def target(self) -> str:
        return f"winnable.{self.family}:{self.class_name}"

    @property
    def cls(self) -> type[Position]:
        return game_class(self.id, library=True)

    @property
    def title(self) -> str:
        return self.cls.title

    @property
    def summary(self) -> str:
        return self.cls.summary

    @property
    def traits(self) -> Traits:
        family = _FAMILIES[self.family].traits
        return family if self.cells is None else replace(family, cells=self.cells)


FAMILIES: tuple[Family, ...] = (
    Family(
        "blackhole",
        name="Black Hole",
        title="Black Hole",
        blurb="Every card is face up: each loss can be traced back to one move.",
        picture=("KH", "AS", "2D"),
        traits=Traits("blackhole", timed_play=True, one_tap=True, times_by_undo=True),
    ),
    Family(
        "freecell",
        name="The free-cell family",
        title="Penguin and the free-cell games",
        blurb="Build down in suit, park cards in free cells, bring every suit home.",
        picture=("JC", "TC", "9C"),
        traits=Traits("freecell", score=ScoreKind.FOUNDATIONS, ranking=RankingRule.SPEED, safe_moves=True),
    ),
    Family(
        "spider",
        name="The Spider family",
        title="Spider games",
        blurb="Two decks, ten columns: clear King-to-Ace runs of one suit.",
        picture=(None, "8S", "7H"),
        traits=Traits("spider", click_move=True),
        rules_title="Black Widow and Spider",
    ),
    Family(
        "fourteen",
        name="Fourteen Out",
        title="Fourteen Out",
        blurb="Every card face up: take out two top cards that make fourteen.",
        picture=("7S", "7H", "KD"),
        traits=Traits("fourteen", score=ScoreKind.TAKEN_OUT, one_tap=True, times_by_undo=True),
    ),
)
"""Every family, in the lobby's order."""

GAMES: tuple[Game, ...] = (
    Game("black-hole", "blackhole", "BlackHole"),
    Game("penguin", "freecell", "Penguin", cells="flippers"),
    Game("penguin-relaxed", "freecell", "RelaxedPenguin", cells="flippers", variant_of="penguin"),
    Game("penguin-6", "freecell", "Penguin6", cells="flippers", variant_of="penguin"),
    Game("penguin-5", "freecell", "Penguin5", cells="flippers", variant_of="penguin"),
    Game("penguin-3", "freecell", "Penguin3", cells="flippers", variant_of="penguin"),
    Game("penguin-0", "freecell", "Penguin0", cells="flippers", variant_of="penguin"),
    Game("penguin-pysolfc", "freecell", "PySolFCPenguin", cells="flippers", variant_of="penguin"),
    Game("freecell", "freecell", "FreeCell", picture=("KS", "QH", "JC")),
    Game("eight-off", "freecell", "EightOff", picture=("9D", "8D", "7D")),
    Game("bakers-game", "freecell", "BakersGame", picture=("6S", "5S", "4S")),
    Game("black-widow", "spider", "BlackWidow", picture=(None, "9S", "8H")),
    Game("spider-4", "spider", "Spider4", picture=(None, "8S", "7S")),
    Game("spider-2", "spider", "Spider2", picture=(None, "8H", "7H")),
    Game("spider-1", "spider", "Spider1", picture=(None, "8C", "7C")),
    Game("fourteen-out", "fourteen", "FourteenOut"),
)
"""Every game, in the order every listing shows them: one line a game. A module is
imported only when one of its games is used."""

_BY_ID: dict[str, Game] = {game.id: game for game in GAMES}
_FAMILIES: dict[str, Family] = {family.id: family for family in FAMILIES}

LIBRARY_ONLY: frozenset[str] = frozenset(game.id for game in GAMES if not game.web)
"""Games the web app cannot draw yet: :func:`game_ids` and :func:`game_class` leave
them out unless called with ``library=True``. Making a game's line ``web=True`` puts it
on the web app (its lobby, pages, Daily and pool)."""


def game_ids(*, library: bool = False, family: str | None = None) -> list[str]:
    """The games the web app offers; with ``library=True`` every game the library
    plays (those of :data:`LIBRARY_ONLY` too); with ``family``, that family's only."""
    return [game.id for game in GAMES if (library or game.web) and (family is None or game.family == family)]


def registered(game_id: str, *, library: bool = False) -> Game:
    """The registry's line of ``game_id`` (:class:`UnknownGameError` as :func:`game_class`)."""
    found = _BY_ID.get(game_id)
    if found is None or not (library or found.web):
        known = game_ids(library=library)
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(known)})")
    return found


def families(*, library: bool = False) -> list[Family]:
    """The families with a game the web app offers (with ``library=True``: with any
    game), in the lobby's order."""
    wanted = {game.family for game in GAMES if library or game.web}
    return [family for family in FAMILIES if family.id in wanted]


def family_named(family_id: str) -> Family:
    """The family ``family_id`` (``KeyError`` if there is none).

    >>> family_named("freecell").name
    'The free-cell family'
    """
    return _FAMILIES[family_id]


def family_of(game_id: str, *, library: bool = False) -> Family:
    """The family of ``game_id`` (:class:`UnknownGameError` as :func:`game_class`).

    >>> family_of("spider-2").title
    'Spider games'
    """
    return _FAMILIES[registered(game_id, library=library).family]


def traits_of(game_id: str, *, library: bool = False) -> Traits:
    """What ``game_id`` can do (its family's :class:`Traits`; :class:`UnknownGameError`
    as :func:`game_class`).

    >>> traits_of("spider-2").click_move, traits_of("black-hole").timed_play
    (True, True)
    """
    return registered(game_id, library=library).traits


def picture(game_id: str) -> Picture:
    """What the lobby draws for ``game_id``: its own picture, else its family's."""
    game = _BY_ID[game_id]
    return game.picture or _FAMILIES[game.family].picture


def game_class(game_id: str, *, library: bool = False) -> type[Position]:
    """The position class of ``game_id``; :class:`UnknownGameError` names the known ones.
    A game of :data:`LIBRARY_ONLY` is known only with ``library=True``.

    >>> game_class("fourteen")
    Traceback (most recent call last):
    ...
    winnable.errors.UnknownGameError: unknown game 'fourteen' (games: black-hole, penguin, penguin-relaxed, penguin-6, penguin-5, penguin-3, penguin-0, penguin-pysolfc, freecell, eight-off, bakers-game, black-widow, spider-4, spider-2, spider-1, fourteen-out)
    """
    found = _classes.get(game_id)
    if found is None and library:
        found = _library_classes.get(game_id)
    if found is not None:  # the web server asks on every request
        return found
    game = registered(game_id, library=library)
    module_name, class_name = game.target.split(":")
    # A registered target names a Position subclass as "module:Class" (every game is dealt in the tests).
    found = cast("type[Position]", getattr(importlib.import_module(module_name), class_name))
    (_classes if game.web else _library_classes)[game_id] = found
    return found


_classes: dict[str, type[Position]] = {}
_library_classes: dict[str, type[Position]] = {}
"""Classes already looked up: the web's, and those of :data:`LIBRARY_ONLY` apart (so
that the web's fast path never finds one of them)."""


def deal(game_id: str, number: int) -> Position:
    """Deal ``number`` of any game the library plays."""
    return game_class(game_id, library=True).deal(number)
