"""Black Hole in a real browser: a win by clicks along the solver's line, undo in every
mode, hint, restart, reload, keyboard, drag, the lost screen and "where did I lose?"."""

from __future__ import annotations

import pytest

from browser_helpers import drag, game_state, open_game, open_menu, settled, wait_moves, wait_review
from winnable.blackhole import BlackHole
from winnable.solver import solve

WON_DEAL = 2  # the solver wins Black Hole deal 2 (51 moves)


@pytest.fixture(scope="module")
def winning_line() -> list[str]:
    verdict = solve(BlackHole.deal(WON_DEAL))
    assert verdict.won
    return [str(move) for move in verdict.line]


def losing_line(deal: int) -> list[str]:
    """Always play the last legal move: on deal 2 that loses in a few moves."""
    position, line = BlackHole.deal(deal), []
    while position.legal_moves():
        move = position.legal_moves()[-1]
        line.append(str(move))
        position = position.apply(move)
    assert position.is_lost()
    return line


def click_line(page, line: list[str], start: int = 0) -> None:
    for offset, card in enumerate(line):
        page.click(f'#table [data-card="{card}"]')
        wait_moves(page, start + offset + 1)


def test_the_table_shows_the_deal(page, server):
    open_game(page, server, "black-hole", WON_DEAL)
    deal = BlackHole.deal(WON_DEAL)
    assert page.locator("#table .pile").count() == 17
    for index, pile in enumerate(deal.piles):
        shown = page.locator(f'#table [data-place="pile:{index}"]').evaluate_all("nodes => nodes.map(n => n.dataset.card)")
        assert shown == [str(card) for card in pile]
    assert page.get_attribute('#table [data-place="foundation"]', "data-card") == "AS"
    assert page.inner_text("#deal-link").startswith(f"Deal #{WON_DEAL}")
    assert page.get_attribute("#deal-link", "href").endswith(f"/play/black-hole?deal={WON_DEAL}")
    # Only the top cards that fit on the Ace of Spades are marked playable.
    playable = sorted(page.locator("#table .card.playable").evaluate_all("nodes => nodes.map(n => n.dataset.card)"))
    assert playable == sorted(str(move) for move in deal.legal_moves())


def test_win_by_clicks_along_the_solver_line(page, server, winning_line):
    open_game(page, server, "black-hole", WON_DEAL)
    click_line(page, winning_line)
    page.wait_for_selector("#overlay.win:not([hidden])")
    assert "You won" in page.inner_text("#overlay-title")
    assert page.get_attribute("body", "data-status") == "won"
    state = game_state(server, page)
    assert state["status"] == "won" and state["moves"] == winning_line
    assert page.locator("#table .pile .card").count() == 0
    # The win screen deals again.
    page.click("#win-new")
    page.wait_for_selector("body[data-moves='0'][data-status='playing']")
    assert page.get_attribute("body", "data-game-id") != state["id"]


def test_a_refused_click_explains_and_changes_nothing(page, server):
    open_game(page, server, "black-hole", WON_DEAL)
    deal = BlackHole.deal(WON_DEAL)
    legal = {str(move) for move in deal.legal_moves()}
    top = next(str(pile[-1]) for pile in deal.piles if str(pile[-1]) not in legal)
    page.click(f'#table [data-card="{top}"]')
    page.wait_for_selector("#message:not([hidden])")
    assert "one rank above or below" in page.inner_text("#message")
    assert page.get_attribute("body", "data-moves") == "0"
    assert game_state(server, page)["moves"] == []


def test_undo_restart_and_reload(page, server, winning_line):
    game_id = open_game(page, server, "black-hole", WON_DEAL)
    click_line(page, winning_line[:3])
    page.click("#undo")
    wait_moves(page, 2)
    assert page.locator(f'#table [data-card="{winning_line[2]}"]').get_attribute("data-place").startswith("pile:")
    assert game_state(server, page)["moves"] == winning_line[:2]

    # A reload mid-game resumes the same game at the same position.
    click_line(page, winning_line[2:5], start=2)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    wait_moves(page, 5)
    assert page.get_attribute("body", "data-game-id") == game_id
    foundation = page.locator('#table [data-place="foundation"]').evaluate_all("nodes => nodes.map(n => n.dataset.card)")
    assert foundation[-1] == winning_line[4]
    assert page.url.endswith(f"/play/black-hole?deal={WON_DEAL}")

    page.click("#restart")
    wait_moves(page, 0)
    assert page.locator("#table .pile .card").count() == 51
    assert game_state(server, page)["moves"] == []
    assert page.get_attribute("body", "data-game-id") == game_id


