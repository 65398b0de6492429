import sys
from pathlib import Path

# Test helpers (reference solvers, shared data paths, the browser tests' server helpers)
# live beside the tests; with --import-mode=importlib their folders must be on the path.
HERE = Path(__file__).parent
for folder in (HERE, HERE / "browser"):
    sys.path.insert(0, str(folder))


import pytest  # noqa: E402

from required import require_module, unavailable  # noqa: E402


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL server of this test session (skips the test when there can be none,
    fails it under ``CI=true``: see ``required.py``)."""
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
    """A fresh database for one test: an SQLite file, then (a second run of the test) a
    new database of the session's PostgreSQL server (skipped without one)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    server = request.getfixturevalue("postgres_url")
    import hashlib

    import psycopg

    name = "t_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:20]
    base = server.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}")
    return server.rsplit("/", 1)[0] + "/" + name


def pytest_collection_modifyitems(session, config, items):
    """The browser tests last: Playwright keeps an event loop running in the main thread
    until the session ends, and tests (or doctests) that call asyncio.run() after it fail."""
    browser = HERE / "browser"
    items.sort(key=lambda item: browser in Path(str(item.fspath)).parents)


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
