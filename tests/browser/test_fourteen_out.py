"""Fourteen Out in a real browser: a deal won by taps along the solver's line on two phone
screens (one tap for a card with one partner, two for the others), the table on every
screen, a refused pair and its reason, the keyboard, the hint, a drag, "where did I
lose?", and axe-core's accessibility rules on the page, with a card picked, and at the
win."""

from __future__ import annotations

import pytest

from browser_helpers import NO_AUTO, drag, game_state, new_page, open_game, wait_moves, wait_review
from required import require_module
from touch_helpers import still
from winnable.fourteen import FourteenOut
from winnable.solver import solve

WON_DEAL = 1  # the solver clears it in 26 pairs
LOST_QUICKLY = 2  # always taking the last listed pair loses it in 3 moves; the solver wins it


@pytest.fixture(scope="module")
def winning_line() -> list[str]:
    verdict = solve(FourteenOut.deal(WON_DEAL))
    assert verdict.won
    return [str(move) for move in verdict.line]


def losing_line(deal: int) -> list[str]:
    position, line = FourteenOut.deal(deal), []
    while position.legal_moves():
        move = position.legal_moves()[-1]
        line.append(str(move))
        position = position.apply(move)
    return line


def partners(position: FourteenOut, card) -> int:
    """How many other top cards make 14 with ``card``."""
    return sum(1 for top in position.tops() if top is not None and top != card and top.rank + card.rank == 14)


def accessibility_violations(page) -> list[str]:
    """axe-core's violations on the page as it is now (rule, impact, elements)."""
    axe = require_module("axe_playwright_python.sync_playwright", "pip install axe-playwright-python: the test extra has it")
    still(page)
    results = axe.Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']][:5]}" for v in results.response["violations"]]


def take_out(page, position: FourteenOut, move: str, count: int, tap: bool) -> str:
    """Take the pair ``move`` out the way a player does: tap (or click) its first card; a
    card with one partner goes at once, else it is picked and its partner tapped.
    Returns "one tap" or "pair"."""
    first, second = position.parse_move(move).cards
    act = page.tap if tap else page.click
    act(f'#table [data-card="{first}"]')
    if partners(position, first) == 1:
        wait_moves(page, count)
        return "one tap"
    page.wait_for_selector(f'body[data-selected="pile:{position.pile_of(first)}"]')
    assert page.locator("#table .card.target").count() == partners(position, first)
    act(f'#table .card.target[data-card="{second}"]')
    wait_moves(page, count)
    return "pair"


def play_line(page, deal: int, line: list[str], tap: bool = True) -> list[str]:
    position, ways = FourteenOut.deal(deal), []
    for count, move in enumerate(line, 1):
        ways.append(take_out(page, position, move, count, tap))
        position = position.play(move)
    return ways


@pytest.mark.parametrize("size", ["phone", "small"])
def test_a_deal_won_by_taps_along_the_solver_line(browser, server, winning_line, size):
    page = new_page(browser, size, NO_AUTO)
    try:
        open_game(page, server, "fourteen-out", WON_DEAL)
        width = page.viewport_size["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert accessibility_violations(page) == []
        # A card with several partners is picked: its partners light up, each a button named for the pair.
        deal = FourteenOut.deal(WON_DEAL)
        several = next(top for top in deal.tops() if partners(deal, top) > 1)
        page.tap(f'#table [data-card="{several}"]')
        page.wait_for_selector("body[data-selected]")
        labels = page.locator("#table .card.target").evaluate_all(
            "nodes => nodes.map(n => [n.getAttribute('role'), n.getAttribute('aria-label')])"
        )
        assert len(labels) == partners(deal, several) and all(role == "button" and "makes 14 with" in label for role, label in labels)
        assert accessibility_violations(page) == []
        page.tap(f'#table [data-card="{several}"]')  # tapped again: put back
        page.wait_for_selector("body:not([data-selected])")

        ways = play_line(page, WON_DEAL, winning_line)
        assert "one tap" in ways and "pair" in ways  # both ways of taking a pair out were used
        page.wait_for_selector("#overlay.win:not([hidden])")
        assert page.get_attribute("body", "data-status") == "won"
        state = game_state(server, page)
        assert state["status"] == "won" and state["moves"] == winning_line
        assert page.locator("#table .pile .card").count() == 0
        assert "Every card is out" in page.inner_text("#table .removed")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert accessibility_violations(page) == []
        assert page.page_errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["phone", "small", "sideways", "desktop"])
