"""Playing on every screen: Black Hole, Black Widow, Penguin and FreeCell on a phone
upright (390 x 844, touch), a small phone (320 x 568), a phone held sideways (844 x 390)
and a desktop window (1280 x 800).

Pick a card up and put it where it goes (tap, click, keyboard), hints that play when
their card is tapped, Finish, targets a finger can hit, no sideways scrolling, the whole
table in view, the deal in the address, New deal asking first, "your games", review
keeping the layout, contrast and accessible names."""

from __future__ import annotations

import pytest

from browser_helpers import (
    MEASURE_TARGETS,
    NO_AUTO,
    SIZES,
    card_at,
    cards,
    game_state,
    new_page,
    open_game,
    open_menu,
    play_api,
    wait_moves,
    wait_review,
)
from winnable.games import game_class
from winnable.solver import Budget, solve
from winnable.web.views import click_choices, player_view

GAMES = ["black-hole", "black-widow", "penguin", "freecell"]
SELECT_THEN_PLACE = {"winnable:clickmove:spider": "0"}  # the Spider family's click moves the card by default
DEAL = 3


def solver_line(game: str, deal: int) -> list[str]:
    verdict = solve(game_class(game).deal(deal), Budget(seconds=60))
    assert verdict.won
    return [str(move) for move in verdict.line]


@pytest.fixture(scope="module")
def lines():
    cache: dict = {}

    def line(game, deal):
        if (game, deal) not in cache:
            cache[(game, deal)] = solver_line(game, deal)
        return cache[(game, deal)]

    return line


# -- every screen -------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_every_screen(browser, server, game, size):
    page = new_page(browser, size)
    try:
        open_game(page, server, game, DEAL)
        width, height = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
        # No sideways scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("innerWidth")
        # The table and its controls are on screen.
        box = page.evaluate("""() => {
            const boxes = [...document.querySelectorAll('#table .card, #table .slot, #table .stock')].map(n => n.getBoundingClientRect());
            return {left: Math.min(...boxes.map(b => b.left)), top: Math.min(...boxes.map(b => b.top)),
                    right: Math.max(...boxes.map(b => b.right)), bottom: Math.max(...boxes.map(b => b.bottom))};
        }""")
        assert box["left"] >= 0 and box["right"] <= width
        if size == "sideways":  # a phone held sideways shows the whole table without scrolling
            assert box["top"] >= 0 and box["bottom"] <= height, box
            assert page.evaluate("document.documentElement.scrollHeight") <= height + 1
        for control in ("#undo", "#hint", "#restart", "#new-deal", "#menu-button"):
            b = page.locator(control).bounding_box()
            assert b["x"] >= 0 and b["x"] + b["width"] <= width and b["y"] + b["height"] <= height, control
        if size != "desktop":
            # Nothing a finger must hit is under 44 x 44 px, cards included (at 320 px the
            # columns stand in two rows and Black Hole's piles in a grid), the menu's
            # contents too.
            assert page.evaluate(MEASURE_TARGETS) == []
            open_menu(page)
            assert page.evaluate(MEASURE_TARGETS) == []
        # The table uses the height it has: the lowest card reaches the lower half.
        if size in ("phone", "desktop") and game != "black-widow":
            assert box["bottom"] > height * 0.55, box
        assert not page.page_errors
    finally:
        page.context.close()


# -- pick up, put down --------------------------------------------------------------------


def entry_for(game, deal, moves, predicate):
    position = game_class(game).deal(deal).play_line(moves)
    return next(e for e in click_choices(position) if predicate(e, position))


def lead_index(position, entry):
    view = player_view(position)
    kind, _, i = entry["from"].partition(":")
    if kind == "cell":
        return 0
    column = view["columns"][int(i)]
    size = len(column) if isinstance(column, list) else column["down"] + len(column["up"])
    return size - entry["count"]


