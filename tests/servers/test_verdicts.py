"""The verdicts table: surveys write it, the web app deals from it, proofs are kept,
and the older ``winnable_deals`` pool moves into it."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys

import pytest
import sqlalchemy as sa

from webapp import make_client
from winnable import Budget, solve
from winnable.blackhole import BlackHole
from winnable.storage.verdicts import VerdictRow, VerdictStore


def entry(deal: int, verdict: str, **extra) -> dict:
    line = ["KH"] if verdict == "won" else []
    return {
        "game": "black-hole",
        "deal": deal,
        "verdict": verdict,
        "moves": len(line),
        "line": line,
        "positions": 10,
        "seconds": 0.01,
        "cpu_seconds": 0.01,
    } | extra


@pytest.fixture
def store(tmp_path):
    opened = VerdictStore.open(f"sqlite:///{tmp_path / 'verdicts.db'}")
    yield opened
    opened.close()


def test_a_proof_is_kept_and_an_unknown_is_decided_later(store):
    assert store.record([entry(1, "unknown"), entry(2, "won"), entry(3, "lost")], nodes=1000) == 3
    assert store.record([entry(2, "lost"), entry(3, "won")]) == 0  # proofs stay
    assert store.record([entry(1, "won", positions=99)], nodes=10**6) == 1  # a bigger budget decided it
    assert [store.verdict("black-hole", deal) for deal in (1, 2, 3, 4)] == ["won", "won", "lost", None]
    with store.engine.connect() as connection:
        row = connection.execute(sa.select(VerdictRow.__table__).where(VerdictRow.deal == "1")).mappings().one()
    assert row["positions"] == 99 and row["budget_nodes"] == 10**6 and row["line"] == ["KH"] and row["engine"]
    assert store.counts(["black-hole", "freecell"]) == {
        "black-hole": {"won": 2, "lost": 1, "unknown": 0, "unused": 2},
        "freecell": {"won": 0, "lost": 0, "unknown": 0, "unused": 0},
    }


def test_deals_are_taken_once_then_reused_and_the_daily_is_stable(store):
    store.record([entry(deal, "won") for deal in (5, 6, 7)] + [entry(8, "lost")])
    assert store.unused("black-hole") == 3 and store.unused("black-hole", at_most=2) == 2
    taken = [store.take("black-hole").deal for _ in range(3)]
    assert sorted(taken) == [5, 6, 7] and store.take("black-hole") is None and store.unused("black-hole") == 0
    assert store.any_won("black-hole").deal in (5, 6, 7) and store.any_won("freecell") is None
    day = dt.date(2026, 12, 1)
    picks = {store.daily("black-hole", day).deal for _ in range(3)}
    assert len(picks) == 1 and picks <= {5, 6, 7}
    assert len({store.daily("black-hole", day + dt.timedelta(days=n)).deal for n in range(30)}) > 1
    assert store.daily("freecell", day) is None


def test_the_old_pool_moves_into_the_verdicts_table(tmp_path):
    from alembic import command

    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import alembic_config, migrate, schema_revision

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0003")
        connection.execute(
            sa.text(
                "INSERT INTO winnable_deals (game, deal, line, positions, seconds, created_at, used_at) VALUES"
                " ('black-hole', '2', '[\"KH\", \"AD\"]', 239, 0.5, '2026-01-01 10:00:00', NULL),"
                " ('freecell', '7', '[\"1a\"]', 40, 0.1, '2026-01-01 10:00:00', '2026-01-02 10:00:00')"
            )
        )
    migrate(engine)
    assert schema_revision(engine) == "0014"
    with engine.connect() as connection:
        assert not sa.inspect(connection).has_table("winnable_deals")
        rows = connection.execute(sa.select(VerdictRow.__table__).order_by(VerdictRow.id)).mappings().all()
    assert [(r["game"], r["deal"], r["verdict"], r["moves"], r["line"], r["source"]) for r in rows] == [
        ("black-hole", "2", "won", 2, ["KH", "AD"], "pool"),
        ("freecell", "7", "won", 1, ["1a"], "pool"),
    ]
    assert rows[0]["used_at"] is None and rows[1]["used_at"] is not None
    with engine.begin() as connection:  # and back
        command.downgrade(alembic_config(connection), "0003")
        assert connection.execute(sa.text("SELECT count(*) FROM winnable_deals")).scalar() == 2
    engine.dispose()


def run_cli(*args: str) -> subprocess.CompletedProcess:
    # The command line stores verdicts without loading the web framework.
    code = (
        "import sys; from winnable.cli import app\n"
        "try:\n    app(sys.argv[1:])\nexcept SystemExit as stop:\n    code = stop.code\n"
        "print('FASTAPI LOADED' if 'fastapi' in sys.modules else 'no web framework', file=sys.stderr)\n"
        "sys.exit(code)"
    )
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)


def test_a_survey_fills_the_table_and_pool_counts_it(tmp_path):
    url = f"sqlite:///{tmp_path / 'survey.db'}"
    survey = run_cli("survey", "black-hole", "1-30", "--quiet", "--jobs", "1", "--database", url, "--json")
    assert survey.returncode == 0, survey.stderr
    assert "no web framework" in survey.stderr
    won = json.loads(survey.stdout)["won"]
    counted = run_cli("pool", "black-hole", "--database", url, "--json")
    assert counted.returncode == 0 and "no web framework" in counted.stderr
    assert json.loads(counted.stdout) == {"black-hole": {"won": won, "lost": 30 - won, "unknown": 0, "unused": won}}
    assert run_cli("pool", "no-such-game", "--database", url).returncode == 2


def test_a_survey_on_postgres_feeds_winnable_mode(postgres_url):
    survey = run_cli("survey", "black-hole", "1-40", "--quiet", "--jobs", "2", "--database", postgres_url)
    assert survey.returncode == 0, survey.stderr
    store = VerdictStore.open(postgres_url)
    with store.engine.begin() as connection:
        rows = connection.execute(
            sa.select(VerdictRow.deal, VerdictRow.verdict, VerdictRow.line, VerdictRow.source).where(
                VerdictRow.game == "black-hole", VerdictRow.source == "survey"
            )
        ).all()
        # The server is shared by this session's tests: deals other tests' fillers proved
        # are marked dealt, so that Winnable mode must deal one of the survey's.
        connection.execute(
            sa.update(VerdictRow)
            .where(VerdictRow.game == "black-hole", VerdictRow.source != "survey")
            .values(used_at=dt.datetime.now(dt.UTC))
        )
    store.close()
    won = {int(deal) for deal, verdict, line, _ in rows if verdict == "won" and len(line) == 51}
    assert {int(deal) for deal, *_ in rows} >= set(range(1, 41)) and won
    with make_client(postgres_url) as client:
        response = client.post("/api/games", json={"game": "black-hole", "winnable": True})
        assert response.status_code == 201, response.text
        state = response.json()
        assert response.headers["x-winnable-source"] == "pool" and state["winnable_deal"] is True
        assert state["deal"] in won and solve(BlackHole.deal(state["deal"]), Budget(seconds=10)).won
        assert client.get(f"/api/games/{state['id']}/hint").json()["cached"] is True  # the survey's line
