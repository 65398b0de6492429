"""The games people play in the browser: create, move, undo, restart, all checked by the rules.

The server is authoritative. A stored game is only its preset, deal number and moves;
the position is rebuilt by replaying the moves with the game's Python rules (the
latest positions are kept in memory, so a move costs one ``play``). Every change is
validated first and written in one transaction, so a refused request changes nothing
and an accepted one is stored before it is answered.

Everything here is generic over the registry (:func:`winnable.games.game_ids`) and the
:class:`~winnable.game.Position` contract.

>>> from winnable.web.db import make_engine, migrate
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> games = GameService(engine)
>>> state = games.create("black-hole", 2, undo="one")
>>> [choice["move"] for choice in state["legal"]]
['2S', '2H', 'KH']
>>> state = games.play(state["id"], "KH")
>>> state["moves"], state["position"]["cards_left"], state["undo_left"]
(['KH'], 50, 1)
>>> try:
...     games.play(state["id"], "7D")
... except ServiceError as refused:
...     print(refused.status, refused)
409 7D is not one rank above or below KH (suits do not matter; K-A-2 wraps)
>>> state = games.undo(state["id"])
>>> state["moves"], state["undo_left"]
([], 0)
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import random
import re
import secrets
import threading
from functools import lru_cache
from typing import Any, Sequence

import sqlalchemy as sa
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from winnable.deals import MAX_DEAL, parse_deal_number
from winnable.errors import IllegalMoveError, UnknownGameError, WinnableError
from winnable.game import Position
from winnable.games import game_class, game_ids
from winnable.web.cache import ByteLRU, position_size
from winnable.web.db import GameRow, Query, as_utc, utcnow, write_lock, writer
from winnable.web.errors import ApiError, BadRequest, Conflict, NotFound, Unavailable, quote

ServiceError = ApiError  # the name other modules knew
__all__ = ["GameService", "Positions", "ServiceError", "BadRequest", "Conflict", "NotFound", "Unavailable"]

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
    return NotFound(f"no game with id {quote(game_id)} (it may have been made on another server)", code="game_not_found")


# -- the games on offer ---------------------------------------------------------------
def hides_cards(cls: type[Position]) -> bool:
    """True for games with face-down cards (the solver knows them, the player does not)."""
    return bool(getattr(cls, "hidden_cards", cls.family == "spider"))


def lookup_game(game_id: str) -> type[Position]:
    try:
        return game_class(game_id)
    except UnknownGameError:
        raise NotFound(f"unknown game {quote(game_id)} (see /api/catalog for the games)", code="unknown_game") from None


def catalog() -> list[dict[str, Any]]:
    """Every registered game, for the lobby."""
    entries = []
    for game_id in game_ids():
        cls = game_class(game_id)
        entries.append(
            {
                "id": game_id,
                "title": cls.title,
                "family": cls.family,
                "summary": cls.summary,
                "undo_modes": list(UNDO_MODES),
                "hidden_cards": hides_cards(cls),
                "links": {"play": f"/play/{game_id}", "rules": f"/rules/{game_id}"},
            }
        )
    return entries


def parse_deal(value: Any) -> int:
    """A deal number from JSON (a number or its text), with a short reason if it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or (isinstance(value, str) and len(value) > 30):
        raise BadRequest(f"not a deal number: {quote(value)}", code="bad_deal")
    if isinstance(value, int) and not 1 <= value <= MAX_DEAL:
        raise BadRequest(f"deal number out of range: {quote(value)} (1 to {MAX_DEAL})", code="bad_deal")
    try:
        return parse_deal_number(value)
    except WinnableError as error:
        raise BadRequest(str(error), code="bad_deal") from None


# -- positions in memory --------------------------------------------------------------
def moves_key(moves: Sequence[str]) -> tuple[bytes, bytes]:
    """Digests of ``moves`` and of ``moves[:-1]``: a cache key costs 16 bytes however
    long the game (a key holding the move list made a 10,000-move game cost gigabytes).

    >>> moves_key(["KH", "AD"])[1] == moves_key(["KH"])[0] and moves_key([])[0] == moves_key(["KH"])[1]
    True
    """
    text = "\n".join(moves).encode("utf-8", "surrogatepass")
    full = hashlib.blake2b(text, digest_size=16).digest()
    if not moves:
        return full, full
    cut = max(0, len(text) - len(moves[-1].encode("utf-8", "surrogatepass")) - 1)
    return full, hashlib.blake2b(text[:cut], digest_size=16).digest()


