"""The API's documentation page, Swagger UI, served from the ``fastapi-offline`` package's
copy (no CDN), started by a script file of ours so that the page's
Content-Security-Policy needs no inline script."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

router = APIRouter(include_in_schema=False)


def swagger_files() -> Path:
    import fastapi_offline

    return Path(fastapi_offline.__file__).with_name("static")


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Winnable API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
"""

START = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
});
"""


@router.get("/docs")
async def docs() -> HTMLResponse:
    return HTMLResponse(PAGE)


@router.get("/docs/start.js")
async def docs_start() -> Response:
    return Response(START, media_type="text/javascript")
