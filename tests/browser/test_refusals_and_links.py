"""On a phone, in a ranked challenge attempt (issue 34 items 3-5): Hint and Restart are
refused but stay focusable, and a tap on either says why in the message box (read by
screen readers); the attempt won, its dialog shows the player's rank among the
challenge's players and links to its leaderboard; a deal's link and a challenge's link,
shared from a French page, open in a Dutch browser in Dutch (the link carries the deal,
not the language)."""

from __future__ import annotations

import pytest

from browser_helpers import new_page, page_api, sign_up, start_server, stop_server, wait_moves
from touch_helpers import translate
from winnable.blackhole import BlackHole
from winnable.cards import Card
from winnable.solver import solve

DEAL = 3


@pytest.fixture(scope="module")
def players_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("winnable-refusals")
    running = start_server(
        folder / "games.db", folder / "server.log", {"WINNABLE_ARGON2_MEMORY_KIB": "1024", "WINNABLE_ARGON2_TIME_COST": "1"}
    )
    yield running
    stop_server(running)


def challenge_of(page, server) -> str:
    """A challenge made by the page's player from her game of Black Hole deal 3: its token."""
    status, state = page_api(page, "POST", "/api/games", {"game": "black-hole", "deal": DEAL})
    assert status in (200, 201), state
    status, made = page_api(page, "POST", "/api/challenges", {"game_id": state["id"]})
    assert status in (200, 201), made
    return made["id"]


def winning_line(state) -> list[str]:
    view = state["position"]
    table = BlackHole(
        tuple(tuple(Card.from_text(card) for card in pile) for pile in view["piles"]),
        tuple(Card.from_text(card) for card in view["foundation"]),
    )
    return [str(move) for move in solve(table).line]


def ranked_attempt(browser, server, lang: str, name: str):
    """Ada's challenge, and Bob's ranked attempt at it on a phone: (his page, the token, the attempt's state)."""
    ada = new_page(browser, "desktop")
    try:
        sign_up(ada, server, f"ada-{name}", lang)
        token = challenge_of(ada, server)
        assert not ada.page_errors
    finally:
        ada.context.close()
    bob = new_page(browser, "phone", {"winnable:safe-home": "0"})
    sign_up(bob, server, f"bob-{name}", lang)
    status, state = page_api(bob, "POST", f"/api/challenges/{token}/play", {})
    assert status in (200, 201) and state["challenge"] == token
    return bob, token, state


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_refused_control_says_why_when_tapped(browser, players_server, lang):
    bob, _, state = ranked_attempt(browser, players_server, lang, f"refused-{lang}")
    try:
        bob.goto(players_server.url(f"/play/black-hole?id={state['id']}&lang={lang}"))
        bob.wait_for_selector("body[data-ready='1'] #table .card")
        for control, reason in (
            ("#hint", "Hints are off in a ranked challenge attempt"),
            ("#restart", "A ranked challenge attempt is one attempt: it cannot be restarted"),
        ):
            said = translate(lang, reason)
            assert bob.get_attribute(control, "aria-disabled") == "true"
            # Not disabled: focusable and tappable.
            assert bob.evaluate(
                "([c]) => { const n = document.querySelector(c); n.focus(); return !n.disabled && document.activeElement === n; }",
                [control],
            )
            bob.tap(control, force=True)  # Playwright waits for an aria-disabled button to be enabled; a finger does not
            bob.wait_for_function(
                "([text]) => { const m = document.querySelector('#message'); return !m.hidden && m.textContent.includes(text); }",
                arg=[said],
            )
            assert bob.get_attribute("#message", "role") == "status"
        assert bob.get_attribute("body", "data-moves") == "0"  # nothing restarted, nothing hinted
        assert not bob.page_errors
    finally:
        bob.context.close()


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_challenge_win_shows_the_rank_and_the_leaderboard(browser, players_server, lang):
    bob, token, state = ranked_attempt(browser, players_server, lang, f"wins-{lang}")
    try:
        # The attempt won (its moves sent as the page sends them), then its page opened.
        line = winning_line(state)
        for move in line:
            status, _ = page_api(bob, "POST", f"/api/games/{state['id']}/moves", {"move": move})
            assert status == 200
        bob.goto(players_server.url(f"/play/black-hole?id={state['id']}&lang={lang}"))
        wait_moves(bob, len(line))
        bob.wait_for_selector("#overlay.win:not([hidden]) #challenge-leaderboard")
        rank = translate(lang, "Your rank in this challenge: {rank} of {players}").format(rank=1, players=1)
        bob.wait_for_function("([text]) => (document.querySelector('#challenge-result-rank') || {}).textContent === text", arg=[rank])
        assert bob.get_attribute("#challenge-leaderboard", "href") == (f"/challenge/{token}" + ("" if lang == "en" else f"?lang={lang}"))
        assert not bob.page_errors
    finally:
        bob.context.close()


def test_a_shared_link_opens_in_the_receivers_language(browser, players_server):
    server = players_server
    ada = new_page(browser, "desktop")
    ada.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    ada.context.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")
    friend = browser.new_context(locale="nl-NL", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, bypass_csp=True)
    try:
        sign_up(ada, server, "ada-shares", "fr")
        token = challenge_of(ada, server)
        ada.goto(server.url(f"/play/black-hole?deal={DEAL}&lang=fr"))
        ada.wait_for_selector("body[data-ready='1'] #table .card")
        ada.click("#deal-link")
        ada.wait_for_selector("#message:not([hidden])")
        deal_link = ada.evaluate("navigator.clipboard.readText()")
        ada.goto(server.url(f"/challenge/{token}?lang=fr"))
        ada.wait_for_selector("body[data-ready='1']")
        ada.click("#challenge-share")
        ada.wait_for_selector("#challenge-status:not([hidden])")
        challenge_link = ada.evaluate("navigator.clipboard.readText()")
        page = friend.new_page()
        for link, ready in ((deal_link, "body[data-ready='1'] #table .card"), (challenge_link, "body[data-ready='1']")):
            assert "lang=" not in link, link
            page.goto(link)
            page.wait_for_selector(ready)
            assert page.evaluate("document.documentElement.lang") == "nl", link
        assert page.inner_text("#challenge-share") == translate("nl", "Share this challenge")
        assert not ada.page_errors
    finally:
        friend.close()
        ada.context.close()
