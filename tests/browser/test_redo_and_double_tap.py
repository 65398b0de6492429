"""Redo, double tap home and the hint's why (issue 32) in a real browser: Redo beside Undo
by finger, mouse and keys (Y, Ctrl+Shift+Z, Ctrl+Y); a double tap (two real touches) or a
double click sends a card to its foundation, where the family has one and the setting is
on; the hint says what its move does, beside the marked card and to screen readers."""

from __future__ import annotations

import time

import pytest

from browser_helpers import NO_AUTO, card_at, new_page, open_game, open_menu, play_api, settled, wait_moves
from touch_helpers import axe_violations, middle
from winnable.games import game_class
from winnable.web.views import click_choices


def first_move(game: str, deal: int) -> str:
    return next(e["move"] for e in click_choices(game_class(game).deal(deal)) if e.get("from") != "stock")


def home_entry(game: str, deal: int) -> dict:
    """The deal's first move that sends a card to a foundation."""
    return next(e for e in click_choices(game_class(game).deal(deal)) if e.get("to", "").startswith("foundation"))


def server_moves(server, game_id: str) -> list[str]:
    return server.api("GET", f"/api/games/{game_id}")["moves"]


@pytest.mark.parametrize("size", ["small", "desktop"])
def test_redo_by_button(browser, server, size):
    page = new_page(browser, size, NO_AUTO)
    try:
        game_id = open_game(page, server, "penguin", 1)
        assert page.locator("#redo").is_disabled()  # nothing taken back yet
        move = first_move("penguin", 1)
        play_api(server, game_id, [move])
        page.reload()
        page.wait_for_selector("body[data-ready='1'][data-moves='1']")
        press = page.tap if size == "small" else page.click
        press("#undo")
        wait_moves(page, 0)
        page.wait_for_selector("#redo:not([disabled])")
        press("#redo")
        wait_moves(page, 1)
        assert server_moves(server, game_id) == [move]
        page.wait_for_selector("#redo[disabled]")  # nothing more to redo
        assert axe_violations(page) == []
        assert page.page_errors == []
    finally:
        page.context.close()


def test_redo_by_keys(browser, server):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        game_id = open_game(page, server, "black-widow", 5)
        move = first_move("black-widow", 5)
        play_api(server, game_id, [move])
        page.reload()
        page.wait_for_selector("body[data-ready='1'][data-moves='1']")
        for keys in ("y", "Control+Shift+Z", "Control+y"):
            page.keyboard.press("u")
            wait_moves(page, 0)
            page.wait_for_selector("#redo:not([disabled])")
            page.keyboard.press(keys)
            wait_moves(page, 1)
            assert server_moves(server, game_id) == [move], keys
        # Y with nothing to redo says so, and plays nothing.
        page.keyboard.press("y")
        page.wait_for_selector("#message:not([hidden]):has-text('No move taken back')")
        assert "Y redoes" in page.text_content("#keys-help")
        assert page.page_errors == []
    finally:
        page.context.close()


def double_touch(page, point: tuple[float, float], gap: float = 0.12, late: float = 0.0) -> None:
    """Two real touches at ``point``, ``gap`` seconds apart by their event times (a double
    tap at 0.12 s), the second sent ``late`` seconds after the first.

    The touches carry their own event times, as a phone's do: the page reads a double tap
    from those, so a busy machine that delivers the second touch late still makes one (the
    touches' times were once the delivery's, and a loaded CI run saw two single taps)."""
    cdp = page.context.new_cdp_session(page)
    try:
        x, y = point
        start = time.time()
        for tap in range(2):
            at = start + gap * tap
            if tap:
                time.sleep(late)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}], "timestamp": at})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": at + 0.03})
    finally:
        cdp.detach()


@pytest.mark.parametrize(("gap", "late", "home"), [(0.12, 0.0, True), (0.12, 0.6, True), (0.6, 0.0, False)])
def test_double_tap_sends_a_card_home(browser, server, gap, late, home):
    """Two taps 120 ms apart send the card home, even when a busy page gets the second one
    600 ms late (the taps' own times count); two taps 600 ms apart pick it up and put it back."""
    entry = home_entry("penguin", 4)
    page = new_page(browser, "small", NO_AUTO)
    try:
        game_id = open_game(page, server, "penguin", 4)
        place, index = entry["from"], len(game_class("penguin").deal(4).columns[int(entry["from"].split(":")[1])]) - 1
        card = card_at(page, place, index)
        card.scroll_into_view_if_needed()
        double_touch(page, middle(card.bounding_box()), gap=gap, late=late)
        if home:
            wait_moves(page, 1)
            assert server_moves(server, game_id) == [entry["move"]]
            assert page.locator(f"#table [data-place^='foundation'][data-card='{entry['card']}']").count() == 1
        else:
            page.wait_for_selector("#announce:has-text('Put back.')", state="attached")
            settled(page)
            assert page.get_attribute("body", "data-moves") == "0"
            assert server_moves(server, game_id) == []
        assert page.page_errors == []
    finally:
        page.context.close()


