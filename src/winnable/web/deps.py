"""What routes depend on, reached through ``Depends`` from ``app.state`` (set up once by
:func:`winnable.web.app.create_app`): the settings, the services, the client's identity
and the per-route rate limits. Every dependency here is ``async`` so that FastAPI calls
it in the event loop, not through a thread.

A route asks for what it needs by type::

    @router.get("/api/things/{id}")
    async def thing(id: str, games: GamesDep, client: ClientDep) -> ...

and a stricter rate limit with ``dependencies=[Depends(rate_limit("solver"))]``.
"""

from __future__ import annotations

from typing import Annotated, Callable

from fastapi import Depends, Request

from starlette.concurrency import run_in_threadpool

from winnable.web.accounts import COOKIE, AccountService, Viewer
from winnable.web.csrf import CsrfPolicy
from winnable.web.daily import DailyService
from winnable.web.pool import WinnablePool
from winnable.web.ratelimit import RateLimits, client_key
from winnable.web.service import GameService
from winnable.web.settings import Settings
from winnable.web.solving import Solver


async def get_settings(request: Request) -> Settings:
    return request.app.state.settings


async def get_games(request: Request) -> GameService:
    return request.app.state.games


async def get_solver(request: Request) -> Solver:
    return request.app.state.solver


async def get_pool(request: Request) -> WinnablePool:
    return request.app.state.pool


async def get_limits(request: Request) -> RateLimits:
    return request.app.state.limits


async def get_csrf(request: Request) -> CsrfPolicy:
    return request.app.state.csrf


async def get_accounts(request: Request) -> AccountService:
    return request.app.state.accounts


async def get_daily(request: Request) -> DailyService:
    return request.app.state.daily


async def get_viewer(request: Request) -> Viewer:
    """Who is asking, from the session cookie: a signed-in player, a guest, or nobody."""
    token = request.cookies.get(COOKIE)
    if not token:
        return Viewer()
    return await run_in_threadpool(request.app.state.accounts.viewer, token)


async def get_client(request: Request) -> str:
    """Who is asking, for rate limits and the solver queue's fairness: the client's
    address (IPv6: its /64). With sign-in, an account may take its place."""
    client = request.client
    return client_key(client.host if client else None)


SettingsDep = Annotated[Settings, Depends(get_settings)]
GamesDep = Annotated[GameService, Depends(get_games)]
SolverDep = Annotated[Solver, Depends(get_solver)]
PoolDep = Annotated[WinnablePool, Depends(get_pool)]
LimitsDep = Annotated[RateLimits, Depends(get_limits)]
CsrfDep = Annotated[CsrfPolicy, Depends(get_csrf)]
ClientDep = Annotated[str, Depends(get_client)]
AccountsDep = Annotated[AccountService, Depends(get_accounts)]
DailyDep = Annotated[DailyService, Depends(get_daily)]
ViewerDep = Annotated[Viewer, Depends(get_viewer)]


def rate_limit(name: str) -> Callable:
    """A dependency counting the request against the named limit (429 past it)."""

    async def check(limits: LimitsDep, client: ClientDep) -> None:
        limits.check(name, client)

    check.__name__ = f"rate_limit_{name}"
    return check
