"""Stored games: create one, read it, play a move, undo, redo, restart, replay its history.

Moves are checked by the game's rules; a refused call changes nothing (409 with the
rules' reason for an illegal move). State-changing calls send a JSON body (``{}`` when
there is nothing to say) from this site's pages (see :mod:`winnable.web.security.csrf`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request

from winnable.games import game_class
from winnable.web.deps import Caller, ServicesDep, ViewerDep, caller, database
from winnable.web.errors import Conflict
from winnable.web.models import schemas
from winnable.web.models.responses import StateJSON
from winnable.web.pages.i18n import N_
from winnable.web.play.games import PositionAt
from winnable.web.play.lookup import MAX_MOVES, lookup_game, parse_deal
from winnable.web.play.pool import GRADE_WORDS, Found
from winnable.web.play.positions import initial
from winnable.web.play.state import GameState
from winnable.web.routes.auth import set_session

router = APIRouter(prefix="/api/games", tags=["play"])
GAME_ID = "Game id, as returned when the game was created."
# The hot routes (every move, every read, every new game) take the services, the viewer
# and their rate limit from one dependency, and answer the game state as StateJSON: it is
# the GameState model's fields already (see winnable.web.models.responses).
Reader = Annotated[Caller, Depends(caller())]
Player = Annotated[Caller, Depends(caller("play"))]
Creator = Annotated[Caller, Depends(caller("create"))]


@router.post("", status_code=201, response_model=schemas.GameState, response_class=StateJSON, tags=["games"])
async def new_game(body: schemas.NewGame, request: Request, who: Creator) -> StateJSON:
    """Start a game: deal N, a random deal, or (``winnable: true``) a deal the solver proved winnable.

    A winnable deal comes from the pool of proved deals in the database (header
    ``X-Winnable-Source: pool``), or one dealt before when every proved deal of the game
    has been (``reused``). No search runs for the request: a game none of whose deals has
    been proved winnable yet answers 409 ``no_winnable_deal`` at once. With ``grade``
    (easy, medium, hard, expert) the deal is one of that grade, as the solver graded it;
    none of that grade proved yet: 409 ``no_graded_deal``. The state's ``grade`` says how
    hard the deal is (null when not graded).

    The game belongs to the signed-in player, or else to this browser's guest session
    (started here if there is none: a cookie, stored with the game, never for a refused
    request). ``think`` starts Black Hole's timed play. A game that may take hints has its
    deal searched in the background at once (``hint_presearch``: a longer search, see
    :mod:`winnable.web.play.longer`), so that its first hint is ready when asked. (No
    deal number is ever a Daily: Dailies are dealt from secret deck orders, so nothing
    here tells whether a number is one.)
    """
    game_id = lookup_game(body.game).game_id
    if body.grade is not None and not body.winnable:
        raise Conflict(N_("a grade is for winnable deals: send winnable: true with it"), code="bad_grade")
    app = who.app
    games, pool, solver = app.games, app.pool, app.solver
    # A new guest's session is stored with the game, in its transaction: a request refused
    # on the way (no winnable deal, a bad deal) writes nothing.
    guest = app.accounts.pending_guest() if who.viewer.session is None else None
    owner = guest.viewer if guest is not None else who.viewer
    store_guest = None if guest is None else lambda cursor: app.accounts.store_guest(cursor, guest)

    def create() -> tuple[GameState | None, Found | None]:
        if not body.winnable:
            # A deal asked for by number shows its grade when the solver graded it.
            grade = pool.grade_of(game_id, parse_deal(body.deal)) if body.deal is not None else None
            state = games.create(game_id, body.deal, body.undo, owner=owner, think_seconds=body.think, before=store_guest, grade=grade)
            return state, None
        found = pool.deal_for(game_id, body.grade)
        if found is None:
            return None, None  # refused below
        state = games.create(
            game_id,
            found.deal,
            body.undo,
            True,
            owner=owner,
            think_seconds=body.think,
            before=store_guest,
            line=found.line,
            grade=found.grade,
        )
        if found.line:  # the pool's proof makes the first hints instant
            solver.remember_line(initial(game_id, found.deal), found.line)
        return state, found

    state, found = await database(app.settings, create)
    if body.winnable and found is None:
        title = N_(game_class(game_id).title)
        if body.grade is not None:
            raise Conflict(
                N_(
                    "no {game} deal graded {grade} has been proved yet; choose another grade, or try again later",
                    game=title,
                    grade=GRADE_WORDS[body.grade],
                ),
                code="no_graded_deal",
            )
        raise Conflict(
            N_("no {game} deal has been proved winnable yet; play any deal, or try again later", game=title), code="no_winnable_deal"
        )
    presearch = app.settings.hint_presearch and state is not None and state["hint_allowed"]
    if presearch and state is not None and isinstance(state["deal"], int) and not (found and found.line):
        solver.presearch(initial(game_id, state["deal"]), who.client)  # the first hint ready when asked
    response = StateJSON(state, status_code=201)
    if guest is not None:
        set_session(response, request, guest.token, app.settings.guest_days)
    if body.winnable and found is not None:  # else refused above
        response.headers["X-Winnable-Source"] = "pool" if found.from_pool else "reused"
    return response


@router.get("/{game_id}", response_model=schemas.GameState, response_class=StateJSON)
async def get_game(game_id: str, who: Reader) -> StateJSON:
    """A stored game: its moves, the position, the legal moves and the score (a signed-in
    player's games are that player's only)."""
    app = who.app
    return StateJSON(await database(app.settings, app.games.state, game_id, who.viewer))


@router.post("/{game_id}/moves", response_model=schemas.GameState, response_class=StateJSON)
async def play_move(game_id: str, body: schemas.PlayMove, who: Player) -> StateJSON:
    """Play one move (409 with the rules' reason when it is illegal; timed play: 409
    ``time_out`` when it comes too late, and the game is lost); with ``auto``, then every
    safe move to the foundations it opens (the state's ``safe``)."""
    app = who.app
    return StateJSON(await database(app.settings, app.games.play, game_id, body.move, body.auto, who.viewer))


@router.post("/{game_id}/undo", response_model=schemas.GameState, response_class=StateJSON)
async def undo(game_id: str, body: schemas.Undo, who: Player) -> StateJSON:
    """Take back the last move (409 when the game's undo mode forbids it); with ``auto``,
    together with the safe moves home played after it, as one undo."""
    app = who.app
    return StateJSON(await database(app.settings, app.games.undo, game_id, body.auto, who.viewer))


@router.post("/{game_id}/redo", response_model=schemas.GameState, response_class=StateJSON)
async def redo(game_id: str, body: schemas.Empty, who: Player) -> StateJSON:
    """Play again what the last undo took back (the move, and the safe moves home that
    came with it); 409 ``nothing_to_redo`` when nothing was undone since the last move
    (the state's ``redo_left``). Another move, a restart or a take-over clears it; the
    undo stays counted."""
    app = who.app
    return StateJSON(await database(app.settings, app.games.redo, game_id, who.viewer))


@router.post("/{game_id}/restart", response_model=schemas.GameState, response_class=StateJSON)
async def restart(game_id: str, body: schemas.Empty, who: Player) -> StateJSON:
    """Start the same deal again (not a Daily: 409 ``daily_no_restart``)."""
    app = who.app
    return StateJSON(await database(app.settings, app.games.restart, game_id, who.viewer))


@router.get("/{game_id}/position", response_model=schemas.PositionAt)
async def position_at(
    game_id: str,
    app: ServicesDep,
    viewer: ViewerDep,
    at: int = Query(..., ge=0, le=MAX_MOVES, description="Moves played from the deal; past those of the game: 404 `bad_position`."),
) -> PositionAt:
    """The position after the first ``at`` moves (to replay a game)."""
    return await database(app.settings, app.games.position_at, game_id, at, viewer)
