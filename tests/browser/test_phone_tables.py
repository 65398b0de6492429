"""Every game's table on every phone, held any way (issue 34 item 1): at 320 x 568,
568 x 320, 667 x 375, 390 x 844, 844 x 390 and 1280 x 800, each web game's deal as
dealt, and a few moves on, shows every covered card's corner (no rank under another
card), no card on a card of another place, every card on the screen and none under a
fixed bar (the toolbar docked at the bottom) with the page at its top; a finger's
targets are 44 px; the header stands in one row. Black Widow with its whole stock dealt
(ten columns of 10 and 11 cards) too."""

from __future__ import annotations

import pytest

from browser_helpers import MEASURE_TARGETS, TIMEOUT, close_menu, open_menu, play_api, wait_moves
from screen_checks import HEADER_ROWS, dump, table_problems

SIX = {
    "320x568": (320, 568, True),
    "568x320": (568, 320, True),
    "667x375": (667, 375, True),
    "390x844": (390, 844, True),
    "844x390": (844, 390, True),
    "1280x800": (1280, 800, False),
}
"""The six screens of issue 34: small phones upright and sideways, a phone upright and
sideways, a desktop window."""

GAMES = ("black-hole", "black-widow", "spider-4", "penguin", "penguin-3", "freecell", "eight-off", "bakers-game", "fourteen-out")
"""Every renderer, and each free-cell layout (seven cells over seven columns, four over
eight, eight over eight; Penguin's variants with the foundations from another rank)."""

DEAL = 3
ON = 8
"""Moves played for the second look at each game: the first click choices away from the
foundations (columns grow)."""

SETTLED = """() => !document.querySelector('#table .card.flying') && document.getAnimations().every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)"""


def moves_on(game: str, count: int) -> list[str]:
    """``count`` moves of ``game``'s deal: each time the first click choice that keeps the cards on the table."""
    from winnable.games import game_class
    from winnable.web.views import click_choices

    position = game_class(game).deal(DEAL)
    line: list[str] = []
    for _ in range(count):
        choices = [c for c in click_choices(position) if c.get("to") not in ("foundation",) and c.get("from") != "stock"]
        if not choices:
            break
        line.append(choices[0]["move"])
        position = position.play(position.parse_move(choices[0]["move"]))
    return line


def look(page, server, game: str, moves: list[str]) -> dict:
    """Open a game of ``game``'s deal with ``moves`` played; what is wrong with its table."""
    state = server.api("POST", "/api/games", {"game": game, "deal": DEAL})
    play_api(server, state["id"], moves)
    page.goto(server.url(f"/play/{game}?id={state['id']}"))
    wait_moves(page, len(moves))
    page.wait_for_selector("#table .card")
    page.wait_for_function(SETTLED)
    found: dict = {}
    if problems := table_problems(page):
        found["table"] = problems[:6]
    header = page.evaluate(HEADER_ROWS)
    if header["rows"] != 1:
        found["header"] = header
    return found


@pytest.mark.parametrize("size", list(SIX))
def test_every_table_fits_with_every_corner_showing(browser, server, size):
    width, height, touch = SIX[size]
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch, bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    context.add_init_script("try { localStorage.setItem('winnable:safe-home', '0'); } catch (e) {}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    found = {}
    try:
        for game in GAMES:
            for moves in ([], moves_on(game, ON)):
                where = f"{game} after {len(moves)} moves"
                if problems := look(page, server, game, moves):
                    found[where] = problems
                if touch and (small := page.evaluate(MEASURE_TARGETS)):
                    found[where + " (targets)"] = small
        # Black Widow's whole stock dealt: ten columns of 10 and 11 cards.
        if problems := look(page, server, "black-widow", ["deal"] * 5):
            found["black-widow, the stock dealt"] = problems
        if touch:
            open_menu(page)
            if small := page.evaluate(MEASURE_TARGETS):
                found["the menu (targets)"] = small
            close_menu(page)
        assert not found, dump(found)
        assert not errors
    finally:
        context.close()


HEADER_CLASH = """() => {
  const items = [document.querySelector("#title"), ...document.querySelectorAll(".statusbar > *"), document.querySelector("#menu-button")]
    .filter((n) => n && !n.hidden && getComputedStyle(n).display !== "none" && n.getBoundingClientRect().width > 1);
  const found = [];
  items.forEach((a, i) => {
    const r = a.getBoundingClientRect();
    if (a.scrollWidth > a.clientWidth + 1) found.push(`${a.id || a.className} is cut (${a.scrollWidth} > ${a.clientWidth} px)`);
    if (r.left < 0 || r.right > innerWidth) found.push(`${a.id || a.className} is off the screen`);
    for (const b of items.slice(i + 1)) {
      const s = b.getBoundingClientRect();
      if (r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 && s.top < r.bottom - 1) found.push(`${a.id || a.className} over ${b.id || b.className}`);
    }
  });
  return found;
}"""


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_held_sideways_the_header_holds_a_graded_deal_and_the_watch_badge(browser, server, lang):
    """568 x 320 with everything the header can show (a proved deal's number and mark, its
    grade, the time, the moves, the cards home, "still winnable?"): in French the grade's
    word ran over the deal's number, the title broke in two and the badge was cut to
    "✔ En"; now each shows its sign or number, with its words for screen readers."""
    context = browser.new_context(
        viewport={"width": 568, "height": 320}, has_touch=True, is_mobile=True, bypass_csp=True, locale=f"{lang}-{lang.upper()}"
    )
    context.set_default_timeout(TIMEOUT)
    context.add_init_script("try { localStorage.setItem('winnable:watch', '1'); } catch (e) {}")
    page = context.new_page()
    try:
        state = server.api("POST", "/api/games", {"game": "black-hole", "winnable": True})
        assert state["grade"] and state["winnable_deal"]
        page.goto(server.url(f"/play/black-hole?id={state['id']}"))
        page.wait_for_selector("#deal-grade:not([hidden]) .grade-badge")
        page.wait_for_selector("#watch-badge.won:not([hidden])")
        assert page.evaluate(HEADER_CLASH) == []
        assert page.evaluate(HEADER_ROWS)["rows"] == 1
        # The words are there for a screen reader: the link and the badge keep their names.
        assert page.locator("#deal-link").inner_text().strip().endswith("✓")
        assert str(state["deal"]) in page.locator("#deal-link").text_content()
        assert len(page.locator("#watch-badge .badge-text").text_content()) > 3
    finally:
        context.close()
