"""A player's statistics per game (``/api/stats``): the signed-in player's, or this
browser's guest games' (see :mod:`winnable.web.players.stats`); and the record of one
deal (``/api/stats/record/{game_id}``)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from winnable.web.deps import ServicesDep, ViewerDep, database
from winnable.web.models import schemas
from winnable.web.pages.i18n import locale_of, titled
from winnable.web.players.stats import DealRecord, Statistics, record_for, statistics_for

router = APIRouter(prefix="/api/stats", tags=["players"])


@router.get("", response_model=schemas.Statistics)
async def statistics(app: ServicesDep, viewer: ViewerDep, request: Request) -> Statistics:
    """Played, won, win rate, streaks, records, Penguin's partial and speed scores per
    game, and every played game's result for the plot over time."""
    found = await database(app.settings, statistics_for, app.engine, viewer, app.games.clock())
    titled(found["games"], locale_of(request))
    titled(found["records"], locale_of(request))
    return found


@router.get("/record/{game_id}", response_model=schemas.DealRecord, responses={404: {"model": schemas.Problem}})
async def record(game_id: str, app: ServicesDep, viewer: ViewerDep, request: Request) -> DealRecord:
    """Your record of the deal of your game ``game_id``: your games of that deal side by
    side (date, result, time, moves, undos, hints), oldest first. Another player's game
    is 404 ``game_not_found``."""
    found = await database(app.settings, record_for, app.engine, viewer, game_id, app.games.clock())
    return titled([found], locale_of(request))[0]
