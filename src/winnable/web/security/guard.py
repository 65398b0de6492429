"""The gate every request passes before any route sees it (one ASGI middleware, so that
refusals cost little): header and body size, the Host header, the per-client default
rate limit, JSON bodies and the same-origin proof on state-changing calls; and on the
way out, the security headers and the request's latency for the metrics.

Refusals answer like every other error: ``{"code": ..., "detail": ...}``.

========================  ====  ======================================================
check                     code  when
========================  ====  ======================================================
headers_too_large         431   request headers over ``max_header_bytes`` (16 KiB)
host_not_allowed          400   Host not in ``allowed_hosts`` (DNS rebinding)
rate_limited              429   over the client's ``limit_default``
method_not_allowed        405   a POST/PUT/PATCH/DELETE on a path that does not have
                                that method (with ``Allow``), before the next two
json_required             415   a POST/PUT/PATCH/DELETE whose body is not JSON
cross_site / csrf_failed  403   see :mod:`winnable.web.security.csrf`
body_too_large            413   over ``max_body_bytes`` (64 KiB): by its Content-Length
                                before reading, or a streamed body as soon as it passes
========================  ====  ======================================================
"""

from __future__ import annotations

import re
import time
from typing import Any, Awaitable, Callable, Iterable

from starlette.exceptions import HTTPException
from starlette.routing import Mount

from winnable.web import metrics
from winnable.web.errors import ApiError, problem_json
from winnable.web.pages.i18n import N_, locale_of_scope
from winnable.web.security.csrf import CsrfPolicy
from winnable.web.security.ratelimit import RateLimits, client_key
from winnable.web.settings import Settings

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
NO_STORE = (b"cache-control", b"no-store")
HSTS = (b"strict-transport-security", b"max-age=31536000")
UNLIMITED = ("/api/health", "/metrics")  # polled by load balancers and Prometheus


