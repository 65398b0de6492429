"""Who solves a survey's chunks: the cores of this machine, or a Dask cluster.

A runner takes a :class:`Plan` and yields ``(index, records)`` for each chunk as it
comes back, in any order; :func:`winnable.surveys.survey.run_survey` puts them in order and
writes them. The plan carries the function that solves a chunk
(:func:`winnable.surveys.survey.solve_chunk`), so the runners never import the survey, and both
ship the same function: a deal gets the same record whatever solved it. The function
travels to other processes by name (pickle), so it must be a module's top-level
function.

On a Dask cluster (``dask scheduler`` on one machine, ``dask worker tcp://HOST:8786``
on any number of others, each with Winnable installed), a worker that dies takes its
chunks with it; the scheduler gives them to another worker, and the client receives
each chunk once, so no deal is lost or written twice.
"""

from __future__ import annotations

import multiprocessing
import uuid
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, cast

from winnable.deals import Numbering
from winnable.errors import SurveyError
from winnable.solver import Budget

if TYPE_CHECKING:
    import distributed
    from distributed import Client

Solve = Callable[[str, int, int, Budget, bool, Numbering], list[dict[str, Any]]]
"""Solves one chunk: ``(game, first, last, budget, lines, numbering)`` to its records."""


@dataclass
class Plan:
    """What to solve and how: the inputs every runner gets, and ``solve``, what solves a
    chunk (:func:`winnable.surveys.survey.solve_chunk`)."""

    game: str
    chunks: list[tuple[int, int]]
    budget: Budget
    lines: bool = False
    numbering: Numbering = Numbering.PYSOLFC
    solve: Solve = field(kw_only=True)


Back = Callable[[int], None]
"""Told how many deals each chunk held, the moment it comes back (progress)."""


class LocalRunner:
    """``jobs`` worker processes on this machine (in this process if ``jobs`` is 1)."""

    where = "this machine"

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)
        self._pool: ProcessPoolExecutor | None = None

    def workers(self) -> int:
        return self.jobs

    def __enter__(self) -> LocalRunner:
        if self.jobs > 1:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            self._pool = ProcessPoolExecutor(self.jobs, mp_context=context)
            # Start the workers now, before the progress bar's thread exists (fork
            # copies a process with one thread only).
            self._pool.submit(int).result()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=exc[0] is None, cancel_futures=True)
            self._pool = None

    def run(self, plan: Plan, back: Back) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        pool = self._pool
        if pool is None:
            for index, (first, last) in enumerate(plan.chunks):
                records = plan.solve(plan.game, first, last, plan.budget, plan.lines, plan.numbering)
                back(len(records))
                yield index, records
            return
        # A bounded number of chunks in flight keeps memory flat on long surveys.
        pending: dict[Future[list[dict[str, Any]]], int] = {}
        queue = iter(enumerate(plan.chunks))
        limit = self.jobs * 4

        def top_up() -> None:
            for index, (first, last) in queue:
                pending[pool.submit(plan.solve, plan.game, first, last, plan.budget, plan.lines, plan.numbering)] = index
                if len(pending) >= limit:
                    return

        top_up()
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                records = future.result()
                back(len(records))
                yield index, records
            top_up()


class DaskRunner:
    """The workers of the Dask cluster whose scheduler is at ``address``
    (``tcp://HOST:8786``)."""

    def __init__(self, address: str, timeout: float | None = None) -> None:
        """``timeout``: seconds to reach the scheduler and to wait for a first worker
        (default: Dask's ``distributed.comm.timeouts.connect``, 30 s)."""
        self.address = address
        self.timeout = timeout
        self.where = f"Dask cluster at {address}"
        self.client: Client | None = None

    def __enter__(self) -> DaskRunner:
        try:
            from distributed import Client
        except ImportError as error:  # pragma: no cover - a dependency of Winnable
            raise SurveyError(f"Dask's distributed package is missing: {error}") from None
        try:
            timeout = {} if self.timeout is None else {"timeout": self.timeout}
            self.client = Client(self.address, set_as_default=False, **timeout)
        except (OSError, TimeoutError, ValueError) as error:
            raise SurveyError(f"cannot reach the Dask scheduler at {self.address}: {error}") from None
        try:
            self.client.wait_for_workers(1, timeout=self.timeout or 30)
        except (OSError, TimeoutError) as error:
            self.client.close()
            raise SurveyError(f"the Dask scheduler at {self.address} has no worker: {error}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    def workers(self) -> int:
        client = cast("Client", self.client)  # connected: inside "with"
        return sum(client.nthreads().values()) or 1

    def run(self, plan: Plan, back: Back) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        client = cast("Client", self.client)  # connected: inside "with"
        token = uuid.uuid4().hex[:8]
        futures: dict[distributed.Future[list[dict[str, Any]]], int] = {}
        for index, (first, last) in enumerate(plan.chunks):
            # Chunks submitted first run first; a readable key names them on the dashboard.
            future = client.submit(
                plan.solve,
                plan.game,
                first,
                last,
                plan.budget,
                plan.lines,
                plan.numbering,
                key=f"survey-{plan.game}-{plan.numbering.prefix}{first}-{last}-{token}",
                pure=False,
            )
            futures[future] = index
        for future in as_completed(futures, loop=client.loop):
            index = futures.pop(future)
            try:
                records = future.result()
            except KilledWorker as error:
                raise SurveyError(f"chunk {plan.chunks[index]} killed every worker that ran it: {error}") from None
            except ImportError as error:
                raise SurveyError(f"the Dask workers cannot run Winnable ({error}); install it where they run") from None
            future.release()
            back(len(records))
            yield index, records
