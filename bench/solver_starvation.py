"""Solver starvation: forty addresses (twenty of them signed in) loop ten-second analyses
of a Spider deal the solver cannot settle, while other players play FreeCell deals from
1000 on and ask, each in turn, a hint and an analysis ("still winnable?", of another game); prints how many
of the other players' hints and analyses were answered (200), and how (a verdict, or
from what was known when the solver had no time for them: ``answered``), and how many
were refused (429/503).

Starts ``winnable serve`` (one worker process, default settings but the rate limits'
counts per address as in production) on a throwaway SQLite database, every client from
its own loopback address (127.88.x.y, 127.89.x.y). The attack's deal is Spider (four
suits) 170, which the engine leaves unknown after its whole budget::

    .venv/bin/python bench/solver_starvation.py                 # 60 s
    .venv/bin/python bench/solver_starvation.py --seconds 120 --attackers 40 --signed-in 20 --players 9

With ``--solver-scheduler tcp://HOST:PORT`` the server solves on that Dask cluster
(``winnable serve --solver-scheduler``); with ``--dask-workers 2`` the bench starts a
cluster of its own on loopback (``dask scheduler`` and two ``dask worker`` processes of
one thread each) and prints a run on local threads beside a run on the cluster.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Iterator

import httpx

ROOT = Path(__file__).resolve().parent.parent
ATTACK = {"game": "spider-4", "deal": 170}
PASSWORD = "correct horse battery staple"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def client(base: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base, headers={"Origin": base}, timeout=60, transport=httpx.HTTPTransport(local_address=address))


def wait_for(check, what: str, process: subprocess.Popen[bytes], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{what} did not start")
        time.sleep(0.3)


@contextlib.contextmanager
def dask_cluster(workers: int, folder: str) -> Iterator[str]:
    """A scheduler and ``workers`` one-thread workers on 127.0.0.1, stopped on exit."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    log = open(os.path.join(folder, "dask.log"), "w")
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--dashboard-address",
                ":0",
                "--no-show",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    ]
    try:

        def up() -> bool:
            with socket.socket() as sock:
                return sock.connect_ex(("127.0.0.1", port)) == 0

        wait_for(up, "the Dask scheduler", processes[0])
        for _ in range(workers):
            processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "distributed.cli.dask_worker",
                        address,
                        "--nthreads",
                        "1",
                        "--nworkers",
                        "1",
                        "--host",
                        "127.0.0.1",
                        "--dashboard-address",
                        ":0",
                        "--no-nanny",
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    cwd=ROOT,
                )
            )
        from distributed import Client

        with Client(address, timeout=60) as dask_client:
            dask_client.wait_for_workers(workers, timeout=90)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()


