"""The players' pages: the account (sign in, sign up, download, delete), the Daily with
its leaderboards, and the statistics."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from winnable.web.routes.pages import page

router = APIRouter(include_in_schema=False)


@router.get("/account")
async def account_page(request: Request) -> Response:
    return page(request, "account.html")


@router.get("/daily")
async def daily_page(request: Request) -> Response:
    return page(request, "daily.html")


@router.get("/stats")
async def stats_page(request: Request) -> Response:
    return page(request, "stats.html")
