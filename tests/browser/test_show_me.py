"""Show me (issue 32): the solver's winning line played out on the table, at the fastest
speed to a won table in each family with a foundation of its own (Penguin, Black Widow,
Black Hole) on a 320 px phone, a phone held sideways (568 x 320) and a desktop; pause,
a step on and back, take over (the game goes on from the shown position: the server's
move count is the shown step); after a loss, the line from the last position that was
still winnable, view only; axe-core in the playing, paused and shown-win states."""

from __future__ import annotations

import json

import pytest

from browser_helpers import MEASURE_TARGETS, TIMEOUT, game_state, open_game, play_api, wait_moves, wait_review
from touch_helpers import axe_violations
from winnable.blackhole import BlackHole

VIEWPORTS = {
    "small": {"viewport": {"width": 320, "height": 568}, "has_touch": True, "is_mobile": True},
    "sideways": {"viewport": {"width": 568, "height": 320}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def page_at(browser, size: str, storage: dict | None = None):
    """A fresh browser at ``size`` (safe moves home off, ``storage`` set); page errors
    are collected in ``page.page_errors``."""
    context = browser.new_context(**VIEWPORTS[size], bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    values = {"winnable:safe-home": "0", **(storage or {})}
    script = "".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in values.items())
    context.add_init_script(f"try {{ {script} }} catch (e) {{}}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.page_errors = errors
    return page


def start_show(page, size: str, bar: bool = False) -> None:
    """Show me, as a player of that screen asks for it: the menu's button by finger, the
    S key or the bar's button on a desktop."""
    if bar:
        page.click("#showme-bar")
    elif size == "desktop":
        page.keyboard.press("s")
    else:
        page.tap("#menu-button")
        page.wait_for_selector("#menu:popover-open")
        page.tap("#showme-button")
    page.wait_for_selector("body[data-showing] #showme:not([hidden])")


def foundation_cards(page) -> int:
    return page.locator("#table [data-place^='foundation'][data-card]").count()


@pytest.mark.parametrize(
    ("game", "deal", "size"),
    [("penguin", 1, "small"), ("black-widow", 5, "sideways"), ("black-hole", 2, "desktop"), ("fourteen-out", 1, "desktop")],
)
def test_show_me_wins_at_the_fastest_speed(browser, server, game, deal, size):
    page = page_at(browser, size, {"winnable:showme-speed": "fastest"})
    try:
        game_id = open_game(page, server, game, deal)
        touch = size != "desktop"
        if touch:
            assert page.evaluate(MEASURE_TARGETS) == []  # Redo and the rest: 44 px for a finger
        start_show(page, size, bar=game == "fourteen-out")
        page.wait_for_selector("body[data-show-status='won']", timeout=120_000)
        if touch:
            assert page.evaluate(MEASURE_TARGETS) == []  # the player's buttons too
        steps = int(page.get_attribute("body", "data-show-step"))
        assert steps > 0 and page.inner_text("#showme-at") == f"{steps} / {steps}"
        # The table shows the won position: every card home (Black Widow's completed suits
        # leave its columns and stock empty), while the game itself has not moved.
        assert page.locator("#table .column .card, #table .pile .card, #table .cell .card").count() == 0
        if game == "black-hole":
            assert page.locator("#table [data-place='foundation'][data-card]").count() >= 1
        state = server.api("GET", f"/api/games/{game_id}")
        assert state["move_count"] == 0 and state["status"] == "playing" and state["assisted"] is True
        assert page.get_attribute("body", "data-moves") == "0"
        # The table takes no move while a line is shown; the game's buttons step aside.
        assert not page.locator("#undo").is_visible() and not page.locator("#hint").is_visible()
        assert axe_violations(page) == []  # the shown win
        page.click("#showme-close")
        page.wait_for_selector("body:not([data-showing])")
        assert page.locator("#table .card.playable").count() > 0  # the deal again, to play
        assert page.page_errors == []
    finally:
        page.context.close()


def test_pause_step_back_and_take_over(browser, server):
    page = page_at(browser, "desktop", {"winnable:showme-speed": "slow"})
    try:
        game_id = open_game(page, server, "penguin", 1)
        assert axe_violations(page) == []  # playing, with Redo beside Undo
        start_show(page, "desktop")
        page.click("#showme-pause")  # pause (it may have shown a move already)
        page.wait_for_selector("#showme-pause[aria-label='Play']")
        at = int(page.get_attribute("body", "data-show-step"))
        assert axe_violations(page) == []  # paused, the next move marked
        assert page.locator("#table .hint-src").count() >= 1
        # A tap on the table plays nothing while the line is shown.
        page.locator("#table .card").last.click()
        assert page.get_attribute("body", "data-moves") == "0"
        for _ in range(3):
            page.click("#showme-step")
        page.wait_for_selector(f"body[data-show-step='{at + 3}']")
        page.click("#showme-back")
        page.wait_for_selector(f"body[data-show-step='{at + 2}']")
        assert page.inner_text("#showme-at") == f"{at + 2} / {page.inner_text('#showme-at').split(' / ')[1]}"
        # Screen readers hear each step: the move and what it does.
        page.wait_for_function("document.querySelector('#announce').textContent.startsWith('Move ')")
        # The keyboard steps too.
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"body[data-show-step='{at + 3}']")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(f"body[data-show-step='{at + 2}']")
        shown = page.locator("#table [data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.place + '=' + n.dataset.card).sort()")
        page.click("#showme-take")
        wait_moves(page, at + 2)
        page.wait_for_selector("body:not([data-showing])")
        state = server.api("GET", f"/api/games/{game_id}")
        assert state["move_count"] == at + 2 and state["status"] == "playing"
        after = page.locator("#table [data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.place + '=' + n.dataset.card).sort()")
        assert after == shown  # the game goes on from the position shown
        assert page.locator("#table .card.playable").count() > 0 and page.locator("#undo").is_enabled()
        assert page.page_errors == []
    finally:
        page.context.close()


def losing_black_hole(deal: int) -> list[str]:
    """Always the last legal move: Black Hole deal 2 is lost within a few moves."""
    position, line = BlackHole.deal(deal), []
    while position.legal_moves():
        move = position.legal_moves()[-1]
        line.append(str(move))
        position = position.apply(move)
    return line


def test_after_a_loss_the_line_starts_at_the_losing_position(browser, server):
    page = page_at(browser, "small", {"winnable:showme-speed": "fastest"})
    try:
        game_id = open_game(page, server, "black-hole", 2)
        line = losing_black_hole(2)
        play_api(server, game_id, line)
        page.reload()
        page.wait_for_selector("#overlay.lost:not([hidden])")
        page.tap("#where-lost")
        wait_review(page)
        page.wait_for_selector("#review-showme:not([hidden])")
        assert page.evaluate(MEASURE_TARGETS) == []  # the offer too: 44 px for a finger
        assert axe_violations(page) == []
        k = server.api("GET", f"/api/games/{game_id}/analysis")["lost_at"]
        assert k is not None
        page.tap("#review-showme")
        page.wait_for_selector("body[data-showing='view']")
        assert page.get_attribute("body", "data-show-from") == str(k)
        assert page.locator("#showme-take").is_hidden()  # view only: the game is lost
        page.wait_for_selector("body[data-show-status='won']", timeout=120_000)
        page.click("#showme-back")
        page.wait_for_selector("body[data-show-status='playing']")
        # Back to the start of the line: the table after the game's first k moves.
        page.keyboard.press("Home")
        page.wait_for_selector("body[data-show-step='0']")
        before = BlackHole.deal(2).play_line(line[:k])
        assert page.locator("#table .pile .card").count() == before.cards_left()
        assert f"move {k}" in page.inner_text("#showme-text")
        page.tap("#showme-close")
        page.wait_for_selector("body:not([data-showing])")
        assert game_state(server, page)["status"] == "lost" and game_state(server, page)["move_count"] == len(line)
        assert page.page_errors == []
    finally:
        page.context.close()


def test_no_winning_line_is_said_and_nothing_is_shown(browser, server):
    page = page_at(browser, "desktop")
    try:
        game_id = open_game(page, server, "fourteen-out", 3)  # a deal nobody can win
        page.keyboard.press("s")
        page.wait_for_selector("#message.error:not([hidden])")
        assert page.get_attribute("body", "data-showing") is None
        assert server.api("GET", f"/api/games/{game_id}")["move_count"] == 0
        assert page.locator("#table .card.playable").count() > 0  # the table still plays
        assert page.page_errors == []
    finally:
        page.context.close()


def test_on_a_small_phone_every_card_can_be_scrolled_above_the_panel(browser, server):
    """Penguin deal 3 at 320 x 568: the table cannot shrink below a finger's card and its
    last row lay under Show me's panel, out of reach (the page scrolled 34 px); now the
    page makes room for the whole table above the panel."""
    page = page_at(browser, "small")
    try:
        open_game(page, server, "penguin", 3)
        start_show(page, "small")
        page.tap("#showme-pause")
        page.wait_for_selector("#showme-pause[aria-label='Play']")
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_function("Math.abs(scrollY - (document.documentElement.scrollHeight - innerHeight)) < 1")
        lowest = page.evaluate("Math.max(...[...document.querySelectorAll('#table .card')].map((c) => c.getBoundingClientRect().bottom))")
        assert lowest <= page.locator("#showme").bounding_box()["y"]
        assert page.page_errors == []
    finally:
        page.context.close()