@pytest.mark.parametrize("size", ["phone", "small"])
def test_tap_picks_up_and_a_free_cell_takes_it(browser, server, size):
    page = new_page(browser, size, NO_AUTO)
    try:
        game_id = open_game(page, server, "freecell", DEAL)
        position = game_class("freecell").deal(DEAL)
        entry = next(e for e in click_choices(position) if e["to"] == "cell:2")
        card = card_at(page, entry["from"], lead_index(position, entry))
        card.tap()
        page.wait_for_selector("#table .card.selected")
        # Every place it may go is marked; nothing was played yet.
        targets = page.locator("#table .target").evaluate_all("nodes => nodes.map(n => n.dataset.drop)")
        wanted = {e["to"] for e in click_choices(position) if e["from"] == entry["from"] and e["count"] == 1}
        assert set(targets) == wanted and "cell:2" in targets
        assert game_state(server, page)["moves"] == []
        page.locator('#table [data-drop="cell:2"]').tap()
        wait_moves(page, 1)
        assert game_state(server, page)["moves"] == [entry["move"]]
        assert page.get_attribute('#table [data-place="cell:2"]', "data-card") == entry["card"]
        page.wait_for_function("document.querySelector('#announce').textContent.includes('free cell')")  # a frame later
        # A tap elsewhere puts a picked-up card back.
        other = next(e for e in click_choices(game_class("freecell").deal(DEAL).play(entry["move"])))
        card_at(page, other["from"], lead_index(game_class("freecell").deal(DEAL).play(entry["move"]), other)).tap()
        page.wait_for_selector("#table .card.selected")
        page.locator("#title").tap()  # a tap on nothing that acts (not the deal link in the stats)
        page.wait_for_selector("#table .card.selected", state="detached")
        assert game_state(server, page)["moves"] == [entry["move"]]
        assert game_id == page.get_attribute("body", "data-game-id")
    finally:
        page.context.close()


@pytest.mark.parametrize("game, deal, size", [("freecell", 1, "phone"), ("penguin", 3, "sideways"), ("black-widow", 4, "desktop")])
def test_a_run_goes_into_an_empty_column_by_taps(browser, server, lines, game, deal, size):
    line = lines(game, deal)
    position = game_class(game).deal(deal)
    for k, move in enumerate(line):
        runs = [e for e in click_choices(position) if e["count"] >= 2 and e["to"].startswith("column:") and is_empty(position, e["to"])]
        if runs:
            break
        position = position.play(move)
    entry = max((e for e in runs if e["to"] == runs[0]["to"] and e["from"] == runs[0]["from"]), key=lambda e: e["count"])
    page = new_page(browser, size, NO_AUTO | SELECT_THEN_PLACE)
    try:
        game_id = open_game(page, server, game, deal)
        play_api(server, game_id, line[:k])
        page.reload()
        wait_moves(page, k)
        lead = card_at(page, entry["from"], lead_index(position, entry))
        if SIZES[size].get("has_touch"):
            lead.tap(position={"x": 10, "y": 6})  # its visible strip
        else:
            lead.click(position={"x": 6, "y": 4})
        page.wait_for_selector("#table .card.selected")
        assert page.locator("#table .card.selected").count() >= entry["count"]
        target = page.locator(f'#table [data-drop="{entry["to"]}"]')
        target.tap() if SIZES[size].get("has_touch") else target.click()
        wait_moves(page, k + 1)
        assert game_state(server, page)["moves"][-1] == entry["move"]
    finally:
        page.context.close()


