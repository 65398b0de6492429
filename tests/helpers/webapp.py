"""The web app as the tests build it, and the clients that call it.

``make_app`` makes an app on a database URL with nothing running behind the tests' back
(no background pool filling, no proved deals), no rate limits and a cheap password hash;
a test passes what it needs otherwise (``rate_limits=True``, its limits, ...).
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from winnable.web.app import create_app

SITE = "http://testserver"
"""The site the test clients are on (TestClient's host). They send it as their Origin,
as a browser does from the site's own pages: the server serves state-changing calls
only from its pages."""

PASSWORD = "correct horse battery"
"""The test players' password."""

TEST_SETTINGS = {
    "pool_background": False,
    "pool_size": 0,
    "allowed_hosts": ["testserver"],
    "rate_limits": False,
    "argon2_memory_kib": 1024,
    "argon2_time_cost": 1,
    "gc_freeze": False,
    "hint_longer_seconds": 0,
    "hint_presearch": False,
}


def make_app(url: str, **settings):
    """A fresh app on ``url`` (the test settings above, ``settings`` over them)."""
    return create_app(url, **(TEST_SETTINGS | settings))


def make_client(url: str, **settings) -> TestClient:
    """A client of a fresh app, sending this site's Origin like a browser on its pages."""
    return TestClient(make_app(url, **settings), headers={"Origin": SITE})


def browser(app, base_url: str = SITE) -> TestClient:
    """A browser on this site's pages: its own cookie jar, and this site's Origin."""
    return TestClient(app, base_url=base_url, headers={"Origin": base_url})


def client_at(app, address: str, **headers) -> TestClient:
    """A browser at its own address (rate limits and the solver's shares count per
    address): its own cookie jar, this site's Origin."""
    return TestClient(app, base_url=SITE, client=(address, 40000), headers={"Origin": SITE} | headers)


def signup(client, name: str = "ada", password: str = PASSWORD) -> dict:
    """Make the account ``name``, signed in on ``client``; the answer's JSON."""
    response = client.post("/api/auth/signup", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return response.json()
