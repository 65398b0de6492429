"""The whole winning line from a position ("show me"), and taking over from it.

``GET /api/games/{id}/solution`` is help like a hint: the same gate (403
``daily_no_help``, ``challenge_no_help``, ``challenge_open``), the same ``hint`` rate
limit, the same budget; a search (off the game's kept line only) is admitted to the
solver's shares and counted against the ``solver`` limit first, as a hint's. It marks
the game assisted. ``POST /api/games/{id}/solution/play`` plays the start of the shown
line as the player's own moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from winnable.web.deps import Caller, ClientDep, ServicesDep, ViewerDep, caller, database, rate_limit
from winnable.web.errors import NotFound
from winnable.web.models import schemas
from winnable.web.models.responses import StateJSON
from winnable.web.pages.i18n import N_, locale_of, translate
from winnable.web.play.lookup import MAX_MOVES
from winnable.web.play.solution import Solution, solution
from winnable.web.routes.solver import hint_search

if TYPE_CHECKING:
    from winnable.game import Position
    from winnable.web.play.store import Snapshot

router = APIRouter(prefix="/api/games", tags=["solver"])
Player = Annotated[Caller, Depends(caller("play"))]


@router.get("/{game_id}/solution", response_model=schemas.Solution, dependencies=[Depends(rate_limit("hint"))])
async def get_solution(
    game_id: str,
    app: ServicesDep,
    client: ClientDep,
    viewer: ViewerDep,
    request: Request,
    at: int | None = Query(
        None,
        ge=0,
        le=MAX_MOVES,
        description="Show the line from the position after this many of the game's moves (default: all of them); past those of the game: 404 `bad_position`.",
    ),
) -> Solution:
    """A winning line from the game's position (or from the position after its first
    ``at`` moves: after a loss, the last one still winnable), every position of it as
    the page draws it and every move with what it does on the table (``why``). The
    game's kept hint line where the position is on it, else a search within the hint's
    budget (409 ``not_winnable`` when none is found). The game counts as assisted. Off
    where hints are (403 ``daily_no_help``, ``challenge_no_help``, ``challenge_open``)."""
    games, settings = app.games, app.settings

    def load() -> tuple[Snapshot, dict[str, Any] | None]:
        return games.store.snapshot(game_id, viewer, "hint"), games.store.kept_line(game_id)

    game, line = await database(settings, load)
    start = len(game.moves) if at is None else at
    if start > len(game.moves):
        raise NotFound(N_("at must be between 0 and {n} (the moves played)", n=len(game.moves)), code="bad_position")

    def prefix(k: int) -> Position:
        return games.positions.after(game.game, game.deal, game.moves[:k])

    with hint_search(request, app.solver, client, viewer.signed_in) as searching:
        shown = await solution(app.solver, game, start, prefix, settings.hint_seconds, client, line, searching)
    if game.status != "won":
        keep = shown.keep if game.status == "playing" else None
        await database(settings, games.store.count_hint, game_id, keep)
    locale = locale_of(request)
    for frame in shown.body["frames"]:
        if frame["why"] is not None:
            frame["why"] = translate(frame["why"], locale)
    return shown.body


@router.post("/{game_id}/solution/play", response_model=schemas.GameState, response_class=StateJSON)
async def take_over(game_id: str, body: schemas.TakeOver, who: Player) -> StateJSON:
    """Take over from a shown line: play its first moves as the player's own, all or
    none, from the game's position (409 ``stale`` when the game is no longer at the
    line's ``from``; 409 ``illegal_move`` when one is not legal, and nothing is played).
    Off where hints are (403). What could be redone is cleared."""
    app = who.app
    return StateJSON(await database(app.settings, app.games.take_over, game_id, body.start, body.moves, who.viewer))