def serve(options: argparse.Namespace, scheduler: str | None, label: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    folder = tempfile.mkdtemp(prefix="winnable-starvation-")
    log = open(os.path.join(folder, "serve.log"), "w")
    env = os.environ | {"WINNABLE_POOL_SIZE": "0", "WINNABLE_LIMIT_DEFAULT": "6000/minute"}
    command = [
        sys.executable,
        "-m",
        "winnable.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database",
        f"sqlite:///{folder}/games.db",
    ]
    if scheduler:
        command += ["--solver-scheduler", scheduler]
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    try:

        def up() -> bool:
            try:
                return httpx.get(base + "/api/health", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(up, f"the server (see {log.name})", server)
        run(base, options, label)
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the attack lasts (default 60)")
    parser.add_argument("--attackers", type=int, default=40)
    parser.add_argument("--signed-in", type=int, default=20, help="attackers with an account (default 20)")
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between a player's requests (default 3)")
    parser.add_argument("--solver-scheduler", help="solve on this Dask cluster (tcp://HOST:PORT)")
    parser.add_argument(
        "--dask-workers",
        type=int,
        default=0,
        help="start a loopback Dask cluster of this many workers and run on local threads, then on it",
    )
    options = parser.parse_args()
    if options.dask_workers:
        serve(options, None, "solver on local threads")
        with dask_cluster(options.dask_workers, tempfile.mkdtemp(prefix="winnable-dask-")) as address:
            serve(options, address, f"solver on a {options.dask_workers}-worker Dask cluster")
    else:
        serve(
            options,
            options.solver_scheduler,
            f"solver on the Dask cluster at {options.solver_scheduler}" if options.solver_scheduler else "solver on local threads",
        )


def run(base: str, options: argparse.Namespace, label: str) -> None:
    stop = threading.Event()
    attacks: Counter[str] = Counter()
    hints: Counter[str] = Counter()
    analyses: Counter[str] = Counter()
    how: Counter[str] = Counter()  # the answered analyses' `answered`
    hint_seconds: list[float] = []
    server_seconds: list[float] = []  # as the server measured them (the budget's clock)
    analysis_seconds: list[float] = []
    lock = threading.Lock()
    ready = threading.Barrier(options.attackers + 1)

    def attacker(k: int) -> None:
        with client(base, f"127.88.{k // 250}.{k % 250 + 1}") as http:
            if k < options.signed_in:
                signup = http.post("/api/auth/signup", json={"name": f"attacker{k}", "password": PASSWORD})
                assert signup.status_code == 201, signup.text
            game = http.post("/api/games", json=ATTACK).json()["id"]
            ready.wait()
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
                if stop.wait(options.pause):
                    break
                # "still winnable?" on another game, off any hint's line: the solver must search
                other = http.post("/api/games", json={"game": "freecell", "deal": deal + 100_000}).json()
                started = time.monotonic()
                response = http.get(f"/api/games/{other['id']}/analysis")
                took = time.monotonic() - started
                with lock:
                    if response.status_code != 200:
                        analyses[f"refused {response.status_code}"] += 1
                    else:
                        body = response.json()
                        analyses["answered"] += 1
                        analyses[f"verdict {body['verdict']}"] += 1
                        how[body.get("answered", "(no field)")] += 1
                        analysis_seconds.append(took)
                stop.wait(options.pause)

    threads = [threading.Thread(target=attacker, args=(k,)) for k in range(options.attackers)]
    for thread in threads:
        thread.start()
    ready.wait()  # every attacker signed in (or not) and dealt
    time.sleep(3.0)  # the attack is under way
    players = [threading.Thread(target=player, args=(k,)) for k in range(options.players)]
    for thread in players:
        thread.start()
    time.sleep(options.seconds)
    stop.set()
    for thread in threads + players:
        thread.join()
    print(
        f"{label}: {options.attackers} addresses ({options.signed_in} signed in) looping 10 s analyses of "
        f"{ATTACK['game']} {ATTACK['deal']}, {options.players} players asking a hint then an analysis, "
        f"every {options.pause:g} s, for {options.seconds:g} s"
    )
    total = sum(hints.values())
    print(
        f"  hints: {hints['answered']} of {total} answered with a verdict ({100 * hints['answered'] / max(total, 1):.1f} %)"
        + "".join(f", {kind} {n}" for kind, n in sorted(hints.items()) if kind != "answered")
    )
    if hint_seconds:
        ordered = sorted(hint_seconds)
        print(
            f"  answered hints: p50 {ordered[len(ordered) // 2] * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms "
            f"at the client; max {max(server_seconds) * 1000:.0f} ms on the server's clock (budget 2 s)"
        )
    total = sum(n for kind, n in analyses.items() if not kind.startswith("verdict"))
    verdicts = analyses["verdict won"] + analyses["verdict lost"]
    print(
        f"  analyses: {analyses['answered']} of {total} answered ({100 * analyses['answered'] / max(total, 1):.1f} %), "
        f"{verdicts} with a verdict ({100 * verdicts / max(total, 1):.1f} %)"
        + "".join(f", {kind} {n}" for kind, n in sorted(analyses.items()) if kind.startswith("refused"))
    )
    if how:
        print("  answered analyses, how: " + ", ".join(f"{kind} {n}" for kind, n in sorted(how.items())))
    if analysis_seconds:
        ordered = sorted(analysis_seconds)
        print(
            f"  answered analyses: p50 {ordered[len(ordered) // 2] * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms "
            f"at the client (budget 2 s)"
        )
    print("  attacks: " + ", ".join(f"{status}: {n}" for status, n in sorted(attacks.items())))


if __name__ == "__main__":
    main()
