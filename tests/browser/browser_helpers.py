"""What the browser tests do on the game page, in a player's terms."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

CHROMIUM = Path(os.environ.get("WINNABLE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]




def open_game(page, server, game: str, deal: int | None = None, query: str = "") -> str:
    """Open the game page (deal ``deal`` if given) and wait until the table is drawn;
    return the stored game's id."""
    path = f"/play/{game}"
    if deal is not None:
        path += f"?deal={deal}"
    elif query:
        path += "?" + query
    page.goto(server.url(path))
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#table .card")
    return page.get_attribute("body", "data-game-id")


def wait_moves(page, count: int) -> None:
    """Wait until the page shows ``count`` moves played (and no request is pending)."""
    page.wait_for_selector(f"body[data-moves='{count}'][data-busy='0']")


def game_state(server, page) -> dict:
    return server.api("GET", f"/api/games/{page.get_attribute('body', 'data-game-id')}")


def drag(page, source, target, steps: int = 12) -> None:
    """Drag with the mouse from the middle of the top strip of ``source`` to the middle
    of ``target`` (two locators)."""
    box = source.bounding_box()
    goal = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + min(box["height"], 18) / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=steps)
    page.mouse.up()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A running `winnable serve` with its own database, plus a tiny JSON client."""

    def __init__(self, base: str, process: subprocess.Popen, log: Path):
        self.base = base
        self.process = process
        self.log = log

    def url(self, path: str) -> str:
        return self.base + path

    def api(self, method: str, path: str, body: dict | None = None):
        if body is None and method != "GET":
            body = {}  # state-changing calls always carry a JSON body
        data = json.dumps(body).encode() if body is not None else None
        # Origin: the server serves state-changing calls from its own pages only.
        headers = {"Content-Type": "application/json", "Origin": self.base}
        request = urllib.request.Request(self.url(path), data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {path} -> {error.code}: {error.read().decode()}") from None

    def catalog_ids(self) -> list[str]:
        return [game["id"] for game in self.api("GET", "/api/catalog")]


def seed_pool(url: str, games: tuple[str, ...] = ("black-hole",), count: int = 3) -> None:
    """Prove ``count`` deals of each game winnable and put them in the database's pool."""
    from winnable.web.db import make_engine, migrate
    from winnable.web.pool import WinnablePool
    from winnable.web.solving import Solver

    engine = make_engine(url)
    migrate(engine)
    pool = WinnablePool(engine, Solver())
    for game in games:
        pool.fill(game, count - pool.ready(game))
    engine.dispose()


def start_server(database: Path, log: Path, env_extra: dict | None = None) -> Server:
    port = free_port()
    env = dict(os.environ)
    # No background pool filling: it would compete with the hints and analyses the tests
    # wait for; the pool gets a few proved deals now instead (a Winnable request never
    # searches: it takes from the pool).
    env.setdefault("WINNABLE_POOL_SIZE", "0")
    env.setdefault("WINNABLE_RATE_LIMITS", "0")  # the tests play faster than people
    seed_pool(f"sqlite:///{database}")
    env.update(env_extra or {})
    command = [sys.executable, "-c", "from winnable.cli import main; main()", "serve", "--host", "127.0.0.1", "--port", str(port), "--database", f"sqlite:///{database}"]
    handle = log.open("w")
    process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"winnable serve exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=2) as response:
                if json.loads(response.read()).get("status") == "up":
                    break
        except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
            pass
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"winnable serve did not answer /api/health within 60 s:\n{log.read_text()}")
        time.sleep(0.2)
    return Server(base, process, log)


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(timeout=5)
