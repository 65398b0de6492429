"""The words of issue 34 (item 6) as players see them: Penguin's empty flippers are called
flippers, a French challenge from a name that starts with a vowel elides ("un défi
d'anouk"), each game's leaderboard says how it ranks (Penguin by speed score), names on
a challenge's board stay whole at 320 px, the statistics chart's labels are readable at
320 px, and a timed deal lost before its first move says so (not "0 moves · 0:00")."""

from __future__ import annotations

import pytest

from browser_helpers import NO_AUTO, new_page, open_game, sign_up
from browser_helpers import page_api as api

FLIPPER = {"en": "Flipper 1, empty", "fr": "Nageoire 1, vide", "nl": "Vin 1, leeg"}
FREE_CELL = {"en": "Free cell 1, empty", "fr": "Cellule libre 1, vide", "nl": "Vrije cel 1, leeg"}


def empty_cells(page) -> list[str]:
    return page.locator("#table .cell [aria-label]").evaluate_all("nodes => nodes.map((n) => n.getAttribute('aria-label'))")


@pytest.mark.parametrize("lang", list(FLIPPER))
def test_penguins_cells_are_flippers_and_freecells_free_cells(browser, server, lang):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        open_game(page, server, "penguin", query=f"deal=1&lang={lang}")
        assert FLIPPER[lang] in empty_cells(page), empty_cells(page)
        open_game(page, server, "freecell", query=f"deal=1&lang={lang}")
        assert FREE_CELL[lang] in empty_cells(page) and FLIPPER[lang] not in empty_cells(page), empty_cells(page)
    finally:
        page.context.close()


def one_line(page, selector: str) -> bool:
    """Whether the text of ``selector`` lies on one line."""
    return page.eval_on_selector(
        selector,
        "node => { const r = document.createRange(); r.selectNodeContents(node.firstChild); return r.getClientRects().length === 1; }",
    )


def test_a_challenge_elides_words_its_ranking_rule_and_keeps_names_whole(browser, server):
    maker = new_page(browser, "desktop", NO_AUTO)
    player = new_page(browser, "small", NO_AUTO)
    try:
        sign_up(maker, server, "anouk34", "fr")
        game_id = open_game(maker, server, "penguin", 2)
        status, made = api(maker, "POST", "/api/challenges", {"game_id": game_id})
        assert status == 201, made
        maker.goto(server.url(f"/challenge/{made['id']}?lang=fr"))
        maker.wait_for_selector("body[data-ready='1']")
        assert maker.inner_text("#challenge-title") == "Penguin\xa0: un défi d'anouk34"
        maker.wait_for_selector("#ranking-rule[data-ranking='speed']")
        assert "score de vitesse" in maker.inner_text("#ranking-rule")

        sign_up(player, server, "bartholomeus34", "nl")
        status, attempt = api(player, "POST", f"/api/challenges/{made['id']}/play", {})
        assert status in (200, 201), attempt
        player.goto(server.url(f"/challenge/{made['id']}?lang=nl"))
        player.wait_for_selector("#board-table td")
        assert player.inner_text("#challenge-title") == "Penguin: een uitdaging van anouk34"
        cell = "#board-table tbody tr td:nth-child(2)"
        assert "bartholomeus34" in player.inner_text(cell) and one_line(player, cell)
    finally:
        maker.context.close()
        player.context.close()


def test_a_time_game_ranks_by_time(browser, server):
    page = new_page(browser, "desktop")
    try:
        page.goto(server.url("/daily?game=black-hole"))
        page.wait_for_selector("#ranking-rule[data-ranking]")
        assert page.get_attribute("#ranking-rule", "data-ranking") == "time"
        assert page.inner_text("#ranking-rule") == "Wins rank by time, then moves; the rest by cards left."
    finally:
        page.context.close()


def test_the_stats_chart_labels_are_readable_on_a_small_phone(browser, server):
    page = new_page(browser, "small", NO_AUTO)
    try:
        sign_up(page, server, "chartreader34", "en")
        game_id = open_game(page, server, "black-hole", 1)
        status, state = api(page, "GET", f"/api/games/{game_id}")
        status, _ = api(page, "POST", f"/api/games/{game_id}/moves", {"move": state["legal"][0]["move"]})
        assert status == 200
        page.goto(server.url("/stats"))
        page.wait_for_selector("#results-plot text.axis")
        sizes = page.locator("#results-plot text.axis").evaluate_all(
            "nodes => nodes.map((n) => parseFloat(getComputedStyle(n).fontSize) * n.ownerSVGElement.getScreenCTM().a)"
        )
        assert min(sizes) >= 10, sizes
    finally:
        page.context.close()


def test_a_timed_deal_lost_before_its_first_move_says_so(browser, server):
    page = new_page(browser, "phone", NO_AUTO | {"winnable:think:black-hole": "10"})
    try:
        open_game(page, server, "black-hole", query="deal=5&lang=fr")
        page.wait_for_selector("#think-left:not([hidden])")
        page.wait_for_selector("#timed-out-where", timeout=40_000)
        text = page.inner_text("#timed-out-where")
        assert text == "Le temps s'est écoulé avant votre premier coup\xa0: la donne est restée telle qu'elle a été distribuée."
        assert "0:00" not in text
    finally:
        page.context.close()
