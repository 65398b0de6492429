"""The Daily is played, not looked up (issue 19): no answer shows or confirms its deal
number during its day, no deal number of any game or numbering opens its cards for the
solver, no answer tells whether a guessed number is today's, and a name plays each
Daily once, whatever happens to its account.

Every test runs on SQLite and on PostgreSQL (a fresh database of the session's
server; skipped without one).
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from webapp import PASSWORD, SITE, browser, make_app, signup
from winnable.deals import shuffled
from winnable.decks import Deck
from winnable.games import game_class, game_ids
from winnable.storage.engine import utcnow
from winnable.storage.tables import DailyAttempt
from winnable.web.play.pool import Found

PROVED = {game: 1000 + index for index, game in enumerate(game_ids())}
"""One 'proved' deal a game in the pool: what offers the game a Daily (and what the
Dailies were drawn from before they were deck orders)."""
NO_DAILY = {"penguin-0"}  # no deal of it is ever won: no deck order is either


def sharing(game: str) -> list[str]:
    """The game ids whose deal N has the same cards, in the same dealing order, as
    ``game``'s deal N: every game dealt from as many decks (PySolFC shuffles one or two
    decks the same way whatever the game; each lays the order out its own way, and one-
    and two-suit Spider only rename suits). Microsoft's ``ms`` numbers are one more
    numbering of the same orders."""
    return [other for other in game_ids() if game_class(other).decks == game_class(game).decks]


@pytest.fixture
def db_url(sqlite_and_postgres_url):
    return sqlite_and_postgres_url


@pytest.fixture
def app(db_url):
    app = make_app(db_url)
    for game, deal in PROVED.items():
        app.state.services.pool.add(Found(game, deal, ()))
    yield app
    app.state.services.engine.dispose()


def todays_deck(app, game: str) -> Deck:
    """The cards of today's Daily of ``game`` in dealing order, from the server's own
    record (a deck order; a number's order if the Daily is a number)."""
    source = app.state.services.daily.deal_of(game, utcnow().date())
    return source if isinstance(source, Deck) else Deck.of_deal(source, game_class(game).decks)


def deals_in(answer) -> list:
    """Every value of a ``deal`` key anywhere in a JSON answer, and every ``deal=`` link."""
    found = []
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key == "deal":
                found.append(value)
            found += deals_in(value)
    elif isinstance(answer, list):
        for value in answer:
            found += deals_in(value)
    elif isinstance(answer, str) and "deal=" in answer:
        found.append(answer)
    return found


# -- no number shown ------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_no_daily_answer_or_page_shows_a_deal_number(app, lang):
    with browser(app) as client:
        signup(client)
        state = client.get(f"/api/daily/freecell?lang={lang}").json()
        game_id = state["id"]
        client.post(f"/api/games/{game_id}/moves?lang={lang}", json={"move": state["legal"][0]["move"]})
        answers = [
            state,
            client.get(f"/api/games/{game_id}?lang={lang}").json(),
            client.get(f"/api/games/{game_id}/position?at=0&lang={lang}").json(),
            client.get(f"/api/daily/freecell/leaderboard?lang={lang}").json(),
            client.get(f"/api/daily?lang={lang}").json(),
            client.post(f"/api/games/summaries?lang={lang}", json={"ids": [game_id]}).json(),
            client.get(f"/api/stats?lang={lang}").json(),
            client.get("/api/account/export").json(),
            # and its errors: hint, analysis, restart
            client.get(f"/api/games/{game_id}/hint?lang={lang}").json(),
            client.get(f"/api/games/{game_id}/analysis?lang={lang}").json(),
            client.post(f"/api/games/{game_id}/restart?lang={lang}", json={}).json(),
        ]
        assert all(value is None for value in deals_in(answers)), deals_in(answers)
        assert "deal" not in state["links"]
        # the pages (their titles and addresses included) carry no number either
        for path in (
            f"/play/freecell?id={game_id}&lang={lang}",
            f"/daily?game=freecell&lang={lang}",
            f"/stats?lang={lang}",
            f"/account?lang={lang}",
        ):
            page = client.get(path)
            assert page.status_code == 200 and "deal=" not in page.text and "data-deal" not in page.text
        # The only number the old Dailies were drawn from is nowhere in any answer.
        assert str(PROVED["freecell"]) not in json.dumps(answers)


# -- no other door to the cards --------------------------------------------------------------
@pytest.mark.parametrize("daily_game", [game for game in game_ids() if game not in NO_DAILY])
def test_no_deal_number_of_any_game_opens_the_dailys_cards_for_the_solver(app, daily_game):
    """Whatever number the server shows about the Daily or the pool holds, opened under
    every game id dealt from the same deck order (and as Microsoft's ms number): either
    its cards are not the Daily's, or hints and analyses are refused."""
    with browser(app) as player, browser(app) as attacker:
        signup(player)
        state = player.get(f"/api/daily/{daily_game}")
        assert state.status_code == 200, state.text
        deck = todays_deck(app, daily_game)
        shown = [value for value in deals_in(state.json()) if isinstance(value, int)]
        numbers = set(shown) | {PROVED[daily_game]}  # (the pool's: the old Dailies' source)
        for other in sharing(daily_game):
            for number in sorted(numbers):
                for written in (number, f"ms{number}"):
                    opened = attacker.post("/api/games", json={"game": other, "deal": written})
                    assert opened.status_code in (201, 422), opened.text  # (the web takes no ms numbers: 422)
                    if opened.status_code != 201 or Deck.of_deal(written, deck.decks) != deck:
                        continue
                    game_id = opened.json()["id"]
                    for ask in ("hint", "analysis"):
                        answer = attacker.get(f"/api/games/{game_id}/{ask}?seconds=1")
                        assert answer.status_code != 200, f"{other} {written} has the {daily_game} Daily's cards: {ask}"


def test_the_dailys_cards_are_no_deal_number_within_reach(app):
    """The Daily's deck order is none of the deals a search would try first: Microsoft's
    original 32,000 (PySolFC's and Microsoft's numbers agree there), nor the pool's."""
    if app.state.services.engine.dialect.name != "sqlite":
        pytest.skip("the cards do not depend on the database (and the 32,000 shuffles take seconds)")
    with browser(app) as player:
        signup(player)
        assert player.get("/api/daily/freecell").status_code == 200
    deck = list(todays_deck(app, "freecell").cards)
    for number in [*range(1, 32000), PROVED["freecell"]]:  # (6 s)
        assert shuffled(number) != deck, f"the Daily is deal {number}"


# -- no oracle ----------------------------------------------------------------------------
def test_no_answer_tells_whether_a_guessed_number_is_todays_daily(app):
    with browser(app) as player, browser(app) as guesser:
        signup(player)
        assert player.get("/api/daily/black-hole").status_code == 200
        answers = {}
        for number in (PROVED["black-hole"], PROVED["black-hole"] + 1, 7):
            response = guesser.post("/api/games", json={"game": "black-hole", "deal": number})
            answers[number] = (response.status_code, tuple(sorted(response.json())), response.json().get("code"))
        assert len(set(answers.values())) == 1, answers
        winnable = guesser.post("/api/games", json={"game": "black-hole", "winnable": True})
        assert winnable.status_code == 201 and winnable.json()["deal"] == PROVED["black-hole"]


# -- one attempt per name and day -----------------------------------------------------------
def test_an_account_made_again_with_the_same_name_gets_no_second_attempt(app):
    with browser(app) as first:
        signup(first, "ada")
        attempt = first.get("/api/daily/black-hole").json()
        assert first.post(f"/api/games/{attempt['id']}/moves", json={"move": attempt["legal"][0]["move"]}).status_code == 200
        assert first.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
        # the anonymous attempt stays on the leaderboard, and nobody plays it on
        assert first.post(f"/api/games/{attempt['id']}/moves", json={"move": "KH"}).status_code == 404
    for name in ("ada", "ADA", "Ada"):
        with browser(app) as again:
            response = again.post("/api/auth/signup", json={"name": name, "password": PASSWORD})
            if response.status_code == 409:  # "ADA" after "ada" was made again: the same name
                continue
            assert response.status_code == 201
            second = again.get("/api/daily/black-hole")
            assert second.status_code == 409 and second.json()["code"] == "daily_played"
            assert again.get("/api/daily/black-hole?lang=fr").json()["code"] == "daily_played"
            assert again.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    # Unicode look-alikes are not names at all (names are ASCII letters and digits)
    with browser(app) as lookalike:
        for name in ("\u0430da", "\uff41\uff44\uff41", "a\u0301da"):
            refused = lookalike.post("/api/auth/signup", json={"name": name, "password": PASSWORD})
            assert refused.status_code == 422 and refused.json()["code"] == "bad_name"
    with browser(app) as other:  # another name plays, once
        signup(other, "bob")
        assert other.get("/api/daily/black-hole").status_code == 200
        assert other.get("/api/daily/other-game").status_code == 404
    board = TestClient(app, base_url=SITE).get("/api/daily/black-hole/leaderboard").json()
    assert board["players"] == 2 and [entry["player"] for entry in board["entries"]].count(None) == 1
    with Session(app.state.services.engine) as session:
        assert session.scalar(select(func.count()).select_from(DailyAttempt)) == 2


def test_the_name_plays_again_the_next_day(app):
    clock = type("Clock", (), {"at": utcnow(), "__call__": lambda self: self.at})()
    app.state.services.games.clock = clock
    with browser(app) as first:
        signup(first, "ada")
        assert first.get("/api/daily/black-hole").status_code == 200
        assert first.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    clock.at += dt.timedelta(days=1)
    with browser(app) as again:
        signup(again, "ada")
        assert again.get("/api/daily/black-hole").status_code == 200


def test_attempts_made_before_deck_orders_keep_one_attempt_per_name(tmp_path):
    """Revision 0008 gives the attempts already made the digest of their player's name,
    keeps Dailies that were numbers, and goes back down."""
    import sqlalchemy as sa
    from alembic import command

    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import alembic_config, migrate
    from winnable.storage.tables import DailyDeal
    from winnable.web.players.daily import name_digest

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    day = utcnow().date()
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0006")
        connection.execute(
            sa.text(
                "INSERT INTO users (id, name, name_key, password_hash, created_at) VALUES (1, 'Ada', 'ada', 'x', '2026-01-01 10:00:00')"
            )
        )
        connection.execute(
            sa.text(
                "INSERT INTO games (id, game, deal, undo_mode, undo_used, moves, winnable_deal, restarts, "
                "created_at, updated_at, status, hints_used, move_count, daily_day) VALUES "
                "('g1', 'black-hole', '3', 'unlimited', 0, '[]', 1, 0, '2026-01-01 10:00:00', "
                "'2026-01-01 10:00:00', 'playing', 0, 0, :day)"
            ),
            {"day": day},
        )
        connection.execute(
            sa.text("INSERT INTO daily_deals (game, day, deal, created_at) VALUES ('black-hole', :day, '3', '2026-01-01 10:00:00')"),
            {"day": day},
        )
        connection.execute(
            sa.text(
                "INSERT INTO daily_attempts (game, day, user_id, game_id, created_at) VALUES "
                "('black-hole', :day, 1, 'g1', '2026-01-01 10:00:00')"
            ),
            {"day": day},
        )
        connection.execute(
            sa.text("INSERT INTO daily_deals (game, day, deal, created_at) VALUES ('freecell', :day, '3', '2026-01-01 10:00:00')"),
            {"day": day},
        )
    migrate(engine)
    with Session(engine) as session:
        assert session.scalar(select(DailyAttempt.name_key)) == name_digest("ada") == name_digest("ADA")
        assert session.get(DailyDeal, ("black-hole", day)).layout is None  # started: kept
        assert session.get(DailyDeal, ("freecell", day)) is None  # not started: drawn again, as a deck order
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0006")
        assert connection.execute(sa.text("SELECT count(*) FROM daily_attempts")).scalar() == 1
    engine.dispose()


def test_a_game_whose_draws_find_no_win_has_no_daily_and_draws_once(app):
    """Penguin without free cells: every order drawn is lost, so no Daily (409
    ``daily_unavailable``), and the draw is not run again at each request."""
    calls = []
    real = app.state.services.daily.draw
    app.state.services.daily.draw = lambda game: calls.append(game) or real(game)
    with browser(app) as player:
        signup(player)
        for _ in range(3):
            refused = player.get("/api/daily/penguin-0")
            assert refused.status_code == 409 and refused.json()["code"] == "daily_unavailable"
    assert calls == ["penguin-0"]
