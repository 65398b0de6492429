"""How far a fast honest player is from the pace floor, beside a bot and the browser tests.

    .venv/bin/python bench/human_pace.py [--deal N] [--runs N] [--no-browser]

Starts its own `winnable serve` (throw-away SQLite, loopback) and wins Black Hole deal
``--deal`` (its solver line, 51 moves) four ways, then reads the server's own time of
every move (``games.move_times``) and judges it as the leaderboards do
(:func:`winnable.web.play.pace.pace`):

* **bot**: the moves posted through the API one after the other, at once (the issue's
  attack: a line solved offline, then posted);
* **browser**: Chromium driven by Playwright clicking the cards of the line as fast as it
  can, each click waiting for the page to show the move (what the browser tests do);
* **reaction**: a scripted player through the API who waits a bare simple reaction time
  before each move (0.25 s, jittered +-20 %): no choosing, no pointing, the fastest any
  person could be;
* **person**: a fast player, a choice and a pointing movement before each move (0.45 s,
  jittered +-20 %).

Prints, per way: the median and the fastest tenth of the gaps between moves, the whole
line's seconds, the verdict (ranked, or the rule it breaks) and the median's distance to
the floor (median / floor). Wall-clock figures on a busy machine vary; the verdicts and
the margins are what to read.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, Server, start_server, stop_server  # noqa: E402

REACTION = 0.25
"""Seconds: a simple visual reaction time (about 0.2-0.25 s in the literature)."""
POINTING = 0.45
"""Seconds: a choice reaction and a pointing movement to a card (Fitts' law), the fastest
a player picks the next move of a known line."""
JITTER = 0.2


def post(server: Server, path: str, body: dict[str, Any], cookie: str | None = None) -> tuple[dict[str, Any], str | None]:
    headers = {"Content-Type": "application/json", "Origin": server.base}
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(server.url(path), data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        set_cookie = response.headers.get("Set-Cookie")
        return json.loads(response.read()), (set_cookie.split(";", 1)[0] if set_cookie else cookie)


def through_api(server: Server, deal: int, line: list[str], delay: Callable[[], float]) -> str:
    """Win the deal through the API, waiting ``delay()`` seconds before each move (the
    time a request takes counts in it, as a person's think time overlaps the network)."""
    state, cookie = post(server, "/api/games", {"game": "black-hole", "deal": deal})
    due = time.monotonic()
    for move in line:
        due += delay()
        time.sleep(max(0.0, due - time.monotonic()))
        state, cookie = post(server, f"/api/games/{state['id']}/moves", {"move": move}, cookie)
    assert state["status"] == "won", state["status"]
    return str(state["id"])


def through_browser(server: Server, deal: int, line: list[str]) -> str:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script("try { localStorage.setItem('winnable:safe-home', '0'); } catch (e) {}")
        page = context.new_page()
        page.goto(server.url(f"/play/black-hole?deal={deal}"))
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("#table .card")
        for count, card in enumerate(line, 1):
            page.click(f'#table [data-card="{card}"]')
            page.wait_for_selector(f"body[data-moves='{count}'][data-busy='0']")
        game_id = page.get_attribute("body", "data-game-id")
        browser.close()
    return str(game_id)


def move_times(database: Path, game_id: str) -> list[int]:
    from sqlalchemy import select

    from winnable.storage.engine import make_engine
    from winnable.storage.tables import GameRow

    engine = make_engine(f"sqlite:///{database}")
    with engine.connect() as connection:
        times = connection.execute(select(GameRow.move_times).where(GameRow.id == game_id)).scalar_one()
    engine.dispose()
    return list(times)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deal", type=int, default=2, help="the Black Hole deal won (default 2, 51 moves)")
    parser.add_argument("--runs", type=int, default=1, help="games per way (default 1)")
    parser.add_argument("--no-browser", action="store_true", help="leave out the Playwright run")
    parser.add_argument("--seed", type=int, default=1, help="the jitter's seed")
    options = parser.parse_args(argv)
    if options.runs < 1:
        parser.error("--runs is at least 1")

    from winnable.blackhole import BlackHole
    from winnable.solver import solve
    from winnable.web.play.pace import MEDIAN_FLOOR, TOTAL_FLOOR, actions, pace

    verdict = solve(BlackHole.deal(options.deal))
    if not verdict.won:
        parser.error(f"the solver does not win Black Hole deal {options.deal}; choose another")
    line = [str(move) for move in verdict.line]
    rng = random.Random(options.seed)

    def jittered(seconds: float) -> Callable[[], float]:
        return lambda: seconds * rng.uniform(1 - JITTER, 1 + JITTER)

    ways: list[tuple[str, Callable[[Server], str]]] = [
        ("bot", lambda server: through_api(server, options.deal, line, lambda: 0.0)),
        ("browser", lambda server: through_browser(server, options.deal, line)),
        ("reaction", lambda server: through_api(server, options.deal, line, jittered(REACTION))),
        ("person", lambda server: through_api(server, options.deal, line, jittered(POINTING))),
    ]
    if options.no_browser:
        ways = [way for way in ways if way[0] != "browser"]
    print(
        f"Black Hole deal {options.deal}: {len(line)} moves; floors: median gap {MEDIAN_FLOOR} s, {TOTAL_FLOOR} s an action over the line"
    )
    print(f"{'way':9} {'median gap s':>12} {'fastest 10% s':>13} {'line s':>7} {'median/floor':>12}  verdict")
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.db"
        server = start_server(database, Path(folder) / "server.log", {"WINNABLE_JUDGE_PACE": "1"})
        try:
            for name, run in ways:
                for _ in range(options.runs):
                    times = actions(move_times(database, run(server)))
                    gaps = sorted((b - a) / 1000 for a, b in zip(times, times[1:]))
                    median = statistics.median(gaps)
                    found = pace(times)
                    print(
                        f"{name:9} {median:12.3f} {gaps[len(gaps) // 10]:13.3f} {(times[-1] - times[0]) / 1000:7.2f} "
                        f"{median / MEDIAN_FLOOR:12.2f}  {'ranked' if found is None else 'not ranked: ' + found.code}"
                    )
        finally:
            stop_server(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
