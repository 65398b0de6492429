"""Click to move in the Spider family (issue 21, item 9), as the original games have it:
a tap or click on a card moves it with the cards on it to a column whose top card is one
rank higher, of its own suit first, else to the first empty column (the order of the
server's ``click_choices``); dragging chooses the place. It is a setting of the menu,
on by default for Spider (1, 2, 4 suits) and Black Widow, with select-then-place one
switch away, remembered by the browser; the keyboard always picks up and chooses.
"""

from __future__ import annotations

import pytest

from browser_helpers import NO_AUTO, SIZES, card_at, close_menu, game_state, new_page, open_game, open_menu, play_api, wait_moves
from touch_helpers import WIDOW_5_LINE, axe_violations, middle, touch_drag, translate
from winnable.games import game_class
from winnable.web.views import click_choices, player_view

WIDOW, DEAL, PLAYED = "black-widow", 5, 30
SOURCE, OWN_SUIT, OTHER_SUIT = "column:6", "column:7", "column:1"  # 2♦-A♦ onto 3♦ (column 8) or 3♥ (column 2)
ROW, SWITCH = "#clickmove-row", "#clickmove-toggle"


@pytest.fixture(scope="module")
def widow_line():
    assert game_class(WIDOW).deal(DEAL).play_line(WIDOW_5_LINE).is_won()
    return WIDOW_5_LINE


def first_choice(position, place: str, count: int) -> dict:
    return next(e for e in click_choices(position) if e["from"] == place and e["count"] == count)


def lead_index(position, entry) -> int:
    column = player_view(position)["columns"][int(entry["from"].split(":")[1])]
    return column["down"] + len(column["up"]) - entry["count"]


def widow_at(browser, server, line, played: int, size: str, storage: dict | None = None):
    page = new_page(browser, size, NO_AUTO | (storage or {}))
    game_id = open_game(page, server, WIDOW, DEAL)
    play_api(server, game_id, line[:played])
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    wait_moves(page, played)
    return page


def run_strip(page) -> tuple[float, float]:
    """The middle of 2♦'s strip, under A♦."""
    two = page.locator(f'#table [data-place="{SOURCE}"][data-card="2D"]').bounding_box()
    ace = page.locator(f'#table [data-place="{SOURCE}"][data-card="AD"]').bounding_box()
    return middle(two, (ace["y"] - two["y"]) / 2)


def tap_or_click(page, size: str, point: tuple[float, float]) -> None:
    if SIZES[size].get("has_touch"):
        page.touchscreen.tap(*point)
    else:
        page.mouse.click(*point)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_tap_moves_the_run_to_its_own_suit_first(browser, server, widow_line, size):
    position = game_class(WIDOW).deal(DEAL).play_line(widow_line[:PLAYED])
    places = [e["to"] for e in click_choices(position) if e["from"] == SOURCE and e["count"] == 2]
    assert places == [OWN_SUIT, OTHER_SUIT]  # 3♦ first, though 3♥'s column comes before it
    page = widow_at(browser, server, widow_line, PLAYED, size)
    try:
        tap_or_click(page, size, run_strip(page))
        wait_moves(page, PLAYED + 1)
        assert game_state(server, page)["moves"][-1] == first_choice(position, SOURCE, 2)["move"] == "7>8x2"
        assert page.locator("#table .selected").count() == 0
        assert not page.page_errors
    finally:
        page.context.close()


def test_a_card_with_no_higher_card_to_go_on_goes_to_the_first_empty_column(browser, server, widow_line):
    position, played = game_class(WIDOW).deal(DEAL), 0
    for played, move in enumerate(widow_line):
        firsts = [
            first_choice(position, f"column:{i}", 1)
            for i in range(10)
            if any(e["from"] == f"column:{i}" and e["count"] == 1 for e in click_choices(position))
        ]
        empties = [e for e in firsts if not position.columns[int(e["to"].split(":")[1])].up]
        if empties:
            break
        position = position.play(move)
    entry = empties[0]
    empty_columns = [f"column:{i}" for i, c in enumerate(position.columns) if not c.up and not c.down]
    assert entry["to"] == empty_columns[0]
    page = widow_at(browser, server, widow_line, played, "desktop")
    try:
        card_at(page, entry["from"], lead_index(position, entry)).click()
        wait_moves(page, played + 1)
        assert game_state(server, page)["moves"][-1] == entry["move"]
    finally:
        page.context.close()