def test_double_click_sends_a_card_home_and_the_setting_stops_it(browser, server):
    entry = home_entry("freecell", 2)
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        game_id = open_game(page, server, "freecell", 2)
        column = int(entry["from"].split(":")[1])
        index = len(game_class("freecell").deal(2).columns[column]) - 1
        # Switched off in the menu: a double click picks the card up and puts it back.
        open_menu(page)
        assert page.locator("#doubletap-toggle").is_checked()  # on by default where cards go home
        assert axe_violations(page) == []
        page.click("label:has(#doubletap-toggle)")
        page.keyboard.press("Escape")
        card_at(page, entry["from"], index).dblclick(position={"x": 10, "y": 10})
        settled(page)
        assert page.get_attribute("body", "data-moves") == "0"
        open_menu(page)
        page.click("label:has(#doubletap-toggle)")
        page.keyboard.press("Escape")
        card_at(page, entry["from"], index).dblclick(position={"x": 10, "y": 10})
        wait_moves(page, 1)
        assert server_moves(server, game_id) == [entry["move"]]
        assert page.page_errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize(("game", "shown", "on"), [("black-hole", True, False), ("fourteen-out", False, False), ("spider-2", False, False)])
def test_the_double_tap_setting_is_offered_where_cards_go_home(browser, server, game, shown, on):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        open_game(page, server, game, 3)
        open_menu(page)
        assert page.locator("#doubletap-row").is_visible() is shown
        if shown:
            # Black Hole: a tap sends a card into the hole already; off unless switched on.
            assert page.locator("#doubletap-toggle").is_checked() is on
    finally:
        page.context.close()


def test_the_hint_says_why_beside_the_marked_card(browser, server):
    page = new_page(browser, "phone", NO_AUTO)
    try:
        open_game(page, server, "penguin", 1)
        page.tap("#hint")
        page.wait_for_selector("#message.hint .why")
        why = page.text_content("#message .why").strip()
        assert why
        assert page.text_content("#table .hint-why").strip() == why
        page.wait_for_function("(why) => document.querySelector('#announce').textContent.endsWith(why)", arg=why)
        assert axe_violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("game, size", [("penguin", "small"), ("black-widow", "small"), ("black-widow", "sideways-small")])
def test_the_why_beside_a_card_at_the_edge_stays_on_the_screen(browser, server, game, size):
    """Deal 3's first hint marks a card in the first column (Penguin) or the last (Black
    Widow): the phrase under it, centred on the card, stuck out of the screen (the page then
    grew wider than the phone) or under the rail held sideways."""
    page = new_page(browser, size, NO_AUTO)
    try:
        open_game(page, server, game, 3)
        page.tap("#hint")
        page.wait_for_selector("#table .hint-why")
        settled(page)
        width = page.evaluate("document.documentElement.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") == width
        box = page.locator("#table .hint-why").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        rail = page.locator("#actions").bounding_box()
        if rail["height"] > rail["width"]:  # held sideways
            assert box["x"] + box["width"] <= rail["x"]
    finally:
        page.context.close()


def test_black_hole_double_tap_sends_one_card_when_switched_on(browser, server):
    """A tap sends a card into the hole at once (one-tap moves): with double tap home on, a
    double tap sends that one card, not the card under it too."""
    from winnable.blackhole import BlackHole

    page = new_page(browser, "phone", NO_AUTO)
    try:
        # Deal 3: the 2♣ goes into the hole, and the A♦ under it could follow it there.
        game_id = open_game(page, server, "black-hole", 3)
        card, under = "2C", "AD"
        assert under in [str(m) for m in BlackHole.deal(3).play(card).legal_moves()]
        open_menu(page)
        page.tap("label:has(#doubletap-toggle)")
        page.wait_for_selector("#doubletap-toggle:checked", state="attached")  # the tap's click may come after tap() returns
        page.keyboard.press("Escape")
        double_touch(page, middle(page.locator(f'#table [data-card="{card}"]').bounding_box()))
        wait_moves(page, 1)
        settled(page)
        assert server_moves(server, game_id) == [card]
        assert page.page_errors == []
    finally:
        page.context.close()
