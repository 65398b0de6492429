"""The errors the API answers with: ``{"code": "<stable machine code>", "detail": "<a
sentence for the player>"}`` and an HTTP status, everywhere (routes, middleware, 404s).

``code`` never changes once published (clients and translations key on it); ``detail``
is for people and may be reworded. A refused request changes nothing.

>>> error = NotFound("no game with id 'x'", code="game_not_found")
>>> error.status, error.code, error.body()
(404, 'game_not_found', {'code': 'game_not_found', 'detail': "no game with id 'x'"})
>>> TooManyRequests("slow down", retry_after=2.2).headers
{'Retry-After': '3'}
>>> quote("x" * 100)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'"
>>> quote("\\ud800")
"'\\\\ud800'"
"""

from __future__ import annotations

import json
import math
from typing import Any, ClassVar

from starlette.responses import Response

QUOTE_LIMIT = 40
"""Characters of a bad value quoted back in an error (the rest is cut)."""


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A short, printable, always-encodable quotation of a value a client sent."""
    if isinstance(value, str):
        cut = value[:limit]
        text = repr(cut)  # escapes control characters and lone surrogates
        if len(value) > limit:
            text = text[:-1] + "…" + text[-1]
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


class ApiError(Exception):
    """An answer other than success: status, stable ``code``, human ``detail``."""

    status: ClassVar[int] = 400
    default_code: ClassVar[str] = "bad_request"

    def __init__(self, detail: str, *, code: str | None = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.code = code or self.default_code
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail}

    def response(self) -> Response:
        return problem_response(self.status, self.code, self.detail, self.headers)


class BadRequest(ApiError):
    status = 400
    default_code = "bad_request"


class Unauthorized(ApiError):
    """Not signed in (or the name or password is wrong)."""

    status = 401
    default_code = "sign_in_required"


class Forbidden(ApiError):
    status = 403
    default_code = "forbidden"


class NotFound(ApiError):
    status = 404
    default_code = "not_found"


class Conflict(ApiError):
    status = 409
    default_code = "conflict"


class PayloadTooLarge(ApiError):
    status = 413
    default_code = "body_too_large"


class UnsupportedMediaType(ApiError):
    status = 415
    default_code = "json_required"


class Unprocessable(ApiError):
    status = 422
    default_code = "invalid_request"


class _RetryLater(ApiError):
    def __init__(self, detail: str, *, code: str | None = None, retry_after: float = 1.0,
                 headers: dict[str, str] | None = None) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(detail, code=code, headers={"Retry-After": str(seconds), **(headers or {})})
        self.retry_after = seconds


class TooManyRequests(_RetryLater):
    status = 429
    default_code = "rate_limited"


class Unavailable(_RetryLater):
    status = 503
    default_code = "unavailable"


def problem_json(code: str, detail: str) -> bytes:
    """The error body as bytes; never fails, whatever ``detail`` holds."""
    try:
        return json.dumps({"code": code, "detail": detail}, ensure_ascii=False).encode("utf-8")
    except (UnicodeError, ValueError):
        return json.dumps({"code": code, "detail": detail}, ensure_ascii=True).encode("ascii")


def problem_response(status: int, code: str, detail: str, headers: dict[str, str] | None = None) -> Response:
    return Response(problem_json(code, detail), status_code=status, headers=headers, media_type="application/json")


# The codes a client may see, for the OpenAPI description and the translators.
CODES: dict[str, str] = {
    "bad_request": "The request is malformed.",
    "invalid_request": "The request's parameters or body do not match the schema.",
    "invalid_json": "The request body is not valid JSON.",
    "json_required": "A state-changing call needs a JSON body (Content-Type: application/json).",
    "body_too_large": "The request body is over the server's limit.",
    "headers_too_large": "The request headers are over the server's limit.",
    "host_not_allowed": "The Host header names a site this server does not serve.",
    "cross_site": "A state-changing call came from another site.",
    "csrf_failed": "A state-changing call without a same-origin Origin or a valid CSRF token.",
    "not_found": "No such page or endpoint.",
    "method_not_allowed": "The endpoint exists but not for this method.",
    "unknown_game": "No game with that game id (see /api/catalog).",
    "game_not_found": "No stored game with that id.",
    "bad_deal": "Not a deal number of that game.",
    "bad_move": "Not a move in the game's notation.",
    "illegal_move": "A move the rules refuse here.",
    "game_over": "The game is over: no more moves.",
    "undo_refused": "The game's undo rule, or its state, refuses the undo.",
    "move_limit": "The game has reached the move cap.",
    "bad_position": "The position asked for is not in the game's history.",
    "stale_game": "The stored game no longer replays under the current rules.",
    "budget_too_large": "A solver budget above the server's cap.",
    "no_winnable_deal": "No deal of that game has been proved winnable yet.",
    "rate_limited": "Too many requests from this client; see Retry-After.",
    "solver_busy": "The solver queue is full; see Retry-After.",
    "solver_queue_full_for_client": "This client already has the most solver jobs it may have waiting.",
    "unavailable": "The server cannot answer now; see Retry-After.",
    "internal_error": "A bug on the server's side.",
    "sign_in_required": "This needs a signed-in player (the Daily, the account).",
    "bad_credentials": "The name or the password is wrong (which one is not said).",
    "bad_name": "A player name is 3 to 24 letters or digits, with . _ - between them.",
    "bad_password": "A password is 8 to 128 characters, without control characters.",
    "name_taken": "The name cannot be used for a new account.",
    "daily_unavailable": "No deal of that game has been proved winnable yet: no Daily.",
    "daily_no_help": "Hints and analyses are off in the Daily while its day lasts.",
    "daily_no_restart": "The Daily is one attempt: it cannot be restarted.",
    "daily_over": "That Daily's day is over: its attempts are final.",
    "daily_deal": "Today's Daily deal is played in the Daily only.",
    "time_out": "A timed game's move came after its thinking time: the game is lost.",
    "bad_think": "Timed play is for Black Hole, with 10, 30 or 60 seconds a move.",
    "bad_date": "A date is YYYY-MM-DD, not in the future.",
}
