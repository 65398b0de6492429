"""What a request names, checked before anything is read: a game of the registry, a deal
number, a stored game's id; and the catalogue of games the lobby lists.

>>> lookup_game("black-hole").title, parse_deal("0042"), valid_id("abc_-9"), valid_id("a b")
('Black Hole', 42, True, False)
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, TypedDict, cast

from winnable.deals import MAX_DEAL, parse_deal_number
from winnable.decks import Deck
from winnable.errors import UnknownGameError, WinnableError
from winnable.game import Position
from winnable.games import game_class, game_ids, picture, registered
from winnable.web.errors import BadRequest, NotFound, quote
from winnable.web.pages.i18n import N_

UNDO_MODES = ("unlimited", "one", "none")
"""Play modes for undo: as often as wanted, once a game (beginner), never (purist)."""

RANDOM_DEALS = 10**6
"""A new game without a deal number gets a random one from 1 to this."""

MAX_MOVES = 10_000
"""A guard against runaway clients: no game needs more moves than this."""


def valid_id(game_id: str) -> bool:
    """Game ids are short URL-safe tokens; anything else is refused before the database
    sees it (NUL bytes, surrogates, megabytes of text)."""
    return 0 < len(game_id) <= 32 and _ID.fullmatch(game_id) is not None


_ID = re.compile(r"[A-Za-z0-9_-]+")


def short(message: str, limit: int = 160) -> str:
    """A rules' message, cut short and safe to encode (it may quote what the client sent)."""
    message = message if len(message) <= limit else message[:limit] + "…"
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


def game_not_found(game_id: str) -> NotFound:
    return NotFound(N_("no game with id {id} (it may have been made on another server)", id=quote(game_id)), code="game_not_found")


def hides_cards(cls: type[Position]) -> bool:
    """True for games with face-down cards (the solver knows them, the player does not)."""
    return cls.hidden_cards


def lookup_game(game_id: str) -> type[Position]:
    try:
        return game_class(game_id)
    except UnknownGameError:
        raise NotFound(N_("unknown game {name} (see /api/catalog for the games)", name=quote(game_id)), code="unknown_game") from None


class CatalogEntry(TypedDict):
    """One game of the catalogue (the API's ``CatalogEntry``)."""

    id: str
    title: str
    family: str
    variant_of: str | None
    picture: list[str | None]
    summary: str
    undo_modes: list[str]
    hidden_cards: bool
    traits: dict[str, Any]  # winnable.games.Traits.as_json
    links: dict[str, str]


def catalog() -> list[CatalogEntry]:
    """Every game the web app plays, in the registry's order, for the lobby (titles and
    summaries in English: the catalogue's route translates them)."""
    entries: list[CatalogEntry] = []
    for game_id in game_ids():
        game = registered(game_id)
        cls = game.cls
        entries.append(
            {
                "id": game_id,
                "title": cls.title,
                "family": game.family,
                "variant_of": game.variant_of,
                "picture": list(picture(game_id)),
                "summary": cls.summary,
                "undo_modes": list(UNDO_MODES),
                "hidden_cards": hides_cards(cls),
                "traits": game.traits.as_json(),
                "links": {"play": f"/play/{game_id}", "rules": f"/rules/{game_id}"},
            }
        )
    return entries


def parse_deal(value: Any) -> int:
    """A deal number from JSON (a number or its text), with a short reason if it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or (isinstance(value, str) and len(value) > 30):
        raise BadRequest(N_("not a deal number: {value}", value=quote(value)), code="bad_deal")
    if isinstance(value, int) and not 1 <= value <= MAX_DEAL:
        raise BadRequest(N_("deal number out of range: {value} (1 to {last})", value=quote(value), last=MAX_DEAL), code="bad_deal")
    try:
        return parse_deal_number(value)
    except WinnableError as error:
        raise BadRequest(str(error), code="bad_deal") from None


Source = int | Deck
"""What a game is dealt from: a deal number, or a deck order (a Daily's layout)."""


@lru_cache(maxsize=256)
def deck_of(layout: str) -> Deck:
    """A stored layout back to its :class:`Deck` (the same object for the same text, so
    that cache keys compare at once)."""
    return Deck.parse(layout)


def source_of(row: Any) -> Source:  # a games row: GameRow, Stored or a selected Row
    """What the stored game ``row`` was dealt from."""
    return deck_of(row.layout) if getattr(row, "layout", None) else int(cast(str, row.deal))  # no layout: a number
