"""Several worker processes, or several servers, on one database: nothing that
correctness depends on lives in a process's memory.

* the pool's filler runs once per database (a lease in the database), and another
  server takes over when its holder stops;
* ``winnable serve --workers 2`` on SQLite and on PostgreSQL: games played through
  fresh connections (landing on either worker) keep exactly the moves acknowledged, and
  the same move sent at once by several clients is played once;
* two servers counting rate limits in one Redis (a ``redis-server`` the test starts on
  loopback): a limit holds across both, sign-in's per-name and per-device counts too.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from fastapi.testclient import TestClient

from ports import free_port
from webapp import SITE
from winnable.web.app import create_app


def pool_app(url):
    return create_app(url, pool_size=2, pool_seconds=0.5, pool_lease_seconds=1.0, allowed_hosts=["testserver"])


def test_the_pool_filler_runs_once_per_database_and_moves_on_when_its_server_stops(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first, second = pool_app(url), pool_app(url)
    with TestClient(first), TestClient(second):
        deadline = time.monotonic() + 20
        while not (first.state.services.pool.filling or second.state.services.pool.filling) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # both have tried for the lease by now
        assert [first.state.services.pool.filling, second.state.services.pool.filling].count(True) == 1
        holder, other = (first, second) if first.state.services.pool.filling else (second, first)
        holder.state.services.pool.stop()  # this server goes away: it gives the lease up
        deadline = time.monotonic() + 20
        while not other.state.services.pool.filling and time.monotonic() < deadline:
            time.sleep(0.05)
        assert other.state.services.pool.filling and not holder.state.services.pool.filling


# -- winnable serve --workers 2 -------------------------------------------------------------


class Served:
    def __init__(self, database: str, tmp_path, workers: int = 2, pool_size: int = 0) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp_path / "serve.log"
        env = os.environ | {"WINNABLE_POOL_SIZE": str(pool_size), "WINNABLE_RATE_LIMITS": "0"}
        self.process = subprocess.Popen(  # a process group of its own, as a terminal's job
            [
                sys.executable,
                "-m",
                "winnable.cli",
                "serve",
                "--port",
                str(self.port),
                "--database",
                database,
                "--workers",
                str(workers),
                "--metrics",
            ],
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while True:
            assert self.process.poll() is None, self.log.read_text()
            try:
                if self.call("GET", "/api/health")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, self.log.read_text()
            time.sleep(0.3)

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        """One request on a connection of its own (so that it may land on any worker)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json", "Origin": self.base}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read()
                return response.status, json.loads(text) if text.startswith(b"{") else {"text": text.decode()}
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def children(pid: int) -> dict[int, tuple[str, str]]:
    """``pid``'s child processes: their state (R running, S sleeping...) and command line."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                        found[int(entry)] = (fields[0], cmdline.read().replace(b"\0", b" ").decode(errors="replace"))
            except (OSError, IndexError, ValueError):
                continue
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "timeout"])
def test_a_server_signalled_with_its_whole_process_group_stops(tmp_path, signal_number):
    """Ctrl-C in a terminal (SIGINT) and `timeout` (SIGTERM) signal every process of the
    job, the pool's filler included. The server stops all the same: it used to wait
    forever on the stop signal it shared with a filler that was already gone."""
    served = Served(f"sqlite:///{tmp_path}/games.db", tmp_path, workers=1, pool_size=2)
    try:
        # The filler found, signal the job while it rests between deals (sleeping: that
        # is when the old stop signal waited for it forever).
        deadline, asleep = time.monotonic() + 90, 0
        while asleep < 3:
            assert time.monotonic() < deadline, f"no resting filler: {children(served.process.pid)}"
            states = [
                state for state, line in children(served.process.pid).values() if "spawn_main" in line and "resource_tracker" not in line
            ]
            asleep = asleep + 1 if states == ["S"] else 0
            time.sleep(0.05)
        os.killpg(served.process.pid, signal_number)
        served.process.wait(30)  # raises TimeoutExpired if the server hangs
        assert served.process.returncode is not None
    finally:
        if served.process.poll() is None:
            os.killpg(served.process.pid, signal.SIGKILL)
            served.process.wait(10)


def play_from_many_connections(served: Served) -> None:
    games = [served.call("POST", "/api/games", {"game": "black-hole", "deal": deal})[1] for deal in (2, 3, 4, 5)]
    acknowledged: dict[str, list[str]] = {game["id"]: [] for game in games}
    errors: list[str] = []

    def player(game: dict, seed: int) -> None:
        rng = random.Random(seed)
        state = game
        while state["status"] == "playing" and len(acknowledged[game["id"]]) < 30:
            if acknowledged[game["id"]] and rng.random() < 0.2:
                status, state = served.call("POST", f"/api/games/{game['id']}/undo", {})
                if status == 200:
                    acknowledged[game["id"]].pop()
            else:
                move = rng.choice(state["legal"])["move"]
                status, state = served.call("POST", f"/api/games/{game['id']}/moves", {"move": move})
                if status == 200:
                    acknowledged[game["id"]].append(move)
            if status != 200:
                errors.append(f"{status} {state}")
                return
            if served.call("GET", f"/api/games/{game['id']}")[1]["moves"] != acknowledged[game["id"]]:
                errors.append("a read from another connection disagrees")

    threads = [threading.Thread(target=player, args=(game, k)) for k, game in enumerate(games)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for game_id, moves in acknowledged.items():
        assert served.call("GET", f"/api/games/{game_id}")[1]["moves"] == moves

    # the same move from 8 clients at once: played once
    game = served.call("POST", "/api/games", {"game": "black-hole", "deal": 2})[1]
    codes: list[int] = []
    racers = [
        threading.Thread(target=lambda: codes.append(served.call("POST", f"/api/games/{game['id']}/moves", {"move": "KH"})[0]))
        for _ in range(8)
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(codes) == [200] + [409] * 7
    assert served.call("GET", f"/api/games/{game['id']}")[1]["moves"] == ["KH"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_workers_on_one_database(kind, tmp_path, request):
    database = f"sqlite:///{tmp_path / 'games.db'}" if kind == "sqlite" else request.getfixturevalue("postgres_url")
    served = Served(database, tmp_path)
    try:
        play_from_many_connections(served)
        status, page = served.call("GET", "/metrics")  # the workers' figures, summed
        assert status == 200 and 'winnable_responses_total{method="POST",route="/api/games/{game_id}/moves",status="200"}' in page["text"]
    finally:
        served.stop()


# -- rate limits shared through Redis ---------------------------------------------------------


def limited_app(url: str, storage: str, **limits):
    settings = {
        "pool_size": 0,
        "pool_background": False,
        "allowed_hosts": ["testserver"],
        "rate_limit_storage": storage,
        "limit_default": "1000/minute",
        "argon2_memory_kib": 1024,
        "argon2_time_cost": 1,
    } | limits
    return create_app(url, **settings)


def at(app, address: str, **headers) -> TestClient:
    return TestClient(app, base_url=SITE, client=(address, 40000), headers={"Origin": SITE} | headers)


def test_two_servers_share_rate_limit_counts_through_redis(tmp_path, redis_url):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first, second = (limited_app(url, redis_url, limit_create="4/minute") for _ in range(2))
    a, b = at(first, "10.9.0.1"), at(second, "10.9.0.1")  # one client, its requests on either server
    codes = [client.post("/api/games", json={"game": "black-hole", "deal": 2}).status_code for client in (a, b, a, b)]
    assert codes == [201] * 4
    for client in (a, b):  # the fifth, on either server, is over the limit both counted
        refused = client.post("/api/games", json={"game": "black-hole", "deal": 2})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert at(second, "10.9.0.2").post("/api/games", json={"game": "black-hole", "deal": 2}).status_code == 201

    # The same two servers counting in their own memory would let each client twice as far:
    # what the test above tells apart.
    alone = [limited_app(f"sqlite:///{tmp_path / 'alone.db'}", "memory://", limit_create="4/minute") for _ in range(2)]
    codes = [at(app, "10.9.0.1").post("/api/games", json={"game": "black-hole", "deal": 2}).status_code for app in alone * 3]
    assert codes == [201] * 6


def test_sign_in_limits_hold_across_two_servers_and_the_owners_device_is_known_to_both(tmp_path, redis_url):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    servers = [
        limited_app(url, redis_url, limit_login_name="3/minute", limit_login_device="2/minute", limit_login="100/minute") for _ in range(2)
    ]
    owner = at(servers[0], "10.9.1.1")
    assert owner.post("/api/auth/signup", json={"name": "ada", "password": "correct horse battery"}).status_code == 201
    device = owner.cookies["winnable_device"]
    codes = [
        at(servers[k % 2], f"10.66.1.{k}").post("/api/auth/login", json={"name": "ada", "password": f"guess {k}"}).status_code
        for k in range(6)
    ]
    assert codes == [401, 401, 401, 429, 429, 429]  # the name's count is one across both servers
    # The owner's browser, on the other server: its device cookie is good there too.
    on_second = at(servers[1], "10.9.1.1", Cookie=f"winnable_device={device}")
    signed_in = on_second.post("/api/auth/login", json={"name": "ada", "password": "correct horse battery"})
    assert signed_in.status_code == 200
    # A device's own count is shared too: a wrong password on each server, then locked on both.
    device = signed_in.cookies["winnable_device"]
    trusted = [at(server, "10.9.1.1", Cookie=f"winnable_device={device}") for server in servers]
    codes = [client.post("/api/auth/login", json={"name": "ada", "password": "wrong password"}).status_code for client in trusted]
    assert codes == [401, 401]
    for client in trusted:
        assert client.post("/api/auth/login", json={"name": "ada", "password": "correct horse battery"}).status_code == 429
