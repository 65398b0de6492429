"""Storage: a game is its preset, its deal number and the list of moves played.

``games`` holds one row per game a player started; ``verdicts``
(:mod:`winnable.verdicts`, shared with ``winnable survey --database``) what the solver
proved about each deal, with the winning line it found, so the first hint of a
Winnable deal is instant. Positions are never stored: the server
rebuilds them by replaying the moves with the rules. ``leases`` say which server runs
once-per-database work (the pool's filler); ``server_keys`` hold shared secrets.
``users`` and ``sessions`` are the accounts and who is signed in (or a guest);
``daily_deals`` the Daily of each game and day (a secret deck order), ``daily_attempts``
each player's one scored attempt at it (a game row).

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
import weakref
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from winnable.verdicts import VerdictRow

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
    deal: Mapped[str | None] = mapped_column(sa.String(24), nullable=True)
    """The deal number; None for a game dealt from a ``layout`` (a Daily attempt)."""
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
    # -- who plays it and how (revision 0004) -----------------------------------------
    user_id: Mapped[int | None] = mapped_column(sa.Integer, nullable=True, index=True)
    """The account that plays it; None for a guest's game (or an anonymised Daily attempt)."""
    guest: Mapped[str | None] = mapped_column(sa.String(64), nullable=True, index=True)
    """The guest session that started it (its id's digest), until the guest signs in."""
    hints_used: Mapped[int] = mapped_column(sa.Integer, default=0)
    move_count: Mapped[int] = mapped_column(sa.Integer, default=0)
    cards_left: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    """Cards not yet home after the last move (kept for the leaderboard and statistics)."""
    think_seconds: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    """Black Hole's timed play: the most seconds a move may take; None: untimed."""
    last_move_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    """When the thinking time of the next move started (the deal, the last move or undo)."""
    timed_out_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    """When a timed game ran out of time (it is lost then)."""
    daily_day: Mapped[dt.date | None] = mapped_column(sa.Date, nullable=True)
    """The Daily this game is an attempt at (None for any other game)."""
    # -- the hints' line (revision 0007) ----------------------------------------------
    hint_line: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    """The winning line the hints follow: ``{"from": position text, "moves": [...]}``,
    the position it starts from (in the solver's view: hidden cards included) and its
    moves. Kept with the game so that every worker and server, before and after a
    restart, gives the next move of the same line (:mod:`winnable.web.solving`); never
    sent to a client (it would show face-down cards). Not read with the game's other
    columns: only hints and analyses need it."""
    # -- (revision 0008) ------------------------------------------------------------------
    layout: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    """The cards in dealing order (:class:`winnable.decks.Deck`'s notation) when the game
    was dealt from a secret deck order and has no deal number (a Daily attempt)."""

    @property
    def deal_number(self) -> int | None:
        return None if self.deal is None else int(self.deal)


# The verdicts table (what the solver proved about each deal, the pool of Winnable mode
# among them) is shared with the command line, so it lives outside the web package;
# a copy in this metadata lets the migrations' checks see every table.
VerdictRow.__table__.to_metadata(Base.metadata)


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


class User(Base):
    """A player's account: a name and an argon2id hash of the password, nothing else."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(sa.String(32))
    name_key: Mapped[str] = mapped_column(sa.String(32), unique=True)
    """The name folded to lower case: two names that differ only in case are one."""
    password_hash: Mapped[str] = mapped_column(sa.String(256))
    password_nfkc: Mapped[bool] = mapped_column(sa.Boolean, default=True, server_default=sa.false())
    """The hash is of the password in NFKC (False: of the password as typed, before
    passwords were normalised; sign-in rehashes it)."""
    language: Mapped[str | None] = mapped_column(sa.String(8), nullable=True)
    """The language the player chose with the switch (en, fr, nl), or None."""
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class SessionRow(Base):
    """A signed-in (``user_id``) or guest session; the cookie holds a random token, the
    database only its SHA-256 digest, so a copy of the database signs nobody in."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                                                nullable=True, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    seen_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), index=True)


