"""Stored games: reading and writing the ``games`` rows (compiled statements run on the
DBAPI cursor), who may see a game, the server's clock on a timed game or a Daily, and
the line the hints follow, kept with the game.

A stored game is its game id, deal number (or, for a Daily, a secret deck order: a
:class:`~winnable.decks.Deck`) and moves; its position comes from
:class:`~winnable.web.play.positions.Positions`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
from typing import TYPE_CHECKING, Any, TypedDict, cast

import sqlalchemy as sa
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from winnable.game import Position
from winnable.storage.engine import as_utc, utcnow, write_lock, writer
from winnable.storage.statements import Query, Statement
from winnable.storage.tables import GameRow
from winnable.web.play.help import HelpGate
from winnable.web.play.lookup import Source, game_not_found, lookup_game, source_of, valid_id
from winnable.web.play.positions import Positions, status_of

if TYPE_CHECKING:
    from winnable.web.security.identity import Viewer


def iso(moment: dt.datetime | None) -> str | None:
    moment = as_utc(moment)
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """A stored game and its current position, as the solver features need it."""

    id: str
    game: str
    deal: Source
    """The deal number, or the deck order of a game dealt from one (a Daily)."""
    moves: tuple[str, ...]
    position: Position
    status: str
    daily_day: dt.date | None = None

    @property
    def cls(self) -> type[Position]:
        return type(self.position)


def think_deadline(row: Any) -> dt.datetime | None:  # a games row, as source_of
    """When a timed game's current move must be played by (None: untimed)."""
    if not row.think_seconds or row.last_move_at is None:
        return None
    last: dt.datetime = as_utc(row.last_move_at)
    return last + dt.timedelta(seconds=row.think_seconds)


def effective_status(row: Any, status: str, now: dt.datetime) -> str:
    """The game's status on the server's clock: a timed game whose thinking time ran out
    is lost, whether or not a request has written that down yet."""
    if row.timed_out_at is not None:
        return "lost"
    deadline = think_deadline(row)
    if status == "playing" and deadline is not None and now > deadline:
        return "lost"
    return status


def today(now: dt.datetime) -> dt.date:
    return now.astimezone(dt.timezone.utc).date()


_GAMES = cast(sa.Table, GameRow.__table__)  # a declarative class maps a Table
# Every column but the hints' line, which only hints and analyses read (``kept_line``).
_READ_GAME = select(*[column for column in _GAMES.c if column.name != "hint_line"]).where(_GAMES.c.id == sa.bindparam("id"))
_READ_LINE = select(_GAMES.c.hint_line).where(_GAMES.c.id == sa.bindparam("id"))
_KEEP_LINE = _GAMES.update().where(_GAMES.c.id == sa.bindparam("game_id")).values(hint_line=sa.bindparam("hint_line"))
_LOCK_GAME = _READ_GAME.with_for_update()
_INSERT_GAME = _GAMES.insert()
CHANGED = (
    "moves",
    "undo_used",
    "restarts",
    "started_at",
    "status",
    "updated_at",
    "finished_at",
    "move_count",
    "cards_left",
    "last_move_at",
    "timed_out_at",
    "move_times",
    "redo",
)
# Built once: building a statement per request cost more than running it.
_UPDATE_GAME = _GAMES.update().where(_GAMES.c.id == sa.bindparam("game_id")).values({name: sa.bindparam(name) for name in CHANGED})
_COUNT_HINT = _GAMES.update().where(_GAMES.c.id == sa.bindparam("game_id")).values(hints_used=func.coalesce(_GAMES.c.hints_used, 0) + 1)
_COUNT_HINT_KEEP = (
    _GAMES.update()
    .where(_GAMES.c.id == sa.bindparam("game_id"))
    .values(hints_used=func.coalesce(_GAMES.c.hints_used, 0) + 1, hint_line=sa.bindparam("hint_line"))
)

StoredLine = TypedDict("StoredLine", {"from": str, "moves": list[str]})
"""A hints' line as the server writes it in ``games.hint_line``: the position it starts
from (as text) and its moves. What is read back is the column's JSON, checked by
:func:`winnable.web.play.solving.kept_line` before use."""


@dataclasses.dataclass
class Stored:
    """One row of ``games``, as a transaction reads and changes it."""

    id: str
    game: str
    deal: str | None
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
    user_id: int | None = None
    """The account that plays it (None: a guest's game, or an anonymised Daily attempt)."""
    guest: str | None = None
    """The guest session that started it, until the guest signs in."""
    hints_used: int = 0
    move_count: int = 0
    cards_left: int | None = None
    think_seconds: int | None = None
    last_move_at: dt.datetime | None = None
    timed_out_at: dt.datetime | None = None
    daily_day: dt.date | None = None
    layout: str | None = None
    """A Daily's deck order (then ``deal`` is None)."""
    challenge: str | None = None
    """The challenge this game is the ranked attempt at."""
    move_times: list[int] | None = None
    """The server's time of each move, milliseconds from ``started_at`` (None: stored
    before the server kept them; see :mod:`winnable.web.play.pace`)."""
    redo: list[list[str]] | None = None
    """What a redo plays again: the groups of moves undone, the last undone last (see
    :class:`~winnable.storage.tables.GameRow`); None when there is none."""
    grade: str | None = None
    """How hard the deal is (:class:`winnable.grading.Grade`'s value), or None."""
    hint_line: dict[str, Any] | None = None
    """The hints' line (see :class:`~winnable.storage.tables.GameRow`): set when a game is made
    with a known line, else only by :meth:`GameStore.keep_line`."""

    @property
    def deal_number(self) -> Source:
        """What the game is dealt from (a deal number, or a Daily's :class:`Deck`)."""
        return source_of(self)

    def columns(self) -> dict[str, Any]:
        """The row's values by column (shallow: ``dataclasses.asdict`` deep-copies every
        list and date, a quarter of a new game's CPU time)."""
        return dict(self.__dict__)


