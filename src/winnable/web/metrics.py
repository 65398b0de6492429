"""Prometheus figures: request latencies per route, the solver queue, the pool sizes.

Served at ``/metrics`` only when the server is started with ``--metrics``
(``WINNABLE_METRICS=1``), and then only to clients on the loopback interface (a
Prometheus on the same machine, or one reaching it through an SSH tunnel). With several
worker processes, ``winnable serve`` gives them a shared folder
(``PROMETHEUS_MULTIPROC_DIR``) and the figures are summed over the workers.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterable

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

REQUEST_SECONDS = Histogram(
    "winnable_request_seconds",
    "Time to answer a request, by route.",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
RESPONSES = Counter("winnable_responses", "Responses by route and status.", ["method", "route", "status"])
SOLVER_WAITING = Gauge("winnable_solver_queue_waiting", "Solver jobs waiting for a worker.", multiprocess_mode="livesum")
SOLVER_RUNNING = Gauge("winnable_solver_queue_running", "Solver jobs running.", multiprocess_mode="livesum")


SOLVER_CPU = Counter("winnable_solver_cpu_seconds", "CPU time the solver queue's workers spent searching.")
_solver_cpu_seen = 0.0


def queue_changed(waiting: int, running: int, cpu_seconds: float = 0.0) -> None:
    global _solver_cpu_seen
    SOLVER_WAITING.set(waiting)
    SOLVER_RUNNING.set(running)
    if cpu_seconds > _solver_cpu_seen:
        SOLVER_CPU.inc(cpu_seconds - _solver_cpu_seen)
        _solver_cpu_seen = cpu_seconds


_series: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def observe(method: str, route: str, status: int, seconds: float) -> None:
    """One request's latency and status (every request: the labelled series are looked
    up once per route and status, not at each request)."""
    key = (method, route, status)
    series = _series.get(key)
    if series is None:
        if len(_series) > 10_000:  # routes are templates, methods and statuses few: never, but bounded
            _series.clear()
        series = _series[key] = (REQUEST_SECONDS.labels(method, route), RESPONSES.labels(method, route, str(status)))
    series[0].observe(seconds)
    series[1].inc()


class PoolCollector(Collector):
    """Proved-winnable deals ready per game, read from the database at each scrape
    (the database is what all workers share)."""

    def __init__(self, counts: Callable[[], dict[str, int]]) -> None:
        self.counts = counts

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily("winnable_pool_ready", "Unused proved-winnable deals, per game.", labels=["game"])
        try:
            for game, count in self.counts().items():
                family.add_metric([game], count)
        except Exception:  # the database is away: no figure rather than no page
            pass
        yield family


def render(pool_counts: Callable[[], dict[str, int]]) -> bytes:
    """The page Prometheus scrapes: every worker's figures, then the pool's."""
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        workers = CollectorRegistry()
        multiprocess.MultiProcessCollector(workers)
        text = generate_latest(workers)
    else:
        text = generate_latest(REGISTRY)
    pool = CollectorRegistry()
    pool.register(PoolCollector(pool_counts))
    return text + generate_latest(pool)
