"""The errors the API answers with: ``{"code": "<stable machine code>", "detail": "<a
sentence for the player>"}`` and an HTTP status, everywhere (routes, middleware, 404s).

``code`` never changes once published (clients and translations key on it); ``detail``
is for people and may be reworded. A refused request changes nothing. ``detail`` is in
the request's language (:mod:`winnable.web.pages.i18n`): errors raised with an
:func:`~winnable.web.pages.i18n.N_` message are translated; a sentence the rules wrote in
English (why a move is illegal) is replaced in other languages by the code's sentence.

>>> error = NotFound("no game with id 'x'", code="game_not_found")
>>> error.status, error.code, error.body()
(404, 'game_not_found', {'code': 'game_not_found', 'detail': "no game with id 'x'"})
>>> Conflict(N_("this game is played without undo"), code="undo_refused").body("nl")
{'code': 'undo_refused', 'detail': 'deze partij wordt zonder terugnemen gespeeld'}
>>> Conflict("QD is not the top card of a pile", code="illegal_move").body("fr")["detail"]
"Les règles n'autorisent pas ce coup ici."
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
from typing import Any, ClassVar, TypedDict

from starlette.responses import Response

from winnable.web.pages.i18n import DEFAULT_LOCALE, N_, Message, translate

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


class Problem(TypedDict):
    """Every error's JSON body (the API's ``Problem``)."""

    code: str
    detail: str


class ApiError(Exception):
    """An answer other than success: status, stable ``code``, human ``detail``."""

    status: ClassVar[int] = 400
    default_code: ClassVar[str] = "bad_request"

    def __init__(self, detail: str, *, code: str | None = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.code = code or self.default_code
        self.headers = headers or {}

    def body(self, locale: str = DEFAULT_LOCALE) -> Problem:
        return {"code": self.code, "detail": localized(self.code, self.detail, locale)}

    def response(self, locale: str = DEFAULT_LOCALE) -> Response:
        return problem_response(self.status, self.code, self.detail, self.headers, locale)


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


class Unprocessable(ApiError):
    status = 422
    default_code = "invalid_request"


class _RetryLater(ApiError):
    def __init__(self, detail: str, *, code: str | None = None, retry_after: float = 1.0, headers: dict[str, str] | None = None) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(detail, code=code, headers={"Retry-After": str(seconds), **(headers or {})})
        self.retry_after = seconds


class TooManyRequests(_RetryLater):
    status = 429
    default_code = "rate_limited"


class Unavailable(_RetryLater):
    status = 503
    default_code = "unavailable"


def localized(code: str, detail: str, locale: str) -> str:
    """``detail`` in ``locale``; the code's own sentence for text that has no translation."""
    if locale == DEFAULT_LOCALE:
        return str(detail)
    fallback = CODES.get(code)
    return translate(detail, locale, fallback=fallback.translate(locale) if fallback is not None else None)


def problem_json(code: str, detail: str, locale: str = DEFAULT_LOCALE) -> bytes:
    """The error body as bytes, ``detail`` in ``locale``; never fails, whatever it holds."""
    detail = localized(code, detail, locale)
    try:
        return json.dumps({"code": code, "detail": detail}, ensure_ascii=False).encode("utf-8")
    except (UnicodeError, ValueError):
        return json.dumps({"code": code, "detail": detail}, ensure_ascii=True).encode("ascii")


def problem_response(status: int, code: str, detail: str, headers: dict[str, str] | None = None, locale: str = DEFAULT_LOCALE) -> Response:
    headers = {**(headers or {}), "Content-Language": locale}
    return Response(problem_json(code, detail, locale), status_code=status, headers=headers, media_type="application/json")