@pytest.mark.parametrize("game", ["freecell", "penguin"])
def test_two_rows_of_columns_on_a_small_phone(browser, server, lines, game):
    # 320 px hold eight (or seven) columns of 44 px cards only in two rows, FreeCell's
    # 4 + 4 and Penguin's 4 + 3; a tap picks a card up in one row and puts it in the other.
    line = lines(game, DEAL)
    position = game_class(game).deal(DEAL)
    count = len(player_view(position)["columns"])
    upper = (count + 1) // 2  # columns in the upper row

    def row(place):
        return int(place.split(":")[1]) >= upper

    for k, move in enumerate(line):
        across = [
            e
            for e in click_choices(position)
            if e["count"] == 1 and e["from"].startswith("column:") and e["to"].startswith("column:") and row(e["from"]) != row(e["to"])
        ]
        if across:
            break
        position = position.play(move)
    entry = across[0]
    page = new_page(browser, "small", NO_AUTO)
    try:
        game_id = open_game(page, server, game, DEAL)
        play_api(server, game_id, line[:k])
        page.reload()
        wait_moves(page, k)
        boxes = page.locator("#table .column").evaluate_all("nodes => nodes.map(n => n.getBoundingClientRect().toJSON())")
        assert len(boxes) == count and all(box["width"] >= 44 for box in boxes)
        # The upper row's columns end above the lower row's.
        assert max(box["bottom"] for box in boxes[:upper]) < min(box["top"] for box in boxes[upper:])
        card_at(page, entry["from"], lead_index(position, entry)).tap()
        page.wait_for_selector("#table .card.selected")
        page.locator(f'#table [data-drop="{entry["to"]}"]').tap()
        wait_moves(page, k + 1)
        assert game_state(server, page)["moves"][-1] == entry["move"]
        assert not page.page_errors
    finally:
        page.context.close()


def is_empty(position, place):
    column = player_view(position)["columns"][int(place.split(":")[1])]
    return not column if isinstance(column, list) else not column["down"] and not column["up"]


def focus(page, locator):
    locator.evaluate("node => node.focus()")
    page.wait_for_selector("#table .kfocus")


def keyboard_place(page, drop: str, limit: int = 20) -> None:
    """With a card picked up, press the right arrow until ``drop`` has the focus, then Enter."""
    for _ in range(limit):
        if page.evaluate(f"document.activeElement && document.activeElement.dataset.drop === '{drop}'"):
            page.keyboard.press("Enter")
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrows never reached {drop}")


