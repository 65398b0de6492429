"""Black Widow's runs by touch (issue 21, item 1).

Deal 5 after the first 30 moves of a recorded winning line: column 7 holds 2♦ under A♦, a
run whose 2♦ shows only a thin strip on a phone, and the line's next move is ``7>8x2``
(the run onto 3♦). A finger that taps the run, on 2♦'s strip or on A♦, lifts the whole run (the click
the browser makes of a tap afterwards lands a few pixels lower and used to shrink the
pick to A♦ alone); tapping it again gives back its deepest card; a finger's drag moves
the run; a mouse picks exactly the card it clicks. Tested on the three phone screens
with select-then-place (click to move, Black Widow's default, is test_click_to_move.py's).
"""

from __future__ import annotations

import pytest

from browser_helpers import NO_AUTO, game_state, new_page, open_game, play_api, settled, wait_moves
from touch_helpers import WIDOW_5_LINE, axe_violations, middle, touch_drag
from winnable.games import game_class

GAME, DEAL, PLAYED = "black-widow", 5, 30
SOURCE, TARGET, MOVE = "column:6", "column:7", "7>8x2"
TOUCH = ["phone", "small", "sideways"]
SELECT_THEN_PLACE = NO_AUTO | {"winnable:clickmove:spider": "0", "winnable:onetap:spider": "0"}


@pytest.fixture(scope="module")
def line():
    moves = WIDOW_5_LINE
    assert moves[PLAYED] == MOVE
    position = game_class(GAME).deal(DEAL).play_line(moves[:PLAYED])
    assert [str(card) for card in position.columns[6].up] == ["2D", "AD"]
    return moves[:PLAYED]


def widow_page(browser, server, line, size, storage=SELECT_THEN_PLACE):
    page = new_page(browser, size, storage)
    game_id = open_game(page, server, GAME, DEAL)
    play_api(server, game_id, line)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    wait_moves(page, PLAYED)
    return page


def card(page, code):
    return page.locator(f'#table [data-place="{SOURCE}"][data-card="{code}"]')


def selected(page) -> list[str]:
    return page.locator("#table .card.selected").evaluate_all("nodes => nodes.map(n => n.dataset.card)")


def announced(page, text: str) -> None:
    page.wait_for_function("text => document.querySelector('#announce').textContent.startsWith(text)", arg=text)


def strip_point(page) -> tuple[float, float]:
    """The middle of 2♦'s visible strip (the part A♦ does not cover)."""
    two, ace = card(page, "2D").bounding_box(), card(page, "AD").bounding_box()
    assert 0 < ace["y"] - two["y"] < 44  # a strip thinner than a finger: the run is one target
    return middle(two, (ace["y"] - two["y"]) / 2)


@pytest.mark.parametrize("size", TOUCH)
@pytest.mark.parametrize("where", ["strip", "top card"])
def test_a_tap_lifts_the_run_and_puts_it_down(browser, server, line, size, where):
    page = widow_page(browser, server, line, size)
    try:
        name = card(page, "2D").get_attribute("aria-label")
        point = strip_point(page) if where == "strip" else middle(card(page, "AD").bounding_box())
        page.touchscreen.tap(*point)
        page.wait_for_selector("#table .card.selected")
        settled(page)  # the browser's click after the tap (if any) has come and gone
        assert selected(page) == ["2D", "AD"]
        announced(page, name)  # "2 of diamonds picked up: ..."
        assert page.locator(f'#table [data-drop="{TARGET}"].target').count() == 1
        assert axe_violations(page) == []
        page.locator(f'#table [data-drop="{TARGET}"]').tap()
        wait_moves(page, PLAYED + 1)
        assert game_state(server, page)["moves"][-1] == MOVE
        assert not page.page_errors
    finally:
        page.context.close()


@pytest.mark.parametrize("size", TOUCH)
def test_a_second_tap_gives_back_the_deepest_card(browser, server, line, size):
    page = widow_page(browser, server, line, size)
    try:
        page.touchscreen.tap(*strip_point(page))
        page.wait_for_selector("#table .card.selected")
        settled(page)
        assert selected(page) == ["2D", "AD"]
        page.touchscreen.tap(*middle(card(page, "AD").bounding_box()))
        page.wait_for_function("document.querySelectorAll('#table .card.selected').length === 1")
        settled(page)
        assert selected(page) == ["AD"]
        announced(page, card(page, "AD").get_attribute("aria-label"))
        page.touchscreen.tap(*middle(card(page, "AD").bounding_box()))
        page.wait_for_function("document.querySelectorAll('#table .card.selected').length === 0")
        assert game_state(server, page)["move_count"] == PLAYED
    finally:
        page.context.close()


@pytest.mark.parametrize("size", TOUCH)
@pytest.mark.parametrize("where", ["strip", "top card"])
def test_a_finger_drags_the_run(browser, server, line, size, where):
    page = widow_page(browser, server, line, size)
    try:
        start = strip_point(page) if where == "strip" else middle(card(page, "AD").bounding_box())
        goal = page.locator(f'#table [data-place="{TARGET}"][data-card="3D"]').bounding_box()
        touch_drag(page, start, middle(goal))
        wait_moves(page, PLAYED + 1)
        assert game_state(server, page)["moves"][-1] == MOVE
        assert not page.page_errors
    finally:
        page.context.close()


def test_a_mouse_picks_exactly_the_card_it_clicks(browser, server, line):
    page = widow_page(browser, server, line, "desktop")
    try:
        card(page, "AD").click()
        page.wait_for_selector("#table .card.selected")
        assert selected(page) == ["AD"]
        page.keyboard.press("Escape")
        box = card(page, "2D").bounding_box()
        ace = card(page, "AD").bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + (ace["y"] - box["y"]) / 2)
        page.wait_for_function("document.querySelectorAll('#table .card.selected').length === 2")
        assert selected(page) == ["2D", "AD"]
        assert axe_violations(page) == []
        page.click(f'#table [data-drop="{TARGET}"]')
        wait_moves(page, PLAYED + 1)
        page.click("#undo")
        wait_moves(page, PLAYED)
        page.reload()  # the cards back where they were, not flying there
        page.wait_for_selector("body[data-ready='1']")
        wait_moves(page, PLAYED)
        # and the mouse drags the run from its 2♦
        box = card(page, "2D").bounding_box()
        goal = page.locator(f'#table [data-place="{TARGET}"][data-card="3D"]').bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 4)
        page.mouse.down()
        page.mouse.move(*middle(goal), steps=12)
        page.mouse.up()
        wait_moves(page, PLAYED + 1)
        assert game_state(server, page)["moves"][-1] == MOVE
    finally:
        page.context.close()
