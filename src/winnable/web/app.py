"""The web app: a JSON API for playing every registered game, and the pages that use it.

``create_app(database_url)`` builds the FastAPI app (migrating the database first);
``winnable serve`` runs it with uvicorn. The API is documented at ``/docs``.

Errors are HTTP 4xx (or 503) with ``{"detail": "a sentence for the player"}``; a refused
request changes nothing.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app("sqlite://", pool_size=0))
>>> game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
>>> game["status"], game["position"]["foundation"], game["legal"][0]["move"]
('playing', ['AS'], '2S')
>>> client.post(f"/api/games/{game['id']}/moves", json={"move": "QD"}).json()
{'detail': 'QD is not the top card of a pile'}
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Query, Request
from starlette.exceptions import HTTPException
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from brotli_asgi import BrotliMiddleware
from starlette.concurrency import run_in_threadpool

from winnable.games import game_class
from winnable.web import schemas, summaries
from winnable.web.pages import Pages, VersionedStatic, error_page, wants_html
from winnable.web.pages import router as pages_router
from winnable.web.db import default_database_url, make_engine, migrate
from winnable.web.service import GameService, NotFound, Positions, ServiceError, Unavailable, catalog, initial, lookup_game
from winnable.web.solving import Found, PoolSettings, Solver, WinnablePool, analysis, hint

log = logging.getLogger("winnable.web")

STATIC = Path(__file__).with_name("static")


@dataclass
class Settings:
    """Everything the server can be tuned by; ``from_env`` reads ``WINNABLE_*`` variables."""

    database_url: str | None = None
    hint_seconds: float = 2.0
    """Time budget of one hint (waiting for a solver slot included)."""
    analysis_seconds: float = 2.0
    """Time budget of one analysis (all its searches together)."""
    winnable_seconds: float = 3.0
    """When the pool of winnable deals is empty: time to search one on the spot."""
    pool_size: int = 20
    """Proved-winnable deals kept ready per game (0: no background filling)."""
    pool_seconds: float = 2.0
    """Budget per candidate deal when filling the pool."""
    pool_background: bool = True
    solver_threads: int | None = None
    """Searches running at once (default: one per core but one)."""
    position_cache: int = 4096
    static_dir: Path = field(default=STATIC)

    ENV = {
        "hint_seconds": "WINNABLE_HINT_SECONDS",
        "analysis_seconds": "WINNABLE_ANALYSIS_SECONDS",
        "winnable_seconds": "WINNABLE_WINNABLE_SECONDS",
        "pool_size": "WINNABLE_POOL_SIZE",
        "pool_seconds": "WINNABLE_POOL_SECONDS",
        "solver_threads": "WINNABLE_SOLVER_THREADS",
    }

    @classmethod
    def from_env(cls, database_url: str | None = None, environ: dict[str, str] | None = None) -> "Settings":
        environ = os.environ if environ is None else environ
        settings = cls(database_url=database_url or environ.get("WINNABLE_DATABASE"))
        types = {item.name: item.type for item in fields(cls)}
        for name, variable in cls.ENV.items():
            if environ.get(variable):
                kind = float if "float" in str(types[name]) else int
                try:
                    settings = replace(settings, **{name: kind(environ[variable])})
                except ValueError:
                    print(f"winnable: error: {variable} must be a number, not {environ[variable]!r}", file=sys.stderr)
                    raise SystemExit(2) from None
        return settings


def sentence(errors: list[dict[str, Any]]) -> str:
    """Pydantic's validation errors as one sentence."""
    parts = []
    for error in errors[:3]:
        if error.get("type") == "json_invalid":
            return "the request body is not valid JSON"
        if error.get("type") == "model_attributes_type" and tuple(error.get("loc", ())) == ("body",):
            return "the request body must be a JSON object"
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else str(error.get("msg", "invalid")))
    return "bad request: " + "; ".join(parts)


