"""The Daily under ``winnable serve --workers 2`` on PostgreSQL: concurrent first requests
of many players (two tabs each) get one deal for everyone (one secret deck order, no
deal number) and one attempt per player.

The server runs in a subprocess on its own database of the test session's PostgreSQL;
skipped when PostgreSQL or psycopg is missing (failed under ``CI=true``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ports import free_port
from winnable.blackhole import BlackHole
from winnable.decks import Deck
from winnable.storage.engine import make_engine
from winnable.storage.migrate import migrate
from winnable.storage.tables import DailyAttempt, DailyDeal, GameRow
from winnable.web.play.pool import Found, WinnablePool
from winnable.web.play.solving import Solver
from winnable.web.views import player_view

PLAYERS = 12
PROVED = (3, 4, 5, 6)  # Black Hole deals the solver wins: they offer Black Hole a Daily


def fresh_database(server_url: str, name: str) -> str:
    import psycopg

    base = server_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name}")
        connection.execute(f"CREATE DATABASE {name}")
    return server_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def served(postgres_url, tmp_path):
    url = fresh_database(postgres_url, "daily_workers")
    engine = make_engine(url)
    migrate(engine)
    pool = WinnablePool(engine, Solver(None))
    for deal in PROVED:
        pool.add(Found("black-hole", deal, ()))
    port = free_port()
    env = dict(
        os.environ, WINNABLE_POOL_SIZE="0", WINNABLE_RATE_LIMITS="0", WINNABLE_ARGON2_MEMORY_KIB="1024", WINNABLE_ARGON2_TIME_COST="1"
    )
    log = (tmp_path / "server.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from winnable.cli import main; main()",
            "serve",
            "--workers",
            "2",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--database",
            url,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if httpx.get(base + "/api/health", timeout=2).json().get("status") == "up":
                    break
            except (httpx.HTTPError, ValueError):
                pass
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.2)
        yield base, engine
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        engine.dispose()


def test_two_workers_hand_out_one_daily_deal_and_one_attempt_per_player(served):
    base, engine = served
    players = []
    for index in range(PLAYERS):
        client = httpx.Client(base_url=base, headers={"Origin": base}, timeout=60)
        response = client.post("/api/auth/signup", json={"name": f"player{index}", "password": "correct horse battery"})
        assert response.status_code == 201, response.text
        players.append(client)
    answers: dict[int, list] = {index: [] for index in range(PLAYERS)}
    start = threading.Barrier(2 * PLAYERS)

    def first_request(index: int) -> None:
        start.wait()
        response = players[index].get("/api/daily/black-hole")
        answers[index].append((response.status_code, response.json()))

    threads = [threading.Thread(target=first_request, args=(index,)) for index in range(PLAYERS) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for client in players:
        client.close()

    tables = set()
    for index, pair in answers.items():
        assert [status for status, _ in pair] == [200, 200], pair
        (_, one), (_, other) = pair
        assert one["id"] == other["id"], f"player{index} got two attempts"
        assert one["deal"] is None  # (was one of PROVED: the Daily is a deck order now)
        tables.add(json.dumps(one["position"], sort_keys=True))
    assert len(tables) == 1
    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(DailyDeal)) == 1
        layout = session.scalar(select(DailyDeal.layout))
        assert player_view(BlackHole.from_deck(Deck.parse(layout))) == json.loads(tables.pop())
        assert all(Deck.parse(layout) != Deck.of_deal(deal) for deal in PROVED)
        assert session.scalar(select(func.count()).select_from(DailyAttempt)) == PLAYERS
        assert session.scalar(select(func.count()).select_from(GameRow).where(GameRow.daily_day.is_not(None))) == PLAYERS
