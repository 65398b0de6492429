"""Request-time solving on a Dask cluster (``--solver-scheduler``): a real scheduler and
two workers on 127.0.0.1 run the hints' searches (counted on the workers), the web
process replays their lines; when the scheduler is killed, hints are still answered,
by this machine, never with a 5xx; a scheduler that comes back is used again."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from winnable.web.app import create_app
from winnable.web.play import cluster as cluster_module

pytest.importorskip("distributed")
SRC = str(Path(__file__).resolve().parents[1] / "src")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(condition, what: str, timeout: float = 90.0) -> None:
    """A safety net only: the assertions are on states, not on how long this takes."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.05)


class DaskCluster:
    """``dask scheduler`` and one-thread ``dask worker`` processes on 127.0.0.1."""

    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.address = f"tcp://127.0.0.1:{port}"
        self.log = log.open("a")
        self.env = os.environ | {"PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []

    def start_scheduler(self) -> None:
        self.scheduler = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--dashboard-address",
                ":0",
                "--no-show",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=self.env,
        )

        def listening() -> bool:
            assert self.scheduler is not None and self.scheduler.poll() is None, "the scheduler died"
            with socket.socket() as sock:
                return sock.connect_ex(("127.0.0.1", self.port)) == 0

        wait_until(listening, "the scheduler listens")

    def start_worker(self) -> None:
        self.workers.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "distributed.cli.dask_worker",
                    self.address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--host",
                    "127.0.0.1",
                    "--dashboard-address",
                    ":0",
                ],
                stdout=self.log,
                stderr=subprocess.STDOUT,
                env=self.env,
            )
        )

    def kill_scheduler(self) -> None:
        assert self.scheduler is not None
        self.scheduler.kill()
        self.scheduler.wait(30)

    def stop(self) -> None:
        for process in [*self.workers, *([self.scheduler] if self.scheduler else [])]:
            if process.poll() is None:
                process.terminate()
        for process in [*self.workers, *([self.scheduler] if self.scheduler else [])]:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        self.log.close()


@pytest.fixture
def dask_cluster(tmp_path):
    cluster = DaskCluster(free_port(), tmp_path / "dask.log")
    try:
        cluster.start_scheduler()
        cluster.start_worker()
        cluster.start_worker()
        yield cluster
    finally:
        cluster.stop()


def searches_on_workers(address: str) -> dict[str, int]:
    from distributed import Client

    with Client(address, timeout=30, set_as_default=False) as client:
        counts: dict[str, int] = client.run(cluster_module.searches_here)
        return counts


def test_hints_are_searched_on_the_cluster_and_answered_here_when_it_is_gone(tmp_path, dask_cluster, caplog):
    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}",
        pool_size=0,
        pool_background=False,
        rate_limits=False,
        allowed_hosts=["testserver"],
        solver_scheduler=dask_cluster.address,
        solver_threads=1,
        hint_longer_seconds=0,  # the hints' own searches alone are counted here
    )
    cluster = app.state.cluster
    queue = app.state.services.queue
    with TestClient(app, headers={"Origin": "http://testserver"}) as client:
        wait_until(lambda: cluster.connected and cluster.threads == 2, "the web app sees the two workers")
        assert queue.workers == 2  # as many searches at once as the cluster has threads (local: 1)

        def hint(deal: int) -> dict:
            game = client.post("/api/games", json={"game": "black-hole", "deal": deal}).json()
            response = client.get(f"/api/games/{game['id']}/hint")
            assert response.status_code == 200, response.text
            return response.json()

        answers = [hint(deal) for deal in (2, 3, 4, 5)]
        assert [answer["verdict"] in ("won", "lost") and answer["answered"] == "searched" for answer in answers] == [True] * 4
        assert cluster.remote == 4 and cluster.fallbacks == 0
        on_workers = searches_on_workers(dask_cluster.address)
        assert len(on_workers) == 2 and sum(on_workers.values()) == 4, on_workers  # the work ran there
        # a won hint's line was replayed here: the move is legal in the game
        won = next(answer for answer in answers if answer["verdict"] == "won")
        assert won["move"] and won["line_length"] > 0

        with caplog.at_level(logging.INFO, logger="winnable.web"):
            dask_cluster.kill_scheduler()
            answers = [hint(deal) for deal in (6, 7, 8)]
            assert [answer["verdict"] in ("won", "lost") for answer in answers] == [True] * 3, answers
            wait_until(lambda: not cluster.connected and queue.workers == 1, "the queue is back to the local threads")
            assert cluster.remote == 4  # those were solved here
            lost = [record for record in caplog.records if "lost" in record.getMessage()]
            assert len(lost) == 1, [record.getMessage() for record in caplog.records]

            # the scheduler comes back (with a worker): the web app reconnects by itself
            dask_cluster.start_scheduler()
            dask_cluster.start_worker()
            wait_until(lambda: cluster.connected, "the web app reconnects")
            assert hint(9)["verdict"] in ("won", "lost")
            assert cluster.remote == 5
            assert any("worker threads" in record.getMessage() for record in caplog.records)
