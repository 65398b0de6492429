"""What the browser tests do on the game page, in a player's terms."""

from __future__ import annotations


def open_game(page, server, game: str, deal: int | None = None, query: str = "") -> str:
    """Open the game page (deal ``deal`` if given) and wait until the table is drawn;
    return the stored game's id."""
    path = f"/play/{game}"
    if deal is not None:
        path += f"?deal={deal}"
    elif query:
        path += "?" + query
    page.goto(server.url(path))
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#table .card")
    return page.get_attribute("body", "data-game-id")


def wait_moves(page, count: int) -> None:
    """Wait until the page shows ``count`` moves played (and no request is pending)."""
    page.wait_for_selector(f"body[data-moves='{count}'][data-busy='0']")


def game_state(server, page) -> dict:
    return server.api("GET", f"/api/games/{page.get_attribute('body', 'data-game-id')}")


def drag(page, source, target, steps: int = 12) -> None:
    """Drag with the mouse from the middle of the top strip of ``source`` to the middle
    of ``target`` (two locators)."""
    box = source.bounding_box()
    goal = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + min(box["height"], 18) / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=steps)
    page.mouse.up()
