"""Every score the server computes is shown where the result is (issue 21 item 6): the
win screen of Penguin and FreeCell shows the speed score and the cards home, Black
Hole's the time and moves, a loss the cards left; axe-core finds nothing on a win and on
a loss."""

from __future__ import annotations

import pytest

from browser_helpers import new_page, play_api
from screen_checks import axe_violations, cut_or_off, dump


def winning_line(game: str, deal: int) -> list[str]:
    from winnable.games import game_class
    from winnable.solver import Budget, solve

    verdict = solve(game_class(game).deal(deal), Budget(seconds=60))
    assert verdict.won
    return [str(move) for move in verdict.line]


def losing_line(game: str, deal: int) -> list[str]:
    """The first legal move every time, until none is left (a loss)."""
    from winnable.games import game_class

    position = game_class(game).deal(deal)
    line = []
    while position.legal_moves():
        move = position.legal_moves()[0]
        line.append(str(move))
        position = position.play(move)
    assert position.cards_left() > 0
    return line


def open_result(browser, server, game: str, deal: int, line: list[str], size: str = "desktop"):
    state = server.api("POST", "/api/games", {"game": game, "deal": deal})
    play_api(server, state["id"], line)
    page = new_page(browser, size)
    page.goto(server.url(f"/play/{game}?id={state['id']}"))
    page.wait_for_selector("#overlay:not([hidden])")
    return page, server.api("GET", f"/api/games/{state['id']}")


@pytest.mark.parametrize("game", ["penguin", "freecell"])
def test_the_win_shows_the_speed_score(browser, server, game):
    page, state = open_result(browser, server, game, 1, winning_line(game, 1))
    try:
        score = state["score"]
        assert state["status"] == "won" and score["speed"] is not None
        text = page.inner_text("#overlay-body")
        assert page.inner_text("#speed-score").startswith(f"Speed score {score['speed']}")
        assert f"{score['partial']}/{score['out_of']}" in text
        assert f"{state['move_count']} moves" in text
        assert not cut_or_off(page), dump(cut_or_off(page))
        assert axe_violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang, words", [("fr", "Score de vitesse\xa0: "), ("nl", "Snelheidsscore ")])
def test_the_speed_score_in_every_language(browser, server, lang, words):
    game = "penguin"
    state = server.api("POST", "/api/games", {"game": game, "deal": 1})
    play_api(server, state["id"], winning_line(game, 1))
    speed = server.api("GET", f"/api/games/{state['id']}")["score"]["speed"]
    page = new_page(browser, "phone")
    try:
        page.goto(server.url(f"/play/{game}?id={state['id']}&lang={lang}"))
        page.wait_for_selector("#overlay.win:not([hidden]) #speed-score")
        assert page.inner_text("#speed-score").startswith(f"{words}{speed}")
        assert not cut_or_off(page), dump(cut_or_off(page))
    finally:
        page.context.close()


def test_black_holes_win_shows_time_and_moves_and_no_speed(browser, server):
    page, state = open_result(browser, server, "black-hole", 2, winning_line("black-hole", 2))
    try:
        assert state["score"]["speed"] is None
        assert f"{state['move_count']} moves" in page.inner_text("#overlay-body")
        assert page.locator("#speed-score").count() == 0
        assert axe_violations(page) == []
    finally:
        page.context.close()


def test_a_loss_shows_the_cards_left(browser, server):
    page, state = open_result(browser, server, "black-hole", 1, losing_line("black-hole", 1), "small")
    try:
        assert state["status"] == "lost"
        page.wait_for_selector("#overlay.lost")
        assert f"{state['score']['cards_left']} cards left" in page.inner_text("#overlay-body")
        assert not cut_or_off(page), dump(cut_or_off(page))
        assert axe_violations(page) == []
    finally:
        page.context.close()
