"""Challenges in a real browser: a French player makes a challenge from her game and shares
it (the clipboard, as headless Chromium has no share sheet; the Web Share API where the
browser has one), a Dutch player on a phone plays his one ranked attempt to a win by taps,
and both read the leaderboard in their language; the deal link shares the deal; the
game page's menu shows the record of a deal played twice; axe-core finds no WCAG 2.1
A/AA violation on the challenge page."""

from __future__ import annotations

import re

import pytest

from browser_helpers import new_page, page_api, sign_up, start_server, stop_server, wait_moves
from winnable.blackhole import BlackHole
from winnable.cards import Card
from winnable.solver import solve

DEAL = 3


@pytest.fixture(scope="module")
def challenge_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("winnable-challenges")
    running = start_server(
        folder / "challenges.db", folder / "server.log", {"WINNABLE_ARGON2_MEMORY_KIB": "1024", "WINNABLE_ARGON2_TIME_COST": "1"}
    )
    yield running
    stop_server(running)


def table_of(state) -> BlackHole:
    view = state["position"]
    return BlackHole(
        tuple(tuple(Card.from_text(card) for card in pile) for pile in view["piles"]),
        tuple(Card.from_text(card) for card in view["foundation"]),
    )


def axe_violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(
        page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, "resultTypes": ["violations"]}
    )
    return [f"{item['id']}: {[node['target'] for node in item['nodes']]}" for item in results.response["violations"]]


def test_two_players_a_challenge_shared_played_and_ranked_in_french_and_dutch(browser, challenge_server):
    pytest.importorskip("axe_playwright_python")
    server = challenge_server
    ada = new_page(browser, "desktop", {"winnable:safe-home": "0"})
    ada.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    ada.context.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")
    sign_up(ada, server, "ada", "fr")

    # Her game of deal 3; the deal link shares the deal (copied: no share sheet here).
    ada.goto(server.url(f"/play/black-hole?deal={DEAL}&lang=fr"))
    ada.wait_for_selector("body[data-ready='1']")
    ada.wait_for_selector("#table .card")
    ada.click("#deal-link")
    ada.wait_for_selector("#message:not([hidden])")
    assert "Lien copié" in ada.inner_text("#message")
    copied = ada.evaluate("navigator.clipboard.readText()")
    assert copied == server.url(f"/play/black-hole?deal={DEAL}")  # the deal, not her language
    assert ada.url.startswith(server.url("/play/black-hole"))  # the page stayed: no reload

    # A challenge from the game's menu opens its page; its share action copies its link.
    ada.click("#menu-button")
    ada.wait_for_selector("#menu:popover-open")
    ada.click("#challenge-button")
    ada.wait_for_url(re.compile(r".*/challenge/[A-Za-z0-9_-]{16}.*"))
    ada.wait_for_selector("body[data-ready='1']")
    token = ada.url.split("/challenge/")[1].split("?")[0]
    assert "un défi d'ada" in ada.inner_text("#challenge-title")
    assert "Personne n'a encore joué ce défi." in ada.inner_text("#leaderboard")
    assert ada.inner_text("#challenge-play") == "Jouer sans classement"  # its creator saw the cards
    ada.click("#challenge-share")
    ada.wait_for_selector("#challenge-status:not([hidden])")
    assert "Lien copié" in ada.inner_text("#challenge-status")
    assert ada.evaluate("navigator.clipboard.readText()") == server.url(f"/challenge/{token}")
    assert ada.get_attribute("#challenge-status", "role") == "status"
    assert axe_violations(ada) == []

    # Bob, in Dutch on a phone, where the browser has a share sheet (the Web Share API).
    bob = new_page(browser, "phone", {"winnable:safe-home": "0"})
    bob.context.add_init_script("navigator.share = async (data) => { window.__shared = data; };navigator.canShare = () => true;")
    sign_up(bob, server, "bob", "nl")
    bob.goto(server.url(f"/challenge/{token}?lang=nl"))
    bob.wait_for_selector("body[data-ready='1']")
    bob.click("#challenge-share")
    bob.wait_for_function("window.__shared !== undefined")
    shared = bob.evaluate("window.__shared")
    assert shared["url"] == server.url(f"/challenge/{token}") and "Black Hole" in shared["title"]
    assert bob.inner_text("#challenge-play") == "Je gerangschikte poging spelen"
    bob.click("#challenge-play")
    bob.wait_for_url("**/play/black-hole?id=**")
    bob.wait_for_selector("body[data-ready='1']")
    bob.wait_for_selector("#table .card")
    game_id = bob.get_attribute("body", "data-game-id")
    status, state = page_api(bob, "GET", f"/api/games/{game_id}")
    assert status == 200 and state["challenge"] == token and state["deal"] is None
    assert bob.get_attribute("#hint", "aria-disabled") == "true" and bob.get_attribute("#restart", "aria-disabled") == "true"
    assert bob.locator("#challenge-badge").is_visible() and bob.inner_text("#challenge-badge") == "Uitdaging"
    assert page_api(bob, "GET", f"/api/games/{game_id}/hint")[0] == 403
    line = [str(move) for move in solve(table_of(state)).line]
    for index, card in enumerate(line):
        bob.tap(f'#table [data-card="{card}"]')
        wait_moves(bob, index + 1)
    bob.wait_for_selector("#overlay.win:not([hidden])")
    # A second ranked attempt is refused, with the reason.
    status, refused = page_api(bob, "POST", f"/api/challenges/{token}/play", {})
    assert status == 409 and refused["code"] == "challenge_played"

    # The leaderboard, in Dutch for him and in French for her.
    bob.goto(server.url(f"/challenge/{token}?lang=nl"))
    bob.wait_for_selector("#board-table tr.you")
    row = bob.locator("#board-table tr.you")
    assert "bob" in row.inner_text() and "Gewonnen" in row.inner_text() and row.locator("td").first.inner_text() == "1"
    assert "Jouw plaats: 1" in bob.inner_text("#board-summary")
    assert bob.inner_text("#challenge-play") == "Opnieuw spelen, zonder rangschikking"
    assert "Ranglijst" in bob.inner_text("main")
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ada.reload()
    ada.wait_for_selector("#board-table tbody tr")
    first = ada.locator("#board-table tbody tr").first
    assert "bob" in first.inner_text() and "Gagnée" in first.inner_text()
    assert "Classement" in ada.inner_text("main") and "1 joueur" in ada.inner_text("#board-summary")
    assert axe_violations(ada) == []
    assert axe_violations(bob) == []
    # The creator finds her challenges again in her statistics, with who played.
    ada.goto(server.url("/stats?lang=fr"))
    ada.wait_for_selector("#challenges-made:not([hidden]) a")
    assert "Vos défis" in ada.inner_text("#challenges-made") and "1 joueur" in ada.inner_text("#challenges-made")
    assert ada.get_attribute("#challenges-made a", "href") == f"/challenge/{token}?lang=fr"
    assert not ada.page_errors and not bob.page_errors
    bob.context.close()
    ada.context.close()


