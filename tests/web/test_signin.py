"""Sign-in nobody can lock (issue 19, item 2): guessing stays bounded per address and per
name, but the owner signing in from a browser that signed in to the account before is
not refused because of guesses from elsewhere (OWASP's device cookies); every refusal
says when to try again; passwords are compared in NFKC and must show something."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import select
from sqlalchemy.orm import Session

import webapp
from webapp import PASSWORD, SITE, client_at
from winnable.storage.engine import utcnow
from winnable.storage.tables import User
from winnable.web.app import create_app

DEVICE_COOKIE = "winnable_device"  # winnable.web.DEVICE_COOKIE (imported where needed: the old code had none)


def make_app(tmp_path, **settings):
    limits = {
        "rate_limits": True,
        "limit_default": "1000/minute",
        "limit_login": "10/minute",
        "limit_login_name": "5/minute",
        "limit_login_device": "5/minute",
    }
    return webapp.make_app(f"sqlite:///{tmp_path / 'games.db'}", **(limits | settings))


def browser(app, address: str = "10.0.0.1", **headers) -> TestClient:
    """A browser at ``address``: its own cookie jar, this site's Origin."""
    return client_at(app, address, **headers)


def login(client, name="ada", password=PASSWORD, **params):
    return client.post("/api/auth/login", json={"name": name, "password": password}, params=params)


