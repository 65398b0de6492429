"""A month of Dailies: a player's calendar, points, monthly badge and Daily streaks.

Everything here is worked out, on each request, from the stored attempts (``daily_attempts``
and their game rows, whose status the server's rules wrote) and the Dailies' grades
(``daily_deals.grade``): no counter is stored, so nothing a player sends can skew it.

* **Points** for each Daily won, by its grade (:data:`POINTS`): easy 1, medium 2, hard 3,
  expert 5; a Daily drawn before grades counts as easy.
* **The monthly badge** by the Dailies won in the month, any game (:data:`BADGES`):
  bronze from 5, silver from 15, gold from 30 (about one a day).
* **Daily streaks**: days in a row (UTC) with at least one Daily won. The current streak
  runs up to today, or up to yesterday while today has no win yet (the day is still
  open); the best is over every day the player has played.
* Each day of the month: the grade its Dailies are drawn at (it follows the week,
  :func:`winnable.web.players.daily.grade_of_day`) and, for each game whose Daily was drawn
  that day or that the player played, the result: ``won``, ``lost`` (lost, or left
  unfinished when the day ended), ``playing`` (today's, not finished) or ``not_played``.

>>> day = dt.date(2026, 12, 3)
>>> streaks({day - dt.timedelta(days=n) for n in (1, 2, 5, 6, 7)}, day)
{'current': 2, 'best': 3}
>>> badge(14), badge(15), badge(4)
('bronze', 'silver', None)
"""

from __future__ import annotations

import calendar as months
import datetime as dt
import re
from typing import Iterable, TypedDict

from sqlalchemy import and_, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from winnable.errors import UnknownGameError
from winnable.games import game_class
from winnable.storage.tables import DailyAttempt, DailyDeal, GameRow
from winnable.web.errors import NotFound, Unauthorized, Unprocessable
from winnable.web.pages.i18n import N_
from winnable.web.play.store import today
from winnable.web.players.daily import grade_of_day
from winnable.web.security.identity import Viewer

POINTS = {"easy": 1, "medium": 2, "hard": 3, "expert": 5}
"""Points of a Daily won, by its grade."""
UNGRADED_POINTS = 1
"""Points of a Daily won that was drawn before grades (as an easy one)."""
BADGES = (("bronze", 5), ("silver", 15), ("gold", 30))
"""The monthly badges, lowest first, and the Dailies won in the month each needs."""
MONTH = re.compile(r"([0-9]{4})-(0[1-9]|1[0-2])")


class CalendarGame(TypedDict):
    """One game's Daily on one day, for the player (the API's ``CalendarGame``)."""

    game: str
    title: str
    status: str
    grade: str | None
    points: int


class CalendarDay(TypedDict):
    """One day of the month (the API's ``CalendarDay``)."""

    date: str
    weekday: int
    grade: str
    today: bool
    future: bool
    won: int
    played: int
    points: int
    games: list[CalendarGame]


class Streaks(TypedDict):
    """Days in a row with a Daily won (the API's ``Streaks``)."""

    current: int
    best: int


class DailyCalendar(TypedDict):
    """A player's month of Dailies (the API's ``DailyCalendar``)."""

    month: str
    today: str
    days: list[CalendarDay]
    won: int
    played: int
    points: int
    badge: str | None
    next_badge: str | None
    to_next_badge: int | None
    streaks: Streaks
    points_by_grade: dict[str, int]
    badges: dict[str, int]


def parse_month(text: str | None, now: dt.datetime) -> dt.date:
    """The first day of the month ``YYYY-MM`` (default: this month, UTC); anything else
    is 422 ``bad_month``, a month not come yet 404 ``bad_month``.

    >>> parse_month("2026-02", dt.datetime(2026, 12, 3, tzinfo=dt.timezone.utc))
    datetime.date(2026, 2, 1)
    """
    current = today(now).replace(day=1)
    if text is None or text == "":
        return current
    found = MONTH.fullmatch(text) if isinstance(text, str) else None
    if found is None or int(found.group(1)) < 1:
        raise Unprocessable(N_("a month is written YYYY-MM, e.g. 2026-12"), code="bad_month")
    first = dt.date(int(found.group(1)), int(found.group(2)), 1)
    if first > current:
        raise NotFound(N_("that month has not come yet"), code="bad_month")
    return first


