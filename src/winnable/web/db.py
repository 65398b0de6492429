"""Storage: a game is its preset, its deal number and the list of moves played.

``games`` holds one row per game a player started; ``winnable_deals`` is
the pool of deal numbers the solver proved winnable (with the winning line it found,
so the first hint of such a deal is instant). Positions are never stored: the server
rebuilds them by replaying the moves with the rules. ``leases`` say which server runs
once-per-database work (the pool's filler); ``server_keys`` hold shared secrets.

The schema belongs to Alembic (``winnable/web/migrations``); :func:`migrate` brings any
database to the newest revision and runs every time the server starts.

SQLite is the default (one file in the user's data folder); any SQLAlchemy URL works,
``postgresql+psycopg://user@host/db`` included (``pip install winnable[postgres]``).

>>> engine = make_engine("sqlite://")
>>> migrate(engine)
>>> with Session(engine) as session:
...     session.add(GameRow(id="g1", game="black-hole", deal="7", undo_mode="none"))
...     session.commit()
...     row = session.get(GameRow, "g1")
...     row.deal_number, row.moves, row.undo_used
(7, [], 0)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import threading
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

try:
    import fcntl
except ImportError:  # not on Windows: SQLite's busy handler alone serialises processes
    fcntl = None  # type: ignore[assignment]

MIGRATIONS = Path(__file__).with_name("migrations")


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def as_utc(moment: dt.datetime | None) -> dt.datetime | None:
    """SQLite hands back naive datetimes; everything stored here is UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=dt.timezone.utc)
    return moment


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One game: what was dealt and what was played. The position is derived."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(64), index=True)
    # Deal numbers go up to 10**20 - 1, beyond a 64-bit integer: kept as decimal text.
    deal: Mapped[str] = mapped_column(sa.String(24))
    undo_mode: Mapped[str] = mapped_column(sa.String(16), default="unlimited")
    undo_used: Mapped[int] = mapped_column(sa.Integer, default=0)
    moves: Mapped[list[str]] = mapped_column(sa.JSON, default=list)
    winnable_deal: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    restarts: Mapped[int] = mapped_column(sa.Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    started_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    """When the first move was played (the clock starts then); None before."""
    updated_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    status: Mapped[str] = mapped_column(sa.String(16), default="playing")

    @property
    def deal_number(self) -> int:
        return int(self.deal)


class WinnableDeal(Base):
    """A deal the solver proved winnable, with the verified line; ``used_at`` once dealt."""

    __tablename__ = "winnable_deals"
    __table_args__ = (sa.UniqueConstraint("game", "deal", name="uq_winnable_deals_game_deal"),)

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(sa.String(64), index=True)
    deal: Mapped[str] = mapped_column(sa.String(24))
    line: Mapped[list[str]] = mapped_column(sa.JSON, default=list)
    positions: Mapped[int] = mapped_column(sa.BigInteger, default=0)
    seconds: Mapped[float] = mapped_column(sa.Float, default=0.0)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    used_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True, index=True)


class Lease(Base):
    """A named lease one process holds until ``expires_at`` (see :mod:`winnable.web.leases`):
    work that must run once per database, whatever the number of servers, takes one."""

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(sa.String(128))
    expires_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True))


