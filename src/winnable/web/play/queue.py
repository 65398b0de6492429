"""The solver queue: every search a request needs (hint, still-winnable, analysis, and
anything later) runs here, on a bounded number of worker threads, never a thread per
request.

* **Hints first.** Each job is of a kind: a ``hint`` (a player waiting at the table, a
  budget of seconds) or an ``analysis`` ("still winnable?", "where did I lose?": several
  searches, up to ten seconds). A free worker takes waiting hints before any analysis,
  and analyses run on at most ``analysis_threads`` workers at once (default: all but
  one), so one worker is always there for hints however many analyses wait.
* **Light clients first.** Among the jobs of a kind, a worker takes first the job of
  the client that had the fewest jobs waiting or running when it asked (a client with
  work waiting goes behind every client with none), then of the client that had used the
  solver least lately when it asked (its seconds of search, its jobs' seconds of waiting
  in the queue, and ``ask_seconds`` for every request it made, refused, crowded out or
  served, halved every ``usage_half_life`` seconds; an analysis still waiting adds what
  it has waited past ``patience``), then the oldest. A looping client's next job therefore goes behind every
  player who has not just been served; one client runs at most ``running_per_client``
  jobs at once.
* **Time slices.** An analysis's search that starts while other clients' analyses wait,
  or whose client had used more than a slice lately when it asked, is given at most
  ``slice_seconds`` (the engine cannot be paused, so the slice is its whole budget): a
  looping client never holds a worker for ten seconds, and a newcomer waits at most
  about one slice for the analyses' worker. (Hints have short budgets, and a worker
  analyses never take.)
* **Bounded, never shut out.** At most ``max_waiting`` jobs wait, ``analyses`` of them
  analyses and ``anonymous_analyses`` of those of clients nobody signed in at. A job
  that finds its places full takes the place of the waiting job that would run last
  (by the order above), which is answered at once with :class:`Crowded`; if it would
  itself run last, it is the one answered so. The request then answers with what is
  known (:mod:`winnable.web.play.solving`), never a 503: forty addresses looping
  analyses hold places only while nobody lighter asks.
* **Capped shares.** A request is admitted (:meth:`SolverQueue.admit`, before the route
  reads its game) only while its client has fewer than ``per_client`` solver requests
  in progress and fewer than ``analyses_per_client`` analyses (else 429: the client's
  own share).
* **Deadlines.** A job carries its request's deadline: it is dropped unrun if the
  deadline passes while it waits (the caller gets :class:`Expired`), and the search is
  given only the time left.

The engine releases the GIL while it searches, so the workers' searches run beside the
event loop, at a lower CPU priority (``nice``) so that moves and reads come first. (On
a Dask cluster, :mod:`winnable.web.play.cluster`, the workers only wait for the
cluster's answers; :meth:`SolverQueue.resize` gives the queue as many workers as the
cluster has threads.) The pool of winnable deals is filled by its own low-priority
process (:mod:`winnable.web.play.pool`), never by requests.

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
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from winnable.web.errors import TooManyRequests, Unavailable
from winnable.web.pages.i18n import N_, NP_
from winnable.web.play.longer import lower_priority

HINT = "hint"
"""A player waiting at the table for the next move: goes first."""
ANALYSIS = "analysis"
""""Still winnable?" and "where did I lose?": after every hint waiting."""
KINDS = (HINT, ANALYSIS)  # in the order workers take them


class Expired(Exception):
    """The job's deadline passed before a worker was free for it."""


class Crowded(Expired):
    """The queue's places were full of jobs that go first: the job never waited."""


RANK = {kind: rank for rank, kind in enumerate(KINDS)}


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
    depth: int = 0  # the client's jobs waiting or running when this one came
    usage: float = 0.0  # the client's use of the solver when this one came
    anonymous: bool = False  # its client is signed in nowhere (a guest)


