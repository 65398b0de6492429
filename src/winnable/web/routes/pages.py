"""The HTML pages (the lobby, a game's page, its rules), the error pages, and the static
files they load, cached by browsers for a year under a versioned path.

Every page names its files ``/static/...``; the server serves them as
``/static/v<version>/...``, where the version is a hash of the static folder's files,
so a browser keeps them until any of them changes. The JavaScript modules import each
other by relative paths, so they stay under the same versioned path without a build
step. Pages themselves are revalidated every time (``no-cache``).

A page the server cannot show is an HTML page too (``404`` for an unknown game, with a
way back to the lobby); under ``/api/`` errors stay JSON.

>>> from fastapi.testclient import TestClient
>>> from winnable.web.app import create_app
>>> client = TestClient(create_app("sqlite://", pool_size=0, allowed_hosts=["testserver"]),
...                     headers={"Origin": "http://testserver"})
>>> page = client.get("/play/black-hole?deal=7")
>>> page.headers["cache-control"], "/static/v" in page.text
('no-cache', True)
>>> client.head("/").status_code, client.get("/play/no-such-game").status_code
(200, 404)
"""

from __future__ import annotations

import hashlib
import html
import re
from pathlib import Path
from string import Template

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from winnable.errors import UnknownGameError
from winnable.games import game_class
from winnable.web.errors import NotFound, quote

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
VERSIONED = re.compile(r"^v([0-9a-f]{12})/")
_STATIC_LINK = re.compile(r'((?:src|href)=")/static/')

FALLBACK_ERROR = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title · Winnable</title></head>
<body><h1>$title</h1><p>$message</p><p><a href="/">All games</a></p></body></html>
"""


def static_version(folder: Path) -> str:
    """A hash of every file under ``folder`` (names and contents): it changes whenever
    any file does. ``"0" * 12`` when the folder is missing."""
    digest = hashlib.sha256()
    if not folder.is_dir():
        return "0" * 12
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class Pages:
    """The pages of one static folder, with their links pointing at the versioned files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.version = static_version(folder)
        self.prefix = f"/static/v{self.version}/"
        self._cache: dict[str, tuple[float, str]] = {}

    def text(self, relative: str) -> str | None:
        """The page ``relative`` with its static links versioned, or None if missing."""
        path = self.folder / relative
        try:
            stamp = path.stat().st_mtime
        except OSError:
            return None
        cached = self._cache.get(relative)
        if cached and cached[0] == stamp:
            return cached[1]
        text = _STATIC_LINK.sub(lambda m: m.group(1) + self.prefix, path.read_text(encoding="utf-8"))
        self._cache[relative] = (stamp, text)
        return text

    def page(self, relative: str) -> HTMLResponse:
        text = self.text(relative)
        if text is None:
            return self.error(404, "Page not built yet", f"The page {relative} is not built yet.")
        return HTMLResponse(text, headers={"Cache-Control": REVALIDATE})

    def error(self, status: int, title: str, message: str) -> HTMLResponse:
        """An error page: the title, one sentence and a way back to every game."""
        template = self.text("error.html") or FALLBACK_ERROR
        body = Template(template).safe_substitute(status=status, title=html.escape(title), message=html.escape(message))
        return HTMLResponse(body, status_code=status, headers={"Cache-Control": REVALIDATE})


class Static(StaticFiles):
    """A static folder, served at ``/static/<file>`` (revalidated) and, for the pages'
    folder, at ``/static/v<version>/<file>`` (cached for a year). While a file or the
    folder is missing, a 404 that says so."""

    def __init__(self, *, pages: "Pages | None" = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.pages = pages

    async def check_config(self) -> None:
        if self.directory is not None and Path(self.directory).is_dir():
            await super().check_config()

    async def get_response(self, path: str, scope):
        match = VERSIONED.match(path) if self.pages is not None else None
        if match:
            path = path[match.end():]
        try:
            response = await super().get_response(path, scope)
        except HTTPException as error:
            if error.status_code != 404:
                raise
            raise NotFound(f"no file static/{quote(path, 80)} (the page may not be built yet)", code="not_found") from None
        if self.pages is not None and response.status_code in (200, 304):
            current = match is not None and match.group(1) == self.pages.version
            response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        return response


def known_title(game: str) -> str | None:
    try:
        return game_class(game).title
    except UnknownGameError:
        return None


router = APIRouter(include_in_schema=False)


def pages_of(request: Request) -> Pages:
    return request.app.state.pages


def unknown_game(request: Request, game: str) -> HTMLResponse:
    return pages_of(request).error(404, "No such game", f"There is no game called {quote(game, 40)} here (unknown game). Pick one from the list of games.")


@router.api_route("/", methods=["GET", "HEAD"])
async def lobby(request: Request) -> Response:
    return pages_of(request).page("index.html")


@router.api_route("/play/{game}", methods=["GET", "HEAD"])
async def play_page(request: Request, game: str) -> Response:
    if known_title(game) is None:
        return unknown_game(request, game)
    return pages_of(request).page("play.html")


@router.api_route("/rules/{game}", methods=["GET", "HEAD"])
async def rules_page(request: Request, game: str) -> Response:
    if known_title(game) is None:
        return unknown_game(request, game)
    return pages_of(request).page(f"rules/{game_class(game).family}.html")


def wants_html(request: Request) -> bool:
    """A page request (not the API, not a script's fetch)."""
    return not request.url.path.startswith(("/api/", "/static/", "/docs", "/openapi")) and request.method in ("GET", "HEAD")


ERROR_TITLES = {404: "Page not found", 405: "Not allowed", 500: "Something went wrong"}


def error_page(request: Request, status: int, detail: str) -> HTMLResponse:
    """The HTML answer to a page request that failed."""
    title = ERROR_TITLES.get(status, "Something went wrong")
    message = {404: "There is no page at this address.", 500: "Something went wrong on the server; your games are safe."}.get(status, detail)
    return pages_of(request).error(status, title, message)