class Positions:
    """Positions by (game, deal, moves), rebuilt by replay when not in memory; the cache
    holds at most ``budget`` bytes."""

    def __init__(self, budget: int = 64 << 20) -> None:
        self.cache = ByteLRU(budget)

    def after(self, game: str, deal: int, moves: Sequence[str]) -> Position:
        key, before = moves_key(moves)
        position = self.cache.get((game, deal, key))
        if position is not None:
            return position
        start, position = 0, None
        if moves:  # undo and a replay of one move more are the common misses
            position = self.cache.get((game, deal, before))
            start = len(moves) - 1
        if position is None:
            start, position = 0, initial(game, deal)
        try:
            position = position.play_line(moves[start:])
        except WinnableError as error:
            raise Conflict(f"this stored game no longer replays under the current rules: {error}", code="stale_game") from None
        self.cache.put((game, deal, key), position, position_size(position))
        return position

    def remember(self, game: str, deal: int, moves: Sequence[str], position: Position) -> None:
        self.cache.put((game, deal, moves_key(moves)[0]), position, position_size(position))


@lru_cache(maxsize=512)
def initial(game: str, deal: int) -> Position:
    return lookup_game(game).deal(deal)


@lru_cache(maxsize=512)
def cards_in_play(game: str, deal: int) -> int:
    """Cards a player can bring home in this deal (for the partial score)."""
    position = initial(game, deal)
    view = position.player_view()
    on_foundations = view.get("score", 0) if isinstance(view.get("score"), int) else 0
    return position.cards_left() + on_foundations


def status_of(position: Position) -> str:
    return shown(position).status


@dataclasses.dataclass(frozen=True)
class Shown:
    """What the browser gets for one position, worked out once per position."""

    position: Position
    status: str
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    safe: list[str] = dataclasses.field(default_factory=list)
    """Moves to the foundations that lose nothing (played for the player who wants it)."""
    finish: list[str] | None = None
    """When the rest is a plain run home: its moves (the page's Finish control)."""


def safe_moves_home(position: Position) -> list[str]:
    """The game's safe moves home, for games that have them (the free-cell family)."""
    method = getattr(position, "safe_moves_home", None)
    return [str(move) for move in method()] if method else []


def finishing_line(position: Position) -> list[str] | None:
    method = getattr(position, "finishing_line", None)
    line = method() if method else None
    return None if not line else [str(move) for move in line]


_shown = ByteLRU(16 << 20)


def shown(position: Position) -> Shown:
    """The status, the player's view and the described legal moves of ``position``
    (memoised: positions are immutable and a game's position is asked for often)."""
    entry = _shown.get(id(position))
    if entry is not None and entry.position is position:
        return entry
    status = "won" if position.is_won() else "lost" if position.is_lost() else "playing"
    playing = status == "playing"
    entry = Shown(
        position,
        status,
        position.player_view(),
        position.click_choices() if playing else [],
        safe_moves_home(position) if playing else [],
        finishing_line(position) if playing else None,
    )
    _shown.put(id(position), entry, 4 * position_size(position))
    return entry


def iso(moment: dt.datetime | None) -> str | None:
    moment = as_utc(moment)
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """A stored game and its current position, as the solver features need it."""

    id: str
    game: str
    deal: int
    moves: tuple[str, ...]
    position: Position
    status: str

    @property
    def cls(self) -> type[Position]:
        return type(self.position)


# -- the service ----------------------------------------------------------------------
_GAMES = GameRow.__table__
_READ_GAME = select(_GAMES).where(_GAMES.c.id == sa.bindparam("id"))
_LOCK_GAME = _READ_GAME.with_for_update()
_INSERT_GAME = _GAMES.insert()
_CHANGED = ("moves", "undo_used", "restarts", "started_at", "status", "updated_at", "finished_at")
# Built once: building a statement per request cost more than running it.
_UPDATE_GAME = (_GAMES.update().where(_GAMES.c.id == sa.bindparam("game_id"))
                .values({name: sa.bindparam(name) for name in _CHANGED}))


@dataclasses.dataclass
class Stored:
    """One row of ``games``, as a transaction reads and changes it."""

    id: str
    game: str
    deal: str
    undo_mode: str
    undo_used: int
    moves: list[str]
    winnable_deal: bool
    restarts: int
    created_at: dt.datetime
    started_at: dt.datetime | None
    updated_at: dt.datetime
    finished_at: dt.datetime | None
    status: str

    @property
    def deal_number(self) -> int:
        return int(self.deal)


