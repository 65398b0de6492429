"""Degraded, never broken (issue 30, item 6): a part of the scale-out set-up going away
costs no 500.

* A real ``redis-server`` (the shared rate-limit counts) killed under requests: every
  request is still served, each process counts alone meanwhile (one log line when it
  switches, one when Redis is back), and once it is restarted the counts are shared again.
* A real PostgreSQL stopped and started again under players' moves: every answer is a
  200, or a 503 with ``Retry-After`` and a JSON reason; no acknowledged move is lost; the
  players go on once it is back, by themselves.
"""

from __future__ import annotations

import logging
import threading

import pytest
from fastapi.testclient import TestClient

from outages import KillableRedis, RestartablePostgres, wait_for
from required import require_module, unavailable
from webapp import SITE
from winnable.web.app import create_app


def at(app, address: str) -> TestClient:
    return TestClient(app, base_url=SITE, client=(address, 40000), headers={"Origin": SITE})


def new_game(client: TestClient) -> int:
    return client.post("/api/games", json={"game": "black-hole", "deal": 2}).status_code


@pytest.fixture
def redis(tmp_path):
    server = KillableRedis(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


def test_redis_killed_under_requests_costs_no_500_and_shared_counting_resumes(tmp_path, redis, caplog):
    caplog.set_level(logging.WARNING, logger="winnable.web")
    url = f"sqlite:///{tmp_path / 'games.db'}"
    settings = {
        "pool_size": 0,
        "pool_background": False,
        "allowed_hosts": ["testserver"],
        "rate_limit_storage": redis.url,
        "limit_default": "100000/minute",
        "limit_create": "4/minute",
    }
    first, second = create_app(url, **settings), create_app(url, **settings)
    with TestClient(first), TestClient(second):
        a, b = at(first, "10.9.0.1"), at(second, "10.9.0.1")
        assert [new_game(client) for client in (a, b, a, b)] == [201] * 4
        assert new_game(a) == 429  # one count for both servers

        # Requests keep coming while Redis is killed.
        statuses: list[int] = []
        stop = threading.Event()

        def traffic() -> None:
            client = at(first, "10.9.0.7")  # no `with`: the app's lifespan is the test's
            while not stop.is_set():
                statuses.append(client.get("/api/catalog").status_code)

        runner = threading.Thread(target=traffic)
        runner.start()
        try:
            wait_for(lambda: len(statuses) >= 20, "requests before the kill")
            redis.kill()
            seen = len(statuses)
            wait_for(lambda: len(statuses) >= seen + 50, "requests while Redis is away")
        finally:
            stop.set()
            runner.join()
        assert set(statuses) == {200}, sorted(set(statuses))

        # Away: each server counts alone, and still holds its limit.
        c, d = at(first, "10.9.0.2"), at(second, "10.9.0.2")
        assert [new_game(c) for _ in range(4)] == [201] * 4 and new_game(c) == 429
        assert [new_game(d) for _ in range(4)] == [201] * 4 and new_game(d) == 429
        switched = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]
        assert len(switched) == 2, switched  # one line for each server (process)
        assert all(not app.state.services.limits.storage.shared_up for app in (first, second))

        redis.start()  # the same port, empty
        wait_for(lambda: all(app.state.services.limits.storage.shared_up for app in (first, second)), "both servers to find Redis again")
        back = [r.getMessage() for r in caplog.records if "shared again" in r.getMessage()]
        assert len(back) == 2, back
        e, f = at(first, "10.9.0.3"), at(second, "10.9.0.3")
        assert [new_game(client) for client in (e, f, e, f)] == [201] * 4
        assert new_game(f) == 429 and new_game(e) == 429  # shared again: one count across both


def test_redis_away_from_the_start_costs_no_500(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="winnable.web")
    from postgres_server import free_port

    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}",
        pool_size=0,
        pool_background=False,
        allowed_hosts=["testserver"],
        rate_limit_storage=f"redis://127.0.0.1:{free_port()}/0",
        limit_create="2/minute",
    )
    with TestClient(app):
        client = at(app, "10.9.0.1")
        assert [new_game(client) for _ in range(3)] == [201, 201, 429]
    assert len([r for r in caplog.records if "unreachable" in r.getMessage()]) == 1


