"""A password's length as the player typed it (issue 30, item 7): counted before NFKC
spells a character out in many (U+FDFA is 18 letters in NFKC: ten of them were refused as
"8 to 128 characters"), and a password of combining accents on nothing is refused with
its reason, in English, French and Dutch."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from webapp import SITE, make_app


@pytest.fixture
def client(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}")
    with TestClient(app, base_url=SITE, headers={"Origin": SITE}) as made:
        yield made


def signup(client: TestClient, name: str, password: str, lang: str = "en"):
    return client.post("/api/auth/signup", json={"name": name, "password": password}, params={"lang": lang})


@pytest.mark.parametrize("password", ["\ufdfa" * 10, "\ufdfd" * 10, "\ufdfa" * 8, "\ufdfa" * 128])
def test_a_password_of_characters_nfkc_spells_out_counts_as_typed(client, password):
    made = signup(client, "ada", password)
    assert made.status_code == 201, made.json()
    client.post("/api/auth/logout", json={})
    assert client.post("/api/auth/login", json={"name": "ada", "password": password}).status_code == 200


@pytest.mark.parametrize("password", ["\ufdfa" * 7, "cafe\u0301" + "\u0301" * 3])
def test_too_short_as_typed_is_refused(client, password):
    # the second: 8 code points sent, but "café" and three accents composed are 7 typed characters
    refused = signup(client, "ada", password)
    assert refused.status_code == 422 and refused.json()["code"] == "bad_password"


@pytest.mark.parametrize(
    "lang, detail",
    [
        ("en", "a password needs at least one letter, digit or sign, not only combining accents"),
        ("fr", "un mot de passe doit contenir au moins une lettre, un chiffre ou un signe, pas seulement des accents sans lettre"),
        ("nl", "een wachtwoord heeft minstens één letter, cijfer of teken nodig, niet alleen accenten zonder letter"),
    ],
)
@pytest.mark.parametrize("password", ["\u0301" * 8, "\u0301\u0308 \u0327\u0301\u20dd\u0301\u0302\u0303", "\u0300" * 128])
def test_a_password_of_combining_marks_only_is_refused_with_its_reason(client, password, lang, detail):
    refused = signup(client, "ada", password, lang)
    assert refused.status_code == 422
    assert refused.json()["code"] == "blank_password" and refused.json()["detail"] == detail


def test_one_letter_under_the_accents_is_a_password(client):
    assert signup(client, "ada", "a" + "\u0301" * 8).status_code == 201