class DailyDeal(Base):
    """The Daily of one game on one day (UTC): one row, made by whichever server is asked
    first, so every worker and server hands out the same deal. Its ``layout`` is a
    secret deck order (no deal number reaches it); ``deal`` is set only on Dailies
    stored before revision 0008, which were deal numbers."""

    __tablename__ = "daily_deals"

    game: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    day: Mapped[dt.date] = mapped_column(sa.Date, primary_key=True)
    deal: Mapped[str | None] = mapped_column(sa.String(24), nullable=True)
    layout: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class DailyAttempt(Base):
    """A player's one scored attempt at a Daily: the game row holds its moves and clock.
    ``user_id`` becomes None when the account is deleted (the result stays, anonymous);
    ``name_key``, a digest of the player's name, stays until the day is over, so that
    an account made again with the same name gets no second attempt."""

    __tablename__ = "daily_attempts"
    __table_args__ = (sa.UniqueConstraint("game", "day", "user_id", name="uq_daily_attempts_player"),
                      sa.UniqueConstraint("game", "day", "name_key", name="uq_daily_attempts_name"))

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(sa.String(64))
    day: Mapped[dt.date] = mapped_column(sa.Date)
    user_id: Mapped[int | None] = mapped_column(sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"),
                                                nullable=True, index=True)
    game_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    name_key: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)


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
        immediate = connection.get_execution_options().get("winnable_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


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
_engine_locks: "weakref.WeakKeyDictionary[Engine, contextlib.AbstractContextManager]" = weakref.WeakKeyDictionary()
_write_locks_lock = threading.Lock()


def write_lock(engine: Engine) -> contextlib.AbstractContextManager:
    """Held around every write transaction on SQLite, which has one writer at a time
    anyway (see :class:`SqliteWriteLock`). Other databases lock rows, so nothing is
    needed there."""
    lock = _engine_locks.get(engine)  # rendering the URL is the dearest part: once an engine
    if lock is not None:
        return lock
    if engine.dialect.name != "sqlite":
        lock = contextlib.nullcontext()
    else:
        key = str(engine.url)
        with _write_locks_lock:
            lock = _write_locks.setdefault(key, SqliteWriteLock(engine.url.database))
    _engine_locks[engine] = lock
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


class Statement:
    """A statement compiled once for the engine's dialect, run straight on a pooled DBAPI
    cursor, its parameters and values converted by SQLAlchemy's own type processors
    (JSON, dates, booleans). For what every request does: SQLAlchemy's Connection and
    Result machinery cost several times the statement itself.

    >>> engine = make_engine("sqlite://"); migrate(engine)
    >>> with Session(engine) as session:
    ...     session.add(GameRow(id="g1", game="black-hole", deal="7", undo_mode="none")); session.commit()
    >>> table = GameRow.__table__
    >>> update = Statement(engine, table.update().where(table.c.id == sa.bindparam("game_id"))
    ...                    .values(moves=sa.bindparam("moves")))
    >>> with transaction(engine) as cursor:
    ...     update.run(cursor, game_id="g1", moves=["KH"])
    >>> row = Query(engine, sa.select(table).where(table.c.id == sa.bindparam("id"))).first(id="g1")
    >>> row["moves"], row["winnable_deal"], row["created_at"].year > 2000
    (['KH'], False, True)
    """

    def __init__(self, engine: Engine, statement: sa.Executable) -> None:
        dialect = engine.dialect
        compiled = statement.compile(dialect=dialect)
        self.engine = engine
        self.sql = str(compiled)
        self.names = list(compiled.positiontup) if compiled.positional else None
        self.binds = {name: bind.type.dialect_impl(dialect).bind_processor(dialect)
                      for name, bind in compiled.binds.items()}
        columns = list(getattr(statement, "selected_columns", ()))
        self.keys = [column.key for column in columns]
        self.processors = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns]

    def arguments(self, params: dict[str, Any]) -> tuple | dict:
        converted = {name: (value if value is None or self.binds.get(name) is None else self.binds[name](value))
                     for name, value in params.items()}
        return tuple(converted[name] for name in self.names) if self.names is not None else converted

    def row(self, values: tuple | None) -> dict[str, Any] | None:
        if values is None:
            return None
        return {key: (value if process is None or value is None else process(value))
                for key, process, value in zip(self.keys, self.processors, values)}

    def run(self, cursor: Any, **params: Any) -> dict[str, Any] | None:
        """Run on ``cursor``; the first row (converted) if it selects."""
        cursor.execute(self.sql, self.arguments(params))
        return self.row(cursor.fetchone()) if self.keys else None