def test_undo_modes(page, server, winning_line):
    open_game(page, server, "black-hole", WON_DEAL)
    # Choosing another undo rule before the first move deals the same deal under it.
    open_menu(page)
    page.select_option("#undo-mode", "one")
    page.wait_for_function("document.body.dataset.moves === '0' && document.body.dataset.busy === '0'")
    page.wait_for_function("document.querySelector('#undo-left').textContent === '1'")
    assert game_state(server, page)["undo"] == "one"
    click_line(page, winning_line[:2])
    page.click("#undo")
    wait_moves(page, 1)
    assert page.is_disabled("#undo")
    page.keyboard.press("u")  # refused quietly: the one undo is used
    assert game_state(server, page)["moves"] == winning_line[:1]

    open_menu(page)
    page.select_option("#undo-mode", "none")
    page.keyboard.press("Escape")
    page.click("#new-deal")
    page.click("#confirm-new")
    page.wait_for_function("document.body.dataset.moves === '0' && document.body.dataset.busy === '0'")
    page.wait_for_function("document.querySelector('#undo').disabled")
    assert game_state(server, page)["undo"] == "none"


def test_hint_highlights_a_winning_move_and_enter_plays_it(page, server):
    open_game(page, server, "black-hole", WON_DEAL)
    page.click("#hint")
    page.wait_for_selector("#table .hint-src")
    assert "Hint" in page.inner_text("#message")
    hinted = page.get_attribute("#table .hint-src", "data-card")
    assert page.locator("#table .hole.hint-dst").count() == 1
    assert hinted in {str(move) for move in BlackHole.deal(WON_DEAL).legal_moves()}
    # The hinted move keeps the deal winnable.
    after = BlackHole.deal(WON_DEAL).play(hinted)
    assert solve(after).won
    page.click(f'#table [data-card="{hinted}"]')
    wait_moves(page, 1)
    assert page.locator("#table .hint-src").count() == 0


def test_keyboard_play(page, server):
    open_game(page, server, "black-hole", WON_DEAL)
    page.keyboard.press("ArrowRight")
    focused = page.locator("#table .card.kfocus")
    assert focused.count() == 1
    assert "playable" in focused.get_attribute("class")
    assert page.evaluate("document.activeElement.classList.contains('kfocus')")
    seen = {focused.get_attribute("data-card")}
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        seen.add(page.get_attribute("#table .card.kfocus", "data-card"))
    assert len(seen) >= 2  # the focus moves between playable cards
    card = page.get_attribute("#table .card.kfocus", "data-card")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    assert game_state(server, page)["moves"] == [card]
    page.keyboard.press("u")
    wait_moves(page, 0)
    page.keyboard.press("h")
    page.wait_for_selector("#table .hint-src")


def test_drag_a_card_into_the_hole(page, server):
    open_game(page, server, "black-hole", WON_DEAL)
    card = str(BlackHole.deal(WON_DEAL).legal_moves()[0])
    drag(page, page.locator(f'#table [data-card="{card}"]'), page.locator("#table .hole .hole-stack"))
    wait_moves(page, 1)
    assert game_state(server, page)["moves"] == [card]
    # A drop on nothing puts the card back.
    other = BlackHole.deal(WON_DEAL).play(card).legal_moves()[0]
    drag(page, page.locator(f'#table [data-card="{other}"]'), page.locator("#title"))
    settled(page)
    assert page.get_attribute("body", "data-moves") == "1"


def test_still_winnable_badge(page, server, winning_line):
    open_game(page, server, "black-hole", WON_DEAL)
    open_menu(page)
    page.click("label:has(#watch-toggle)")
    page.keyboard.press("Escape")
    page.wait_for_selector("#watch-badge[data-verdict='won']")
    assert "Still winnable" in page.inner_text("#watch-badge")
    lost = losing_line(WON_DEAL)
    start = BlackHole.deal(WON_DEAL)
    k = next(k for k in range(len(lost)) if solve(start.play_line(lost[:k])).lost)
    click_line(page, lost[:k])
    page.wait_for_selector("#watch-badge[data-verdict='lost']", timeout=30_000)
    assert "Not winnable" in page.inner_text("#watch-badge")
    # The badge opens the replay of the move that lost it, while the game goes on.
    page.click("#watch-badge")
    wait_review(page)
    assert "lost the game" in page.inner_text("#review-text")
    page.click("#review-close")
    page.wait_for_selector("#review", state="hidden")
    assert page.get_attribute("body", "data-status") == "playing"


