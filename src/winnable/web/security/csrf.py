"""Cross-site request forgery: a state-changing call (POST, PUT, PATCH, DELETE) is served
only if it comes from this site's own pages, or carries a CSRF token.

The proof, checked by :meth:`CsrfPolicy.refusal` for every unsafe request:

1. ``Sec-Fetch-Site`` (sent by every current browser): ``same-origin`` or ``none`` (typed
   by the user) passes; ``same-site`` and ``cross-site`` are refused;
2. else ``Origin``: this server's own origin (scheme and Host of the request) or one of
   ``trusted_origins`` passes; any other, ``null`` included, is refused;
3. else (no browser header at all, e.g. a script) an ``X-CSRF-Token`` header from
   ``GET /api/csrf`` must be valid.

Besides, the body must be JSON (``Content-Type: application/json``): an HTML form can
send no such request, and a cross-site ``fetch`` with it needs a CORS preflight, which
this server never grants.

Tokens are HMAC-signed with the key all servers on the database share, expire, and are
bound to ``binding(scope)``: the app binds them to the session cookie's digest
(:func:`winnable.web.app.session_binding`), so a token is worth something only together
with the session it was issued to.

>>> policy = CsrfPolicy(b"k" * 32)
>>> token = policy.issue({})
>>> policy.valid(token, {}), policy.valid(token + "x", {}), policy.valid("", {})
(True, False, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from typing import Any, Callable, MutableMapping

from winnable.web.pages.i18n import N_

TOKEN_HEADER = "X-CSRF-Token"
TOKEN_SECONDS = 12 * 3600

Scope = MutableMapping[str, Any]  # an ASGI scope, as Starlette types it


def no_binding(scope: Scope) -> str:
    return ""


class CsrfPolicy:
    """Checks the proof that a state-changing call comes from this site."""

    def __init__(self, key: bytes, trusted_origins: list[str] | None = None, binding: Callable[[Scope], str] = no_binding) -> None:
        self._key = key
        self.trusted_origins = {origin.lower() for origin in trusted_origins or ()}
        self.binding = binding

    # -- tokens ------------------------------------------------------------------------
    def _sign(self, expires: int, bound: str) -> str:
        mac = hmac.new(self._key, f"{expires}.{bound}".encode("utf-8", "surrogatepass"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:24]).decode("ascii")

    def issue(self, scope: Scope, now: float | None = None) -> str:
        expires = int((now or time.time()) + TOKEN_SECONDS)
        return f"{expires}.{self._sign(expires, self.binding(scope))}"

    def valid(self, token: str, scope: Scope, now: float | None = None) -> bool:
        stamp, _, mac = token.partition(".")
        if not stamp.isdigit() or len(stamp) > 12 or not mac:
            return False
        expires = int(stamp)
        if expires < (now or time.time()):
            return False
        return hmac.compare_digest(mac, self._sign(expires, self.binding(scope)))

    # -- the check -------------------------------------------------------------------------
    def refusal(self, scope: Scope, headers: dict[bytes, bytes]) -> tuple[str, str] | None:
        """None if the unsafe request may go on, else ``(code, detail)`` for a 403."""
        site = headers.get(b"sec-fetch-site")
        if site is not None and site not in (b"same-origin", b"none"):
            return "cross_site", N_("this request came from another site; state-changing calls come from this site's pages only")
        origin = headers.get(b"origin")
        if origin is not None:
            if self.same_origin(scope, headers, origin.decode("latin-1").lower()):
                return None
            return "cross_site", N_("this request came from another site (its Origin is not this server's)")
        if site is not None:  # same-origin or none, without Origin: a browser on this site
            return None
        token = headers.get(TOKEN_HEADER.lower().encode())
        if token is not None and self.valid(token.decode("latin-1"), scope):
            return None
        return (
            "csrf_failed",
            N_(
                "a state-changing call needs the Origin header of this site (browsers send it) "
                "or an {header} header with a token from GET /api/csrf",
                header=TOKEN_HEADER,
            ),
        )

    def same_origin(self, scope: Scope, headers: dict[bytes, bytes], origin: str) -> bool:
        if origin in self.trusted_origins:
            return True
        host = headers.get(b"host", b"").decode("latin-1").lower()
        scheme = scope.get("scheme", "http")
        if origin == f"{scheme}://{host}":
            return True
        # The default port may be written or left out on either side.
        default = {"http": ":80", "https": ":443"}.get(scheme, "")
        return bool(default) and (origin == f"{scheme}://{host}{default}" or f"{origin}{default}" == f"{scheme}://{host}")
