"""Players through the API: accounts and sessions, the Daily and its leaderboard, timed
Black Hole, hints counted, statistics; and the attacks on them (forged attempts, password
guessing, session fixation, cross-site calls, hostile input)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dailies import seeded_draws
from webapp import PASSWORD, SITE, browser, make_app, signup
from winnable import Budget, solve
from winnable.blackhole import BlackHole
from winnable.games import game_class
from winnable.storage.tables import DailyAttempt, DailyDeal, GameRow, SessionRow, User
from winnable.web.play.pool import Found
from winnable.web.players.accounts import COOKIE
from winnable.web.views import player_view

DAILY_DEAL = 3  # a Black Hole deal the solver wins (in the pool: Black Hole has Dailies)


@pytest.fixture
def app(sqlite_and_postgres_url):
    """The app on SQLite, then on PostgreSQL (each test runs on both)."""
    app = make_app(sqlite_and_postgres_url)
    line = solve(BlackHole.deal(DAILY_DEAL), Budget(seconds=10)).line
    app.state.services.pool.add(Found("black-hole", DAILY_DEAL, tuple(str(move) for move in line)))
    yield seeded_draws(app)
    app.state.services.engine.dispose()


def count(app, model, *where) -> int:
    with Session(app.state.services.engine) as session:
        return session.scalar(select(func.count()).select_from(model).where(*where)) or 0


def daily(client, game="black-hole"):
    response = client.get(f"/api/daily/{game}")
    assert response.status_code == 200, response.text
    return response.json()


def move(client, game_id, text, **extra):
    return client.post(f"/api/games/{game_id}/moves", json={"move": text, **extra})


def post_raw(client, path, body):
    """POST ``body`` as ASCII JSON (lone surrogates written as escapes, as a hostile client may)."""
    return client.post(path, content=json.dumps(body), headers={"Content-Type": "application/json"})


def board(client, game="black-hole", date=None):
    response = client.get(f"/api/daily/{game}/leaderboard" + (f"?date={date}" if date else ""))
    assert response.status_code == 200, response.text
    return response.json()


# -- accounts ------------------------------------------------------------------------------
def test_sign_up_in_and_out_with_a_session_cookie(app):
    with browser(app) as client:
        assert client.get("/api/auth/me").json() == {"signed_in": False, "name": None, "guest": False}
        response = client.post("/api/auth/signup", json={"name": "ada", "password": PASSWORD})
        assert response.status_code == 201 and response.json()["name"] == "ada"
        cookie = response.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
        assert client.get("/api/auth/me").json() == {"signed_in": True, "name": "ada", "guest": False}
        token = client.cookies[COOKIE]
        assert client.post("/api/auth/logout", json={}).json()["signed_in"] is False
        # Signing out ended the session on the server: the old cookie signs nobody in.
        assert count(app, SessionRow) == 0
        client.cookies.set(COOKIE, token)
        assert client.get("/api/auth/me").json()["signed_in"] is False
        response = client.post("/api/auth/login", json={"name": "ADA", "password": PASSWORD})
        assert response.status_code == 200 and response.json()["name"] == "ada"
    with browser(app, "https://testserver") as secure:
        app.state.services.settings.allowed_hosts  # the same host, over HTTPS
        response = secure.post("/api/auth/login", json={"name": "ada", "password": PASSWORD})
        assert response.status_code == 200 and "secure" in response.headers["set-cookie"].lower()


def test_the_password_is_kept_as_an_argon2id_hash_only(app):
    with browser(app) as client:
        signup(client)
    with Session(app.state.services.engine) as session:
        user = session.scalars(select(User)).one()
        assert user.password_hash.startswith("$argon2id$") and PASSWORD not in user.password_hash
        token_digests = session.scalars(select(SessionRow.id)).all()
    assert client.cookies[COOKIE] not in token_digests  # the database keeps digests, not tokens


def test_wrong_name_and_wrong_password_get_the_same_answer(app):
    with browser(app) as client:
        signup(client)
        wrong_password = client.post("/api/auth/login", json={"name": "ada", "password": "not the password"})
        no_such_name = client.post("/api/auth/login", json={"name": "bob", "password": "not the password"})
        assert wrong_password.status_code == no_such_name.status_code == 401
        assert wrong_password.json() == no_such_name.json() == {"code": "bad_credentials", "detail": "wrong name or password"}


def test_wrong_passwords_are_rate_limited_per_name_and_per_client(tmp_path):
    app = make_app(
        f"sqlite:///{tmp_path / 'games.db'}",
        rate_limits=True,
        limit_login_name="3/minute",
        limit_login="6/minute",
        limit_default="1000/minute",
    )
    with browser(app) as owner:
        signup(owner)
    with browser(app) as client:  # a browser that never signed in to the account
        codes = [client.post("/api/auth/login", json={"name": "ada", "password": f"guess number {i}"}).status_code for i in range(4)]
        assert codes == [401, 401, 401, 429]
        refused = client.post("/api/auth/login", json={"name": "ada", "password": PASSWORD})
        assert refused.status_code == 429 and refused.headers["Retry-After"]  # even the right one, for now
        # (the owner's own browser is not: tests/web/test_signin.py)
        # Another name from the same client: the per-client limit ends it too.
        codes = [client.post("/api/auth/login", json={"name": f"user{i}", "password": "whatever else"}).status_code for i in range(3)]
        assert codes[-1] == 429


def test_a_session_cookie_from_before_sign_in_is_worthless_after_it(app):
    with browser(app) as client:
        game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
        guest = client.cookies[COOKIE]  # a guest session, made for the game
        assert client.get("/api/auth/me").json()["guest"] is True
        signup(client)
        assert client.cookies[COOKIE] != guest
        # The guest's game is the player's now...
        assert client.get(f"/api/games/{game['id']}").status_code == 200
        player = client.cookies[COOKIE]
    with browser(app) as attacker:
        # ...and whoever kept the old cookie holds nothing: no session, not that game.
        attacker.cookies.set(COOKIE, guest)
        assert attacker.get("/api/auth/me").json() == {"signed_in": False, "name": None, "guest": False}
        assert attacker.get(f"/api/games/{game['id']}").status_code == 404
    # A session planted before sign-in (fixation) is replaced at sign-in too.
    with browser(app) as planted:
        planted.post("/api/games", json={"game": "black-hole", "deal": 2})
        fixed = planted.cookies[COOKIE]
        planted.post("/api/auth/login", json={"name": "ada", "password": PASSWORD})
        assert planted.cookies[COOKIE] not in (fixed, player)
    with browser(app) as attacker:
        attacker.cookies.set(COOKIE, fixed)
        assert attacker.get("/api/auth/me").json()["signed_in"] is False


def test_a_worker_trusts_a_guest_session_for_seconds_and_a_players_not_at_all(app, monkeypatch):
    """Another worker deleting a session (here: the database directly) stops a player's
    at once, a guest's once this worker's few seconds of trust are over."""
    import winnable.web.players.accounts as accounts_module

    clock = [1000.0]
    monkeypatch.setattr(accounts_module.time, "monotonic", lambda: clock[0])
    with browser(app) as guest, browser(app) as player:
        guest.post("/api/games", json={"game": "black-hole", "deal": 2})
        signup(player)
        assert guest.get("/api/auth/me").json()["guest"] is True
        assert player.get("/api/auth/me").json()["signed_in"] is True
        with Session(app.state.services.engine) as session, session.begin():
            session.query(SessionRow).delete()
        assert player.get("/api/auth/me").json()["signed_in"] is False
        assert guest.get("/api/auth/me").json()["guest"] is True
        clock[0] += accounts_module.GUEST_MEMORY + 0.1
        assert guest.get("/api/auth/me").json()["guest"] is False


def test_state_changing_calls_without_the_csrf_proof_are_refused(app):
    bare = TestClient(app, base_url=SITE)  # no Origin, no token: a script, or a forged request
    for path, body in [
        ("/api/auth/signup", {"name": "eve", "password": PASSWORD}),
        ("/api/auth/login", {"name": "eve", "password": PASSWORD}),
        ("/api/auth/logout", {}),
        ("/api/account/delete", {"password": PASSWORD}),
    ]:
        response = bare.post(path, json=body)
        assert response.status_code == 403 and response.json()["code"] == "csrf_failed", path
        response = bare.post(path, json=body, headers={"Origin": "https://evil.example"})
        assert response.status_code == 403 and response.json()["code"] == "cross_site", path
    assert count(app, User) == 0
    # A script with a token bound to its session gets through; the token alone, with
    # another session's cookie, does not.
    token = bare.get("/api/csrf").json()["token"]
    assert bare.post("/api/auth/signup", json={"name": "eve", "password": PASSWORD}, headers={"X-CSRF-Token": token}).status_code == 201
    assert bare.post("/api/auth/logout", json={}, headers={"X-CSRF-Token": token}).status_code == 403


@pytest.mark.parametrize(
    "name",
    [
        "x' OR '1'='1",
        "admin'--",
        "a; DROP TABLE users;--",
        "Robert'); DROP TABLE users;--",
        "<script>x</script>",
        "a b",
        "ab",
        "a" * 25,
        "a" * 5000,
        "ad\x00a",
        "\ud800abc",
        "ada--",
        "",
        "1 OR 1=1",
    ],
)
def test_hostile_names_are_refused_and_nothing_is_stored(app, name):
    with browser(app) as client:
        response = post_raw(client, "/api/auth/signup", {"name": name, "password": PASSWORD})
        assert 400 <= response.status_code < 500 and response.status_code != 404
        assert response.json()["code"] in ("bad_name", "invalid_request", "invalid_json", "body_too_large")
        login = post_raw(client, "/api/auth/login", {"name": name, "password": PASSWORD})
        assert 400 <= login.status_code < 500
    assert count(app, User) == 0 and count(app, SessionRow) == 0


@pytest.mark.parametrize("password", ["short", "x" * 129, "y" * 70_000, "tab\there is bad", "nul\x00byte!", "\ud800" * 9])
def test_bad_passwords_are_refused_and_nothing_is_stored(app, password):
    with browser(app) as client:
        response = post_raw(client, "/api/auth/signup", {"name": "ada", "password": password})
        assert 400 <= response.status_code < 500
    assert count(app, User) == 0


def test_any_printable_password_is_a_password_and_stays_a_hash(app):
    # Quotes and SQL in a password are only characters: hashed, never interpreted.
    sql = "' OR 1=1; DROP TABLE users; --"
    with browser(app) as client:
        signup(client, "ada", sql)
        assert client.post("/api/auth/logout", json={}).status_code == 200
        assert client.post("/api/auth/login", json={"name": "ada", "password": "' OR 1=1 --"}).status_code == 401
        assert client.post("/api/auth/login", json={"name": "ada", "password": sql}).status_code == 200
    with Session(app.state.services.engine) as session:
        assert sql not in session.scalars(select(User.password_hash)).one()


def test_a_name_is_one_account_whatever_its_case(app):
    with browser(app) as client:
        signup(client, "Ada")
    with browser(app) as other:
        response = other.post("/api/auth/signup", json={"name": "ADA", "password": PASSWORD})
        assert response.status_code == 409 and response.json()["code"] == "name_taken"
    assert count(app, User) == 1


def test_an_accounts_games_are_its_own(app):
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        game = ada.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
        for response in (
            bob.get(f"/api/games/{game['id']}"),
            move(bob, game["id"], "KH"),
            bob.post(f"/api/games/{game['id']}/restart", json={}),
            bob.get(f"/api/games/{game['id']}/hint"),
        ):
            assert response.status_code == 404
        assert move(ada, game["id"], "KH").status_code == 200


def test_deleting_an_account_removes_its_data_and_anonymises_its_daily(app, now):
    with browser(app) as client:
        signup(client)
        client.post("/api/games", json={"game": "black-hole", "deal": 5})
        attempt = daily(client)
        assert move(client, attempt["id"], app.state.line[0]).status_code == 200
        exported = client.get("/api/account/export")
        assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
        data = exported.json()
        assert data["account"]["name"] == "ada" and len(data["games"]) == 2 and len(data["daily_attempts"]) == 1
        assert "password" not in exported.text
        wrong = client.post("/api/account/delete", json={"password": "not the password"})
        assert wrong.status_code == 401 and count(app, User) == 1
        assert client.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
        assert client.get("/api/auth/me").json()["signed_in"] is False
        assert client.get("/api/account/export").status_code == 401
    assert count(app, User) == 0 and count(app, SessionRow) == 0
    assert count(app, GameRow) == 1  # the Daily attempt, anonymous, for the leaderboard
    assert count(app, GameRow, GameRow.user_id.is_not(None)) == 0
    entry = board(TestClient(app, base_url=SITE))["entries"][0]
    assert entry["player"] is None and entry["moves"] == 1


def test_guest_games_and_statistics_move_to_the_account(app):
    with browser(app) as client:
        game = client.post("/api/games", json={"game": "black-hole", "deal": DAILY_DEAL + 1}).json()
        line = solve(BlackHole.deal(DAILY_DEAL + 1), Budget(seconds=10)).line
        for step in line:
            assert move(client, game["id"], str(step)).status_code == 200
        guest_stats = client.get("/api/stats").json()
        assert guest_stats["signed_in"] is False and guest_stats["games"][0]["won"] == 1
        signup(client)
        stats = client.get("/api/stats").json()
        assert stats["player"] == "ada" and stats["games"][0]["won"] == 1
        client.post("/api/auth/logout", json={})
        assert client.get("/api/stats").json()["games"] == []


# -- the Daily -------------------------------------------------------------------------------
def test_a_guest_asking_for_the_daily_is_told_to_sign_in(app):
    with browser(app) as guest:
        response = guest.get("/api/daily/black-hole")
        assert response.status_code == 401 and response.json()["code"] == "sign_in_required"
        assert guest.post("/api/games", json={"game": "black-hole"}).status_code == 201  # any other game
        assert guest.get("/api/daily/black-hole").status_code == 401
    assert count(app, DailyDeal) == 0


def test_one_deal_for_everyone_and_one_attempt_per_player(app, now):
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        first = daily(ada)
        # (deal: null since the Daily is a secret deck order, no longer deal 3 of the pool)
        assert first["daily"] == now.at.date().isoformat() and first["deal"] is None
        assert first["position"] == player_view(BlackHole.from_deck(app.state.decks["black-hole"]))
        assert first["started_at"] is not None and first["undo"] == "unlimited" and not first["hint_allowed"]
        again = daily(ada)  # a second tab, or later: the same attempt
        assert again["id"] == first["id"]
        assert daily(bob)["position"] == first["position"] and daily(bob)["id"] != first["id"]
    assert count(app, DailyDeal) == 1 and count(app, DailyAttempt) == 2


def test_no_daily_without_a_proved_deal(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}")
    with browser(app) as client:
        signup(client)
        response = client.get("/api/daily/black-hole")
        assert response.status_code == 409 and response.json()["code"] == "daily_unavailable"
        assert client.get("/api/daily/no-such-game").status_code == 404
        overview = client.get("/api/daily").json()
        assert not any(game["available"] for game in overview["games"])


def test_in_the_daily_hints_are_off_undos_counted_and_restart_refused(app, now):
    with browser(app) as client:
        signup(client)
        attempt = daily(client)
        game_id = attempt["id"]
        hint = client.get(f"/api/games/{game_id}/hint")
        assert hint.status_code == 403 and hint.json()["code"] == "daily_no_help"
        assert client.get(f"/api/games/{game_id}/analysis").status_code == 403
        restart = client.post(f"/api/games/{game_id}/restart", json={})
        assert restart.status_code == 409 and restart.json()["code"] == "daily_no_restart"
        move(client, game_id, app.state.line[0])
        undone = client.post(f"/api/games/{game_id}/undo", json={}).json()
        assert undone["undo_used"] == 1 and undone["moves"] == []
        assert board(client)["entries"][0]["undos"] == 1
        # No deal number is the Daily (it was 409 daily_deal for today's number): the
        # pool's proved deal is an ordinary deal, with other cards.
        winnable = client.post("/api/games", json={"game": "black-hole", "winnable": True})
        assert winnable.status_code == 201 and winnable.json()["position"] != attempt["position"]


def test_results_come_from_the_server_only(app, now):
    line = app.state.line
    with browser(app) as client:
        signup(client)
        attempt = daily(client)
        game_id = attempt["id"]
        before = board(client)
        # A crafted move list, a score, a time or a result: refused or ignored.
        assert client.post(f"/api/games/{game_id}/moves", json={"moves": line}).status_code == 422
        assert move(client, game_id, "KH" if line[0] != "KH" else "QH").status_code in (400, 409)
        for path, body in [
            ("/api/daily/black-hole/leaderboard", {"seconds": 1, "moves": 51, "status": "won"}),
            ("/api/daily/black-hole", {"status": "won"}),
            (f"/api/games/{game_id}/score", {"score": 52}),
            (f"/api/games/{game_id}", {"status": "won"}),
        ]:
            assert client.post(path, json=body).status_code in (404, 405)
        assert board(client) == before
        # A second attempt: the Daily resumes.
        assert daily(client)["id"] == game_id
        # Playing to a win, with forged clocks and scores in every request...
        for index, step in enumerate(line):
            now.at += dt.timedelta(seconds=2)
            response = move(
                client, game_id, step, seconds=0.5, elapsed_seconds=0.1, score=999, status="won", finished_at="2000-01-01T00:00:00Z"
            )
            assert response.status_code == 200
        assert response.json()["status"] == "won"
    # ...the leaderboard has the server's figures: 2 s a move on its clock.
    entry = board(TestClient(app, base_url=SITE))["entries"][0]
    assert entry["status"] == "won" and entry["moves"] == len(line)
    assert entry["seconds"] == pytest.approx(2.0 * len(line), abs=0.2)
    assert entry["player"] == "ada" and entry["rank"] == 1


def test_the_leaderboard_ranks_wins_by_time_then_the_rest_by_cards_left(app, now):
    line = app.state.line
    clients = [browser(app) for _ in range(4)]
    for index, client in enumerate(clients):
        signup(client, f"player{index}")
    attempts = {}
    # player0 wins slowly, player1 wins fast, player2 plays 10 moves, player3 plays 3
    # (a Daily's clock runs from the deal).
    for index, seconds in ((0, 3), (1, 1)):
        attempts[index] = daily(clients[index])["id"]
        for step in line:
            now.at += dt.timedelta(seconds=seconds)
            assert move(clients[index], attempts[index], step).status_code == 200
    for index, moves in ((2, 10), (3, 3)):
        attempts[index] = daily(clients[index])["id"]
        for step in line[:moves]:
            move(clients[index], attempts[index], step)
    result = board(clients[0])
    assert [entry["player"] for entry in result["entries"]] == ["player1", "player0", "player2", "player3"]
    assert [entry["status"] for entry in result["entries"]] == ["won", "won", "playing", "playing"]
    assert result["entries"][2]["cards_left"] == 41 and result["your_rank"] == 2
    assert [entry["you"] for entry in result["entries"]] == [False, True, False, False]
    overview = clients[1].get("/api/daily").json()
    black_hole = next(game for game in overview["games"] if game["game"] == "black-hole")
    assert black_hole["attempt"]["rank"] == 1 and black_hole["players"] == 4
    assert 0 < overview["next_in_seconds"] <= 86400
    for client in clients:
        client.close()


def test_past_days_stay_browsable_and_final(app, now):
    line = app.state.line
    with browser(app) as client:
        signup(client)
        yesterday = now.at.date()
        attempt = daily(client)
        move(client, attempt["id"], line[0])
        now.at += dt.timedelta(days=1)
        late = move(client, attempt["id"], line[1])
        assert late.status_code == 409 and late.json()["code"] == "daily_over"
        past = board(client, date=yesterday.isoformat())
        # The cards are told once the day is over: the deck order (no number).
        assert past["over"] and past["deal"] is None and past["layout"] == str(app.state.decks["black-hole"])
        assert past["entries"][0]["status"] == "unfinished" and past["entries"][0]["moves"] == 1
        today_board = board(client)  # today's cards are not told before the day is over
        assert today_board["deal"] is None and today_board["layout"] is None
        # Analyses of the old attempt are back.
        assert client.get(f"/api/games/{attempt['id']}/analysis").status_code == 200
        for bad in ("tomorrow", "2026-13-01", "9" * 10, "0000-01-01", "2026-W48-1"):
            response = client.get(f"/api/daily/black-hole/leaderboard?date={bad}")
            assert response.status_code == 422 and response.json()["code"] in ("bad_date", "invalid_request")
        tomorrow = client.get(f"/api/daily/black-hole/leaderboard?date={now.at.date() + dt.timedelta(days=1)}")
        assert tomorrow.status_code == 404 and tomorrow.json()["code"] == "bad_date"  # a date, no board yet


# -- scores: timed Black Hole, hints, statistics -----------------------------------------------
def test_timed_black_hole_loses_on_the_servers_clock(app, now):
    with browser(app) as client:
        game = client.post("/api/games", json={"game": "black-hole", "deal": 2, "think": 10}).json()
        assert game["think_seconds"] == 10 and game["think_deadline"] is not None
        now.at += dt.timedelta(seconds=9)
        first = move(client, game["id"], game["legal"][0]["move"])
        assert first.status_code == 200
        now.at += dt.timedelta(seconds=11)
        assert client.get(f"/api/games/{game['id']}").json()["status"] == "lost"  # shown lost at once
        late = move(client, game["id"], first.json()["legal"][0]["move"])
        assert late.status_code == 409 and late.json()["code"] == "time_out"
        state = client.get(f"/api/games/{game['id']}").json()
        assert state["status"] == "lost" and state["timed_out"] and state["moves"] == first.json()["moves"]
        assert client.post(f"/api/games/{game['id']}/undo", json={}).json()["code"] == "time_out"
        again = client.post(f"/api/games/{game['id']}/restart", json={}).json()
        assert again["status"] == "playing" and not again["timed_out"]
        for think in (15, 0, -10, "ten"):
            response = client.post("/api/games", json={"game": "black-hole", "think": think})
            assert response.status_code in (400, 422)
        response = client.post("/api/games", json={"game": "penguin", "think": 30})  # a game without timed play
        assert response.status_code == 409 and response.json()["code"] == "bad_think"


def test_statistics_count_wins_losses_assisted_wins_and_records(app, now):
    with browser(app) as client:
        signup(client)

        def win(deal, undo="unlimited", hints=0, seconds=1):
            game = client.post("/api/games", json={"game": "black-hole", "deal": deal, "undo": undo}).json()
            for _ in range(hints):
                assert client.get(f"/api/games/{game['id']}/hint").status_code == 200
            for step in solve(BlackHole.deal(deal), Budget(seconds=10)).line:
                now.at += dt.timedelta(seconds=seconds)
                state = move(client, game["id"], str(step)).json()
            assert state["status"] == "won" and state["assisted"] == (hints > 0)

        win(4, "none", seconds=2)
        win(5, "unlimited", seconds=1)
        lost = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
        state = lost
        while state["status"] == "playing":
            state = move(client, lost["id"], state["legal"][-1]["move"]).json()
        win(6, hints=1)
        win(7, "none", seconds=3)
        penguin = client.post("/api/games", json={"game": "penguin", "deal": 1}).json()
        move(client, penguin["id"], penguin["legal"][0]["move"])
        stats = {entry["game"]: entry for entry in client.get("/api/stats").json()["games"]}
    black_hole = stats["black-hole"]
    assert (black_hole["played"], black_hole["won"], black_hole["assisted_wins"], black_hole["lost"]) == (5, 3, 1, 1)
    assert black_hole["best_streak"] == 2 and black_hole["current_streak"] == 1
    # The clock of a game starts with its first move: 50 steps of the server's clock.
    assert black_hole["best_seconds_by_undo"] == {"none": 100.0, "unlimited": 50.0}
    assert black_hole["best_seconds"] == 50.0 and black_hole["fewest_moves"] == 51
    assert black_hole["win_rate"] == pytest.approx(0.6)
    assert stats["penguin"]["played"] == 1 and stats["penguin"]["partial_best"] is not None


def test_a_link_on_another_site_starts_no_daily_clock(app):
    with browser(app) as client:
        signup(client)
        response = client.get("/api/daily/black-hole", headers={"Sec-Fetch-Site": "cross-site"})
        assert response.status_code == 403 and response.json()["code"] == "cross_site"
    assert count(app, DailyAttempt) == 0 and count(app, DailyDeal) == 0


def test_your_games_lists_an_accounts_games_to_it_only(app):
    with browser(app) as ada, browser(app) as other:
        signup(ada)
        game = ada.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
        assert [g["id"] for g in ada.post("/api/games/summaries", json={"ids": [game["id"]]}).json()["games"]] == [game["id"]]
        assert other.post("/api/games/summaries", json={"ids": [game["id"]]}).json()["games"] == []


def test_a_penguin_daily_ranks_by_partial_score(app, now):
    app.state.services.pool.add(Found("penguin", 1, ()))
    with browser(app) as ada, browser(app) as bob:
        signup(ada, "ada")
        signup(bob, "bob")
        attempt = daily(ada, "penguin")
        daily(bob, "penguin")
        line = [str(step) for step in solve(game_class("penguin").from_deck(app.state.decks["penguin"]), Budget(seconds=10)).line]
        home = next(index for index, step in enumerate(line) if step.endswith("o"))
        for step in line[: home + 1]:  # up to the first card brought home: 4 of 52
            assert move(ada, attempt["id"], step).status_code == 200
        result = board(ada, "penguin")
    first, second = result["entries"]
    assert (first["player"], first["partial"], first["cards_left"]) == ("ada", 4, 48)
    assert (second["player"], second["partial"], second["cards_left"]) == ("bob", 3, 49)
