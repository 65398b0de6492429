"""Challenges through the API: made from a game, opened by another player, one ranked
attempt per player and name, results from the server only, guests unranked, hints and
restarts off in the ranked attempt; and the attacks (forged results, second attempts,
a re-made account, someone else's game, a Daily's secret cards, thousands of links)."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dailies import seeded_draws
from webapp import PASSWORD, SITE, browser, make_app, signup
from winnable import Budget, solve
from winnable.blackhole import BlackHole
from winnable.storage.tables import Challenge, ChallengeAttempt, GameRow
from winnable.web.play.pool import Found
from winnable.web.players import challenges as challenges_module

DEAL = 3  # a Black Hole deal the solver wins


@pytest.fixture
def app(sqlite_and_postgres_url):
    app = seeded_draws(make_app(sqlite_and_postgres_url))
    app.state.deal_line = [str(move) for move in solve(BlackHole.deal(DEAL), Budget(seconds=10)).line]
    app.state.services.pool.add(Found("black-hole", DEAL, tuple(app.state.deal_line)))  # Black Hole has Dailies
    yield app
    app.state.services.engine.dispose()


def new_game(client, deal=DEAL, **extra):
    response = client.post("/api/games", json={"game": "black-hole", "deal": deal, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def make_challenge(client, game_id):
    response = client.post("/api/challenges", json={"game_id": game_id})
    assert response.status_code == 201, response.text
    return response.json()


def play(client, token, **body):
    return client.post(f"/api/challenges/{token}/play", json=body)


def move(client, game_id, text, **extra):
    return client.post(f"/api/games/{game_id}/moves", json={"move": text, **extra})


def count(app, model, *where) -> int:
    with Session(app.state.services.engine) as session:
        return session.scalar(select(func.count()).select_from(model).where(*where)) or 0


def test_a_challenge_deals_the_same_cards_and_settings_to_another_player(app, now):
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        source = new_game(ada, undo="one", think=30)
        move(ada, source["id"], app.state.deal_line[0])
        made = make_challenge(ada, source["id"])
        assert made["creator"] == "ada" and made["yours"] and made["deal"] == DEAL
        assert (made["undo"], made["think_seconds"], made["game"]) == ("one", 30, "black-hole")
        assert len(made["id"]) >= 16 and made["links"]["page"] == f"/challenge/{made['id']}"
        # Asking again from the same game gives the same challenge.
        assert make_challenge(ada, source["id"])["id"] == made["id"]
        seen = bob.get(f"/api/challenges/{made['id']}").json()
        assert seen["creator"] == "ada" and not seen["yours"] and seen["deal"] is None and seen["players"] == 0
        attempt = play(bob, made["id"])
        assert attempt.status_code == 201, attempt.text
        state = attempt.json()
        # The same cards, undo rule and thinking time; no deal number to look up for hints.
        assert state["position"]["piles"] == source["position"]["piles"]
        assert (state["undo"], state["think_seconds"], state["deal"]) == ("one", 30, None)
        assert state["challenge"] == made["id"] and state["hint_allowed"] is False and state["restart_allowed"] is False
        assert state["started_at"] is not None  # the clock runs from the deal
        # Nothing of ada's game (its moves, its id) is in the challenge.
        assert source["id"] not in bob.get(f"/api/challenges/{made['id']}").text


def test_a_ranked_attempt_is_ranked_by_the_servers_figures(app, now):
    line = app.state.deal_line
    with browser(app) as ada, browser(app) as bob, browser(app) as cy:
        signup(ada, "ada")
        signup(bob, "bob")
        signup(cy, "cyd")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        for client, seconds in ((bob, 3), (cy, 1)):
            game_id = play(client, token).json()["id"]
            for step in line:
                now.at += dt.timedelta(seconds=seconds)
                # Forged clocks and scores in every request are ignored.
                response = move(client, game_id, step, seconds=0.1, score=999, status="won")
                assert response.status_code == 200
            assert response.json()["status"] == "won"
        board = bob.get(f"/api/challenges/{token}").json()
    assert [entry["player"] for entry in board["entries"]] == ["cyd", "bob"]
    assert board["entries"][0]["seconds"] == pytest.approx(len(line), abs=0.2)
    assert board["entries"][1]["seconds"] == pytest.approx(3 * len(line), abs=0.2)
    assert board["your_rank"] == 2 and [entry["you"] for entry in board["entries"]] == [False, True]
    assert board["your_attempt"]["status"] == "won"


def test_forged_results_and_second_ranked_attempts_are_refused(app, now):
    line = app.state.deal_line
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        first = play(bob, token).json()
        before = bob.get(f"/api/challenges/{token}").json()
        for path, body in [
            (f"/api/challenges/{token}", {"status": "won", "seconds": 1}),
            (f"/api/challenges/{token}/result", {"status": "won"}),
            (f"/api/challenges/{token}/leaderboard", {"moves": 51}),
            (f"/api/games/{first['id']}", {"status": "won"}),
        ]:
            assert bob.post(path, json=body).status_code in (404, 405)
        assert bob.post(f"/api/challenges/{token}/play", json={"ranked": "yes"}).status_code == 422
        assert bob.get(f"/api/challenges/{token}").json() == before
        # Asking again while it is played resumes the same attempt: no second deal.
        assert play(bob, token).json()["id"] == first["id"]
        restart = bob.post(f"/api/games/{first['id']}/restart", json={})
        assert restart.status_code == 409 and restart.json()["code"] == "challenge_no_restart"
        for step in line[:5]:
            now.at += dt.timedelta(seconds=1)  # a person's pace (a bot's is not ranked)
            move(bob, first["id"], step)
        # Lost on purpose? Not possible in Black Hole with moves left: finish the game.
        for step in line[5:]:
            now.at += dt.timedelta(seconds=1)
            move(bob, first["id"], step)
        again = play(bob, token)
        assert again.status_code == 409 and again.json()["code"] == "challenge_played"
        assert "unranked" in again.json()["detail"]
        # Unranked, the deal again: a game of its own, not on the board; no hints while the
        # challenge is open (its copies would be others' hints).
        practice = play(bob, token, ranked=False)
        assert practice.status_code == 201
        assert practice.json()["challenge"] is None and practice.json()["hint_allowed"] is False
        assert practice.json()["id"] != first["id"]
        assert bob.get(f"/api/challenges/{token}").json()["players"] == 1
    assert count(app, ChallengeAttempt) == 1


def test_a_remade_account_gets_no_second_ranked_attempt(app, now):
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "Bob")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        attempt = play(bob, token).json()
        move(bob, attempt["id"], app.state.deal_line[0])
        deleted = bob.post("/api/account/delete", json={"password": PASSWORD})
        assert deleted.status_code in (200, 204), deleted.text
    # The result stays, nobody's, and nobody plays the attempt on.
    board = TestClient(app, base_url=SITE).get(f"/api/challenges/{token}").json()
    assert board["players"] == 1 and board["entries"][0]["player"] is None
    with browser(app) as again:
        signup(again, "bob")  # the same name, in another case
        refused = play(again, token)
        assert refused.status_code == 409 and refused.json()["code"] == "challenge_played"
        assert again.get(f"/api/games/{attempt['id']}").status_code == 404
        assert again.post("/api/games/summaries", json={"ids": [attempt["id"]]}).json()["games"] == []
        # Unranked is still open to the name.
        assert play(again, token, ranked=False).status_code == 201


def test_guests_play_unranked_and_are_asked_to_sign_in(app, now):
    with browser(app) as ada, browser(app) as guest:
        signup(ada, "ada")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        seen = guest.get(f"/api/challenges/{token}").json()
        assert seen["signed_in"] is False and seen["your_attempt"] is None
        state = play(guest, token)
        assert state.status_code == 201 and state.json()["challenge"] is None
        assert state.json()["hint_allowed"] is False  # not while the challenge is open
        game_id = state.json()["id"]
        assert move(guest, game_id, app.state.deal_line[0]).status_code == 200  # their game, by its session cookie
        assert guest.get(f"/api/challenges/{token}").json()["players"] == 0
        # A guest makes no challenge: its board is for signed-in players.
        refused = guest.post("/api/challenges", json={"game_id": game_id})
        assert refused.status_code == 401 and refused.json()["code"] == "sign_in_required"
    assert count(app, ChallengeAttempt) == 0


def test_hints_and_analyses_are_off_in_the_ranked_attempt_only(app, now):
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        ranked = play(bob, token).json()
        hint = bob.get(f"/api/games/{ranked['id']}/hint")
        assert hint.status_code == 403 and hint.json()["code"] == "challenge_no_help"
        assert bob.get(f"/api/games/{ranked['id']}/analysis").status_code == 403
        french = bob.get(f"/api/games/{ranked['id']}/hint?lang=fr").json()["detail"]
        assert "classée" in french or "classé" in french
        # The creator, who saw the cards, plays unranked; without hints while it is open.
        own = play(ada, token)
        assert own.status_code == 201 and own.json()["challenge"] is None
        assert ada.get(f"/api/games/{own.json()['id']}/hint").json()["code"] == "challenge_open"


def test_no_challenge_reads_someone_elses_game(app, now):
    with browser(app) as ada, browser(app) as eve, browser(app) as guest:
        signup(ada, "ada")
        signup(eve, "eve")
        ada_game = new_game(ada)
        guest_game = new_game(guest)
        for game_id in (ada_game["id"], guest_game["id"], "no-such-game", "x" * 32):
            refused = eve.post("/api/challenges", json={"game_id": game_id})
            assert refused.status_code == 404 and refused.json()["code"] == "game_not_found"
        for bad in ("", "a b", "x" * 33, "../etc"):
            assert eve.post("/api/challenges", json={"game_id": bad}).status_code == 422
        # A challenge id is a random token: one made up is not found.
        assert eve.get("/api/challenges/AAAAAAAAAAAAAAAA").json()["code"] == "challenge_not_found"
        assert eve.post("/api/challenges/AAAAAAAAAAAAAAAA/play", json={}).status_code == 404
    assert count(app, Challenge) == 0


def test_a_daily_becomes_a_challenge_only_once_its_day_is_over(app, now):
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        daily = ada.get("/api/daily/black-hole").json()
        refused = ada.post("/api/challenges", json={"game_id": daily["id"]})
        assert refused.status_code == 409 and refused.json()["code"] == "challenge_daily"
        assert count(app, Challenge) == 0
        now.at += dt.timedelta(days=1)
        made = make_challenge(ada, daily["id"])
        assert made["deal"] is None
        state = play(bob, made["id"]).json()
        assert state["position"]["piles"] == daily["position"]["piles"]


def test_an_account_makes_a_bounded_number_of_challenges(app, now, monkeypatch):
    monkeypatch.setattr(challenges_module, "PER_DAY", 3)
    with browser(app) as ada:
        signup(ada, "ada")
        games = [new_game(ada, deal=deal)["id"] for deal in (1, 2, 3, 4)]
        for game_id in games[:3]:
            make_challenge(ada, game_id)
        refused = ada.post("/api/challenges", json={"game_id": games[3]})
        assert refused.status_code == 429 and refused.json()["code"] == "challenge_limit"
        assert refused.headers["Retry-After"]
        now.at += dt.timedelta(days=1, minutes=1)
        make_challenge(ada, games[3])
        mine = ada.get("/api/challenges/mine").json()["challenges"]
        assert len(mine) == 4 and mine[0]["players"] == 0
    assert count(app, Challenge) == 4


def test_old_challenges_stay_readable(app, now):
    line = app.state.deal_line
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        game_id = play(bob, token).json()["id"]
        for step in line[:4]:
            move(bob, game_id, step)
        now.at += dt.timedelta(days=400)
        board = TestClient(app, base_url=SITE).get(f"/api/challenges/{token}?lang=nl").json()
    assert board["players"] == 1 and board["entries"][0]["moves"] == 4
    # Closed long since: the attempt left in play is final, unfinished.
    assert board["entries"][0]["status"] == "unfinished" and board["title"] == "Black Hole" and not board["open"]
    assert count(app, GameRow, GameRow.challenge == token) == 1


def test_no_practice_before_or_beside_the_ranked_attempt(app, now):
    line = app.state.deal_line
    with browser(app) as ada, browser(app) as bob, browser(app) as cyd, browser(app) as guest:
        signup(ada, "ada")
        signup(bob, "bob")
        signup(cyd, "cyd")
        token = make_challenge(ada, new_game(ada)["id"])["id"]
        # Beside a ranked attempt in play, an unranked copy (with hints) is refused.
        ranked = play(bob, token).json()
        beside = play(bob, token, ranked=False)
        assert beside.status_code == 409 and beside.json()["code"] == "challenge_in_play"
        # Cards seen unranked first rank no more.
        assert play(cyd, token, ranked=False).status_code == 201
        late = play(cyd, token)
        assert late.status_code == 409 and late.json()["code"] == "challenge_played"
        # A guest who played it and then signs up brings the game along: not ranked either.
        seen = play(guest, token).json()
        move(guest, seen["id"], line[0])
        signup(guest, "dee")
        refused = play(guest, token)
        assert refused.status_code == 409 and refused.json()["code"] == "challenge_played"
        assert bob.get(f"/api/challenges/{token}").json()["players"] == 1
        assert ranked["challenge"] == token


def test_one_ranking_penguin_wins_by_speed_score_then_partial_score():
    """The Daily's ranking, which a challenge's leaderboard reuses: Penguin's wins by speed
    score (not by time alone), the rest by partial score; Black Hole's wins by time."""
    from types import SimpleNamespace as Row

    from winnable.web.players.ranking import ranked_entries

    at = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)

    def attempt(name, status, seconds, moves, left):
        return Row(
            user_id=None,
            name=name,
            status=status,
            move_count=moves,
            cards_left=left,
            undo_used=0,
            started_at=at,
            finished_at=at + dt.timedelta(seconds=seconds) if status != "playing" else None,
            timed_out_at=None,
            think_seconds=None,
            last_move_at=None,
        )

    rows = [
        attempt("quick-but-long", "won", 95, 200, 0),
        attempt("steady", "won", 100, 50, 0),
        attempt("far", "lost", 300, 80, 10),
        attempt("near", "playing", 0, 60, 3),
    ]
    penguin = ranked_entries(rows, "penguin", at)
    assert [entry["player"] for entry in penguin] == ["steady", "quick-but-long", "near", "far"]
    assert [entry["speed"] for entry in penguin] == [666, 338, None, None]
    assert [entry["partial"] for entry in penguin] == [52, 52, 49, 42]
    black_hole = ranked_entries(rows, "black-hole", at)
    assert [entry["player"] for entry in black_hole] == ["quick-but-long", "steady", "near", "far"]
