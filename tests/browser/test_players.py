"""Players in a real browser: sign up, play today's Black Hole Daily to a win by clicks
(signing out and in again halfway resumes it), see yourself on the leaderboard and the
win in your statistics and their plot; a second player gets the same deal; a guest is
told to sign in."""

from __future__ import annotations

import re

import pytest

from browser_helpers import TIMEOUT, start_server, stop_server, wait_moves
from winnable.blackhole import BlackHole
from winnable.cards import Card
from winnable.solver import solve

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def players_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("winnable-players")
    running = start_server(
        folder / "players.db", folder / "server.log", {"WINNABLE_ARGON2_MEMORY_KIB": "1024", "WINNABLE_ARGON2_TIME_COST": "1"}
    )
    yield running
    stop_server(running)


def fetch_json(page, path: str):
    """GET ``path`` from the page, with its cookies: (status, body)."""
    return page.evaluate(
        """async (path) => {
        const response = await fetch(path);
        return [response.status, await response.json()];
    }""",
        path,
    )


def sign_up(page, server, name: str) -> None:
    page.goto(server.url("/account"))
    page.wait_for_selector("#signup-form")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector(f"body[data-player='{name}']")


def sign_in(page, server, name: str) -> None:
    page.goto(server.url("/account"))
    page.wait_for_selector("#login-form")
    page.fill("#login-name", name)
    page.fill("#login-password", PASSWORD)
    page.press("#login-password", "Enter")  # the keyboard signs in too
    page.wait_for_selector(f"body[data-player='{name}']")


def table_of(state) -> BlackHole:
    """The Black Hole position a state shows (a Daily has no deal number to deal again)."""
    view = state["position"]
    return BlackHole(
        tuple(tuple(Card.from_text(card) for card in pile) for pile in view["piles"]),
        tuple(Card.from_text(card) for card in view["foundation"]),
    )


def open_daily_from_lobby(page, server, lang: str | None = None) -> str:
    page.goto(server.url("/" + (f"?lang={lang}" if lang else "")))
    button = page.locator("#daily-banner [data-game='black-hole'] .daily-play")
    button.wait_for(state="attached")
    if not page.locator("#daily-banner details").evaluate("fold => fold.open"):
        page.click("#daily-toggle")  # on a phone the Dailies are folded, one tap away
    button.click()
    page.wait_for_url("**/play/black-hole**")
    page.wait_for_selector("body[data-ready='1'][data-daily]")
    page.wait_for_selector("#table .card")
    return page.get_attribute("body", "data-game-id")


def click_line(page, line: list[str], start: int) -> None:
    for offset, card in enumerate(line):
        page.click(f'#table [data-card="{card}"]')
        wait_moves(page, start + offset + 1)


def test_a_guest_asking_for_the_daily_is_told_to_sign_in(page, players_server):
    page.goto(players_server.url("/"))
    page.wait_for_selector("#daily-banner:not([hidden]) [data-game='black-hole']")
    assert fetch_json(page, "/api/daily/black-hole")[0] == 401
    page.wait_for_selector("#sign-in", state="visible")  # once /api/auth/me answers
    page.click("#daily-banner [data-game='black-hole'] .daily-play")
    page.wait_for_url("**/account?next=**")
    page.wait_for_selector("#login-form")


def test_the_daily_from_sign_up_to_the_leaderboard_and_statistics(page, players_server):
    server = players_server
    sign_up(page, server, "ada")
    game_id = open_daily_from_lobby(page, server)
    status, state = fetch_json(page, f"/api/games/{game_id}")
    assert status == 200 and state["daily"] and state["hint_allowed"] is False
    assert page.get_attribute("#hint", "aria-disabled") == "true" and page.get_attribute("#restart", "aria-disabled") == "true"
    assert page.locator("#daily-badge").is_visible()
    line = [str(move) for move in solve(table_of(state)).line]
    click_line(page, line[:20], 0)

    # Signing out (in the game's menu) and in again resumes the same attempt.
    page.click("#menu-button")
    page.click("#sign-out")
    page.wait_for_selector("#sign-in")
    assert fetch_json(page, "/api/daily/black-hole")[0] == 401
    sign_in(page, server, "ada")
    assert open_daily_from_lobby(page, server) == game_id
    wait_moves(page, 20)
    click_line(page, line[20:], 20)
    page.wait_for_selector("#overlay.win:not([hidden])")
    assert page.get_attribute("body", "data-status") == "won"

    # The game's menu shows the Daily with today's rank and the countdown to the next.
    page.keyboard.press("Escape")
    page.click("#menu-button")
    page.wait_for_selector("#daily-rank:not([hidden])")
    assert page.inner_text("#daily-rank") == "#1" and ":" in page.inner_text("#daily-next")
    page.goto(server.url("/daily?game=black-hole"))
    page.wait_for_selector("#board-table tr.you")
    row = page.locator("#board-table tr.you")
    assert "ada" in row.inner_text() and row.locator("td").first.inner_text() == "1"
    assert "Won" in row.inner_text()

    # Statistics: the win, and a plot with its dot.
    page.goto(server.url("/stats"))
    page.wait_for_selector("body[data-ready='1']")
    card = page.locator(".stats-card[data-game='black-hole']")
    assert card.locator("[data-figure='won'] dd").inner_text() == "1"
    assert card.locator("[data-figure='played'] dd").inner_text() == "1"
    assert page.locator("svg#results-plot circle.dot.won").count() == 1
    assert page.locator("svg#results-plot title").first.text_content().startswith("Results over time")


def test_a_second_new_player_gets_the_same_deal(browser, players_server):
    deals = []
    for name in ("bob", "cyd"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, bypass_csp=True)
        context.set_default_timeout(TIMEOUT)
        tab = context.new_page()
        sign_up(tab, players_server, name)
        game_id = open_daily_from_lobby(tab, players_server)
        deals.append(fetch_json(tab, f"/api/games/{game_id}")[1]["position"])
        # On a phone the players' links and the Daily are in the game's menu; every
        # target is 44 px or more.
        tab.tap("#menu-button")
        tab.wait_for_selector("#nav-stats", state="visible")
        tab.wait_for_selector("#daily-button", state="visible")  # its own request: /api/daily
        for selector in (".player-nav .nav-link", "#daily-button"):
            heights = tab.locator(selector).evaluate_all(
                "nodes => nodes.filter(n => n.offsetParent).map(n => n.getBoundingClientRect().height)"
            )
            assert heights and min(heights) >= 44, (selector, heights)
        context.close()
    assert deals[0] == deals[1]


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_the_dailys_page_shows_no_deal_number(browser, players_server, lang):
    """The Daily's page, title and address name no deal (the French page showed
    "Donne n° 838893", and its address ?deal=838893 before it became ?id=)."""
    context = browser.new_context(bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    tab = context.new_page()
    addresses = []
    tab.on("framenavigated", lambda frame: addresses.append(frame.url))
    sign_up(tab, players_server, f"reader-{lang}")
    game_id = open_daily_from_lobby(tab, players_server, lang)
    state = fetch_json(tab, f"/api/games/{game_id}")[1]
    assert state["deal"] is None
    history = tab.evaluate("() => location.href")
    assert "deal=" not in history and f"id={game_id}" in history
    assert tab.locator("#deal-link").is_hidden()
    shown = tab.inner_text("body") + tab.title() + (tab.get_attribute("body", "data-deal") or "")
    # "Deal #{n}" in each language, and any long number
    assert not re.search(r"Deal #\s*\d|n°\s*\d|Spel\s+\d|\d{4,}", shown), shown[:400]
    assert all("deal=" not in address for address in addresses)
    context.close()
