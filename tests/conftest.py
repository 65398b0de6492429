"""What every test shares: the markers each folder's tests get, the Hypothesis profiles,
the databases (an SQLite file, the session's PostgreSQL server), the moved clock.

The folders (ARCHITECTURE.md lists them): ``rules/``, ``engine/``, ``web/``, ``cli/`` and
``project/`` make the fast loop (``make check``); ``servers/`` (PostgreSQL, Redis,
``winnable serve`` and Dask in subprocesses, the fuzzers) is marked ``slow``, and
``browser/`` ``browser``. A test elsewhere that needs PostgreSQL, Redis or fc-solve is
marked ``postgres``, ``redis`` or ``fcsolve``: ``make check`` runs none of them, ``make
test`` all.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from required import require_module, strict, unavailable

HERE = Path(__file__).parent
FOLDER_MARKS = {"browser": ["browser"], "servers": ["slow"]}
"""The markers every test of a folder gets (``[tool.pytest.ini_options]`` lists them)."""

# Hypothesis: ``dev`` (the default) tries fewer examples, for a quick loop; ``ci`` (under
# CI=true, as ``make test`` and ``.ci/run`` run, or HYPOTHESIS_PROFILE=ci) Hypothesis's
# full number. Neither has a deadline: a busy machine is no failure. A test's own
# ``@settings`` (its number of examples) comes before either.
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=25)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if strict() else "dev"))


def pytest_collection_modifyitems(session, config, items):
    """Mark each test for what it needs (its folder, its fixtures, its parameters), and
    run the browser tests last: Playwright keeps an event loop running in the main thread
    until the session (a worker's, under xdist) ends, and tests (or doctests) that call
    asyncio.run() after it fail. xdist's load scheduling hands each worker its tests in
    this order."""
    for item in items:
        path = Path(str(item.fspath))
        folder = path.relative_to(HERE).parts[0] if HERE in path.parents else None
        for mark in FOLDER_MARKS.get(folder, []):
            item.add_marker(mark)
        fixtures = getattr(item, "fixturenames", ())
        params = item.callspec.params.values() if hasattr(item, "callspec") else ()
        if "postgres_url" in fixtures or any(isinstance(value, str) and value == "postgresql" for value in params):
            item.add_marker("postgres")
        if "redis_url" in fixtures:
            item.add_marker("redis")
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """An SQLite file at the newest schema, made once a session (an xdist worker's): the
    tests' databases are copies of it (Alembic takes a quarter of a second to make one)."""
    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import migrate

    path = tmp_path_factory.mktemp("migrated") / "games.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()
    return path


@pytest.fixture
def db_url(tmp_path, migrated_sqlite):
    """A fresh SQLite file for one test, at the newest schema."""
    shutil.copyfile(migrated_sqlite, tmp_path / "games.db")
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL server of this test session (of this xdist worker: each has its own,
    on its own port and folder); skips the test when there can be none, fails it under
    ``CI=true`` (``helpers/required.py``)."""
    require_module("psycopg", "pip install -e '.[postgres]'")
    from postgres_server import Unavailable, postgres_server

    try:
        server = postgres_server()
        url = server.__enter__()
    except Unavailable as why:
        unavailable(str(why))
    try:
        yield url
    finally:
        server.__exit__(None, None, None)


@pytest.fixture(params=["sqlite", "postgresql"])
def sqlite_and_postgres_url(request, tmp_path):
    """A fresh database for one test: an SQLite file, then (a second run of the test,
    marked ``postgres``) a new database of the session's PostgreSQL server."""
    if request.param == "sqlite":
        return request.getfixturevalue("db_url")
    server = request.getfixturevalue("postgres_url")
    import psycopg

    name = "t_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:20]
    base = server.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}")
    return server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def redis_url(tmp_path):
    """``redis://127.0.0.1:PORT/0`` of a Redis started for the test (marked ``redis``)."""
    from redis_server import redis_server

    with redis_server(tmp_path) as url:
        yield url


class MovedClock:
    """The server's clock as a test moves it: ``now.at += timedelta(...)``."""

    def __init__(self) -> None:
        from winnable.storage.engine import utcnow

        self.at = utcnow()

    def __call__(self):
        return self.at


@pytest.fixture
def now(app):
    """The clock of the test module's ``app`` fixture, moved by the test (nothing a
    client sends moves it)."""
    clock = MovedClock()
    app.state.services.games.clock = clock
    return clock
