"""The web app on a real PostgreSQL: a throwaway server started by the tests
(``postgres_url`` in conftest.py, one per test session).

Skipped when PostgreSQL's ``initdb`` or the ``psycopg`` driver (``pip install
winnable[postgres]``) is missing; under ``CI=true`` they fail instead (``required.py``).
"""

from __future__ import annotations

import threading

from webapp import make_client
from winnable import Budget, solve
from winnable.blackhole import BlackHole


def test_play_undo_and_restart_on_postgres(postgres_url):
    with make_client(postgres_url) as client:
        game = client.post("/api/games", json={"game": "black-hole", "deal": 2, "undo": "one"}).json()
        assert client.post(f"/api/games/{game['id']}/moves", json={"move": "KH"}).json()["moves"] == ["KH"]
        refused = client.post(f"/api/games/{game['id']}/moves", json={"move": "7D"})
        assert refused.status_code == 409
        assert client.post(f"/api/games/{game['id']}/undo", json={}).json()["moves"] == []
        assert client.post(f"/api/games/{game['id']}/undo", json={}).status_code == 409
        deal = 10**20 - 1
        big = client.post("/api/games", json={"game": "black-hole", "deal": deal}).json()
        assert client.get(f"/api/games/{big['id']}").json()["deal"] == deal
    client.app.state.services.engine.dispose()
    with make_client(postgres_url) as again:  # a restarted server finds everything
        state = again.get(f"/api/games/{game['id']}").json()
        assert state["moves"] == [] and state["undo_left"] == 0


def test_concurrent_moves_on_postgres_are_serialised(postgres_url):
    with make_client(postgres_url) as client:
        game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
        codes = []
        threads = [
            threading.Thread(target=lambda: codes.append(client.post(f"/api/games/{game['id']}/moves", json={"move": "KH"}).status_code))
            for _ in range(4)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(codes) == [200, 409, 409, 409]
        assert client.get(f"/api/games/{game['id']}").json()["moves"] == ["KH"]


def test_winnable_pool_and_analysis_on_postgres(postgres_url):
    with make_client(postgres_url) as client:
        pool = client.app.state.services.pool
        before = pool.ready("black-hole")
        assert pool.fill("black-hole", 2) == 2 and pool.ready("black-hole") == before + 2
        state = client.post("/api/games", json={"game": "black-hole", "winnable": True}).json()
        assert state["winnable_deal"] and solve(BlackHole.deal(state["deal"]), Budget(seconds=10)).won
        assert pool.ready("black-hole") == before + 1
        game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
        current = game
        while current["status"] == "playing":
            current = client.post(f"/api/games/{game['id']}/moves", json={"move": current["legal"][-1]["move"]}).json()
        report = client.get(f"/api/games/{game['id']}/analysis").json()
        assert report["winnable"] is True and report["losing_move"] == current["moves"][report["lost_at"]]


def test_migrations_are_idempotent_on_postgres(postgres_url):
    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import migrate, schema_revision

    engine = make_engine(postgres_url)
    migrate(engine)
    migrate(engine)
    assert schema_revision(engine) == "0014"
    engine.dispose()


def test_the_background_filler_works_on_postgres(postgres_url):
    import time

    with make_client(postgres_url, pool_background=True, pool_size=3, pool_seconds=1.0) as client:
        deadline = time.monotonic() + 60
        pool = client.app.state.services.pool
        while pool.ready("black-hole") < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert pool.ready("black-hole") >= 3


def test_hostile_ids_on_postgres(postgres_url):
    with make_client(postgres_url) as client:
        assert client.get("/api/games/a%00b").status_code == 404
        response = client.post("/api/games/summaries", json={"ids": ["a\x00b", "\x00"]})
        assert response.status_code == 200 and response.json() == {"games": []}


def test_connections_the_database_dropped_are_replaced(postgres_url):
    import sqlalchemy as sa

    with make_client(postgres_url) as client:
        game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
        assert client.get(f"/api/games/{game['id']}").status_code == 200
        killer = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
        with killer.connect() as connection:  # as a database restart would
            connection.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database()"
                )
            )
        killer.dispose()
        assert client.get(f"/api/games/{game['id']}").status_code == 200
        assert client.post(f"/api/games/{game['id']}/moves", json={"move": "KH"}).status_code == 200
