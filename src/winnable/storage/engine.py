"""The database engine: its URL, its connections and SQLite's one writer at a time.

SQLite is the default (one file in the user's data folder); any SQLAlchemy URL works,
``postgresql+psycopg://user@host/db`` included (``pip install winnable[postgres]``).
Every writer (a web request, the pool's filler, a survey's ``--database``) takes
:func:`write_lock` and writes through :func:`writer`, so a survey and a server share one
SQLite file.

>>> engine = make_engine("sqlite://")
>>> with write_lock(engine), writer(engine).begin() as connection:
...     connection.exec_driver_sql("CREATE TABLE t (x INTEGER)").rowcount
-1
>>> database_problem(ValueError("bad"))
'ValueError: bad'
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import threading
import weakref
from typing import TYPE_CHECKING, Any, overload

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine

if TYPE_CHECKING:
    import sqlite3  # the driver behind SQLite URLs (for the connect hook's types)

try:
    import fcntl
except ImportError:  # not on Windows: SQLite's busy handler alone serialises processes
    fcntl = None  # type: ignore[assignment]  # the module or None: checked before each use


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


@overload
def as_utc(moment: dt.datetime) -> dt.datetime: ...
@overload
def as_utc(moment: None) -> None: ...
def as_utc(moment: dt.datetime | None) -> dt.datetime | None:
    """SQLite hands back naive datetimes; everything stored here is UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=dt.timezone.utc)
    return moment


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
        return server_engine(url)
    memory = url_obj.database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:
        kwargs["poolclass"] = sa.pool.StaticPool  # one shared in-memory database
    engine = sa.create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
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
    def _on_begin(connection: sa.Connection) -> None:
        immediate = connection.get_execution_options().get("winnable_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def server_engine(url: str | sa.URL, **options: Any) -> Engine:
    """An engine for a database server (PostgreSQL): a pool of 10 connections (and 20
    more at a peak) whose connections are checked at each checkout without a round trip
    (:func:`drop_closed`), not pinged: a ping was one round trip in six of a move's."""
    engine = sa.create_engine(url, pool_size=10, max_overflow=20, **options)
    event.listen(engine, "checkout", drop_closed)
    return engine


def drop_closed(dbapi_connection: Any, record: object, proxy: object) -> None:
    """A pooled connection the server closed (a restart, an idle timeout: the server
    said goodbye, or the socket reads as closed) is dropped at checkout, and the pool
    hands out a fresh one: a socket of a live connection has nothing to read between
    statements. Costs a ``poll`` instead of the ``SELECT 1`` round trip of
    ``pool_pre_ping``; a connection that died silently (a network gone) fails its
    statement once, and that request is answered 503 (:func:`database_away`)."""
    import select

    fileno = getattr(dbapi_connection, "fileno", None)
    if fileno is None:
        return
    try:
        poller = select.poll()
        poller.register(fileno(), select.POLLIN | select.POLLPRI)
        closed = bool(poller.poll(0))
    except (OSError, ValueError, AttributeError):  # psycopg: a closed connection has no socket
        closed = True
    except Exception:  # the driver's own "connection closed" error
        closed = True
    if closed:
        raise sa.exc.DisconnectionError("the database server closed this connection")


def writer(engine: Engine) -> Engine:
    """The same engine, marked so that its transactions take the write lock at once."""
    return engine.execution_options(winnable_write=True)


class SqliteWriteLock:
    """One writer at a time on an SQLite file, across threads and processes: a thread
    lock, then an exclusive ``flock`` on a file beside the database. Waiters wake the
    moment it is free, where SQLite's own busy handler sleeps in steps of up to 100 ms
    (a move would wait up to a tenth of a second behind another worker's)."""

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
_engine_locks: "weakref.WeakKeyDictionary[Engine, contextlib.AbstractContextManager[object]]" = weakref.WeakKeyDictionary()
_write_locks_lock = threading.Lock()


def write_lock(engine: Engine) -> contextlib.AbstractContextManager[object]:
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


def database_away(error: BaseException) -> bool:
    """True if ``error`` says the database cannot answer now (restarting, shutting down,
    unreachable, a connection it dropped, a lock or a pool it ran out of), not that a
    statement is wrong: worth answering "try again in a moment". SQLAlchemy's wrapped
    errors and the driver's own (the hot paths run straight on DBAPI cursors) alike.

    >>> import sqlalchemy.exc
    >>> database_away(sqlalchemy.exc.OperationalError("SELECT 1", {}, Exception("server closed the connection")))
    True
    >>> database_away(sqlalchemy.exc.IntegrityError("INSERT", {}, Exception("duplicate key"))), database_away(ValueError())
    (False, False)
    """
    import sqlalchemy.exc

    if isinstance(
        error,
        (sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError, sqlalchemy.exc.TimeoutError, sqlalchemy.exc.DisconnectionError),
    ):
        return True
    if isinstance(error, sqlalchemy.exc.DBAPIError):
        return bool(error.connection_invalidated)
    if type(error).__module__.split(".")[0] not in ("psycopg", "psycopg2", "sqlite3", "pg8000", "asyncpg"):
        return False
    return any(kind.__name__ in ("OperationalError", "InterfaceError") for kind in type(error).__mro__)


def database_problem(error: Exception) -> str:
    """One line on why a database could not be opened.

    >>> database_problem(ModuleNotFoundError("no psycopg", name="psycopg"))
    "its driver is not installed (pip install 'winnable[postgres]')"
    """
    import sqlalchemy.exc

    if isinstance(error, ModuleNotFoundError) and error.name in ("psycopg", "psycopg2"):
        return "its driver is not installed (pip install 'winnable[postgres]')"
    if isinstance(error, ModuleNotFoundError):
        return f"its driver is not installed (no module {error.name})"
    if isinstance(error, sqlalchemy.exc.NoSuchModuleError):
        return "unknown kind of database (use sqlite:///path or postgresql+psycopg://user@host/name)"
    if isinstance(error, sqlalchemy.exc.ArgumentError):
        return "not a database URL (use sqlite:///path or postgresql+psycopg://user@host/name)"
    if isinstance(error, sqlalchemy.exc.DBAPIError):
        return str(error.orig).strip().splitlines()[0] if error.orig else str(error).splitlines()[0]
    return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
