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


def pytest_collection_modifyitems(session, config, items):
    """The browser tests last: Playwright keeps an event loop running in the main thread
    until the session ends, and tests (or doctests) that call asyncio.run() after it fail."""
    browser = HERE / "browser"
    items.sort(key=lambda item: browser in Path(str(item.fspath)).parents)
