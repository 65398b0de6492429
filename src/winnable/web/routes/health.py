"""Whether the server is up (``/api/health``, for load balancers: nothing more), and its
figures for Prometheus (``/metrics``: off unless ``--metrics``, and loopback only)."""

from __future__ import annotations

import ipaddress

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text
from starlette.concurrency import run_in_threadpool

from winnable.web import metrics
from winnable.web.errors import NotFound
from winnable.web.models import schemas
from winnable.web.pages.i18n import N_

router = APIRouter(tags=["server"])


@router.get("/api/health", response_model=schemas.Health, responses={503: {"model": schemas.Health}})
async def health(request: Request) -> dict[str, str] | JSONResponse:
    """``up`` when the server and its database answer, else 503 ``down``."""
    engine = request.app.state.services.engine

    def ping() -> bool:
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
            return True
        except Exception:
            return False

    if ping():  # one short query: in the event loop (see deps.database)
        return {"status": "up"}
    return JSONResponse({"status": "down"}, status_code=503)


def loopback(request: Request) -> bool:
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "testclient"  # Starlette's test client


@router.get("/metrics", include_in_schema=False)
async def prometheus(request: Request) -> Response:
    if not request.app.state.services.settings.metrics or not loopback(request):
        raise NotFound(N_("no such page"), code="not_found")
    pool = request.app.state.services.pool
    body = await run_in_threadpool(metrics.render, pool.counts)
    return Response(body, media_type="text/plain; version=0.0.4; charset=utf-8")
