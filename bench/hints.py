"""Follow the hints to the end, for every game: through the real server and the library.

Starts ``winnable serve`` in a subprocess (127.0.0.1, a free port, a temporary SQLite
database, rate limits off), and for every game id (``winnable games``, or ``--games``)
plays ``--deals`` held-out deals by following the hints through the HTTP API, as the
page does (the free-cell games with their safe moves home played by the server):

* *deal*: from the deal;
* *random*: from the position reached by ``--random-moves`` random moves, each one kept
  only if the deal stays winnable (the library's solver, ``--check-seconds``, says so).

Then the same with the library alone (``winnable.Guide``, from the deal). Prints per game
and mode: deals won (of those the first hint said winnable), positions repeated (must be
0), moves played against the first hint's "moves to win" (totals; must not exceed it),
searches, hints a second (hints over the time spent waiting for them) and the p50 / p99
latency of a hint. Deals whose first hint is not a win (lost, or undecided within the
budget) are counted apart.

    .venv/bin/python bench/hints.py                    # every game, 5 deals each
    .venv/bin/python bench/hints.py --games penguin black-widow --deals 20
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
import time
from dataclasses import dataclass, field

import httpx

import winnable
from winnable import Budget


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, database: str) -> subprocess.Popen:
    env = dict(os.environ, WINNABLE_POOL_SIZE="0", WINNABLE_POOL_BACKGROUND="0", WINNABLE_LOG_LEVEL="warning", WINNABLE_RATE_LIMITS="0")
    command = [sys.executable, "-m", "winnable.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--database", database]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_ready(base: str, server: subprocess.Popen, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped: {server.stdout.read() if server.stdout else ''}")
        try:
            if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not start")


@dataclass
class Tally:
    """What following the hints gave, for one game and mode."""

    played: int = 0
    won: int = 0
    undecided: int = 0  # the first hint was not a win
    repeated: int = 0
    moves: int = 0
    announced: int = 0
    grew: int = 0  # a hint announced more moves to win than the one before
    searches: int = 0
    latencies: list[float] = field(default_factory=list)

    def row(self, game: str, mode: str) -> str:
        lat = sorted(self.latencies)
        p50 = statistics.median(lat) * 1000 if lat else 0.0
        p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000 if lat else 0.0
        rate = len(lat) / sum(lat) if lat and sum(lat) else 0.0
        return (
            f"{game:16} {mode:7} {self.won:3}/{self.played - self.undecided:<3} {self.undecided:5} {self.repeated:8} "
            f"{self.grew:5} {self.moves:6}/{self.announced:<6} {self.searches:8} {rate:8.0f} {p50:7.1f} {p99:7.1f}"
        )


HEADER = (
    f"{'game':16} {'mode':7} {'won':7} {'undec':>5} {'repeated':>8} {'grew':>5} {'moves/first':>13} "
    f"{'searches':>8} {'hints/s':>8} {'p50 ms':>7} {'p99 ms':>7}"
)


def random_winnable_moves(position, count: int, rng: random.Random, seconds: float) -> list[str]:
    """Up to ``count`` random moves, each kept only if the deal stays winnable."""
    moves: list[str] = []
    for _ in range(count):
        choices = position.legal_moves()
        rng.shuffle(choices)
        for move in choices[:8]:
            after = position.apply(move)
            if winnable.solve(after, Budget(seconds=seconds)).won:
                moves.append(str(move))
                position = after
                break
        else:
            break
    return moves


def follow_http(http: httpx.Client, game: str, deal: int, start: list[str], tally: Tally, limit: int = 3000) -> None:
    state = http.post("/api/games", json={"game": game, "deal": deal}).json()
    auto = state["family"] == "freecell"
    for move in start:
        response = http.post(f"/api/games/{state['id']}/moves", json={"move": move})
        response.raise_for_status()
        state = response.json()
    position = winnable.deal(game, deal).play_line(state["moves"])
    seen = {position.to_text()}
    before = len(state["moves"])
    first = last = None
    tally.played += 1
    for _ in range(limit):
        if state["status"] != "playing":
            break
        started = time.perf_counter()
        response = http.get(f"/api/games/{state['id']}/hint")
        tally.latencies.append(time.perf_counter() - started)
        response.raise_for_status()
        hint = response.json()
        tally.searches += not hint["cached"]
        if hint["move"] is None:
            break
        count = hint["line_length"]
        if first is None:
            first = count
        elif count >= last:
            tally.grew += 1
        last = count
        known = len(state["moves"])
        response = http.post(f"/api/games/{state['id']}/moves", json={"move": hint["move"], "auto": auto})
        response.raise_for_status()
        state = response.json()
        for move in state["moves"][known:]:
            position = position.play(move)
            tally.repeated += position.to_text() in seen
            seen.add(position.to_text())
    if first is None:
        tally.undecided += 1
        return
    tally.won += state["status"] == "won"
    tally.moves += len(state["moves"]) - before
    tally.announced += first


def follow_guide(game: str, deal: int, tally: Tally, seconds: float, limit: int = 3000) -> None:
    guide = winnable.Guide(Budget(seconds=seconds))
    position = winnable.deal(game, deal)
    seen = {position.to_text()}
    first = last = None
    moves = 0
    tally.played += 1
    for _ in range(limit):
        if position.is_won():
            break
        started = time.perf_counter()
        hint = guide.hint(position)
        tally.latencies.append(time.perf_counter() - started)
        if hint.move is None:
            break
        if first is None:
            first = len(hint.line)
        elif len(hint.line) >= last:
            tally.grew += 1
        last = len(hint.line)
        position = position.play(hint.move)
        moves += 1
        tally.repeated += position.to_text() in seen
        seen.add(position.to_text())
    tally.searches += guide.searches
    if first is None:
        tally.undecided += 1
        return
    tally.won += position.is_won()
    tally.moves += moves
    tally.announced += first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: every game)")
    parser.add_argument("--deals", type=int, default=5, help="deals per game and mode (default 5)")
    parser.add_argument("--first", type=int, default=60001, help="first held-out deal (default 60001)")
    parser.add_argument("--random-moves", type=int, default=15, help="random still-winnable moves before following (default 15)")
    parser.add_argument("--check-seconds", type=float, default=1.0, help="budget of the winnability check of a random move")
    parser.add_argument("--seconds", type=float, default=2.0, help="the library guide's search budget (the server's: its default, 2 s)")
    args = parser.parse_args(argv)
    games = args.games or list(winnable.game_ids())
    deals = range(args.first, args.first + args.deals)
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(port, f"sqlite:///{folder}/games.db")
        try:
            wait_ready(base, server)
            print(
                f"{len(games)} games, deals {deals.start}-{deals.stop - 1}, {args.random_moves} random moves; "
                f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
            )
            print(HEADER)
            cpu = time.process_time()
            with httpx.Client(base_url=base, headers={"Origin": base}, timeout=60) as http:
                for game in games:
                    rng = random.Random(game)
                    tallies = {"deal": Tally(), "random": Tally(), "library": Tally()}
                    for deal in deals:
                        follow_http(http, game, deal, [], tallies["deal"])
                        start = random_winnable_moves(winnable.deal(game, deal), args.random_moves, rng, args.check_seconds)
                        follow_http(http, game, deal, start, tallies["random"])
                        follow_guide(game, deal, tallies["library"], args.seconds)
                    for mode, tally in tallies.items():
                        print(tally.row(game, mode), flush=True)
                        failed |= tally.repeated > 0 or tally.grew > 0 or tally.won < tally.played - tally.undecided
            print(f"client CPU {time.process_time() - cpu:.1f} s; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
    print(
        "FAILED: a hint repeated a position, grew or did not win"
        if failed
        else "every followed hint line won, none repeated a position or grew"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
