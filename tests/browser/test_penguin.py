"""Penguin in a real browser: the table (cells, foundations from the beak's rank,
columns), click-to-move, dragging to a free cell, the score."""

from __future__ import annotations

import pytest

from browser_helpers import NO_AUTO, drag, game_state, new_page, open_game, wait_moves

GAME = "penguin"
DEAL = 1


@pytest.fixture
def penguin(server):
    assert GAME in server.catalog_ids()
    from winnable.games import game_class

    return game_class(GAME)


def test_the_table(page, server, penguin):
    from winnable.web.views import player_view

    open_game(page, server, GAME, DEAL)
    position = penguin.deal(DEAL)
    view = player_view(position)
    assert page.locator("#table .cell").count() == len(view["cells"])
    assert page.locator("#table .foundation").count() == 4
    for index, column in enumerate(view["columns"]):
        shown = page.locator(f'#table [data-place="column:{index}"]').evaluate_all("nodes => nodes.map(n => n.dataset.card)")
        assert shown == column
    for foundation in view["foundations"]:
        slot = page.locator(f'#table .foundation[data-suit="{foundation["suit"]}"]')
        if foundation["cards"]:
            assert slot.locator(".card").last.get_attribute("data-card") == foundation["cards"][-1]
        else:  # the empty foundation names the rank it starts from
            base = view["base_rank"].replace("T", "10")
            assert base in slot.inner_text()
    assert "/52" in page.inner_text("#score")


def test_click_and_drag(browser, server, penguin):
    from winnable.web.views import click_choices

    page = new_page(browser, "desktop", NO_AUTO)
    open_game(page, server, GAME, DEAL)
    position = penguin.deal(DEAL)
    # A click picks the card up, a click on a marked place puts it there.
    entry = click_choices(position)[0]
    column = position.columns[int(entry["from"].split(":")[1])] if entry["from"].startswith("column") else None
    index = len(column) - entry["count"] if column is not None else 0
    page.locator(f'#table [data-place="{entry["from"]}"][data-index="{index}"]').click(position={"x": 10, "y": 5})
    page.locator(f'#table .target[data-drop="{entry["to"]}"]').first.click()
    wait_moves(page, 1)
    assert game_state(server, page)["moves"] == [entry["move"]]
    position = position.play(entry["move"])

    # Dragging chooses the place: a top card into a free cell.
    choices = click_choices(position)
    to_cell = next(e for e in choices if e["to"].startswith("cell:") and e["from"].startswith("column:") and e["count"] == 1)
    source = position.columns[int(to_cell["from"].split(":")[1])]
    card = page.locator(f'#table [data-place="{to_cell["from"]}"][data-index="{len(source) - 1}"]')
    drag(page, card, page.locator(f'#table [data-drop="{to_cell["to"]}"]'))
    wait_moves(page, 2)
    assert game_state(server, page)["moves"] == [entry["move"], to_cell["move"]]
    assert page.get_attribute(f'#table [data-place="{to_cell["to"]}"]', "data-card") == to_cell["card"]
    page.context.close()
