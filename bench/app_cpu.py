"""CPU time of the web app per request, in this one process, without HTTP: the same mix as
``bench/load.py`` (players each making a move then reading the state, a new game when one
ends, a hint now and then), sent straight to the ASGI app through all its middleware
(compression, the guard, metrics with the workers' shared files), on a temporary SQLite
file. ``bench/load.py`` measures the whole server (uvicorn, the kernel's sockets) but
moves with whatever else the machine runs; this one isolates the app's own cost and is
steady enough to compare two versions back to back (``PYTHONPATH=<other checkout>/src``).

Prints, for each of ``--rounds`` rounds of ``--requests`` requests after a warm-up, the
CPU milliseconds per request, overall and per kind; the best round first (the least
disturbed by other processes).

    .venv/bin/python bench/app_cpu.py
    .venv/bin/python bench/app_cpu.py --players 50 --requests 3000 --rounds 3
    .venv/bin/python bench/app_cpu.py --postgres      # a throwaway PostgreSQL instead

With ``--postgres`` each round also gives the PostgreSQL server's CPU per request (its
backends, from /proc) and the wall time per move (requests are sent one at a time, so
it is the app's CPU plus its round trips to the database).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
import warnings

warnings.filterwarnings("ignore")


async def call(app, method: str, path: str, body: dict | None, cookie: bytes | None, client: tuple[str, int]):
    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000"), (b"accept-encoding", b"br")]
    data = b"" if body is None else json.dumps(body).encode()
    if body is not None:
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    if cookie:
        headers.append((b"cookie", cookie))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": client,
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    sent = False
    answer: dict = {"body": []}

    async def receive() -> dict:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}
        await asyncio.sleep(3600)  # no disconnect while the app answers
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answer["status"], answer["headers"] = message["status"], dict(message["headers"])
            answer["cookies"] = [value.split(b";")[0] for name, value in message["headers"] if name == b"set-cookie"]
        else:
            answer["body"].append(message.get("body", b""))

    await app(scope, receive, send)
    content = b"".join(answer["body"])
    if answer["headers"].get(b"content-encoding") == b"br":
        import brotli

        content = brotli.decompress(content)
    answer["headers"][b"set-cookie"] = answer.get("cookies", [])
    return answer["status"], answer["headers"], content


async def run(args) -> None:
    from load import cpu_seconds, database_pids

    from winnable.web.app import create_app

    folder = tempfile.mkdtemp(prefix="winnable-app-cpu-")
    url = args.database or f"sqlite:///{folder}/games.db"
    app = create_app(url, pool_size=0, metrics=True)
    wall = dict.fromkeys(("create", "move", "state", "hint"), 0.0)
    rng = random.Random(args.seed)
    kinds = ("create", "move", "state", "hint")
    count = dict.fromkeys(kinds, 0)
    cpu = dict.fromkeys(kinds, 0.0)

    async def timed(kind: str, player: dict, method: str, path: str, body: dict | None = None):
        started, clock = time.process_time(), time.perf_counter()
        status, headers, content = await call(app, method, path, body, player["cookie"], player["client"])
        cpu[kind] += time.process_time() - started
        wall[kind] += time.perf_counter() - clock
        count[kind] += 1
        if status >= 300:
            raise SystemExit(f"{method} {path}: {status} {content[:200]!r}")
        for cookie in headers[b"set-cookie"]:  # every cookie the server sets, as a browser keeps them
            name = cookie.split(b"=", 1)[0]
            player["cookies"][name] = cookie
        player["cookie"] = b"; ".join(player["cookies"].values()) or None
        return json.loads(content)

    async def step(player: dict) -> None:
        state = player["state"]
        if state is None or state["status"] != "playing":
            player["state"] = await timed("create", player, "POST", "/api/games", {"game": "black-hole", "deal": rng.randint(1, 10**6)})
            return
        if player["hinter"] and count["hint"] * 40 < count["move"]:
            await timed("hint", player, "GET", f"/api/games/{state['id']}/hint")
        move = rng.choice(state["legal"])["move"]
        await timed("move", player, "POST", f"/api/games/{state['id']}/moves", {"move": move})
        player["state"] = await timed("state", player, "GET", f"/api/games/{state['id']}")

    async with app.router.lifespan_context(app):
        players = [
            {"client": (f"127.0.{k // 200}.{k % 200 + 2}", 5000), "cookie": None, "cookies": {}, "state": None, "hinter": k % 20 == 0}
            for k in range(args.players)
        ]
        for _ in range(3):  # warm-up: every player has a game and a session
            for player in players:
                await step(player)
        rounds, turn = [], 0
        for _ in range(args.rounds):
            for kind in kinds:
                count[kind], cpu[kind], wall[kind] = 0, 0.0, 0.0
            database = database_pids(url)
            database_before = cpu_seconds(database)
            started = time.process_time()
            while sum(count.values()) < args.requests:
                await step(players[turn % len(players)])
                turn += 1
            total = sum(count.values())
            by_kind = {kind: cpu[kind] / max(1, count[kind]) * 1e3 for kind in kinds}
            if database:
                by_kind["postgres"] = (cpu_seconds(database_pids(url)) - database_before) / total * 1e3
                by_kind["move wall"] = wall["move"] / max(1, count["move"]) * 1e3
            rounds.append(((time.process_time() - started) / total * 1e3, by_kind))
    rounds.sort(key=lambda item: item[0])
    print(f"{args.players} players, {args.rounds} rounds of {args.requests} requests; CPU ms per request (hints include their searches)")
    for overall, by_kind in rounds:
        print(f"  {overall:6.3f}   " + "  ".join(f"{kind} {value:6.3f}" for kind, value in by_kind.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--requests", type=int, default=1500, help="requests per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL instead of SQLite")
    args = parser.parse_args()
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sys.path[:0] = [str(root / "bench"), str(root / "tests")]
    args.database = None
    if args.postgres:
        from postgres_server import postgres_server

        with postgres_server() as url:
            args.database = url
            os.environ.setdefault("WINNABLE_POOL_SIZE", "0")
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="winnable-app-cpu-metrics-")
            asyncio.run(run(args))
        return
    os.environ.setdefault("WINNABLE_POOL_SIZE", "0")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="winnable-app-cpu-metrics-")  # as with --workers
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
