"""Load test: many simulated players against `winnable serve --workers N` on loopback.

The server runs in its own processes (``winnable serve --workers 2`` by default, on a
fresh SQLite file or, with ``--postgres``, a throwaway PostgreSQL); this process is the
load generator. Each simulated player has its own loopback address (127.77.x.y), so
rate limits and the solver queue see them as the different people they are.

* ``--players`` (200) players each play Black Hole at one move a second, with a GET of
  the game's state half-way between moves; a finished game is followed by a new one;
* ``--hinters`` (30) other clients ask ``--hint-rate`` (10) hints a second together, each on
  its own game, playing a random move (not the hint) in between so that every hint is a
  fresh search (30 clients at 20 hints a minute each: inside the solver rate limit of
  30/min, which 20 clients at exactly 30/min each brushed against).

After ``--warmup`` seconds it measures for ``--seconds`` (60) and prints p50/p99 latency
of each kind of request, the errors (any status but 2xx, or no answer), the server's CPU
time per request (all its processes, from /proc), and the load average before and after
(other users of the machine skew every figure: rerun when it is quiet).

``--storm`` instead measures what refusals cost (issue 19): ``--storm-addresses`` (20)
clients ask, back to back, for Winnable deals of a game none of whose deals is proved
(Penguin with no flipper: every answer a 409, or a 429 past the address's limits), while
``--readers`` (5) other players read their game's state every 50 ms. Three phases of
``--seconds`` each: the readers alone, the storm alone (the server's CPU per refusal), both
(the readers' p50/p99 under the storm); then the session rows in the database (the
readers' only: a refusal writes none). The server keeps its rate limits (each address gets
30 409s a minute, then 429s: both are refusals); ``--no-rate-limits`` lifts them, so that
every refusal is a 409 that went through the route.

``--memory`` instead measures the server's memory (RSS of its processes): one game of
10,000 moves played through the API (a FreeCell card moved back and forth), then 200
games of 500 moves each (the first 499 written to the database, the last one played, the
state and a replay read through the API).

    .venv/bin/python bench/load.py                     # SQLite, 2 workers, 60 s
    .venv/bin/python bench/load.py --postgres
    .venv/bin/python bench/load.py --postgres --redis     # as several servers would share limits
    .venv/bin/python bench/load.py --memory
    .venv/bin/python bench/load.py --storm --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import brotli
import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# -- the server's processes ----------------------------------------------------------------
def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                children[int(fields[1])].append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def cpu_seconds(pids: list[int], system: bool = False) -> float:
    """User + system CPU time of these processes (their threads included); with
    ``system``, the system (kernel) part only."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[12]) + (0 if system else int(fields[11]))
        except (OSError, IndexError, ValueError):
            continue
    return total / tick


def database_pids(url: str) -> list[int]:
    """The PostgreSQL server of ``url`` (a throwaway one on loopback): its postmaster,
    found by its port, and every backend below it; none for SQLite."""
    if not url.startswith("postgresql"):
        return []
    port = url.rsplit(":", 1)[1].split("/", 1)[0]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if words and words[0].endswith(b"postgres") and f"-p {port}".encode() in b" ".join(words):
                return descendants(int(entry.name))
    return []


