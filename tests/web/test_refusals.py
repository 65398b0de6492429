"""A refusal costs nothing (issue 19, item 4): no row is written for a refused request; a
guest session is made when a guest first stores a game; guest sessions expire and are
purged. (Latency and CPU figures: ``bench/load.py --storm``.)"""

from __future__ import annotations

import datetime as dt
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

import webapp
from webapp import client_at
from winnable.storage.engine import utcnow
from winnable.storage.tables import GameRow, SessionRow, User
from winnable.web.players.accounts import COOKIE, digest


def make_app(url, **settings):
    """The test app with the server's rate limits on."""
    return webapp.make_app(url, **({"rate_limits": True} | settings))


def rows(app, model) -> int:
    with Session(app.state.services.engine) as session:
        return session.scalar(select(func.count()).select_from(model)) or 0


def test_a_winnable_storm_from_20_addresses_writes_no_row(db_url):
    """20 addresses asking for Winnable deals of a game none of whose deals is proved:
    every request is refused (409, then 429 past each address's limit) and none of them
    writes a guest session, a game or anything else."""
    app = make_app(db_url, limit_create="10/minute")
    codes: list[int] = []
    storms = [client_at(app, f"10.20.0.{k}") for k in range(20)]
    for round_ in range(15):
        for storm in storms:
            answer = storm.post("/api/games", json={"game": "penguin-0", "winnable": True})
            codes.append(answer.status_code)
            assert COOKIE not in answer.cookies  # no session handed out either
    assert codes.count(409) == 200 and codes.count(429) == 100
    assert rows(app, SessionRow) == 0 and rows(app, GameRow) == 0


@pytest.mark.parametrize(
    "body, status",
    [
        ({"game": "penguin-0", "winnable": True}, 409),  # no proved deal
        ({"game": "black-hole", "deal": "x"}, 422),  # not a deal number
        ({"game": "black-hole", "deal": "ms99999999999"}, 422),  # past Microsoft's numbers
        ({"game": "penguin", "deal": 2, "think": 30}, 409),  # timed play is Black Hole's
        ({"game": "no-such-game"}, 404),
    ],
)
def test_no_refused_new_game_writes_a_guest_session(db_url, body, status):
    app = make_app(db_url, rate_limits=False)
    with client_at(app, "10.0.0.1") as client:
        answer = client.post("/api/games", json=body)
        assert answer.status_code == status, answer.text
        assert COOKIE not in answer.cookies
    assert rows(app, SessionRow) == 0 and rows(app, GameRow) == 0


def test_refused_sign_ins_and_reads_write_no_row(db_url):
    app = make_app(db_url, limit_login_name="2/minute")
    with client_at(app, "10.0.0.1") as client:
        for k in range(4):
            assert client.post("/api/auth/login", json={"name": "ada", "password": f"guess {k}!!"}).status_code in (401, 429)
        assert client.post("/api/auth/signup", json={"name": "a", "password": "x"}).status_code == 422
        assert client.get("/api/games/nosuchgame").status_code == 404
        assert client.get("/api/auth/me").status_code == 200
    assert rows(app, SessionRow) == 0 and rows(app, User) == 0


def test_a_guest_session_is_made_with_the_first_game_and_kept_for_the_next(db_url):
    app = make_app(db_url, rate_limits=False)
    with client_at(app, "10.0.0.1") as guest:
        assert guest.post("/api/games", json={"game": "penguin-0", "winnable": True}).status_code == 409
        assert rows(app, SessionRow) == 0
        first = guest.post("/api/games", json={"game": "black-hole", "deal": 2})
        assert first.status_code == 201
        token = guest.cookies[COOKIE]
        assert rows(app, SessionRow) == 1
        second = guest.post("/api/games", json={"game": "black-hole", "deal": 3})
        assert second.status_code == 201 and guest.cookies[COOKIE] == token
        assert rows(app, SessionRow) == 1
        assert guest.get("/api/auth/me").json()["guest"] is True
    with Session(app.state.services.engine) as session:
        assert set(session.scalars(select(GameRow.guest))) == {digest(token)}
        (expires,) = session.scalars(select(SessionRow.expires_at)).all()
    left = expires.replace(tzinfo=dt.UTC) - utcnow()
    assert dt.timedelta(days=364) < left <= dt.timedelta(days=365)  # WINNABLE_GUEST_DAYS


def test_the_guest_sessions_lifetime_is_a_setting(db_url):
    app = make_app(db_url, rate_limits=False, guest_days=2)
    with client_at(app, "10.0.0.1") as guest:
        guest.post("/api/games", json={"game": "black-hole", "deal": 2})
    with Session(app.state.services.engine) as session:
        (expires,) = session.scalars(select(SessionRow.expires_at)).all()
    assert expires.replace(tzinfo=dt.UTC) - utcnow() <= dt.timedelta(days=2)


def add_session(
    app, key: str, *, user_id=None, age: dt.timedelta = dt.timedelta(0), left: dt.timedelta = dt.timedelta(days=1), game: bool = False
) -> None:
    now = utcnow()
    with Session(app.state.services.engine) as session, session.begin():
        session.add(SessionRow(id=key, user_id=user_id, created_at=now - age, seen_at=now - age, expires_at=now + left))
        if game:
            session.add(GameRow(id=f"g-{key}", game="black-hole", deal="2", undo_mode="unlimited", guest=key))


def test_expired_and_empty_guest_sessions_are_purged_in_batches(db_url):
    app = make_app(db_url, rate_limits=False)
    with Session(app.state.services.engine) as session, session.begin():
        session.add(User(id=1, name="ada", name_key="ada", password_hash="x", created_at=utcnow()))
    day = dt.timedelta(days=1)
    for k in range(7):  # expired guests (with a game or not) and an expired player's session
        add_session(app, f"expired-{k}", age=2 * day, left=-dt.timedelta(seconds=1), game=k % 2 == 0)
    add_session(app, "expired-player", user_id=1, age=40 * day, left=-day)
    for k in range(5):  # guests of a storm before the fix: sessions that never kept a game
        add_session(app, f"empty-{k}", age=2 * day)
    add_session(app, "empty-new")  # a minute old: its game may be on its way
    add_session(app, "guest", age=100 * day, game=True)
    add_session(app, "player", user_id=1)
    gone = app.state.services.accounts.purge(batch=3, pause=0)
    assert gone == 13
    with Session(app.state.services.engine) as session:
        assert set(session.scalars(select(SessionRow.id))) == {"empty-new", "guest", "player"}
        assert session.scalar(select(func.count()).select_from(GameRow)) == 5  # games stay, reached by their ids


def test_the_server_purges_in_the_background(db_url):
    app = make_app(db_url, rate_limits=False, purge_minutes=0.002)
    add_session(app, "expired", age=dt.timedelta(days=2), left=-dt.timedelta(seconds=1))
    with TestClient(app):  # the app running: its purger too
        deadline = time.monotonic() + 10
        while rows(app, SessionRow) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert rows(app, SessionRow) == 0
    assert not app.state.services.purger.running
