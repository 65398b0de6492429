"""The signed-in player's account: download everything kept about it, delete it, or keep its
display and sound settings."""

from __future__ import annotations

import json
from typing import Any

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


@router.get(
    "/settings", response_model=schemas.PlayerSettings, response_model_exclude_none=True, responses={401: {"model": schemas.Problem}}
)
async def get_settings(viewer: ViewerDep, accounts: AccountsDep) -> dict[str, Any]:
    """The signed-in player's display and sound settings (``{}``: none saved yet)."""
    return await run_in_threadpool(accounts.settings, viewer)


@router.put(
    "/settings", response_model=schemas.PlayerSettings, response_model_exclude_none=True, responses={401: {"model": schemas.Problem}}
)
async def put_settings(body: schemas.PlayerSettings, viewer: ViewerDep, accounts: AccountsDep) -> dict[str, Any]:
    """Keep the signed-in player's display and sound settings with the account (in place
    of those kept before), so that every browser the player signs in on gets them."""
    return await run_in_threadpool(accounts.set_settings, viewer, body.model_dump(exclude_none=True))
