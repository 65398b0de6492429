"""Your record of a deal: every deal a player played more than once shows their games of
it side by side (date, result, time, moves, undos, hints), on the game page's API and in
the statistics; another player's games never."""

from __future__ import annotations

import datetime as dt

import pytest

from webapp import browser, make_app, signup
from winnable import Budget, solve
from winnable.blackhole import BlackHole

DEAL = 3


@pytest.fixture
def app(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}")
    app.state.line = [str(move) for move in solve(BlackHole.deal(DEAL), Budget(seconds=10)).line]
    yield app
    app.state.services.engine.dispose()


def new_game(client, deal=DEAL, **extra):
    response = client.post("/api/games", json={"game": "black-hole", "deal": deal, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def play_moves(client, game_id, moves, now, seconds=2):
    for step in moves:
        now.at += dt.timedelta(seconds=seconds)
        response = client.post(f"/api/games/{game_id}/moves", json={"move": step})
        assert response.status_code == 200, response.text
    return response.json()


def test_a_deal_played_three_times_shows_its_games_side_by_side(app, now):
    line = app.state.line
    with browser(app) as ada:
        signup(ada, "ada")
        first = new_game(ada, undo="one")
        play_moves(ada, first["id"], line[:6], now)
        ada.post(f"/api/games/{first['id']}/undo", json={})
        second = new_game(ada)
        assert ada.get(f"/api/games/{second['id']}/hint").status_code == 200
        won = play_moves(ada, second["id"], line, now, seconds=1)
        assert won["status"] == "won"
        third = new_game(ada)
        play_moves(ada, third["id"], line[:2], now)
        other = new_game(ada, deal=DEAL + 1)  # another deal: not in this record
        play_moves(ada, other["id"], [other["legal"][0]["move"]], now)

        record = ada.get(f"/api/stats/record/{third['id']}").json()
        assert (record["game"], record["deal"], record["played"]) == ("black-hole", DEAL, 3)
        attempts = record["attempts"]
        assert [attempt["id"] for attempt in attempts] == [first["id"], second["id"], third["id"]]
        assert [attempt["status"] for attempt in attempts] == ["playing", "won", "playing"]
        assert [attempt["moves"] for attempt in attempts] == [5, len(line), 2]
        assert [attempt["undos"] for attempt in attempts] == [1, 0, 0]
        assert [attempt["hints"] for attempt in attempts] == [0, 1, 0]
        assert attempts[1]["seconds"] == pytest.approx(len(line) - 1, abs=0.2)  # from the first move to the last
        assert [attempt["current"] for attempt in attempts] == [False, False, True]
        assert attempts[0]["undo_rule"] == "one"

        # The statistics list every deal played more than once, and only those.
        stats = ada.get("/api/stats?lang=fr").json()
        assert [(entry["deal"], entry["played"]) for entry in stats["records"]] == [(DEAL, 3)]
        assert [attempt["moves"] for attempt in stats["records"][0]["attempts"]] == [5, len(line), 2]
        assert all(not attempt["current"] for attempt in stats["records"][0]["attempts"])

        # A new game of the deal, before its first move: listed beside the three, not counted.
        fourth = new_game(ada)
        record = ada.get(f"/api/stats/record/{fourth['id']}").json()
        assert record["played"] == 3 and [attempt["current"] for attempt in record["attempts"]] == [False] * 3 + [True]

        # A deal played once: its record holds that game alone.
        single = ada.get(f"/api/stats/record/{other['id']}").json()
        assert single["played"] == 1 and len(single["attempts"]) == 1


def test_a_record_is_its_players_only(app, now):
    line = app.state.line
    with browser(app) as ada, browser(app) as eve, browser(app) as guest:
        signup(ada, "ada")
        signup(eve, "eve")
        mine = new_game(ada)
        play_moves(ada, mine["id"], line[:3], now)
        play_moves(ada, new_game(ada)["id"], line[:1], now)
        theirs = new_game(eve)
        play_moves(eve, theirs["id"], line[:4], now)
        # Eve's record of the same deal holds her game only, and ada's is not hers to read.
        assert [attempt["id"] for attempt in eve.get(f"/api/stats/record/{theirs['id']}").json()["attempts"]] == [theirs["id"]]
        refused = eve.get(f"/api/stats/record/{mine['id']}")
        assert refused.status_code == 404 and refused.json()["code"] == "game_not_found"
        assert guest.get(f"/api/stats/record/{mine['id']}").status_code == 404
        assert eve.get("/api/stats/record/no%20such").status_code == 404
        assert eve.get("/api/stats").json()["records"] == []
        # A guest's record is its browser's.
        visit = new_game(guest)
        play_moves(guest, visit["id"], line[:1], now)
        again = new_game(guest)
        play_moves(guest, again["id"], line[:2], now)
        assert guest.get(f"/api/stats/record/{again['id']}").json()["played"] == 2
