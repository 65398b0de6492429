"""Rate-limit counts shared by several servers (Redis), that keep counting when the shared
store goes away: requests are then counted in each process (one log line says so), and
the shared store is tried again in the background every second until it answers (one log
line says so); then counting is shared again. A limit is never a reason for a 500.

>>> from winnable.web.security.ratelimit import WindowCounts
>>> class Away(WindowCounts):
...     def incr(self, key, expiry, amount=1): raise ConnectionError("refused")
...     def check(self): return False
>>> counts = SharedCounts(Away(), WindowCounts(), "redis://127.0.0.1:1")
>>> counts.incr("k", 60), counts.incr("k", 60), counts.shared_up
(1, 2, False)
>>> counts.stop()
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, TypeVar

from limits.storage import Storage

log = logging.getLogger("winnable.web")

T = TypeVar("T")

RETRY_SECONDS = 1.0
"""How often the shared store is tried again while it is away."""


class SharedCounts(Storage):
    """``shared`` (a Redis storage of the ``limits`` package) while it answers, else
    ``local`` (this process's counts) until a background probe finds it back."""

    STORAGE_SCHEME = ["winnable-shared"]

    def __init__(self, shared: Storage, local: Storage, where: str, retry_seconds: float = RETRY_SECONDS) -> None:
        super().__init__(None)
        self.shared = shared
        self.local = local
        self.where = where.split("@")[-1]  # never a password in the log
        self.retry_seconds = retry_seconds
        self.shared_up = True
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._probe: threading.Thread | None = None

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError  # nothing escapes: failures of the shared store are handled here

    def _use(self, work: Callable[[Storage], T]) -> T:
        if self.shared_up:
            try:
                return work(self.shared)
            except Exception as error:  # the store's errors (redis.ConnectionError, timeouts, OSError)
                self._away(error)
        return work(self.local)

    def _away(self, error: Exception) -> None:
        with self._lock:
            if not self.shared_up:
                return
            self.shared_up = False
            log.warning(
                "rate-limit storage %s unreachable (%s): counting in this process until it is back", self.where, type(error).__name__
            )
            if not self._stopped.is_set():
                self._probe = threading.Thread(target=self._wait_for_shared, name="winnable-rate-limit-probe", daemon=True)
                self._probe.start()

    def _wait_for_shared(self) -> None:
        while not self._stopped.wait(self.retry_seconds):
            try:
                answered = bool(self.shared.check())
            except Exception:
                answered = False
            if answered:
                with self._lock:
                    self.shared_up = True
                log.warning("rate-limit storage %s is back: counting is shared again", self.where)
                return

    def stop(self) -> None:
        """No more probing (the app stops)."""
        self._stopped.set()

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        return self._use(lambda store: store.incr(key, expiry, amount))

    def get(self, key: str) -> int:
        return self._use(lambda store: store.get(key))

    def get_expiry(self, key: str) -> float:
        return self._use(lambda store: store.get_expiry(key))

    def check(self) -> bool:
        return True  # counting goes on, shared or not

    def reset(self) -> int | None:
        return self._use(lambda store: store.reset())

    def clear(self, key: str) -> None:
        self._use(lambda store: store.clear(key))


def shared_storage(uri: str, local: Storage, **options: Any) -> SharedCounts:
    """The ``limits`` storage at ``uri`` behind a :class:`SharedCounts`; a Redis that does
    not answer within a second counts as away (the URI's own ``socket_timeout`` wins)."""
    from limits.storage import storage_from_string

    if uri.startswith(("redis://", "rediss://", "redis+unix://", "valkey://", "valkeys://")):
        options = {"socket_connect_timeout": 1.0, "socket_timeout": 1.0} | options
    shared = storage_from_string(uri, **options)
    if not isinstance(shared, Storage):
        raise ValueError(f"not a storage for a server's rate limits (an asyncio one?): {uri.split('@')[-1]}")
    return SharedCounts(shared, local, uri)
