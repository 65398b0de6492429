"""Challenges: a deal with its settings sent to friends, and its own leaderboard
(:mod:`winnable.web.players.challenges`).

``POST /api/challenges`` makes one from one of the caller's games; ``GET
/api/challenges/{id}`` shows it (anyone with the link: it is a random token);
``POST /api/challenges/{id}/play`` deals it to the caller: the signed-in player's one
ranked attempt, else an unranked game of the same cards. The game is then played
through ``/api/games/{id}/...`` like any other (in the ranked attempt hints are refused
and restarts too). Nothing here accepts a result from the client.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from winnable.web.deps import Caller, Services, ServicesDep, ViewerDep, caller, database
from winnable.web.errors import Forbidden
from winnable.web.models import schemas
from winnable.web.models.responses import StateJSON
from winnable.web.pages.i18n import N_, locale_of, titled
from winnable.web.players.challenges import ChallengeList, ChallengeService, ChallengeView
from winnable.web.routes.auth import set_session

router = APIRouter(prefix="/api/challenges", tags=["challenges"])
Creator = Annotated[Caller, Depends(caller("create"))]
PROBLEMS: dict[int | str, dict[str, Any]] = {
    401: {"model": schemas.Problem},
    404: {"model": schemas.Problem},
    409: {"model": schemas.Problem},
    429: {"model": schemas.Problem},
}


def service(app: Services) -> ChallengeService:
    assert app.challenges is not None
    return app.challenges


@router.post("", status_code=201, response_model=schemas.ChallengeView, responses=PROBLEMS)
async def create(body: schemas.NewChallenge, request: Request, who: Creator) -> ChallengeView:
    """Make a challenge from one of your games, started or finished: the same cards, undo
    rule and thinking time for whoever opens its link (the same challenge if asked again
    for the same game). Signed-in players only (401); someone else's game is 404
    ``game_not_found``; a Daily of a day not over 409 ``challenge_daily``; past
    :data:`~winnable.web.players.challenges.PER_DAY` in 24 hours 429 ``challenge_limit``."""
    made = await database(who.app.settings, service(who.app).create, who.viewer, body.game_id)
    return titled([made], locale_of(request))[0]


@router.get("/mine", response_model=schemas.ChallengeList)
async def mine(request: Request, viewer: ViewerDep, app: ServicesDep) -> ChallengeList:
    """The challenges you made, newest first, with how many played each."""
    made = await database(app.settings, service(app).made_by, viewer)
    return {"challenges": titled(made, locale_of(request))}


@router.get("/{challenge_id}", response_model=schemas.ChallengeView, responses=PROBLEMS)
async def show(challenge_id: str, request: Request, viewer: ViewerDep, app: ServicesDep) -> ChallengeView:
    """A challenge: its game and settings, who made it, its leaderboard (ranked like the
    Daily's) and your attempt. Never its cards, nor anyone's moves."""
    found = await database(app.settings, service(app).view, challenge_id, viewer)
    return titled([found], locale_of(request))[0]


@router.post("/{challenge_id}/play", response_model=schemas.GameState, response_class=StateJSON, responses=PROBLEMS)
async def play(challenge_id: str, body: schemas.ChallengePlay, request: Request, who: Creator) -> StateJSON:
    """Deal the challenge to you: a signed-in player's one ranked attempt (its clock runs
    from the deal; asking again resumes it while it is played, and is 409
    ``challenge_played`` once it is over), else (a guest, its creator, or ``ranked:
    false``) an unranked game of the same cards and settings."""
    if request.headers.get("sec-fetch-site") in ("cross-site", "same-site"):
        # A link on another site must not start anyone's ranked clock.
        raise Forbidden(N_("a challenge is started from this site's pages"), code="cross_site")
    app = who.app
    guest = app.accounts.pending_guest() if who.viewer.session is None else None
    owner = guest.viewer if guest is not None else who.viewer
    store_guest = None if guest is None else (lambda cursor: app.accounts.store_guest(cursor, guest))
    state = await database(app.settings, service(app).attempt, who.viewer, challenge_id, body.ranked, owner, store_guest)
    response = StateJSON(state, status_code=201)
    if guest is not None:
        set_session(response, request, guest.token, app.settings.guest_days)
    return response
