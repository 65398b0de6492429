"""The Daily: today's deal of a game for every signed-in player, and its leaderboards.

``GET /api/daily/{game}`` starts the player's one attempt at today's Daily (UTC) or
resumes it, and answers the attempt's game state: it is then played through
``/api/games/{id}/...`` like any game (hints refused, undos counted, no restart).
Nothing here or anywhere accepts a result from the client.
"""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from winnable.web.deps import ServicesDep, ViewerDep, database
from winnable.web.errors import Forbidden
from winnable.web.models import schemas
from winnable.web.pages.i18n import N_, locale_of, titled
from winnable.web.play.state import GameState
from winnable.web.players.calendar import DailyCalendar, month_calendar, parse_month
from winnable.web.players.daily import DailyOverview, Leaderboard, parse_day

router = APIRouter(prefix="/api/daily", tags=["daily"])

DATE_PATTERN = (
    r"^(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])-(?:0[1-9]|1[0-2])"
    r"-(?:0[1-9]|[12][0-9]|3[01])$"
)
"""A day as ISO 8601 writes it, year 1 to 9999 (with ``format: date``: a real day)."""


@router.get("", response_model=schemas.DailyOverview)
async def overview(viewer: ViewerDep, app: ServicesDep, request: Request) -> DailyOverview:
    """Today's Dailies: the games that have one, the time to the next, the player's rank.
    Starts nothing. Titles in the request's language."""
    found = await database(app.settings, app.daily.overview, viewer)
    titled(found["games"], locale_of(request))
    return found


@router.get("/calendar", response_model=schemas.DailyCalendar, responses={401: {"model": schemas.Problem}})
async def calendar(
    viewer: ViewerDep,
    app: ServicesDep,
    request: Request,
    month: str | None = Query(
        None,
        max_length=7,
        pattern=r"^([1-9][0-9]{3}-(0[1-9]|1[0-2]))?$",
        description="YYYY-MM (UTC); default this month; malformed: 422 `bad_month`; a month not come yet: 404 `bad_month`.",
    ),
) -> DailyCalendar:
    """The signed-in player's month of Dailies (401 for a guest): each day's grade (it
    follows the week: Monday and Tuesday easy, Wednesday and Thursday medium, Friday and
    Saturday hard, Sunday expert) and the result of each game's Daily (won, lost, playing,
    not played); the points of the Dailies won (easy 1, medium 2, hard 3, expert 5), the
    month's badge by Dailies won (bronze 5, silver 15, gold 30) and the Daily streaks
    (days in a row with a Daily won). All from the stored attempts."""
    first = parse_month(month, app.daily.now())
    found = await database(app.settings, month_calendar, app.engine, viewer, first, app.daily.now())
    for day in found["days"]:
        titled(day["games"], locale_of(request))
    return found


@router.get("/{game}", response_model=schemas.GameState, responses={401: {"model": schemas.Problem}})
async def today(game: str, request: Request, viewer: ViewerDep, app: ServicesDep) -> GameState:
    """Start or resume the signed-in player's attempt at today's Daily of ``game`` (401
    for a guest; 409 ``daily_unavailable`` when no deal of the game is proved yet; 409
    ``daily_played`` when the name played it under an account since deleted: one attempt
    per name and day). The clock runs from the deal; the state has no deal number (the
    Daily is a secret deck order)."""
    if request.headers.get("sec-fetch-site") in ("cross-site", "same-site"):
        # A link on another site must not start anyone's clock.
        raise Forbidden(N_("the Daily is started from this site's pages"), code="cross_site")
    return await database(app.settings, app.daily.attempt, viewer, game)


@router.get("/{game}/leaderboard", response_model=schemas.Leaderboard)
async def leaderboard(
    game: str,
    viewer: ViewerDep,
    app: ServicesDep,
    request: Request,
    date: str | None = Query(
        None,
        min_length=10,
        max_length=10,
        pattern=DATE_PATTERN,
        json_schema_extra={"format": "date"},
        description="YYYY-MM-DD (UTC), from 0001-01-01; default today; a day not yet come: 404 `bad_date`.",
    ),
    limit: int = Query(50, ge=1, le=200),
    offset: int = Query(0, ge=0, le=10**6),
) -> Leaderboard:
    """The ranked attempts of a day: wins by time then moves, then the others by cards
    left (Penguin: partial score). The Daily's cards (``layout``: its deck order) are
    shown once the day is over, never before."""
    day = parse_day(date, app.daily.now())
    board = await database(app.settings, app.daily.leaderboard, game, day, viewer, limit, offset)
    return titled([board], locale_of(request))[0]