def signup(client, name="ada", password=PASSWORD):
    response = client.post("/api/auth/signup", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return response


def guess_from_many_addresses(app, name="ada", count=12) -> list[int]:
    """One wrong password each from ``count`` addresses, none of which signed in before."""
    codes = []
    for k in range(count):
        with browser(app, f"10.66.0.{k}") as attacker:
            codes.append(login(attacker, name, f"guess number {k}").status_code)
    return codes


# -- the lock-out ---------------------------------------------------------------------------
@pytest.mark.slow
def test_guesses_from_elsewhere_do_not_lock_the_owner_out_of_a_browser_they_signed_in_with(tmp_path):
    app = make_app(tmp_path)
    with browser(app, "10.0.0.1") as owner:
        signup(owner)
        assert owner.post("/api/auth/logout", json={}).status_code == 200
        codes = guess_from_many_addresses(app)
        assert codes == [401] * 5 + [429] * 7  # the name's shared limit holds against every address
        # A browser that never signed in to the account is refused even with the password...
        with browser(app, "10.0.0.2") as stranger:
            refused = login(stranger)
            assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        # ...the owner's browser is not.
        answer = login(owner)
        assert answer.status_code == 200, answer.text
        assert answer.json()["signed_in"] is True
        assert owner.post("/api/auth/logout", json={}).status_code == 200
        assert login(owner).status_code == 200  # and again: each success gives a fresh device token


def test_a_device_cookie_that_fails_too_often_is_locked_by_itself(tmp_path):
    app = make_app(tmp_path, limit_login_device="3/minute")
    with browser(app, "10.0.0.1") as laptop, browser(app, "10.0.0.2") as phone:
        signup(laptop)
        assert login(phone).status_code == 200  # the phone signed in too: a device of its own
        codes = [login(laptop, password=f"wrong {k}").status_code for k in range(3)]
        assert codes == [401, 401, 401]
        locked = login(laptop)
        assert locked.status_code == 429 and locked.json()["code"] == "rate_limited"
        assert "from this browser" in locked.json()["detail"]
        assert login(phone).status_code == 200  # the other device is not locked
        with browser(app, "10.0.0.3") as stranger:  # nor the name, for untrusted clients
            assert login(stranger).status_code == 200


def test_device_cookies_are_bound_to_their_account(tmp_path):
    app = make_app(tmp_path, limit_login_name="2/minute")
    with browser(app) as owner:
        signup(owner)
        ada_token = owner.cookies[DEVICE_COOKIE]
    with browser(app, "10.0.0.5") as eve:
        signup(eve, "eve")
        eve_cookie = eve.cookies[DEVICE_COOKIE]
        assert not eve_cookie.startswith(ada_token.split(".")[0] + ".")
        # Eve's own device cookie says nothing about "ada": her guesses count against the name.
        codes = [login(eve, "ada", f"guess {k}").status_code for k in range(3)]
        assert codes == [401, 401, 429]
    user_id, nonce, signature = ada_token.split("~")[0].split(".")
    forged = [
        f"{user_id}.{nonce}.{signature[:-1]}{'0' if signature[-1] != '0' else '1'}",  # signature changed
        f"{user_id}.{nonce}x.{signature}",  # nonce changed
        f"{int(user_id) + 1}.{nonce}.{signature}",
    ]  # another account's id
    for value in forged:
        with browser(app, "10.0.0.6", Cookie=f"{DEVICE_COOKIE}={value}") as attacker:
            assert login(attacker, "ada", "another guess").status_code == 429


def test_a_name_deleted_and_made_again_does_not_trust_the_old_accounts_devices(tmp_path):
    app = make_app(tmp_path, limit_login_name="1/minute")
    with browser(app) as old:
        signup(old)
        assert old.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
        kept = old.cookies[DEVICE_COOKIE]
    with browser(app, "10.0.0.9") as newcomer:
        signup(newcomer, "ada", "another password!")
    assert (
        login(TestClient(app, base_url=SITE, client=("10.0.0.8", 1), headers={"Origin": SITE}), "ada", "guess").status_code == 401
    )  # the name's one attempt this minute
    with browser(app, "10.0.0.1", Cookie=f"{DEVICE_COOKIE}={kept}") as old:
        refused = login(old, "ada", "another password!")
        assert refused.status_code == 429  # the old account's device counts as a stranger


def test_the_device_cookie_is_http_only_strict_and_sent_to_sign_in_only(tmp_path):
    app = make_app(tmp_path)
    with browser(app) as owner:
        header = [
            value for name, value in signup(owner).headers.multi_items() if name == "set-cookie" and value.startswith(DEVICE_COOKIE + "=")
        ]
        assert len(header) == 1
        attributes = header[0].lower()
        assert "httponly" in attributes and "samesite=strict" in attributes and "path=/api/auth" in attributes
        assert "max-age=31536000" in attributes
        signup(owner, "bob")  # a second account on the same browser: both kept
        jar = owner.cookies[DEVICE_COOKIE].strip('"').split("~")
        assert len(jar) == 2


# -- every refusal says when -------------------------------------------------------------------
@pytest.mark.parametrize(
    "lang, words",
    [("en", "try again in {n} seconds"), ("fr", "réessayez dans {n} secondes"), ("nl", "probeer het over {n} seconden opnieuw")],
)
def test_every_sign_in_refusal_says_when_to_try_again_in_the_players_language(tmp_path, lang, words):
    app = make_app(tmp_path, limit_login_name="1/minute", limit_login="3/minute")
    with browser(app) as owner:
        signup(owner)
    guess_from_many_addresses(app, count=1)
    with browser(app, "10.0.0.2") as stranger:
        refused = login(stranger, lang=lang)
        assert refused.status_code == 429
        seconds = int(refused.headers["Retry-After"])
        assert 1 <= seconds <= 60
        assert words.format(n=seconds) in refused.json()["detail"], refused.json()["detail"]
        for _ in range(2):
            login(stranger, "bob", "whatever it is")
        per_address = login(stranger, "carl", "whatever it is", lang=lang)  # the address's limit
        assert per_address.status_code == 429
        assert words.format(n=int(per_address.headers["Retry-After"])) in per_address.json()["detail"]


def test_long_waits_are_said_in_minutes(tmp_path):
    app = make_app(tmp_path, limit_login_name="1/hour")
    guess_from_many_addresses(app, count=1)
    with browser(app, "10.0.0.2") as stranger:
        refused = login(stranger, lang="fr")
        minutes = -(-int(refused.headers["Retry-After"]) // 60)
        assert refused.status_code == 429 and 59 <= minutes <= 60
        assert f"réessayez dans {minutes} minutes" in refused.json()["detail"]


# -- passwords ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "password",
    ["\u200b" * 8, " " * 8, "\u00a0\u2003" * 5, "\u2060\ufeff\u200c\u200d" * 2, "\u3164" * 8, "\u2800" * 8, "\ufe0f" * 8, " \u200b " * 4],
)
def test_a_password_with_nothing_visible_is_refused_with_a_reason(tmp_path, password):
    app = make_app(tmp_path)
    with browser(app) as client:
        refused = client.post("/api/auth/signup", json={"name": "ada", "password": password}, params={"lang": "nl"})
        assert refused.status_code == 422
        assert refused.json()["code"] == "blank_password"
        assert (
            refused.json()["detail"] == "een wachtwoord heeft minstens één zichtbaar teken nodig, niet alleen spaties of onzichtbare tekens"
        )
    with Session(app.state.services.engine) as session:
        assert session.scalars(select(User)).all() == []


@pytest.mark.parametrize(
    "signed_up, signed_in",
    [
        ("ｐａｓｓｗｏｒｄ１２", "password12"),  # full-width letters and digits
        ("cafe\u0301 cre\u0300me", "café crème"),  # combining accents, precomposed
        ("\ufb01ve \ufb02ying \ufb01sh", "five flying fish"),  # ligatures
        ("Ⅻ o'clock tea", "XII o'clock tea"),  # a Roman numeral
    ],
)
def test_passwords_are_compared_in_nfkc(tmp_path, signed_up, signed_in):
    app = make_app(tmp_path, rate_limits=False)
    with browser(app) as client:
        signup(client, "ada", signed_up)
        assert login(client, "ada", signed_in).status_code == 200
        assert login(client, "ada", signed_up).status_code == 200
        assert login(client, "ada", signed_in + "!").status_code == 401


def old_account(app, password: str) -> None:
    """An account as the server before NFKC stored it: the hash of the password as typed."""
    hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024),))
    with Session(app.state.services.engine) as session, session.begin():
        session.add(User(name="ada", name_key="ada", password_hash=hasher.hash(password), password_nfkc=False, created_at=utcnow()))