def title_of(game: str) -> str:
    try:
        return game_class(game).title
    except UnknownGameError:  # a game no longer played here
        return game


def points_of(grade: str | None) -> int:
    return POINTS.get(grade, UNGRADED_POINTS) if grade is not None else UNGRADED_POINTS


def badge(won: int) -> str | None:
    """The month's badge for ``won`` Dailies won in it (None below bronze)."""
    earned = [name for name, needed in BADGES if won >= needed]
    return earned[-1] if earned else None


def streaks(days_won: Iterable[dt.date], on: dt.date) -> Streaks:
    """The current and best runs of consecutive days in ``days_won``, on day ``on``."""
    won = set(days_won)
    best = 0
    for day in won:
        if day - dt.timedelta(days=1) in won:
            continue  # not the first day of a run
        length = 1
        while day + dt.timedelta(days=length) in won:
            length += 1
        best = max(best, length)
    end = on if on in won else on - dt.timedelta(days=1)
    current = 0
    while end - dt.timedelta(days=current) in won:
        current += 1
    return {"current": current, "best": best}


def result_of(status: str, day: dt.date, on: dt.date) -> str:
    """An attempt's result in the calendar: a game still being played after its day is
    over can take no more moves (lost)."""
    if status in ("won", "lost"):
        return status
    return "playing" if day >= on else "lost"


def month_calendar(engine: Engine, viewer: Viewer, first: dt.date, now: dt.datetime) -> DailyCalendar:
    """The signed-in player's Dailies of the month starting on ``first``."""
    if not viewer.signed_in:
        raise Unauthorized(N_("sign in to see your month of Dailies"), code="sign_in_required")
    on = today(now)
    last = first.replace(day=months.monthrange(first.year, first.month)[1])
    with Session(engine) as session:
        # Every attempt of the player (the best streak runs over all of them): a few
        # hundred rows a year at most.
        attempts = session.execute(
            select(DailyAttempt.game, DailyAttempt.day, GameRow.status, DailyDeal.grade)
            .join(GameRow, GameRow.id == DailyAttempt.game_id)
            .outerjoin(DailyDeal, and_(DailyDeal.game == DailyAttempt.game, DailyDeal.day == DailyAttempt.day))
            .where(DailyAttempt.user_id == viewer.user_id)
        ).all()
        drawn = session.execute(select(DailyDeal.game, DailyDeal.day, DailyDeal.grade).where(DailyDeal.day.between(first, last))).all()
    results: dict[tuple[dt.date, str], CalendarGame] = {}
    for game, day, grade in drawn:
        results[(day, game)] = {"game": game, "title": title_of(game), "status": "not_played", "grade": grade, "points": 0}
    days_won: set[dt.date] = set()
    for game, day, status, grade in attempts:
        result = result_of(status, day, on)
        if result == "won":
            days_won.add(day)
        if first <= day <= last:
            points = points_of(grade) if result == "won" else 0
            results[(day, game)] = {"game": game, "title": title_of(game), "status": result, "grade": grade, "points": points}
    days: list[CalendarDay] = []
    for number in range(1, last.day + 1):
        day = first.replace(day=number)
        games = sorted((entry for (when, _), entry in results.items() if when == day), key=lambda entry: entry["game"])
        days.append(
            {
                "date": day.isoformat(),
                "weekday": day.isoweekday(),
                "grade": grade_of_day(day).value,
                "today": day == on,
                "future": day > on,
                "won": sum(entry["status"] == "won" for entry in games),
                "played": sum(entry["status"] != "not_played" for entry in games),
                "points": sum(entry["points"] for entry in games),
                "games": games,
            }
        )
    won = sum(day["won"] for day in days)
    following = next(((name, needed) for name, needed in BADGES if won < needed), None)
    return {
        "month": f"{first.year:04d}-{first.month:02d}",
        "today": on.isoformat(),
        "days": days,
        "won": won,
        "played": sum(day["played"] for day in days),
        "points": sum(day["points"] for day in days),
        "badge": badge(won),
        "next_badge": None if following is None else following[0],
        "to_next_badge": None if following is None else following[1] - won,
        "streaks": streaks(days_won, on),
        "points_by_grade": dict(POINTS),
        "badges": dict(BADGES),
    }
