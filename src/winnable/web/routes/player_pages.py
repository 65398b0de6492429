"""The players' pages: the account (sign in, sign up, download, delete), the Daily with
its leaderboards, and the statistics (GET and HEAD, like every page)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from winnable.web.routes.pages import pages_of

router = APIRouter(include_in_schema=False)


@router.api_route("/account", methods=["GET", "HEAD"])
async def account_page(request: Request) -> Response:
    return pages_of(request).render(request, "account.html", scripts=("js/account-menu.js", "js/account.js"))


@router.api_route("/daily", methods=["GET", "HEAD"])
async def daily_page(request: Request) -> Response:
    return pages_of(request).render(request, "daily.html", scripts=("js/account-menu.js", "js/daily.js"))


@router.api_route("/stats", methods=["GET", "HEAD"])
async def stats_page(request: Request) -> Response:
    return pages_of(request).render(request, "stats.html", scripts=("js/account-menu.js", "js/stats.js"))


@router.api_route("/challenge/{challenge_id}", methods=["GET", "HEAD"])
async def challenge_page(request: Request, challenge_id: str) -> Response:
    """A challenge's page: its game, its leaderboard, play it, share it (the page asks
    the API, so an unknown link says so there)."""
    return pages_of(request).render(request, "challenge.html", scripts=("js/account-menu.js", "js/challenge.js"), challenge_id=challenge_id)