class GameStore:
    """The games stored in the database behind ``engine``: read, checked for their owner,
    their position, and the hints' line kept with them."""

    def __init__(self, engine: Engine, positions: Positions | None = None) -> None:
        self.engine = engine
        self.write_engine = writer(engine)  # for SQLAlchemy transactions of other services (the Daily)
        self.lock_game = Statement(engine, _LOCK_GAME)
        self.insert_game = Statement(engine, _INSERT_GAME)
        self.update_game = Statement(engine, _UPDATE_GAME)
        self._read_game = Query(engine, _READ_GAME)
        self._read_line = Query(engine, _READ_LINE)
        self.positions = positions or Positions()
        self._locks = [threading.Lock() for _ in range(64)]
        self.clock = utcnow
        """The server's clock (tests move it; nothing a client sends does)."""
        self.help = HelpGate(engine, lambda: self.clock())
        """The one gate of the solver's help (:mod:`winnable.web.play.help`)."""

    @staticmethod
    def check_owner(row: Stored, game_id: str, viewer: Viewer | None) -> None:
        """An account's games are its own: anyone else is told there is no such game.
        A guest's game is reached by its id, as before accounts (``viewer`` None: the
        server itself). A Daily attempt whose account was deleted is nobody's: it stays
        on the leaderboard, and no one plays it on."""
        if viewer is not None and row.user_id is not None and row.user_id != viewer.user_id:
            raise game_not_found(game_id)
        if viewer is not None and row.user_id is None and (row.daily_day is not None or row.challenge is not None):
            raise game_not_found(game_id)

    def lock(self, game_id: str) -> threading.Lock:
        return self._locks[hash(game_id) % len(self._locks)]

    # -- reading ---------------------------------------------------------------------
    def read(self, game_id: str) -> Stored:
        """The stored game (reads skip SQLAlchemy's ORM and Result: they are most requests)."""
        row = self._read_game.first(id=game_id) if valid_id(game_id) else None
        if row is None:
            raise game_not_found(game_id)
        return Stored(**row)

    def position(self, row: Stored) -> Position:
        lookup_game(row.game)
        return self.positions.after(row.game, source_of(row), row.moves)

    def snapshot(self, game_id: str, viewer: Viewer | None = None, purpose: str | None = None) -> Snapshot:
        """The game for the solver; with ``purpose`` ("hint", "analysis") only if the
        gate of the solver's help lets it have it (:meth:`HelpGate.check`: 403
        ``daily_no_help``, ``challenge_no_help`` or ``challenge_open``)."""
        row = self.read(game_id)
        self.check_owner(row, game_id, viewer)
        position = self.position(row)
        status = effective_status(row, status_of(position), self.clock())
        if purpose is not None:
            self.help.check(row, status, purpose)
        return Snapshot(row.id, row.game, source_of(row), tuple(row.moves), position, status, row.daily_day)

    def count_hint(self, game_id: str, keep: StoredLine | None = None) -> None:
        """One more hint used in this game (the game counts as assisted if won); with
        ``keep``, the line the hint came from becomes the game's hints' line, in the same
        transaction."""
        with write_lock(self.engine), self.write_engine.begin() as connection:
            if keep is None:
                connection.execute(_COUNT_HINT, {"game_id": game_id})
            else:
                connection.execute(_COUNT_HINT_KEEP, {"game_id": game_id, "hint_line": keep})

    def kept_line(self, game_id: str) -> dict[str, Any] | None:
        """The game's hints' line as stored (``{"from": text, "moves": [...]}``), or None."""
        row = self._read_line.first(id=game_id) if valid_id(game_id) else None
        line = None if row is None else row["hint_line"]
        return line if isinstance(line, dict) else None

    def keep_line(self, game_id: str, line: StoredLine) -> None:
        """Make ``line`` the game's hints' line (an analysis that found one from the
        current position, off the line kept before)."""
        with write_lock(self.engine), self.write_engine.begin() as connection:
            connection.execute(_KEEP_LINE, {"game_id": game_id, "hint_line": line})

    def count(self) -> int:
        with Session(self.engine) as session:
            return session.scalar(select(func.count()).select_from(GameRow)) or 0

    @staticmethod
    def insert(connection: sa.Connection, row: Stored) -> None:
        """Store a new game's row in the caller's transaction."""
        connection.execute(_INSERT_GAME, row.columns())
