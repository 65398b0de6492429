"""The Daily: one deal per game per day (UTC), the same for everyone, drawn from the deals
the solver proved winnable; one scored attempt per signed-in player; a leaderboard.

* The deal is chosen the first time anyone asks for a game's Daily on a day and stored
  as one row keyed by (game, day): whichever worker or server inserts it first wins,
  the others read it back (a unique key, not a lock in memory).
* An attempt is a game row (``daily_day`` set) plus a ``daily_attempts`` row keyed by
  (game, day, player): asking again, from any tab or server, resumes it. Its clock
  starts when it is dealt; hints and analyses are refused while the day lasts, undos
  are allowed and counted, restarts refused; after the day it takes no more moves.
* Every result is the server's: status, cards left and moves come from the stored
  moves, times from the server's clock. No endpoint takes a result from a client.
* Leaderboard: wins first, by time then moves; then the other attempts by cards left
  (Penguin: by partial score), then moves (:class:`winnable.web.scores.Result`).

The deal comes from :func:`proved_deal`, the one place that knows where proved deals
are kept.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Callable

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from winnable.games import game_ids
from winnable.web.accounts import Viewer
from winnable.verdicts import VerdictRow
from winnable.web.db import DailyAttempt, DailyDeal, GameRow, Query, User, as_utc, write_lock, writer
from winnable.web.errors import Conflict, NotFound, Unauthorized, Unprocessable
from winnable.web.i18n import N_
from winnable.web.pool import WinnablePool
from winnable.web.scores import Result
from winnable.web.service import GameService, effective_status, iso, lookup_game, today

RESULT_COLUMNS = (GameRow.status, GameRow.move_count, GameRow.cards_left, GameRow.undo_used, GameRow.started_at,
                  GameRow.finished_at, GameRow.timed_out_at, GameRow.think_seconds, GameRow.last_move_at)
"""What a result needs of a game (not its moves): read as plain rows, not objects."""

_ATTEMPTS = DailyAttempt.__table__

DAILY_UNDO = "unlimited"
"""Every Daily is played with unlimited undo; the undos used are shown beside the result."""


def proved_deal(pool: WinnablePool, game: str, rng: random.Random | None = None) -> int | None:
    """A deal of ``game`` the solver proved winnable (one not dealt before if there is
    one), or None. The Daily's only source of deals: to draw from another table of
    proved deals, change this function."""
    found = pool.take(game) or pool.reuse(game, rng)
    return None if found is None else found.deal


def parse_day(text: str | None, now: dt.datetime) -> dt.date:
    """``YYYY-MM-DD`` (default: today, UTC); a future day or anything else is 422."""
    if text is None or text == "":
        return today(now)
    try:
        day = dt.date.fromisoformat(text) if isinstance(text, str) and len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise Unprocessable(N_("a date is written YYYY-MM-DD, e.g. 2026-11-30"), code="bad_date")
    if day > today(now):
        raise NotFound(N_("that day has not come yet"), code="bad_date")  # a date, but no such board yet
    return day


class DailyService:
    """The Dailies of every game, stored beside the games."""

    def __init__(self, games: GameService, pool: WinnablePool,
                 draw: Callable[[str], int | None] | None = None) -> None:
        self.games = games
        self.engine = games.engine
        self.write_engine = writer(self.engine)
        self.pool = pool
        self.draw = draw or (lambda game: proved_deal(pool, game))
        # Every new game with a deal number asks whether it is today's Daily: one
        # compiled read (not an ORM session), and a deal once stored is remembered (it
        # never changes; a day without one yet is asked again, another server may
        # choose it at any moment).
        self._read_deal = Query(self.engine, select(DailyDeal.deal).where(DailyDeal.game == bindparam("game"),
                                                                          DailyDeal.day == bindparam("day")))
        self._stored: dict[tuple[str, dt.date], int] = {}

    def now(self) -> dt.datetime:
        return self.games.clock()

    # -- the deal ----------------------------------------------------------------------
    def deal_of(self, game: str, day: dt.date, create: bool = False) -> int | None:
        """The Daily deal of ``game`` on ``day``: chosen and stored the first time it is
        asked for (``create``), else None when there is none."""
        known = self._stored.get((game, day))
        if known is not None:
            return known
        found = self._read_deal.first(game=game, day=day)
        if found is not None:
            return self._remember(game, day, int(found["deal"]))
        if not create:
            return None
        deal = self.draw(game)
        if deal is None:
            title = N_(lookup_game(game).title)
            raise Conflict(N_("there is no {game} Daily yet: no deal of it has been proved winnable so far", game=title),
                           code="daily_unavailable")
        try:
            with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
                if session.get(DailyDeal, (game, day)) is None:
                    session.add(DailyDeal(game=game, day=day, deal=str(deal), created_at=self.now()))
        except IntegrityError:  # another worker or server chose first: theirs it is
            pass
        with Session(self.engine) as session:
            return self._remember(game, day, int(session.get(DailyDeal, (game, day)).deal))

    def _remember(self, game: str, day: dt.date, deal: int) -> int:
        if len(self._stored) >= 4096:  # a few days of every game: start again
            self._stored.clear()
        self._stored[(game, day)] = deal
        return deal

    def is_todays_deal(self, game: str, deal: int) -> bool:
        """True if ``deal`` is today's Daily of ``game`` (played in the Daily only)."""
        return self.deal_of(game, today(self.now())) == deal

    # -- the attempt -------------------------------------------------------------------
    def attempt(self, viewer: Viewer, game: str) -> dict[str, Any]:
        """Start or resume the player's one attempt at today's Daily of ``game``."""
        game = lookup_game(game).game_id
        if not viewer.signed_in:
            raise Unauthorized(N_("sign in to play the Daily: it is one scored attempt per player and day"),
                               code="sign_in_required")
        day = today(self.now())
        existing = self._attempt_id(game, day, viewer.user_id)
        if existing is None:
            deal = self.deal_of(game, day, create=True)
            row, _ = self.games.new_row(game, deal, DAILY_UNDO, winnable_deal=True, owner=viewer, daily_day=day)
            try:
                with write_lock(self.engine), self.write_engine.begin() as connection:
                    if self._attempt_id(game, day, viewer.user_id, connection) is None:
                        self.games.insert(connection, row)
                        connection.execute(_ATTEMPTS.insert().values(game=game, day=day, user_id=viewer.user_id,
                                                                     game_id=row.id, created_at=row.created_at))
            except IntegrityError:  # the same player's other tab started it first
                pass
            existing = self._attempt_id(game, day, viewer.user_id)
        return self.games.state(existing, viewer)

    def _attempt_id(self, game: str, day: dt.date, user_id: int, connection=None) -> str | None:
        query = select(DailyAttempt.game_id).where(DailyAttempt.game == game, DailyAttempt.day == day,
                                                   DailyAttempt.user_id == user_id)
        if connection is not None:
            return connection.scalars(query).first()
        with self.engine.connect() as own:
            return own.scalars(query).first()

    # -- results -----------------------------------------------------------------------
    def leaderboard(self, game: str, day: dt.date, viewer: Viewer, limit: int = 50, offset: int = 0) -> dict[str, Any]:
        """The ranked attempts at the Daily of ``game`` on ``day``."""
        cls = lookup_game(game)
        now = self.now()
        over = day < today(now)
        deal = self.deal_of(cls.game_id, day)
        entries = self._ranked(cls.game_id, day, now)
        yours = next((entry for entry in entries if entry["user_id"] is not None and entry["user_id"] == viewer.user_id), None)
        shown = entries[offset:offset + limit]
        for entry in entries:
            entry["you"] = entry is yours
        return {
            "game": cls.game_id,
            "title": cls.title,
            "date": day.isoformat(),
            "over": over,
            "deal": deal if over else None,
            "players": len(entries),
            "your_rank": yours["rank"] if yours else None,
            "entries": [{key: value for key, value in entry.items() if key != "user_id"} for entry in shown],
        }

    def _ranked(self, game: str, day: dt.date, now: dt.datetime) -> list[dict[str, Any]]:
        cls = lookup_game(game)
        penguin = cls.family == "freecell"
        with Session(self.engine) as session:
            rows = session.execute(
                select(DailyAttempt.user_id, User.name, *RESULT_COLUMNS)
                .join(GameRow, GameRow.id == DailyAttempt.game_id)
                .outerjoin(User, User.id == DailyAttempt.user_id)
                .where(DailyAttempt.game == game, DailyAttempt.day == day)).all()
        over = day < today(now)
        ranked = []
        for row in rows:
            user_id, name = row.user_id, row.name
            status = effective_status(row, row.status, now)
            if status == "playing" and over:
                status = "unfinished"
            started, finished = as_utc(row.started_at), as_utc(row.finished_at or row.timed_out_at)
            seconds = (finished - started).total_seconds() if status == "won" and started and finished else None
            left = row.cards_left if row.cards_left is not None else 0
            out_of = 52 if penguin else None
            result = Result(status, seconds, row.move_count or 0, left)
            ranked.append((result.key(), (as_utc(row.finished_at) or now), {
                "user_id": user_id,
                "player": name,
                "status": status,
                "seconds": None if seconds is None else round(seconds, 1),
                "moves": row.move_count or 0,
                "undos": row.undo_used,
                "cards_left": left,
                "partial": (out_of - left) if penguin else None,
                "finished_at": iso(row.finished_at),
            }))
        ranked.sort(key=lambda item: (item[0], item[1]))
        entries = []
        for rank, (_, _, entry) in enumerate(ranked, 1):
            entry["rank"] = rank
            entries.append(entry)
        return entries

    def overview(self, viewer: Viewer) -> dict[str, Any]:
        """Today's Dailies: which games have one, the time to the next, the player's rank."""
        now = self.now()
        day = today(now)
        tomorrow = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.timezone.utc)
        with Session(self.engine) as session:
            proved = set(session.scalars(select(VerdictRow.game).where(VerdictRow.verdict == "won").group_by(VerdictRow.game)).all())
            dealt = set(session.scalars(select(DailyDeal.game).where(DailyDeal.day == day)).all())
            mine = set()
            if viewer.signed_in:
                mine = set(session.scalars(select(DailyAttempt.game).where(
                    DailyAttempt.day == day, DailyAttempt.user_id == viewer.user_id)).all())
            counts = dict(session.execute(select(DailyAttempt.game, func.count()).where(DailyAttempt.day == day)
                                          .group_by(DailyAttempt.game)).all())
        games = []
        for game in game_ids():
            cls = lookup_game(game)
            entry: dict[str, Any] = {"game": game, "title": cls.title, "available": game in proved or game in dealt,
                                     "players": counts.get(game, 0), "attempt": None}
            if game in mine:
                yours = next(e for e in self._ranked(game, day, now) if e["user_id"] == viewer.user_id)
                entry["attempt"] = {"status": yours["status"], "rank": yours["rank"], "seconds": yours["seconds"],
                                    "moves": yours["moves"], "cards_left": yours["cards_left"]}
            games.append(entry)
        return {"date": day.isoformat(), "next_in_seconds": int((tomorrow - now).total_seconds()),
                "signed_in": viewer.signed_in, "games": games}
