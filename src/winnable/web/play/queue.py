"""The solver queue: every search a request needs (hint, still-winnable, analysis, and
anything later) runs here, on a fixed number of worker threads, never a thread per
request.

* **Hints first.** Each job is of a kind: a ``hint`` (a player waiting at the table, a
  budget of seconds) or an ``analysis`` ("still winnable?", "where did I lose?": several
  searches, up to ten seconds). A free worker takes waiting hints before any analysis,
  and analyses run on at most ``analysis_threads`` workers at once (default: all but
  one), so one worker is always there for hints however many analyses wait.
* **Capped shares.** A request is admitted (:meth:`SolverQueue.admit`, before the route
  reads its game, so that a refusal costs nothing but a count) only while its client
  has fewer than ``per_client`` solver requests in progress (429), fewer than
  ``analyses_per_client`` analyses (429), and while all analyses together are fewer
  than ``analyses`` and those of anonymous clients (guests, nobody signed in) fewer than
  ``anonymous_analyses`` (503 with ``Retry-After``). So forty addresses looping long
  analyses hold ``anonymous_analyses`` requests and one worker, no more.
* **Bounded.** At most ``max_waiting`` jobs wait, all clients together; past that a
  request is refused at once with 503 and ``Retry-After`` (estimated from recent jobs).
  Admitted analyses hold at most ``analyses`` of those places, the rest are the hints'.
* **Fair.** Each client has its own line per kind; workers take the next job from the
  clients in turn (round robin), and one client runs at most ``running_per_client``
  jobs at once.
* **Deadlines.** A job carries its request's deadline: it is dropped unrun if the
  deadline passes while it waits (the caller gets :class:`Expired`), and the search is
  given only the time left.

The engine releases the GIL while it searches, so the workers' searches run beside the
event loop, at a lower CPU priority (``nice``) so that moves and reads come first. The pool of winnable deals is filled by its own low-priority process
(:mod:`winnable.web.play.pool`), never by requests.

>>> import asyncio, time
>>> from concurrent.futures import ThreadPoolExecutor
>>> queue = SolverQueue(workers=1, max_waiting=4)
>>> async def request():  # what a route does
...     with queue.admit("client-a", ANALYSIS, anonymous=True):
...         return await queue.run("client-a", lambda seconds: f"searched {seconds > 0}", time.monotonic() + 1,
...                                kind=ANALYSIS)
>>> ThreadPoolExecutor(1).submit(asyncio.run, request()).result()  # an event loop of its own
'searched True'
>>> queue.stats()["analyses"]  # the request is over: it holds nothing
0
>>> queue.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from winnable.web.errors import TooManyRequests, Unavailable
from winnable.web.pages.i18n import NP_, N_


HINT = "hint"
"""A player waiting at the table for the next move: goes first."""
ANALYSIS = "analysis"
""""Still winnable?" and "where did I lose?": after every hint waiting."""
KINDS = (HINT, ANALYSIS)  # in the order workers take them


class Expired(Exception):
    """The job's deadline passed before a worker was free for it."""


@dataclass(eq=False)
class Job:
    client: str
    work: Callable[[float], Any]
    deadline: float
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    kind: str = HINT
    state: str = "waiting"  # waiting -> running -> done, or waiting -> dropped
    enqueued: float = field(default_factory=time.monotonic)


