"""The Daily: one deal per game per day (UTC), the same for everyone, dealt from a secret
deck order the solver proved winnable; one scored attempt per player's name; a leaderboard.

* **No number.** A Daily is not a deal number: its cards are a uniformly random order
  of the deck from the operating system's generator (:meth:`winnable.decks.Deck.shuffled`),
  kept only in the database, laid out by the game's rules (``Position.from_deck``) and
  proved winnable by the solver when drawn (its winning line replayed by the rules;
  orders are drawn until one is won, within :data:`DRAW_SECONDS`). No deal number of
  any game or numbering reaches it (10**20 numbers against 52! orders), so no answer
  can show or confirm a number, no guess can be checked, and the same cards cannot be
  opened under another game id for hints. Its game's state says ``deal: null``; the
  cards are told (``layout`` on the leaderboard) once the day is over.
* The deck order is drawn the first time anyone asks for a game's Daily on a day and
  stored as one row keyed by (game, day): whichever worker or server inserts it first
  wins, the others read it back (a unique key, not a lock in memory). A game is offered
  a Daily once the solver has proved one of its deals winnable (a game none of whose
  deals is ever won, such as Penguin without free cells, gets none).
* An attempt is a game row (``daily_day`` set) plus a ``daily_attempts`` row keyed by
  (game, day, player) and by (game, day, name): asking again, from any tab or server,
  resumes it; a name that played today's Daily and whose account was deleted and made
  again gets no second attempt (409 ``daily_played``). Its clock starts when it is
  dealt; hints and analyses are refused while the day lasts, undos are allowed and
  counted, restarts refused; after the day it takes no more moves.
* Every result is the server's: status, cards left and moves come from the stored
  moves, times from the server's clock. No endpoint takes a result from a client.
* Leaderboard: wins first, by time then moves (Penguin: by speed score); then the other
  attempts by cards left (Penguin: by partial score), then moves
  (:func:`winnable.web.players.ranking.ranked_entries`, a challenge's too).

* **The grade follows the week** (:data:`WEEK_GRADES`): Monday and Tuesday easy,
  Wednesday and Thursday medium, Friday and Saturday hard, Sunday expert
  (:mod:`winnable.grading`). Deck orders are drawn and graded until one is of the day's
  grade, at most :data:`GRADE_TRIES` draws and :data:`GRADE_SECONDS` seconds; when none
  is, the Daily is the drawn order of the nearest grade (the harder on a tie) and shows
  its own grade: a Daily's grade is always its cards' true grade.

The deck order comes from :func:`draw_layout`.
"""

from __future__ import annotations

import datetime as dt
import random
import threading
import time
from typing import Callable, TypedDict

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from winnable.decks import Deck
from winnable.game import Position
from winnable.games import game_ids
from winnable.grading import Grade, NotGradable, grade_position
from winnable.solver import Budget, solve
from winnable.storage.engine import write_lock, writer
from winnable.storage.statements import Query
from winnable.storage.tables import DailyAttempt, DailyDeal, GameRow, User
from winnable.storage.verdicts import VerdictRow
from winnable.web.errors import Conflict, NotFound, Unauthorized, Unprocessable
from winnable.web.pages.i18n import N_
from winnable.web.play.games import GameService
from winnable.web.play.lookup import Source, deck_of, lookup_game
from winnable.web.play.pace import NotRanked
from winnable.web.play.pool import WinnablePool
from winnable.web.play.state import GameState
from winnable.web.play.store import today
from winnable.web.players.attempts import Attempts, Key, name_digest
from winnable.web.players.ranking import RESULT_COLUMNS, LeaderboardEntry, RankedEntry, public, ranked_entries, shown
from winnable.web.security.identity import Viewer


class Leaderboard(TypedDict):
    """A Daily's leaderboard (the API's ``Leaderboard``)."""

    game: str
    title: str
    date: str
    over: bool
    deal: int | None
    layout: str | None
    players: int
    grade: str | None
    your_rank: int | None
    your_result: LeaderboardEntry | None
    entries: list[LeaderboardEntry]


class DailyAttemptSummary(TypedDict):
    """The player's attempt at one of today's Dailies (the API's ``DailyAttemptSummary``)."""

    status: str
    rank: int | None
    seconds: float | None
    moves: int
    cards_left: int
    not_ranked: NotRanked | None


class DailyGame(TypedDict):
    """One game's Daily today (the API's ``DailyGame``)."""

    game: str
    title: str
    available: bool
    players: int
    attempt: DailyAttemptSummary | None
    grade: str | None