def create_app(database_url: str | None = None, settings: Settings | None = None, **overrides: Any) -> FastAPI:
    """The app on ``database_url`` (default: SQLite in the user's data folder)."""
    settings = replace(settings or Settings(), **overrides)
    url = database_url or settings.database_url or default_database_url()
    engine = make_engine(url)
    migrate(engine)
    games = GameService(engine, Positions(settings.position_cache))
    solver = Solver(settings.solver_threads)
    pool = WinnablePool(engine, solver, PoolSettings(size=settings.pool_size, seconds=settings.pool_seconds))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        if settings.pool_background and settings.pool_size > 0:
            pool.start()
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(pool.stop)

    app = FastAPI(
        title="Winnable",
        summary="Patience games with a solver behind every deal.",
        description=(
            "Play Black Hole, Penguin, Black Widow and their relatives: the server keeps every "
            "game (its deal and moves), checks every move with the rules, and answers hints, "
            "'where did I lose?' and winnable deals with the solver."
        ),
        version="1",
        lifespan=lifespan,
        responses={400: {"model": schemas.Problem}, 404: {"model": schemas.Problem}},
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.games = games
    app.state.solver = solver
    app.state.pool = pool
    app.state.database_url = url

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> JSONResponse:
        return JSONResponse({"detail": error.detail}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": sentence(list(error.errors())), "errors": jsonable(error.errors())}, status_code=422)

    conflict = {409: {"model": schemas.Problem}}

    # -- API -------------------------------------------------------------------------
    @app.get("/api/health", response_model=schemas.Health, tags=["server"])
    def health() -> dict[str, Any]:
        """The server is up and its database answers."""
        return {"ok": True, "games": games.count(), "pool": pool.counts(), "solver": solver.stats()}

    @app.get("/api/catalog", response_model=list[schemas.CatalogEntry], tags=["games"])
    def get_catalog() -> list[dict[str, Any]]:
        """Every game the server plays."""
        return catalog()

    @app.post("/api/games", status_code=201, response_model=schemas.GameState, tags=["games"],
              responses={503: {"model": schemas.Problem}})
    async def new_game(body: schemas.NewGame) -> dict[str, Any]:
        """Start a game: deal N, a random deal, or (``winnable: true``) a deal the solver proved winnable.

        A winnable deal comes from the pool kept in the database (header
        ``X-Winnable-Source: pool``) or, when the pool is empty, from a search of a few
        seconds (``search``); 503 if none was found in time.
        """
        game_id = lookup_game(body.game).game_id

        def deal_from(found: Found) -> JSONResponse:
            state = games.create(game_id, found.deal, body.undo, True)
            if found.line:  # the pool's proof makes the first hints instant
                solver.remember_line(initial(game_id, found.deal), found.line)
            response = reply(state, 201)
            response.headers["X-Winnable-Source"] = "pool" if found.from_pool else "search"
            return response

        def from_pool() -> JSONResponse | None:
            if not body.winnable:
                return reply(games.create(game_id, body.deal, body.undo), 201)
            found = pool.take(game_id)
            return None if found is None else deal_from(found)

        response = await run_in_threadpool(from_pool)  # one trip to a worker thread
        if response is not None:
            return response
        # The pool is empty: search now. Most deals are decided in milliseconds, so many
        # short tries beat a few long ones.
        found = await anyio.to_thread.run_sync(pool.search, game_id, settings.winnable_seconds, 0.25)
        if found is None:
            title = game_class(game_id).title
            raise Unavailable(f"no proved-winnable {title} deal is ready yet; try again in a moment, or play any deal")
        found.from_pool = False
        await run_in_threadpool(pool.add, found, True)
        return await run_in_threadpool(deal_from, found)

    @app.get("/api/games/{game_id}", response_model=schemas.GameState, tags=["play"])
    def get_game(game_id: str) -> dict[str, Any]:
        """A stored game: its moves, the position, the legal moves and the score."""
        return reply(games.state(game_id))

    @app.post("/api/games/{game_id}/moves", response_model=schemas.GameState, tags=["play"], responses=conflict)
    def play_move(game_id: str, body: schemas.PlayMove) -> dict[str, Any]:
        """Play one move (409 with the rules' reason when it is illegal); with ``auto``,
        then the safe moves to the foundations it opens."""
        return reply(games.play(game_id, body.move, body.auto))

    @app.post("/api/games/{game_id}/undo", response_model=schemas.GameState, tags=["play"], responses=conflict)
    def undo(game_id: str, body: schemas.Undo | None = None) -> dict[str, Any]:
        """Take back the last move (409 when the game's undo mode forbids it); with
        ``auto``, together with the safe moves home played after it."""
        return reply(games.undo(game_id, bool(body and body.auto)))

    @app.post("/api/games/{game_id}/restart", response_model=schemas.GameState, tags=["play"], responses=conflict)
    def restart(game_id: str) -> dict[str, Any]:
        """Start the same deal again."""
        return reply(games.restart(game_id))

    @app.get("/api/games/{game_id}/position", response_model=schemas.PositionAt, tags=["play"])
    def position_at(game_id: str, at: int = Query(..., ge=0, description="Moves played from the deal.")) -> dict[str, Any]:
        """The position after the first ``at`` moves (to replay a game)."""
        return reply(games.position_at(game_id, at))

    @app.get("/api/games/{game_id}/hint", response_model=schemas.Hint, tags=["solver"])
    async def get_hint(
        game_id: str,
        seconds: float | None = Query(None, gt=0, le=30, description="Time budget (default: the server's)."),
    ) -> dict[str, Any]:
        """The next move of a winning line from here, or the verdict (lost / unknown)."""
        def load():
            game = games.snapshot(game_id)
            parent = games.positions.after(game.game, game.deal, game.moves[:-1]) if game.moves else None
            return game, parent

        game, parent = await run_in_threadpool(load)
        return await hint(solver, game, seconds or settings.hint_seconds, parent)

    @app.get("/api/games/{game_id}/analysis", response_model=schemas.Analysis, tags=["solver"])
    async def get_analysis(
        game_id: str,
        seconds: float | None = Query(None, gt=0, le=60, description="Time budget (default: the server's)."),
    ) -> dict[str, Any]:
        """Still winnable? After a loss: the move that lost it and a better one."""
        game = await run_in_threadpool(games.snapshot, game_id)

        def prefix(k: int):
            return games.positions.after(game.game, game.deal, game.moves[:k])

        return await analysis(solver, game, prefix, seconds or settings.analysis_seconds)

    # -- your games, pages, static files -----------------------------------------------
    app.include_router(summaries.router)
    pages = Pages(settings.static_dir)
    app.state.pages = pages
    app.include_router(pages_router(pages))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException):
        if wants_html(request):
            return error_page(pages, request, error.status_code, str(error.detail))
        return JSONResponse({"detail": error.detail}, status_code=error.status_code, headers=getattr(error, "headers", None))

    app.mount("/static", VersionedStatic(pages=pages, directory=settings.static_dir, check_dir=False), name="static")
    # Pages, scripts and JSON go out compressed: brotli when the browser takes it, else gzip.
    app.add_middleware(BrotliMiddleware, minimum_size=500, gzip_fallback=True)
    return app


def reply(data: dict[str, Any], status: int = 200) -> JSONResponse:
    """The game state as JSON without re-validating it (the schemas document it; the
    service builds it), which saves a good part of a request's time."""
    return JSONResponse(data, status_code=status)


def jsonable(errors: Any) -> Any:
    from fastapi.encoders import jsonable_encoder

    try:
        return jsonable_encoder(errors)
    except Exception:  # an exotic ctx object: the sentence is enough
        return []
