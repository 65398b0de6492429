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
TIMEOUT = int(os.environ.get("WINNABLE_BROWSER_TIMEOUT_MS", "60000"))
"""How long (ms) the tests' waits for a state may last before they fail. Long: a busy
machine (the whole suite, other work beside it) can take many seconds to do what a quiet
one does at once; every wait ends as soon as its state comes."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def open_game(page, server, game: str, deal: int | None = None, query: str = "") -> str:
    """Open the game page (deal ``deal`` if given) and wait until the table is drawn and
    the safe moves home the page plays by itself are played; return the stored game's id."""
    path = f"/play/{game}"
    if deal is not None:
        path += f"?deal={deal}"
    elif query:
        path += "?" + query
    page.goto(server.url(path))
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")
    page.wait_for_selector("#table .card")
    return page.get_attribute("body", "data-game-id")


def wait_moves(page, count: int) -> None:
    """Wait until the page shows ``count`` moves played (and no request is pending)."""
    page.wait_for_selector(f"body[data-moves='{count}'][data-busy='0']")


def settled(page) -> None:
    """Wait until the page has handled every event already sent to it (the browser's
    click after a tap, a drop's pointer events, and what they started at once): two
    animation frames and a task later, however long those take."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))))")
    page.wait_for_selector("body[data-busy='0']")


def wait_review(page, timeout: int = 30_000) -> None:
    """Wait for the "where did I lose?" panel and its text (shown once the position
    before the losing move has arrived)."""
    page.wait_for_selector("#review:not([hidden])", timeout=timeout)
    page.wait_for_function("document.querySelector('#review-text').textContent.length > 0", timeout=timeout)


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
    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import migrate
    from winnable.web.play.pool import WinnablePool
    from winnable.web.play.solving import Solver

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
    env.setdefault("WINNABLE_JUDGE_PACE", "0")  # and are ranked all the same (bench/human_pace.py)
    seed_pool(f"sqlite:///{database}")
    env.update(env_extra or {})
    command = [
        sys.executable,
        "-c",
        "from winnable.cli import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database",
        f"sqlite:///{database}",
    ]
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


SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "small": {"viewport": {"width": 320, "height": 568}, "has_touch": True, "is_mobile": True},
    "sideways": {"viewport": {"width": 844, "height": 390}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
"""The four screens every game is checked on: a phone upright (touch), a small phone,
a phone held sideways, a desktop window."""
SMALL_SIDEWAYS = {"viewport": {"width": 568, "height": 320}, "has_touch": True, "is_mobile": True}
"""A small phone held sideways (``new_page(browser, "sideways-small")``), for the tests
of what the rail beside the table does."""


def new_page(browser, size: str = "desktop", storage: dict | None = None):
    """A fresh browser (empty storage, or ``storage`` set before the page runs) at one
    of :data:`SIZES`; page errors are collected in ``page.page_errors``."""
    # bypass_csp: the tests wait on JavaScript expressions, which the strict CSP (no eval)
    # would refuse; test_security_headers.py checks the pages under the real policy.
    context = browser.new_context(**(SMALL_SIDEWAYS if size == "sideways-small" else SIZES[size]), bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    if storage:
        script = "".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in storage.items())
        context.add_init_script(f"try {{ {script} }} catch (e) {{}}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.page_errors = errors
    return page


NO_AUTO = {"winnable:safe-home": "0"}
"""Storage for a page that plays no safe move home by itself (moves stay as the test plays them)."""


def open_menu(page) -> None:
    page.click("#menu-button")
    page.wait_for_selector("#menu:popover-open")


def close_menu(page) -> None:
    page.keyboard.press("Escape")
    page.wait_for_selector("#menu:not(:popover-open)", state="attached")


def cards(page) -> list:
    """Every card on the table: (place, index, card) in document order."""
    return page.locator("#table [data-place]").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.place, n.dataset.index, n.dataset.card || null])"
    )


def card_at(page, place: str, index: int):
    return page.locator(f'#table [data-place="{place}"][data-index="{index}"]')


def play_api(server, game_id: str, moves: list[str]) -> None:
    for move in moves:
        server.api("POST", f"/api/games/{game_id}/moves", {"move": move})


# What a finger must hit: every visible control, and every playable card's visible part
# (a card under another shows its top strip; a run whose strips are thin is one target
# from its deepest card to its top card).
MEASURE_TARGETS = """
() => {
  const small = [];
  const visible = (n) => {
    const s = getComputedStyle(n);
    if (s.visibility === "hidden" || s.display === "none" || n.closest("[hidden]")) return false;
    const r = n.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const controls = document.querySelectorAll("button, a[href], select, input:not([type=checkbox]), label.switch, [role=button]:not(.card)");
  for (const n of controls) {
    if (!visible(n) || n.closest("#table") && !n.classList.contains("stock")) continue;
    if (n.closest(".menu") && !n.closest(".menu").matches(":popover-open")) continue;
    const r = n.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) small.push([n.id || n.className || n.tagName, Math.round(r.width), Math.round(r.height)]);
  }
  for (const n of document.querySelectorAll("#table .card.playable:not(.in-run)")) {
    const r = n.getBoundingClientRect();
    const column = n.parentElement;
    const next = [...column.querySelectorAll(".card[data-place]")].find((m) => Number(m.dataset.index) === Number(n.dataset.index) + 1);
    let height = r.height;
    if (next) height = next.getBoundingClientRect().top - r.top;
    // A run picked up as one: from its deepest card to the bottom of its top card.
    const run = [...column.querySelectorAll(".card.in-run")];
    if (run.length && !next) height = r.bottom - Math.min(...run.map((m) => m.getBoundingClientRect().top));
    if (r.width < 44 || height < 44) small.push([n.dataset.card + "@" + n.dataset.place, Math.round(r.width), Math.round(height)]);
  }
  return small;
}
"""


PASSWORD = "correct horse battery"
"""The password of the players the browser tests sign up."""


def sign_up(page, server, name: str, lang: str | None = None) -> None:
    """A new account for the page's browser, from the account page (in ``lang`` if given)."""
    page.goto(server.url("/account" + (f"?lang={lang}" if lang else "")))
    page.wait_for_selector("#signup-form")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector(f"body[data-player='{name}']")


def page_api(page, method: str, path: str, body=None):
    """The API called from the page, with its cookies: (status, body)."""
    return page.evaluate(
        """async ([method, path, body]) => {
        const init = { method, headers: { Accept: "application/json" } };
        if (method !== "GET") { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body || {}); }
        const response = await fetch(path, init);
        return [response.status, await response.json()];
    }""",
        [method, path, body],
    )
