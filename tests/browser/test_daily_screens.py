"""The Daily's screens (issue 21 item 3): the win shows the rank, the way to the day's
leaderboard and what comes next, and no button that can only fail; a phone's lobby shows
the games first with the Dailies one tap away; the Daily's page fits 320 px with a
leaderboard on it; axe-core finds nothing on the Daily's win and the leaderboard."""

from __future__ import annotations

import re

import pytest

from browser_helpers import new_page, start_server, stop_server
from screen_checks import axe_violations, cut_or_off, dump
from winnable.blackhole import BlackHole
from winnable.cards import Card
from winnable.solver import solve

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def daily_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("winnable-daily-screens")
    running = start_server(
        folder / "daily.db", folder / "server.log", {"WINNABLE_ARGON2_MEMORY_KIB": "1024", "WINNABLE_ARGON2_TIME_COST": "1"}
    )
    yield running
    stop_server(running)


def sign_up(page, server, name: str) -> None:
    page.goto(server.url("/account"))
    page.wait_for_selector("#signup-form")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector(f"body[data-player='{name}']")


def call(page, method: str, path: str, body: dict | None = None):
    """The API from the page, with its cookies: (status, body)."""
    return page.evaluate(
        """async ([method, path, body]) => {
        const init = { method, headers: { "Content-Type": "application/json" } };
        if (body !== null) init.body = JSON.stringify(body);
        const response = await fetch(path, init);
        return [response.status, await response.json()];
    }""",
        [method, path, body],
    )


def table_of(state) -> BlackHole:
    view = state["position"]
    return BlackHole(
        tuple(tuple(Card.from_text(card) for card in pile) for pile in view["piles"]),
        tuple(Card.from_text(card) for card in view["foundation"]),
    )


def win_the_daily(page, server, name: str) -> dict:
    """Sign ``name`` up, play today's Black Hole Daily to a win through the API and open
    it: the page shows the win. Returns the final state."""
    sign_up(page, server, name)
    status, state = call(page, "GET", "/api/daily/black-hole")
    assert status == 200, state
    for move in solve(table_of(state)).line:
        status, state = call(page, "POST", f"/api/games/{state['id']}/moves", {"move": str(move)})
        assert status == 200, state
    assert state["status"] == "won"
    page.goto(server.url(f"/play/black-hole?id={state['id']}"))
    page.wait_for_selector("#overlay.win:not([hidden])")
    return state


@pytest.mark.parametrize("size", ["desktop", "small"])
def test_the_dailys_win_shows_the_rank_the_leaderboard_and_what_next(browser, daily_server, size):
    page = new_page(browser, size)
    try:
        state = win_the_daily(page, daily_server, f"winner-{size}")
        page.wait_for_selector("#daily-result-rank")
        page.wait_for_function("/rank today: \\d+ of \\d+/.test(document.querySelector('#daily-result-rank').textContent)")
        rank = re.search(r"rank today: (\d+) of (\d+)", page.inner_text("#daily-result-rank")).group(1)
        page.wait_for_function("/\\d:\\d\\d/.test(document.querySelector('#daily-result-next').textContent)")
        assert page.inner_text("#daily-result-next").startswith("Tomorrow's Daily in")
        board = page.locator("#overlay #daily-leaderboard")
        assert board.get_attribute("href") == f"/daily?game=black-hole&date={state['daily']}"
        assert page.locator("#overlay #other-game").get_attribute("href") == "/"
        labels = page.locator("#overlay-buttons .btn").all_inner_texts()
        # Nothing that can only fail: a Daily is one attempt (no deal to play again, no restart).
        assert not any(label in ("Play this deal again", "Restart") for label in labels), labels
        assert not cut_or_off(page), dump(cut_or_off(page))
        assert axe_violations(page) == []
        board.click()
        page.wait_for_selector("#board-table tr.you")
        assert page.locator("#board-table tr.you td").first.inner_text() == rank  # the rank the win said
        assert not cut_or_off(page), dump(cut_or_off(page))  # 320 px: the leaderboard fits
        assert axe_violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_the_dailys_page_at_320_px_does_not_scroll_sideways(browser, daily_server, lang):
    page = new_page(browser, "small")
    try:
        sign_up(page, daily_server, f"{lang}_longplayername_2026")
        status, state = call(page, "GET", "/api/daily/black-hole")
        assert status == 200
        page.goto(daily_server.url(f"/daily?game=black-hole&lang={lang}"))
        page.wait_for_selector("#board-table tr.you")
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1], width
        assert not cut_or_off(page), dump(cut_or_off(page))
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["phone", "small"])
def test_a_phones_lobby_shows_the_games_first_and_the_dailies_one_tap_away(browser, daily_server, size):
    page = new_page(browser, size)
    try:
        page.goto(daily_server.url("/"))
        page.wait_for_selector("#daily-banner:not([hidden])")
        page.wait_for_selector(".game-tile")
        height = page.viewport_size["height"]
        first = page.locator(".game-tile").first.bounding_box()
        assert first["y"] < height, ("the first game is below the screen", first)
        item = page.locator("#daily-banner .daily-item").first
        assert not item.is_visible()
        page.locator("#daily-toggle").tap()
        item.wait_for(state="visible")
        assert item.locator(".daily-play").is_visible()
        assert axe_violations(page) == []
    finally:
        page.context.close()


def test_a_desktops_lobby_shows_the_dailies_open(browser, daily_server):
    page = new_page(browser, "desktop")
    try:
        page.goto(daily_server.url("/"))
        page.wait_for_selector("#daily-banner:not([hidden]) .daily-item")
        assert page.locator("#daily-banner .daily-item").first.is_visible()
    finally:
        page.context.close()


def test_the_dailys_loss_offers_nothing_that_can_only_fail(browser, daily_server):
    """Lost while the day lasts: no restart (one attempt), no "Where did I lose?" (the
    solver is off until the day is over); the rank and the leaderboard instead."""
    page = new_page(browser, "phone")
    try:
        sign_up(page, daily_server, "loser")
        status, state = call(page, "GET", "/api/daily/black-hole")
        position = table_of(state)
        while position.legal_moves():
            move = position.legal_moves()[0]
            status, state = call(page, "POST", f"/api/games/{state['id']}/moves", {"move": str(move)})
            assert status == 200, state
            position = position.play(move)
        if state["status"] != "lost":
            pytest.skip("the first moves every time won today's Daily")
        page.goto(daily_server.url(f"/play/black-hole?id={state['id']}"))
        page.wait_for_selector("#overlay.lost:not([hidden]) #daily-leaderboard")
        labels = page.locator("#overlay-buttons .btn").all_inner_texts()
        assert "Restart" not in labels and page.locator("#where-lost").count() == 0, labels
        page.wait_for_function("document.querySelector('#daily-result-rank')?.textContent.includes(' of ')")
        assert axe_violations(page) == []
    finally:
        page.context.close()
