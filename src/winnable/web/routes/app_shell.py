"""The site as an installable app: the service worker (``/sw.js``, served from the root so
that its scope covers every page) and the page it shows offline (``/offline``).

The service worker is ``static/js/sw.js`` with its build in front: the static files'
version (the hash in every page's ``/static/v<version>/`` URLs, :class:`~.pages.Pages`),
so that a new version of any file makes a new worker with a new cache and the old cache
goes; the files it keeps (every file of the static folder); and the languages of the
offline page. The worker keeps those files and the offline page in each language, serves
the files from its cache, and, when a page cannot be reached, shows the offline page in
the language of the last page seen (else the browser's): the games need the server.

>>> from fastapi.testclient import TestClient
>>> from winnable.web.app import create_app
>>> client = TestClient(create_app("sqlite://", pool_size=0, allowed_hosts=["testserver"]))
>>> worker = client.get("/sw.js")
>>> worker.headers["content-type"].startswith("text/javascript"), worker.headers["cache-control"]
(True, 'no-cache')
>>> "need the server" in client.get("/offline").text
True
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from starlette.responses import Response

from winnable.web.pages import i18n
from winnable.web.routes.pages import REVALIDATE, pages_of

router = APIRouter(include_in_schema=False)
WORKER = "js/sw.js"


def worker_source(request: Request) -> str:
    """The service worker's script: its build, then ``static/js/sw.js``."""
    pages = pages_of(request)
    files = sorted(str(path.relative_to(pages.folder)) for path in pages.folder.rglob("*") if path.is_file())
    build = {"version": pages.version, "prefix": pages.prefix, "files": files, "languages": list(i18n.LOCALES)}
    source = (pages.folder / WORKER).read_text(encoding="utf-8")
    return f"self.BUILD = {json.dumps(build, separators=(',', ':'))};\n{source}"


@router.api_route("/sw.js", methods=["GET", "HEAD"])
async def service_worker(request: Request) -> Response:
    return Response(
        worker_source(request), media_type="text/javascript", headers={"Cache-Control": REVALIDATE, "Service-Worker-Allowed": "/"}
    )


@router.api_route("/offline", methods=["GET", "HEAD"])
async def offline_page(request: Request) -> Response:
    """What the service worker shows when a page cannot be reached."""
    return pages_of(request).render(request, "offline.html")
