"""Grades on the web side (issue 33): Winnable mode by grade, the grade kept beside a
deal's verdict and shown in its state, the Daily's grade following the week, and a
player's month of Dailies (points, badge, streaks), on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import hashlib
import random

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from dailies import seeded_draws
from webapp import browser, make_app, signup
from winnable import Budget, solve
from winnable.blackhole import BlackHole
from winnable.decks import Deck
from winnable.grading import NotGradable, grade_deal, grade_position
from winnable.storage.tables import DailyDeal
from winnable.storage.verdicts import VerdictRow
from winnable.web.play.pool import Found
from winnable.web.players import daily as daily_module
from winnable.web.players.daily import draw_layout

GAME = "black-hole"
GRADES = ("easy", "medium", "hard", "expert")
MONDAY = dt.datetime(2026, 11, 23, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def app(sqlite_and_postgres_url):
    app = make_app(sqlite_and_postgres_url)
    yield app
    app.state.services.engine.dispose()


def graded_deals(count: int = 40) -> dict[str, list[int]]:
    """The first Black Hole deals by grade, as :mod:`winnable.grading` grades them."""
    found: dict[str, list[int]] = {}
    for deal in range(1, count + 1):
        try:
            found.setdefault(grade_deal(GAME, deal).grade.value, []).append(deal)
        except NotGradable:
            continue
    return found


def line_of(position) -> tuple[str, ...]:
    return tuple(str(move) for move in solve(position, Budget(seconds=10)).line)


def stored_grades(app) -> dict[int, str | None]:
    with Session(app.state.services.engine) as session:
        rows = session.execute(select(VerdictRow.deal, VerdictRow.grade).where(VerdictRow.game == GAME, VerdictRow.verdict == "won"))
        return {int(deal): grade for deal, grade in rows}


# -- Winnable mode by grade -------------------------------------------------------------------
def test_winnable_mode_by_grade_deals_a_deal_of_that_grade(app):
    by_grade = graded_deals()
    present = [grade for grade in GRADES if grade in by_grade]
    assert len(present) >= 2, by_grade
    offered, absent = present[:-1], present[-1]  # one grade the solver has graded but the pool lacks
    pool = app.state.services.pool
    for grade in offered:
        for deal in by_grade[grade][:2]:
            assert pool.add(Found(GAME, deal, line_of(BlackHole.deal(deal)), grade=grade))
    with browser(app) as client:
        for grade in offered:
            for _ in range(3):  # two unused deals, then one dealt before: each of that grade
                response = client.post("/api/games", json={"game": GAME, "winnable": True, "grade": grade})
                assert response.status_code == 201, response.text
                state = response.json()
                assert state["grade"] == grade and state["winnable_deal"] is True
                assert grade_deal(GAME, state["deal"]).grade.value == grade
                assert state["deal"] in by_grade[grade][:2]
        refused = client.post("/api/games", json={"game": GAME, "winnable": True, "grade": absent})
        assert refused.status_code == 409 and refused.json()["code"] == "no_graded_deal"
        assert absent in refused.json()["detail"] and "Black Hole" in refused.json()["detail"]
        french = client.post("/api/games?lang=fr", json={"game": GAME, "winnable": True, "grade": absent})
        assert french.status_code == 409 and "niveau" in french.json()["detail"]
        # Any grade: still a proved deal, with its grade.
        anyone = client.post("/api/games", json={"game": GAME, "winnable": True}).json()
        assert anyone["grade"] in offered
        # A deal asked for by number shows the grade the pool keeps of it, else null.
        known = by_grade[offered[0]][0]
        assert client.post("/api/games", json={"game": GAME, "deal": known}).json()["grade"] == offered[0]
        unknown = next(deal for deal in range(41, 200) if deal not in stored_grades(app))
        assert client.post("/api/games", json={"game": GAME, "deal": unknown}).json()["grade"] is None


def test_a_bad_grade_is_refused_with_a_reason(app):
    with browser(app) as client:
        for body in (
            {"game": GAME, "winnable": True, "grade": "brutal"},
            {"game": GAME, "winnable": True, "grade": 3},
            {"game": GAME, "winnable": True, "grade": "EASY"},
        ):
            response = client.post("/api/games", json=body)
            assert response.status_code == 422, body
        alone = client.post("/api/games", json={"game": GAME, "grade": "easy"})
        assert alone.status_code == 409 and alone.json()["code"] == "bad_grade" and "winnable" in alone.json()["detail"]


def test_the_filler_grades_every_deal_it_proves_and_the_deals_a_survey_stored(app):
    pool = app.state.services.pool
    assert pool.fill(GAME, 3, seconds=60) == 3
    grades = stored_grades(app)
    assert len(grades) == 3
    for deal, grade in grades.items():
        assert grade == grade_deal(GAME, deal).grade.value
    # A survey's won deal comes without a grade: the filler grades it, with no search.
    survey = next(deal for deal in range(1, 100) if deal not in grades and solve(BlackHole.deal(deal), Budget(seconds=5)).won)
    line = list(line_of(BlackHole.deal(survey)))
    pool.store.record([{"game": GAME, "deal": survey, "verdict": "won", "moves": len(line), "line": line}], "survey")
    assert stored_grades(app)[survey] is None
    attempts = pool.attempts
    assert pool.grade_stored(GAME) is True
    assert stored_grades(app)[survey] == grade_deal(GAME, survey).grade.value and pool.attempts == attempts
    assert pool.grade_stored(GAME) is False  # nothing left to grade


def test_the_pool_wants_deals_while_a_grade_is_short(app):
    pool = app.state.services.pool
    pool.settings.size, pool.settings.per_grade, pool.settings.most, pool.settings.games = 2, 1, 4, [GAME]
    by_grade = graded_deals()
    first, second = [grade for grade in GRADES if grade in by_grade][:2]
    for grade in (first, second):
        deal = by_grade[grade][0]
        pool.add(Found(GAME, deal, line_of(BlackHole.deal(deal)), grade=grade))
    # Two unused deals (its size), but not every grade: it goes on...
    assert pool.ready(GAME) == 2 and pool.needs(GAME) and set(pool.short_grades(GAME)) == set(GRADES) - {first, second}
    extra = [deal for deal in by_grade[first][1:3]]
    for deal in extra:
        pool.add(Found(GAME, deal, line_of(BlackHole.deal(deal)), grade=first))
    # ...up to `most` unused deals: then a rare grade waits for deals to be dealt.
    assert pool.ready(GAME) == 4 and not pool.needs(GAME)
    # A survey's deals are graded however many the game holds, with no search.
    survey = next(deal for deal in range(41, 200) if solve(BlackHole.deal(deal), Budget(seconds=5)).won)
    line = list(line_of(BlackHole.deal(survey)))
    pool.store.record([{"game": GAME, "deal": survey, "verdict": "won", "moves": len(line), "line": line}], "survey")
    assert pool.needs(GAME)
    attempts = pool.attempts
    assert pool._fill_round(random.Random(1)) is True and pool.attempts == attempts
    assert stored_grades(app)[survey] == grade_deal(GAME, survey).grade.value
    assert not pool.needs(GAME)


# -- the Daily's grade ------------------------------------------------------------------------
def graded_by_digest(game: str, deck: Deck) -> str:
    """A stand-in grader (cheap, exact for the deck): the grade a digest of its cards names."""
    return GRADES[hashlib.sha256(str(deck).encode()).digest()[0] % 4]


def fresh_draws(app, seed: int = 5):
    """A new winnable deck order at every draw (a seeded generator, as the server's)."""
    rng = random.Random(seed)
    app.state.services.daily.draw = lambda game: draw_layout(BlackHole, rng)


def test_the_dailys_grade_follows_the_week(app, now):
    proved(app)
    fresh_draws(app)
    app.state.services.daily.grade = graded_by_digest
    week = dict(zip(range(7), ("easy", "easy", "medium", "medium", "hard", "hard", "expert")))
    with browser(app) as client:
        signup(client)
        for offset in range(7):
            now.at = MONDAY + dt.timedelta(days=offset)
            expected = week[now.at.weekday()]
            overview = client.get("/api/daily").json()
            assert entry_of(overview)["grade"] == expected  # shown before the Daily is drawn...
            state = client.get(f"/api/daily/{GAME}").json()
            assert state["grade"] == expected  # ...drawn at it...
            deck = stored_deck(app, now.at.date())
            assert graded_by_digest(GAME, deck) == expected  # ...as its cards are graded
            assert entry_of(client.get("/api/daily").json())["grade"] == expected
            board = client.get(f"/api/daily/{GAME}/leaderboard").json()
            assert board["grade"] == expected  # and on the leaderboard
            assert client.get(f"/api/games/{state['id']}").json()["grade"] == expected


def test_a_daily_of_the_days_grade_not_found_is_the_nearest_grade_drawn(app, now, monkeypatch):
    monkeypatch.setattr(daily_module, "GRADE_TRIES", 6)  # the bound, reached sooner
    proved(app)
    fresh_draws(app)
    daily = app.state.services.daily
    with browser(app) as client:
        signup(client)
        now.at = MONDAY + dt.timedelta(days=6)  # a Sunday: expert
        daily.grade = lambda game, deck: "hard"  # never expert
        assert client.get(f"/api/daily/{GAME}").json()["grade"] == "hard"
        assert client.get(f"/api/daily/{GAME}/leaderboard").json()["grade"] == "hard"
        now.at = MONDAY + dt.timedelta(days=7)  # a Monday: easy
        grades = iter(["expert", "hard", "expert", "expert", "expert", "expert"])
        daily.grade = lambda game, deck: next(grades)
        assert client.get(f"/api/daily/{GAME}").json()["grade"] == "hard"  # nearer to easy than expert


def test_the_dailys_grade_is_its_cards_grade(app, now):
    """With the real grading: whatever grade the draw ends on, it is the deck's own."""
    proved(app)
    fresh_draws(app)
    with browser(app) as client:
        signup(client)
        now.at = MONDAY + dt.timedelta(days=2)
        state = client.get(f"/api/daily/{GAME}").json()
        deck = stored_deck(app, now.at.date())
        assert state["grade"] == grade_position(BlackHole.from_deck(deck)).grade.value


def proved(app, deal: int = 3) -> None:
    """A proved Black Hole deal in the pool: the game has Dailies."""
    app.state.services.pool.add(Found(GAME, deal, line_of(BlackHole.deal(deal))))


def entry_of(overview: dict) -> dict:
    return next(game for game in overview["games"] if game["game"] == GAME)


def stored_deck(app, day: dt.date) -> Deck:
    from winnable.web.play.lookup import deck_of

    with Session(app.state.services.engine) as session:
        return deck_of(session.get(DailyDeal, (GAME, day)).layout)


# -- a month of Dailies -----------------------------------------------------------------------
def win_daily(client, app) -> dict:
    state = client.get(f"/api/daily/{GAME}").json()
    for text in app.state.line:
        response = client.post(f"/api/games/{state['id']}/moves", json={"move": text})
        assert response.status_code == 200, response.text
    assert response.json()["status"] == "won"
    return response.json()


def test_the_month_calendar_points_badge_and_streaks_come_from_the_stored_attempts(app, now):
    proved(app)
    seeded_draws(app)  # the same deck every day: its winning line is app.state.line
    daily = app.state.services.daily
    start = dt.datetime(2026, 11, 2, 12, tzinfo=dt.timezone.utc)  # a Monday
    # Days of November 2026 and the grade each Daily is drawn at (the stand-in grader).
    wins = {2: "easy", 3: "easy", 4: "medium", 5: "medium", 6: "hard", 7: "hard", 8: "expert", 20: "hard", 21: "hard"}
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        for number, grade in wins.items():
            now.at = start.replace(day=number)
            daily.grade = lambda game, deck, grade=grade: grade
            win_daily(ada, app)
        now.at = start.replace(day=10)  # ada starts one and leaves it: lost once the day is over
        daily.grade = lambda game, deck: "medium"
        ada.get(f"/api/daily/{GAME}")
        now.at = start.replace(day=12)  # bob plays a day ada does not
        bob.get(f"/api/daily/{GAME}")
        now.at = start.replace(day=22)  # today: ada has not played yet
        calendar = ada.get("/api/daily/calendar?month=2026-11")
        assert calendar.status_code == 200, calendar.text
        month = calendar.json()
        assert month["month"] == "2026-11" and month["today"] == "2026-11-22" and len(month["days"]) == 30
        days = {day["date"]: day for day in month["days"]}
        assert days["2026-11-02"]["weekday"] == 1 and days["2026-11-02"]["grade"] == "easy"
        assert days["2026-11-08"]["grade"] == "expert" and days["2026-11-22"]["today"] and days["2026-11-23"]["future"]
        assert days["2026-11-08"]["games"] == [{"game": GAME, "title": "Black Hole", "status": "won", "grade": "expert", "points": 5}]
        assert days["2026-11-10"]["games"] == [{"game": GAME, "title": "Black Hole", "status": "lost", "grade": "medium", "points": 0}]
        assert days["2026-11-12"]["games"] == [
            {"game": GAME, "title": "Black Hole", "status": "not_played", "grade": "medium", "points": 0}
        ]
        assert days["2026-11-12"]["played"] == 0 and days["2026-11-10"]["played"] == 1
        assert days["2026-11-01"]["games"] == [] and days["2026-11-30"]["games"] == []
        points = {"easy": 1, "medium": 2, "hard": 3, "expert": 5}
        assert month["won"] == 9 and month["played"] == 10
        assert month["points"] == sum(points[grade] for grade in wins.values()) == 23
        assert month["badge"] == "bronze" and month["next_badge"] == "silver" and month["to_next_badge"] == 6
        # Days 2-8 in a row (the best), then 20-21 (the current: today has no win yet).
        assert month["streaks"] == {"current": 2, "best": 7}
        assert month["points_by_grade"] == points and month["badges"] == {"bronze": 5, "silver": 15, "gold": 30}
        # Today won: the current streak reaches today.
        daily.grade = lambda game, deck: "expert"
        win_daily(ada, app)
        month = ada.get("/api/daily/calendar?month=2026-11").json()
        assert month["streaks"] == {"current": 3, "best": 7} and month["points"] == 28
        today = next(day for day in month["days"] if day["today"])
        assert today["won"] == 1 and today["points"] == 5
        # Bob's month is his own; another month is empty; the default is this month.
        theirs = bob.get("/api/daily/calendar?month=2026-11").json()
        assert theirs["won"] == 0 and theirs["streaks"] == {"current": 0, "best": 0} and theirs["badge"] is None
        assert ada.get("/api/daily/calendar").json()["month"] == "2026-11"
        october = ada.get("/api/daily/calendar?month=2026-10").json()
        assert october["won"] == 0 and all(not day["games"] for day in october["days"]) and len(october["days"]) == 31
        assert october["streaks"]["best"] == 7  # streaks run over every month


def test_a_bad_month_is_refused_and_guests_are_told_to_sign_in(app, now):
    now.at = dt.datetime(2026, 11, 22, 12, tzinfo=dt.timezone.utc)
    with browser(app) as client:
        guest = client.get("/api/daily/calendar?month=2026-11")
        assert guest.status_code == 401 and guest.json()["code"] == "sign_in_required"
        signup(client)
        for month in ("2026-13", "2026-1", "26-11", "2026-00", "november", "2026-11-01", "0000-01", "2026_11"):
            response = client.get("/api/daily/calendar", params={"month": month})
            assert response.status_code == 422, month
        future = client.get("/api/daily/calendar?month=2026-12")
        assert future.status_code == 404 and future.json()["code"] == "bad_month"
        assert client.get("/api/daily/calendar?month=2024-02").json()["days"][-1]["date"] == "2024-02-29"
