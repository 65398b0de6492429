"""A player's statistics per game (``/api/stats``): the signed-in player's, or this
browser's guest games' (see :mod:`winnable.web.players.stats`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from winnable.web.models import schemas
from winnable.web.deps import ServicesDep, ViewerDep, database
from winnable.web.pages.i18n import locale_of, titled
from winnable.web.players.stats import statistics_for

router = APIRouter(prefix="/api/stats", tags=["players"])


@router.get("", response_model=schemas.Statistics)
async def statistics(app: ServicesDep, viewer: ViewerDep, request: Request) -> dict[str, Any]:
    """Played, won, win rate, streaks, records, Penguin's partial and speed scores per
    game, and every played game's result for the plot over time."""
    found = await database(app.settings, statistics_for, app.engine, viewer, app.games.clock())
    titled(found.get("games", []), locale_of(request))
    return found