def process_name(pid: int) -> str:
    """A short name for one of the server's processes: its pid and what it runs."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return f"{pid} (gone)"
    text = " ".join(word.decode(errors="replace") for word in words if word)
    kind = "supervisor" if " serve " in f" {text} " else "spawned worker" if "multiprocessing" in text else text[-40:]
    return f"{pid} ({kind})"


def solver_cpu_seconds(base: str) -> float:
    """CPU time the server's solver workers spent searching, all workers together (from
    its Prometheus figures: the server runs with --metrics)."""
    text = httpx.get(base + "/metrics", timeout=10).text
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith("winnable_solver_cpu_seconds_total"))


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


class Server:
    def __init__(self, database: str, workers: int, env: dict[str, str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        command = [
            sys.executable,
            "-m",
            "winnable.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--database",
            database,
            "--workers",
            str(workers),
            "--metrics",
        ]
        self.log = tempfile.NamedTemporaryFile("w+", prefix="winnable-load-", suffix=".log", delete=False)
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=os.environ | env, cwd=ROOT)
        deadline = time.monotonic() + 90
        while True:
            if self.process.poll() is not None:
                raise SystemExit(f"the server stopped: see {self.log.name}")
            try:
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"the server did not start: see {self.log.name}")
            time.sleep(0.3)
        time.sleep(1.0)  # every worker up

    def pids(self) -> list[int]:
        return descendants(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


# -- simulated players -----------------------------------------------------------------------
class Figures:
    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.measuring = False

    def record(self, kind: str, seconds: float, status: int | str) -> None:
        if not self.measuring:
            return
        self.samples[kind].append(seconds)
        if not (isinstance(status, int) and 200 <= status < 300):
            self.errors[kind][str(status)] += 1

    def requests(self) -> int:
        return sum(len(values) for values in self.samples.values())


class Client:
    """A minimal HTTP/1.1 keep-alive client on its own loopback address, over asyncio
    streams: the load generator shares this session's CPU with the server, and httpx
    spent ten times this client's CPU on each request (the server got less for itself).
    Sends ``Accept-Encoding: br`` like a browser, so the server compresses as it would,
    and keeps the cookies the server sets (the guest session a first new game starts),
    so that, as in a browser, one player's games share one session."""

    def __init__(self, base: str, index: int) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port, self.base = host, int(port), base
        self.address = f"127.77.{index // 250}.{index % 250 + 1}"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookies: dict[bytes, bytes] = {}

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *exc) -> None:
        if self.writer is not None:
            self.writer.close()

    async def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
        for attempt in (1, 2):  # a kept-alive connection the server closed: once more
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=(self.address, 0))
            head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nOrigin: {self.base}\r\nAccept-Encoding: br\r\n"
            if self.cookies:
                head += "Cookie: " + "; ".join(f"{name.decode()}={value.decode()}" for name, value in self.cookies.items()) + "\r\n"
            if body is not None:
                head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            try:
                self.writer.write(head.encode() + b"\r\n" + (body or b""))
                lines = (await self.reader.readuntil(b"\r\n\r\n")).split(b"\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.writer.close()
                self.writer = None
                if attempt == 2:
                    raise
                continue
            status = int(lines[0].split()[1])
            headers = dict(line.split(b": ", 1) for line in lines[1:] if b": " in line)
            headers = {name.lower(): value for name, value in headers.items()}
            for line in lines[1:]:  # every Set-Cookie (the dict above keeps only one)
                if line[:12].lower() == b"set-cookie: ":
                    name, _, value = line[12:].split(b";", 1)[0].partition(b"=")
                    self.cookies[name.strip()] = value.strip()
            data = await self.reader.readexactly(int(headers.get(b"content-length", b"0")))
            if headers.get(b"content-encoding") == b"br":
                data = brotli.decompress(data)
            if headers.get(b"connection") == b"close":
                self.writer.close()
                self.writer = None
            return status, data
        raise ConnectionError("unreachable")


def client_for(base: str, index: int) -> Client:
    return Client(base, index)


async def call(figures: Figures, kind: str, client: Client, method: str, path: str, body=None):
    started = time.perf_counter()
    try:
        status, data = await asyncio.wait_for(client.request(method, path, None if body is None else json.dumps(body).encode()), 30)
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as error:
        figures.record(kind, time.perf_counter() - started, type(error).__name__)
        if client.writer is not None:
            client.writer.close()
            client.writer = None
        return None
    figures.record(kind, time.perf_counter() - started, status)
    return json.loads(data) if status < 300 else None


async def new_game(figures, client, rng) -> dict | None:
    return await call(figures, "create", client, "POST", "/api/games", {"game": "black-hole", "deal": rng.randint(1, 10**6)})


async def player(figures: Figures, base: str, index: int, until: float, rng: random.Random) -> None:
    async with client_for(base, index) as client:
        await asyncio.sleep(rng.random())  # players start spread over a second
        state = await new_game(figures, client, rng)
        next_move = time.monotonic()
        while time.monotonic() < until:
            if state is None or state.get("status") != "playing":
                state = await new_game(figures, client, rng)
            else:
                move = rng.choice(state["legal"])["move"]
                state = await call(figures, "move", client, "POST", f"/api/games/{state['id']}/moves", {"move": move}) or state
            next_move += 1.0
            await asyncio.sleep(max(0.0, next_move - 0.5 - time.monotonic()))
            if state is not None and "id" in state:
                state = await call(figures, "state", client, "GET", f"/api/games/{state['id']}") or state
            await asyncio.sleep(max(0.0, next_move - time.monotonic()))


async def hinter(figures: Figures, base: str, index: int, until: float, rng: random.Random, every: float) -> None:
    async with client_for(base, index) as client:
        await asyncio.sleep(rng.random() * every)
        state = await new_game(figures, client, rng)
        tick = time.monotonic()
        while time.monotonic() < until:
            if state is None or state.get("status") != "playing":
                state = await new_game(figures, client, rng)
            else:
                await call(figures, "hint", client, "GET", f"/api/games/{state['id']}/hint")
                move = rng.choice(state["legal"])["move"]
                state = await call(figures, "hinter move", client, "POST", f"/api/games/{state['id']}/moves", {"move": move}) or state
            tick += every
            await asyncio.sleep(max(0.0, tick - time.monotonic()))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def run_load(server: Server, args) -> None:
    figures = Figures()
    rng = random.Random(args.seed)
    until = time.monotonic() + args.warmup + args.seconds
    tasks = [asyncio.create_task(player(figures, server.base, k, until, random.Random(rng.random()))) for k in range(args.players)]
    every = args.hinters / args.hint_rate
    tasks += [
        asyncio.create_task(hinter(figures, server.base, args.players + k, until, random.Random(rng.random()), every))
        for k in range(args.hinters)
    ]
    await asyncio.sleep(args.warmup)
    pids = server.pids()
    database = database_pids(args.database)
    database_before = cpu_seconds(database)
    load_before = loadavg()
    cpu_before, own_before, wall_before = cpu_seconds(pids), time.process_time(), time.monotonic()
    kernel_before = cpu_seconds(pids, system=True)
    per_before = {pid: cpu_seconds([pid]) for pid in pids}
    solver_before = solver_cpu_seconds(server.base)
    figures.measuring = True
    await asyncio.sleep(args.seconds)
    figures.measuring = False
    cpu, own, wall = cpu_seconds(pids) - cpu_before, time.process_time() - own_before, time.monotonic() - wall_before
    kernel = cpu_seconds(pids, system=True) - kernel_before
    database_cpu = cpu_seconds(database_pids(args.database)) - database_before  # backends come and go
    per_process = {pid: cpu_seconds([pid]) - before for pid, before in per_before.items()}
    searches = solver_cpu_seconds(server.base) - solver_before
    load_after = loadavg()
    await asyncio.gather(*tasks)
    requests = figures.requests()
    print(
        f"{args.players} players (1 move/s + 1 state/s) + {args.hinters} hinters ({args.hint_rate:g} hints/s "
        f"together) for {wall:.0f} s; "
        f"server: {args.workers} workers on {args.kind}"
    )
    print(f"load average before {load_before}, after {load_after}")
    print(f"{'request':12} {'count':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  errors")
    for kind in ("move", "state", "create", "hint", "hinter move"):
        values = figures.samples.get(kind, [])
        errors = dict(figures.errors.get(kind, {}))
        print(
            f"{kind:12} {len(values):7d} {percentile(values, 0.5) * 1e3:8.1f} {percentile(values, 0.99) * 1e3:8.1f} "
            f"{max(values, default=float('nan')) * 1e3:8.1f}  {errors or 0}"
        )
    total_errors = sum(sum(kinds.values()) for kinds in figures.errors.values())
    print(f"requests {requests} ({requests / wall:.0f}/s), errors {total_errors}")
    print(
        f"server CPU {cpu:.1f} s = {cpu / max(requests, 1) * 1e3:.2f} ms per request, of which the hints' "
        f"searches {searches:.1f} s; without them {(cpu - searches) / max(requests, 1) * 1e3:.2f} ms per request; "
        f"load generator CPU {own:.1f} s"
    )
    print(
        "server CPU by process: "
        + ", ".join(f"{process_name(pid)} {seconds:.1f} s" for pid, seconds in sorted(per_process.items(), key=lambda item: -item[1]))
    )
    print(
        f"server CPU in the kernel (system time: sockets, SQLite's file I/O) {kernel:.1f} s = "
        f"{kernel / max(requests, 1) * 1e3:.2f} ms per request"
    )
    if database:
        print(f"PostgreSQL CPU (postmaster and backends) {database_cpu:.1f} s = {database_cpu / max(requests, 1) * 1e3:.2f} ms per request")


# -- a storm of refusals --------------------------------------------------------------------
async def stormer(figures: Figures, base: str, index: int, stop: asyncio.Event) -> None:
    async with client_for(base, index) as client:
        while not stop.is_set():
            await call(figures, "refusal", client, "POST", "/api/games", {"game": "penguin-0", "winnable": True})


async def reader(figures: Figures, base: str, index: int, stop: asyncio.Event, rng: random.Random) -> None:
    async with client_for(base, index) as client:
        state = None
        while state is None and not stop.is_set():
            state = await new_game(Figures(), client, rng)
            await asyncio.sleep(0.1)
        tick = time.monotonic() + rng.random() * 0.05
        while not stop.is_set():
            await call(figures, "state", client, "GET", f"/api/games/{state['id']}")
            tick += 0.05
            await asyncio.sleep(max(0.0, tick - time.monotonic()))


async def storm_phase(server: Server, args, readers: bool, storm: bool) -> tuple[Figures, float, float]:
    """One phase: its figures, the server's CPU seconds and the wall seconds measured."""
    figures, stop = Figures(), asyncio.Event()
    rng = random.Random(args.seed)
    tasks = []
    if readers:
        tasks += [
            asyncio.create_task(reader(figures, server.base, 1000 + k, stop, random.Random(rng.random()))) for k in range(args.readers)
        ]
    if storm:
        tasks += [asyncio.create_task(stormer(figures, server.base, k, stop)) for k in range(args.storm_addresses)]
    await asyncio.sleep(2.0)  # connections open, the readers' games made
    pids = server.pids()
    cpu_before, wall_before = cpu_seconds(pids), time.monotonic()
    figures.measuring = True
    await asyncio.sleep(args.seconds)
    figures.measuring = False
    cpu, wall = cpu_seconds(pids) - cpu_before, time.monotonic() - wall_before
    stop.set()
    await asyncio.gather(*tasks)
    return figures, cpu, wall


def describe(kind: str, figures: Figures) -> str:
    values = figures.samples.get(kind, [])
    errors = dict(figures.errors.get(kind, {}))
    return (
        f"{kind:8} {len(values):7d} {percentile(values, 0.5) * 1e3:8.1f} {percentile(values, 0.99) * 1e3:8.1f} "
        f"{max(values, default=float('nan')) * 1e3:8.1f}  {errors or 0}"
    )


async def run_storm(server: Server, args) -> None:
    import sqlalchemy as sa

    print(
        f"{args.storm_addresses} addresses asking for Winnable Penguin-0 deals (none proved) back to back; "
        f"{args.readers} other players reading their state every 50 ms; {args.seconds:g} s a phase; "
        f"server: {args.workers} workers on {args.kind}; load average {loadavg()}"
    )
    print(f"{'phase':30} {'request':8} {'count':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  answers")
    quiet, _, _ = await storm_phase(server, args, readers=True, storm=False)
    print(f"{'readers alone':30} " + describe("state", quiet))
    alone, cpu, wall = await storm_phase(server, args, readers=False, storm=True)
    refusals = len(alone.samples.get("refusal", []))
    print(f"{'storm alone':30} " + describe("refusal", alone))
    both, _, _ = await storm_phase(server, args, readers=True, storm=True)
    print(f"{'storm and readers':30} " + describe("state", both))
    print(f"{'':30} " + describe("refusal", both))
    print(
        f"server CPU per refusal (storm alone): {cpu * 1e3 / max(refusals, 1):.3f} ms "
        f"({cpu:.2f} s for {refusals} refusals in {wall:.0f} s, {refusals / wall:.0f}/s); load average {loadavg()}"
    )
    engine = sa.create_engine(args.database)
    with engine.connect() as connection:
        sessions = connection.execute(sa.text("SELECT count(*) FROM sessions")).scalar()
        games = connection.execute(sa.text("SELECT count(*) FROM games")).scalar()
    engine.dispose()
    print(
        f"rows in the database: {sessions} sessions, {games} games (the readers' of two phases: "
        f"{2 * args.readers} games and as many sessions; the storm's {refusals + len(both.samples.get('refusal', []))}"
        f" refusals measured and those between: none)"
    )


# -- memory ---------------------------------------------------------------------------------
def run_memory(server: Server, args) -> None:
    import sqlalchemy as sa

    pids = server.pids()
    print(f"server: {args.workers} worker(s) on {args.kind}; load average {loadavg()}")
    print(f"RSS at start: {rss_mb(pids):.0f} MB")
    with httpx.Client(base_url=server.base, headers={"Origin": server.base}, timeout=60) as client:
        game = client.post("/api/games", json={"game": "freecell", "deal": 6}).json()
        started = time.monotonic()
        for k in range(10_000):
            response = client.post(f"/api/games/{game['id']}/moves", json={"move": "25" if k % 2 == 0 else "52"})
            if response.status_code != 200:
                raise SystemExit(f"move {k + 1}: {response.status_code} {response.text[:200]}")
            if (k + 1) % 2500 == 0:
                print(f"  after {k + 1:6d} moves: RSS {rss_mb(pids):.0f} MB ({time.monotonic() - started:.0f} s)")
        client.get(f"/api/games/{game['id']}/position", params={"at": 5000})
        print(f"one 10,000-move game played: RSS {rss_mb(pids):.0f} MB")
        engine = sa.create_engine(args.database)
        ids = []
        for k in range(200):
            state = client.post("/api/games", json={"game": "freecell", "deal": 6}).json()
            ids.append(state["id"])
        with engine.begin() as connection:
            table = sa.table("games", sa.column("id"), sa.column("moves", sa.JSON))
            connection.execute(table.update().where(table.c.id.in_(ids)).values(moves=["25", "52"] * 249 + ["25"]))
        engine.dispose()
        for game_id in ids:
            assert client.post(f"/api/games/{game_id}/moves", json={"move": "52"}).json()["move_count"] == 500
            client.get(f"/api/games/{game_id}")
            client.get(f"/api/games/{game_id}/position", params={"at": 250})
        print(f"200 games of 500 moves loaded, played and replayed: RSS {rss_mb(pids):.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--hinters", type=int, default=30, help="clients asking hints (each within its rate limit)")
    parser.add_argument("--hint-rate", type=float, default=10, help="hints a second, all hinters together")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10, help="seconds before measuring (every player has its first game)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL instead of SQLite")
    parser.add_argument("--redis", action="store_true", help="the rate limits' counts in a throwaway Redis (as several servers share them)")
    parser.add_argument("--memory", action="store_true", help="measure memory instead of load")
    parser.add_argument("--storm", action="store_true", help="measure a storm of refused Winnable requests instead")
    parser.add_argument("--storm-addresses", type=int, default=20, help="--storm: clients asking, back to back")
    parser.add_argument("--readers", type=int, default=5, help="--storm: other players reading their state")
    parser.add_argument("--no-rate-limits", action="store_true", help="the server without rate limits")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = {"WINNABLE_POOL_SIZE": "0"}
    if args.no_rate_limits:
        env["WINNABLE_RATE_LIMITS"] = "0"
    if args.memory:
        env["WINNABLE_RATE_LIMITS"] = "0"  # one client plays 10,000 moves as fast as it can
        args.workers = 1 if args.workers == 2 and "--workers" not in sys.argv else args.workers
    with tempfile.TemporaryDirectory(prefix="winnable-load-") as folder:
        postgres = None
        if args.postgres:
            sys.path.insert(0, str(ROOT / "tests" / "helpers"))
            from postgres_server import postgres_server

            postgres = postgres_server()
            args.database = postgres.__enter__()
            args.kind = "PostgreSQL"
        else:
            args.database = f"sqlite:///{folder}/games.db"
            args.kind = "SQLite"
        redis = None
        if args.redis:
            sys.path.insert(0, str(ROOT / "tests" / "helpers"))
            from redis_server import redis_server

            redis = redis_server(Path(folder))
            env["WINNABLE_RATE_LIMIT_STORAGE"] = redis.__enter__()
            args.kind += " + Redis"
        try:
            server = Server(args.database, args.workers, env)
            try:
                if args.memory:
                    run_memory(server, args)
                elif args.storm:
                    asyncio.run(run_storm(server, args))
                else:
                    asyncio.run(run_load(server, args))
            finally:
                server.stop()
        finally:
            if redis is not None:
                redis.__exit__(None, None, None)
            if postgres is not None:
                postgres.__exit__(None, None, None)


if __name__ == "__main__":
    main()
