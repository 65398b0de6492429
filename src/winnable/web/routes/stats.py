"""A player's statistics per game (``/api/stats``): the signed-in player's, or this
browser's guest games' (see :mod:`winnable.web.stats`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from winnable.web import schemas
from winnable.web.deps import ViewerDep
from winnable.web.stats import statistics_for

router = APIRouter(prefix="/api/stats", tags=["players"])


@router.get("", response_model=schemas.Statistics)
async def statistics(request: Request, viewer: ViewerDep) -> dict[str, Any]:
    """Played, won, win rate, streaks, records, Penguin's partial and speed scores per
    game, and every played game's result for the plot over time."""
    games = request.app.state.games
    return await run_in_threadpool(statistics_for, games.engine, viewer, games.clock())
