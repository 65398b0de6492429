"""The verdicts table: what the solver proved about each deal, for everyone who asks.

One row per game and deal: the verdict (``won``, ``lost`` or ``unknown``), the
verified winning line, the positions searched, the time, the engine that found it and
who wrote it (``survey``, ``filler``). Surveys (``winnable survey --database URL``)
write it in bulk; the web app's background filler is one more writer; Winnable mode
and the Daily deal draw their deals from the won rows (``used_at`` marks a deal the web
app has dealt). ``winnable pool`` counts the proved deals of each game.

A proof is never overwritten: a new verdict replaces a row only while that row says
``unknown`` (a bigger budget may decide it later).

The schema belongs to the Alembic migrations (:mod:`winnable.storage.migrate`; revision
0004 made this table from the older ``winnable_deals``); :meth:`VerdictStore.open` runs
them. SQLite and PostgreSQL are both supported.

>>> store = VerdictStore.open("sqlite://")
>>> store.record([{"game": "black-hole", "deal": 2, "verdict": "won", "moves": 2, "line": ["KH", "QS"],
...                "positions": 239, "seconds": 0.001, "cpu_seconds": 0.001}], source="example")
1
>>> store.counts()["black-hole"]
{'won': 1, 'lost': 0, 'unknown': 0, 'unused': 1}
>>> store.take("black-hole").deal, store.take("black-hole")
(2, None)
>>> store.close()
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, cast

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from winnable.errors import WinnableError
from winnable.storage.engine import database_problem, make_engine, write_lock, writer
from winnable.storage.migrate import migrate

if TYPE_CHECKING:
    import contextlib

    from winnable.solver import Budget

VERDICTS = ("won", "lost", "unknown")


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class VerdictsBase(DeclarativeBase):
    pass


class VerdictRow(VerdictsBase):
    """The solver's verdict on one deal of one game."""

    __tablename__ = "verdicts"
    __table_args__ = (
        sa.UniqueConstraint("game", "deal", name="uq_verdicts_game_deal"),
        # Winnable mode's "the next won deal not dealt yet", and "any won deal": each one
        # walk down an index, however many deals a survey stored.
        sa.Index("ix_verdicts_game_verdict_used", "game", "verdict", "used_at", "id"),
        sa.Index("ix_verdicts_game_verdict_id", "game", "verdict", "id"),
        # Winnable mode by grade: "the next won deal of this grade not dealt yet" (0013).
        sa.Index("ix_verdicts_game_grade_used", "game", "verdict", "grade", "used_at", "id"),
    )

    id: Mapped[int] = mapped_column(sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(sa.String(64))
    # Deal numbers go up to 10**20 - 1, beyond a 64-bit integer: kept as decimal text.
    deal: Mapped[str] = mapped_column(sa.String(24))
    verdict: Mapped[str] = mapped_column(sa.String(8))
    moves: Mapped[int] = mapped_column(sa.Integer, default=0)
    line: Mapped[list[str]] = mapped_column(sa.JSON, default=list)
    """The winning line the Python rules replayed (empty unless won)."""
    positions: Mapped[int] = mapped_column(sa.BigInteger, default=0)
    seconds: Mapped[float] = mapped_column(sa.Float, default=0.0)
    cpu_seconds: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    budget_nodes: Mapped[int | None] = mapped_column(sa.BigInteger, nullable=True)
    budget_seconds: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    engine: Mapped[str] = mapped_column(sa.String(64), default="")
    """The engine that searched (see :func:`engine_version`)."""
    source: Mapped[str] = mapped_column(sa.String(16), default="")
    """Who wrote the row: ``survey``, ``filler``, ``pool`` (from ``winnable_deals``)."""
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    used_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    """When the web app first dealt this deal as a Winnable game."""
    grade: Mapped[str | None] = mapped_column(sa.String(8), nullable=True)
    """How hard a won deal is (:class:`winnable.grading.Grade`'s value; revision 0013);
    None: not graded yet (a survey's deal until the filler grades it)."""


def engine_version() -> str:
    """The engine's crate version and a digest of the built extension, such as
    ``0.1.0+3f2a9c1b7d4e``: two engines with the same name searched the same way."""
    from winnable import _engine

    try:
        with open(_engine.__file__, "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()[:12]
    except (OSError, AttributeError):
        digest = "unknown"
    return f"{_engine.__version__}+{digest}"


@dataclass(frozen=True)
class Proved:
    """A won deal handed to the web app: its number and verified line."""

    game: str
    deal: int
    line: tuple[str, ...]
    positions: int = 0
    seconds: float = 0.0
    grade: str | None = None


def _proved(row: VerdictRow) -> Proved:
    return Proved(row.game, int(row.deal), tuple(row.line or ()), row.positions, row.seconds, row.grade)


def _as_row(entry: dict[str, Any], source: str, engine: str, nodes: int | None, seconds: float | None, now: dt.datetime) -> dict[str, Any]:
    verdict = entry["verdict"]
    if verdict not in VERDICTS:
        raise ValueError(f"unknown verdict {verdict!r}")
    line = list(entry.get("line") or ()) if verdict == "won" else []
    return {
        "game": entry["game"],
        "deal": str(entry["deal"]),
        "verdict": verdict,
        "moves": int(entry.get("moves", len(line))),
        "line": line,
        "positions": int(entry.get("positions", 0)),
        "seconds": float(entry.get("seconds", 0.0)),
        "cpu_seconds": entry.get("cpu_seconds"),
        "budget_nodes": nodes,
        "budget_seconds": seconds,
        "engine": entry.get("engine", engine),
        "grade": entry.get("grade") if verdict == "won" else None,
        "source": source,
        "created_at": now,
    }


class VerdictStore:
    """The verdicts table of one database: writes in bulk, counts, hands out deals.

    Writes take SQLite's write lock at once and queue on the same lock as the web app's
    (see :func:`winnable.storage.engine.write_lock`), so a survey and a server share one file.
    """

    def __init__(self, engine: Engine, own_engine: bool = False) -> None:
        self.engine = engine
        self._writer = writer(engine)
        self._lock: Callable[[], contextlib.AbstractContextManager[object]] = lambda: write_lock(engine)
        self._own = own_engine
        self._engine_version: str | None = None

    @classmethod
    def open(cls, url: str) -> VerdictStore:
        """The store at ``url``, its schema brought up to date (Alembic)."""
        try:
            engine = make_engine(url)
            migrate(engine)
        except Exception as error:  # a bad URL, a missing driver, an unreachable server
            raise DatabaseError(f"cannot use the database {shown_url(url)}: {database_problem(error)}") from None
        return cls(engine, own_engine=True)

    def close(self) -> None:
        if self._own:
            self.engine.dispose()

    # -- writing ---------------------------------------------------------------------
    def record(
        self,
        records: Iterable[dict[str, Any]],
        source: str = "survey",
        nodes: int | None = None,
        seconds: float | None = None,
        engine: str | None = None,
    ) -> int:
        """Store survey records (``game``, ``deal``, ``verdict``, ``moves``, ``line``,
        ``positions``, ``seconds``, ``cpu_seconds``) found within a budget of ``nodes``
        positions / ``seconds``; returns how many rows were written or decided. A row
        already proved (won or lost) is kept as it is."""
        if engine is None:
            if self._engine_version is None:
                self._engine_version = engine_version()
            engine = self._engine_version
        now = utcnow()
        rows = [_as_row(entry, source, engine, nodes, seconds, now) for entry in records]
        if not rows:
            return 0
        table = cast(sa.Table, VerdictRow.__table__)  # a declarative class with __tablename__ maps a Table
        dialect = self.engine.dialect.name
        with self._lock(), self._writer.begin() as connection:
            if dialect in ("sqlite", "postgresql"):
                from sqlalchemy.dialects import postgresql, sqlite

                insert = sqlite.insert(table) if dialect == "sqlite" else postgresql.insert(table)
                updated = {key: insert.excluded[key] for key in rows[0] if key not in ("game", "deal")}
                statement = insert.on_conflict_do_update(
                    index_elements=["game", "deal"],
                    set_=updated,
                    where=table.c.verdict == "unknown",
                ).returning(table.c.id)  # a row kept as it was returns nothing
                return len(connection.execute(statement, rows).all())
            written = 0  # any other database: one row at a time
            for row in rows:
                current = connection.execute(
                    sa.select(table.c.verdict).where(table.c.game == row["game"], table.c.deal == row["deal"])
                ).scalar()
                if current is None:
                    connection.execute(table.insert(), row)
                elif current == "unknown":
                    connection.execute(
                        table.update()
                        .where(table.c.game == row["game"], table.c.deal == row["deal"])
                        .values({key: value for key, value in row.items() if key not in ("game", "deal")})
                    )
                else:
                    continue
                written += 1
            return written

    def sink(self, budget: Budget) -> Callable[[Iterable[dict[str, Any]]], int]:
        """A survey's ``sink``: each chunk's records stored as they are written."""
        return lambda records: self.record(records, "survey", budget.nodes, budget.seconds)

    # -- reading ---------------------------------------------------------------------
    def counts(self, games: Iterable[str] | None = None) -> dict[str, dict[str, int]]:
        """Per game: how many deals are won, lost, unknown, and won but never dealt."""
        with Session(self.engine) as session:
            rows = session.execute(
                sa.select(VerdictRow.game, VerdictRow.verdict, sa.func.count()).group_by(VerdictRow.game, VerdictRow.verdict)
            ).all()
        result: dict[str, dict[str, int]] = {game: dict.fromkeys(VERDICTS, 0) | {"unused": 0} for game in games or ()}
        for game, verdict, count in rows:
            result.setdefault(game, dict.fromkeys(VERDICTS, 0) | {"unused": 0})[verdict] = count
        for game, count in self.unused_counts().items():
            result.setdefault(game, dict.fromkeys(VERDICTS, 0) | {"unused": 0})["unused"] = count
        return result

    def unused(self, game: str, at_most: int | None = None, grade: str | None = None) -> int:
        """Won deals of ``game`` (of ``grade``, if given) the web app has not dealt yet,
        counted up to ``at_most`` (a bounded count stays cheap however many a survey stored)."""
        query = sa.select(VerdictRow.id).where(VerdictRow.game == game, VerdictRow.verdict == "won", VerdictRow.used_at.is_(None))
        if grade is not None:
            query = query.where(VerdictRow.grade == grade)
        if at_most is not None:
            query = query.limit(at_most)
        with Session(self.engine) as session:
            return session.scalar(sa.select(sa.func.count()).select_from(query.subquery())) or 0

    def unused_counts(self) -> dict[str, int]:
        """Per game, the won deals the web app has not dealt yet."""
        with Session(self.engine) as session:
            return dict(
                session.execute(
                    sa.select(VerdictRow.game, sa.func.count())
                    .where(VerdictRow.verdict == "won", VerdictRow.used_at.is_(None))
                    .group_by(VerdictRow.game)
                ).all()
            )

    def verdict(self, game: str, deal: int) -> str | None:
        """What the table says about ``deal`` of ``game`` (None: nothing yet)."""
        with Session(self.engine) as session:
            return session.scalar(sa.select(VerdictRow.verdict).where(VerdictRow.game == game, VerdictRow.deal == str(deal)))

    def take(self, game: str, grade: str | None = None) -> Proved | None:
        """One won deal of ``game`` (of ``grade``, if given) never dealt before, now marked
        dealt (None if none is left). Concurrent takers get different deals."""
        graded = () if grade is None else (VerdictRow.grade == grade,)
        with self._lock(), Session(self._writer) as session, session.begin():
            row = session.scalars(
                sa.select(VerdictRow)
                .where(VerdictRow.game == game, VerdictRow.verdict == "won", *graded, VerdictRow.used_at.is_(None))
                .order_by(VerdictRow.id)
                .limit(1)
                .with_for_update(skip_locked=True)
            ).first()
            if row is None:
                return None
            row.used_at = utcnow()
            return _proved(row)

    def any_won(self, game: str, rng: random.Random | None = None, grade: str | None = None) -> Proved | None:
        """Any won deal of ``game`` (of ``grade``, if given), dealt before or not (None if
        it has none): a random id between the smallest and the largest, then the next won
        one, so the choice costs an index look-up however large the table."""
        won = (VerdictRow.game == game, VerdictRow.verdict == "won") + (() if grade is None else (VerdictRow.grade == grade,))
        with Session(self.engine) as session:
            # Two ends of the index, one query each (SQLite reads min and max together
            # by scanning every won deal).
            low = session.scalar(sa.select(VerdictRow.id).where(*won).order_by(VerdictRow.id).limit(1))
            high = session.scalar(sa.select(VerdictRow.id).where(*won).order_by(VerdictRow.id.desc()).limit(1))
            if low is None or high is None:  # both or neither: the same won deals
                return None
            pick = (rng or random).randint(low, high)
            row = session.scalars(sa.select(VerdictRow).where(*won, VerdictRow.id >= pick).order_by(VerdictRow.id).limit(1)).first()
            return None if row is None else _proved(row)

    # -- grades ----------------------------------------------------------------------
    def ungraded(self, game: str, limit: int = 1) -> list[int]:
        """Up to ``limit`` won deals of ``game`` not dealt yet and not graded yet (a
        survey's), for the filler to grade without a search."""
        with Session(self.engine) as session:
            found = session.scalars(
                sa.select(VerdictRow.deal)
                .where(VerdictRow.game == game, VerdictRow.verdict == "won", VerdictRow.grade.is_(None), VerdictRow.used_at.is_(None))
                .order_by(VerdictRow.id)
                .limit(limit)
            ).all()
        return [int(deal) for deal in found]

    def set_grade(self, game: str, deal: int, grade: str | None) -> None:
        """Keep the grade of a won deal (a grade once set is kept: grades are exact)."""
        table = cast(sa.Table, VerdictRow.__table__)
        with self._lock(), self._writer.begin() as connection:
            connection.execute(
                table.update()
                .where(table.c.game == game, table.c.deal == str(deal), table.c.verdict == "won", table.c.grade.is_(None))
                .values(grade=grade)
            )

    def grade_of(self, game: str, deal: int) -> str | None:
        """The grade kept for ``deal`` of ``game`` (None: not graded, or not won)."""
        with Session(self.engine) as session:
            return session.scalar(
                sa.select(VerdictRow.grade).where(VerdictRow.game == game, VerdictRow.deal == str(deal), VerdictRow.verdict == "won")
            )

    def daily(self, game: str, day: dt.date) -> Proved | None:
        """The Daily deal of ``game`` on ``day``: :meth:`any_won` drawn with a generator
        seeded by the game and the day, so every server picks the same deal whatever has
        been dealt (a survey that adds won deals during the day may change the pick:
        whoever shows the Daily keeps the first answer)."""
        seed = hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()
        return self.any_won(game, random.Random(seed))


class DatabaseError(WinnableError):
    """The database named cannot be used (the CLI prints one line and exits with 2)."""


def shown_url(url: str) -> str:
    """``url`` without its password, to print."""
    return url if "@" not in url else url.split("://", 1)[0] + "://...@" + url.rsplit("@", 1)[1]
