"""Tapping Hint quickly (issue 21, item 8), against a server whose limits are on and
tight: one search a minute, one place in the solver at a time for each address.

The page asks one hint at a time (taps while the answer is on its way ask nothing more),
and hints that come from the game's kept line cost no search, no solver quota and no
share of the solver: a player who follows the hints for a dozen moves is never told to
wait.
"""

from __future__ import annotations

import pytest

from browser_helpers import NO_AUTO, new_page, open_game, settled, start_server, stop_server, wait_moves
from touch_helpers import axe_violations

GAME, DEAL, FOLLOWED = "black-hole", 2, 12


@pytest.fixture(scope="module")
def tight_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("winnable-hint-limits")
    running = start_server(
        folder / "games.db",
        folder / "server.log",
        env_extra={
            "WINNABLE_RATE_LIMITS": "1",
            "WINNABLE_LIMIT_SOLVER": "1/minute",
            "WINNABLE_SOLVER_QUEUE_PER_CLIENT": "1",
        },
    )
    yield running
    stop_server(running)


def hints_used(server, page) -> int:
    return server.api("GET", f"/api/games/{page.get_attribute('body', 'data-game-id')}")["hints_used"]


def wait_hint(page) -> str:
    # Shown: a move hides the last hint (it keeps its words) until the next one replaces it.
    page.wait_for_function("document.querySelector('#message.hint:not([hidden]) b')?.textContent === 'Hint:'")
    return page.inner_text("#message")


def test_tapping_hint_quickly_and_following_it(browser, tight_server):
    page = new_page(browser, "phone", NO_AUTO)
    try:
        open_game(page, tight_server, GAME, DEAL)
        asked = []
        page.on("request", lambda request: "/hint" in request.url and asked.append(request))
        for _ in range(3):  # three quick taps: one question
            page.tap("#hint")
        wait_hint(page)
        settled(page)
        for request in asked:  # every question the taps sent has its answer
            request.response()
        assert len(asked) == 1 and hints_used(tight_server, page) == 1
        assert axe_violations(page) == []
        for played in range(1, FOLLOWED + 1):
            page.locator("#table .hint-src").first.tap()
            wait_moves(page, played)
            page.tap("#hint")
            text = wait_hint(page)
            assert "too many" not in text and "wait" not in text
        assert hints_used(tight_server, page) == FOLLOWED + 1
        assert not page.page_errors
    finally:
        page.context.close()
