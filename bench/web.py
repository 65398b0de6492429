"""Benchmark the web API: concurrent simulated players against a real server on loopback.

Starts ``winnable serve`` in a subprocess (127.0.0.1, a free port, a temporary SQLite
database), waits for its pool of winnable deals, then runs two phases with a bounded
number of requests and a bounded time each:

1. *play*: ``--players`` threads play Black Hole (or ``--game``) like people do: a new deal (one in five
   from the winnable pool), a random legal move, now and then an undo, a reload (GET
   state), a replay step (GET position), a restart; after a loss, "where did I lose?"
   (GET analysis);
2. *hints*: the same players go on while ``--hinters`` threads ask for hints on the
   hardest deals of the first thousand (uncached searches, each a new game's first
   hint). GET state latency in this phase shows that the server keeps answering other
   players while hints are computed.

Prints the median, p90, p99 and maximum latency per endpoint and per phase, and checks
the acceptance: median under 50 ms for every call but hint and analysis, which must
answer within their budget (default 2 s) with a verdict.

    .venv/bin/python bench/web.py                 # about a minute
    .venv/bin/python bench/web.py --players 4 --seconds 10 --requests 1000
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict

import httpx

# The slowest deals of 1..1000 to solve from the deal, found with `winnable solve
# black-hole N --json` over 1..1000 (0.2-0.9 s each then; today's engine solves the
# slowest, 400, in about 30 ms: see bench/black_hole.py).
HARD_DEALS = [
    400,
    409,
    313,
    230,
    915,
    844,
    638,
    213,
    555,
    849,
    790,
    576,
    922,
    514,
    64,
    978,
    225,
    837,
    257,
    783,
    719,
    876,
    824,
    439,
    321,
    278,
    938,
    857,
    208,
    205,
]

GAME = "black-hole"
SOLVER_CALLS = ("GET hint", "GET analysis")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Recorder:
    """Latencies by (phase, endpoint), plus errors."""

    def __init__(self) -> None:
        self.samples: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.statuses: dict[tuple[str, str], dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.verdicts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.lock = threading.Lock()
        self.phase = "play"
        self.count = 0

    def call(self, client: httpx.Client, name: str, method: str, url: str, classify=None, **kwargs) -> httpx.Response:
        """Time one request; ``classify(response)`` may file it under another name."""
        started = time.perf_counter()
        response = client.request(method, url, **kwargs)
        elapsed = time.perf_counter() - started
        name = (classify and classify(response)) or name
        with self.lock:
            key = (self.phase, name)
            self.samples[key].append(elapsed)
            self.statuses[key][response.status_code] += 1
            if name in SOLVER_CALLS and response.status_code == 200:
                answer = response.json()
                found = " (losing move found)" if answer.get("lost_at") is not None else ""
                self.verdicts[key][answer["verdict"] + found] += 1
            self.count += 1
        return response


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]


class Player(threading.Thread):
    """Plays Black Hole games one after another until told to stop."""

    def __init__(self, base: str, recorder: Recorder, stop: threading.Event, seed: int, budget: "Budget") -> None:
        super().__init__(daemon=True)
        self.base, self.recorder, self.stop, self.budget = base, recorder, stop, budget
        self.rng = random.Random(seed)
        self.errors: list[str] = []

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30, headers={"Origin": self.base}) as client:
            while not self.stop.is_set() and self.budget.take():
                try:
                    self.one_game(client)
                except httpx.HTTPError as error:
                    self.errors.append(repr(error))

    def one_game(self, client: httpx.Client) -> None:
        call = self.recorder.call
        rng = self.rng
        if rng.random() < 0.2:
            response = call(
                client,
                "POST games (winnable)",
                "POST",
                "/api/games",
                json={"game": GAME, "winnable": True},
                classify=lambda r: "POST games (winnable, reused)" if r.headers.get("x-winnable-source") == "reused" else None,
            )
            if response.status_code != 201:
                response = call(client, "POST games", "POST", "/api/games", json={"game": GAME})
        else:
            response = call(client, "POST games", "POST", "/api/games", json={"game": GAME, "deal": rng.randint(1, 10**6)})
        state = response.json()
        game_id = state["id"]
        call(client, "GET state", "GET", f"/api/games/{game_id}")
        restarted = False
        while not self.stop.is_set() and self.budget.take():
            if state["status"] != "playing":
                call(client, "GET analysis", "GET", f"/api/games/{game_id}/analysis")
                if restarted or rng.random() < 0.5:
                    return
                state = call(client, "POST restart", "POST", f"/api/games/{game_id}/restart", json={}).json()
                restarted = True
                continue
            roll = rng.random()
            if roll < 0.08 and state["moves"]:
                state = call(client, "POST undo", "POST", f"/api/games/{game_id}/undo", json={}).json()
            elif roll < 0.25:
                state = call(client, "GET state", "GET", f"/api/games/{game_id}").json()
            elif roll < 0.30 and state["moves"]:
                call(client, "GET position", "GET", f"/api/games/{game_id}/position", params={"at": rng.randrange(len(state["moves"]))})
            elif roll < 0.32:
                call(client, "GET catalog", "GET", "/api/catalog")
            else:
                move = rng.choice(state["legal"])["move"]
                response = call(client, "POST move", "POST", f"/api/games/{game_id}/moves", json={"move": move})
                if response.status_code == 200:
                    state = response.json()
                else:
                    self.errors.append(f"move {move} refused: {response.text}")
                    return


class Hinter(threading.Thread):
    """Asks for hints on hard deals (fresh searches), one after another."""

    def __init__(self, base: str, recorder: Recorder, stop: threading.Event, deals: list[int]) -> None:
        super().__init__(daemon=True)
        self.base, self.recorder, self.stop, self.deals = base, recorder, stop, deals
        self.verdicts: dict[str, int] = defaultdict(int)
        self.busy = 0.0

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30, headers={"Origin": self.base}) as client:
            for deal in self.deals:
                if self.stop.is_set():
                    return
                state = self.recorder.call(client, "POST games", "POST", "/api/games", json={"game": GAME, "deal": deal}).json()
                started = time.perf_counter()
                hint = self.recorder.call(client, "GET hint", "GET", f"/api/games/{state['id']}/hint").json()
                self.busy += time.perf_counter() - started
                self.verdicts[hint["verdict"]] += 1


class Budget:
    """A bounded number of requests shared by all players."""

    def __init__(self, requests: int) -> None:
        self.left = requests
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            if self.left <= 0:
                return False
            self.left -= 1
            return True


def start_server(port: int, database: str, pool: int, threads: int | None) -> subprocess.Popen:
    # Every simulated player comes from 127.0.0.1: no per-client rate limit here
    # (bench/load.py gives each player an address of its own and keeps them).
    env = dict(os.environ, WINNABLE_POOL_SIZE=str(pool), WINNABLE_LOG_LEVEL="warning", WINNABLE_RATE_LIMITS="0")
    if threads:
        env["WINNABLE_SOLVER_THREADS"] = str(threads)
    command = [sys.executable, "-m", "winnable.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--database", database]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_ready(base: str, database: str, pool: int, server: subprocess.Popen, seconds: float = 90) -> dict:
    """Wait for the server and for ``pool`` proved deals in its database (/api/health
    says only up or down: the pool is the won verdicts the web app has not dealt yet)."""
    import sqlalchemy as sa

    engine = sa.create_engine(database)
    deadline = time.monotonic() + seconds
    ready = 0
    try:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise SystemExit(f"the server stopped: {server.stdout.read() if server.stdout else ''}")
            try:
                if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                    with engine.connect() as connection:
                        ready = connection.execute(
                            sa.text("SELECT count(*) FROM verdicts WHERE game = :game AND verdict = 'won' AND used_at IS NULL"),
                            {"game": GAME},
                        ).scalar()
                    if ready >= pool:
                        break
            except (httpx.HTTPError, sa.exc.OperationalError):
                pass
            time.sleep(0.2)
    finally:
        engine.dispose()
    return {"pool": {GAME: ready}}


def run_phase(
    name: str, recorder: Recorder, base: str, players: int, requests: int, seconds: float, hinters: int = 0, seed: int = 1
) -> tuple[float, list[Hinter], list[Player]]:
    recorder.phase = name
    stop = threading.Event()
    budget = Budget(requests)
    team = [Player(base, recorder, stop, seed * 100 + index, budget) for index in range(players)]
    deals = list(HARD_DEALS) if GAME == "black-hole" else [random.Random(seed).randint(1, 10**6) for _ in range(30)]
    hint_team = [Hinter(base, recorder, stop, deals[index::hinters]) for index in range(hinters)]
    started = time.perf_counter()
    for thread in team + hint_team:
        thread.start()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        if hint_team and not any(thread.is_alive() for thread in hint_team):
            break  # the hint phase lasts as long as its hints
        if not hint_team and not any(thread.is_alive() for thread in team):
            break
        time.sleep(0.05)
    stop.set()
    for thread in team + hint_team:
        thread.join(60)
    return time.perf_counter() - started, hint_team, team


def report(recorder: Recorder, hint_budget: float) -> bool:
    print(f"{'phase':6} {'endpoint':24} {'n':>6} {'median':>9} {'p90':>9} {'p99':>9} {'max':>9}  statuses")
    ok = True
    for (phase, name), values in sorted(recorder.samples.items()):
        median = statistics.median(values) * 1000
        p90, p99 = (percentile(values, q) * 1000 for q in (0.9, 0.99))
        statuses = " ".join(f"{code}x{count}" for code, count in sorted(recorder.statuses[(phase, name)].items()))
        print(f"{phase:6} {name:24} {len(values):6} {median:8.1f}ms {p90:8.1f}ms {p99:8.1f}ms {max(values) * 1000:8.1f}ms  {statuses}")
    print()
    for (phase, name), values in sorted(recorder.samples.items()):
        median = statistics.median(values)
        if name in SOLVER_CALLS:
            limit = hint_budget + 0.5  # the budget plus a loaded machine's HTTP overhead
            verdict = max(values) <= limit
            within = sum(value <= hint_budget for value in values)
            verdicts = dict(recorder.verdicts[(phase, name)])
            print(
                f"{'PASS' if verdict else 'FAIL'}: {phase} {name}: {within} of {len(values)} within the "
                f"{hint_budget:g} s budget, slowest {max(values) * 1000:.0f} ms; verdicts {verdicts}"
            )
        else:
            verdict = median < 0.050
            print(f"{'PASS' if verdict else 'FAIL'}: {phase} {name}: median {median * 1000:.1f} ms < 50 ms")
        ok = ok and verdict
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8, help="simulated players playing at once")
    parser.add_argument("--hinters", type=int, default=2, help="threads asking for hard hints in phase 2")
    parser.add_argument("--requests", type=int, default=3000, help="request cap per phase (players)")
    parser.add_argument("--seconds", type=float, default=25.0, help="time cap per phase")
    parser.add_argument("--pool", type=int, default=20, help="winnable deals to have ready before starting")
    parser.add_argument("--solver-threads", type=int, default=None, help="server's solver threads (default: cores)")
    parser.add_argument("--game", default="black-hole", help="game to play (hard hint deals are known for black-hole only)")
    args = parser.parse_args()
    global GAME
    GAME = args.game

    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="winnable-bench-") as folder:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        database = f"sqlite:///{folder}/bench.db"
        server = start_server(port, database, args.pool, args.solver_threads)
        try:
            started = time.perf_counter()
            health = wait_ready(base, database, args.pool, server)
            print(f"server up on {base} with {health.get('pool')} winnable deals ready after {time.perf_counter() - started:.1f} s")
            recorder = Recorder()
            wall, _, players = run_phase("play", recorder, base, args.players, args.requests, args.seconds)
            print(
                f"phase play: {args.players} players, {sum(len(v) for (p, _), v in recorder.samples.items() if p == 'play')} requests in {wall:.1f} s"
            )
            wall, hinters, players2 = run_phase(
                "hints", recorder, base, args.players, args.requests, args.seconds * 2, args.hinters, seed=2
            )
            busy = sum(h.busy for h in hinters)
            verdicts = defaultdict(int)
            for hinter in hinters:
                for verdict, count in hinter.verdicts.items():
                    verdicts[verdict] += count
            hint_requests = sum(len(v) for (p, _), v in recorder.samples.items() if p == "hints")
            print(
                f"phase hints: {args.players} players + {args.hinters} hinters, {hint_requests} requests in {wall:.1f} s; "
                f"hints busy {busy:.1f} s of {wall * args.hinters:.1f} s hinter time; verdicts {dict(verdicts)}"
            )
            errors = [error for player in players + players2 for error in player.errors]
            if errors:
                print(f"{len(errors)} player errors, first: {errors[0]}")
            print()
            ok = report(recorder, 2.0)
            play_state = recorder.samples.get(("play", "GET state"), [])
            hint_state = recorder.samples.get(("hints", "GET state"), [])
            if play_state and hint_state:
                print(
                    f"GET state median without hints {statistics.median(play_state) * 1000:.1f} ms, "
                    f"while hints run {statistics.median(hint_state) * 1000:.1f} ms "
                    f"(p99 {percentile(play_state, 0.99) * 1000:.1f} / {percentile(hint_state, 0.99) * 1000:.1f} ms)"
                )
            print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            return 0 if ok and not errors else 1
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    sys.exit(main())