def test_the_game_page_shows_the_record_of_a_deal_played_twice(browser, challenge_server):
    server = challenge_server
    page = new_page(browser, "small", {"winnable:safe-home": "0"})
    sign_up(page, server, "cyd", "fr")
    games = []
    for moves in (3, 1):
        status, state = page_api(page, "POST", "/api/games", {"game": "black-hole", "deal": DEAL + 1})
        assert status == 201
        line = [str(move) for move in solve(table_of(state)).line]
        for move in line[:moves]:
            assert page_api(page, "POST", f"/api/games/{state['id']}/moves", {"move": move})[0] == 200
        games.append(state["id"])
    page.goto(server.url(f"/play/black-hole?id={games[1]}&lang=fr"))
    page.wait_for_selector("body[data-ready='1']")
    page.click("#menu-button")
    page.wait_for_selector("#deal-record:not([hidden])")
    record = page.locator("#deal-record")
    assert "Vos parties de cette donne" in record.inner_text()
    rows = record.locator("tbody tr")
    assert rows.count() == 2
    assert rows.nth(1).get_attribute("aria-current") == "true"
    assert [rows.nth(index).locator("td").nth(3).inner_text() for index in range(2)] == ["3", "1"]
    # And in the statistics.
    page.goto(server.url("/stats?lang=fr"))
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#records:not([hidden]) .deal-record")
    assert f"Black Hole, donne nº {DEAL + 1}" in page.inner_text("#records")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.page_errors
    page.context.close()
