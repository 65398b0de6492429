"""A search's time budget is CPU time of the thread that searches: a busy machine gives
the same request the same search (issue 35). The test pins itself and CPU hogs of its own
to one processor, so that the search gets a third of it: a wall-clock budget would search
about a third of the positions."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from winnable.games import game_class

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not hasattr(os, "sched_setaffinity") or not os.path.isdir("/proc/self"),
        reason="pins processes to one processor and reads /proc (Linux)",
    ),
]

SECONDS = 0.4
HOGS = 2


def positions(seconds: float) -> tuple[int, float]:
    """Positions of a Spider search of deal 170 (not won that quickly) and its wall time."""
    position = game_class("spider-4").deal(170)
    started = time.perf_counter()
    verdict, _, count = position.engine_search(None, seconds, short=False)
    assert verdict == "unknown"
    return count, time.perf_counter() - started


def cpu_ticks(pid: int) -> int:
    """User and system time of process ``pid`` in clock ticks (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


@pytest.fixture
def one_processor() -> Iterator[int]:
    """This thread pinned to one processor (the search runs on the calling thread)."""
    before = os.sched_getaffinity(0)
    processor = min(before)
    os.sched_setaffinity(0, {processor})
    try:
        yield processor
    finally:
        os.sched_setaffinity(0, before)


def test_a_time_budget_buys_the_same_search_beside_a_cpu_hog(one_processor: int) -> None:
    # A first search maps its memory (page faults count as its CPU time); the later ones
    # reuse what the allocator kept: compare two later ones.
    positions(SECONDS)
    quiet, _ = positions(SECONDS)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(HOGS)]
    try:
        for hog in hogs:
            os.sched_setaffinity(hog.pid, {one_processor})
        # Wait until every hog is running (has spent CPU), not for a fixed time.
        deadline = time.monotonic() + 30
        while not all(cpu_ticks(hog.pid) > 5 for hog in hogs):
            assert time.monotonic() < deadline, "the hogs never ran"
            time.sleep(0.01)
        busy, wall = positions(SECONDS)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    # The search made as many positions as on its own...
    assert abs(busy - quiet) <= 0.2 * quiet, f"{busy:,} positions beside the hogs, {quiet:,} alone"
    # ...though the hogs took their share of the processor: it took longer to run.
    assert wall > 1.5 * SECONDS, f"the hogs did not compete ({wall:.2f} s of wall time)"
