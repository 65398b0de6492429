"""Grades and a month of Dailies in the browser (issue 33): the menu's grade deals a deal
of that grade and shows it; the Daily's grade is shown before playing (the Daily page,
the lobby) and on the leaderboard; the month calendar on a 320 px phone, in English,
French and Dutch, has nothing cut, answers the keyboard, and axe-core finds nothing."""

from __future__ import annotations

import datetime as dt
import sqlite3

import pytest

from browser_helpers import NO_AUTO, close_menu, new_page, open_menu, start_server, stop_server
from screen_checks import axe_violations, cut_or_off, dump
from test_daily_screens import call, sign_up, table_of
from winnable.solver import solve
from winnable.web.players.daily import grade_of_day

GRADES = ("easy", "medium", "hard", "expert")


@pytest.fixture(scope="module")
def month_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("winnable-daily-month")
    running = start_server(
        folder / "month.db", folder / "server.log", {"WINNABLE_ARGON2_MEMORY_KIB": "1024", "WINNABLE_ARGON2_TIME_COST": "1"}
    )
    running.database = folder / "month.db"
    yield running
    stop_server(running)


def pooled_grades(server) -> dict[str, int]:
    """Unused proved Black Hole deals in the server's pool, by grade (the filler graded them)."""
    with sqlite3.connect(server.database) as connection:
        rows = connection.execute(
            "SELECT grade, count(*) FROM verdicts WHERE game = 'black-hole' AND verdict = 'won' AND used_at IS NULL GROUP BY grade"
        ).fetchall()
    return {grade: count for grade, count in rows if grade is not None}


def test_choosing_a_grade_deals_a_deal_of_that_grade_and_shows_it(browser, month_server):
    pooled = pooled_grades(month_server)
    assert pooled, "the pool's deals are graded"
    chosen = next(iter(pooled))
    absent = next((grade for grade in GRADES if grade not in pooled), None)
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        page.goto(month_server.url("/play/black-hole"))
        page.wait_for_selector("body[data-ready='1']")
        open_menu(page)
        assert page.locator("#grade-choice").input_value() == ""  # any grade, at first
        assert page.locator("#grade-choice option").all_inner_texts() == ["Any grade", "Easy", "Medium", "Hard", "Expert"]
        page.select_option("#grade-choice", chosen)
        close_menu(page)
        page.click("#new-deal")
        page.wait_for_selector(f"#deal-grade:not([hidden]) .grade-badge[data-grade='{chosen}']")
        state = month_server.api("GET", f"/api/games/{page.get_attribute('body', 'data-game-id')}")
        assert state["grade"] == chosen and state["winnable_deal"]
        # Remembered like the other settings: the next visit asks for the same grade.
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#grade-choice").input_value() == chosen
        # Switching winnable deals off leaves the grade unused, and says so.
        open_menu(page)
        page.locator("label[for='winnable-toggle']").click()
        assert page.locator("#grade-choice").is_disabled()
        page.locator("label[for='winnable-toggle']").click()
        assert not page.locator("#grade-choice").is_disabled()
        if absent is not None:
            # None of that grade proved yet: a proved deal of another grade, and a word why.
            page.select_option("#grade-choice", absent)
            close_menu(page)
            before = page.get_attribute("body", "data-game-id")
            page.click("#new-deal")
            page.wait_for_function(f"document.body.dataset.gameId && document.body.dataset.gameId !== '{before}'")
            page.wait_for_function("document.querySelector('#message:not([hidden])')?.textContent.includes('another grade')")
            state = month_server.api("GET", f"/api/games/{page.get_attribute('body', 'data-game-id')}")
            assert state["winnable_deal"] and state["grade"] != absent
    finally:
        page.context.close()


def test_the_dailys_grade_is_shown_before_playing_and_on_the_leaderboard(browser, month_server):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        sign_up(page, month_server, "grader")
        status, overview = call(page, "GET", "/api/daily")
        entry = next(game for game in overview["games"] if game["game"] == "black-hole")
        today = dt.date.fromisoformat(overview["date"])
        # Not drawn yet (drawn with the first attempt): the grade of the day, which
        # follows the week; drawn: its own.
        assert entry["grade"] in GRADES
        if entry["players"] == 0:
            assert entry["grade"] == grade_of_day(today).value
        page.goto(month_server.url("/daily?game=black-hole"))
        page.wait_for_selector("#daily-grade:not([hidden]) .grade-badge")
        assert page.get_attribute("#daily-grade .grade-badge", "data-grade") == entry["grade"]
        page.goto(month_server.url("/"))
        page.wait_for_selector("#daily-banner .daily-item[data-game='black-hole'] .grade-badge")
        shown = page.get_attribute("#daily-banner .daily-item[data-game='black-hole'] .grade-badge", "data-grade")
        assert shown == entry["grade"]
        status, state = call(page, "GET", "/api/daily/black-hole")
        assert status == 200 and state["grade"] in GRADES
        drawn = state["grade"]
        page.goto(month_server.url(f"/play/black-hole?id={state['id']}"))
        page.wait_for_selector(f"#deal-grade:not([hidden]) .grade-badge[data-grade='{drawn}']")
        page.goto(month_server.url("/daily?game=black-hole"))
        page.wait_for_selector(f"#board-title #board-grade[data-grade='{drawn}']")
        assert page.get_attribute("#daily-grade .grade-badge", "data-grade") == drawn
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_the_month_calendar_on_a_320_px_phone(browser, month_server, lang):
    page = new_page(browser, "small", NO_AUTO)
    try:
        sign_up(page, month_server, f"month_{lang}")
        status, state = call(page, "GET", "/api/daily/black-hole")
        assert status == 200
        for move in solve(table_of(state)).line:
            status, state = call(page, "POST", f"/api/games/{state['id']}/moves", {"move": str(move)})
        assert state["status"] == "won"
        page.goto(month_server.url(f"/daily?game=black-hole&lang={lang}"))
        page.wait_for_selector("#month-calendar[data-ready='1']")
        today = page.locator(".cal-day[aria-current='date']")
        assert "cal-won" in today.get_attribute("class")
        assert today.get_attribute("aria-pressed") == "true"  # today's at a glance
        assert page.locator("#calendar-today").is_visible()
        assert page.inner_text("#calendar-figures [data-figure='won'] dd") == "1"
        assert state["daily"] in page.locator(".cal-day[aria-current='date']").get_attribute("data-date")
        assert not cut_or_off(page), dump(cut_or_off(page))
        assert axe_violations(page) == []
        # The keyboard: Tab reaches today's day; arrows choose another day; its Dailies show.
        today.focus()
        page.keyboard.press("ArrowLeft" if state["daily"][-2:] != "01" else "ArrowRight")
        focused = page.evaluate("document.activeElement.dataset.date")
        assert focused and focused != state["daily"]
        assert page.get_attribute(f".cal-day[data-date='{focused}']", "aria-pressed") == "true"
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelector('#calendar-detail h3') !== null")
        # The month before, and back.
        page.click("#calendar-prev")
        page.wait_for_function(f"document.querySelector('#month-calendar').dataset.month !== '{state['daily'][:7]}'")
        assert page.locator(".cal-day[aria-current='date']").count() == 0
        assert axe_violations(page) == []
        # The statistics page shows the same month.
        page.goto(month_server.url(f"/stats?lang={lang}"))
        page.wait_for_selector("#month-calendar[data-ready='1'] .cal-day[aria-current='date'].cal-won")
        assert not cut_or_off(page), dump(cut_or_off(page))
        assert axe_violations(page) == []
    finally:
        page.context.close()
