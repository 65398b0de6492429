"""The background purge of sessions: expired ones, and guest sessions that never kept a
game (a browser that only read, or was refused), every ``WINNABLE_PURGE_MINUTES``.

One thread per server process, at the lowest CPU priority, deleting a few hundred rows a
transaction (:meth:`~winnable.web.players.accounts.AccountService.purge`): a request never waits
behind more than one small batch. Several workers or servers purging at once do no harm
(each deletes what is left); each starts at a random point of the period, so they rarely do.

>>> class Accounts:
...     def purge(self): return 3
>>> purger = Purger(Accounts(), every=0)   # 0: never in the background
>>> purger.start(); purger.running, purger.run_once()
(False, 3)
"""

from __future__ import annotations

import logging
import os
import random
import threading
from typing import Protocol

log = logging.getLogger("winnable.web")


class Purges(Protocol):
    """What the purger runs: :class:`~winnable.web.players.accounts.AccountService` (or a stand-in)."""

    def purge(self) -> int: ...


class Purger:
    """Runs ``accounts.purge()`` every ``every`` seconds in a daemon thread."""

    def __init__(self, accounts: Purges, every: float) -> None:
        self.accounts = accounts
        self.every = every
        self.purged = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def run_once(self) -> int:
        """Purge now, in this thread; how many sessions went."""
        gone = self.accounts.purge()
        self.purged += gone
        return gone

    def start(self) -> None:
        if self.every <= 0 or self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="winnable-purge", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)
            self._thread = None

    def _run(self) -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except (AttributeError, OSError):  # not Linux: the thread keeps the server's priority
            pass
        wait = random.uniform(0.1, 1.0) * self.every
        while not self._stop.wait(wait):
            try:
                self.run_once()
            except Exception:  # the database is away for a moment: next time
                log.exception("purging sessions")
            wait = self.every
