"""Sign up, sign in, sign out, and who is signed in (``/api/auth/...``).

The session lives in an HttpOnly, ``SameSite=Lax`` cookie (``Secure`` over HTTPS) and in
the database (see :mod:`winnable.web.accounts`). Signing up or in always starts a new
session: the cookie sent before is worth nothing after. A wrong name and a wrong
password get the same 401; sign-in is rate-limited per client and per name (429).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from starlette.concurrency import run_in_threadpool

from winnable.web import i18n, schemas
from winnable.web.accounts import COOKIE, Viewer
from winnable.web.deps import AccountsDep, ClientDep, LimitsDep, SettingsDep, ViewerDep, rate_limit

router = APIRouter(prefix="/api/auth", tags=["players"])


def set_session(response: Response, request: Request, token: str, days: float) -> None:
    response.set_cookie(COOKIE, token, max_age=int(days * 86400), path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


def clear_session(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")


def me(viewer: Viewer) -> dict[str, Any]:
    return {"signed_in": viewer.signed_in, "name": viewer.name, "guest": viewer.session is not None and not viewer.signed_in}


@router.post("/signup", status_code=201, response_model=schemas.Me, dependencies=[Depends(rate_limit("signup"))])
async def signup(body: schemas.NewAccount, request: Request, response: Response, accounts: AccountsDep,
                 settings: SettingsDep) -> dict[str, Any]:
    """Make an account and sign in with it; this browser's guest games become the account's.
    422 ``bad_name`` / ``bad_password`` when a field breaks its rule, 409 ``name_taken``."""
    viewer, token = await run_in_threadpool(accounts.signup, body.name, body.password, request.cookies.get(COOKIE))
    set_session(response, request, token, settings.session_days)
    chosen = i18n.supported(request.cookies.get(i18n.COOKIE))
    if chosen:  # the language this browser chose becomes the account's
        await run_in_threadpool(accounts.set_language, viewer.user_id, chosen)
    return me(viewer)


@router.post("/login", response_model=schemas.Me, responses={401: {"model": schemas.Problem}})
async def login(body: schemas.Credentials, request: Request, response: Response, accounts: AccountsDep,
                settings: SettingsDep, limits: LimitsDep, client: ClientDep) -> dict[str, Any]:
    """Sign in (a new session; the old one ends, its guest games become the account's).
    401 ``bad_credentials`` for a wrong name or password alike; 429 past the limits."""
    limits.check("login", client)
    limits.check("login_name", body.name.lower()[:64])
    viewer, token = await run_in_threadpool(accounts.login, body.name, body.password, request.cookies.get(COOKIE))
    set_session(response, request, token, settings.session_days)
    chosen = await run_in_threadpool(accounts.language, viewer.user_id)
    if chosen:  # the player's language, on this device too
        i18n.remember(response, chosen, secure=request.url.scheme == "https")
    return me(viewer)


@router.post("/logout", response_model=schemas.Me)
async def logout(body: schemas.Empty, request: Request, response: Response, accounts: AccountsDep) -> dict[str, Any]:
    """Sign out: the session ends on the server and the cookie is cleared."""
    await run_in_threadpool(accounts.logout, request.cookies.get(COOKIE))
    clear_session(response, request)
    return me(Viewer())


@router.get("/me", response_model=schemas.Me)
async def who(viewer: ViewerDep) -> dict[str, Any]:
    """Who this browser is: a signed-in player (``name``), a guest with games, or nobody."""
    return me(viewer)

