"""The web app's tests: a client of a fresh app on an SQLite file, for each test."""

from __future__ import annotations

import pytest

from webapp import make_client


@pytest.fixture
def client(db_url):
    """A client of a fresh app (``webapp.make_app``'s test settings) on its own SQLite
    file, sending this site's Origin."""
    with make_client(db_url) as client:
        yield client
