"""The HTML pages (the lobby, a game's page, its rules), the error pages, and the static
files they load, cached by browsers for a year under a versioned path.

Pages are Jinja2 templates (``web/pages/templates/``) rendered in the request's language
(:mod:`winnable.web.pages.i18n`: ``?lang=``, the ``lang`` cookie, ``Accept-Language``) with
gettext's i18n extension; each page that runs JavaScript carries the script's catalogue
as JSON in ``<script id="i18n-catalog" type="application/json">``. Links between pages
keep ``?lang=`` when the language is not English, so a shared link opens in the language
it was shared in; ``/lang/{code}?next=...`` (the language switch) saves the choice in a
cookie.

Every page names its files ``/static/v<version>/...``, where the version is a hash of
the static folder's files, so a browser keeps them until any of them changes. The
JavaScript modules import each other by relative paths, so they stay under the same
versioned path without a build step. Pages themselves are revalidated every time
(``no-cache``) and vary with the language's sources.

A page the server cannot show is an HTML page too (``404`` for an unknown game, with a
way back to the lobby); under ``/api/`` errors stay JSON.

>>> from fastapi.testclient import TestClient
>>> from winnable.web.app import create_app
>>> client = TestClient(create_app("sqlite://", pool_size=0, allowed_hosts=["testserver"]),
...                     headers={"Origin": "http://testserver"})
>>> page = client.get("/play/black-hole?deal=7")
>>> page.headers["cache-control"], "/static/v" in page.text, '<html lang="en">' in page.text
('no-cache', True, True)
>>> client.head("/").status_code, client.get("/play/no-such-game").status_code
(200, 404)
>>> french = client.get("/rules/penguin", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
>>> '<html lang="fr">' in french.text, "nageoires" in french.text, french.headers["content-language"]
(True, True, 'fr')
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from html import escape
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qsl, urlencode, urlsplit
from urllib.parse import quote as url_quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.types import Scope

from winnable.errors import UnknownGameError
from winnable.games import families, family_of, game_class
from winnable.web.deps import ServicesDep, ViewerDep, database
from winnable.web.errors import NotFound, quote
from winnable.web.pages import i18n
from winnable.web.pages.i18n import N_, VARY, locale_of, translate

log = logging.getLogger("winnable.web")
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
VERSIONED = re.compile(r"^v([0-9a-f]{12})/")
_IMPORT = re.compile(r"""(?:from|import)\s*["']\./([\w.-]+\.js)["']""")
TEMPLATES = Path(__file__).parents[1] / "pages" / "templates"


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


def with_lang(path: str, locale: str) -> str:
    """``path`` (with its query) for a reader of ``locale``: ``?lang=`` unless English.

    >>> with_lang("/play/penguin?deal=7&lang=nl", "fr"), with_lang("/?lang=fr", "en")
    ('/play/penguin?deal=7&lang=fr', '/')
    """
    parts = urlsplit(path)
    query = [(name, value) for name, value in parse_qsl(parts.query, keep_blank_values=True) if name != "lang"]
    if locale != i18n.DEFAULT_LOCALE:
        query.append(("lang", locale))
    return parts.path + ("?" + urlencode(query) if query else "")


def local_path(target: str | None) -> str:
    """``target`` if it is a path on this site, else ``/`` (no open redirects).

    >>> local_path("/play/penguin?deal=7"), local_path("//evil.example/"), local_path("https://x.org/")
    ('/play/penguin?deal=7', '/', '/')
    """
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target or len(target) > 2000:
        return "/"
    if any(ord(c) < 32 for c in target):
        return "/"
    return target


class Pages:
    """The pages: Jinja2 templates in every language, with links to the static folder's
    files under their versioned path."""

    def __init__(self, folder: Path, templates: Path = TEMPLATES) -> None:
        self.folder = folder
        self.templates = templates
        self.version = static_version(folder)
        self.prefix = f"/static/v{self.version}/"
        self._environments: dict[str, Environment] = {}
        self._modules: dict[tuple[str, ...], frozenset[str]] = {}

    def static(self, relative: str) -> str:
        return self.prefix + relative

    def modules(self, scripts: tuple[str, ...]) -> frozenset[str]:
        """The file names of ``scripts`` and of every module they import, transitively."""
        found = self._modules.get(scripts)
        if found is None:
            names: set[str] = set()
            todo = [script.rsplit("/", 1)[-1] for script in scripts]
            while todo:
                name = todo.pop()
                if name in names:
                    continue
                names.add(name)
                path = self.folder / "js" / name
                if path.is_file():
                    todo.extend(_IMPORT.findall(path.read_text(encoding="utf-8")))
            found = self._modules[scripts] = frozenset(names)
        return found

    def environment(self, locale: str) -> Environment:
        """The templates of one language (gettext installed, templates cached)."""
        env = self._environments.get(locale)
        if env is None:
            env = Environment(
                loader=FileSystemLoader(self.templates),
                autoescape=select_autoescape(["html"]),
                extensions=["jinja2.ext.i18n"],
                trim_blocks=True,
                lstrip_blocks=False,
            )
            env.policies["ext.i18n.trimmed"] = True
            env.install_gettext_translations(i18n.translations(locale), newstyle=True)  # type: ignore[attr-defined]  # the i18n extension's
            env.globals.update(
                static=self.static,
                lang=locale,
                format_number=lambda value: i18n.format_number(value, locale),
                format_date=lambda value, format="medium": i18n.format_date(value, locale, format),
            )
            self._environments[locale] = env
        return env

    def render(self, request: Request, name: str, *, status: int = 200, scripts: tuple[str, ...] = (), **context: Any) -> HTMLResponse:
        """The page ``name`` in the request's language."""
        locale = locale_of(request)
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        next_page = url_quote(with_lang(here, i18n.DEFAULT_LOCALE), safe="")
        languages = [
            {"code": code, "name": i18n.NAMES[code], "current": code == locale, "href": f"/lang/{code}?next={next_page}"}
            for code in i18n.LOCALES
        ]
        context = {
            "url": lambda path: with_lang(path, locale),
            "languages": languages,
            "scripts": scripts,
            "catalog_json": Markup(i18n.js_catalog_json(locale, self.modules(scripts))),
            **context,
        }
        body = self.environment(locale).get_template(name).render(context)
        headers = {"Cache-Control": REVALIDATE, "Content-Language": locale, "Vary": VARY}
        return HTMLResponse(body, status_code=status, headers=headers)

    def error(self, request: Request, status: int, title: str, message: str) -> HTMLResponse:
        """An error page: the title, one sentence and a way back to every game."""
        locale = locale_of(request)
        title, message = translate(title, locale), translate(message, locale, fallback=i18n.gettext(locale, GENERIC))
        try:
            return self.render(request, "error.html", status=status, title=title, message=message)
        except Exception:  # the error page itself failed: a plain page, never a second error
            log.exception("error page %s failed", status)
            body = f'<!doctype html><title>{escape(title)}</title><h1>{escape(title)}</h1><p>{escape(message)}</p><p><a href="/">Winnable</a></p>'
            return HTMLResponse(body, status_code=status, headers={"Cache-Control": REVALIDATE})


class Static(StaticFiles):
    """A static folder, served at ``/static/<file>`` (revalidated) and, for the pages'
    folder, at ``/static/v<version>/<file>`` (cached for a year). While a file or the
    folder is missing, a 404 that says so."""

    def __init__(self, *, pages: "Pages | None" = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pages = pages

    async def check_config(self) -> None:
        if self.directory is not None and Path(self.directory).is_dir():
            await super().check_config()

    async def get_response(self, path: str, scope: Scope) -> Response:
        match = VERSIONED.match(path) if self.pages is not None else None
        if match:
            path = path[match.end() :]
        try:
            response = await super().get_response(path, scope)
        except HTTPException as error:
            if error.status_code != 404:
                raise
            raise NotFound(N_("no file static/{path}", path=quote(path, 80)), code="not_found") from None
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
    return cast(Pages, request.app.state.pages)  # what create_app put there


def unknown_game(request: Request, game: str) -> HTMLResponse:
    return pages_of(request).error(
        request,
        404,
        N_("No such game"),
        N_("There is no game called {name} here (unknown game). Pick one from the list of games.", name=quote(game, 40)),
    )


def game_page(request: Request, game: str, template: str, scripts: tuple[str, ...]) -> HTMLResponse:
    cls = game_class(game)
    locale = locale_of(request)
    return pages_of(request).render(request, template, scripts=scripts, game=game, game_title=i18n.gettext(locale, cls.title))


@router.api_route("/", methods=["GET", "HEAD"])
async def lobby(request: Request) -> Response:
    return pages_of(request).render(
        request,
        "lobby.html",
        scripts=("js/lobby.js", "js/account-menu.js", "js/lobby-daily.js", "js/settings.js"),
        families_json=Markup(lobby_families_json(locale_of(request))),
    )


def lobby_families_json(locale: str) -> str:
    """The lobby's families in ``locale``, in the registry's order, as JSON safe inside
    ``<script type="application/json">`` (``lobby.js`` reads it; the games themselves
    come from ``/api/catalog``).

    >>> [family["title"] for family in json.loads(lobby_families_json("fr"))]
    ['Black Hole', 'Penguin et les jeux à cellules libres', 'Les jeux Spider', 'Quatorze']
    >>> "<" in lobby_families_json("en")  # nothing that could end the script early
    False
    """
    entries = [
        {"id": family.id, "title": i18n.gettext(locale, family.title), "blurb": i18n.gettext(locale, family.blurb) if family.blurb else ""}
        for family in families()
    ]
    text = json.dumps(entries, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@router.api_route("/play/{game}", methods=["GET", "HEAD"])
async def play_page(request: Request, game: str) -> Response:
    if known_title(game) is None:
        return unknown_game(request, game)
    return game_page(
        request, game, "play.html", ("js/play.js", "js/account-menu.js", "js/play-players.js", "js/play-share.js", "js/settings.js")
    )


@router.api_route("/rules/{game}", methods=["GET", "HEAD"])
async def rules_page(request: Request, game: str) -> Response:
    if known_title(game) is None:
        return unknown_game(request, game)
    family = family_of(game)
    locale = locale_of(request)
    return pages_of(request).render(
        request,
        f"rules/{family.id}.html",
        scripts=("js/rules.js",),
        game=game,
        game_title=i18n.gettext(locale, game_class(game).title),
        page_title=i18n.gettext(locale, family.page_title),
    )


@router.get("/lang/{code}")
async def choose_language(code: str, request: Request, viewer: ViewerDep, app: ServicesDep, next: str = "/") -> Response:
    """The language switch: save the choice in a cookie (and with a signed-in player's
    account), then back to the page (``next``, a path on this site) in that language."""
    locale = i18n.supported(code) if code in i18n.LOCALES else None
    target = local_path(next)
    if locale is None:
        return RedirectResponse(target, status_code=303)
    response = RedirectResponse(with_lang(target, locale), status_code=303)
    i18n.remember(response, locale, secure=request.url.scheme == "https")
    if viewer.signed_in:
        await database(app.settings, app.accounts.set_language, viewer.user_id, locale)
    return response


def wants_html(request: Request) -> bool:
    """A page request (not the API, not a script's fetch)."""
    return not request.url.path.startswith(("/api/", "/static/", "/docs", "/openapi")) and request.method in ("GET", "HEAD")


GENERIC = N_("Something went wrong")
ERROR_TITLES = {404: N_("Page not found"), 405: N_("Not allowed"), 500: GENERIC}
ERROR_MESSAGES = {404: N_("There is no page at this address."), 500: N_("Something went wrong on the server; your games are safe.")}


def error_page(request: Request, status: int, detail: str) -> HTMLResponse:
    """The HTML answer to a page request that failed."""
    title = ERROR_TITLES.get(status, GENERIC)
    return pages_of(request).error(request, status, title, ERROR_MESSAGES.get(status, detail))
