"""The games the server plays, their titles and summaries in the request's language
(``?lang=``, the ``lang`` cookie, ``Accept-Language``; see :mod:`winnable.web.pages.i18n`).

>>> from fastapi.testclient import TestClient
>>> from winnable.web.app import create_app
>>> client = TestClient(create_app("sqlite://", pool_size=0, allowed_hosts=["testserver"]))
>>> [game["title"] for game in client.get("/api/catalog?lang=fr").json() if game["id"] == "spider-2"]
['Spider à deux couleurs']
"""

from __future__ import annotations

from functools import lru_cache

from fastapi import APIRouter, Request, Response

from winnable.web.models import schemas
from winnable.web.pages.i18n import VARY, gettext, locale_of
from winnable.web.play.lookup import CatalogEntry, catalog

router = APIRouter(prefix="/api/catalog", tags=["games"])


@router.get("", response_model=list[schemas.CatalogEntry])
async def get_catalog(request: Request, response: Response) -> list[CatalogEntry]:
    """Every game the server plays."""
    locale = locale_of(request)
    response.headers["Content-Language"] = locale
    response.headers["Vary"] = VARY
    return localized_catalog(locale)


@lru_cache(maxsize=None)
def localized_catalog(locale: str) -> list[CatalogEntry]:
    return [
        entry | {"title": gettext(locale, entry["title"]), "summary": gettext(locale, entry["summary"]) if entry["summary"] else ""}
        for entry in CATALOG
    ]


CATALOG = catalog()
