"""Timed Black Hole's loss, and keys that are refused (issue 21, item 2).

When the thinking time runs out the page says so (not "no card can move" while cards
could), shows where the player was (the table as it stood, cards left and moves) and
offers what can be done: the same deal again, a new deal, and no Undo (the server
refuses it). Every key the page refuses says why: U with the one undo used up, U in a
timed-out game, U before the first move, H after the game, F with nothing to finish.

The time limit is the shortest the menu offers (10 s): these tests wait for it.
"""

from __future__ import annotations

import re

import pytest

from browser_helpers import NO_AUTO, close_menu, game_state, new_page, open_game, open_menu, wait_moves
from touch_helpers import axe_violations, ntranslate, translate
from winnable.games import game_class
from winnable.solver import Budget, solve

GAME, DEAL, THINK = "black-hole", 2, 10


def first_move(deal: int) -> str:
    """The card of the first move of a winning line (a move that leaves moves to play)."""
    verdict = solve(game_class(GAME).deal(deal), Budget(seconds=10))
    assert verdict.won
    return str(verdict.line[0])


def message(page) -> str:
    page.wait_for_selector("#message:not([hidden])")
    return page.inner_text("#message")


def start_timed(page, server, lang: str, touch: bool, menu: bool = False) -> int:
    """Timed play at 10 s a move: chosen before (deal 2 opened by its link), or in the
    menu, then a new deal, as a player does. The deal's number."""
    if menu:
        open_game(page, server, GAME, query=f"lang={lang}")
        untimed = page.get_attribute("body", "data-game-id")
        open_menu(page)
        page.select_option("#think-time", str(THINK))
        close_menu(page)
        page.tap("#new-deal") if touch else page.click("#new-deal")
        page.wait_for_function("id => document.body.dataset.gameId !== id && document.body.dataset.busy === '0'", arg=untimed)
    else:
        open_game(page, server, GAME, query=f"deal={DEAL}&lang={lang}")
    page.wait_for_selector("#think-left:not([hidden])")
    state = game_state(server, page)
    assert state["think_seconds"] == THINK
    return state["deal"]


@pytest.mark.parametrize("size, lang", [("phone", "fr"), ("small", "nl"), ("sideways", "nl"), ("desktop", "en")])
def test_the_time_runs_out(browser, server, size, lang):
    touch = size != "desktop"
    page = new_page(browser, size, NO_AUTO | {"winnable:undo:black-hole": "unlimited", "winnable:think:black-hole": str(THINK)})
    try:
        move = first_move(DEAL)  # solved before the move clock starts: the 10 s are the page's
        assert start_timed(page, server, lang, touch) == DEAL
        playable = page.locator(f'#table [data-card="{move}"]')
        playable.tap() if touch else playable.click()  # one move (one-tap play: it goes home)
        wait_moves(page, 1)
        page.wait_for_selector("#overlay:not([hidden])", timeout=(THINK + 10) * 1000)
        state = game_state(server, page)
        assert state["status"] == "lost" and state["timed_out"] and state["legal"] == []
        left = state["position"]["cards_left"]

        assert page.inner_text("#overlay-title") == translate(lang, "Time ran out")
        body = page.inner_text("#overlay-body")
        assert (
            ntranslate(
                lang,
                "Each move had to be played within {n} second, and the time ran out.",
                "Each move had to be played within {n} seconds, and the time ran out.",
                THINK,
            )
            in body
        )
        assert ntranslate(lang, "Where you were: {n} card left on the table", "Where you were: {n} cards left on the table", left) in body
        no_move = ntranslate(lang, "No card can move: {n} card left on the table.", "No card can move: {n} cards left on the table.", left)
        assert no_move not in body
        buttons = page.locator("#overlay-buttons button").all_inner_texts()
        assert buttons[:2] == [translate(lang, "Play this deal again"), translate(lang, "New deal")]
        assert translate(lang, "Undo") not in buttons
        assert page.is_disabled("#undo")
        assert page.inner_text("#think-left") == translate(lang, "Time ran out")
        assert axe_violations(page) == []

        # The table behind stays as it was: one card home, the rest where they were.
        page.click("#timed-look")
        page.wait_for_selector("#overlay", state="hidden")
        assert page.locator("#table .card[data-place^='pile']").count() == left
        if not touch:  # the keys say why they do nothing
            page.keyboard.press("u")
            assert message(page) == translate(lang, "Time ran out: this game is lost, and its moves cannot be taken back.")
            page.keyboard.press("h")
            page.wait_for_function(
                "text => document.querySelector('#message').textContent === text", arg=translate(lang, "Time ran out: this game is lost.")
            )
        else:
            page.locator("#table [data-place='pile:0']").last.tap()  # a pile's top card
            assert message(page) == translate(lang, "Time ran out: this game is lost.")
        assert game_state(server, page)["move_count"] == 1
    finally:
        page.context.close()


def test_the_same_deal_again_after_the_time_ran_out(browser, server):
    page = new_page(browser, "phone", NO_AUTO)
    try:
        deal = start_timed(page, server, "en", touch=True, menu=True)
        game_id = page.get_attribute("body", "data-game-id")
        page.wait_for_selector("#overlay:not([hidden])", timeout=(THINK + 10) * 1000)  # no move at all
        assert page.inner_text("#overlay-title") == "Time ran out"
        page.tap("#timed-again")
        page.wait_for_selector("#overlay", state="hidden")
        page.wait_for_selector("body[data-status='playing'][data-busy='0']")
        state = game_state(server, page)
        assert state["id"] == game_id and state["deal"] == deal and state["status"] == "playing"
        assert state["think_seconds"] == THINK and not state["timed_out"] and state["move_count"] == 0
        assert re.fullmatch(r"\d+ s left", page.inner_text("#think-left"))  # counting down again
        page.locator("#table .card.playable").first.tap()
        wait_moves(page, 1)
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_every_refused_key_says_why(browser, server, lang):
    """A keyboard player with one undo: U before any move, U twice, F with nothing to
    finish; each refusal is said (the status line, read out by screen readers)."""
    page = new_page(browser, "desktop", NO_AUTO | {"winnable:undo:black-hole": "one"})
    try:
        open_game(page, server, GAME, query=f"deal={DEAL}&lang={lang}")
        assert game_state(server, page)["undo"] == "one"
        assert page.get_attribute("#message", "role") == "status"
        page.keyboard.press("u")
        assert message(page) == translate(lang, "No move to take back yet.")
        for moves in (1, 2):  # arrows choose a card, Enter plays it (one place to go)
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            wait_moves(page, moves)
        page.keyboard.press("u")
        wait_moves(page, 1)
        page.keyboard.press("u")
        page.wait_for_function(
            "text => document.querySelector('#message').textContent === text", arg=translate(lang, "Your undo is used up")
        )
        assert game_state(server, page)["move_count"] == 1
        page.keyboard.press("f")
        page.wait_for_function(
            "text => document.querySelector('#message').textContent === text",
            arg=translate(lang, "Nothing to finish yet: F plays the rest home once every card can go there."),
        )
        assert not page.page_errors
    finally:
        page.context.close()
