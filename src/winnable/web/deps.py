"""What routes depend on, reached through ``Depends`` from ``app.state`` (set up once by
:func:`winnable.web.app.create_app`): the settings and services, the client's identity
and the per-route rate limits. Every dependency here is ``async`` so that FastAPI calls
it in the event loop, not through a thread.

A route asks for what it needs by type::

    @router.get("/api/things/{id}")
    async def thing(id: str, app: ServicesDep, client: ClientDep) -> ...:
        return await database(app.settings, app.games.state, id)

(``ServicesDep`` is all services at once: one dependency costs less per request than
several; ``SettingsDep``, ``AccountsDep``... give one each), and a stricter rate limit with
``dependencies=[Depends(rate_limit("solver"))]``. Who is asking (the session cookie's
player or guest) is ``ViewerDep``. The hot routes (a move, a game's state, a new game)
take all of it from one dependency, ``Annotated[Caller, Depends(caller("play"))]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Awaitable, Callable, TypeVar, cast

from fastapi import Depends, Request
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from winnable.web.play.games import GameService
from winnable.web.play.pool import WinnablePool
from winnable.web.play.queue import SolverQueue
from winnable.web.play.solving import Solver
from winnable.web.players.accounts import COOKIE, AccountService
from winnable.web.players.challenges import ChallengeService
from winnable.web.players.daily import DailyService
from winnable.web.players.purge import Purger
from winnable.web.security.csrf import CsrfPolicy
from winnable.web.security.identity import Viewer
from winnable.web.security.proof import ProofOfWork
from winnable.web.security.ratelimit import RateLimits, client_key
from winnable.web.settings import Settings

T = TypeVar("T")


@dataclass
class Services:
    """Everything the routes use, made once per app."""

    settings: Settings
    engine: Engine
    games: GameService
    solver: Solver
    pool: WinnablePool
    limits: RateLimits
    csrf: CsrfPolicy
    accounts: AccountService
    daily: DailyService
    queue: SolverQueue
    purger: Purger
    database_url: str
    challenges: ChallengeService | None = None
    """Challenges (made with the app; None only for a Services built by hand)."""
    proof: ProofOfWork | None = None
    """Sign-in's proof of work for names under guessing (made with the app)."""


def services_of(request: Request) -> Services:
    """The app's services (``app.state`` is Starlette's, untyped: it holds the one
    :class:`Services` that create_app put there)."""
    return cast(Services, request.app.state.services)


async def get_services(request: Request) -> Services:
    return services_of(request)


async def get_settings(request: Request) -> Settings:
    return services_of(request).settings


async def get_limits(request: Request) -> RateLimits:
    return services_of(request).limits


async def get_csrf(request: Request) -> CsrfPolicy:
    return services_of(request).csrf


async def get_accounts(request: Request) -> AccountService:
    return services_of(request).accounts


async def get_viewer(request: Request) -> Viewer:
    """Who is asking, from the session cookie: a signed-in player, a guest, or nobody."""
    token = request.cookies.get(COOKIE)
    if not token:
        return Viewer()
    return await database(services_of(request).settings, services_of(request).accounts.viewer, token)


async def get_client(request: Request) -> str:
    """Who is asking, for rate limits and the solver queue's fairness: the client's
    address (IPv6: its /64). With sign-in, an account may take its place."""
    client = request.client
    return client_key(client.host if client else None)


ServicesDep = Annotated[Services, Depends(get_services)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
LimitsDep = Annotated[RateLimits, Depends(get_limits)]
CsrfDep = Annotated[CsrfPolicy, Depends(get_csrf)]
ClientDep = Annotated[str, Depends(get_client)]
AccountsDep = Annotated[AccountService, Depends(get_accounts)]
ViewerDep = Annotated[Viewer, Depends(get_viewer)]


async def database(settings: Settings, work: Callable[..., T], *args: Any) -> T:
    """Run a short piece of database work (a read, or one game's write transaction):
    in the event loop itself by default, since a hop to a worker thread and back cost more
    CPU than the work (SQLite readers never wait; a writer waits at most for one other
    short transaction), or in a worker thread with ``WINNABLE_DATABASE_THREADS=1``
    (a remote database with slow round trips)."""
    if settings.database_threads:
        return await run_in_threadpool(work, *args)
    return work(*args)


@dataclass(frozen=True, slots=True)
class Caller:
    """A request to one of the hot routes (moves, state, new games), as one dependency
    gives it: the services, who is asking (the session's viewer) and the client's
    rate-limit key. One dependency instead of three (services, viewer, rate limit):
    FastAPI spends tens of microseconds solving each one."""

    app: Services
    viewer: Viewer
    client: str


def caller(limit: str | None = None) -> Callable[[Request], Awaitable[Caller]]:
    """A dependency giving the :class:`Caller`, after counting the request against the
    named rate limit (429 past it), as ``rate_limit(limit)`` would, before anything else."""

    async def dependency(request: Request) -> Caller:
        client = request.client
        key = client_key(client.host if client else None)
        if limit is not None:
            services_of(request).limits.check(limit, key)
        return Caller(services_of(request), await get_viewer(request), key)

    dependency.__name__ = f"caller_{limit}" if limit else "caller"
    return dependency


def rate_limit(name: str) -> Callable[[Request], Awaitable[None]]:
    """A dependency counting the request against the named limit (429 past it). It reads
    the request itself rather than depending on ``LimitsDep`` and ``ClientDep``: each
    dependency costs FastAPI tens of microseconds a request."""

    async def check(request: Request) -> None:
        client = request.client
        services_of(request).limits.check(name, client_key(client.host if client else None))

    check.__name__ = f"rate_limit_{name}"
    return check
