"""Statements run straight on DBAPI cursors, for what every request does: a move, a
read of the game. SQLAlchemy's Connection and Result machinery cost several times the
statement itself; here a statement is compiled once, and SQLite keeps one reading and
one writing connection per thread.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import weakref
from typing import TYPE_CHECKING, Any, Iterator, cast

import sqlalchemy as sa
from sqlalchemy.engine import Engine

if TYPE_CHECKING:
    from sqlalchemy.sql.compiler import SQLCompiler

from winnable.storage.engine import _write_locks_lock, server_engine, write_lock


class Statement:
    """A statement compiled once for the engine's dialect, run straight on a pooled DBAPI
    cursor, its parameters and values converted by SQLAlchemy's own type processors
    (JSON, dates, booleans). For what every request does: SQLAlchemy's Connection and
    Result machinery cost several times the statement itself.

    >>> from sqlalchemy.orm import Session
    >>> from winnable.storage.engine import make_engine
    >>> from winnable.storage.migrate import migrate
    >>> from winnable.storage.tables import GameRow
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

    def __init__(self, engine: Engine, statement: sa.ClauseElement) -> None:
        dialect = engine.dialect
        compiled = cast("SQLCompiler", statement.compile(dialect=dialect))  # a statement's compiler
        self.engine = engine
        self.sql = str(compiled)
        self.names = list(compiled.positiontup or ()) if compiled.positional else None
        self.binds = {name: bind.type.dialect_impl(dialect).bind_processor(dialect) for name, bind in compiled.binds.items()}
        columns = list(getattr(statement, "selected_columns", ()))
        self.keys = [column.key for column in columns]
        self.processors = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns]

    def arguments(self, params: dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        converted = {
            name: (value if value is None or (process := self.binds.get(name)) is None else process(value))
            for name, value in params.items()
        }
        return tuple(converted[name] for name in self.names) if self.names is not None else converted

    def row(self, values: tuple[Any, ...] | None) -> dict[str, Any] | None:
        if values is None:
            return None
        return {
            key: (value if process is None or value is None else process(value))
            for key, process, value in zip(self.keys, self.processors, values)
        }

    def run(self, cursor: Any, **params: Any) -> dict[str, Any] | None:
        """Run on ``cursor``; the first row (converted) if it selects."""
        cursor.execute(self.sql, self.arguments(params))
        return self.row(cursor.fetchone()) if self.keys else None


class Query(Statement):
    """A :class:`Statement` that reads, each on a connection of its own (from
    :func:`read_engine`: on PostgreSQL in autocommit, so a read is one round trip, not a
    ping, the query and a rollback)."""

    def __init__(self, engine: Engine, statement: sa.SelectBase) -> None:
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
        found = _read_engines.setdefault(key, server_engine(engine.url, isolation_level="AUTOCOMMIT"))
    return found


@contextlib.contextmanager
def transaction(engine: Engine) -> Iterator[Any]:  # a DBAPI cursor
    """A write transaction on a DBAPI cursor (SQLite: ``BEGIN IMMEDIATE`` under the write
    lock, on the thread's kept connection; elsewhere a pooled one), committed at the end
    of the block, rolled back if it raises."""
    sqlite = engine.dialect.name == "sqlite"
    if engine.dialect.driver == "psycopg" and _pipelines():
        with pipelined_transaction(engine) as cursor:
            yield cursor
        return
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
                try:
                    connection.rollback()
                except Exception:  # the database dropped the connection: never back to the pool
                    connection.invalidate()
                raise
            finally:
                with contextlib.suppress(Exception):
                    cursor.close()
        finally:
            connection.close()


@functools.cache
def _pipelines() -> bool:
    """psycopg's pipeline mode is there (libpq 14 or later)."""
    import psycopg

    return bool(psycopg.Pipeline.is_supported())


@contextlib.contextmanager
def pipelined_transaction(engine: Engine) -> Iterator[Any]:  # a psycopg cursor
    """A write transaction on PostgreSQL in two round trips: on an autocommit connection
    in psycopg's pipeline mode, ``BEGIN`` goes out with the first statement (sent when
    its row is read) and ``COMMIT`` with the last, and the block ends when the server
    has answered the commit (nothing is acknowledged before). psycopg's own transactions
    took four (``BEGIN``, each statement, ``COMMIT``), and the pool's ping a fifth: a
    move's share of the round trips that kept web workers waiting (see the README's
    PostgreSQL figures)."""
    connection = read_engine(engine).raw_connection()
    try:
        dbapi = connection.dbapi_connection
        assert dbapi is not None
        cursor = dbapi.cursor()
        try:
            with dbapi.pipeline():
                cursor.execute("BEGIN")
                yield cursor
                cursor.execute("COMMIT")
            # out of the pipeline: the commit answered (its error raised), only now acknowledged
        except BaseException:
            try:
                if dbapi.info.transaction_status != 0:  # not idle: the transaction is still open
                    dbapi.execute("ROLLBACK")
            except Exception:  # a connection in trouble (the server gone): never back to the pool
                connection.invalidate()
            raise
        finally:
            with contextlib.suppress(Exception):
                cursor.close()
    finally:
        connection.close()