def stored(app) -> tuple[str, bool]:
    with Session(app.state.services.engine) as session:
        user = session.scalars(select(User)).one()
        return user.password_hash, user.password_nfkc


@pytest.mark.parametrize("password", ["correct horse battery", "naïve café au lait"])
def test_hashes_of_nfkc_stable_passwords_keep_working(tmp_path, password):
    app = make_app(tmp_path, rate_limits=False)
    old_account(app, password)
    before = stored(app)[0]
    with browser(app) as client:
        assert login(client, "ada", password).status_code == 200
        assert login(client, "ada", "not the password").status_code == 401
    assert stored(app) == (before, True)  # the same hash, now known to be of the NFKC form


def test_an_old_hash_of_a_password_that_nfkc_changes_is_replaced_at_sign_in(tmp_path):
    typed = "ｐａｓｓｗｏｒｄ ｏｆ ｏｌｄ"  # full width: NFKC makes it "password of old"
    app = make_app(tmp_path, rate_limits=False)
    old_account(app, typed)
    before = stored(app)[0]
    with browser(app) as client:
        assert login(client, "ada", "password of old").status_code == 401  # not yet: the hash is of the typed form
        assert stored(app) == (before, False)
        assert login(client, "ada", typed).status_code == 200  # as typed at sign-up: it matches, and is rehashed
        after, nfkc = stored(app)
        assert nfkc and after != before
        assert login(client, "ada", "password of old").status_code == 200
        assert login(client, "ada", typed).status_code == 200


def test_sign_in_checks_one_hash_whatever_the_form(tmp_path, monkeypatch):
    """A guess in a form NFKC changes costs one hash verification, not two."""
    app = make_app(tmp_path, rate_limits=False)
    with browser(app) as client:
        signup(client)
        calls = []
        hasher = app.state.services.accounts.hasher
        real = hasher.verify_and_update
        monkeypatch.setattr(hasher, "verify_and_update", lambda *args: calls.append(1) or real(*args))
        for guess in ["ｇｕｅｓｓ ｏｎｅ ｔｗｏ", "guess one two", "cafe\u0301 au lait"]:
            assert login(client, "ada", guess).status_code == 401
            assert login(client, "nobody", guess).status_code == 401
        assert len(calls) == 6


def test_accounts_of_a_database_from_before_nfkc_sign_in_after_the_upgrade(tmp_path):
    """A database at 0006 (the schema before NFKC) with two accounts: after the migration
    both sign in with their passwords as typed, and from then on in any form."""
    import sqlalchemy as sa
    from alembic import command

    from winnable.storage.engine import make_engine
    from winnable.storage.migrate import alembic_config

    url = f"sqlite:///{tmp_path / 'games.db'}"
    engine = make_engine(url)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0006")
    hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024),))
    accounts = [("ada", "correct horse battery"), ("bob", "ｆｕｌｌ ｗｉｄｔｈ ｐａｓｓ")]
    with engine.begin() as connection:
        for name, password in accounts:
            connection.execute(
                sa.text(
                    "INSERT INTO users (name, name_key, password_hash, created_at) VALUES (:name, :name, :hash, '2026-11-30 10:00:00')"
                ),
                {"name": name, "hash": hasher.hash(password)},
            )
    engine.dispose()
    app = create_app(
        url, pool_background=False, pool_size=0, allowed_hosts=["testserver"], rate_limits=False, argon2_memory_kib=1024, argon2_time_cost=1
    )
    with browser(app) as client:
        for name, password in accounts:
            assert login(client, name, password).status_code == 200
        assert login(client, "bob", "full width pass").status_code == 200  # rehashed in NFKC at the first sign-in
    with Session(app.state.services.engine) as session:
        assert set(session.scalars(select(User.password_nfkc))) == {True}
