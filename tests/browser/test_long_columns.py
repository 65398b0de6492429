"""Long Spider columns on a phone (issue 34 item 2): Black Widow deal 5 after 89 moves of
a winning line has a column of 29 cards (5 face down, 24 face up). On a phone upright it
fits the screen, its runs of one suit tucked, every other corner showing and no card
under the toolbar; on a small phone, where it cannot, the hinted card (in the second
row of columns, below the screen's edge) is brought into view above the toolbar and the
hint's message box."""

from __future__ import annotations

import pytest

from browser_helpers import TIMEOUT, play_api, wait_moves
from screen_checks import dump, table_problems
from touch_helpers import WIDOW_5_LINE

MOVES = 89

IN_VIEW = """() => {
  const card = document.querySelector('#table .hint-src');
  const box = card.getBoundingClientRect();
  const next = card.nextElementSibling;
  const bottom = next && next.classList.contains('card') ? next.getBoundingClientRect().top : box.bottom;
  let floor = innerHeight;
  for (const id of ['actions', 'message']) {
    const bar = document.getElementById(id);
    if (!bar.hidden && getComputedStyle(bar).position === 'fixed' && bar.getBoundingClientRect().top > innerHeight / 2) floor = Math.min(floor, bar.getBoundingClientRect().top);
  }
  return box.top >= 0 && bottom <= floor + 0.5;
}"""


def long_column_game(server) -> str:
    state = server.api("POST", "/api/games", {"game": "black-widow", "deal": 5})
    play_api(server, state["id"], WIDOW_5_LINE[:MOVES])
    column = server.api("GET", f"/api/games/{state['id']}")["position"]["columns"][1]
    assert column["down"] + len(column["up"]) == 29
    return state["id"]


def phone(browser, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True, bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    context.add_init_script("try { localStorage.setItem('winnable:safe-home', '0'); } catch (e) {}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.page_errors = errors
    return page


def test_a_29_card_column_fits_an_upright_phone(browser, server):
    game = long_column_game(server)
    page = phone(browser, 390, 844)
    try:
        page.goto(server.url(f"/play/black-widow?id={game}"))
        wait_moves(page, MOVES)
        problems = table_problems(page)
        assert not problems, dump(problems)
        assert page.locator("#table .card.tucked").count() > 0  # runs of one suit, tucked
        assert not page.page_errors
    finally:
        page.context.close()


@pytest.mark.parametrize("width, height", [(320, 568), (390, 844)])
def test_the_hinted_card_is_brought_into_view(browser, server, width, height):
    game = long_column_game(server)
    page = phone(browser, width, height)
    try:
        page.goto(server.url(f"/play/black-widow?id={game}"))
        wait_moves(page, MOVES)
        page.click("#hint")
        page.wait_for_selector("#table .hint-src")
        page.wait_for_function(IN_VIEW)  # scrolled there, between the bars
        if width == 320:
            # The hinted card was below the screen's edge: the page had to scroll.
            assert page.evaluate("scrollY") > 0
        assert not page.page_errors
    finally:
        page.context.close()