class SolverQueue:
    def __init__(
        self,
        workers: int = 2,
        max_waiting: int = 32,
        per_client: int = 4,
        running_per_client: int = 1,
        on_change: Callable[[int, int, float], None] | None = None,
        nice: int = 0,
        analysis_threads: int | None = None,
        analyses: int = 16,
        analyses_per_client: int = 2,
        anonymous_analyses: int = 8,
        slice_seconds: float = 1.0,
        usage_half_life: float = 60.0,
        ask_seconds: float = 0.05,
        patience: float | None = None,
    ) -> None:
        self.nice = nice  # the workers' CPU priority below the server's (0: the same)
        self.max_waiting = max_waiting
        self.per_client = per_client
        self.running_per_client = running_per_client
        self._analysis_threads = analysis_threads
        self.workers = 1
        self.analysis_threads = 1
        self._size(workers)
        self.analyses = analyses
        self.analyses_per_client = analyses_per_client
        self.anonymous_analyses = anonymous_analyses
        self.slice_seconds = slice_seconds
        # how long an analysis waits before its waiting counts against its client's turn
        self.patience = slice_seconds if patience is None else patience
        self.usage_half_life = usage_half_life
        self.ask_seconds = ask_seconds  # what asking counts for in a client's use, served or not
        self.on_change = on_change  # (waiting, running, CPU seconds so far), for the metrics
        self._jobs: dict[str, list[Job]] = {kind: [] for kind in KINDS}  # waiting, by kind
        self._running: dict[str, int] = {}
        self._running_kind: dict[str, int] = dict.fromkeys(KINDS, 0)
        self._usage: dict[str, tuple[float, float]] = {}  # client -> (seconds used, when), halved every half-life
        self._waiting = 0
        self._busy = 0
        # requests admitted and not finished: per client, per client's analyses, all analyses
        self._requests: dict[str, int] = {}
        self._client_analyses: dict[str, int] = {}
        self._guests: dict[str, int] = {}  # requests of clients nobody signed in at
        self._before: dict[str, float] = {}  # a client's use when its requests in progress began
        self._analyses = 0
        self._anonymous_analyses = 0
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._stopping = False
        self.done = 0
        self.dropped = 0
        self.refused = 0
        self.crowded = 0  # jobs answered at once with Crowded (given way, or never placed)
        self.sliced = 0  # searches given one time slice, not their whole budget
        self.cpu_seconds = 0.0  # CPU time the workers spent on jobs (their searches)
        self._job_seconds = 0.5  # running mean of a job's time, for Retry-After

    def _size(self, workers: int) -> None:
        self.workers = max(1, workers)
        # analyses leave one worker to hints (with a single worker, they share it)
        self.analysis_threads = max(1, min(self.workers, self._analysis_threads or self.workers - 1))

    def resize(self, workers: int) -> None:
        """Run at most ``workers`` jobs at once from now on (a Dask cluster's threads came
        or went: :mod:`winnable.web.play.cluster`)."""
        with self._cond:
            self._size(workers)
            self._cond.notify_all()
        if self._threads:
            self._start()

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
        of those from clients nobody signed in at), done, dropped unrun, refused (429),
        crowded out (answered from what is known), searches cut to a time slice."""
        return {
            "workers": self.workers,
            "waiting": self._waiting,
            "running": self._busy,
            "running_analyses": self._running_kind[ANALYSIS],
            "requests": sum(self._requests.values()),
            "analyses": self._analyses,
            "anonymous_analyses": self._anonymous_analyses,
            "done": self.done,
            "dropped": self.dropped,
            "refused": self.refused,
            "crowded": self.crowded,
            "sliced": self.sliced,
        }

    def retry_after(self) -> float:
        """Seconds until a place is likely free."""
        return max(1.0, self._job_seconds * (self._waiting + 1) / self.workers)

    def usage(self, client: str, now: float | None = None) -> float:
        """Seconds of search ``client`` used lately (halved every ``usage_half_life``)."""
        used, when = self._usage.get(client, (0.0, 0.0))
        if not used:
            return 0.0
        now = time.monotonic() if now is None else now
        return float(used * 0.5 ** ((now - when) / self.usage_half_life))

    def _order(self, job: Job, now: float) -> tuple[int, int, float, float]:
        """Where ``job`` stands at ``now``: smaller runs sooner. An analysis's client's use
        counts what the job has waited past ``patience`` (a time slice): the analysis of a
        client who keeps the queue full (every attack starts so) goes behind a
        newcomer's, while hints, and analyses that wait less than that, keep their turns."""
        waited = max(0.0, now - job.enqueued - self.patience) if job.kind == ANALYSIS else 0.0
        return (RANK[job.kind], job.depth, job.usage + waited, job.enqueued)

    # -- the request side ----------------------------------------------------------------
    @contextlib.contextmanager
    def admit(self, client: str, kind: str = HINT, anonymous: bool = True) -> Iterator[None]:
        """Hold one of ``client``'s places for a request of ``kind`` while the block runs
        (the request's searches go through :meth:`run` inside it). Refused at once with
        429, before the request does any work, past the client's own share; ``anonymous``
        (nobody signed in) puts its analyses' jobs in the guests' places.

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
            now = time.monotonic()
            before = self.usage(client, now)
            self._used(client, self.ask_seconds, now)  # refused, crowded out or served: asking often is heavy
            mine = self._requests.get(client, 0)
            analyses = self._client_analyses.get(client, 0)
            if mine >= self.per_client or (analysis and analyses >= self.analyses_per_client):
                self.refused += 1
                n = mine if mine >= self.per_client else analyses
                raise TooManyRequests(
                    NP_(
                        "you already have {n} solver request waiting or running; wait for it",
                        "you already have {n} solver requests waiting or running; wait for them",
                        n,
                    ),
                    code="solver_queue_full_for_client",
                    retry_after=self.retry_after(),
                )
            self._requests[client] = mine + 1
            if not mine:
                self._before[client] = before
            if anonymous:
                self._guests[client] = self._guests.get(client, 0) + 1
            if analysis:
                self._client_analyses[client] = analyses + 1
                self._analyses += 1
                self._anonymous_analyses += anonymous
        try:
            yield
        finally:
            with self._cond:
                _decrement(self._requests, client)
                if client not in self._requests:
                    self._before.pop(client, None)
                if anonymous:
                    _decrement(self._guests, client)
                if analysis:
                    _decrement(self._client_analyses, client)
                    self._analyses -= 1
                    self._anonymous_analyses -= anonymous

    async def run(self, client: str, work: Callable[[float], Any], deadline: float, kind: str = HINT) -> Any:
        """``work(seconds_left)`` on a worker thread, in ``client``'s turn among the jobs
        of its ``kind`` (hints before analyses), before ``deadline`` (a
        :func:`time.monotonic` time). Raises 429 past the client's share,
        :class:`Crowded` when it had no place or gave its place up, :class:`Expired`
        when no worker came free in time."""
        if kind not in self._jobs:
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
        evicted: Job | None = None
        with self._cond:
            mine = sum(1 for jobs in self._jobs.values() for other in jobs if other.client == job.client)
            mine += self._running.get(job.client, 0)
            if mine >= self.per_client:
                self.refused += 1
                raise TooManyRequests(
                    NP_(
                        "you already have {n} solver request waiting or running; wait for it",
                        "you already have {n} solver requests waiting or running; wait for them",
                        mine,
                    ),
                    code="solver_queue_full_for_client",
                    retry_after=self.retry_after(),
                )
            job.depth = mine
            job.anonymous = job.client in self._guests
            now = time.monotonic()
            # its use before this request (admit counted the request)
            job.usage = self._before.get(job.client, self.usage(job.client, now))
            full = self._full_places(job)
            if full is not None:
                last = max(full, key=lambda other: self._order(other, now), default=None)
                if last is None or self._order(last, now) <= self._order(job, now):
                    self.crowded += 1
                    raise Crowded()
                self._remove(last)
                last.state = "dropped"
                self.crowded += 1
                self._used(last.client, now - last.enqueued, now)
                evicted = last
            self._jobs[job.kind].append(job)
            self._waiting += 1
            self._cond.notify()
        if evicted is not None:
            _tell(evicted, None, Crowded())
        self._changed()

    def _full_places(self, job: Job) -> list[Job] | None:
        """The waiting jobs whose places ``job`` would need, if they are all taken: every
        job, the analyses, or the guests' analyses (lock held); None if a place is free."""
        if self._waiting >= self.max_waiting:
            return [other for jobs in self._jobs.values() for other in jobs]
        if job.kind == ANALYSIS:
            analyses = self._jobs[ANALYSIS]
            if len(analyses) >= self.analyses:
                return list(analyses)
            if job.anonymous:
                guests = [other for other in analyses if other.anonymous]
                if len(guests) >= self.anonymous_analyses:
                    return guests
        return None

    def _remove(self, job: Job) -> None:
        self._jobs[job.kind].remove(job)
        self._waiting -= 1

    def _drop(self, job: Job) -> bool:
        """Take a waiting job out of the queue; False if a worker already has it."""
        with self._cond:
            if job.state != "waiting":
                return job.state == "dropped"
            job.state = "dropped"
            self._remove(job)
            self.dropped += 1
            now = time.monotonic()
            self._used(job.client, now - job.enqueued, now)
        self._changed()
        return True

    # -- the workers -----------------------------------------------------------------------
    def _start(self) -> None:
        if len(self._threads) >= self.workers:
            return
        with self._cond:
            if self._stopping:
                raise Unavailable(N_("the server is stopping"), code="unavailable", retry_after=5)
            while len(self._threads) < self.workers:
                thread = threading.Thread(target=self._work, name=f"winnable-solver-{len(self._threads)}", daemon=True)
                self._threads.append(thread)
                thread.start()

    def _next(self) -> Job | None:
        """The next job, by :meth:`_order`, whose client may run one more: hints first,
        then analyses while fewer than ``analysis_threads`` run (lock held)."""
        if self._busy >= self.workers:
            return None
        for kind in KINDS:
            if kind == ANALYSIS and self._running_kind[ANALYSIS] >= self.analysis_threads:
                continue
            ready = [job for job in self._jobs[kind] if self._running.get(job.client, 0) < self.running_per_client]
            if ready:
                now = time.monotonic()
                job = min(ready, key=lambda other: self._order(other, now))
                self._remove(job)
                return job
        return None

    def _others_waiting(self, job: Job) -> bool:
        """Other clients' jobs of ``job``'s kind wait for a worker (lock held)."""
        return any(other.client != job.client for other in self._jobs[job.kind])

    def _work(self) -> None:
        lower_priority(self.nice)  # requests come before searches
        while True:
            with self._cond:
                job = None
                while not self._stopping and (job := self._next()) is None:
                    self._cond.wait()
                if job is None:
                    return
                job.state = "running"
                now = time.monotonic()
                # waiting counts as use: a client that keeps a job waiting all the time
                # (an analysis loop) weighs more than a player who asks now and then
                self._used(job.client, now - job.enqueued, now)
                self._busy += 1
                self._running_kind[job.kind] += 1
                self._running[job.client] = self._running.get(job.client, 0) + 1
                sliced = job.kind == ANALYSIS and (self._others_waiting(job) or job.usage >= self.slice_seconds)
            self._changed()
            started = time.monotonic()
            cpu_started = time.thread_time()
            result: Any = None
            error: BaseException | None = None
            left = job.deadline - started
            if sliced and left > self.slice_seconds:
                left = self.slice_seconds
                self.sliced += 1
            if left <= 0.001:
                error = Expired()
            else:
                try:
                    result = job.work(left)
                except BaseException as failure:  # handed to the request, which decides
                    error = failure
            ended = time.monotonic()
            took = ended - started
            self.cpu_seconds += time.thread_time() - cpu_started
            with self._cond:
                job.state = "done"
                self._busy -= 1
                self._running_kind[job.kind] -= 1
                _decrement(self._running, job.client)
                self._used(job.client, took, ended)
                self.done += 1
                self._job_seconds = 0.9 * self._job_seconds + 0.1 * took
                self._cond.notify_all()
            self._changed()
            _tell(job, result, error)

    def _used(self, client: str, seconds: float, now: float) -> None:
        """Count ``seconds`` of search against ``client`` (lock held); forget clients
        whose use has faded when many are remembered."""
        self._usage[client] = (self.usage(client, now) + seconds, now)
        if len(self._usage) > 4096:
            for other in [other for other in self._usage if self.usage(other, now) < 0.01]:
                del self._usage[other]

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


def _tell(job: Job, result: Any, error: BaseException | None) -> None:
    """Settle ``job``'s future in its request's event loop."""
    try:
        job.loop.call_soon_threadsafe(_settle, job.future, result, error)
    except RuntimeError:  # the request's loop is closed: nobody waits
        pass


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
