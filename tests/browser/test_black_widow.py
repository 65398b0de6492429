"""Black Widow in a real browser: deal the stock, complete a run by clicks and drags,
reload, and a hint that says it knows the hidden cards."""

from __future__ import annotations

import pytest

from browser_helpers import drag, game_state, open_game, wait_moves

GAME = "black-widow"
DEAL = 4  # the solver wins it; its first run leaves the table after 132 moves
BROWSER_MOVES = 8  # moves played with the mouse before (and up to) the first completed run


@pytest.fixture
def widow(server):
    assert GAME in server.catalog_ids()
    from winnable.games import game_class

    return game_class(GAME)


def column_cards(page, index: int) -> list[str | None]:
    return page.locator(f'#table [data-place="column:{index}"]').evaluate_all("nodes => nodes.map(n => n.dataset.card || null)")


def test_deal_the_stock(page, server, widow):
    open_game(page, server, GAME, DEAL)
    start = widow.deal(DEAL)
    before = [column_cards(page, i) for i in range(10)]
    assert [len(cards) for cards in before] == [len(c.down) + len(c.up) for c in start.columns]
    assert all(cards[-1] is not None for cards in before)  # the top cards are face up
    assert all(None in cards for cards in before)  # and the others are backs
    assert "5" in page.inner_text("#table .stock")
    page.click("#table .stock")
    wait_moves(page, 1)
    after = [column_cards(page, i) for i in range(10)]
    assert [len(cards) for cards in after] == [len(cards) + 1 for cards in before]
    dealt = start.play("deal")
    assert [cards[-1] for cards in after] == [str(column.up[-1]) for column in dealt.columns]
    assert "4" in page.inner_text("#table .stock")
    assert game_state(server, page)["moves"] == ["deal"]
    page.click("#undo")
    wait_moves(page, 0)
    assert "5" in page.inner_text("#table .stock")


def test_complete_a_run(page, server, widow):
    from winnable.solver import Budget, solve
    from winnable.web.views import click_choices

    verdict = solve(widow.deal(DEAL), Budget(seconds=120))
    assert verdict.won
    line = [str(move) for move in verdict.line]
    position, done = widow.deal(DEAL), None
    for index, move in enumerate(line):
        position = position.play(move)
        if position.foundations:
            done = index + 1
            break
    assert done is not None
    first = max(0, done - BROWSER_MOVES)

    game_id = open_game(page, server, GAME, DEAL)
    for move in line[:first]:
        server.api("POST", f"/api/games/{game_id}/moves", {"move": move})
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    wait_moves(page, first)

    position = widow.deal(DEAL).play_line(line[:first])
    for offset, move in enumerate(line[first:done]):
        choices = click_choices(position)
        entry = next(e for e in choices if e["move"] == move)
        if entry["from"] == "stock":
            page.click("#table .stock")
        else:
            column = position.columns[int(entry["from"].split(":")[1])]
            index = len(column.down) + len(column.up) - entry["count"]
            card = page.locator(f'#table [data-place="{entry["from"]}"][data-index="{index}"]')
            assert card.get_attribute("data-card") == entry["card"]
            if offset % 2:  # pick up, put down
                card.click(position={"x": 8, "y": 5})
                page.click(f'#table [data-drop="{entry["to"]}"].target')
            else:
                drag(page, card, page.locator(f'#table [data-drop="{entry["to"]}"]'))
        position = position.play(move)
        wait_moves(page, first + offset + 1)

    suit = position.foundations[0].char
    page.wait_for_selector('#table [data-place="runs"]')
    assert page.get_attribute('#table [data-place="runs"]', "data-card") == f"K{suit}"
    shown = sum(len(column_cards(page, i)) for i in range(10))
    assert shown == sum(len(c.down) + len(c.up) for c in position.columns)
    assert game_state(server, page)["position"]["foundations"] == [suit]


def test_hint_knows_the_hidden_cards(page, server, widow):
    open_game(page, server, GAME, DEAL)
    page.click("#hint")
    page.wait_for_function("document.querySelector('#message').textContent.includes('face-down')", timeout=30_000)
    assert "face-down cards" in page.inner_text("#message")