def test_no_moves_left_and_where_did_i_lose(page, server):
    open_game(page, server, "black-hole", WON_DEAL)
    line = losing_line(WON_DEAL)
    click_line(page, line)
    page.wait_for_selector("#overlay.lost:not([hidden])")
    assert "No moves left" in page.inner_text("#overlay-title")
    page.click("#where-lost")
    wait_review(page)
    analysis = server.api("GET", f"/api/games/{page.get_attribute('body', 'data-game-id')}/analysis")
    k = analysis["lost_at"]
    assert k is not None and analysis["losing_move"] == line[k]
    text = page.inner_text("#review-text")
    assert f"Move {k + 1} lost the game" in text
    # The board shows the position before the losing move, the move in red, a better one in green.
    page.wait_for_selector("#table .lose-src")
    assert page.get_attribute("#table .lose-src", "data-card") == line[k]
    assert page.get_attribute("#table .better-src", "data-card") == analysis["better_move"]
    before = BlackHole.deal(WON_DEAL).play_line(line[:k])
    assert page.locator("#table .pile .card").count() == before.cards_left()
    # Step through the game.
    page.click("#review-next")
    page.wait_for_function(f"document.querySelector('#review-at').textContent.startsWith('{k + 1} /')")
    assert page.locator("#table .pile .card").count() == before.cards_left() - 1
    # Replay plays the game back from the deal, one move at a time.
    page.click("#review-replay")
    page.wait_for_function("document.querySelector('#review-at').textContent.startsWith('2 /')")
    page.click("#review-replay")  # stop
    page.click("#review-lost")
    page.wait_for_function(f"document.querySelector('#review-at').textContent.startsWith('{k} /')")
    # Play on from the last winnable position: a new game of the same deal.
    old_id = page.get_attribute("body", "data-game-id")
    page.click("#review-try")
    page.wait_for_selector(f"body[data-moves='{k}'][data-status='playing']")
    assert page.get_attribute("body", "data-game-id") != old_id
    assert page.locator("#review").is_hidden()
    state = game_state(server, page)
    assert state["moves"] == line[:k] and state["deal"] == WON_DEAL


def test_new_deal_and_winnable_toggle(page, server):
    open_game(page, server, "black-hole")
    assert page.is_checked("#winnable-toggle")  # a new player gets proved deals
    first = game_state(server, page)
    assert first["winnable_deal"] is True
    open_menu(page)
    page.click("label:has(#winnable-toggle)")
    page.keyboard.press("Escape")
    page.click("#new-deal")
    page.wait_for_function(f"document.body.dataset.gameId !== '{first['id']}' && document.body.dataset.busy === '0'")
    second = game_state(server, page)
    # Any deal now: a few in a hundred Black Hole deals have no move at all (lost as dealt).
    assert second["winnable_deal"] is False and second["moves"] == []


def test_lobby_lists_every_game_with_its_rules(page, server):
    page.goto(server.url("/"))
    page.wait_for_selector(".game-tile")
    for game in server.api("GET", "/api/catalog"):
        tile = page.locator(f".game-tile[data-game='{game['id']}']")
        assert tile.count() == 1
        assert game["title"] in tile.inner_text()
        assert tile.locator(f"a[href='/play/{game['id']}']").count() >= 1
        assert tile.locator(f"a[href='/rules/{game['id']}']").count() == 1
    page.click(".game-tile[data-game='black-hole'] a.play")
    page.wait_for_selector("body[data-ready='1']")
    assert "/play/black-hole?deal=" in page.url
    # A deal number typed in the lobby opens that deal.
    page.goto(server.url("/"))
    page.fill(".game-tile[data-game='black-hole'] input[name='deal']", "7")
    page.click(".game-tile[data-game='black-hole'] .deal-form button")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#deal-link").startswith("Deal #7")
    assert game_state(server, page)["deal"] == 7
    page.goto(server.url("/rules/black-hole"))
    assert "Black Hole" in page.inner_text("h1")


@pytest.mark.parametrize("width, height", [(360, 740), (390, 844), (1366, 900)])
def test_the_table_fits_the_screen(browser, server, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 640, bypass_csp=True)
    try:
        page = context.new_page()
        open_game(page, server, "black-hole", WON_DEAL)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        boxes = page.locator("#table .card").evaluate_all("nodes => nodes.map(n => n.getBoundingClientRect().toJSON())")
        assert len(boxes) == 52
        bottom = page.locator("#actions").bounding_box()["y"] if width < 640 else height  # the docked buttons
        for box in boxes:
            assert box["left"] >= 0 and box["right"] <= width
            assert box["top"] >= 0 and box["bottom"] <= bottom
        # Undo, Restart and Hint stay on screen, at the bottom on a phone.
        for button in ("#undo", "#restart", "#hint"):
            box = page.locator(button).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height
        # A tap plays like a click.
        card = str(BlackHole.deal(WON_DEAL).legal_moves()[0])
        if width < 640:
            page.tap(f'#table [data-card="{card}"]')
        else:
            page.click(f'#table [data-card="{card}"]')
        wait_moves(page, 1)
    finally:
        context.close()