# -- PostgreSQL restarted -------------------------------------------------------------------
@pytest.fixture
def postgres():
    require_module("psycopg", "pip install -e '.[postgres]'")
    from postgres_server import Unavailable

    try:
        server = RestartablePostgres()
        server.start()
    except Unavailable as why:
        unavailable(str(why))
    yield server
    server.remove()


class Player(threading.Thread):
    """Plays Black Hole moves one after another; keeps what the server acknowledged."""

    def __init__(self, app, number: int, stop: threading.Event) -> None:
        super().__init__()
        self.client = at(app, f"10.8.0.{number}")
        self.stop = stop
        self.acknowledged: list[str] = []
        self.games: dict[str, list[str]] = {}  # each game's moves, as last acknowledged
        self.answers: list[tuple[int, str, str | None]] = []  # status, code, Retry-After
        self.game: dict | None = None
        self.failure: BaseException | None = None

    def note(self, response) -> dict:
        body = response.json()  # every answer is JSON, the 503s too
        self.answers.append((response.status_code, body.get("code", ""), response.headers.get("Retry-After")))
        return body

    def run(self) -> None:
        try:
            state = None
            while not self.stop.is_set():
                if state is None:
                    if self.game is None:
                        response = self.client.post("/api/games", json={"game": "black-hole", "deal": 2})
                        body = self.note(response)
                        if response.status_code == 201:
                            self.game = state = body
                        continue
                    response = self.client.get(f"/api/games/{self.game['id']}")
                    body = self.note(response)
                    state = body if response.status_code == 200 else None
                    continue
                if state["status"] != "playing" or not state["legal"]:
                    state, self.game = None, None  # a new game
                    continue
                response = self.client.post(f"/api/games/{state['id']}/moves", json={"move": state["legal"][0]["move"]})
                body = self.note(response)
                if response.status_code == 200:
                    self.acknowledged.append(f"{body['id']}:{len(body['moves'])}")
                    self.games[body["id"]] = body["moves"]
                    state = body
                else:
                    state = None  # read the game again (a 503's move may or may not be stored)
        except BaseException as error:  # noqa: BLE001  (reported by the test)
            self.failure = error


def test_postgres_restarted_under_moves_answers_200_or_503_and_loses_nothing(postgres):
    app = create_app(postgres.url, pool_size=0, pool_background=False, allowed_hosts=["testserver"], rate_limits=False)
    stop = threading.Event()
    with TestClient(app):
        players = [Player(app, k, stop) for k in range(4)]
        for player in players:
            player.start()
        try:
            wait_for(lambda: all(len(p.acknowledged) >= 3 for p in players) or any(p.failure for p in players), "moves before the restart")
            postgres.stop()
            wait_for(
                lambda: any(status == 503 for p in players for status, _, _ in p.answers) or any(p.failure for p in players),
                "a 503 while PostgreSQL is down",
            )
            postgres.start()
            before = [len(p.acknowledged) for p in players]
            wait_for(
                lambda: all(len(p.acknowledged) >= n + 3 for p, n in zip(players, before)) or any(p.failure for p in players),
                "moves once PostgreSQL is back",
                seconds=120,
            )
        finally:
            stop.set()
            for player in players:
                player.join()
        assert [p.failure for p in players] == [None] * len(players)
        answers = [answer for p in players for answer in p.answers]
        assert {status for status, _, _ in answers} <= {200, 201, 503}, sorted({a[0] for a in answers})
        outages = [answer for answer in answers if answer[0] == 503]
        assert outages and all(code == "database_unavailable" and int(retry) >= 1 for _, code, retry in outages)
        # every acknowledged move is stored (a move answered 503 may be stored after them)
        reader = at(app, "10.8.0.99")
        for player in players:
            for game_id, moves in player.games.items():
                stored = reader.get(f"/api/games/{game_id}").json()["moves"]
                assert stored[: len(moves)] == moves