def test_every_card_shows_on_every_screen_without_sideways_scrolling(browser, server, size):
    page = new_page(browser, size, NO_AUTO)
    try:
        open_game(page, server, "fourteen-out", WON_DEAL)
        width, height = page.viewport_size["width"], page.viewport_size["height"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        boxes = page.locator("#table .pile .card").evaluate_all(
            "nodes => nodes.map(n => ({card: n.dataset.card, place: n.dataset.place, index: +n.dataset.index, ...n.getBoundingClientRect().toJSON()}))"
        )
        assert len(boxes) == 52
        actions = page.locator("#actions").bounding_box()
        docked = actions["y"] > height / 2  # the buttons at the bottom of a phone held upright
        bottom = actions["y"] if docked else height
        for box in boxes:
            assert box["left"] >= 0 and box["right"] <= width, box
            assert box["top"] >= 0 and box["bottom"] <= bottom, box
        # Every buried card shows its rank and suit (its top strip); a top card is big enough to tap.
        by_pile: dict[str, list[dict]] = {}
        for box in boxes:
            by_pile.setdefault(box["place"], []).append(box)
        for pile in by_pile.values():
            pile.sort(key=lambda b: b["index"])
            for under, over in zip(pile, pile[1:]):
                assert over["top"] - under["top"] >= 0.24 * under["height"]
            if size != "desktop":
                assert pile[-1]["width"] >= 44 and pile[-1]["height"] >= 44
        # The twelve piles stand in rows of 12, 6, 4 or 3.
        rows = sorted({round(min(b["top"] for b in pile)) for pile in by_pile.values()})
        assert len(rows) in (1, 2, 3, 4)
        assert page.page_errors == []
    finally:
        page.context.close()


def test_a_refused_pair_says_why_and_puts_the_card_back(page, server):
    open_game(page, server, "fourteen-out", WON_DEAL)
    deal = FourteenOut.deal(WON_DEAL)
    picked = next(top for top in deal.tops() if partners(deal, top) > 1)
    other = next(top for top in deal.tops() if top != picked and top.rank + picked.rank != 14)
    page.click(f'#table [data-card="{picked}"]')
    page.wait_for_selector("body[data-selected]")
    page.click(f'#table [data-card="{other}"]')
    page.wait_for_selector("#message.error:not([hidden])")
    assert f"make {picked.rank + other.rank}, not 14" in page.inner_text("#message")
    assert page.get_attribute("body", "data-selected") is None and page.locator("#table .target").count() == 0
    # The partners got their own names back.
    assert page.locator('#table .card[aria-label*="makes 14"]').count() == 0
    assert game_state(server, page)["moves"] == []
    # A card under another: only the top card of a pile can be taken out.
    buried = deal.piles[0][0]
    page.click(f'#table [data-card="{buried}"]', position={"x": 8, "y": 4})
    page.wait_for_function("document.querySelector('#message').textContent.includes('not available')")
    # A top card with no partner anywhere: what it needs.
    lonely = next((top for top in deal.tops() if partners(deal, top) == 0), None)
    if lonely is not None:
        page.click(f'#table [data-card="{lonely}"]')
        page.wait_for_function("document.querySelector('#message').textContent.includes('has no partner')")
    assert page.get_attribute("body", "data-moves") == "0"


def test_the_reasons_are_in_french(browser, server):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        page.goto(server.url(f"/play/fourteen-out?deal={WON_DEAL}&lang=fr"))
        page.wait_for_selector("body[data-ready='1']")
        deal = FourteenOut.deal(WON_DEAL)
        picked = next(top for top in deal.tops() if partners(deal, top) > 1)
        other = next(top for top in deal.tops() if top != picked and top.rank + picked.rank != 14)
        page.click(f'#table [data-card="{picked}"]')
        page.click(f'#table [data-card="{other}"]')
        page.wait_for_selector("#message.error:not([hidden])")
        assert f"font {picked.rank + other.rank}, pas 14" in page.inner_text("#message")
        assert "Retirées 0/52" in page.inner_text("#score")
    finally:
        page.context.close()


def test_keyboard_picks_a_card_goes_round_its_partners_and_takes_the_pair_out(page, server):
    open_game(page, server, "fourteen-out", WON_DEAL)
    deal = FourteenOut.deal(WON_DEAL)
    picked = next(top for top in deal.tops() if partners(deal, top) > 1)
    page.keyboard.press("ArrowRight")
    assert page.locator("#table .card.kfocus.playable").count() == 1
    page.focus(f'#table [data-card="{picked}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-selected]")
    first = page.get_attribute("#table .kfocus", "data-card")
    page.keyboard.press("ArrowRight")
    second = page.get_attribute("#table .kfocus", "data-card")
    assert first != second and {first, second} <= {str(top) for top in deal.tops() if top.rank + picked.rank == 14}
    page.keyboard.press("Escape")
    page.wait_for_selector("body:not([data-selected])")
    page.focus(f'#table [data-card="{picked}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-selected]")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    move = game_state(server, page)["moves"][0]
    assert str(picked) in move.split("+") and first in move.split("+")
    page.keyboard.press("u")
    wait_moves(page, 0)
    # A card with one partner goes out with it at once, from the keyboard too.
    single = next(top for top in deal.tops() if partners(deal, top) == 1)
    page.focus(f'#table [data-card="{single}"]')
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    assert str(single) in game_state(server, page)["moves"][0].split("+")


def test_the_hint_marks_both_cards_and_a_tap_on_either_plays_it(page, server):
    open_game(page, server, "fourteen-out", WON_DEAL)
    page.click("#hint")
    page.wait_for_selector("#table .hint-src")
    source = page.get_attribute("#table .hint-src", "data-card")
    partner = page.get_attribute("#table .card.hint-dst", "data-card")
    move = FourteenOut.deal(WON_DEAL).parse_move(f"{source}+{partner}")
    assert solve(FourteenOut.deal(WON_DEAL).play(move)).won
    word = "Tap" if page.evaluate("matchMedia('(pointer: coarse)').matches") else "Click"  # the device's word
    assert "Take out" in page.inner_text("#message") and f"{word} either marked card" in page.inner_text("#message")
    page.click(f'#table [data-card="{partner}"]')  # the partner plays the hinted pair too
    wait_moves(page, 1)
    assert game_state(server, page)["moves"] == [str(move)]


def test_drag_a_card_onto_its_partner(page, server):
    open_game(page, server, "fourteen-out", WON_DEAL)
    deal = FourteenOut.deal(WON_DEAL)
    move = deal.legal_moves()[0]
    drag(page, page.locator(f'#table [data-card="{move.first}"]'), page.locator(f'#table [data-card="{move.second}"]'))
    wait_moves(page, 1)
    assert game_state(server, page)["moves"] == [str(move)]


def test_no_pair_left_and_where_did_i_lose(page, server):
    open_game(page, server, "fourteen-out", LOST_QUICKLY)
    line = losing_line(LOST_QUICKLY)
    play_line(page, LOST_QUICKLY, line, tap=False)
    page.wait_for_selector("#overlay.lost:not([hidden])")
    assert "No two top cards make 14" in page.inner_text("#overlay-body")
    page.click("#where-lost")
    wait_review(page)
    analysis = server.api("GET", f"/api/games/{page.get_attribute('body', 'data-game-id')}/analysis")
    k = analysis["lost_at"]
    assert k is not None and analysis["losing_move"] == line[k]
    assert f"Move {k + 1} lost the game" in page.inner_text("#review-text")
    # The pair that lost it in red, a pair that kept a win in green: both cards of each.
    page.wait_for_selector("#table .lose-src")
    lost_pair = {page.get_attribute("#table .lose-src", "data-card"), page.get_attribute("#table .card.lose-dst", "data-card")}
    assert lost_pair == set(line[k].split("+"))
    better = {page.get_attribute("#table .better-src", "data-card"), page.get_attribute("#table .card.better-dst", "data-card")}
    assert better == set(analysis["better_move"].split("+"))
