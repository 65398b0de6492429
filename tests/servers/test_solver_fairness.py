"""Solver shares nobody can shut out: a client with work waiting goes behind every client
with none, and one that used the solver lately behind one that did not; a full queue
gives the heaviest client's place to a lighter one; a search started while others wait
gets one time slice; and a request the solver has no time for is answered (200) with
what is known, saying so, never refused with 503.

The attack (addresses, half of them signed in, looping ten-second analyses of a deal the
solver cannot settle) runs against a real server on 127.0.0.1, each client from its own
loopback address; the attack's searches wait on a gate, as the hardest deals would, so
they cost no CPU. The assertions are on counts and states, not on timings."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import uvicorn

from winnable.blackhole import BlackHole
from winnable.web.app import create_app
from winnable.web.play.queue import ANALYSIS, HINT, Crowded, SolverQueue

HELD_DEAL = 777  # searches of this deal's first position find nothing (see gate)
PASSWORD = "correct horse battery"


def in_loop(main):
    """Run ``main()`` in an event loop of its own thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


async def until(condition, what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"never happened: {what}"
        await asyncio.sleep(0.005)


# -- the queue's order ----------------------------------------------------------------------
def test_a_client_with_work_waiting_goes_behind_every_client_with_none():
    queue = SolverQueue(patience=60, workers=1, max_waiting=20, per_client=10, analyses=20, anonymous_analyses=20)
    order: list[str] = []
    hold = threading.Event()

    async def main():
        deadline = time.monotonic() + 20
        first = asyncio.ensure_future(queue.run("x", lambda s: hold.wait(10), deadline, kind=ANALYSIS))
        await until(lambda: queue.running == 1, "the first job runs")
        jobs = [
            asyncio.ensure_future(queue.run(client, lambda s, c=client: order.append(c), deadline, kind=ANALYSIS))
            for client in ["heavy", "heavy", "heavy", "light-1", "light-2"]
        ]
        await until(lambda: queue.waiting == 5, "the jobs wait")
        hold.set()
        await asyncio.gather(first, *jobs)

    in_loop(main)
    queue.stop()
    # heavy asked first, but its second and third jobs came while it had work waiting
    assert order == ["heavy", "light-1", "light-2", "heavy", "heavy"]


def test_a_client_that_used_the_solver_lately_goes_behind_one_that_did_not():
    queue = SolverQueue(patience=60, workers=1, max_waiting=20, per_client=10, analyses=20, anonymous_analyses=20)
    order: list[str] = []
    hold = threading.Event()

    async def main():
        deadline = time.monotonic() + 20
        await queue.run("looper", lambda s: time.sleep(0.05), deadline, kind=ANALYSIS)  # it used the solver
        assert queue.usage("looper") > 0 and queue.usage("newcomer") == 0
        first = asyncio.ensure_future(queue.run("x", lambda s: hold.wait(10), deadline, kind=ANALYSIS))
        await until(lambda: queue.running == 1, "the first job runs")
        looper = asyncio.ensure_future(queue.run("looper", lambda s: order.append("looper"), deadline, kind=ANALYSIS))
        await until(lambda: queue.waiting == 1, "the looper waits")
        newcomer = asyncio.ensure_future(queue.run("newcomer", lambda s: order.append("newcomer"), deadline, kind=ANALYSIS))
        await until(lambda: queue.waiting == 2, "the newcomer waits")
        hold.set()
        await asyncio.gather(first, looper, newcomer)

    in_loop(main)
    queue.stop()
    assert order == ["newcomer", "looper"]


def test_waiting_counts_as_use_so_a_client_that_keeps_the_queue_full_goes_behind_a_newcomer():
    # An attack starts with every attacker's history empty: what tells them from a player
    # is that their analyses wait all the time. patience=0: any wait counts.
    queue = SolverQueue(patience=0.0, workers=1, max_waiting=20, per_client=10, analyses=20, anonymous_analyses=20)
    order: list[str] = []
    hold = threading.Event()

    async def main():
        deadline = time.monotonic() + 20
        first = asyncio.ensure_future(queue.run("x", lambda s: hold.wait(10), deadline, kind=ANALYSIS))
        await until(lambda: queue.running == 1, "the first job runs")
        looper = asyncio.ensure_future(queue.run("looper", lambda s: order.append("looper"), deadline, kind=ANALYSIS))
        await until(lambda: queue.waiting == 1, "the looper waits")
        await asyncio.sleep(0.01)  # any time at all: the looper's job is older
        newcomer = asyncio.ensure_future(queue.run("newcomer", lambda s: order.append("newcomer"), deadline, kind=ANALYSIS))
        await until(lambda: queue.waiting == 2, "the newcomer waits")
        assert queue.usage("looper") == queue.usage("newcomer") == 0  # neither has used the solver yet
        hold.set()
        await asyncio.gather(first, looper, newcomer)

    in_loop(main)
    queue.stop()
    assert order == ["newcomer", "looper"]
    assert queue.usage("looper") > queue.usage("newcomer")  # the wait was counted against it


def test_a_full_queue_gives_the_heaviest_clients_place_to_a_lighter_one():
    queue = SolverQueue(patience=60, workers=2, max_waiting=20, per_client=10, analyses=2, anonymous_analyses=20)
    assert queue.analysis_threads == 1  # the other worker is the hints'
    hold = threading.Event()
    ran: list[str] = []

    async def main():
        deadline = time.monotonic() + 20
        first = asyncio.ensure_future(queue.run("x", lambda s: hold.wait(10), deadline, kind=ANALYSIS))
        await until(lambda: queue.running == 1, "the first job runs")
        heavy = [asyncio.ensure_future(queue.run("heavy", lambda s: ran.append("heavy"), deadline, kind=ANALYSIS)) for _ in range(2)]
        await until(lambda: queue.waiting == 2, "the analyses' places are full")
        with pytest.raises(Crowded):  # the heavy client's third would run last: it never waits
            await queue.run("heavy", lambda s: ran.append("heavy"), deadline, kind=ANALYSIS)
        light = asyncio.ensure_future(queue.run("light", lambda s: ran.append("light"), deadline, kind=ANALYSIS))
        await until(lambda: heavy[1].done(), "the heavy client's last job gives its place up")
        with pytest.raises(Crowded):
            heavy[1].result()
        assert queue.waiting == 2
        hints = await queue.run("heavy", lambda s: "a hint", deadline, kind=HINT)  # hints have places of their own
        assert hints == "a hint"
        hold.set()
        await asyncio.gather(first, heavy[0], light)

    in_loop(main)
    queue.stop()
    assert sorted(ran) == ["heavy", "light"]
    assert queue.stats()["crowded"] == 2 and queue.stats()["refused"] == 0


def test_a_search_that_starts_while_others_wait_gets_one_slice():
    queue = SolverQueue(patience=60, workers=1, max_waiting=20, per_client=10, analyses=20, anonymous_analyses=20, slice_seconds=0.5)
    given: dict[str, float] = {}
    hold = threading.Event()

    async def main():
        deadline = time.monotonic() + 20
        alone = await queue.run("a", lambda s: s, deadline, kind=ANALYSIS)
        assert alone > 10  # nobody waited: its whole budget
        first = asyncio.ensure_future(queue.run("x", lambda s: hold.wait(10), deadline, kind=ANALYSIS))
        await until(lambda: queue.running == 1, "the first job runs")
        jobs = [
            asyncio.ensure_future(queue.run(client, lambda s, c=client: given.setdefault(c, s), deadline, kind=ANALYSIS))
            for client in ("b", "c")
        ]
        await until(lambda: queue.waiting == 2, "two wait")
        hold.set()
        await asyncio.gather(first, *jobs)

    in_loop(main)
    queue.stop()
    assert given["b"] == 0.5  # "c" was waiting when it started
    assert given["c"] > 10  # nobody was
    assert queue.stats()["sliced"] == 1


# -- the attack, on a real server ------------------------------------------------------------
@pytest.fixture
def gate(monkeypatch):
    """Searches of HELD_DEAL's deal position find nothing and end when their budget runs
    out (or the gate opens), like the hardest deals of the hardest games, at no CPU."""
    gate = threading.Event()
    real = BlackHole.engine_search

    def search(self, nodes, seconds, **options):
        if self.deal_number == HELD_DEAL and len(self.foundation) == 1:
            gate.wait(seconds or 10)
            return "unknown", [], 0
        return real(self, nodes, seconds, **options)

    monkeypatch.setattr(BlackHole, "engine_search", search)
    yield gate
    gate.set()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    port = free_port()
    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}",
        pool_size=0,
        pool_background=False,
        hint_longer_seconds=0,  # the queue alone: no longer searches in the background
        rate_limits=False,
        allowed_hosts=["127.0.0.1"],
        solver_threads=2,
        solver_analyses=10,
        solver_guest_analyses=6,
        solver_slice_seconds=0.5,
        argon2_memory_kib=1024,
        argon2_time_cost=1,
    )
    served = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not served.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{port}"
    served.should_exit = True
    thread.join(30)


