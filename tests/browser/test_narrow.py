"""Nothing cut or squashed from 320 px up (issue 21 item 4): every page in English,
French and Dutch at the four sizes, the game page with its menu open too; no text lost
to an ellipsis or its box, no page scrolling sideways, the logo at its size, the undo
choice whole; and Black Widow's covered face-up cards show their rank and suit."""

from __future__ import annotations

import pytest

from browser_helpers import SIZES, new_page, open_menu, play_api, wait_moves
from screen_checks import LANGUAGES, cut_or_off, dump, lang_url

PAGES = (
    "/",
    "/daily",
    "/stats",
    "/account",
    "/rules/black-widow",
    "/rules/penguin",
    "/rules/fourteen-out",
    "/play/black-widow",
    "/play/penguin",
    "/play/black-hole",
    "/play/freecell",
    "/play/fourteen-out",
)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_nothing_is_cut(browser, server, size, lang):
    page = new_page(browser, size)
    found = {}
    try:
        for path in PAGES:
            page.goto(lang_url(server, path, lang))
            if path.startswith("/play/"):
                page.wait_for_selector("body[data-ready='1']")
                page.wait_for_selector("#table .card")
            else:
                page.wait_for_load_state("networkidle")
            if problems := cut_or_off(page):
                found[path] = problems
            if path.startswith("/play/"):
                open_menu(page)
                if problems := cut_or_off(page):
                    found[path + " (menu)"] = problems
        assert not found, dump(found)
        assert not page.page_errors
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["small", "phone"])
def test_the_logo_keeps_its_size(browser, server, size):
    page = new_page(browser, size)
    try:
        for path in ("/", "/daily", "/play/black-widow"):
            page.goto(lang_url(server, path, "fr"))
            page.wait_for_load_state("networkidle")
            box = page.locator(".topbar .logo").bounding_box()
            assert box["width"] == pytest.approx(26, abs=0.5) and box["height"] == pytest.approx(26, abs=0.5), (path, box)
    finally:
        page.context.close()


DEAL = 5  # after the solver's first 30 moves its columns hold long face-up runs

CORNERS = """() => {
  const strips = [];
  for (const column of document.querySelectorAll("#table .column")) {
    const up = [...column.querySelectorAll(".card.face[data-card]")];
    for (let i = 0; i + 1 < up.length; i++) {
      if (up[i].classList.contains("tucked")) continue; // inside a run of its suit: its neighbours name it (fan.js)
      const here = up[i].getBoundingClientRect(), next = up[i + 1].getBoundingClientRect();
      strips.push([up[i].dataset.card, (next.top - here.top) / here.height]);
    }
  }
  return strips;
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_covered_black_widow_cards_show_rank_and_suit(browser, server, size):
    """A face-up card under another shows its corner: the rank (top 36 of 140 units of
    the card) and the suit beside it; at 0.27 of the card's height both are whole."""
    from winnable.games import game_class
    from winnable.solver import Budget, solve

    line = [str(move) for move in solve(game_class("black-widow").deal(DEAL), Budget(seconds=60)).line[:30]]
    state = server.api("POST", "/api/games", {"game": "black-widow", "deal": DEAL})
    play_api(server, state["id"], line)
    page = new_page(browser, size)
    try:
        page.goto(server.url(f"/play/black-widow?id={state['id']}"))
        wait_moves(page, len(line))
        strips = page.evaluate(CORNERS)
        assert len(strips) >= 10
        thin = [(card, round(share, 3)) for card, share in strips if share < 0.27]
        assert not thin, thin
    finally:
        page.context.close()
