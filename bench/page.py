"""Page weight and first paint of the game pages, in Debian's Chromium on loopback.

    .venv/bin/python bench/page.py [GAME ...]

Starts its own `winnable serve` (throw-away SQLite), opens each game page three times in
a fresh browser (empty cache) and prints, per game: the bytes transferred (compressed,
as the browser received them: the page, its CSS, its JavaScript modules, the API calls)
and the first contentful paint (median of the three loads), then a second load from the
cache. Wall-clock figures from the browser's own Performance API: this measures what a
player waits for, not the server's CPU time (bench/web.py does that).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

BROWSER_TESTS = Path(__file__).resolve().parents[1] / "tests" / "browser"

GAMES = ["black-hole", "black-widow", "penguin", "freecell"]
RUNS = 3

MEASURE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  return {
    transfer: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
    decoded: nav.decodedBodySize + resources.reduce((sum, r) => sum + r.decodedBodySize, 0),
    files: resources.length + 1,
    fcp: paint ? paint.startTime : null,
  };
}"""


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(BROWSER_TESTS))  # the browser tests' server and Chromium helpers
    from browser_helpers import CHROMIUM, CHROMIUM_ARGS, start_server, stop_server

    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"game ids (default: {' '.join(GAMES)})")
    games = parser.parse_args(argv).games or GAMES
    from winnable import game_ids

    unknown = [game for game in games if game not in game_ids()]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r} (winnable games lists them)")

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "bench.db", Path(folder) / "server.log")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                print(
                    f"{'game':14} {'files':>5} {'transfer KB':>11} {'decoded KB':>10} {'first paint ms':>14} {'cached ms':>9} {'cached KB':>9}"
                )
                for game in games:
                    fresh = []
                    for _ in range(RUNS):
                        context = browser.new_context(viewport={"width": 1280, "height": 800})
                        page = context.new_page()
                        page.goto(server.url(f"/play/{game}?deal=3"))
                        page.wait_for_selector("body[data-ready='1']")
                        fresh.append(page.evaluate(MEASURE))
                        page.goto(server.url(f"/play/{game}?deal=3"))  # again, from the cache
                        page.wait_for_selector("body[data-ready='1']")
                        cached = page.evaluate(MEASURE)
                        context.close()
                    fcp = statistics.median(m["fcp"] for m in fresh)
                    print(
                        f"{game:14} {fresh[0]['files']:5d} {fresh[0]['transfer'] / 1024:11.1f} {fresh[0]['decoded'] / 1024:10.1f} "
                        f"{fcp:14.0f} {cached['fcp']:9.0f} {cached['transfer'] / 1024:9.1f}"
                    )
                browser.close()
        finally:
            stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