class DailyOverview(TypedDict):
    """Today's Dailies (the API's ``DailyOverview``)."""

    date: str
    next_in_seconds: int
    signed_in: bool
    games: list[DailyGame]


DAILY_UNDO = "unlimited"
"""Every Daily is played with unlimited undo; the undos used are shown beside the result."""


DRAW_SECONDS = 20.0
"""Wall-clock seconds a Daily's draw may search in all (once per game and day)."""
TRY_SECONDS = 2.0
"""The solver's budget for one deck order: one not won within it is put aside."""
DRAW_RETRY = 600.0
"""After a draw that found no winnable order, seconds before this process tries again."""


WEEK_GRADES: tuple[Grade, ...] = (Grade.EASY, Grade.EASY, Grade.MEDIUM, Grade.MEDIUM, Grade.HARD, Grade.HARD, Grade.EXPERT)
"""The grade of each day's Dailies, Monday first: easy early in the week, expert on Sunday."""
GRADE_ORDER: tuple[str, ...] = tuple(grade.value for grade in Grade)
GRADE_TRIES = 200
"""Deck orders drawn and graded at most for one Daily, looking for the day's grade."""
GRADE_SECONDS = 20.0
"""Wall-clock seconds of drawing for one Daily before the nearest grade found is taken."""


def grade_of_day(day: dt.date) -> Grade:
    """The grade the Dailies of ``day`` are drawn at.

    >>> grade_of_day(dt.date(2026, 11, 30)).value, grade_of_day(dt.date(2026, 12, 6)).value  # a Monday, a Sunday
    ('easy', 'expert')
    """
    return WEEK_GRADES[day.weekday()]


def grade_deck(game: str, deck: Deck) -> str | None:
    """The grade of the deal ``deck`` lays out for ``game`` (None: not gradable)."""
    try:
        return grade_position(lookup_game(game).from_deck(deck)).grade.value
    except NotGradable:
        return None


def nearest(wanted: str, found: list[tuple[Deck, str | None]]) -> tuple[Deck, str | None]:
    """The drawn order whose grade is nearest the wanted one (the harder on a tie; an
    order not gradable comes last)."""
    goal = GRADE_ORDER.index(wanted)

    def distance(entry: tuple[Deck, str | None]) -> tuple[int, int]:
        if entry[1] is None:
            return (len(GRADE_ORDER), 0)
        at = GRADE_ORDER.index(entry[1])
        return (abs(at - goal), -at)

    return min(found, key=distance)


def draw_layout(cls: type[Position], rng: random.Random | None = None, seconds: float = DRAW_SECONDS, tries: int = 1000) -> Deck | None:
    """A secret deck order of ``cls``'s game that the solver wins (its line replayed by
    the rules), drawn afresh until one is won; None if none is within ``seconds`` or
    ``tries``. ``rng`` is for tests: by default the operating system's generator.

    >>> from winnable.blackhole import BlackHole
    >>> deck = draw_layout(BlackHole, random.Random(1))
    >>> solve(BlackHole.from_deck(deck)).won and BlackHole.from_deck(deck).deal_number is None
    True
    """
    deadline = time.monotonic() + seconds
    for _ in range(tries):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        deck = Deck.shuffled(cls.decks, rng)
        if solve(cls.from_deck(deck), Budget(seconds=min(TRY_SECONDS, left))).won:
            return deck
    return None


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


def daily_played(key: Key) -> Conflict:
    return Conflict(
        N_("this name has played today's {game} Daily already: one attempt per name and day", game=N_(lookup_game(key["game"]).title)),
        code="daily_played",
    )


