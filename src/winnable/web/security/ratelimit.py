"""Rate limits per client, with the ``limits`` package: every request counts against
``default``; moves, new games and solver calls also against their own, stricter, limit
(see :class:`~winnable.web.settings.Settings`). Over a limit: 429 with ``Retry-After``.

A client is its IP address (IPv6: its /64 network, which one machine usually has
whole); behind a reverse proxy, ``winnable serve --forwarded-allow-ips`` makes the
address the proxy saw the client's. Counts live in the process by default; servers that
share a database can share counts too (``WINNABLE_RATE_LIMIT_STORAGE=redis://...``);
while that store is away, each process counts alone (:mod:`.shared_counts`).

>>> from winnable.web.settings import Settings
>>> limits = RateLimits(Settings(limit_create="2/minute"))
>>> limits.check("create", "10.0.0.1"); limits.check("create", "10.0.0.1")
>>> try:
...     limits.check("create", "10.0.0.1")
... except TooManyRequests as error:
...     print(error.status, error.code, error.headers["Retry-After"] != "")
...     print(error.detail)  # doctest: +ELLIPSIS
429 rate_limited True
too many new games from your address (the limit is 2 per minute); try again in ... seconds
>>> limits.check("create", "10.0.0.2")   # another client has its own count
>>> client_key("2001:db8::1") == client_key("2001:db8::2"), client_key("127.0.0.1")
(True, '127.0.0.1')
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from functools import lru_cache

from limits import RateLimitItem, parse_many
from limits.storage import Storage
from limits.strategies import FixedWindowRateLimiter

from winnable.web.errors import TooManyRequests
from winnable.web.pages.i18n import N_, NP_, Message
from winnable.web.security.shared_counts import SharedCounts, shared_storage
from winnable.web.settings import Settings

WHAT: dict[str, str] = {  # messages (N_), or a later limit's own name
    "default": N_("requests"),
    "play": N_("moves, undos and restarts"),
    "create": N_("new games"),
    "solver": N_("hints and analyses"),
    "signup": N_("new accounts"),
    "login": N_("sign-in attempts"),
    "login_name": N_("sign-in attempts for this name"),
    "login_device": N_("sign-in attempts from this browser"),
}
PER = {"second": N_("second"), "minute": N_("minute"), "hour": N_("hour"), "day": N_("day"), "month": N_("month"), "year": N_("year")}


def retry_in(seconds: int) -> Message:
    """When to try again, in words: seconds up to two minutes, then minutes.

    >>> retry_in(1), retry_in(90), retry_in(3599).translate("fr")
    ('try again in 1 second', 'try again in 90 seconds', 'réessayez dans 60 minutes')
    """
    if seconds < 120:
        return NP_("try again in {n} second", "try again in {n} seconds", seconds)
    return NP_("try again in {n} minute", "try again in {n} minutes", math.ceil(seconds / 60))


def refusal(name: str, item: RateLimitItem, wait: int) -> Message:
    """The detail of a 429 for the limit ``name`` (``item``), to try again in ``wait`` seconds."""
    period = PER.get(item.GRANULARITY.name, item.GRANULARITY.name)
    if name == "login_name":
        return N_(
            "too many sign-in attempts for this name from browsers it has not signed in with (the limit is "
            "{n} per {period}); {retry}, or sign in from a browser you signed in with before",
            n=item.amount,
            period=period,
            retry=retry_in(wait),
        )
    if name == "hint":  # its own sentence: French elides before the word ("trop d'indices")
        return N_(
            "too many hints from your address (the limit is {n} per {period}); {retry}", n=item.amount, period=period, retry=retry_in(wait)
        )
    if name == "login_device":
        return N_(
            "too many sign-in attempts from this browser (the limit is {n} per {period}); {retry}",
            n=item.amount,
            period=period,
            retry=retry_in(wait),
        )
    return N_(
        "too many {what} from your address (the limit is {n} per {period}); {retry}",
        what=WHAT.get(name, name),
        n=item.amount,
        period=period,
        retry=retry_in(wait),
    )


@lru_cache(maxsize=4096)
def client_key(address: str | None) -> str:
    """The rate-limit identity of a client address."""
    if not address:
        return "unknown"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class WindowCounts(Storage):
    """Fixed-window counts in this process, for ``memory://``: the ``limits`` package's
    own memory storage starts a timer thread every 10 ms under load and scans every key
    each time, which cost more than the rest of a request; here expired windows are
    dropped when next touched, and swept at most once a minute (memory stays bounded by
    the clients of the last minutes)."""

    STORAGE_SCHEME = ["winnable-memory"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: str) -> None:
        self._counts: dict[str, list[float]] = {}  # key -> [count, window end]
        self._lock = threading.Lock()
        self._next_sweep = time.time() + 60
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception]:
        return ValueError

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            if now > self._next_sweep:
                self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
                self._next_sweep = now + 60
            entry = self._counts.get(key)
            if entry is None or entry[1] <= now:
                entry = self._counts[key] = [0, now + expiry]
            entry[0] += amount
            return int(entry[0])

    def get(self, key: str) -> int:
        entry = self._counts.get(key)
        return 0 if entry is None or entry[1] <= time.time() else int(entry[0])

    def get_expiry(self, key: str) -> float:
        entry = self._counts.get(key)
        return time.time() if entry is None else entry[1]

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self._lock:
            count = len(self._counts)
            self._counts = {}
        return count

    def clear(self, key: str) -> None:
        with self._lock:
            self._counts.pop(key, None)


class RateLimits:
    """Named limits (``default``, ``play``, ``create``, ``solver``, ``hint``...) counted per client."""

    def __init__(self, settings: Settings) -> None:
        self.enabled = settings.rate_limits
        uri = settings.rate_limit_storage
        self.storage: Storage = WindowCounts() if uri.startswith("memory://") else shared_storage(uri, WindowCounts())
        self.limiter = FixedWindowRateLimiter(self.storage)
        self.limits: dict[str, list[RateLimitItem]] = {
            "default": parse_many(settings.limit_default),
            "play": parse_many(settings.limit_play),
            "create": parse_many(settings.limit_create),
            "solver": parse_many(settings.limit_solver),
            "hint": parse_many(settings.limit_hint),
            "signup": parse_many(settings.limit_signup),
            "login": parse_many(settings.limit_login),
            "login_name": parse_many(settings.limit_login_name),
            "login_device": parse_many(settings.limit_login_device),
        }

    def add(self, name: str, notation: str) -> None:
        """A new named limit (for features that come later: sign-in, the Daily...)."""
        self.limits[name] = parse_many(notation)
        WHAT.setdefault(name, name)

    def check(self, name: str, key: str) -> None:
        """Count one request of ``key`` against the limit ``name``; 429 past it, saying
        when to try again (``Retry-After``, and in the detail)."""
        if not self.enabled:
            return
        for item in self.limits[name]:
            if not self.limiter.hit(item, name, key):
                reset = self.limiter.get_window_stats(item, name, key).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise TooManyRequests(refusal(name, item, wait), retry_after=wait)

    def exhausted(self, name: str, key: str) -> bool:
        """True if the next request of ``key`` would be over the limit ``name``
        (nothing is counted)."""
        return self.enabled and not all(self.limiter.test(item, name, key) for item in self.limits[name])

    def once(self, key: str, seconds: int) -> bool:
        """True the first time ``key`` is seen within ``seconds`` (by every server sharing
        the counts): what makes a proof of work good for one use."""
        return self.storage.incr(f"once/{key}", seconds) == 1

    def reset(self) -> None:
        self.storage.reset()

    def stop(self) -> None:
        """The app stops: no more probing for a shared store that went away."""
        if isinstance(self.storage, SharedCounts):
            self.storage.stop()