@pytest.mark.parametrize("game", ["spider-1", "spider-2", "spider-4"])
def test_every_spider_game_moves_on_a_click_by_default(browser, server, game):
    position = game_class(game).deal(1)
    # a top card that can move: its first place is the move a click plays
    entry = next(e for e in click_choices(position) if e["from"] != "stock" and e["count"] == 1)
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        open_game(page, server, game, 1)
        card_at(page, entry["from"], lead_index(position, entry)).click()
        wait_moves(page, 1)
        assert game_state(server, page)["moves"] == [first_choice(position, entry["from"], 1)["move"]]
    finally:
        page.context.close()


@pytest.mark.parametrize("size, lang", [("phone", "fr"), ("small", "nl"), ("sideways", "en"), ("desktop", "nl")])
def test_select_then_place_is_one_setting_away(browser, server, widow_line, size, lang):
    touch = SIZES[size].get("has_touch")
    page = widow_at(browser, server, widow_line, PLAYED, size)
    try:
        page.goto(page.url + f"&lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        wait_moves(page, PLAYED)
        open_menu(page)
        assert page.is_visible(ROW) and page.is_checked(SWITCH)
        assert page.inner_text(f"{ROW} .switch-label").startswith(translate(lang, "Click moves the card"))
        assert page.is_hidden("#onetap-row")  # one-tap moves are for select-then-place
        assert axe_violations(page) == []
        page.tap(ROW) if touch else page.click(ROW)
        page.wait_for_selector(f"{SWITCH}:not(:checked)", state="attached")  # a tap's click may come after tap() returns
        page.wait_for_selector("#onetap-row", state="visible")
        assert page.evaluate("localStorage.getItem('winnable:clickmove:spider')") == "0"
        close_menu(page)
        tap_or_click(page, size, run_strip(page))
        page.wait_for_selector("#table .card.selected")
        assert game_state(server, page)["move_count"] == PLAYED  # picked up, not moved
        target = page.locator(f'#table [data-drop="{OTHER_SUIT}"]')
        target.tap() if touch else target.click()
        wait_moves(page, PLAYED + 1)
        assert game_state(server, page)["moves"][-1] == "7>2x2"
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        open_menu(page)
        assert not page.is_checked(SWITCH)  # remembered
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_dragging_chooses_the_place(browser, server, widow_line, size):
    page = widow_at(browser, server, widow_line, PLAYED, size)
    try:
        goal = middle(page.locator(f'#table [data-place="{OTHER_SUIT}"][data-card="3H"]').bounding_box())
        start = run_strip(page)
        if SIZES[size].get("has_touch"):
            touch_drag(page, start, goal)
        else:
            page.mouse.move(*start)
            page.mouse.down()
            page.mouse.move(*goal, steps=12)
            page.mouse.up()
        wait_moves(page, PLAYED + 1)
        assert game_state(server, page)["moves"][-1] == "7>2x2"  # where it was dropped, not the click's place
    finally:
        page.context.close()


def test_the_keyboard_picks_up_and_chooses(browser, server, widow_line):
    page = widow_at(browser, server, widow_line, PLAYED, "desktop")
    try:
        page.focus(f'#table [data-place="{SOURCE}"][data-card="2D"]')  # as the arrows would reach it
        page.wait_for_selector("#table .kfocus[data-card='2D']")
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-selected]", state="attached")
        assert game_state(server, page)["move_count"] == PLAYED
        page.keyboard.press("Enter")  # the first place lit
        wait_moves(page, PLAYED + 1)
    finally:
        page.context.close()


@pytest.mark.parametrize("game", ["black-hole", "freecell"])
def test_other_families_keep_select_then_place(browser, server, game):
    page = new_page(browser, "phone", NO_AUTO)
    try:
        open_game(page, server, game, 3)
        open_menu(page)
        assert page.is_hidden(ROW) and page.is_visible("#onetap-row")
    finally:
        page.context.close()
