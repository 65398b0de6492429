"""The HTML pages (lobby, game, rules) and the static files they load."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles

from winnable.games import game_class
from winnable.errors import UnknownGameError
from winnable.web.errors import NotFound, quote

router = APIRouter(include_in_schema=False)


def page(request: Request, relative: str) -> Response:
    path = request.app.state.settings.static_dir / relative
    if not path.is_file():
        raise NotFound(f"the page {relative} is not built yet", code="not_found")
    return FileResponse(path, media_type="text/html")


def known_game(game: str):
    try:
        return game_class(game)
    except UnknownGameError:
        raise NotFound(f"unknown game {quote(game)} (see /api/catalog for the games)", code="unknown_game") from None


@router.get("/")
async def lobby(request: Request) -> Response:
    return page(request, "index.html")


@router.get("/play/{game}")
async def play_page(request: Request, game: str) -> Response:
    known_game(game)
    return page(request, "play.html")


@router.get("/rules/{game}")
async def rules_page(request: Request, game: str) -> Response:
    return page(request, f"rules/{known_game(game).family}.html")


class Static(StaticFiles):
    """The frontend's files; while a file (or the whole folder) is not there yet, a 404
    that says so."""

    async def check_config(self) -> None:
        if self.directory is not None and Path(self.directory).is_dir():
            await super().check_config()

    async def get_response(self, path: str, scope):
        try:
            return await super().get_response(path, scope)
        except HTTPException as error:
            if error.status_code != 404:
                raise
            raise NotFound(f"no file static/{quote(path, 80)} (the page may not be built yet)", code="not_found") from None