def at(base: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base, headers={"Origin": base}, timeout=60, transport=httpx.HTTPTransport(local_address=address))


def test_addresses_looping_long_analyses_shut_no_other_player_out(server, gate):
    app, base = server
    queue = app.state.services.queue
    stop = threading.Event()
    attacks: list[tuple[int, str | None]] = []
    ready = threading.Barrier(21)

    def attacker(k: int) -> None:
        with at(base, f"127.88.0.{k + 1}") as http:
            if k % 2:  # half of them signed in: accounts are free
                assert http.post("/api/auth/signup", json={"name": f"attacker{k}", "password": PASSWORD}).status_code == 201
            game = http.post("/api/games", json={"game": "black-hole", "deal": HELD_DEAL}).json()["id"]
            ready.wait()
            while not stop.is_set():
                response = http.get(f"/api/games/{game}/analysis", params={"seconds": 10})
                attacks.append((response.status_code, response.json().get("answered")))
                if response.json().get("answered") == "busy":
                    stop.wait(0.2)  # as the bench's attackers after a refusal

    attackers = [threading.Thread(target=attacker, args=(k,)) for k in range(20)]
    for thread in attackers:
        thread.start()
    hints: list[tuple[int, dict]] = []
    analyses: list[tuple[int, dict]] = []
    try:
        ready.wait()
        # the attack is under way: every attacker used a slice's worth of solver (searching
        # or asking), the analyses' worker is theirs, their places are full
        deadline = time.monotonic() + 120
        while not (
            queue.stats()["running_analyses"] == 1
            and queue.stats()["crowded"] > 0
            and all(queue.usage(f"127.88.0.{k + 1}") >= 0.5 for k in range(20))
        ):
            assert time.monotonic() < deadline, f"the attack never filled the queue: {queue.stats()}"
            time.sleep(0.01)

        def player(k: int) -> None:
            """One player: a new game, "still winnable?", another game, a hint."""
            with at(base, f"127.89.0.{k + 1}") as http:
                game = http.post("/api/games", json={"game": "black-hole", "deal": 2 + k}).json()["id"]
                response = http.get(f"/api/games/{game}/analysis")
                analyses.append((response.status_code, response.json()))
                other = http.post("/api/games", json={"game": "black-hole", "deal": 5002 + k}).json()["id"]
                response = http.get(f"/api/games/{other}/hint")
                hints.append((response.status_code, response.json()))

        with ThreadPoolExecutor(5) as players:  # twenty players, five at a time
            list(players.map(player, range(20)))
    finally:
        stop.set()
        gate.set()  # the last searches end now
        for thread in attackers:
            thread.join()

    assert len(hints) == len(analyses) == 20
    assert [status for status, _ in hints] == [200] * 20, hints
    assert [(hint["answered"], hint["seconds"]) for _, hint in hints if hint["verdict"] not in ("won", "lost")] == []  # hints: 100 %
    assert [status for status, _ in analyses] == [200] * 20, analyses  # no analysis refused
    verdicts = [body for _, body in analyses if body["verdict"] in ("won", "lost")]
    assert len(verdicts) >= 19, [
        (body["answered"], body["message"], body["seconds"]) for _, body in analyses if body not in verdicts
    ]  # at least 95 % with a verdict
    assert all(body["answered"] in ("searched", "known") for body in verdicts)
    # the attackers were answered too, never 5xx: with what a slice of search found, or what was known
    statuses = {status for status, _ in attacks}
    assert statuses == {200}, statuses
    assert {"shortened", "busy"} <= {how for _, how in attacks}
    stats = queue.stats()
    assert stats["crowded"] > 0 and stats["sliced"] > 0
    assert stats["requests"] == stats["analyses"] == 0  # nothing held after
