"""The web API, end to end through FastAPI's TestClient on a temporary SQLite file."""

from __future__ import annotations

import threading
import time

import pytest

from webapp import make_client
from winnable import Budget, solve
from winnable.blackhole import BlackHole
from winnable.web.settings import Settings
from winnable.web.views import click_choices, player_view

BUDGET = Budget(seconds=10)


def stored_games(client) -> int:
    return client.app.state.services.games.store.count()


def new_game(client, deal=2, **extra) -> dict:
    response = client.post("/api/games", json={"game": "black-hole", "deal": deal, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def play(client, game_id, move):
    return client.post(f"/api/games/{game_id}/moves", json={"move": move})


def lose(client, game: dict) -> dict:
    """Play the last listed legal move until the game ends (deal 2 is lost this way)."""
    state = game
    while state["status"] == "playing":
        response = play(client, game["id"], state["legal"][-1]["move"])
        assert response.status_code == 200
        state = response.json()
    return state


def winnable(position) -> bool:
    verdict = solve(position, BUDGET)
    assert verdict.status.value != "unknown"
    return verdict.won


# -- catalog, health, docs ----------------------------------------------------------------
def test_catalog_lists_every_registered_game(client):
    from winnable.games import game_class, game_ids

    catalog = client.get("/api/catalog").json()
    assert [entry["id"] for entry in catalog] == game_ids()
    black_hole = catalog[0]
    assert black_hole["title"] == game_class("black-hole").title
    assert black_hole["family"] == "blackhole"
    assert black_hole["undo_modes"] == ["unlimited", "one", "none"]
    assert black_hole["hidden_cards"] is False


def test_catalog_says_which_game_each_one_varies_and_what_the_lobby_draws(client):
    from winnable.games import registered

    catalog = {entry["id"]: entry for entry in client.get("/api/catalog").json()}
    assert catalog["penguin-6"]["variant_of"] == "penguin" and catalog["penguin"]["variant_of"] is None
    assert catalog["spider-2"]["variant_of"] is None  # a game of its own: a full tile of the Spider family
    assert [game for game, entry in catalog.items() if entry["variant_of"]] == [
        "penguin-relaxed",
        "penguin-6",
        "penguin-5",
        "penguin-3",
        "penguin-0",
        "penguin-pysolfc",
    ]
    assert catalog["black-widow"]["picture"] == [None, "9S", "8H"]
    assert catalog["penguin-6"]["picture"] == catalog["penguin"]["picture"] == ["JC", "TC", "9C"]
    assert all(entry["family"] == registered(game).family for game, entry in catalog.items())


def test_the_lobby_is_rendered_with_the_registry_s_families_in_the_request_s_language(client):
    import json
    import re

    def families(lang: str) -> list[dict]:
        page = client.get(f"/?lang={lang}").text
        found = re.search(r'<script id="lobby-families" type="application/json">(.*?)</script>', page)
        assert found, "the lobby carries its families"
        return json.loads(found.group(1))

    english, dutch = families("en"), families("nl")
    assert [family["id"] for family in english] == ["blackhole", "freecell", "spider", "fourteen"]  # no family without a web game
    assert [family["title"] for family in english] == ["Black Hole", "Penguin and the free-cell games", "Spider games", "Fourteen Out"]
    assert english[2]["blurb"] == "Two decks, ten columns: clear King-to-Ace runs of one suit."
    assert [family["title"] for family in dutch] == ["Black Hole", "Penguin en de spellen met vrije cellen", "Spider-spellen", "Veertien"]
    # The rules pages keep their own titles: the Spider family's names both its games.
    assert "<title>Black Widow en Spider" in client.get("/rules/spider-2?lang=nl").text


def test_health_and_openapi(client):
    assert client.get("/api/health").json() == {"status": "up"}
    spec = client.get("/openapi.json").json()
    for path in ("/api/games", "/api/games/{game_id}/moves", "/api/games/{game_id}/hint", "/api/games/{game_id}/analysis"):
        assert path in spec["paths"]
    assert client.get("/docs").status_code == 200


# -- creating and reading games ---------------------------------------------------------
def test_create_game_returns_the_deal_and_its_legal_moves(client):
    state = new_game(client, 2)
    position = BlackHole.deal(2)
    assert state["game"] == "black-hole" and state["deal"] == 2 and state["family"] == "blackhole"
    assert state["position"] == player_view(position)
    assert state["legal"] == click_choices(position)
    assert state["moves"] == [] and state["move_count"] == 0
    assert state["status"] == "playing" and state["finished_at"] is None
    assert state["undo"] == "unlimited" and state["undo_left"] is None
    assert state["winnable_deal"] is False
    assert state["links"]["deal"] == "/play/black-hole?deal=2"
    assert state["score"]["partial"] == 0 and state["score"]["out_of"] == 51
    assert client.get(f"/api/games/{state['id']}").json()["position"] == state["position"]


def test_random_deal_and_deal_as_text(client):
    state = client.post("/api/games", json={"game": "black-hole"}).json()
    assert 1 <= state["deal"] <= 10**6
    assert new_game(client, "17")["deal"] == 17


def test_a_deal_number_beyond_64_bits_is_kept_exactly(client):
    deal = 10**20 - 1
    state = new_game(client, deal)
    assert client.get(f"/api/games/{state['id']}").json()["deal"] == deal
    assert state["position"] == player_view(BlackHole.deal(deal))


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"game": "no-such-game", "deal": 1}, 404, "unknown game"),
        # the deal numbers' range is the schema's: 422 naming the bound
        ({"game": "black-hole", "deal": 0}, 422, "a deal number is 1 to 99999999999999999999"),
        ({"game": "black-hole", "deal": -5}, 422, "a deal number is 1 to 99999999999999999999"),
        ({"game": "black-hole", "deal": 10**20}, 422, "a deal number is 1 to 99999999999999999999"),
        ({"game": "black-hole", "deal": "seven"}, 422, "as a number or as its digits"),
        ({"game": "black-hole", "deal": "007"}, 422, "as a number or as its digits"),
        ({"game": "black-hole", "deal": 1.5}, 422, "deal"),
        ({"game": "black-hole", "deal": True}, 422, "deal"),
        ({"game": "black-hole", "winnable": 0}, 422, "winnable: Input should be a valid boolean"),
        ({"game": "black-hole", "think": "10"}, 422, "think"),
        ({"game": "black-hole", "deal": 1, "undo": "twice"}, 422, "undo"),
        ({"deal": 1}, 422, "game"),
        ([1, 2], 422, "JSON object"),
    ],
)
def test_bad_new_game_requests_are_refused_with_a_reason(client, body, status, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == status
    detail = response.json()["detail"]
    assert isinstance(detail, str) and words in detail
    assert stored_games(client) == 0


def test_malformed_json_is_refused(client):
    response = client.post("/api/games", content=b'{"game": "black-hole", ', headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json()["detail"] == "the request body is not valid JSON"


def test_unknown_game_id_is_404_everywhere(client):
    for method, path, *body in [
        ("get", "/api/games/nope"),
        ("post", "/api/games/nope/undo", {}),
        ("post", "/api/games/nope/restart", {}),
        ("get", "/api/games/nope/hint"),
        ("get", "/api/games/nope/analysis"),
        ("get", "/api/games/nope/position?at=0"),
    ]:
        response = getattr(client, method)(path, **({"json": body[0]} if body else {}))
        assert response.status_code == 404, path
        assert "no game with id" in response.json()["detail"]
    assert play(client, "nope", "KH").status_code == 404
    assert client.get("/api/games/" + "x" * 200).status_code == 404


# -- moves -------------------------------------------------------------------------------
def test_a_legal_move_is_played_and_stored(client):
    game = new_game(client, 2)
    state = play(client, game["id"], "KH").json()
    expected = BlackHole.deal(2).play("KH")
    assert state["moves"] == ["KH"] and state["move_count"] == 1
    assert state["position"] == player_view(expected)
    assert state["legal"] == click_choices(expected)
    assert state["score"]["partial"] == 1
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == ["KH"]


def test_a_move_by_pile_number_is_stored_in_card_notation(client):
    game = new_game(client, 2)
    pile = BlackHole.deal(2).pile_of(BlackHole.deal(2).parse_move("KH").card) + 1
    assert play(client, game["id"], str(pile)).json()["moves"] == ["KH"]


@pytest.mark.parametrize(
    "move, status, words",
    [
        ("QD", 409, "not the top card"),  # a card under others
        ("7D", 409, "not one rank above or below"),  # a top card of the wrong rank
        # text the schema takes but this game cannot read: 409 (the schema cannot know the game)
        ("ZZ", 409, "not a move"),  # not a card
        ("18", 409, "no pile 18"),
        ("3>7", 409, "not a move"),  # another game's notation
        ("", 422, "at least 1 character"),  # not a move in any game: the schema's refusal
        (" ", 422, "should match pattern"),
    ],
)
def test_illegal_and_malformed_moves_change_nothing(client, move, status, words):
    game = new_game(client, 2)
    play(client, game["id"], "KH")
    before = client.get(f"/api/games/{game['id']}").json()
    response = play(client, game["id"], move)
    assert response.status_code == status
    assert words in response.json()["detail"]
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["moves"] == before["moves"] == ["KH"] and after["position"] == before["position"]


def test_move_bodies_of_the_wrong_shape_are_422(client):
    game = new_game(client, 2)
    for body in ({}, {"mov": "KH"}, {"move": 7}, {"move": None}):
        response = client.post(f"/api/games/{game['id']}/moves", json=body)
        assert response.status_code == 422 and isinstance(response.json()["detail"], str)
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


def test_no_move_after_the_game_is_over(client):
    lost = lose(client, new_game(client, 2))
    assert lost["status"] == "lost" and lost["legal"] == [] and lost["finished_at"] is not None
    response = play(client, lost["id"], "KH")
    assert response.status_code == 409 and "over" in response.json()["detail"]


def test_the_same_move_sent_twice_at_once_is_played_once(client):
    game = new_game(client, 2)
    results = []

    def send():
        results.append(play(client, game["id"], "KH").status_code)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [200, 409, 409, 409]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == ["KH"]


# -- undo and restart ------------------------------------------------------------------
def test_unlimited_undo(client):
    game = new_game(client, 2)
    for move in ("KH", "AD"):
        play(client, game["id"], move)
    assert client.post(f"/api/games/{game['id']}/undo", json={}).json()["moves"] == ["KH"]
    state = client.post(f"/api/games/{game['id']}/undo", json={}).json()
    assert state["moves"] == [] and state["position"] == player_view(BlackHole.deal(2))
    response = client.post(f"/api/games/{game['id']}/undo", json={})
    assert response.status_code == 409 and "nothing to undo" in response.json()["detail"]


def test_one_undo_per_game(client):
    game = new_game(client, 2, undo="one")
    assert game["undo_left"] == 1
    play(client, game["id"], "KH")
    play(client, game["id"], "AD")
    state = client.post(f"/api/games/{game['id']}/undo", json={}).json()
    assert state["moves"] == ["KH"] and state["undo_left"] == 0
    response = client.post(f"/api/games/{game['id']}/undo", json={})
    assert response.status_code == 409 and "used up" in response.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == ["KH"]


def test_no_undo(client):
    game = new_game(client, 2, undo="none")
    assert game["undo_left"] == 0
    play(client, game["id"], "KH")
    response = client.post(f"/api/games/{game['id']}/undo", json={})
    assert response.status_code == 409 and "without undo" in response.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == ["KH"]


def test_undo_reopens_a_lost_game(client):
    lost = lose(client, new_game(client, 2))
    state = client.post(f"/api/games/{lost['id']}/undo", json={}).json()
    assert state["status"] == "playing" and state["finished_at"] is None and state["legal"]


def test_restart(client):
    game = new_game(client, 2, undo="one")
    play(client, game["id"], "KH")
    client.post(f"/api/games/{game['id']}/undo", json={})
    play(client, game["id"], "KH")
    state = client.post(f"/api/games/{game['id']}/restart", json={}).json()
    assert state["id"] == game["id"] and state["moves"] == [] and state["restarts"] == 1
    assert state["position"] == game["position"] and state["undo_left"] == 1


def test_position_at_replays_the_history(client):
    game = new_game(client, 2)
    for move in ("KH", "AD", "2S"):
        play(client, game["id"], move)
    at = client.get(f"/api/games/{game['id']}/position", params={"at": 1}).json()
    assert at["moves"] == ["KH"] and at["next_move"] == "AD"
    assert at["position"] == player_view(BlackHole.deal(2).play("KH"))
    past = client.get(f"/api/games/{game['id']}/position", params={"at": 4})  # no such position (yet): 404
    assert past.status_code == 404 and past.json()["code"] == "bad_position"
    assert client.get(f"/api/games/{game['id']}/position", params={"at": 10_001}).status_code == 422  # the move cap
    assert client.get(f"/api/games/{game['id']}/position", params={"at": -1}).status_code == 422


# -- persistence -------------------------------------------------------------------------
def test_games_survive_a_server_restart(db_url):
    with make_client(db_url) as first:
        game = new_game(first, 2, undo="one")
        for move in ("KH", "AD", "2S"):
            play(first, game["id"], move)
        first.post(f"/api/games/{game['id']}/undo", json={})
        lost = lose(first, new_game(first, 2))
    first.app.state.services.engine.dispose()
    with make_client(db_url) as second:  # a new app, a new process's worth of memory
        state = second.get(f"/api/games/{game['id']}").json()
        assert state["moves"] == ["KH", "AD"] and state["undo_left"] == 0
        assert state["position"] == player_view(BlackHole.deal(2).play_line(["KH", "AD"]))
        again = second.get(f"/api/games/{lost['id']}").json()
        assert again["status"] == "lost" and again["moves"] == lost["moves"]
        assert again["finished_at"] == lost["finished_at"]
        assert play(second, game["id"], "2S").json()["moves"] == ["KH", "AD", "2S"]


def test_the_schema_matches_the_models(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import migrate, schema_revision
    from winnable.storage.tables import Base

    engine = make_engine(db_url)
    migrate(engine)
    migrate(engine)  # idempotent
    assert schema_revision(engine) == "0013"
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []


# -- the solver features -----------------------------------------------------------------
def test_hint_is_legal_and_keeps_the_game_winnable(client):
    game = new_game(client, 2)
    play(client, game["id"], "KH")
    hint = client.get(f"/api/games/{game['id']}/hint").json()
    assert hint["verdict"] == "won" and hint["knows_hidden"] is False
    position = BlackHole.deal(2).play("KH")
    assert hint["describe"] in click_choices(position) and hint["describe"]["move"] == hint["move"]
    assert winnable(position.play(hint["move"]))


def test_following_hints_wins_and_they_come_from_the_cache(client):
    game = new_game(client, 2)
    state = game
    cached = []
    while state["status"] == "playing":
        hint = client.get(f"/api/games/{game['id']}/hint").json()
        cached.append(hint["cached"])
        state = play(client, game["id"], hint["move"]).json()
    assert state["status"] == "won" and state["move_count"] == 51
    assert state["score"]["partial"] == state["score"]["out_of"] == 51
    assert cached[0] is False and all(cached[1:])  # one search, then the stored line
    done = client.get(f"/api/games/{game['id']}/hint").json()
    assert done["move"] is None and done["verdict"] == "won"
    response = client.post(f"/api/games/{game['id']}/undo", json={})
    assert response.status_code == 409 and "won" in response.json()["detail"]


def test_hint_after_a_losing_move_says_there_is_no_winning_line(client):
    game = new_game(client, 2)
    lost = lose(client, game)
    client.post(f"/api/games/{game['id']}/undo", json={})  # a position with moves but no win
    hint = client.get(f"/api/games/{game['id']}/hint").json()
    assert hint["move"] is None and hint["verdict"] == "lost"
    assert "No winning line" in hint["message"]
    assert lost["status"] == "lost"


def test_analysis_finds_the_move_that_lost_the_game(client):
    game = new_game(client, 2)
    lost = lose(client, game)
    moves = lost["moves"]
    report = client.get(f"/api/games/{game['id']}/analysis").json()
    assert report["verdict"] == "lost" and report["winnable"] is True
    k = report["lost_at"]
    assert report["losing_move"] == moves[k]
    start = BlackHole.deal(2)
    before = start.play_line(moves[:k])
    assert winnable(before) and not winnable(before.play(moves[k]))
    assert report["better_move"] != moves[k] and winnable(before.play(report["better_move"]))
    # the replay endpoint shows the position to come back to
    at = client.get(f"/api/games/{game['id']}/position", params={"at": k}).json()
    assert at["position"] == player_view(before) and at["next_move"] == moves[k]


def test_analysis_of_an_unwinnable_deal_blames_no_move(client):
    assert solve(BlackHole.deal(1), BUDGET).lost
    game = new_game(client, 1)
    lose(client, game)
    report = client.get(f"/api/games/{game['id']}/analysis").json()
    assert report["verdict"] == "lost" and report["winnable"] is False and report["lost_at"] is None


def test_analysis_of_a_game_in_progress(client):
    game = new_game(client, 2)
    play(client, game["id"], "KH")
    report = client.get(f"/api/games/{game['id']}/analysis").json()
    assert report["verdict"] == "won" and report["winnable"] is True and report["lost_at"] is None


def test_hint_budget_is_validated(client):
    game = new_game(client, 2)
    assert client.get(f"/api/games/{game['id']}/hint", params={"seconds": 0}).status_code == 422
    assert client.get(f"/api/games/{game['id']}/hint", params={"seconds": "soon"}).status_code == 422


def test_winnable_mode_is_409_at_once_when_no_deal_is_proved(client):
    response = client.post("/api/games", json={"game": "black-hole", "winnable": True})
    assert response.status_code == 409 and response.json()["code"] == "no_winnable_deal"
    assert "Black Hole" in response.json()["detail"]
    assert stored_games(client) == 0 and client.app.state.services.solver.searches == 0  # no search ran


def test_winnable_mode_deals_a_proved_deal_with_its_proof(client):
    assert client.app.state.services.pool.fill("black-hole", 1) == 1
    response = client.post("/api/games", json={"game": "black-hole", "winnable": True})
    state = response.json()
    assert response.headers["x-winnable-source"] == "pool" and state["winnable_deal"] is True
    assert solve(BlackHole.deal(state["deal"]), BUDGET).won
    # the proof came with it: the first hint needs no search
    assert client.get(f"/api/games/{state['id']}/hint").json()["cached"] is True
    # every proved deal dealt once: one of them again, still without a search
    again = client.post("/api/games", json={"game": "black-hole", "winnable": True})
    assert again.status_code == 201 and again.headers["x-winnable-source"] == "reused"
    assert again.json()["deal"] == state["deal"]


def test_winnable_mode_takes_deals_from_the_pool(client):
    pool = client.app.state.services.pool
    assert pool.fill("black-hole", 2) == 2
    assert pool.ready("black-hole") == 2
    deals = set()
    for _ in range(2):
        state = client.post("/api/games", json={"game": "black-hole", "winnable": True, "undo": "none"}).json()
        assert state["winnable_deal"] is True and state["undo"] == "none"
        deals.add(state["deal"])
    assert len(deals) == 2 and pool.ready("black-hole") == 0
    for deal in deals:
        assert solve(BlackHole.deal(deal), BUDGET).won


@pytest.mark.slow
def test_the_background_filler_fills_the_pool(db_url):
    with make_client(db_url, pool_background=True, pool_size=3, pool_seconds=1.0) as client:
        deadline = time.monotonic() + 60
        pool = client.app.state.services.pool
        while pool.ready("black-hole") < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert pool.ready("black-hole") >= 3 and pool.filling  # more while a grade is short
        state = client.post("/api/games", json={"game": "black-hole", "winnable": True}).json()
        assert solve(BlackHole.deal(state["deal"]), BUDGET).won


# -- pages ---------------------------------------------------------------------------------
def test_pages_come_from_the_templates_and_files_from_the_static_folder(db_url, tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    (static / "app.js").write_text("console.log(1)")
    with make_client(db_url, static_dir=static) as client:
        lobby = client.get("/")
        assert lobby.status_code == 200 and '<html lang="en">' in lobby.text and 'id="families"' in lobby.text
        page = client.get("/play/black-hole?deal=5")
        assert page.status_code == 200 and "<title>Black Hole · Winnable</title>" in page.text
        assert page.headers["content-type"].startswith("text/html")
        assert '<h1 id="black-hole">Black Hole</h1>' in client.get("/rules/black-hole").text
        assert client.get("/static/app.js").text == "console.log(1)"
        missing = client.get("/static/nothing.js")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        unknown = client.get("/play/no-such-game")
        assert unknown.status_code == 404 and "unknown game" in unknown.text and unknown.headers["content-type"].startswith("text/html")
        assert client.get("/rules/no-such-game").status_code == 404


def test_settings_from_the_environment(monkeypatch):
    from pydantic import ValidationError

    for name, value in {
        "WINNABLE_DATABASE": "sqlite://",
        "WINNABLE_HINT_SECONDS": "0.5",
        "WINNABLE_POOL_SIZE": "3",
        "WINNABLE_ALLOWED_HOSTS": "a.example, b.example",
    }.items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    assert settings.database_url == "sqlite://" and settings.hint_seconds == 0.5 and settings.pool_size == 3
    assert settings.allowed_hosts == ["a.example", "b.example"]
    assert settings.with_overrides(pool_size=5).pool_size == 5  # flags win over the environment
    monkeypatch.setenv("WINNABLE_POOL_SIZE", "many")
    with pytest.raises(ValidationError):
        Settings()


def test_the_pool_pauses_a_game_whose_deals_are_never_proved(db_url):
    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import migrate
    from winnable.web.play.pool import PoolSettings, WinnablePool
    from winnable.web.play.solving import Solver

    engine = make_engine(db_url)
    migrate(engine)
    pool = WinnablePool(engine, Solver(), PoolSettings(size=2, seconds=0.01, give_up_after=3, backoff=30, rest=0))
    pool.try_deal = lambda game, deal, seconds: None  # as if no deal could be proved
    import random

    rng = random.Random(5)
    for _ in range(3):
        assert pool._fill_round(rng) is True
    progress = pool.progress["black-hole"]
    assert progress.attempts == 3 and progress.backoff == 30 and progress.resume_at > time.monotonic() + 20
    assert pool._fill_round(rng) is False  # paused: nothing to do now
    assert progress.attempts == 3


def test_upgrading_an_older_database_keeps_its_games(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'old.db'}"  # empty, made at revision 0001 below
    import sqlalchemy as sa
    from alembic import command

    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import alembic_config, migrate, schema_revision

    engine = make_engine(db_url)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
    rows = [("played", '["KH", "AD"]', None), ("fresh", "[]", None)]
    with engine.begin() as connection:
        for game_id, moves, finished in rows:
            connection.execute(
                sa.text(
                    "INSERT INTO games (id, game, deal, undo_mode, undo_used, moves, winnable_deal, restarts, created_at,"
                    " started_at, updated_at, finished_at, status) VALUES (:id, 'black-hole', '2', 'unlimited', 0, :moves,"
                    " 0, 0, '2026-01-01 10:00:00', '2026-01-01 10:00:00', '2026-01-01 10:05:00', :finished, 'playing')"
                ),
                {"id": game_id, "moves": moves, "finished": finished},
            )
    migrate(engine)
    assert schema_revision(engine) == "0013"
    with make_client(db_url) as client:
        played = client.get("/api/games/played").json()
        assert played["moves"] == ["KH", "AD"] and played["started_at"].startswith("2026-01-01T10:00:00")
        fresh = client.get("/api/games/fresh").json()
        assert fresh["started_at"] is None and fresh["elapsed_seconds"] == 0


def test_the_clock_starts_with_the_first_move(client):
    game = new_game(client, 2)
    assert game["started_at"] is None and game["elapsed_seconds"] == 0
    state = play(client, game["id"], "KH").json()
    assert state["started_at"] is not None
    time.sleep(0.05)
    assert client.get(f"/api/games/{game['id']}").json()["elapsed_seconds"] >= 0.05
    assert client.post(f"/api/games/{game['id']}/undo", json={}).json()["started_at"] == state["started_at"]
    restarted = client.post(f"/api/games/{game['id']}/restart", json={}).json()
    assert restarted["started_at"] is None and restarted["elapsed_seconds"] == 0


@pytest.mark.parametrize(
    "url, words",
    [
        ("foo://x", "unknown kind of database"),
        ("not a url", "not a database URL"),
        ("sqlite:////nonexistent-folder/x/games.db", "unable to open"),
    ],
)
def test_serve_with_a_bad_database_says_why(url, words, capsys):
    from winnable.web import run

    with pytest.raises(SystemExit) as stop:
        run("127.0.0.1", 0, url)
    assert stop.value.code == 2
    assert words in capsys.readouterr().err


def test_serve_hands_the_app_one_settings_object_and_leaves_the_environment_alone(tmp_path, monkeypatch):
    """`winnable serve`'s flags become fields of the one Settings object the app is built
    with; nothing is written to WINNABLE_* variables behind the app's back."""
    import os

    import uvicorn

    import winnable.web.app as web_app
    from winnable.web import run
    from winnable.web.settings import Settings

    made: dict = {}

    def build(url, settings=None, **overrides):
        made["url"], made["settings"] = url, settings
        return "app"

    monkeypatch.setattr(web_app, "create_app", build)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: made.setdefault("served", app))
    for name in ("WINNABLE_DATABASE", "WINNABLE_ALLOWED_HOSTS", "WINNABLE_METRICS"):
        monkeypatch.delenv(name, raising=False)
    before = {name: value for name, value in os.environ.items() if name.startswith("WINNABLE_")}
    url = f"sqlite:///{tmp_path / 'served.db'}"
    run("127.0.0.1", 0, url, allowed_hosts=["games.example.org"], metrics=True)
    assert made["served"] == "app" and made["url"] == url
    settings = made["settings"]
    assert isinstance(settings, Settings)
    assert settings.database_url == url and settings.allowed_hosts == ["games.example.org"] and settings.metrics
    assert {name: value for name, value in os.environ.items() if name.startswith("WINNABLE_")} == before


def test_workers_get_the_settings_object_serve_made(tmp_path, monkeypatch):
    import uvicorn

    import winnable.web.app as web_app
    from winnable.web import run
    from winnable.web.settings import SETTINGS_VARIABLE

    started: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app, workers=options.get("workers")))
    monkeypatch.setenv(SETTINGS_VARIABLE, "")  # restored (removed) after the test: run() sets it
    url = f"sqlite:///{tmp_path / 'served.db'}"
    run("127.0.0.1", 0, url, workers=2, allowed_hosts=["games.example.org"])
    assert started == {"app": "winnable.web.app:app_from_env", "workers": 2}
    made: dict = {}
    monkeypatch.setattr(web_app, "create_app", lambda url, settings=None: made.update(url=url, settings=settings))
    web_app.app_from_env()  # what each worker process runs
    assert made["url"] == url and made["settings"].allowed_hosts == ["games.example.org"]


def test_an_engine_failure_is_an_unknown_verdict_not_a_500(client, monkeypatch):
    from winnable.errors import EngineError

    def broken(self, nodes, seconds):
        raise EngineError("engine line refused at move 1")

    monkeypatch.setattr(BlackHole, "engine_search", broken)
    game = new_game(client, 3)
    hint = client.get(f"/api/games/{game['id']}/hint")
    assert hint.status_code == 200
    assert hint.json()["verdict"] == "unknown" and hint.json()["move"] is None
    assert "could not" in hint.json()["message"]
    assert client.get(f"/api/games/{game['id']}/analysis").json()["verdict"] == "unknown"


def test_analysis_uses_what_the_hints_proved(client):
    game = new_game(client, 2)
    state = game
    for _ in range(10):  # follow the hints for ten moves: a proved line up to move 10
        hint = client.get(f"/api/games/{game['id']}/hint").json()
        state = play(client, game["id"], hint["move"]).json()
    lost = lose(client, state)
    report = client.get(f"/api/games/{game['id']}/analysis").json()
    assert report["lost_at"] >= 10 and report["losing_move"] == lost["moves"][report["lost_at"]]
    probes = [check["at"] for check in report["checked"]]
    assert all(at > 10 for at in probes if at not in (0, len(lost["moves"])))


# -- pages: HEAD, error pages, caching, compression ------------------------------------------


def test_pages_answer_head_and_unknown_pages_are_html(client):
    for path in ("/", "/play/black-hole", "/rules/penguin"):
        head = client.head(path)
        assert head.status_code == 200 and head.headers["content-type"].startswith("text/html") and not head.content
    for path in ("/play/no-such-game", "/rules/no-such-game", "/no/such/page"):
        page = client.get(path)
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert '<a class="btn primary" href="/">' in page.text
    assert "<script>" not in client.get("/play/%3Cscript%3E").text  # the name is escaped
    # The API keeps answering JSON.
    api = client.get("/api/games/nope")
    assert api.status_code == 404 and api.json()["detail"]
    assert client.get("/api/no-such-thing").headers["content-type"].startswith("application/json")


def test_static_files_are_versioned_and_cached_for_a_year(client):
    page = client.get("/play/black-hole").text
    import re

    links = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert links and all(link.startswith("/static/v") for link in links)
    versioned = client.get(links[-1])
    assert versioned.status_code == 200 and versioned.headers["cache-control"] == "public, max-age=31536000, immutable"
    plain = client.get("/static/js/play.js")
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
    stale = client.get("/static/v000000000000/js/play.js")  # an older version's address
    assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"
    assert client.head(links[-1]).status_code == 200


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_pages_scripts_and_json_are_compressed(client, encoding):
    for path in ("/play/black-hole", "/static/js/play.js", "/api/catalog"):
        response = client.get(path, headers={"Accept-Encoding": encoding})
        assert response.headers.get("content-encoding") == encoding, path
        assert response.content  # httpx decodes it
    assert "content-encoding" not in client.get("/static/js/play.js", headers={"Accept-Encoding": "identity"}).headers


# -- safe moves home, the plain run home, "your games" ------------------------------------


def freecell_game(client, deal):
    response = client.post("/api/games", json={"game": "freecell", "deal": deal})
    assert response.status_code == 201
    return response.json()


def test_safe_moves_home_are_listed_and_played_on_request(client):
    game = freecell_game(client, 8)  # two Aces on top of columns 5 and 8
    assert game["safe"] == ["5o", "8o"] and game["finish"] is None
    state = client.post(f"/api/games/{game['id']}/moves", json={"move": "5o", "auto": True}).json()
    assert state["moves"][:2] == ["5o", "8o"] and state["safe"] == []
    # A move without auto plays that move only.
    other = freecell_game(client, 8)
    state = client.post(f"/api/games/{other['id']}/moves", json={"move": "5o"}).json()
    assert state["moves"] == ["5o"] and state["safe"] == ["8o"]


def test_undo_with_auto_takes_back_the_safe_moves_with_the_move(client):
    game = freecell_game(client, 8)
    state = client.post(f"/api/games/{game['id']}/moves", json={"move": "5o", "auto": True}).json()
    assert len(state["moves"]) >= 2
    refused = client.post(f"/api/games/{game['id']}/undo", json={"auto": True})
    assert refused.status_code == 409 and "only safe moves" in refused.json()["detail"]
    chosen = next(entry["move"] for entry in state["legal"] if not entry["move"].endswith("o"))
    after = client.post(f"/api/games/{game['id']}/moves", json={"move": chosen, "auto": True}).json()
    undone = client.post(f"/api/games/{game['id']}/undo", json={"auto": True}).json()
    assert undone["moves"] == state["moves"] and len(after["moves"]) > len(state["moves"])
    # A plain undo takes back one move.
    plain = client.post(f"/api/games/{game['id']}/undo", json={}).json()
    assert plain["moves"] == state["moves"][:-1]


def test_the_plain_run_home_is_offered_as_finish(client):
    line = [str(move) for move in solve(game_class_of("freecell").deal(1)).line]
    game = freecell_game(client, 1)
    state = game
    for move in line:
        if state["finish"]:
            break
        state = play(client, game["id"], move).json()
    assert state["finish"] and state["status"] == "playing"
    for move in state["finish"]:
        state = play(client, game["id"], move).json()
    assert state["status"] == "won" and state["finish"] is None


def game_class_of(game_id):
    from winnable.games import game_class

    return game_class(game_id)


def test_your_games_are_summarised_from_their_ids(client):
    first = new_game(client, 2)
    second = freecell_game(client, 8)
    play(client, first["id"], first["legal"][0]["move"])
    listed = client.post("/api/games/summaries", json={"ids": [second["id"], first["id"], "no-such-id", "x" * 40]}).json()["games"]
    assert [game["id"] for game in listed] == [first["id"], second["id"]]  # the latest played first
    assert listed[0]["moves"] == 1 and listed[0]["deal"] == 2 and listed[0]["status"] == "playing"
    assert listed[0]["links"]["resume"] == f"/play/black-hole?id={first['id']}"
    assert client.post("/api/games/summaries", json={"ids": []}).json() == {"games": []}
    too_many = client.post("/api/games/summaries", json={"ids": [str(i) for i in range(101)]})
    assert too_many.status_code == 422
    assert client.post("/api/games/summaries", json={"ids": "abc"}).status_code == 422
