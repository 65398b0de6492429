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
import random
import secrets
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any, Hashable, Sequence

import sqlalchemy as sa
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from winnable.deals import parse_deal_number
from winnable.errors import IllegalMoveError, UnknownGameError, WinnableError
from winnable.game import Position
from winnable.games import game_class, game_ids
from winnable.web.db import GameRow, as_utc, utcnow, write_lock, writer

UNDO_MODES = ("unlimited", "one", "none")
"""Play modes for undo: as often as wanted, once a game (beginner), never (purist)."""

RANDOM_DEALS = 10**6
"""A new game without a deal number gets a random one from 1 to this."""

MAX_MOVES = 10_000
"""A guard against runaway clients: no game needs more moves than this."""


# -- errors a request can cause (the app turns them into 4xx/5xx with the sentence) -----
class ServiceError(Exception):
    status = 400

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class BadRequest(ServiceError):
    status = 400


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Unavailable(ServiceError):
    status = 503


# -- the games on offer ---------------------------------------------------------------
def hides_cards(cls: type[Position]) -> bool:
    """True for games with face-down cards (the solver knows them, the player does not)."""
    return cls.hidden_cards


def lookup_game(game_id: str) -> type[Position]:
    try:
        return game_class(game_id)
    except UnknownGameError as error:
        raise NotFound(str(error)) from None


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
    if isinstance(value, bool):
        raise BadRequest(f"not a deal number: {value!r}")
    try:
        return parse_deal_number(value)
    except WinnableError as error:
        raise BadRequest(str(error)) from None


