"""The signed-in player's account: download everything kept about it, or delete it."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from winnable.web.deps import AccountsDep, ViewerDep
from winnable.web.models import schemas
from winnable.web.players.accounts import AccountExport
from winnable.web.routes.auth import clear_session

router = APIRouter(prefix="/api/account", tags=["players"])


@router.get("/export", response_model=schemas.AccountExport, responses={401: {"model": schemas.Problem}})
async def export(viewer: ViewerDep, accounts: AccountsDep, response: Response) -> AccountExport:
    """Everything kept about the signed-in player (account, games with their moves,
    Daily attempts), as a JSON file to download."""
    data = await run_in_threadpool(accounts.export, viewer)
    response.headers["Content-Disposition"] = f'attachment; filename="winnable-{viewer.name}.json"'
    return data


@router.post("/delete", response_model=schemas.Me, responses={401: {"model": schemas.Problem}})
async def delete(body: schemas.Password, request: Request, viewer: ViewerDep, accounts: AccountsDep) -> Response:
    """Delete the account (its password again, to be sure): its name, sessions and games
    go; its Daily results stay on the leaderboards without a name."""
    await run_in_threadpool(accounts.delete, viewer, body.password)
    response = Response(json.dumps({"signed_in": False, "name": None, "guest": False}), media_type="application/json")
    clear_session(response, request)
    return response