class SolverQueue:
    def __init__(self, workers: int = 2, max_waiting: int = 32, per_client: int = 4,
                 running_per_client: int = 1, on_change: Callable[[int, int, float], None] | None = None,
                 nice: int = 0, analysis_threads: int | None = None, analyses: int = 16,
                 analyses_per_client: int = 2, anonymous_analyses: int = 8) -> None:
        self.workers = max(1, workers)
        self.nice = nice  # the workers' CPU priority below the server's (0: the same)
        self.max_waiting = max_waiting
        self.per_client = per_client
        self.running_per_client = running_per_client
        # analyses leave one worker to hints (with a single worker, they share it)
        self.analysis_threads = max(1, min(self.workers, analysis_threads or self.workers - 1))
        self.analyses = analyses
        self.analyses_per_client = analyses_per_client
        self.anonymous_analyses = anonymous_analyses
        self.on_change = on_change  # (waiting, running, CPU seconds so far), for the metrics
        self._lines: dict[str, dict[str, deque[Job]]] = {kind: {} for kind in KINDS}
        self._turns: dict[str, deque[str]] = {kind: deque() for kind in KINDS}  # clients with waiting jobs
        self._running: dict[str, int] = {}
        self._running_kind: dict[str, int] = dict.fromkeys(KINDS, 0)
        self._waiting = 0
        self._busy = 0
        # requests admitted and not finished: per client, per client's analyses, all analyses
        self._requests: dict[str, int] = {}
        self._client_analyses: dict[str, int] = {}
        self._analyses = 0
        self._anonymous_analyses = 0
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._stopping = False
        self.done = 0
        self.dropped = 0
        self.refused = 0
        self.cpu_seconds = 0.0  # CPU time the workers spent on jobs (their searches)
        self._job_seconds = 0.5  # running mean of a job's time, for Retry-After

    # -- figures -----------------------------------------------------------------------
    @property
    def waiting(self) -> int:
        return self._waiting

    @property
    def running(self) -> int:
        return self._busy

    def stats(self) -> dict[str, int]:
        """Counts, for the metrics and the tests: jobs waiting and running (``running_analyses``
        of them analyses), requests admitted (``analyses`` of them, ``anonymous_analyses``
        of those from clients nobody signed in at), done, dropped unrun, refused."""
        return {"workers": self.workers, "waiting": self._waiting, "running": self._busy,
                "running_analyses": self._running_kind[ANALYSIS], "requests": sum(self._requests.values()),
                "analyses": self._analyses, "anonymous_analyses": self._anonymous_analyses,
                "done": self.done, "dropped": self.dropped, "refused": self.refused}

    def retry_after(self) -> float:
        """Seconds until a place is likely free."""
        return max(1.0, self._job_seconds * (self._waiting + 1) / self.workers)

    # -- the request side ----------------------------------------------------------------
    @contextlib.contextmanager
    def admit(self, client: str, kind: str = HINT, anonymous: bool = True) -> Iterator[None]:
        """Hold one of ``client``'s places for a request of ``kind`` while the block runs
        (the request's searches go through :meth:`run` inside it). Refused at once, before
        the request does any work: 429 past the client's own share, 503 with
        ``Retry-After`` past the analyses' share of everyone, or of ``anonymous``
        clients (nobody signed in) together.

        >>> queue = SolverQueue(analyses_per_client=1)
        >>> with queue.admit("10.0.0.1", ANALYSIS):
        ...     with queue.admit("10.0.0.1", ANALYSIS):
        ...         pass
        Traceback (most recent call last):
        ...
        winnable.web.errors.TooManyRequests: you already have 1 solver request waiting or running; wait for it
        """
        analysis = kind == ANALYSIS
        with self._cond:
            mine = self._requests.get(client, 0)
            analyses = self._client_analyses.get(client, 0)
            if mine >= self.per_client or (analysis and analyses >= self.analyses_per_client):
                self.refused += 1
                n = mine if mine >= self.per_client else analyses
                raise TooManyRequests(
                    NP_("you already have {n} solver request waiting or running; wait for it",
                        "you already have {n} solver requests waiting or running; wait for them", n),
                    code="solver_queue_full_for_client", retry_after=self.retry_after())
            if analysis and (self._analyses >= self.analyses
                             or (anonymous and self._anonymous_analyses >= self.anonymous_analyses)):
                self.refused += 1
                raise Unavailable(N_("the solver is busy with other players' requests; try again shortly"),
                                  code="solver_busy", retry_after=self.retry_after())
            self._requests[client] = mine + 1
            if analysis:
                self._client_analyses[client] = analyses + 1
                self._analyses += 1
                self._anonymous_analyses += anonymous
        try:
            yield
        finally:
            with self._cond:
                _decrement(self._requests, client)
                if analysis:
                    _decrement(self._client_analyses, client)
                    self._analyses -= 1
                    self._anonymous_analyses -= anonymous

    async def run(self, client: str, work: Callable[[float], Any], deadline: float, kind: str = HINT) -> Any:
        """``work(seconds_left)`` on a worker thread, in ``client``'s turn among the jobs
        of its ``kind`` (hints before analyses), before ``deadline`` (a
        :func:`time.monotonic` time). Raises 429/503 when the queue is full,
        :class:`Expired` when no worker came free in time."""
        if kind not in self._lines:
            raise ValueError(f"no such kind of solver job: {kind!r}")
        loop = asyncio.get_running_loop()
        job = Job(client, work, deadline, loop, loop.create_future(), kind)
        self._enqueue(job)
        try:
            left = deadline - time.monotonic()
            try:
                return await asyncio.wait_for(asyncio.shield(job.future), timeout=max(left, 0.0))
            except asyncio.TimeoutError:
                if self._drop(job):
                    raise Expired() from None
                return await job.future  # it started: its search ends near the deadline
        except asyncio.CancelledError:  # the client went away: do not search for nobody
            self._drop(job)
            raise

    def _enqueue(self, job: Job) -> None:
        self._start()
        with self._cond:
            lines = self._lines[job.kind]
            mine = sum(len(kind.get(job.client, ())) for kind in self._lines.values()) + self._running.get(job.client, 0)
            if mine >= self.per_client:
                self.refused += 1
                raise TooManyRequests(
                    NP_("you already have {n} solver request waiting or running; wait for it",
                        "you already have {n} solver requests waiting or running; wait for them", mine),
                    code="solver_queue_full_for_client", retry_after=self.retry_after())
            if self._waiting >= self.max_waiting:
                self.refused += 1
                raise Unavailable(N_("the solver is busy with other players' requests; try again shortly"),
                                  code="solver_busy", retry_after=self.retry_after())
            line = lines.get(job.client)
            if line is None:
                line = lines[job.client] = deque()
                self._turns[job.kind].append(job.client)
            line.append(job)
            self._waiting += 1
            self._cond.notify()
        self._changed()

    def _drop(self, job: Job) -> bool:
        """Take a waiting job out of the queue; False if a worker already has it."""
        with self._cond:
            if job.state != "waiting":
                return False
            job.state = "dropped"
            lines = self._lines[job.kind]
            line = lines.get(job.client)
            if line is not None:
                line.remove(job)
                if not line:
                    del lines[job.client]
                    self._turns[job.kind].remove(job.client)
            self._waiting -= 1
            self.dropped += 1
        self._changed()
        return True

    # -- the workers -----------------------------------------------------------------------
    def _start(self) -> None:
        if len(self._threads) == self.workers:
            return
        with self._cond:
            if self._stopping:
                raise Unavailable(N_("the server is stopping"), code="unavailable", retry_after=5)
            while len(self._threads) < self.workers:
                thread = threading.Thread(target=self._work, name=f"winnable-solver-{len(self._threads)}", daemon=True)
                self._threads.append(thread)
                thread.start()

    def _next(self) -> Job | None:
        """The next job in turn whose client may run one more: hints first, then analyses
        while fewer than ``analysis_threads`` run (lock held)."""
        for kind in KINDS:
            if kind == ANALYSIS and self._running_kind[ANALYSIS] >= self.analysis_threads:
                continue
            turns, lines = self._turns[kind], self._lines[kind]
            for _ in range(len(turns)):
                client = turns[0]
                turns.rotate(-1)
                if self._running.get(client, 0) >= self.running_per_client:
                    continue
                line = lines[client]
                job = line.popleft()
                if not line:
                    del lines[client]
                    turns.remove(client)
                return job
        return None

    def _work(self) -> None:
        if self.nice:
            try:  # Linux: a thread's own priority; requests come before searches
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
            except (AttributeError, OSError):
                pass
        while True:
            with self._cond:
                job = None
                while not self._stopping and (job := self._next()) is None:
                    self._cond.wait()
                if job is None:
                    return
                job.state = "running"
                self._waiting -= 1
                self._busy += 1
                self._running_kind[job.kind] += 1
                self._running[job.client] = self._running.get(job.client, 0) + 1
            self._changed()
            started = time.monotonic()
            cpu_started = time.thread_time()
            result: Any = None
            error: BaseException | None = None
            left = job.deadline - started
            if left <= 0.001:
                error = Expired()
            else:
                try:
                    result = job.work(left)
                except BaseException as failure:  # handed to the request, which decides
                    error = failure
            took = time.monotonic() - started
            self.cpu_seconds += time.thread_time() - cpu_started
            with self._cond:
                job.state = "done"
                self._busy -= 1
                self._running_kind[job.kind] -= 1
                count = self._running[job.client] - 1
                if count:
                    self._running[job.client] = count
                else:
                    del self._running[job.client]
                self.done += 1
                self._job_seconds = 0.9 * self._job_seconds + 0.1 * took
                self._cond.notify_all()
            self._changed()
            try:
                job.loop.call_soon_threadsafe(_settle, job.future, result, error)
            except RuntimeError:  # the request's loop is closed: nobody waits
                pass

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self._waiting, self._busy, self.cpu_seconds)

    def stop(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        for thread in self._threads:
            thread.join(timeout)
        self._threads = []
        with self._cond:
            self._stopping = False


def _decrement(counts: dict[str, int], key: str) -> None:
    count = counts[key] - 1
    if count:
        counts[key] = count
    else:
        del counts[key]


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