class GameService:
    """Create and play games stored in the database behind ``engine``."""

    def __init__(self, engine: Engine, positions: Positions | None = None) -> None:
        self.engine = engine
        self.write_engine = writer(engine)
        self._read_game = Query(engine, _READ_GAME)
        self.positions = positions or Positions()
        self._locks = [threading.Lock() for _ in range(64)]

    def _lock(self, game_id: str) -> threading.Lock:
        return self._locks[hash(game_id) % len(self._locks)]

    # -- reading ---------------------------------------------------------------------
    def _read(self, game_id: str) -> Stored:
        """The stored game (reads skip SQLAlchemy's ORM and Result: they are most requests)."""
        row = self._read_game.first(id=game_id) if valid_id(game_id) else None
        if row is None:
            raise game_not_found(game_id)
        return Stored(**row)

    def _position(self, row: GameRow) -> Position:
        lookup_game(row.game)
        return self.positions.after(row.game, int(row.deal), row.moves)

    def snapshot(self, game_id: str) -> Snapshot:
        row = self._read(game_id)
        position = self._position(row)
        return Snapshot(row.id, row.game, int(row.deal), tuple(row.moves), position, status_of(position))

    def state(self, game_id: str) -> dict[str, Any]:
        row = self._read(game_id)
        return self.render(row, self._position(row))

    def position_at(self, game_id: str, at: int) -> dict[str, Any]:
        """The position after the first ``at`` moves of a game (for replays)."""
        row = self._read(game_id)
        moves = list(row.moves)
        if not 0 <= at <= len(moves):
            raise BadRequest(f"at must be between 0 and {len(moves)} (the moves played)", code="bad_position")
        view = shown(self.positions.after(row.game, int(row.deal), moves[:at]))
        return {
            "id": game_id,
            "at": at,
            "moves": moves[:at],
            "next_move": moves[at] if at < len(moves) else None,
            "position": view.view,
            "legal": view.legal,
            "status": view.status,
        }

    def count(self) -> int:
        with Session(self.engine) as session:
            return session.scalar(select(func.count()).select_from(GameRow)) or 0

    def render(self, row: GameRow, position: Position) -> dict[str, Any]:
        """The game state the browser draws."""
        cls = type(position)
        view = shown(position)
        status = view.status
        started, finished = as_utc(row.started_at), as_utc(row.finished_at)
        # The clock starts with the first move (and again after a restart).
        elapsed = 0.0 if started is None else ((finished or utcnow()) - started).total_seconds()
        moves = list(row.moves)
        deal = int(row.deal)
        out_of = cards_in_play(row.game, deal)
        if row.undo_mode == "unlimited":
            undo_left = None
        else:
            undo_left = max(0, (1 if row.undo_mode == "one" else 0) - row.undo_used)
        return {
            "id": row.id,
            "game": row.game,
            "title": cls.title,
            "family": cls.family,
            "deal": deal,
            "undo": row.undo_mode,
            "undo_left": undo_left,
            "moves": moves,
            "move_count": len(moves),
            "position": view.view,
            "legal": view.legal,
            "safe": view.safe,
            "finish": view.finish,
            "status": status,
            "winnable_deal": row.winnable_deal,
            "hidden_cards": hides_cards(cls),
            "restarts": row.restarts,
            "created_at": iso(row.created_at),
            "started_at": iso(row.started_at),
            "finished_at": iso(finished),
            "elapsed_seconds": round(max(0.0, elapsed), 3),
            "score": {
                "won": status == "won",
                "partial": out_of - position.cards_left(),
                "out_of": out_of,
                "cards_left": position.cards_left(),
                "moves": len(moves),
                "seconds": round(max(0.0, elapsed), 3),
            },
            "links": {
                "deal": f"/play/{row.game}?deal={deal}",
                "resume": f"/play/{row.game}?id={row.id}",
                "rules": f"/rules/{row.game}",
                "self": f"/api/games/{row.id}",
            },
        }

    # -- writing ---------------------------------------------------------------------
    def create(self, game: str, deal: Any = None, undo: str = "unlimited", winnable_deal: bool = False) -> dict[str, Any]:
        cls = lookup_game(game)
        if undo not in UNDO_MODES:
            raise BadRequest(f"unknown undo mode {quote(undo)} (modes: {', '.join(UNDO_MODES)})", code="bad_request")
        number = random.randint(1, RANDOM_DEALS) if deal is None else parse_deal(deal)
        try:
            position = initial(cls.game_id, number)
        except WinnableError as error:
            raise BadRequest(f"cannot deal {cls.title} deal {number}: {error}", code="bad_deal") from None
        now = utcnow()
        row = Stored(
            id=secrets.token_urlsafe(9),
            game=cls.game_id,
            deal=str(number),
            undo_mode=undo,
            undo_used=0,
            moves=[],
            winnable_deal=winnable_deal,
            restarts=0,
            created_at=now,
            started_at=None,
            updated_at=now,
            finished_at=None,
            status=status_of(position),
        )
        with write_lock(self.engine), self.write_engine.begin() as connection:
            connection.execute(_INSERT_GAME, dataclasses.asdict(row))
        return self.render(row, position)

    def _change(self, game_id: str, change) -> dict[str, Any]:
        """Run ``change(row, position) -> new position`` in one transaction, one request
        per game at a time; anything it raises leaves the stored game as it was.
        (SQLAlchemy Core, not the ORM: a move's transaction costs a fifth as much CPU.)"""
        if not valid_id(game_id):
            raise game_not_found(game_id)
        with self._lock(game_id):
            with write_lock(self.engine), self.write_engine.begin() as connection:
                found = connection.execute(_LOCK_GAME, {"id": game_id}).first()
                if found is None:
                    raise game_not_found(game_id)
                row = Stored(**found._mapping)
                position = change(row, self._position(row))
                now = utcnow()
                status = status_of(position)
                row.status = status
                row.updated_at = now
                if status == "playing":
                    row.finished_at = None
                elif row.finished_at is None:
                    row.finished_at = now
                connection.execute(_UPDATE_GAME, {"game_id": game_id} | {name: getattr(row, name) for name in _CHANGED})
            return self.render(row, position)

    def play(self, game_id: str, text: str, auto: bool = False) -> dict[str, Any]:
        """Play one move given in the game's notation; with ``auto``, then every safe
        move to the foundations it opens (stored as moves of their own; an undo with
        ``auto`` takes them back together with the move)."""
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("a move is a non-empty string in the game's notation", code="bad_move")
        if len(text) > 64:
            raise BadRequest("a move's notation is a few characters, not a long text", code="bad_move")

        def change(row: GameRow, position: Position) -> Position:
            status = status_of(position)
            if status != "playing":
                raise Conflict(f"the game is over ({status}): no more moves; undo, restart or deal again", code="game_over")
            if len(row.moves) >= MAX_MOVES:
                raise Conflict(f"this game has reached {MAX_MOVES} moves; restart or deal again", code="move_limit")
            try:
                move = position.parse_move(text)
                after = position.play(move)
            except IllegalMoveError as error:
                raise Conflict(short(str(error)), code="illegal_move") from None
            except (WinnableError, ValueError, LookupError, TypeError) as error:
                # The rules' parsers raise ParseError; anything else they let through
                # on strange text (any Unicode) is still the text's fault, not a 500.
                raise BadRequest(f"not a move of {position.title}: {short(str(error))}", code="bad_move") from None
            moves = list(row.moves) + [str(move)]
            while auto and len(moves) < MAX_MOVES and status_of(after) == "playing":
                safe = safe_moves_home(after)
                if not safe:
                    break
                after = after.play(safe[0])
                moves.append(safe[0])
            row.moves = moves
            if row.started_at is None:
                row.started_at = utcnow()
            self.positions.remember(row.game, row.deal_number, moves, after)
            return after

        return self._change(game_id, change)

    def undo(self, game_id: str, auto: bool = False) -> dict[str, Any]:
        """Take back the last move, if the game's undo mode allows it. With ``auto``
        (safe moves home are played by themselves), the last move the player chose goes
        back together with the safe moves home played after it, as one undo."""

        def change(row: GameRow, position: Position) -> Position:
            if row.undo_mode == "none":
                raise Conflict("this game is played without undo", code="undo_refused")
            if row.undo_mode == "one" and row.undo_used >= 1:
                raise Conflict("the one undo of this game is used up", code="undo_refused")
            if not row.moves:
                raise Conflict("nothing to undo: no move has been played", code="undo_refused")
            if position.is_won():
                raise Conflict("the game is won: there is nothing to undo", code="undo_refused")
            keep = len(row.moves) - 1
            if auto:
                while keep >= 0 and row.moves[keep] in safe_moves_home(self.positions.after(row.game, row.deal_number, row.moves[:keep])):
                    keep -= 1
                if keep < 0:
                    raise Conflict("nothing to undo: only safe moves home have been played", code="undo_refused")
            row.moves = list(row.moves)[:keep]
            row.undo_used += 1
            return self.positions.after(row.game, row.deal_number, row.moves)

        return self._change(game_id, change)

    def restart(self, game_id: str) -> dict[str, Any]:
        """Start the same deal again (same id, same undo mode, clock reset)."""

        def change(row: GameRow, position: Position) -> Position:
            row.moves = []
            row.undo_used = 0
            row.restarts += 1
            row.started_at = None
            return initial(row.game, row.deal_number)

        return self._change(game_id, change)
