"""The web app: a JSON API for playing every registered game, and the pages that use it.

``create_app(database_url)`` builds the FastAPI app (migrating the database first);
``winnable serve`` runs it with uvicorn (:func:`winnable.web.run`). The API is
documented at ``/docs``. The layout follows the FastAPI project template:

* :mod:`~winnable.web.settings` — ``Settings`` (pydantic-settings, ``WINNABLE_*``);
* :mod:`~winnable.web.routes` — one ``APIRouter`` per resource;
* :mod:`~winnable.web.deps` — what routes depend on, from ``app.state``;
* :mod:`~winnable.web.errors` — ``{"code", "detail"}`` errors, everywhere;
* :mod:`~winnable.web.security.guard` — the gate: sizes, Host, rate limit, JSON and CSRF, headers;
* services: :mod:`~.service` (games), :mod:`~.solving` (request-time solving through
  :mod:`~.queue`), :mod:`~.pool` (the background pool of winnable deals), :mod:`~.db`.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app("sqlite://", pool_size=0, allowed_hosts=["testserver"]),
...                     headers={"Origin": "http://testserver"})
>>> game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
>>> game["status"], game["position"]["foundation"], game["legal"][0]["move"]
('playing', ['AS'], '2S')
>>> client.post(f"/api/games/{game['id']}/moves", json={"move": "QD"}).json()
{'code': 'illegal_move', 'detail': 'QD is not the top card of a pile'}
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import sys
from typing import Any, AsyncIterator, Mapping

import anyio.to_thread
from brotli_asgi import BrotliMiddleware
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.responses import Response

from winnable.solver import solve
from winnable.storage.engine import database_away, default_database_url, make_engine
from winnable.storage.keys import server_key
from winnable.storage.migrate import migrate
from winnable.web import metrics
from winnable.web.deps import Services
from winnable.web.errors import CODES, ApiError, Unavailable, localized, problem_json, problem_response, quote
from winnable.web.models import schemas
from winnable.web.pages.i18n import N_, locale_of
from winnable.web.play.cluster import Cluster
from winnable.web.play.games import GameService
from winnable.web.play.pool import PoolSettings, WinnablePool
from winnable.web.play.positions import Positions
from winnable.web.play.queue import SolverQueue
from winnable.web.play.solving import Solver
from winnable.web.players.accounts import COOKIE, AccountService, digest, plausible_token
from winnable.web.players.challenges import ChallengeService
from winnable.web.players.daily import DailyService
from winnable.web.players.purge import Purger
from winnable.web.routes import ROUTERS
from winnable.web.routes import solver as solver_routes
from winnable.web.routes.docs import swagger_files
from winnable.web.routes.pages import Pages, Static, error_page, wants_html
from winnable.web.security.csrf import CsrfPolicy
from winnable.web.security.guard import Guard, allowed_methods, route_methods
from winnable.web.security.proof import ProofOfWork
from winnable.web.security.ratelimit import RateLimits
from winnable.web.settings import SETTINGS_VARIABLE, Settings

log = logging.getLogger("winnable.web")

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.ValidationProblem if status == 422 else schemas.Problem}
    for status in (400, 401, 403, 404, 409, 413, 415, 422, 429, 503)
}

DESCRIPTION = (
    "Play Black Hole, Penguin, Black Widow and their relatives: the server keeps every "
    "game (its deal and moves), checks every move with the rules, and answers hints, "
    "'where did I lose?' and winnable deals with the solver.\n\n"
    '**Errors** are `{"code": ..., "detail": ...}`: `code` is stable, `detail` a sentence in the '
    "request's language (`?lang=en|fr|nl`, else the `lang` cookie, else `Accept-Language`; the catalog's "
    "titles too; moves stay in the games' notation). "
    "Codes: " + ", ".join(f"`{code}`" for code in CODES) + ".\n\n"
    "**State-changing calls** (POST) need a JSON body (`{}` when there is nothing to say) and "
    "either this site's `Origin` (browsers send it) or an `X-CSRF-Token` from `GET /api/csrf`. "
    "**Limits**: requests per client are rate-limited (429 with `Retry-After`); solver calls "
    "queue fairly, hints before analyses and light clients before heavy ones; a client past its share "
    "gets 429, and a request the crowded solver has no time for is answered (200) with what is known, "
    "its `answered` field saying how. "
    "Every cap and range is in this schema; a method a path does not have is 405 with `Allow`."
)


def create_app(database_url: str | None = None, settings: Settings | None = None, **overrides: Any) -> FastAPI:
    """The app on ``database_url`` (default: the settings', else SQLite in the user's
    data folder); ``overrides`` change single settings."""
    settings = (settings or Settings()).with_overrides(**overrides)
    url = database_url or settings.database_url or default_database_url()
    engine = make_engine(url)
    migrate(engine)
    games = GameService(engine, Positions(int(settings.position_cache_mb * (1 << 20))))
    games.judge_pace = settings.judge_pace
    queue = SolverQueue(
        settings.threads,
        settings.solver_queue,
        settings.solver_queue_per_client,
        settings.solver_running_per_client,
        on_change=metrics.queue_changed,
        nice=settings.solver_nice,
        analysis_threads=settings.solver_analysis_threads,
        analyses=settings.solver_analyses,
        analyses_per_client=settings.solver_analyses_per_client,
        anonymous_analyses=settings.solver_guest_analyses,
        slice_seconds=settings.solver_slice_seconds,
    )
    cluster = None
    if settings.solver_scheduler:  # the searches on a Dask cluster, the queue as large as it is
        cluster = Cluster(settings.solver_scheduler, on_resize=lambda threads: queue.resize(max(settings.threads, threads)))
    solver = Solver(
        queue,
        int(settings.verdict_cache_mb * (1 << 20)),
        search=cluster.solve if cluster is not None else solve,
        longer_seconds=settings.hint_longer_seconds,
        longer_waiting=settings.hint_longer_waiting,
        longer_memory_mb=settings.hint_longer_memory_mb,
    )
    pool = WinnablePool(
        engine,
        solver,
        PoolSettings(
            size=settings.pool_size,
            seconds=settings.pool_seconds,
            per_grade=settings.pool_per_grade,
            most=settings.pool_most,
            lease_seconds=settings.pool_lease_seconds,
            scheduler=settings.solver_scheduler,
        ),
    )
    limits = RateLimits(settings)
    key = (settings.secret_key or server_key(engine, "csrf")).encode()
    csrf = CsrfPolicy(key, settings.trusted_origins, binding=session_binding)
    device_secret = (settings.secret_key or server_key(engine, "devices")).encode()
    proof = ProofOfWork(
        (settings.secret_key or server_key(engine, "altcha")).encode(), settings.altcha_max_number, settings.altcha_seconds, limits.once
    )
    accounts = AccountService(
        engine, settings.session_days, settings.guest_days, settings.argon2_memory_kib, settings.argon2_time_cost, device_secret
    )
    purger = Purger(accounts, settings.purge_minutes * 60)
    daily = DailyService(games, pool)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(settings.gil_switch_ms / 1000)  # the event loop back soon after its I/O
        if cluster is not None:
            cluster.start()
        if settings.pool_background and settings.pool_size > 0:
            pool.start()
        purger.start()
        # What is alive now (modules, routes, compiled statements) lives as long as the
        # server: out of the collector's sight, so that a full collection, a pause in
        # the moves that meet it, takes a fraction of the time (``docs/tuning.md``).
        if settings.gc_freeze:
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(pool.stop)
            await anyio.to_thread.run_sync(purger.stop)
            await anyio.to_thread.run_sync(queue.stop)
            await anyio.to_thread.run_sync(solver.stop)
            limits.stop()
            sys.setswitchinterval(switch_interval)
            if cluster is not None:
                await anyio.to_thread.run_sync(cluster.stop)
            if settings.gc_freeze:
                gc.unfreeze()  # an app stopped inside a longer-lived process leaves nothing pinned

    app = FastAPI(
        title="Winnable",
        summary="Patience games with a solver behind every deal.",
        description=DESCRIPTION,
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        responses=ERRORS,
        telemetry=None if settings.opentelemetry else {"tracing": False, "metrics": False, "logs": False},
    )
    # Every service once, on one object (the routes reach it through ``deps``).
    app.state.services = Services(
        settings, engine, games, solver, pool, limits, csrf, accounts, daily, queue, purger, url, ChallengeService(games), proof=proof
    )

    add_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    made = app.openapi

    def openapi() -> dict[str, Any]:  # the caps that are settings, and exact bounds, in the schema (once)
        if app.openapi_schema is None:
            app.openapi_schema = schemas.exact_bounds(solver_routes.declare_caps(made(), settings))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to change the schema
    app.state.cluster = cluster  # None unless the searches run on a Dask cluster
    app.state.pages = pages = Pages(settings.static_dir)
    app.mount("/static", Static(pages=pages, directory=settings.static_dir, check_dir=False), name="static")
    app.mount("/docs/assets", Static(directory=swagger_files(), check_dir=False), name="docs-assets")
    app.add_middleware(Guard, settings=settings, limits=limits, csrf=csrf)
    # Outermost: pages, scripts and JSON go out compressed (brotli, else gzip). Quality 1:
    # a game state (3-4 KB of JSON) costs 45 us to compress instead of 150 us at the
    # default 4, for a few percent more bytes (static files are cached a year anyway).
    app.add_middleware(BrotliMiddleware, minimum_size=500, gzip_fallback=True, quality=1)
    return app


def session_binding(scope: Mapping[str, Any]) -> str:
    """CSRF tokens are bound to the session cookie's digest: a token is worth something
    only with the session it was issued to (see :mod:`winnable.web.security.csrf`)."""
    from http.cookies import SimpleCookie

    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            try:
                morsel = SimpleCookie(value.decode("latin-1")).get(COOKIE)
            except Exception:  # a malformed Cookie header: no session
                return ""
            if morsel is not None and plausible_token(morsel.value):
                return digest(morsel.value)
    return ""


def add_error_handlers(app: FastAPI) -> None:
    """Every error answers ``{"code", "detail"}``; nothing a client sends is echoed
    back beyond a short quotation."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> Response:
        if wants_html(request):  # a page, not the API: an HTML page with a way back
            return error_page(request, error.status, error.detail)
        return error.response(locale_of(request))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> Response:
        errors = list(error.errors())
        if any(item.get("type") == "json_invalid" for item in errors):
            return problem_response(422, "invalid_json", N_("the request body is not valid JSON"), locale=locale_of(request))
        fields = [
            {
                "loc": [part if isinstance(part, int) else quote(str(part), 30).strip("'") for part in item.get("loc", ())],
                "msg": str(item.get("msg", "invalid"))[:200],
                "type": str(item.get("type", "invalid"))[:60],
            }
            for item in errors[:10]
        ]
        import json

        locale = locale_of(request)
        detail = localized("invalid_request", sentence(errors), locale)
        body = json.dumps({"code": "invalid_request", "detail": detail, "errors": fields}, ensure_ascii=True)
        return Response(body, status_code=422, media_type="application/json", headers={"Content-Language": locale})

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        if wants_html(request):
            return error_page(request, error.status_code, str(error.detail))
        code, detail = {
            400: ("invalid_json", N_("the request body could not be read as JSON")),
            404: ("not_found", N_("no such page or endpoint")),
            405: ("method_not_allowed", N_("{method} is not allowed here", method=request.method[:20])),
            413: ("body_too_large", N_("the request body is over {n} KiB", n=request.app.state.services.settings.max_body_bytes // 1024)),
        }.get(error.status_code, (f"http_{error.status_code}", str(error.detail)))
        headers = dict(error.headers or {})
        if error.status_code == 405:  # every method of the path, as the gate says (a path with a route per method)
            allowed = allowed_methods(route_methods(request.app.router.routes), request.url.path, request.method)
            headers["Allow"] = ", ".join(sorted(allowed)) if allowed else headers.get("Allow", "")
        return problem_response(error.status_code, code, detail, headers, locale_of(request))

    async def database_error(request: Request, error: Exception) -> Response:
        """The database away for a moment (a restart, a dropped connection): 503 with
        ``Retry-After``, nothing written; anything else from it is a bug (500)."""
        if not database_away(error):
            raise error
        outage = Unavailable(
            N_("the server's database is not answering for a moment (your games are safe); try again in a few seconds"),
            code="database_unavailable",
            retry_after=DATABASE_RETRY_SECONDS,
        )
        note_database_away(request, error)
        if wants_html(request):
            return error_page(request, outage.status, outage.detail)
        return outage.response(locale_of(request))

    for kind in database_errors():
        app.add_exception_handler(kind, database_error)

    @app.exception_handler(Exception)
    async def bug(request: Request, error: Exception) -> Response:
        log.exception("error answering %s %s", request.method, request.url.path)
        if wants_html(request):
            return error_page(request, 500, "")
        return Response(
            problem_json("internal_error", N_("something went wrong on the server; your games are safe"), locale_of(request)),
            status_code=500,
            media_type="application/json",
        )


DATABASE_RETRY_SECONDS = 2
"""What a 503 of a database away says to wait (a PostgreSQL restart takes a second or two)."""
_last_database_note = [0.0]


def database_errors() -> list[type[Exception]]:
    """The error classes a database away may raise: SQLAlchemy's, and the drivers' own
    (the hot paths run straight on DBAPI cursors)."""
    import sqlite3

    import sqlalchemy.exc

    kinds: list[type[Exception]] = [sqlalchemy.exc.SQLAlchemyError, sqlite3.Error]
    try:
        import psycopg
    except ImportError:
        pass
    else:
        kinds.append(psycopg.Error)
    return kinds


def note_database_away(request: Request, error: Exception) -> None:
    """One log line every ten seconds at most while the database is away."""
    import time

    now = time.monotonic()
    if now - _last_database_note[0] >= 10:
        _last_database_note[0] = now
        log.warning(
            "database away (%s: %s) answering %s %s: 503 until it is back",
            type(error).__name__,
            str(error).strip().splitlines()[0][:200] if str(error).strip() else "",
            request.method,
            request.url.path,
        )


def sentence(errors: list[dict[str, Any]]) -> str:
    """Pydantic's validation errors as one sentence (no input is quoted)."""
    parts = []
    for error in errors[:3]:
        if error.get("type") == "model_attributes_type" and tuple(error.get("loc", ())) == ("body",):
            return "the request body must be a JSON object"
        if error.get("type") == "missing" and tuple(error.get("loc", ())) == ("body",):
            return "the request needs a JSON body (send {} when there is nothing to say)"
        where = ".".join(quote(str(part), 30).strip("'") for part in error.get("loc", ()) if part != "body")
        message = str(error.get("msg", "invalid"))[:200]
        parts.append(f"{where}: {message}" if where else message)
    return "bad request: " + "; ".join(parts)


def app_from_env() -> FastAPI:
    """The app as ``winnable serve --workers N`` starts it in each worker process: with the
    settings object ``serve`` made (passed whole, as JSON), else from ``WINNABLE_*``."""
    made = os.environ.get(SETTINGS_VARIABLE)
    if made:
        settings = Settings.model_validate_json(made)
        return create_app(settings.database_url, settings)
    return create_app()
