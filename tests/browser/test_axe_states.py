"""axe-core (WCAG 2.1 A and AA) in the states players reach on the game page, at a phone's
and a desktop's size: a card picked up, the menu open, the list of one's games open.
(A win, a loss, the Daily's win and the leaderboard: test_scores_shown.py and
test_daily_screens.py.)"""

from __future__ import annotations

import pytest

from browser_helpers import new_page, open_game, open_menu
from screen_checks import axe_violations


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("game", ["penguin", "black-widow"])
def test_no_violation_with_a_card_picked_up_and_the_menu_and_dialog_open(browser, server, size, game):
    from winnable.games import game_class
    from winnable.web.views import click_choices

    page = new_page(
        browser,
        size,
        {"winnable:onetap:freecell": "0", "winnable:onetap:spider": "0", "winnable:clickmove:spider": "0", "winnable:safe-home": "0"},
    )
    try:
        open_game(page, server, game, 1)
        assert axe_violations(page) == []
        entry = next(e for e in click_choices(game_class(game).deal(1)) if e["from"] != "stock")
        cards = page.locator(f'#table [data-place="{entry["from"]}"]')
        lead = cards.nth(cards.count() - entry["count"])
        lead.click(position={"x": 10, "y": 5})
        page.wait_for_selector("#table .card.selected")
        assert axe_violations(page) == []
        page.keyboard.press("Escape")
        open_menu(page)
        assert axe_violations(page) == []
        page.click("#yours-button")
        page.wait_for_selector("#overlay.yours:not([hidden]) .your-games, #overlay.yours:not([hidden]) .overlay-body p:not(.thinking)")
        assert axe_violations(page) == []
    finally:
        page.context.close()
