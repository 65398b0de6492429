"""Hints and analyses: the solver's answers on a stored game.

A hint from the game's kept line (see :mod:`winnable.web.solving`) costs no search: it
counts against no solver quota and takes no place in the queue. A search runs through
the solver queue within a time budget (the server's default, or ``?seconds=`` up to the
server's cap: above it 422 ``budget_too_large``) and counts against the client's
``solver`` rate limit (429 past it); a full queue answers 503 ``solver_busy`` with
``Retry-After``, a client over its share 429.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request

from winnable.web import schemas
from winnable.web.deps import ClientDep, ServicesDep, ViewerDep, database
from winnable.web.errors import Unprocessable
from winnable.web.i18n import N_, locale_of, translate
from winnable.web.solving import analysis, hint

router = APIRouter(prefix="/api/games", tags=["solver"])


def solver_quota(request: Request, client: str):
    """What a search calls first: the client's ``solver`` rate limit (429 past it)."""
    limits = request.app.state.limits
    return lambda: limits.check("solver", client)


def budget(seconds: float | None, default: float, cap: float, what: str) -> float:
    if seconds is None:
        return default
    if seconds > cap:
        raise Unprocessable(N_("seconds must be at most {cap} (the server's cap for {what})", cap=format(cap, "g"), what=what),
                            code="budget_too_large")
    return seconds


Seconds = Query(None, gt=0, allow_inf_nan=False, description="Time budget in seconds (default and cap: the server's).")


@router.get("/{game_id}/hint", response_model=schemas.Hint)
async def get_hint(game_id: str, app: ServicesDep, client: ClientDep, viewer: ViewerDep, request: Request,
                   seconds: float | None = Seconds) -> dict[str, Any]:
    """The next move of a winning line from here, or the verdict (lost / unknown). A
    player who follows the hints follows one line, kept with the game: it wins, and its
    ``line_length`` (moves to win) never grows. Every hint is counted: a game won with
    hints is assisted. Off in the Daily (403 ``daily_no_help``)."""
    games, settings = app.games, app.settings
    seconds = budget(seconds, settings.hint_seconds, settings.hint_max_seconds, N_("a hint"))

    def load():
        game = games.snapshot(game_id, viewer, "hint")
        parent = games.positions.after(game.game, game.deal, game.moves[:-1]) if game.moves else None
        return game, parent, games.kept_line(game_id)

    game, parent, line = await database(settings, load)

    def prefix(k: int):
        return games.positions.after(game.game, game.deal, game.moves[:k])

    answer = await hint(app.solver, game, seconds, parent, client, line, prefix, solver_quota(request, client))
    if game.status == "playing":
        await database(settings, games.count_hint, game_id, answer.keep)
    return in_language(answer.body, request)


@router.get("/{game_id}/analysis", response_model=schemas.Analysis)
async def get_analysis(game_id: str, app: ServicesDep, client: ClientDep, viewer: ViewerDep, request: Request,
                       seconds: float | None = Seconds) -> dict[str, Any]:
    """Still winnable? After a loss: the move that lost it and a better one. Off in the
    Daily until its day is over (403 ``daily_no_help``)."""
    games, settings = app.games, app.settings
    seconds = budget(seconds, settings.analysis_seconds, settings.analysis_max_seconds, N_("an analysis"))
    game = await database(settings, games.snapshot, game_id, viewer, "analysis")

    def prefix(k: int):
        return games.positions.after(game.game, game.deal, game.moves[:k])

    line = await database(settings, games.kept_line, game_id)
    answer = await analysis(app.solver, game, prefix, seconds, client, line, solver_quota(request, client))
    if answer.keep is not None and game.status == "playing":
        await database(settings, games.keep_line, game_id, answer.keep)
    return in_language(answer.body, request)


def in_language(answer: dict[str, Any], request: Request) -> dict[str, Any]:
    """The answer with its ``message`` in the request's language (moves stay in notation)."""
    if "message" in answer:
        answer["message"] = translate(answer["message"], locale_of(request))
    return answer
