"""Solver starvation: forty addresses loop ten-second analyses of a deal the solver cannot
settle, while other players ask for hints (FreeCell deals from 1000 on); prints how many
hints were answered (a verdict within their budget), refused (429/503), came back "busy"
(no worker in time) or "unknown" (searched, no line found within the budget).

Starts ``winnable serve`` (one worker process, default settings but the rate limits'
counts per address as in production) on a throwaway SQLite database, every client from
its own loopback address (127.88.x.y). The attack's deal is Spider (four suits) 170,
which the engine leaves unknown after its whole budget::

    .venv/bin/python bench/solver_starvation.py                 # 60 s
    .venv/bin/python bench/solver_starvation.py --seconds 120 --attackers 40 --players 9
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
ATTACK = {"game": "spider-4", "deal": 170}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def client(base: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base, headers={"Origin": base}, timeout=60,
                        transport=httpx.HTTPTransport(local_address=address))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the attack lasts (default 60)")
    parser.add_argument("--attackers", type=int, default=40)
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between a player's hints (default 3)")
    options = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    folder = tempfile.mkdtemp(prefix="winnable-starvation-")
    log = open(os.path.join(folder, "serve.log"), "w")
    env = os.environ | {"WINNABLE_POOL_SIZE": "0", "WINNABLE_LIMIT_DEFAULT": "6000/minute"}
    server = subprocess.Popen([sys.executable, "-m", "winnable.cli", "serve", "--host", "127.0.0.1", "--port",
                               str(port), "--database", f"sqlite:///{folder}/games.db"],
                              stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: see {log.name}")
            time.sleep(0.3)
        run(base, options)
    finally:
        server.terminate()
        server.wait(30)


def run(base: str, options: argparse.Namespace) -> None:
    stop = threading.Event()
    attacks: Counter[str] = Counter()
    hints: Counter[str] = Counter()
    hint_seconds: list[float] = []
    server_seconds: list[float] = []  # as the server measured them (the budget's clock)
    lock = threading.Lock()

    def attacker(k: int) -> None:
        with client(base, f"127.88.{k // 250}.{k % 250 + 1}") as http:
            game = http.post("/api/games", json=ATTACK).json()["id"]
            while not stop.is_set():
                response = http.get(f"/api/games/{game}/analysis", params={"seconds": 10})
                with lock:
                    attacks[str(response.status_code)] += 1
                if response.status_code != 200:
                    time.sleep(0.2)  # a refused attacker comes straight back

    def player(k: int) -> None:
        with client(base, f"127.89.{k // 250}.{k % 250 + 1}") as http:
            deal = 1000 + k
            while not stop.is_set():
                game = http.post("/api/games", json={"game": "freecell", "deal": deal}).json()
                deal += options.players
                started = time.monotonic()
                response = http.get(f"/api/games/{game['id']}/hint")
                took = time.monotonic() - started
                with lock:
                    if response.status_code != 200:
                        hints[f"refused {response.status_code}"] += 1
                    elif response.json()["verdict"] == "unknown":  # no worker in time, or no line found
                        hints["busy" if "busy" in response.json()["message"] else "unknown"] += 1
                    else:
                        hints["answered"] += 1
                        hint_seconds.append(took)
                        server_seconds.append(response.json()["seconds"])
                stop.wait(options.pause)

    threads = [threading.Thread(target=attacker, args=(k,)) for k in range(options.attackers)]
    for thread in threads:
        thread.start()
    time.sleep(3.0)  # the attack is under way
    players = [threading.Thread(target=player, args=(k,)) for k in range(options.players)]
    for thread in players:
        thread.start()
    time.sleep(options.seconds)
    stop.set()
    for thread in threads + players:
        thread.join()
    total = sum(hints.values())
    print(f"{options.attackers} addresses looping 10 s analyses of {ATTACK['game']} {ATTACK['deal']}, "
          f"{options.players} players asking hints every {options.pause:g} s, {options.seconds:g} s")
    print(f"  hints: {hints['answered']} of {total} answered ({100 * hints['answered'] / max(total, 1):.1f} %), "
          + ", ".join(f"{kind} {n}" for kind, n in sorted(hints.items()) if kind != "answered"))
    if hint_seconds:
        ordered = sorted(hint_seconds)
        print(f"  answered hints: p50 {ordered[len(ordered) // 2] * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms "
              f"at the client; max {max(server_seconds) * 1000:.0f} ms on the server's clock (budget 2 s)")
    print("  attacks: " + ", ".join(f"{status}: {n}" for status, n in sorted(attacks.items())))


if __name__ == "__main__":
    main()
