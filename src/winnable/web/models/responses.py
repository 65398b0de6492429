"""The hot routes' JSON response: a game state written once, by pydantic-core.

FastAPI validates whatever a route returns against the route's ``response_model`` and
then serialises the model, for a game state (every move, every read) a large share of
the request's CPU time (``docs/tuning.md``). The game service already builds exactly the model's fields
(:meth:`winnable.web.play.games.GameService.render`), so the hot routes return it as
:class:`StateJSON` instead: the same bytes (``pydantic_core.to_json``, the serialiser
FastAPI itself ends in), without the round trip. The routes keep their
``response_model`` for the OpenAPI schema, and the tests check both ways that the
bytes are what the model would have written (``tests/web/test_schema.py``).

>>> StateJSON({"id": "abc", "moves": ["KH"], "elapsed_seconds": 0.0, "finish": None}).body
b'{"id":"abc","moves":["KH"],"elapsed_seconds":0.0,"finish":null}'
"""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json
from starlette.responses import JSONResponse


class StateJSON(JSONResponse):
    """``content`` (plain dicts, lists, strings, numbers) as compact JSON, UTF-8 (a
    ``JSONResponse``, so that the OpenAPI schema shows the route's model)."""

    def render(self, content: Any) -> bytes:
        return to_json(content)