class BodyTooLarge(HTTPException):
    """Raised while a body is read: FastAPI passes HTTP exceptions on to the handlers."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is over {limit // 1024} KiB")


def host_allowed(host: str, allowed: list[str]) -> bool:
    """``host`` (a Host header: name or address, maybe a port) is one of ``allowed``
    (exact names, ``*.example.org`` for subdomains, ``*`` for any)."""
    if host.startswith("["):
        name = host[1 : host.find("]")] if "]" in host else host
    elif host.count(":") == 1:
        name = host.split(":", 1)[0]
    else:
        name = host
    name = name.rstrip(".")
    for pattern in allowed:
        if pattern == "*" or pattern == name or (pattern.startswith("*.") and name.endswith(pattern[1:])):
            return True
    return False


def route_methods(routes: Iterable[Any]) -> list[tuple[re.Pattern[str], frozenset[str]]]:
    """Each route's path pattern and methods, included routers opened (a mounted
    folder of static files takes GET and HEAD)."""
    table: list[tuple[re.Pattern[str], frozenset[str]]] = []
    for route in routes:
        inner = getattr(route, "original_router", None)  # FastAPI keeps an included router whole
        if inner is not None:
            table.extend(route_methods(inner.routes))
        elif isinstance(route, Mount):
            table.append((route.path_regex, frozenset({"GET", "HEAD"})))
        elif getattr(route, "methods", None) and hasattr(route, "path_regex"):
            table.append((route.path_regex, frozenset(route.methods)))
    return table


def allowed_methods(table: list[tuple[re.Pattern[str], frozenset[str]]], path: str, method: str = "") -> frozenset[str] | None:
    """The methods the route that answers ``method`` at ``path`` takes (as the router
    finds it: the first route for the path and method), else every method of the routes
    of the first path that matches (a path with a route per method, GET and PUT), or
    None when no route has the path.

    >>> from fastapi import FastAPI
    >>> app = FastAPI()
    >>> @app.post("/api/games")
    ... def create(): ...
    >>> table = route_methods(app.router.routes)
    >>> sorted(allowed_methods(table, "/api/games")), allowed_methods(table, "/api/nothing")
    (['POST'], None)
    >>> @app.put("/api/games")
    ... def replace(): ...
    >>> sorted(allowed_methods(route_methods(app.router.routes), "/api/games", "PATCH"))
    ['POST', 'PUT']
    """
    found: frozenset[str] | None = None
    first: re.Pattern[str] | None = None
    for pattern, methods in table:
        if pattern.match(path):
            if method in methods:
                return methods
            if first is None or pattern.pattern == first.pattern:  # one path, a route per method: all of them
                first = pattern
                found = (found or frozenset()) | methods
    return found


class Guard:
    """The ASGI middleware described above."""

    def __init__(
        self, app: Callable[[Scope, Receive, Send], Awaitable[None]], settings: Settings, limits: RateLimits, csrf: CsrfPolicy
    ) -> None:
        self.app = app
        self.settings = settings
        self.limits = limits
        self.csrf = csrf
        self.allowed_hosts = [host.lower().strip("[]") for host in settings.allowed_hosts]
        self.max_body = settings.max_body_bytes
        self.max_headers = settings.max_header_bytes
        self.metrics = settings.metrics
        self.routes: list[tuple[re.Pattern[str], frozenset[str]]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        https = scope.get("scheme") == "https"
        path = scope["path"]
        api = path.startswith("/api/")

        async def send_with_headers(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [item for item in message.get("headers", ()) if item[0].lower() != b"server"]
                headers.extend(SECURITY_HEADERS)
                if api:
                    headers.append(NO_STORE)
                if https:
                    headers.append(HSTS)
                message["headers"] = headers
            await send(message)

        try:
            refusal = self.refusal(scope)
            if refusal is not None:
                status = refusal[0]
                await self.refuse(send_with_headers, *refusal, locale=locale_of_scope(scope))
                return
            if b"content-length" not in scope["winnable.headers"] and scope["method"] in UNSAFE:
                receive = self.limited(receive)  # streamed: counted as it arrives
            await self.app(scope, receive, send_with_headers)
        finally:
            if self.metrics:  # nobody reads them otherwise
                route = scope.get("route")
                metrics.observe(scope["method"], getattr(route, "path", "unmatched"), status, time.perf_counter() - started)

    def refusal(self, scope: Scope) -> tuple[int, str, str, dict[str, str]] | None:
        """``(status, code, detail, headers)`` if the request is refused here."""
        size = 0
        headers: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            size += len(name) + len(value) + 4
            headers[name] = value
        if size > self.max_headers:
            return 431, "headers_too_large", N_("the request headers are over {n} KiB", n=self.max_headers // 1024), {}
        host = headers.get(b"host", b"").decode("latin-1").lower()
        if not host_allowed(host, self.allowed_hosts):
            return 400, "host_not_allowed", N_("this server does not answer for that host name"), {}
        path = scope["path"]
        if path not in UNLIMITED:
            client = scope.get("client")
            try:
                self.limits.check("default", client_key(client[0] if client else None))
            except ApiError as error:
                return error.status, error.code, error.detail, error.headers
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            if length.isdigit():
                return 413, "body_too_large", N_("the request body is over {n} KiB", n=self.max_body // 1024), {}
            return 400, "bad_request", N_("the Content-Length header is not a number"), {}
        if scope["method"] in UNSAFE:
            refusal: tuple[int, str, str, dict[str, str]] | None = None
            kind = headers.get(b"content-type", b"").split(b";", 1)[0].strip().lower()
            if kind != b"application/json":
                refusal = 415, "json_required", N_("a state-changing call needs a JSON body (Content-Type: application/json)"), {}
            elif (refused := self.csrf.refusal(scope, headers)) is not None:
                refusal = 403, refused[0], refused[1], {}
            if refusal is not None:  # only then: the calls that pass pay nothing for it
                if self.routes is None:  # the app is complete by its first request
                    self.routes = route_methods(scope["app"].router.routes) if "app" in scope else []
                allowed = allowed_methods(self.routes, path, scope["method"])
                if allowed is None:  # no such path: the router's 404
                    refusal = None
                elif scope["method"] not in allowed:
                    refusal = (
                        405,
                        "method_not_allowed",
                        N_("{method} is not allowed here", method=scope["method"][:20]),
                        {"Allow": ", ".join(sorted(allowed))},
                    )
                if refusal is not None:
                    return refusal
        scope["winnable.headers"] = headers  # parsed once, for the dependencies
        return None

    def limited(self, receive: Receive) -> Receive:
        """``receive`` that refuses a streamed body as soon as it passes the limit."""
        limit = self.max_body
        seen = 0

        async def receive_limited() -> dict[str, Any]:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        return receive_limited

    async def refuse(self, send: Send, status: int, code: str, detail: str, headers: dict[str, str], locale: str = "en") -> None:
        body = problem_json(code, detail, locale)
        raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), (b"content-language", locale.encode())]
        raw.extend((name.lower().encode(), value.encode()) for name, value in headers.items())
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": body})
