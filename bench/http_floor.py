"""The floor under ``bench/load.py``: what uvicorn and FastAPI cost a request before any of
Winnable's work, under the same load (players on their own loopback addresses, a POST of
a move then a GET of the state each second, 420 requests a second in all), served the
same way (``--workers 2``, Winnable's HTTP protocol, no access log, no server header).

* ``asgi``: a bare ASGI app answering every request with the same 1.3 KB of JSON (the
  size of a Black Hole state): uvicorn, httptools, uvloop and the kernel's sockets;
* ``fastapi``: a FastAPI app with the two routes, a path parameter each and the move's
  body model, answering the same JSON: what the framework adds.

Prints the server's CPU per request for each (from /proc, all its processes), to set
beside ``bench/load.py``'s figure. Run them on a quiet machine, alternating with
``bench/load.py``: the figures move with the machine.

    .venv/bin/python bench/http_floor.py
    .venv/bin/python bench/http_floor.py --apps fastapi --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import load  # the load test's client, process and CPU helpers (beside this script)

HERE = Path(__file__).resolve().parent

BODY = json.dumps({"state": "x" * 1300}).encode()


async def asgi(scope, receive, send) -> None:
    """The bare app (``http_floor:asgi``)."""
    if scope["type"] != "http":
        return
    if scope["method"] == "POST":
        await receive()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": BODY})


def fastapi_app():
    """The one-resource FastAPI app (``http_floor:fastapi_app``, a factory)."""
    from fastapi import FastAPI
    from pydantic import BaseModel

    app = FastAPI(telemetry={"tracing": False, "metrics": False, "logs": False})

    class Move(BaseModel):
        move: str

    @app.get("/api/games/{game_id}")
    async def state(game_id: str) -> dict:
        return {"state": "x" * 1300}

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, body: Move) -> dict:
        return {"state": "x" * 1300}

    return app


TARGETS = {"asgi": ("http_floor:asgi", False), "fastapi": ("http_floor:fastapi_app", True)}


async def player(base: str, index: int, until: float) -> None:
    client = load.Client(base, index)
    await asyncio.sleep(random.random())  # players start spread over a second
    tick = time.monotonic()
    while time.monotonic() < until:
        await client.request("POST", "/api/games/abc/moves", b'{"move": "2S"}')
        tick += 1.0
        await asyncio.sleep(max(0.0, tick - 0.5 - time.monotonic()))
        await client.request("GET", "/api/games/abc")
        await asyncio.sleep(max(0.0, tick - time.monotonic()))


async def measure(name: str, args) -> None:
    target, factory = TARGETS[name]
    port = load.free_port()
    code = (
        "import uvicorn; from winnable.web.protocol import HttpProtocol; "
        f"uvicorn.run({target!r}, factory={factory}, host='127.0.0.1', port={port}, workers={args.workers}, "
        "http=HttpProtocol, log_level='warning', access_log=False, server_header=False)"
    )
    env = os.environ | {"PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))}
    server = subprocess.Popen([sys.executable, "-c", code], env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                await load.Client(base, 0).request("GET", "/api/games/abc")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"{name}: the server did not start")
                await asyncio.sleep(0.3)
        until = time.monotonic() + args.warmup + args.seconds
        tasks = [asyncio.create_task(player(base, k, until)) for k in range(args.players)]
        await asyncio.sleep(args.warmup)
        pids = load.descendants(server.pid)
        cpu, kernel, started = load.cpu_seconds(pids), load.cpu_seconds(pids, system=True), time.monotonic()
        await asyncio.sleep(args.seconds)
        cpu, kernel = load.cpu_seconds(pids) - cpu, load.cpu_seconds(pids, system=True) - kernel
        requests = 2 * args.players * (time.monotonic() - started)
        await asyncio.gather(*tasks)
        print(
            f"{name:8} server CPU {cpu:5.1f} s = {cpu / requests * 1e3:.3f} ms per request "
            f"(kernel {kernel / requests * 1e3:.3f}), about {requests:.0f} requests; load average {load.loadavg()}"
        )
    finally:
        server.terminate()
        server.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--apps", nargs="+", choices=sorted(TARGETS), default=["asgi", "fastapi"])
    parser.add_argument("--players", type=int, default=210, help="players, two requests a second each (210: 420/s)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=10)
    args = parser.parse_args()
    for name in args.apps:
        asyncio.run(measure(name, args))


if __name__ == "__main__":
    main()