# The codes a client may see, for the OpenAPI description; in other languages than English,
# the sentence of an error whose own detail has no translation.
CODES: dict[str, Message] = {
    "bad_request": N_("The request is malformed."),
    "invalid_request": N_("The request's parameters or body do not match the schema."),
    "invalid_json": N_("The request body is not valid JSON."),
    "json_required": N_("A state-changing call needs a JSON body (Content-Type: application/json)."),
    "body_too_large": N_("The request body is over the server's limit."),
    "headers_too_large": N_("The request headers are over the server's limit."),
    "host_not_allowed": N_("The Host header names a site this server does not serve."),
    "cross_site": N_("A state-changing call came from another site."),
    "csrf_failed": N_("A state-changing call without a same-origin Origin or a valid CSRF token."),
    "not_found": N_("No such page or endpoint."),
    "method_not_allowed": N_("The endpoint exists but not for this method."),
    "unknown_game": N_("No game with that game id (see /api/catalog)."),
    "game_not_found": N_("No stored game with that id."),
    "bad_deal": N_("Not a deal number of that game."),
    "bad_move": N_("Not a move in the game's notation."),
    "illegal_move": N_("A move the rules refuse here."),
    "game_over": N_("The game is over: no more moves."),
    "undo_refused": N_("The game's undo rule, or its state, refuses the undo."),
    "move_limit": N_("The game has reached the move cap."),
    "nothing_to_redo": N_("No move undone since the last move: nothing to redo."),
    "not_winnable": N_("No winning line is known or found from that position."),
    "stale": N_("The game has moved on since the line was shown."),
    "bad_position": N_("The position asked for is not in the game's history."),
    "stale_game": N_("The stored game no longer replays under the current rules."),
    "budget_too_large": N_("A solver budget above the server's cap."),
    "no_winnable_deal": N_("No deal of that game has been proved winnable yet."),
    "rate_limited": N_("Too many requests from this client; see Retry-After."),
    "solver_busy": N_("The solver queue is full; see Retry-After."),
    "solver_queue_full_for_client": N_("This client already has the most solver jobs it may have waiting."),
    "unavailable": N_("The server cannot answer now; see Retry-After."),
    "database_unavailable": N_("The server's database cannot answer for a moment (a restart); see Retry-After."),
    "internal_error": N_("A bug on the server's side."),
    "sign_in_required": N_("This needs a signed-in player (the Daily, the account)."),
    "bad_credentials": N_("The name or the password is wrong (which one is not said)."),
    "bad_name": N_("A player name is 3 to 24 letters or digits, with . _ - between them."),
    "bad_password": N_("A password is 8 to 128 characters, without control characters."),
    "blank_password": N_("A password needs at least one visible character."),
    "name_taken": N_("The name cannot be used for a new account."),
    "daily_unavailable": N_("No deal of that game has been proved winnable yet: no Daily."),
    "daily_no_help": N_("Hints and analyses are off in the Daily while its day lasts."),
    "daily_no_restart": N_("The Daily is one attempt: it cannot be restarted."),
    "daily_over": N_("That Daily's day is over: its attempts are final."),
    "daily_played": N_("A name plays each Daily once, whatever happens to its account."),
    "time_out": N_("A timed game's move came after its thinking time: the game is lost."),
    "bad_think": N_("Timed play is for Black Hole, with 10, 30 or 60 seconds a move."),
    "bad_date": N_("A date is YYYY-MM-DD, not in the future."),
    "challenge_not_found": N_("No challenge with that link."),
    "challenge_no_help": N_("Hints and analyses are off in a ranked challenge attempt until it is over."),
    "challenge_no_restart": N_("A ranked challenge attempt is one attempt: it cannot be restarted."),
    "challenge_played": N_("A name has one ranked attempt at each challenge, whatever happens to its account."),
    "challenge_in_play": N_("A ranked challenge attempt is being played: no unranked copy beside it."),
    "challenge_daily": N_("A Daily becomes a challenge only once its day is over."),
    "challenge_limit": N_("Too many challenges made by this account today."),
    "challenge_open": N_("These cards are an open challenge: no hints nor analyses on them until it closes."),
    "challenge_ranked": N_("A ranked challenge attempt becomes a challenge only once it is over."),
    "challenge_closed": N_("The challenge has closed: its results are final."),
}
