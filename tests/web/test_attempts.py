"""The one attempt per player and name that the Daily and the challenges keep
(:mod:`winnable.web.players.attempts`): started once, found again, refused to a name
that played under another account."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from webapp import browser, make_app, signup
from winnable.storage.tables import GameRow, User
from winnable.web.errors import Conflict
from winnable.web.players.attempts import name_digest
from winnable.web.security.identity import Viewer


@pytest.fixture()
def app(tmp_path):
    return make_app(f"sqlite:///{tmp_path / 'games.db'}")


def account(app, name: str) -> Viewer:
    signup(browser(app), name)
    engine = app.state.services.engine
    with Session(engine) as session:
        return Viewer(user_id=session.scalar(select(User.id).where(User.name == name)), name=name)


def games_stored(app) -> int:
    with Session(app.state.services.engine) as session:
        return session.scalar(select(func.count()).select_from(GameRow))


def test_an_attempt_is_started_once_and_found_again(app):
    services = app.state.services
    attempts = services.daily.attempts
    ada = account(app, "ada")
    key = {"game": "black-hole", "day": dt.date(2026, 1, 2)}
    name = name_digest("Ada")
    assert attempts.find(key, ada.user_id, name) is None
    first, _ = services.games.new_row("black-hole", 5, owner=ada)
    assert attempts.start(key, ada, name, first) == first.id
    assert attempts.find(key, ada.user_id, name) == first.id
    # Another tab's start finds the attempt there: no second game is stored.
    second, _ = services.games.new_row("black-hole", 6, owner=ada)
    assert attempts.start(key, ada, name, second) == first.id
    assert games_stored(app) == 1
    # Another day is another attempt.
    assert attempts.find(key | {"day": dt.date(2026, 1, 3)}, ada.user_id, name) is None


def test_a_name_that_played_under_another_account_is_refused(app):
    services = app.state.services
    ada, bob = account(app, "ada"), account(app, "bob")
    key = {"game": "black-hole", "day": dt.date(2026, 1, 2)}
    row, _ = services.games.new_row("black-hole", 5, owner=ada)
    services.daily.attempts.start(key, ada, name_digest("ada"), row)
    with pytest.raises(Conflict) as refused:  # bob's account, ada's name (her account deleted, made again)
        services.daily.attempts.find(key, bob.user_id, name_digest("ADA"))
    assert refused.value.code == "daily_played"
    assert services.daily.attempts.find(key, bob.user_id, name_digest("bob")) is None
