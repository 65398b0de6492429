"""Fair play (issue 30), through the API on SQLite and PostgreSQL: no solver help on the
cards of an open challenge by any route (its creator's game, a guest's copy, an unranked
copy, the deal dealt again by its number), no challenge made from a ranked attempt in
play, help again once the challenge closes; and results at a pace no person reaches
(moves posted as fast as a bot can) stored, shown to their player as not ranked, and
kept out of the Daily's and the challenges' leaderboards, while a fast person's pace is
ranked. The server's clock is moved by the test (MovedClock): nothing waits on time."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dailies import seeded_draws
from webapp import browser, make_app, signup
from winnable import Budget, solve
from winnable.blackhole import BlackHole
from winnable.storage.tables import Challenge, GameRow
from winnable.web.play.pool import Found

DEAL = 3  # a Black Hole deal the solver wins
LIFETIME = dt.timedelta(days=7)
"""A challenge is open a week (winnable.web.players.challenges.LIFETIME)."""
MEDIAN_FLOOR = 0.2
"""Seconds: the median gap between actions under which no person plays
(winnable.web.play.pace.MEDIAN_FLOOR; docs/fair-play.md)."""

BOT_GAP = dt.timedelta(milliseconds=6)
"""A bot posting a solved line: the issue's 104 moves in 0.6 s."""
PERSON_GAPS = (dt.timedelta(seconds=0.35), dt.timedelta(seconds=0.8), dt.timedelta(seconds=0.5))
"""A fast person, quick runs and short thoughts (median 0.5 s, above the floor)."""


@pytest.fixture
def app(sqlite_and_postgres_url):
    app = seeded_draws(make_app(sqlite_and_postgres_url))
    app.state.deal_line = [str(move) for move in solve(BlackHole.deal(DEAL), Budget(seconds=10)).line]
    app.state.services.pool.add(Found("black-hole", DEAL, tuple(app.state.deal_line)))  # Black Hole has Dailies
    yield app
    app.state.services.engine.dispose()


def new_game(client, deal=DEAL):
    response = client.post("/api/games", json={"game": "black-hole", "deal": deal})
    assert response.status_code == 201, response.text
    return response.json()


def make_challenge(client, game_id):
    response = client.post("/api/challenges", json={"game_id": game_id})
    assert response.status_code == 201, response.text
    return response.json()