def test_keyboard_picks_up_chooses_and_places(browser, server, lines):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        open_game(page, server, "freecell", 1)
        position = game_class("freecell").deal(1)
        entry = next(e for e in click_choices(position) if e["to"] == "cell:1")
        focus(page, card_at(page, entry["from"], lead_index(position, entry)))
        page.keyboard.press("Enter")
        page.wait_for_selector("#table .card.selected")
        assert page.evaluate("document.activeElement.classList.contains('target')")  # the first place has the focus
        keyboard_place(page, "cell:1")
        wait_moves(page, 1)
        assert game_state(server, page)["moves"] == [entry["move"]]
        # Escape puts a picked-up card back.
        position = position.play(entry["move"])
        other = click_choices(position)[0]
        focus(page, card_at(page, other["from"], lead_index(position, other)))
        page.keyboard.press("Enter")
        page.wait_for_selector("#table .card.selected")
        page.keyboard.press("Escape")
        page.wait_for_selector("#table .card.selected", state="detached")
        assert page.get_attribute("body", "data-moves") == "1"

        # A run into an empty column, by keyboard.
        line = lines("freecell", 1)
        position = game_class("freecell").deal(1)
        for k, move in enumerate(line):
            runs = [e for e in click_choices(position) if e["count"] >= 2 and e["to"].startswith("column:") and is_empty(position, e["to"])]
            if runs:
                break
            position = position.play(move)
        run = runs[0]
        fresh = server.api("POST", "/api/games", {"game": "freecell", "deal": 1})
        play_api(server, fresh["id"], line[:k])
        page.goto(server.url(f"/play/freecell?id={fresh['id']}"))
        wait_moves(page, k)
        focus(page, card_at(page, run["from"], lead_index(position, run)))
        page.keyboard.press("Enter")
        page.wait_for_selector("#table .card.selected")
        keyboard_place(page, run["to"])
        wait_moves(page, k + 1)
        assert server.api("GET", f"/api/games/{fresh['id']}")["moves"][-1] == run["move"]
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["phone", "small"])
def test_one_tap_moves_is_a_setting(browser, server, size):
    # On by default in Black Hole (every card has one place to go) ...
    page = new_page(browser, size)
    try:
        open_game(page, server, "black-hole", 2)
        if size == "small":  # too narrow for a ring: the hole in a band above the piles
            hole = page.locator("#table .hole").bounding_box()
            piles = page.locator("#table .pile").evaluate_all("nodes => nodes.map(n => n.getBoundingClientRect().toJSON())")
            assert len(piles) == 17 and hole["y"] + hole["height"] <= min(p["top"] for p in piles)
        card = str(game_class("black-hole").deal(2).legal_moves()[0])
        page.locator(f'#table [data-card="{card}"]').tap()
        wait_moves(page, 1)
        # ... and when it is off, a tap picks the card up and the hole takes it.
        open_menu(page)
        page.locator("label[for=onetap-toggle]").tap()
        page.keyboard.press("Escape")
        second = str(game_class("black-hole").deal(2).play(card).legal_moves()[0])
        page.locator(f'#table [data-card="{second}"]').tap()
        page.wait_for_selector("#table .hole.target")
        assert page.get_attribute("body", "data-moves") == "1"
        page.locator("#table .hole").tap()
        wait_moves(page, 2)
        assert game_state(server, page)["moves"] == [card, second]
    finally:
        page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_tapping_the_hinted_card_plays_the_hinted_move(browser, server, game):
    page = new_page(browser, "phone", NO_AUTO)
    try:
        open_game(page, server, game, DEAL)
        page.locator("#hint").tap()
        page.wait_for_selector("#table .hint-src", timeout=30_000)
        hinted = page.get_attribute("body", "data-hint")
        # The destination is marked too.
        assert page.locator("#table .hint-dst").count() >= 1
        entry = next(e for e in game_state(server, page)["legal"] if e["move"] == hinted)
        if entry["from"] == "stock":
            page.locator("#table .stock").tap()
        else:
            page.locator("#table .hint-src").first.tap()
        wait_moves(page, 1)
        assert game_state(server, page)["moves"] == [hinted]
        assert not page.page_errors
    finally:
        page.context.close()


def test_following_the_hints_the_moves_to_win_only_go_down(browser, server):
    """Penguin 655106, safe moves home on (as players have it): the hint said 85 moves,
    then 86, then 85... for ever. Now each hint continues the line shown, and the moves
    to win the page shows drop at every tap of the hinted card."""
    import re

    page = new_page(browser, "phone")
    try:
        open_game(page, server, "penguin", 655106)
        shown = []
        for _ in range(30):
            before = int(page.get_attribute("body", "data-moves"))
            page.locator("#hint").tap()
            page.wait_for_selector("#table .hint-src", timeout=30_000)
            text = page.locator("#message").inner_text()
            shown.append(int(re.search(r"A win is (\d+) moves? away", text).group(1)))
            page.locator("#table .hint-src").first.tap()
            page.wait_for_function(f"Number(document.body.dataset.moves) > {before}")
        assert all(later < earlier for earlier, later in zip(shown, shown[1:])), shown
        assert not page.page_errors
    finally:
        page.context.close()


# -- finishing and safe moves home -------------------------------------------------------------