class ServerKey(Base):
    """Secrets every server on the database shares (the key that signs CSRF tokens),
    made once by whichever server needs one first."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    value: Mapped[str] = mapped_column(sa.String(256))
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


def default_database_url() -> str:
    """SQLite in the user's data folder (created if missing)."""
    import platformdirs

    folder = platformdirs.user_data_path("winnable", appauthor=False)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'winnable.db'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``. SQLite gets WAL, a busy timeout and ``BEGIN IMMEDIATE``
    for writing sessions (see :func:`writer`), so concurrent writers wait their turn
    instead of failing."""
    url_obj = sa.make_url(url)
    if url_obj.get_backend_name() != "sqlite":
        return sa.create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)
    memory = url_obj.database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:
        kwargs["poolclass"] = sa.pool.StaticPool  # one shared in-memory database
    engine = sa.create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # let the "begin" hook below start transactions
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a commit survives any crash of the server or the machine's
        # software; only a power cut may lose the last moments (never corrupts).
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection) -> None:
        options = connection.get_execution_options()
        if options.get("winnable_read", False):
            return  # one SELECT is atomic by itself: no BEGIN, nothing to roll back
        connection.exec_driver_sql("BEGIN IMMEDIATE" if options.get("winnable_write", False) else "BEGIN")

    return engine


def reader(engine: Engine) -> Engine:
    """The same engine, for single statements that read (SQLite: without BEGIN)."""
    return engine.execution_options(winnable_read=True)


def writer(engine: Engine) -> Engine:
    """The same engine, marked so that its transactions take the write lock at once."""
    return engine.execution_options(winnable_write=True)


class SqliteWriteLock:
    """One writer at a time on an SQLite file, across threads and processes: a thread
    lock, then an exclusive ``flock`` on a file beside the database. Waiters wake the
    moment it is free, where SQLite's own busy handler sleeps in steps of up to 100 ms
    (which made a move wait a tenth of a second behind another worker's)."""

    def __init__(self, path: str | None) -> None:
        self._thread_lock = threading.Lock()
        self._path = None if path in (None, "", ":memory:") else f"{path}-winnable.lock"
        self._fd: int | None = None

    def __enter__(self) -> "SqliteWriteLock":
        self._thread_lock.acquire()
        if self._path is not None and fcntl is not None:
            try:
                if self._fd is None:
                    self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(self._fd, fcntl.LOCK_EX)
            except OSError:  # a read-only folder: SQLite's busy handler still serialises
                pass
            except BaseException:
                self._thread_lock.release()
                raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self._fd is not None and fcntl is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._thread_lock.release()


_write_locks: dict[str, SqliteWriteLock] = {}
_write_locks_lock = threading.Lock()


def write_lock(engine: Engine) -> contextlib.AbstractContextManager:
    """Held around every write transaction on SQLite, which has one writer at a time
    anyway (see :class:`SqliteWriteLock`). Other databases lock rows, so nothing is
    needed there."""
    if engine.dialect.name != "sqlite":
        return contextlib.nullcontext()
    key = str(engine.url)
    lock = _write_locks.get(key)
    if lock is None:
        with _write_locks_lock:
            lock = _write_locks.setdefault(key, SqliteWriteLock(engine.url.database))
    return lock


def alembic_config(connection: sa.Connection | None = None):
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (``alembic upgrade head``)."""
    from alembic import command

    # Several workers or servers may start at once: one migrates, the others wait and
    # then find the schema current.
    with write_lock(engine), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7281500913)")
        command.upgrade(alembic_config(connection), "head")


def schema_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def server_key(engine: Engine, name: str) -> str:
    """The shared secret ``name``: made (random) by the first server that asks, then
    read by every other, so that all workers and servers on the database agree."""
    import secrets

    from sqlalchemy.exc import IntegrityError

    with Session(engine) as session:
        row = session.get(ServerKey, name)
        if row is not None:
            return row.value
    try:
        with write_lock(engine), Session(writer(engine)) as session, session.begin():
            session.add(ServerKey(name=name, value=secrets.token_urlsafe(32), created_at=utcnow()))
    except IntegrityError:  # another server made it at the same moment: use theirs
        pass
    with Session(engine) as session:
        return session.get(ServerKey, name).value


class Query:
    """A SELECT compiled once and run straight on a pooled DBAPI connection, its values
    converted by SQLAlchemy's own type processors (JSON, dates, booleans). For the reads
    every request makes: SQLAlchemy's Connection and Result machinery cost several times
    the query itself.

    >>> engine = make_engine("sqlite://"); migrate(engine)
    >>> with Session(engine) as session:
    ...     session.add(GameRow(id="g1", game="black-hole", deal="7", undo_mode="none")); session.commit()
    >>> table = GameRow.__table__
    >>> row = Query(engine, sa.select(table).where(table.c.id == sa.bindparam("id"))).first(id="g1")
    >>> row["moves"], row["winnable_deal"], row["created_at"].year > 2000
    ([], False, True)
    """

    def __init__(self, engine: Engine, statement: sa.Select) -> None:
        dialect = engine.dialect
        compiled = statement.compile(dialect=dialect)
        self.engine = engine
        self.sql = str(compiled)
        self.names = list(compiled.positiontup) if compiled.positional else None
        columns = list(statement.selected_columns)
        self.keys = [column.key for column in columns]
        self.processors = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns]

    def first(self, **params: Any) -> dict[str, Any] | None:
        arguments = tuple(params[name] for name in self.names) if self.names is not None else params
        connection = self.engine.raw_connection()
        try:
            cursor = connection.cursor()
            try:
                cursor.execute(self.sql, arguments)
                values = cursor.fetchone()
            finally:
                cursor.close()
        finally:
            connection.close()  # back to the pool (which rolls back any transaction)
        if values is None:
            return None
        return {key: (value if process is None or value is None else process(value))
                for key, process, value in zip(self.keys, self.processors, values)}
