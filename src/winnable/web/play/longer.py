"""Longer searches in the background, for hints whose own search found nothing.

A hint searches for a couple of CPU seconds (``hint_seconds``); on the hardest deals of
the Spider family (about one in a hundred Black Widow and four-suit Spider deals at the
start) that is not enough, though nearly all are won within a few seconds more. Such a
hint does not give up: it starts a **longer search** of the same position here, with a
budget of ``hint_longer_seconds`` of CPU time, on a thread of its own at the lowest CPU
priority (moves, reads and other players' hints come first; the budget is CPU time, so
a busy server gives the same search, only later). The hint answers at once that the
search goes on (``searching``); when it wins, its line is in the solver's verdict cache,
so the next hint at that position answers from it with no search. A position whose
longer search found nothing is remembered too: asking again answers so, with no search.

What a client can make it cost: one longer search of its own waiting or running at a
time (a newer one takes its waiting one's place: the player has moved on), at most
``waiting`` waiting in all (beyond, the hint is an ordinary "unknown"), one running, and
each position searched once (the same position asked for by many players, or again, is
one search). A refused or deduplicated start costs a dictionary lookup.

>>> import threading
>>> done = threading.Event()
>>> longer = LongerSearches(lambda key, job: done.set() or False, waiting=2)  # found nothing
>>> longer.start(("spider-4", "a"), "client-1", job="a")
True
>>> done.wait(5) and longer.wait_idle(5)
True
>>> longer.state(("spider-4", "a")), longer.state(("spider-4", "b"))
('searched', None)
>>> longer.stop()
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, Literal, TypeVar

log = logging.getLogger("winnable.web")

JobT = TypeVar("JobT")

State = Literal["waiting", "running", "searched"]

REMEMBERED = 4096
"""Positions whose longer search is over kept in memory (their keys only): asking
there again costs no new search."""


def lower_priority(nice: int) -> None:
    """Lower the calling thread's CPU priority by ``nice`` (Linux: a thread's own
    priority; elsewhere nothing)."""
    if not nice:
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
    except (AttributeError, OSError):
        pass


class LongerSearches(Generic[JobT]):
    """One background thread running ``run(key, job)`` for the positions hints leave
    unknown, each position once, at most one a client waiting or running, at most
    ``waiting`` waiting in all. ``run`` puts what it finds where hints look (the
    solver's cache) and says whether it found anything; this class remembers the
    positions where it found nothing (``searched``)."""

    def __init__(self, run: Callable[[Hashable, JobT], bool], waiting: int = 8, nice: int = 19) -> None:
        self.run = run
        self.waiting = waiting
        self.nice = nice
        self._cond = threading.Condition()
        self._queue: OrderedDict[Hashable, tuple[str, JobT]] = OrderedDict()  # key -> (client, job), oldest first
        self._running: tuple[Hashable, str, JobT] | None = None
        self._searched: OrderedDict[Hashable, None] = OrderedDict()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self.started = self.done = self.refused = 0

    def state(self, key: Hashable) -> State | None:
        """Where the longer search of ``key`` is: ``waiting``, ``running``, ``searched``
        (over, and it found nothing) or None (none, or it found what the solver's cache
        now holds)."""
        with self._cond:
            if key in self._queue:
                return "waiting"
            if self._running is not None and self._running[0] == key:
                return "running"
            return "searched" if key in self._searched else None

    def job(self, key: Hashable) -> JobT | None:
        """The job of ``key``'s longer search while it waits or runs, else None."""
        with self._cond:
            if key in self._queue:
                return self._queue[key][1]
            if self._running is not None and self._running[0] == key:
                return self._running[2]
            return None

    def start(self, key: Hashable, client: str, job: JobT) -> bool:
        """Search ``key`` (``job`` says what) in the background; whether it is waiting
        or running now (a position already waiting or running: True, nothing new).
        A client's waiting search gives its place to its new one; when the places are
        full, or the class is stopping, nothing starts (False)."""
        with self._cond:
            if self._stopping or self.waiting <= 0:
                return False
            if key in self._queue or (self._running is not None and self._running[0] == key):
                return True
            if key in self._searched:
                return False
            if self._running is not None and self._running[1] == client:
                self.refused += 1  # its own is running: one at a time
                return False
            mine = [other for other, (owner, _) in self._queue.items() if owner == client]
            for other in mine:
                del self._queue[other]
            if len(self._queue) >= self.waiting:
                self.refused += 1
                return False
            self._queue[key] = (client, job)
            self.started += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="winnable-longer-searches", daemon=True)
                self._thread.start()
            self._cond.notify_all()
            return True

    def stats(self) -> dict[str, int]:
        with self._cond:
            return {
                "longer_waiting": len(self._queue),
                "longer_running": int(self._running is not None),
                "longer_done": self.done,
                "longer_refused": self.refused,
            }

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing waits or runs (tests, and a stopping server); whether it is so."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and self._running is None, timeout)

    def stop(self, timeout: float = 1.0) -> None:
        """Drop what waits and let the thread end after its search (a search cannot be
        interrupted: the thread is a daemon, so a server that stops does not wait for it
        longer than ``timeout``)."""
        with self._cond:
            self._stopping = True
            self._queue.clear()
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    def _work(self) -> None:
        lower_priority(self.nice)
        while True:
            with self._cond:
                while not self._stopping and not self._queue:
                    self._cond.wait()
                if self._stopping:
                    return
                key, (client, job) = self._queue.popitem(last=False)
                self._running = (key, client, job)
                self._cond.notify_all()
            found = False
            try:
                found = self.run(key, job)
            except Exception:  # a bug must not end the thread: the position counts as searched
                log.exception("a longer search failed")
            with self._cond:
                self._running = None
                self.done += 1
                if not found:
                    self._searched[key] = None
                while len(self._searched) > REMEMBERED:
                    self._searched.popitem(last=False)
                self._cond.notify_all()
