"""Request-time solving on a Dask cluster: ``winnable serve --solver-scheduler
tcp://HOST:PORT`` (``WINNABLE_SOLVER_SCHEDULER``).

The same engine the surveys run on (:mod:`winnable.surveys.runners`): a ``dask scheduler`` and
any number of ``dask worker`` processes with Winnable installed. Hints, analyses and the
pool's searches still go through the solver queue (:mod:`winnable.web.play.queue`: its
order, shares and slices), but each search runs on a worker (:func:`search`, the
engine only) and the web process only waits for it, then replays its line by the Python
rules (:func:`winnable.solver.checked`) before trusting it. The queue gets as many
workers as the cluster has threads (:meth:`SolverQueue.resize`), so solver capacity grows
with the cluster while the web workers stay light.

A lost scheduler or worker is never a 500: a search whose answer cannot come back is
solved on this machine with the time left, one log line says the cluster is gone, the
queue shrinks back to the local threads, and a background thread reconnects every
``retry_seconds`` (one log line when it is back).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any, Callable

from winnable.games import game_class
from winnable.solver import Budget, Verdict, checked, solve

if TYPE_CHECKING:
    from distributed import Client

    from winnable.game import Position

log = logging.getLogger("winnable.web")

GRACE = 2.0
"""Seconds past a search's budget to wait for its answer (the trip, a busy worker)."""

_searches = 0  # searches this process ran as a Dask worker (see searches_here)


def search(game: str, text: str, seconds: float | None) -> tuple[str, list[str], int]:
    """On a Dask worker: the engine's answer ``(status, line, positions)`` for the
    position ``text`` of ``game`` within ``seconds``; the web process replays it."""
    global _searches
    _searches += 1
    return game_class(game).from_text(text).engine_search(None, seconds)


def searches_here() -> int:
    """Searches run in this process by :func:`search` (a worker's count, for the tests:
    ``client.run(searches_here)``)."""
    return _searches


class Cluster:
    """A connection to the Dask scheduler at ``address``, kept in the background.
    :meth:`solve` is the solver's ``search`` (:class:`winnable.web.play.solving.Solver`);
    ``on_resize(threads)`` is told the cluster's worker threads (0 while it is away)."""

    def __init__(
        self,
        address: str,
        on_resize: Callable[[int], None] | None = None,
        retry_seconds: float = 5.0,
        connect_seconds: float = 5.0,
        local: Callable[[Position, Budget], Verdict] = solve,
    ) -> None:
        self.address = address
        self.on_resize = on_resize
        self.retry_seconds = retry_seconds
        self.connect_seconds = connect_seconds
        self.local = local
        self.threads = 0  # the cluster's worker threads, 0 while it is away
        self.remote = 0  # searches answered by the cluster
        self.fallbacks = 0  # searches solved here because the cluster could not
        self._client: Client | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._keeper: threading.Thread | None = None

    # -- the connection ------------------------------------------------------------------
    def start(self) -> None:
        """Connect (and stay connected) in the background; never blocks a request."""
        if self._keeper is None:
            self._stop.clear()
            self._keeper = threading.Thread(target=self._keep, name="winnable-solver-cluster", daemon=True)
            self._keeper.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._keeper is not None:
            self._keeper.join(self.connect_seconds + 10)
            self._keeper = None
        self._drop(None)

    @property
    def connected(self) -> bool:
        client = self._client
        return client is not None and client.status == "running" and self.threads > 0

    def _keep(self) -> None:
        while not self._stop.is_set():
            client = self._client
            if client is None:
                self._connect()
            else:
                try:
                    if client.status != "running":
                        raise ConnectionError(f"the client is {client.status}")
                    self._resize(sum(client.nthreads().values()))
                except Exception as error:
                    self._drop(error)
            self._wake.wait(1.0 if self._client is not None else self.retry_seconds)
            self._wake.clear()

    def _connect(self) -> None:
        try:
            from distributed import Client

            client = Client(self.address, timeout=self.connect_seconds, set_as_default=False)
        except Exception as error:  # still away: try again later
            log.debug("solver cluster at %s unreachable: %s", self.address, error)
            return
        with self._lock:
            self._client = client
        threads = sum(client.nthreads().values())
        log.info("solver cluster at %s: %d worker threads", self.address, threads)
        self._resize(threads)

    def _resize(self, threads: int) -> None:
        if threads != self.threads:
            self.threads = threads
            if self.on_resize is not None:
                self.on_resize(threads)

    def _drop(self, error: BaseException | None) -> None:
        """Forget the client (lost, or stopping); one log line when it was lost."""
        with self._lock:
            client, self._client = self._client, None
        if client is None:
            return
        if error is not None:
            log.warning(
                "solver cluster at %s lost (%s); solving on this machine until it is back",
                self.address,
                f"{type(error).__name__}: {error}"[:200],
            )
        self._resize(0)
        threading.Thread(target=_close, args=(client,), name="winnable-solver-cluster-close", daemon=True).start()

    # -- solving -------------------------------------------------------------------------
    def solve(self, position: Position, budget: Budget) -> Verdict:
        """The verdict on ``position`` within ``budget``: searched by a worker of the
        cluster, its line replayed here; solved here if the cluster is away, or lost
        while searching (with the time left)."""
        start = time.perf_counter()
        client = self._client
        if client is None or not self.connected:
            return self.local(position, budget)
        deadline = time.monotonic() + (budget.seconds or 60.0) + GRACE
        try:
            future = client.submit(
                search,
                position.game_id,
                position.to_text(),
                budget.seconds,
                pure=False,
                key=f"winnable-search-{position.game_id}-{uuid.uuid4().hex[:12]}",
            )
            status, line, positions = self._wait(client, future, deadline)
        except Exception as error:
            self._lost(client, error)
            left = (budget.seconds or 60.0) - (time.perf_counter() - start)
            return self.local(position, Budget(budget.nodes, max(left, 0.001)))
        self.remote += 1
        return checked(position, status, line, positions, start)

    def _wait(self, client: Client, future: Any, deadline: float) -> tuple[str, list[str], int]:
        """The future's result, or an error as soon as the client loses the scheduler or
        the deadline passes (the future is cancelled then)."""
        while True:
            try:
                result: tuple[str, list[str], int] = future.result(timeout=0.1)
                return result
            except TimeoutError:
                pass
            if client.status != "running":
                raise ConnectionError(f"the client is {client.status}")
            if time.monotonic() > deadline:
                future.cancel()
                raise TimeoutError("no worker answered in time")

    def _lost(self, client: Client, error: BaseException) -> None:
        self.fallbacks += 1
        if client.status != "running":  # the scheduler is gone: reconnect in the background
            self._drop(error)
            self._wake.set()
        else:
            log.warning(
                "solver cluster at %s: a search failed (%s); solved on this machine", self.address, f"{type(error).__name__}: {error}"[:200]
            )


def _close(client: Client) -> None:
    """Close a client whose scheduler may be gone (in a thread of its own: it may wait)."""
    try:
        client.close(timeout=2)
    except Exception:  # it is gone already
        pass
