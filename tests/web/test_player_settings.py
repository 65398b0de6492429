"""A player's display and sound settings kept with the account (issue 34 item 7): a small
JSON of known keys, checked (422 for an unknown key or value), 401 without an account,
and the same settings on another browser once signed in there."""

from __future__ import annotations

from webapp import PASSWORD, browser, signup

SETTINGS = {"deck": "four", "theme": "light", "card_size": "large", "hand": "left", "sound": True, "muted": False}


def test_settings_are_kept_with_the_account_and_found_on_another_browser(client):
    signup(client, "lefty")
    assert client.get("/api/account/settings").json() == {}
    saved = client.put("/api/account/settings", json=SETTINGS)
    assert saved.status_code == 200 and saved.json() == SETTINGS
    other = browser(client.app)
    assert other.get("/api/account/settings").status_code == 401
    assert other.post("/api/auth/login", json={"name": "lefty", "password": PASSWORD}).status_code == 200
    assert other.get("/api/account/settings").json() == SETTINGS
    # A PUT keeps what it sends, in place of what was kept.
    assert other.put("/api/account/settings", json={"theme": "system"}).json() == {"theme": "system"}
    assert client.get("/api/account/settings").json() == {"theme": "system"}


def test_unknown_keys_and_values_are_refused_with_a_reason(client):
    signup(client, "picky")
    for body in ({"colour": "four"}, {"deck": "six"}, {"theme": "sepia"}, {"card_size": 3}, {"sound": "yes"}, {"hand": None, "x": 1}, []):
        response = client.put("/api/account/settings", json=body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["detail"], body
    assert client.get("/api/account/settings").json() == {}


def test_settings_need_an_account(client):
    assert client.get("/api/account/settings").status_code == 401
    refused = client.put("/api/account/settings", json={"deck": "four"})
    assert refused.status_code == 401 and refused.json()["code"] == "sign_in_required"


def test_the_accounts_export_holds_its_settings(client):
    signup(client, "exporter")
    client.put("/api/account/settings", json={"deck": "four"})
    assert client.get("/api/account/export").json()["account"]["settings"] == {"deck": "four"}
