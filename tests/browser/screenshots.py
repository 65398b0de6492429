"""Screenshots of every game at phone and desktop sizes, for docs/screenshots/.

    .venv/bin/python tests/browser/screenshots.py [--out docs/screenshots] [GAME ...]

Starts its own `winnable serve` on a free port with a throw-away database, plays a few
moves of each game (along the solver's line when it finds one quickly) so the table
looks like a game in progress, and saves `<game>-<size>.png`: Black Hole, Black Widow,
Penguin, FreeCell, Eight Off (eight free cells) and Fourteen Out at the four sizes the browser tests
check (`phone` 390 x 844 touch, `small` 320 x 568 touch, `sideways` 844 x 390 touch,
`sideways-small` 568 x 320 touch, `desktop` 1280 x 800), the other games at `phone` and `desktop`, the lobby at the five sizes, FreeCell
on a phone with a card picked up (`freecell-phone-picked.png`) and Penguin won on a phone
(`penguin-won-phone.png`: the win with its speed score); it prints the smallest
card of each shot. Needs playwright and Chromium, like the browser tests; where Debian's
``pngquant`` is installed the PNGs are shrunk with it.

A shot whose page looks the same as last time keeps its file, so that making them again
adds to the repository's history only the pictures that changed: the new render is
compared with the file pixel by pixel, animations stopped and the clocks left out (the
game's clock and the Daily's countdown read differently every run), up to pngquant's
error (:func:`looks_same`).

    .venv/bin/python tests/browser/screenshots.py --languages fr nl

takes the same shots in a browser set to each language instead (`<name>-<size>-<lang>.png`):
the lobby, Black Hole, Black Widow and Penguin on a phone and a desktop, and a rules page.
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SIZES = {
    "phone": (390, 844, True),
    "small": (320, 568, True),
    "sideways": (844, 390, True),
    "sideways-small": (568, 320, True),
    "desktop": (1280, 800, False),
}
EVERY_SIZE = {"black-hole", "black-widow", "penguin", "freecell", "eight-off", "fourteen-out"}
IN_EVERY_LANGUAGE = ("black-hole", "black-widow", "penguin")
BROWSER_LOCALES = {"fr": "fr-FR", "nl": "nl-NL"}
MOVES = {"blackhole": 12, "freecell": 10, "spider": 14, "fourteen": 6}


def opening(game: str, family: str) -> list[str]:
    """A few moves of a winning line, or of the first click choices if none is found."""
    from winnable.games import game_class
    from winnable.solver import Budget, solve
    from winnable.web.views import click_choices

    position = game_class(game).deal(deal_of(game))
    wanted = MOVES.get(family, 10)
    try:
        verdict = solve(position, Budget(seconds=10))
    except Exception as error:  # an engine without this game: fall back to clicks
        print(f"{game}: no solver line ({error}); playing click choices")
        verdict = None
    if verdict is not None and verdict.won:
        return [str(move) for move in verdict.line[:wanted]]
    line = []
    for _ in range(wanted):
        choices = [c for c in click_choices(position) if c.get("from") != "stock"]
        if not choices:
            break
        line.append(choices[0]["move"])
        position = position.play(choices[0]["move"])
    return line


DEAL = 3
DEALS = {"fourteen-out": 1}
"""Games whose deal 3 is no picture of a game in progress (Fourteen Out's is lost at once)."""


def deal_of(game: str) -> int:
    return DEALS.get(game, DEAL)


# The narrowest card on the table and its height (the hole's cards and Fourteen Out's
# pairs taken out left out: they are shown, not played).
SMALLEST_CARD = """() => {
  const boxes = [...document.querySelectorAll('#table .card[data-card]')].filter((n) => !n.closest('.hole-stack, .removed')).map((n) => n.getBoundingClientRect());
  const narrowest = boxes.reduce((a, b) => (b.width < a.width ? b : a));
  return [Math.round(narrowest.width * 10) / 10, Math.round(narrowest.height * 10) / 10];
}"""


IGNORED = ("#timer", "#daily-countdown", "#next-daily")
"""What changes between two renders of the same page: the game's clock, the Daily's
countdown (in the lobby and on the Daily's page)."""

QUANTISED = 96
"""How far a channel of a pixel may be from the render in its pngquant'ed file (quality
70-95): at most 86 over the 61 shots of 2026-12-01 made again (most under 48, the edges of
a few letters further), while a letter or a card that changed is 150-250 away from its
background."""

Box = tuple[float, float, float, float]


def blanked(png: bytes | Path, boxes: list[Box]):
    """The picture (a PIL image) in RGBA with ``boxes`` (x, y, width, height) painted out."""
    from PIL import Image, ImageDraw  # Pillow: matplotlib's, in the test extra

    image = Image.open(io.BytesIO(png) if isinstance(png, bytes) else png).convert("RGBA")
    draw = ImageDraw.Draw(image)
    for x, y, width, height in boxes:
        draw.rectangle((int(x) - 1, int(y) - 1, int(x + width) + 1, int(y + height) + 1), fill=(0, 0, 0, 0))
    return image


def looks_same(png: bytes, old: Path, boxes: list[Box]) -> bool:
    """Whether the file ``old`` shows the render ``png``, ``boxes`` aside: the same size,
    and every pixel within :data:`QUANTISED` in every channel. A change smaller than
    pngquant's own error is not one; the renderer's own noise (a few pixels, a few levels
    from one render to the next) is well within it."""
    from PIL import ImageChops

    fresh, kept = blanked(png, boxes), blanked(old, boxes)
    if fresh.size != kept.size:
        return False
    return max(high for _, high in ImageChops.difference(fresh, kept).getextrema()) <= QUANTISED


class Shots:
    """The screenshots folder: what was written, what was kept."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.written: list[str] = []
        self.kept: list[str] = []

    @staticmethod
    def render(page) -> tuple[bytes, list[Box]]:
        """The page as a PNG, and where its clocks are. Animations are stopped (the finite
        ones at their end, the endless ones, such as the black hole's rays, at their start),
        so that the same page renders the same pixels every time."""
        png = page.screenshot(animations="disabled")
        boxes = [box for selector in IGNORED for box in map(lambda n: n.bounding_box(), page.locator(selector).all()) if box]
        return png, [(box["x"], box["y"], box["width"], box["height"]) for box in boxes]

    def save(self, page, name: str) -> None:
        """``page`` as ``name``, unless the picture there already shows it."""
        path = self.folder / name
        png, boxes = self.render(page)
        if path.exists() and looks_same(png, path, boxes):
            self.kept.append(name)
            print("unchanged", path)
            return
        path.write_bytes(png)
        if shutil.which("pngquant"):
            subprocess.run(["pngquant", "--quality", "70-95", "--speed", "1", "--force", "--output", str(path), str(path)], check=False)
        self.written.append(name)
        print("wrote", path)

    def close(self) -> None:
        print(f"{len(self.written)} written, {len(self.kept)} unchanged (kept as they were)")


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from playwright.sync_api import sync_playwright

    from browser_helpers import CHROMIUM, CHROMIUM_ARGS, start_server, stop_server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "docs" / "screenshots")
    parser.add_argument("games", nargs="*", help="Game ids (default: every game of /api/catalog).")
    parser.add_argument(
        "--languages",
        nargs="+",
        choices=sorted(BROWSER_LOCALES),
        default=[],
        help="Shots of the lobby, Black Hole, Black Widow, Penguin and a rules page in these languages.",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    shots = Shots(args.out)

    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "shots.db", Path(folder) / "server.log", {"WINNABLE_POOL_SIZE": "0"})
        try:
            catalog = server.api("GET", "/api/catalog")
            games = [g for g in catalog if not args.games or g["id"] in args.games]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                if args.languages:
                    languages(browser, server, catalog, args, shots)
                    browser.close()
                    return 0
                for size in SIZES:
                    width, height, touch = SIZES[size]
                    page = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch).new_page()
                    page.goto(server.url("/"))
                    page.wait_for_selector(".game-tile")
                    shots.save(page, f"lobby-{size}.png")
                    page.context.close()
                won(browser, server, shots)
                for game in games:
                    line = opening(game["id"], game["family"])
                    sizes = SIZES if game["id"] in EVERY_SIZE else ("phone", "desktop")
                    for size in sizes:
                        width, height, touch = SIZES[size]
                        state = server.api("POST", "/api/games", {"game": game["id"], "deal": deal_of(game["id"])})
                        for move in line:
                            server.api("POST", f"/api/games/{state['id']}/moves", {"move": move})
                        page = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch).new_page()
                        page.goto(server.url(f"/play/{game['id']}?id={state['id']}"))
                        page.wait_for_selector("body[data-ready='1']")
                        page.wait_for_timeout(600)
                        shots.save(page, f"{game['id']}-{size}.png")
                        width_px, height_px = page.evaluate(SMALLEST_CARD)
                        print(f"  {game['id']} at {size} ({width} x {height}): smallest card {width_px:g} x {height_px:g} px")
                        if game["id"] == "freecell" and size == "phone":
                            page.locator("#table .card.playable").last.tap()
                            page.wait_for_timeout(300)
                            shots.save(page, "freecell-phone-picked.png")
                        page.context.close()
                browser.close()
        finally:
            stop_server(server)
            shots.close()
    return 0


def won(browser, server, shots: Shots) -> None:
    """Penguin won, on a phone: the win with its score and speed score."""
    from winnable.games import game_class
    from winnable.solver import Budget, solve

    verdict = solve(game_class("penguin").deal(1), Budget(seconds=30))
    if not verdict.won:
        return
    state = server.api("POST", "/api/games", {"game": "penguin", "deal": 1})
    for move in verdict.line:
        server.api("POST", f"/api/games/{state['id']}/moves", {"move": str(move)})
    width, height, touch = SIZES["phone"]
    page = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch).new_page()
    page.goto(server.url(f"/play/penguin?id={state['id']}"))
    page.wait_for_selector("#overlay.win:not([hidden]) #speed-score")
    page.wait_for_timeout(600)
    shots.save(page, "penguin-won-phone.png")
    page.context.close()


def languages(browser, server, catalog, args, shots: Shots) -> None:
    """The lobby, three games in progress and a rules page, in a browser set to each language."""
    families = {game["id"]: game["family"] for game in catalog}
    for lang in args.languages:
        for size in ("phone", "desktop"):
            width, height, touch = SIZES[size]
            context = browser.new_context(
                viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch, locale=BROWSER_LOCALES[lang]
            )
            page = context.new_page()
            page.goto(server.url("/"))
            page.wait_for_selector(".game-tile")
            shots.save(page, f"lobby-{size}-{lang}.png")
            for game in IN_EVERY_LANGUAGE:
                state = server.api("POST", "/api/games", {"game": game, "deal": deal_of(game)})
                for move in opening(game, families[game]):
                    server.api("POST", f"/api/games/{state['id']}/moves", {"move": move})
                page.goto(server.url(f"/play/{game}?id={state['id']}"))
                page.wait_for_selector("body[data-ready='1']")
                page.wait_for_timeout(600)
                shots.save(page, f"{game}-{size}-{lang}.png")
            if size == "desktop":
                page.goto(server.url("/rules/penguin"))
                page.wait_for_selector("main.rules")
                shots.save(page, f"rules-penguin-{size}-{lang}.png")
            context.close()


if __name__ == "__main__":
    sys.exit(main())
