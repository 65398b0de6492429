"""Sign up, sign in, sign out, and who is signed in (``/api/auth/...``).

The session lives in an HttpOnly, ``SameSite=Lax`` cookie (``Secure`` over HTTPS) and in
the database (see :mod:`winnable.web.players.accounts`). Signing up or in always starts a new
session: the cookie sent before is worth nothing after, and gives the browser a device
cookie for the account (:mod:`winnable.web.security.devices`). A wrong name and a wrong password
get the same 401. Sign-in is rate-limited per client address, and per name for browsers
without a device cookie of the account, per device cookie for those with one (429 with
``Retry-After``): guessing from elsewhere locks no owner out of a browser they used, and
a name under guessing asks a new browser for a proof of work (ALTCHA) rather than
refusing it (:mod:`winnable.web.security.proof`).
"""

from __future__ import annotations

from typing import TypedDict

from fastapi import APIRouter, Depends, Request, Response
from starlette.concurrency import run_in_threadpool

from winnable.web.deps import AccountsDep, ClientDep, LimitsDep, ServicesDep, SettingsDep, ViewerDep, database, rate_limit
from winnable.web.errors import TooManyRequests, Unauthorized
from winnable.web.models import schemas
from winnable.web.pages import i18n
from winnable.web.players.accounts import COOKIE, AccountService
from winnable.web.security import devices
from winnable.web.security import proof as proof_of_work
from winnable.web.security.identity import Viewer
from winnable.web.settings import Settings

router = APIRouter(prefix="/api/auth", tags=["players"])


def set_session(response: Response, request: Request, token: str, days: float) -> None:
    response.set_cookie(
        COOKIE, token, max_age=int(days * 86400), path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


def clear_session(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")


async def remember_device(response: Response, request: Request, accounts: AccountService, settings: Settings, viewer: Viewer) -> None:
    """Give the browser a fresh device token for the account it just signed in to (kept
    beside its tokens of other accounts)."""
    token = await database(settings, accounts.issue_device, viewer.user_id)
    if token is not None:
        response.set_cookie(
            devices.COOKIE,
            devices.kept(token, request.cookies.get(devices.COOKIE)),
            max_age=int(settings.device_days * 86400),
            path="/api/auth",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )


class Me(TypedDict):
    """Who the browser is (the API's ``Me``)."""

    signed_in: bool
    name: str | None
    guest: bool


def me(viewer: Viewer) -> Me:
    return {"signed_in": viewer.signed_in, "name": viewer.name, "guest": viewer.session is not None and not viewer.signed_in}


@router.post("/signup", status_code=201, response_model=schemas.Me, dependencies=[Depends(rate_limit("signup"))])
async def signup(body: schemas.NewAccount, request: Request, response: Response, accounts: AccountsDep, settings: SettingsDep) -> Me:
    """Make an account and sign in with it; this browser's guest games become the account's.
    422 ``bad_name`` / ``bad_password`` when a field breaks its rule, 409 ``name_taken``."""
    viewer, token = await run_in_threadpool(accounts.signup, body.name, body.password, request.cookies.get(COOKIE))
    set_session(response, request, token, settings.session_days)
    await remember_device(response, request, accounts, settings, viewer)
    chosen = i18n.supported(request.cookies.get(i18n.COOKIE))
    if chosen:  # the language this browser chose becomes the account's
        await run_in_threadpool(accounts.set_language, viewer.user_id, chosen)
    return me(viewer)


@router.post(
    "/login",
    response_model=schemas.Me,
    responses={401: {"model": schemas.ProofProblem}, 403: {"model": schemas.ProofProblem}, 429: {"model": schemas.ProofProblem}},
)
async def login(
    body: schemas.Credentials,
    request: Request,
    response: Response,
    services: ServicesDep,
    accounts: AccountsDep,
    settings: SettingsDep,
    limits: LimitsDep,
    client: ClientDep,
) -> Me:
    """Sign in (a new session; the old one ends, its guest games become the account's).
    401 ``bad_credentials`` for a wrong name or password alike; 429 past the limits, with
    ``Retry-After``: per address, then per device cookie of the account if the browser
    has a valid one, else per name (all browsers without one together).

    A name past its limit is under guessing: its 429 (and the 401 of a wrong password
    while it lasts) carries ``altcha``, a proof-of-work challenge; a sign-in sending it
    solved (``altcha`` in the body) is counted apart from the name's guesses, so its
    owner is never locked out. A proof expired, used before, made for another name or
    not solved: 403 ``altcha_invalid``, with a fresh one."""
    limits.check("login", client)
    device = await database(settings, accounts.trusted_device, body.name, request.cookies.get(devices.COOKIE))
    name = proof_of_work.name_key(body.name)
    proof = services.proof
    proved = False
    if device is not None:
        limits.check("login_device", device)
    elif body.altcha is not None and proof is not None:  # solved: counted apart from the name's guesses
        refused = proof.refusal(body.altcha, body.name)
        if refused is not None:
            raise proof_of_work.ProofRefused(refused, proof.challenge(body.name))
        proved = True
    else:
        try:
            limits.check("login_name", name)
        except TooManyRequests as error:  # a name under guessing: its owner proves a second of work instead
            if proof is None:
                raise
            raise proof_of_work.TooManyWithProof(error, proof.challenge(body.name)) from None
    try:
        viewer, token = await run_in_threadpool(accounts.login, body.name, body.password, request.cookies.get(COOKIE))
    except Unauthorized as error:
        if proof is not None and device is None and (proved or limits.exhausted("login_name", name)):
            raise proof_of_work.UnauthorizedWithProof(error, proof.challenge(body.name)) from None
        raise
    set_session(response, request, token, settings.session_days)
    await remember_device(response, request, accounts, settings, viewer)
    chosen = await run_in_threadpool(accounts.language, viewer.user_id)
    if chosen:  # the player's language, on this device too
        i18n.remember(response, chosen, secure=request.url.scheme == "https")
    return me(viewer)


@router.post("/logout", response_model=schemas.Me)
async def logout(body: schemas.Empty, request: Request, response: Response, accounts: AccountsDep) -> Me:
    """Sign out: the session ends on the server and the cookie is cleared."""
    await run_in_threadpool(accounts.logout, request.cookies.get(COOKIE))
    clear_session(response, request)
    return me(Viewer())


@router.get("/me", response_model=schemas.Me)
async def who(viewer: ViewerDep) -> Me:
    """Who this browser is: a signed-in player (``name``), a guest with games, or nobody."""
    return me(viewer)