def test_finish_plays_a_won_freecell_deal_home(browser, server, lines):
    line = lines("freecell", 1)
    position = game_class("freecell").deal(1)
    for k, move in enumerate(line):
        if position.finishing_line():
            break
        position = position.play(move)
    page = new_page(browser, "phone", NO_AUTO)
    try:
        game_id = open_game(page, server, "freecell", 1)
        play_api(server, game_id, line[:k])
        page.reload()
        wait_moves(page, k)
        finish = page.locator("#finish")
        assert finish.is_visible()
        finish.tap()
        page.wait_for_selector("body[data-status='won']", timeout=30_000)
        page.wait_for_selector("#overlay.win:not([hidden])")
        state = game_state(server, page)
        assert state["status"] == "won" and state["moves"][:k] == line[:k]
        assert page.locator("#table .column .card").count() == 0
    finally:
        page.context.close()


def test_safe_moves_go_home_by_themselves_and_undo_takes_them_back(browser, server):
    page = new_page(browser, "desktop")  # the setting is on by default
    try:
        open_game(page, server, "freecell", 8)  # two Aces on top: home at once
        page.wait_for_function("document.body.dataset.moves === '2' && document.body.dataset.busy === '0'")
        state = game_state(server, page)
        assert sorted(state["moves"]) == ["5o", "8o"] and state["safe"] == []
        # The rules page states the rule.
        rules = page.context.new_page()
        rules.goto(server.url("/rules/freecell"))
        assert "Safe moves home" in rules.inner_text("#safe-moves")
        rules.close()
        # Off for Black Hole: the setting is not even offered.
        page.goto(server.url("/play/black-hole?deal=2"))
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#safe-row").is_hidden()
    finally:
        page.context.close()


# -- the deal in the address, new deal, your games -------------------------------------------


def test_the_address_names_the_deal_and_a_fresh_browser_gets_the_same_cards(browser, server):
    # Safe moves home are off in both browsers: the cards compared are the deal's own,
    # not a snapshot taken while the first page sends its cards home.
    page = new_page(browser, "phone", NO_AUTO)
    try:
        open_game(page, server, "penguin")
        deal = page.get_attribute("body", "data-deal")
        assert page.url.endswith(f"/play/penguin?deal={deal}")
        shown = cards(page)
        other = new_page(browser, "desktop", NO_AUTO)
        try:
            other.goto(page.url)
            other.wait_for_selector("body[data-ready='1']")
            assert other.url == page.url
            assert sorted(map(tuple, cards(other))) == sorted(map(tuple, shown))
        finally:
            other.context.close()
        # A reload keeps the game (and its moves) and the address.
        first = game_state(server, page)["legal"][0]
        server.api("POST", f"/api/games/{page.get_attribute('body', 'data-game-id')}/moves", {"move": first["move"]})
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.url.endswith(f"?deal={deal}") and int(page.get_attribute("body", "data-moves")) >= 1
    finally:
        page.context.close()


def test_new_deal_asks_mid_game_and_your_games_resume(browser, server):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        first_id = open_game(page, server, "black-hole", 2)
        card = str(game_class("black-hole").deal(2).legal_moves()[0])
        page.click(f'#table [data-card="{card}"]')
        wait_moves(page, 1)
        page.click("#new-deal")
        page.wait_for_selector("#overlay.ask:not([hidden])")
        page.click("#keep-playing")
        assert page.get_attribute("body", "data-game-id") == first_id
        page.click("#new-deal")
        page.click("#confirm-new")
        page.wait_for_function(f"document.body.dataset.gameId !== '{first_id}' && document.body.dataset.busy === '0'")
        second_deal = page.get_attribute("body", "data-deal")
        assert page.url.endswith(f"?deal={second_deal}")
        # No question before the first move.
        open_menu(page)
        page.click("#yours-button")
        page.wait_for_selector(f".your-game[data-id='{first_id}']")
        assert "1 move" in page.inner_text(f".your-game[data-id='{first_id}']")
        page.click(f".your-game[data-id='{first_id}'] a")
        page.wait_for_selector(f"body[data-game-id='{first_id}'][data-ready='1']")
        wait_moves(page, 1)
        assert page.url.endswith("/play/black-hole?deal=2")
        # The lobby lists them too.
        page.goto(server.url("/"))
        page.wait_for_selector(f"#your-games [data-id='{first_id}']")
    finally:
        page.context.close()