class Query(Statement):
    """A :class:`Statement` that reads, each on a connection of its own (from
    :func:`read_engine`: on PostgreSQL in autocommit, so a read is one round trip, not a
    ping, the query and a rollback)."""

    def __init__(self, engine: Engine, statement: sa.Select) -> None:
        super().__init__(read_engine(engine), statement)
        self._readers = kept_connections(self.engine, "read")

    def first(self, **params: Any) -> dict[str, Any] | None:
        if self._readers is not None:
            return self._first_kept(self._readers, params)
        for attempt in (1, 2):
            connection = self.engine.raw_connection()
            try:
                cursor = connection.cursor()
                try:
                    return self.run(cursor, **params)
                finally:
                    cursor.close()
            except self.engine.dialect.loaded_dbapi.OperationalError:
                # a connection the database dropped (a restart): a fresh one, once; a
                # read may be repeated safely
                connection.invalidate()
                if attempt == 2:
                    raise
            finally:
                connection.close()  # back to the pool
        raise AssertionError("unreachable")

    def _first_kept(self, readers: "Kept", params: dict[str, Any]) -> dict[str, Any] | None:
        """SQLite: on this thread's own reading connection (see :func:`kept_connections`)."""
        for attempt in (1, 2):
            cursor = readers.connection(self.engine).cursor()
            try:
                return self.run(cursor, **params)
            except self.engine.dialect.loaded_dbapi.OperationalError:
                readers.drop()  # a broken connection: a fresh one, once
                if attempt == 2:
                    raise
            finally:
                cursor.close()
        raise AssertionError("unreachable")


class Kept(threading.local):
    """One DBAPI connection per thread, made by the engine (its PRAGMAs set) and kept out
    of its pool."""

    kept: Any = None

    def connection(self, engine: Engine) -> Any:
        if self.kept is None:
            pooled = engine.raw_connection()
            pooled.detach()
            self.kept = pooled.dbapi_connection
        return self.kept

    def drop(self) -> None:
        connection, self.kept = self.kept, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()


_kept: "weakref.WeakKeyDictionary[Engine, dict[str, Kept]]" = weakref.WeakKeyDictionary()


def kept_connections(engine: Engine, purpose: str) -> Kept | None:
    """On an SQLite file, each thread reads (:class:`Query`) and writes
    (:func:`transaction`) on connections of its own (one for each ``purpose``), kept out
    of the pool: the pool's checkout and return, with the rollback it issues on return,
    cost more than a read, and a third of a move's transaction. A lone SELECT there runs
    outside any transaction (WAL: it sees every commit and holds nothing after it); a
    transaction always ends in a commit or a rollback. Requests run their database work
    in the event loop's thread (see :func:`winnable.web.deps.database`): two connections
    a worker process (with ``WINNABLE_DATABASE_THREADS=1``, two for each thread that
    ran some). None elsewhere (PostgreSQL keeps its pool: a connection per thread would
    be too many)."""
    if engine.dialect.name != "sqlite" or engine.url.database in (None, "", ":memory:"):
        return None
    with _write_locks_lock:
        found = _kept.get(engine)
        if found is None:
            found = _kept[engine] = {}
        return found.setdefault(purpose, Kept())


_read_engines: dict[str, Engine] = {}


def read_engine(engine: Engine) -> Engine:
    """The engine single-statement reads use: on SQLite the engine itself (a lone SELECT
    runs outside any transaction there); elsewhere one in autocommit, without the
    connection ping (:class:`Query` retries a read on a dropped connection instead)."""
    if engine.dialect.name == "sqlite":
        return engine
    key = engine.url.render_as_string(hide_password=False)
    found = _read_engines.get(key)
    if found is None:
        found = _read_engines.setdefault(key, sa.create_engine(engine.url, isolation_level="AUTOCOMMIT",
                                                               pool_size=10, max_overflow=20))
    return found


@contextlib.contextmanager
def transaction(engine: Engine):
    """A write transaction on a DBAPI cursor (SQLite: ``BEGIN IMMEDIATE`` under the write
    lock, on the thread's kept connection; elsewhere a pooled one), committed at the end
    of the block, rolled back if it raises."""
    sqlite = engine.dialect.name == "sqlite"
    kept = kept_connections(engine, "write")
    with write_lock(engine):
        if kept is not None:
            connection = kept.connection(engine)
            cursor = connection.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                yield cursor
                connection.commit()
            except BaseException:
                try:
                    connection.rollback()
                except Exception:  # a connection in trouble: the next transaction gets a fresh one
                    kept.drop()
                raise
            finally:
                cursor.close()
            return
        connection = engine.raw_connection()
        try:
            cursor = connection.cursor()
            try:
                if sqlite:
                    cursor.execute("BEGIN IMMEDIATE")
                yield cursor
                connection.commit()
            except BaseException:
                connection.rollback()
                raise
            finally:
                cursor.close()
        finally:
            connection.close()
