"""Fair solver time: hints go before analyses, and what one address may hold of the
solver is capped; so forty addresses looping long analyses do not keep other players
from their hints, and what the queue has no room for is answered (200) with what is
known, never refused with 503. Asserted on counts and answers, not timings: the
attackers' searches are held on a gate until the test lets them go (or their time slice
ends). The attack against other players' analyses: servers/test_solver_fairness.py."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from webapp import PASSWORD, client_at
from winnable.blackhole import BlackHole
from winnable.web.app import create_app
from winnable.web.errors import TooManyRequests
from winnable.web.play.queue import SolverQueue

HINT, ANALYSIS = "hint", "analysis"  # the queue's kinds of job

HELD_DEAL = 777  # searches of this deal's first position wait on the gate (see held_engine)


@pytest.fixture
def gate(monkeypatch):
    """Searches of HELD_DEAL's deal position find nothing and end only when the gate
    opens (or their budget runs out), like the hardest deals of the hardest games."""
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


def wait_until(condition, what: str, timeout: float = 60.0) -> None:
    """A safety net only: the assertions are on counts, not on how long this takes."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.02)


def test_forty_addresses_looping_analyses_do_not_starve_other_players_hints(tmp_path, gate):
    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}",
        pool_size=0,
        pool_background=False,
        hint_longer_seconds=0,  # the queue alone: no longer searches in the background
        allowed_hosts=["testserver"],
        rate_limits=False,
        solver_threads=2,
        argon2_memory_kib=1024,
        argon2_time_cost=1,
    )
    queue = app.state.services.queue
    attackers = [client_at(app, f"10.66.{k // 200}.{k % 200 + 1}") for k in range(40)]
    games = [attacker.post("/api/games", json={"game": "black-hole", "deal": HELD_DEAL}).json()["id"] for attacker in attackers]
    statuses: list[int] = []
    crowded: list[str] = []  # how the attacks the queue had no room for were answered

    def attack(attacker: TestClient, game_id: str) -> None:
        response = attacker.get(f"/api/games/{game_id}/analysis", params={"seconds": 10})
        statuses.append(response.status_code)
        if response.status_code == 200 and response.json()["answered"] == "busy":
            crowded.append(response.json()["verdict"])

    # each address asks two ten-second analyses at once: 80 requests
    threads = [threading.Thread(target=attack, args=pair) for pair in zip(attackers, games) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        wait_until(lambda: len(statuses) + queue.waiting + queue.running == 80, "every attack answered or queued")

        # nine other players (guests too) ask for hints, all at once
        def play_and_ask(k: int):
            player = client_at(app, f"10.0.1.{k}")
            game = player.post("/api/games", json={"game": "black-hole", "deal": 2 + k * 10}).json()
            response = player.get(f"/api/games/{game['id']}/hint")
            return response.status_code, response.json()

        with ThreadPoolExecutor(9) as pool:
            answers = list(pool.map(play_and_ask, range(9)))
        assert [status for status, _ in answers] == [200] * 9, answers
        assert [hint["verdict"] for _, hint in answers if hint["verdict"] not in ("won", "lost")] == [], answers
        assert all(hint["seconds"] <= app.state.services.settings.hint_seconds for _, hint in answers)

        # what the attackers hold: the guests' places in the queue (8), one worker
        held = queue.stats()
        assert held["waiting"] <= 8
        assert held["running_analyses"] == 1  # the other worker is the hints'
        assert statuses == [200] * len(statuses) and len(crowded) >= 80 - 8 - 1 - 2
        assert set(crowded) == {"unknown"}  # nothing was known of the held deal

        # a signed-in player's analysis is answered (200) though the attackers fill the places;
        # the attackers asked once each, as the player did, so it may come after them (its
        # answer then says "busy"): servers/test_solver_fairness.py has them ask as attackers do
        player = client_at(app, "10.0.2.1")
        assert player.post("/api/auth/signup", json={"name": "ada", "password": PASSWORD}).status_code == 201
        game = player.post("/api/games", json={"game": "black-hole", "deal": 3}).json()
        mine = player.get(f"/api/games/{game['id']}/analysis", params={"seconds": 5})
        assert mine.status_code == 200, mine.text
        assert mine.json()["answered"] in ("searched", "busy")
        assert queue.stats()["running_analyses"] <= 1  # and the attackers still hold one worker only
    finally:
        gate.set()
        for thread in threads:
            thread.join()
    assert statuses == [200] * 80  # none refused
    assert queue.stats()["analyses"] == queue.stats()["requests"] == 0  # nothing held after


def in_loop(main):
    """Run ``main()`` in an event loop of its own thread (a test before may have left
    one running in this thread)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def test_hints_go_before_analyses_and_analyses_leave_a_worker_to_hints():
    queue = SolverQueue(patience=60, workers=2, max_waiting=20, per_client=10, analyses=10, anonymous_analyses=10, analyses_per_client=10)
    assert queue.analysis_threads == 1
    order: list[str] = []
    hold = threading.Event()

    async def main():
        deadline = time.monotonic() + 10
        # an analysis holds the one worker analyses may have; more analyses wait
        first = asyncio.ensure_future(queue.run("a", lambda s: hold.wait(5), deadline, kind=ANALYSIS))
        while queue.running < 1:
            await asyncio.sleep(0.01)
        analyses = [
            asyncio.ensure_future(queue.run(f"b{k}", lambda s, k=k: order.append(f"analysis {k}"), deadline, kind=ANALYSIS))
            for k in range(3)
        ]
        await asyncio.sleep(0.1)  # a worker is free, and does not take them
        assert queue.stats()["running"] == 1 and queue.stats()["waiting"] == 3  # the free worker is the hints'
        hints = [asyncio.ensure_future(queue.run(f"c{k}", lambda s, k=k: order.append(f"hint {k}"), deadline, kind=HINT)) for k in range(3)]
        await asyncio.gather(*hints)  # answered while the analysis still runs
        assert order == ["hint 0", "hint 1", "hint 2"]
        hold.set()
        await asyncio.gather(first, *analyses)

    in_loop(main)
    queue.stop()
    assert order[3:] == ["analysis 0", "analysis 1", "analysis 2"]


def test_a_free_worker_takes_waiting_hints_before_earlier_analyses():
    queue = SolverQueue(patience=60, workers=1, max_waiting=20, per_client=10, analyses=10, anonymous_analyses=10)
    order: list[str] = []
    hold = threading.Event()

    async def main():
        deadline = time.monotonic() + 10
        first = asyncio.ensure_future(queue.run("x", lambda s: hold.wait(5), deadline))
        await asyncio.sleep(0.05)
        jobs = [
            asyncio.ensure_future(queue.run(client, lambda s, c=client: order.append(c), deadline, kind=kind))
            for client, kind in [("a1", ANALYSIS), ("a2", ANALYSIS), ("h1", HINT), ("a3", ANALYSIS), ("h2", HINT)]
        ]
        await asyncio.sleep(0.05)
        hold.set()
        await asyncio.gather(first, *jobs)

    in_loop(main)
    queue.stop()
    assert order == ["h1", "h2", "a1", "a2", "a3"]


def test_what_one_address_may_hold():
    queue = SolverQueue(patience=60, workers=2, per_client=4, analyses=5, analyses_per_client=2, anonymous_analyses=3)
    with queue.admit("one", ANALYSIS), queue.admit("one", ANALYSIS):
        with pytest.raises(TooManyRequests) as refused:  # a third analysis of one address
            with queue.admit("one", ANALYSIS):
                pass
        assert refused.value.code == "solver_queue_full_for_client"
        with queue.admit("one", HINT), queue.admit("one", HINT):  # hints have the rest of its share
            with pytest.raises(TooManyRequests):
                with queue.admit("one", HINT):
                    pass
        # others are admitted however many analyses are in progress: the queue's places,
        # not admission, decide who waits (servers/test_solver_fairness.py)
        with (
            queue.admit("two", ANALYSIS),
            queue.admit("three", ANALYSIS),
            queue.admit("four", ANALYSIS, anonymous=False),
            queue.admit("five", ANALYSIS, anonymous=False),
            queue.admit("six", ANALYSIS, anonymous=False),
        ):
            assert queue.stats()["analyses"] == 7 and queue.stats()["anonymous_analyses"] == 4
    stats = queue.stats()
    assert (stats["requests"], stats["analyses"], stats["anonymous_analyses"]) == (0, 0, 0)  # all given back
    assert stats["refused"] == 2


def test_a_refused_analysis_reads_no_game(tmp_path, gate, monkeypatch):
    """A refusal (a client past its share) costs a count, not a database read and a replay."""
    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}",
        pool_size=0,
        pool_background=False,
        hint_longer_seconds=0,  # the queue alone: no longer searches in the background
        allowed_hosts=["testserver"],
        rate_limits=False,
        solver_analyses_per_client=1,
    )
    player = client_at(app, "10.0.3.1")
    game_id = player.post("/api/games", json={"game": "black-hole", "deal": HELD_DEAL}).json()["id"]
    reads: list[str] = []
    snapshot = app.state.services.games.store.snapshot
    monkeypatch.setattr(app.state.services.games.store, "snapshot", lambda *args: reads.append(args[0]) or snapshot(*args))
    held = threading.Thread(target=player.get, args=(f"/api/games/{game_id}/analysis",), kwargs={"params": {"seconds": 5}})
    held.start()
    try:
        wait_until(lambda: app.state.services.queue.stats()["running_analyses"] == 1, "the analysis runs")
        again = client_at(app, "10.0.3.1")
        refused = again.get(f"/api/games/{game_id}/analysis")
        assert refused.status_code == 429 and refused.json()["code"] == "solver_queue_full_for_client"
        assert reads == [game_id]  # the held analysis's read only
    finally:
        gate.set()
        held.join()