class DailyService:
    """The Dailies of every game, stored beside the games."""

    def __init__(
        self,
        games: GameService,
        pool: WinnablePool,
        draw: Callable[[str], Deck | None] | None = None,
        grade: Callable[[str, Deck], str | None] | None = None,
    ) -> None:
        self.games = games
        self.engine = games.engine
        self.write_engine = writer(self.engine)
        self.pool = pool
        self.attempts = Attempts(games, DailyAttempt, daily_played)
        """One attempt per player and name a day (409 ``daily_played`` for a name that
        played under an account since deleted)."""
        self.draw = draw or (lambda game: draw_layout(lookup_game(game)))
        """``game -> Deck or None``: a new Daily's deck order (tests set their own)."""
        self.grade = grade or grade_deck
        """``(game, deck) -> grade or None``: a drawn order's grade (:mod:`winnable.grading`)."""
        # A Daily once stored is remembered (it never changes; a day without one yet is
        # asked again, another server may draw it at any moment).
        self._read_deal = Query(
            self.engine,
            select(DailyDeal.deal, DailyDeal.layout, DailyDeal.grade).where(
                DailyDeal.game == bindparam("game"), DailyDeal.day == bindparam("day")
            ),
        )
        self._stored: dict[tuple[str, dt.date], tuple[Source, str | None]] = {}
        self._drawing = {game: threading.Lock() for game in game_ids()}  # one draw per game at once here
        self._failed: dict[tuple[str, dt.date], float] = {}

    def now(self) -> dt.datetime:
        return self.games.clock()

    # -- the deal ----------------------------------------------------------------------
    def deal_of(self, game: str, day: dt.date, create: bool = False) -> Source | None:
        """What the Daily of ``game`` on ``day`` is dealt from: its :class:`Deck` (an int
        only for a Daily stored before deck orders), drawn and stored the first time it
        is asked for (``create``), else None when there is none."""
        found = self.daily_of(game, day, create)
        return None if found is None else found[0]

    def grade_of(self, game: str, day: dt.date) -> str | None:
        """The grade the Daily of ``game`` on ``day`` was drawn at (None: not drawn yet,
        or drawn before grades)."""
        found = self.daily_of(game, day)
        return None if found is None else found[1]

    def draw_graded(self, game: str, wanted: str) -> tuple[Deck, str | None] | None:
        """A winnable deck order of ``game`` of the grade ``wanted``, drawn and graded
        until one is, within :data:`GRADE_TRIES` draws and :data:`GRADE_SECONDS`; else
        the nearest grade drawn (None: no winnable order was drawn at all). A draw that
        gives an order already drawn (a seeded draw) ends the search."""
        deadline = time.monotonic() + GRADE_SECONDS
        found: list[tuple[Deck, str | None]] = []
        seen: set[str] = set()
        for _ in range(GRADE_TRIES):
            deck = self.draw(game)
            if deck is None or str(deck) in seen:
                break
            seen.add(str(deck))
            grade = self.grade(game, deck)
            if grade == wanted:
                return deck, grade
            found.append((deck, grade))
            if time.monotonic() >= deadline:
                break
        return nearest(wanted, found) if found else None

    def daily_of(self, game: str, day: dt.date, create: bool = False) -> tuple[Source, str | None] | None:
        """The Daily of ``game`` on ``day`` and its grade (see :meth:`deal_of`)."""
        known = self._stored.get((game, day)) or self._read(game, day)
        if known is not None or not create:
            return known
        title = N_(lookup_game(game).title)
        unavailable = Conflict(
            N_("there is no {game} Daily yet: no deal of it has been proved winnable so far", game=title), code="daily_unavailable"
        )
        if not self.offered(game):
            raise unavailable
        with self._drawing[game]:  # this process's other requests wait for its draw
            known = self._read(game, day)
            if known is not None:
                return known
            if time.monotonic() < self._failed.get((game, day), 0.0):
                raise unavailable
            drawn = self.draw_graded(game, grade_of_day(day).value)
            if drawn is None:
                if len(self._failed) >= 4096:
                    self._failed.clear()
                self._failed[(game, day)] = time.monotonic() + DRAW_RETRY
                raise unavailable
            deck, grade = drawn
            try:
                with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
                    if session.get(DailyDeal, (game, day)) is None:
                        session.add(DailyDeal(game=game, day=day, deal=None, layout=str(deck), grade=grade, created_at=self.now()))
            except IntegrityError:  # another worker or server drew first: theirs it is
                pass
            return self._read(game, day)

    def _read(self, game: str, day: dt.date) -> tuple[Source, str | None] | None:
        found = self._read_deal.first(game=game, day=day)
        if found is None:
            return None
        source: Source = deck_of(found["layout"]) if found["layout"] else int(found["deal"])
        if len(self._stored) >= 4096:  # a few days of every game: start again
            self._stored.clear()
        self._stored[(game, day)] = (source, found["grade"])
        return source, found["grade"]

    def offered(self, game: str) -> bool:
        """Whether ``game`` has Dailies: the solver has proved one of its deals winnable
        (a game whose deals are never won, Penguin without free cells, has none)."""
        with Session(self.engine) as session:
            return session.scalar(select(VerdictRow.id).where(VerdictRow.game == game, VerdictRow.verdict == "won").limit(1)) is not None

    # -- the attempt -------------------------------------------------------------------
    def attempt(self, viewer: Viewer, game: str) -> GameState:
        """Start or resume the player's one attempt at today's Daily of ``game``."""
        game = lookup_game(game).game_id
        if not viewer.signed_in:
            raise Unauthorized(N_("sign in to play the Daily: it is one scored attempt per player and day"), code="sign_in_required")
        day = today(self.now())
        name = name_digest(viewer.name or "")
        key = {"game": game, "day": day}
        existing = self.attempts.find(key, viewer.user_id, name)
        if existing is None:
            source, grade = self.daily_of(game, day, create=True) or (None, None)
            deck = source if isinstance(source, Deck) else None
            row, _ = self.games.new_row(
                game, None if deck else source, DAILY_UNDO, winnable_deal=True, owner=viewer, daily_day=day, layout=deck, grade=grade
            )
            existing = self.attempts.start(key, viewer, name, row)
        return self.games.state(existing, viewer)  # there now: ours or the other tab's

    # -- results -----------------------------------------------------------------------
    def leaderboard(self, game: str, day: dt.date, viewer: Viewer, limit: int = 50, offset: int = 0) -> Leaderboard:
        """The ranked attempts at the Daily of ``game`` on ``day``."""
        cls = lookup_game(game)
        now = self.now()
        over = day < today(now)
        source, grade = self.daily_of(cls.game_id, day) or (None, None)
        entries = self._ranked(cls.game_id, day, now)
        yours = next((entry for entry in entries if entry["user_id"] is not None and entry["user_id"] == viewer.user_id), None)
        ranked = public(entries)  # a result at a pace no person reaches is its player's only
        page = ranked[offset : offset + limit]
        return {
            "game": cls.game_id,
            "title": cls.title,
            "date": day.isoformat(),
            "over": over,
            # The cards are told once the day is over, never before.
            "deal": source if over and isinstance(source, int) else None,
            "layout": str(source) if over and isinstance(source, Deck) else None,
            "players": len(ranked),
            "grade": grade,
            "your_rank": yours["rank"] if yours else None,
            "your_result": None if yours is None else shown(yours, yours),
            "entries": [shown(entry, yours) for entry in page],
        }

    def _ranked(self, game: str, day: dt.date, now: dt.datetime) -> list[RankedEntry]:
        with Session(self.engine) as session:
            rows = session.execute(
                select(DailyAttempt.user_id, User.name, *RESULT_COLUMNS)
                .join(GameRow, GameRow.id == DailyAttempt.game_id)
                .outerjoin(User, User.id == DailyAttempt.user_id)
                .where(DailyAttempt.game == game, DailyAttempt.day == day)
            ).all()
        return ranked_entries(rows, game, now, over=day < today(now), judge_pace=self.games.judge_pace)

    def overview(self, viewer: Viewer) -> DailyOverview:
        """Today's Dailies: which games have one, the time to the next, the player's rank."""
        now = self.now()
        day = today(now)
        tomorrow = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.timezone.utc)
        with Session(self.engine) as session:
            proved = set(session.scalars(select(VerdictRow.game).where(VerdictRow.verdict == "won").group_by(VerdictRow.game)).all())
            drawn = dict(session.execute(select(DailyDeal.game, DailyDeal.grade).where(DailyDeal.day == day)).all())
            dealt = set(drawn)
            mine = set()
            if viewer.signed_in:
                mine = set(
                    session.scalars(select(DailyAttempt.game).where(DailyAttempt.day == day, DailyAttempt.user_id == viewer.user_id)).all()
                )
            counts = dict(
                session.execute(select(DailyAttempt.game, func.count()).where(DailyAttempt.day == day).group_by(DailyAttempt.game)).all()
            )
        games: list[DailyGame] = []
        for game in game_ids():
            cls = lookup_game(game)
            entry: DailyGame = {
                "game": game,
                "title": cls.title,
                "available": game in proved or game in dealt,
                "players": counts.get(game, 0),
                "attempt": None,
                # Drawn: its own grade; not yet: the grade it will be drawn at.
                "grade": drawn[game] if game in dealt else grade_of_day(day).value,
            }
            if game in mine:
                yours = next(e for e in self._ranked(game, day, now) if e["user_id"] == viewer.user_id)
                entry["attempt"] = {
                    "status": yours["status"],
                    "rank": yours["rank"],
                    "seconds": yours["seconds"],
                    "moves": yours["moves"],
                    "cards_left": yours["cards_left"],
                    "not_ranked": yours["not_ranked"],
                }
            games.append(entry)
        return {
            "date": day.isoformat(),
            "next_in_seconds": int((tomorrow - now).total_seconds()),
            "signed_in": viewer.signed_in,
            "games": games,
        }