# -- review keeps the table as it was -------------------------------------------------------


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_review_keeps_the_layout(browser, server, size):
    position, line = game_class("black-hole").deal(2), []
    while position.legal_moves():
        move = position.legal_moves()[-1]
        line.append(str(move))
        position = position.apply(move)
    page = new_page(browser, size)
    try:
        game_id = open_game(page, server, "black-hole", 2)
        play_api(server, game_id, line)
        page.reload()
        page.wait_for_selector("#overlay.lost:not([hidden])")
        piles = "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); return [n.dataset.pile, Math.round(r.left), Math.round(r.top), Math.round(r.width)]; })"
        before = page.locator("#table .pile").evaluate_all(piles)
        page.click("#where-lost")
        wait_review(page)
        page.wait_for_selector("#table .lose-src")
        assert page.locator("#table .pile").evaluate_all(piles) == before
    finally:
        page.context.close()


# -- contrast and names -----------------------------------------------------------------------

CONTRAST = """
() => {
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const parse = (s) => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const FELT = [21, 115, 79]; // the lightest felt, under the page's gradient
  const background = (node) => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let base = layers.length && layers[layers.length - 1][3] >= 1 ? layers.pop().slice(0, 3) : FELT;
    for (const c of layers.reverse()) base = base.map((v, i) => v * (1 - c[3]) + c[i] * c[3]);
    return base;
  };
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const node = t.parentElement;
    if (!t.textContent.trim() || !node || node.closest("[hidden], .card, svg, .visually-hidden, button:disabled, .menu:not(:popover-open), option")) continue;
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const style = getComputedStyle(node);
    const fg = parse(style.color);
    const bg = background(node);
    const color = fg.slice(0, 3).map((v, i) => v * fg[3] + bg[i] * (1 - fg[3]));
    const [a, b] = [lum(color), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) bad.push([t.textContent.trim().slice(0, 30), ratio.toFixed(2)]);
  }
  return bad;
}
"""


@pytest.mark.parametrize("game", ["penguin", "black-widow"])
def test_text_contrast_and_accessible_names(browser, server, game):
    page = new_page(browser, "desktop", SELECT_THEN_PLACE)
    try:
        open_game(page, server, game, DEAL)
        assert page.evaluate(CONTRAST) == []
        open_menu(page)
        assert page.evaluate(CONTRAST) == []
        page.keyboard.press("Escape")
        # Empty places and the stock have names.
        unnamed = page.evaluate("""() => [...document.querySelectorAll('#table .slot')]
            .filter(s => !s.parentElement.querySelector('.card[data-card]') && !s.closest('.stock') && s.parentElement.classList.contains('column') || s.classList.contains('cell-base') || s.classList.contains('foundation-base'))
            .filter(s => !s.parentElement.querySelector('.card[data-card]'))
            .filter(s => !s.getAttribute('aria-label')).length""")
        assert unnamed == 0
        if game == "black-widow":
            assert "deals left" in page.get_attribute("#table .stock", "aria-label")
        # Each move is announced, politely.
        assert page.get_attribute("#announce", "aria-live") == "polite"
        entry = game_state(server, page)["legal"][0]
        if entry["from"] != "stock":
            position = game_class(game).deal(DEAL)
            lead = card_at(page, entry["from"], lead_index(position, entry))
            lead.click(position={"x": 6, "y": 4})
            page.locator(f'#table .target[data-drop="{entry["to"]}"]').first.click()
            page.wait_for_function("document.querySelector('#announce').textContent.length > 0")
    finally:
        page.context.close()


def test_error_pages_are_pages(page, server):
    response = page.goto(server.url("/play/no-such-game"))
    assert response.status == 404
    assert "no-such-game" in page.inner_text("main")
    page.click("text=See all games")
    page.wait_for_selector(".game-tile")