# -- positions in memory --------------------------------------------------------------
class LRU:
    """A small thread-safe least-recently-used map."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            try:
                value = self._items[key]
            except KeyError:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: Hashable, value: Any) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class Positions:
    """Positions by (game, deal, moves), rebuilt by replay when not in memory."""

    def __init__(self, size: int = 4096) -> None:
        self.cache = LRU(size)

    def after(self, game: str, deal: int, moves: Sequence[str]) -> Position:
        key = (game, deal, tuple(moves))
        position = self.cache.get(key)
        if position is not None:
            return position
        start, position = 0, None
        if moves:  # undo and a replay of one move more are the common misses
            position = self.cache.get((game, deal, key[2][:-1]))
            start = len(moves) - 1
        if position is None:
            start, position = 0, initial(game, deal)
        try:
            position = position.play_line(moves[start:])
        except WinnableError as error:
            raise Conflict(f"this stored game no longer replays under the current rules: {error}") from None
        self.cache.put(key, position)
        return position

    def remember(self, game: str, deal: int, moves: Sequence[str], position: Position) -> None:
        self.cache.put((game, deal, tuple(moves)), position)


@lru_cache(maxsize=512)
def initial(game: str, deal: int) -> Position:
    return lookup_game(game).deal(deal)


@lru_cache(maxsize=512)
def cards_in_play(game: str, deal: int) -> int:
    """Cards a player can bring home in this deal (for the partial score)."""
    return initial(game, deal).cards_total()


def status_of(position: Position) -> str:
    return shown(position).status


@dataclasses.dataclass(frozen=True)
class Shown:
    """What the browser gets for one position, worked out once per position."""

    position: Position
    status: str
    view: dict[str, Any]
    legal: list[dict[str, Any]]


_shown = LRU(4096)


def shown(position: Position) -> Shown:
    """The status, the player's view and the described legal moves of ``position``
    (memoised: positions are immutable and a game's position is asked for often)."""
    entry = _shown.get(id(position))
    if entry is not None and entry.position is position:
        return entry
    status = "won" if position.is_won() else "lost" if position.is_lost() else "playing"
    entry = Shown(position, status, position.player_view(), position.click_choices() if status == "playing" else [])
    _shown.put(id(position), entry)
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

class GameService:
    """Create and play games stored in the database behind ``engine``."""

    def __init__(self, engine: Engine, positions: Positions | None = None) -> None:
        self.engine = engine
        self.write_engine = writer(engine)
        self.positions = positions or Positions()
        self._locks = [threading.Lock() for _ in range(64)]

    def _lock(self, game_id: str) -> threading.Lock:
        return self._locks[hash(game_id) % len(self._locks)]

    # -- reading ---------------------------------------------------------------------
    def _row(self, session: Session, game_id: str, for_update: bool = False) -> GameRow:
        row = session.get(GameRow, game_id, with_for_update=for_update) if len(game_id) <= 32 else None
        if row is None:
            raise NotFound(f"no game with id {game_id!r} (it may have been made on another server)")
        return row

    def _read(self, game_id: str):
        """The stored game as a plain row (reads skip the ORM: they are most requests)."""
        row = None
        if len(game_id) <= 32:
            with self.engine.connect() as connection:
                row = connection.execute(_READ_GAME, {"id": game_id}).first()
        if row is None:
            raise NotFound(f"no game with id {game_id!r} (it may have been made on another server)")
        return row

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
            raise BadRequest(f"at must be between 0 and {len(moves)} (the moves played)")
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
            raise BadRequest(f"unknown undo mode {undo!r} (modes: {', '.join(UNDO_MODES)})")
        number = random.randint(1, RANDOM_DEALS) if deal is None else parse_deal(deal)
        try:
            position = initial(cls.game_id, number)
        except WinnableError as error:
            raise BadRequest(f"cannot deal {cls.title} deal {number}: {error}") from None
        now = utcnow()
        row = GameRow(
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
        with write_lock(self.engine), Session(self.write_engine, expire_on_commit=False) as session, session.begin():
            session.add(row)
        return self.render(row, position)

    def _change(self, game_id: str, change) -> dict[str, Any]:
        """Run ``change(row, position) -> new position`` in one transaction, one request
        per game at a time; anything it raises leaves the stored game as it was."""
        with self._lock(game_id):
            with write_lock(self.engine), Session(self.write_engine, expire_on_commit=False) as session, session.begin():
                row = self._row(session, game_id, for_update=True)
                position = change(row, self._position(row))
                now = utcnow()
                status = status_of(position)
                row.status = status
                row.updated_at = now
                if status == "playing":
                    row.finished_at = None
                elif row.finished_at is None:
                    row.finished_at = now
            return self.render(row, position)

    def play(self, game_id: str, text: str) -> dict[str, Any]:
        """Play one move given in the game's notation."""
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("a move is a non-empty string in the game's notation")
        if len(text) > 64:
            raise BadRequest("a move's notation is a few characters, not a long text")

        def change(row: GameRow, position: Position) -> Position:
            status = status_of(position)
            if status != "playing":
                raise Conflict(f"the game is over ({status}): no more moves; undo, restart or deal again")
            if len(row.moves) >= MAX_MOVES:
                raise Conflict(f"this game has reached {MAX_MOVES} moves; restart or deal again")
            try:
                move = position.parse_move(text)
            except IllegalMoveError as error:
                raise Conflict(str(error)) from None
            except (WinnableError, ValueError) as error:
                raise BadRequest(f"not a move of {position.title}: {error}") from None
            try:
                after = position.play(move)
            except IllegalMoveError as error:
                raise Conflict(str(error)) from None
            except (WinnableError, ValueError) as error:
                raise BadRequest(f"not a move of {position.title}: {error}") from None
            moves = list(row.moves) + [str(move)]
            row.moves = moves
            if row.started_at is None:
                row.started_at = utcnow()
            self.positions.remember(row.game, row.deal_number, moves, after)
            return after

        return self._change(game_id, change)

    def undo(self, game_id: str) -> dict[str, Any]:
        """Take back the last move, if the game's undo mode allows it."""

        def change(row: GameRow, position: Position) -> Position:
            if row.undo_mode == "none":
                raise Conflict("this game is played without undo")
            if row.undo_mode == "one" and row.undo_used >= 1:
                raise Conflict("the one undo of this game is used up")
            if not row.moves:
                raise Conflict("nothing to undo: no move has been played")
            if position.is_won():
                raise Conflict("the game is won: there is nothing to undo")
            row.moves = list(row.moves)[:-1]
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