def play(client, token, **body):
    response = client.post(f"/api/challenges/{token}/play", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def move(client, game_id, text):
    return client.post(f"/api/games/{game_id}/moves", json={"move": text})


def play_line(client, game_id, line, now, gaps):
    """Post ``line``, the server's clock moved by ``gaps`` (cycled) before each move."""
    for index, step in enumerate(line):
        now.at += gaps[index % len(gaps)]
        response = move(client, game_id, step)
        assert response.status_code == 200, response.text
    return response.json()


def helped(client, game_id):
    """The status and code of a hint and of an analysis of the game."""
    hint = client.get(f"/api/games/{game_id}/hint")
    analysis = client.get(f"/api/games/{game_id}/analysis")
    return [(answer.status_code, answer.json().get("code")) for answer in (hint, analysis)]


def challenges(app) -> int:
    with Session(app.state.services.engine) as session:
        return session.scalar(select(func.count()).select_from(Challenge)) or 0


# -- no solver help on a ranked deal ----------------------------------------------------


def test_a_ranked_attempt_in_play_makes_no_challenge(app, now):
    """Issue 30, item 1: the ranked attempt made into a challenge of its own gave its
    creator an unranked copy with hints, played move by move into the attempt."""
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        ranked = play(bob, token)
        refused = bob.post("/api/challenges", json={"game_id": ranked["id"]})
        assert refused.status_code == 409 and refused.json()["code"] == "challenge_ranked"
        assert "ranked" in refused.json()["detail"]
        assert challenges(app) == 1  # nothing written
        # The Daily's attempt, while its day lasts, neither.
        daily = bob.get("/api/daily/black-hole").json()
        assert bob.post("/api/challenges", json={"game_id": daily["id"]}).json()["code"] == "challenge_daily"
        # Once the attempt is over it may become a challenge (its cards stay without help).
        play_line(bob, ranked["id"], app.state.deal_line, now, PERSON_GAPS)
        again = make_challenge(bob, ranked["id"])
        assert again["open"] and challenges(app) == 2
        assert helped(bob, play(bob, again["id"])["id"]) == [(403, "challenge_open")] * 2


def test_no_game_of_an_open_challenges_cards_gets_help_until_it_closes(app, now):
    """Issue 30, item 2: a guest's copy (or the creator's, or an unranked one, or the
    deal dealt by its number) as the hint source of a ranked attempt."""
    with browser(app) as ada, browser(app) as bob, browser(app) as guest, browser(app) as eve:
        signup(ada, "ada")
        signup(bob, "bob")
        signup(eve, "eve")
        source = new_game(ada)
        assert helped(ada, source["id"]) == [(200, None), (200, None)]  # an ordinary game before
        made = make_challenge(ada, source["id"])
        token = made["id"]
        ranked = play(bob, token)
        copies = {
            "the creator's game": (ada, source["id"]),
            "the creator's copy": (ada, play(ada, token)["id"]),
            "a guest's copy": (guest, play(guest, token)["id"]),
            "the deal by its number": (eve, new_game(eve)["id"]),
            "an unranked copy": (eve, play(eve, token, ranked=False)["id"]),
        }
        for what, (client, game_id) in copies.items():
            assert helped(client, game_id) == [(403, "challenge_open")] * 2, what
            assert client.get(f"/api/games/{game_id}").json()["hint_allowed"] is False, what
        guest_copy = copies["a guest's copy"][1]
        french = guest.get(f"/api/games/{guest_copy}/hint?lang=fr").json()["detail"]
        assert "défi" in french
        assert helped(bob, ranked["id"]) == [(403, "challenge_no_help")] * 2
        assert new_game(eve, DEAL + 1)["hint_allowed"] is True  # other cards: help as ever
        # The challenge's page says until when: a week from its making.
        closes = dt.datetime.fromisoformat(made["closes_at"].replace("Z", "+00:00"))
        assert made["open"] and closes == pytest.approx(now.at + LIFETIME, abs=dt.timedelta(seconds=1))
        shown = guest.get(f"/api/challenges/{token}").json()
        assert shown["open"] is True and shown["closes_at"] == made["closes_at"]
        assert ada.get("/api/challenges/mine").json()["challenges"][0]["closes_at"] == made["closes_at"]

        now.at = closes + dt.timedelta(seconds=1)
        # Closed: its copies are ordinary games; the ranked attempt is final.
        for what, (client, game_id) in copies.items():
            assert helped(client, game_id) == [(200, None), (200, None)], what
            assert client.get(f"/api/games/{game_id}").json()["hint_allowed"] is True, what
        late = move(bob, ranked["id"], app.state.deal_line[0])
        assert late.status_code == 409 and late.json()["code"] == "challenge_closed"
        board = bob.get(f"/api/challenges/{token}").json()
        assert board["open"] is False and board["entries"][0]["status"] == "unfinished"
        # Anyone now gets an ordinary copy (no ranked attempt starts after the close).
        with browser(app) as cyd:
            signup(cyd, "cyd")
            assert play(cyd, token)["challenge"] is None


# -- results a person could play ------------------------------------------------------


def test_a_daily_won_at_a_bots_pace_is_stored_and_not_ranked(app, now):
    """Issue 30, item 3: the Daily's moves solved offline and posted at once."""
    line = app.state.line
    with browser(app) as bot, browser(app) as person:
        signup(bot, "bot")
        signup(person, "ann")
        won = play_line(bot, bot.get("/api/daily/black-hole").json()["id"], line, now, [BOT_GAP])
        assert won["status"] == "won"  # stored, and shown as it is
        assert won["not_ranked"]["code"] == "pace_median"
        assert won["not_ranked"]["median_seconds"] < MEDIAN_FLOOR == won["not_ranked"]["floor_seconds"]
        theirs = play_line(person, person.get("/api/daily/black-hole").json()["id"], line, now, PERSON_GAPS)
        assert theirs["status"] == "won" and theirs["not_ranked"] is None
        board = bot.get("/api/daily/black-hole/leaderboard").json()
        # The bot was faster: it is nowhere on the board, the person is first.
        assert [entry["player"] for entry in board["entries"]] == ["ann"] and board["players"] == 1
        assert board["entries"][0]["rank"] == 1
        assert board["your_rank"] is None and board["your_result"]["rank"] is None
        assert board["your_result"]["not_ranked"]["code"] == "pace_median"
        assert person.get("/api/daily/black-hole/leaderboard").json()["your_rank"] == 1
        overview = next(game for game in bot.get("/api/daily").json()["games"] if game["game"] == "black-hole")
        assert overview["attempt"]["rank"] is None and overview["attempt"]["not_ranked"]["code"] == "pace_median"
    with Session(app.state.services.engine) as session:
        times = session.scalars(select(GameRow.move_times).where(GameRow.daily_day.is_not(None))).all()
    assert sorted(len(kept) for kept in times) == [len(line), len(line)]


def test_a_challenge_won_at_a_bots_pace_is_stored_and_not_ranked(app, now):
    line = app.state.deal_line
    with browser(app) as ada, browser(app) as bot, browser(app) as person:
        signup(ada, "ada")
        signup(bot, "bot")
        signup(person, "ann")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        won = play_line(bot, play(bot, token)["id"], line, now, [BOT_GAP])
        assert won["status"] == "won" and won["not_ranked"]["code"] == "pace_median"
        theirs = play_line(person, play(person, token)["id"], line, now, PERSON_GAPS)
        assert theirs["not_ranked"] is None
        seen = bot.get(f"/api/challenges/{token}").json()
        assert [entry["player"] for entry in seen["entries"]] == ["ann"] and seen["players"] == 1
        assert seen["your_rank"] is None and seen["your_attempt"]["rank"] is None
        assert seen["your_attempt"]["status"] == "won" and seen["your_attempt"]["not_ranked"]["code"] == "pace_median"
        assert person.get(f"/api/challenges/{token}").json()["your_rank"] == 1


def test_a_bot_that_waits_at_the_end_is_still_too_fast(app, now):
    """Pauses do not hide a pace: the total rule on the whole line, the median on its gaps."""
    line = app.state.deal_line
    with browser(app) as ada, browser(app) as bot:
        signup(ada, "ada")
        signup(bot, "bot")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        game_id = play(bot, token)["id"]
        play_line(bot, game_id, line[:-1], now, [BOT_GAP])
        now.at += dt.timedelta(minutes=5)  # "thinking" before the last move
        won = play_line(bot, game_id, line[-1:], now, [BOT_GAP])
        assert won["status"] == "won" and won["not_ranked"]["code"] == "pace_median"
        assert bot.get(f"/api/challenges/{token}").json()["players"] == 0


def test_challenges_made_before_the_deadlines_close_a_week_after_they_were_made(sqlite_and_postgres_url, tmp_path):
    import sqlalchemy as sa
    from alembic import command

    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import alembic_config, migrate

    url = sqlite_and_postgres_url
    if url.startswith("sqlite"):  # the fixture's SQLite file is at the newest schema already
        url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0010")
        connection.execute(
            sa.text(
                "INSERT INTO challenges (id, game, deal, layout, undo_mode, created_at)"
                " VALUES ('old', 'black-hole', '3', 'AS 2S', 'none', '2026-11-30 10:00:00+00:00')"
            )
        )
    migrate(engine)
    with engine.connect() as connection:
        closes = connection.execute(sa.text("SELECT closes_at FROM challenges WHERE id = 'old'")).scalar_one()
        assert connection.execute(sa.text("SELECT move_times FROM games")).all() == []
    engine.dispose()
    if isinstance(closes, str):  # SQLite keeps the text
        closes = dt.datetime.fromisoformat(closes)
    assert closes.replace(tzinfo=None) == dt.datetime(2026, 12, 7, 10, 0)
