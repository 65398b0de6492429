"""Sign-in nobody can block (issue 30, item 5): guessing a name from many addresses no
longer keeps its owner out. A name past its limit asks for a proof of work (ALTCHA v1):
its 429 (and the 401 of a wrong password while it lasts) carries a challenge, and a
sign-in that sends it solved is counted apart from the name's guesses. A solution is good
once, for that name, until it expires; every guess pays for one."""

from __future__ import annotations

import base64
import json

import pytest
from fastapi.testclient import TestClient

from webapp import PASSWORD, SITE, TEST_SETTINGS
from winnable.web.app import create_app

V1_FIELDS = ["algorithm", "challenge", "maxnumber", "salt", "signature"]


def make_app(tmp_path, **settings):
    settings = {
        **TEST_SETTINGS,
        "rate_limits": True,
        "limit_default": "1000/minute",
        "limit_login": "10/minute;60/hour",
        "limit_login_name": "5/minute;30/hour",
        "limit_login_device": "5/minute",
        "altcha_max_number": 2000,
    } | settings
    return create_app(f"sqlite:///{tmp_path / 'games.db'}", **settings)


def browser(app, address: str) -> TestClient:
    return TestClient(app, base_url=SITE, client=(address, 40000), headers={"Origin": SITE})


def solve(challenge: dict) -> str:
    """What the page does with WebCrypto: find the number, send the v1 payload back."""
    import hashlib

    for number in range(challenge["maxnumber"] + 1):
        if hashlib.sha256(f"{challenge['salt']}{number}".encode()).hexdigest() == challenge["challenge"]:
            payload = {
                "algorithm": challenge["algorithm"],
                "challenge": challenge["challenge"],
                "number": number,
                "salt": challenge["salt"],
                "signature": challenge["signature"],
            }
            return base64.b64encode(json.dumps(payload).encode()).decode()
    raise AssertionError("no solution below maxnumber")


def login(client: TestClient, name: str, password: str, altcha: str | None = None, lang: str = "en"):
    body = {"name": name, "password": password} | ({"altcha": altcha} if altcha is not None else {})
    return client.post("/api/auth/login", json=body, params={"lang": lang})


def guessed(app, name: str = "ada", addresses: int = 12, tries: int = 3) -> None:
    """The attack of the issue: 12 addresses x 3 wrong passwords for the name."""
    for k in range(addresses):
        guesser = browser(app, f"10.66.0.{k}")
        for attempt in range(tries):
            assert login(guesser, name, f"guess {k} {attempt}").status_code in (401, 429)


@pytest.fixture
def app(tmp_path):
    made = make_app(tmp_path)
    with browser(made, "10.0.0.1") as owner:
        assert owner.post("/api/auth/signup", json={"name": "ada", "password": PASSWORD}).status_code == 201
    return made


def test_the_owner_signs_in_after_the_guessing_with_a_solved_challenge(app):
    guessed(app)
    owner = browser(app, "10.1.2.3")  # a new browser, another address: no device cookie
    refused = login(owner, "ada", PASSWORD)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    challenge = refused.json()["altcha"]
    assert sorted(challenge) == V1_FIELDS and challenge["algorithm"] == "SHA-256"
    assert challenge["maxnumber"] == 2000  # the setting: what a guess costs
    signed_in = login(owner, "ada", PASSWORD, altcha=solve(challenge))
    assert signed_in.status_code == 200 and signed_in.json()["name"] == "ada"


def test_a_solution_is_good_once(app):
    guessed(app)
    challenge = login(browser(app, "10.1.2.3"), "ada", PASSWORD).json()["altcha"]
    payload = solve(challenge)
    assert login(browser(app, "10.1.2.3"), "ada", PASSWORD, altcha=payload).status_code == 200
    replayed = login(browser(app, "10.1.2.4"), "ada", PASSWORD, altcha=payload)
    assert replayed.status_code == 403 and replayed.json()["code"] == "altcha_invalid"
    assert replayed.json()["detail"] == "this check has already been used"
    assert sorted(replayed.json()["altcha"]) == V1_FIELDS  # a fresh one to solve
    assert replayed.json()["altcha"]["challenge"] != challenge["challenge"]
    assert login(browser(app, "10.1.2.4"), "ada", PASSWORD, altcha=solve(replayed.json()["altcha"])).status_code == 200


def test_a_solution_is_bound_to_its_name(app):
    with browser(app, "10.0.0.2") as other:
        assert other.post("/api/auth/signup", json={"name": "bob", "password": PASSWORD}).status_code == 201
    guessed(app, "ada")
    payload = solve(login(browser(app, "10.1.2.3"), "ada", "a guess").json()["altcha"])
    refused = login(browser(app, "10.1.2.3"), "bob", PASSWORD, altcha=payload)
    assert refused.status_code == 403 and refused.json()["detail"] == "this check was made for another name"
    # the same name in another case is the same name, as its count is
    assert login(browser(app, "10.1.2.3"), "ADA", PASSWORD, altcha=payload).status_code == 200


def test_an_expired_or_forged_solution_is_refused(app):
    from winnable.web.security.proof import ProofOfWork

    guessed(app)
    served = app.state.services.proof
    stale = ProofOfWork(served.key, served.max_number, -1, served.once)  # the server's key, a past deadline
    expired = login(browser(app, "10.1.2.3"), "ada", PASSWORD, altcha=solve(stale.challenge("ada")))
    assert expired.status_code == 403 and expired.json()["detail"] == "this check has expired"

    forged_key = ProofOfWork(b"not the server's key" * 2, served.max_number, 60, served.once)
    forged = login(browser(app, "10.1.2.3"), "ada", PASSWORD, altcha=solve(forged_key.challenge("ada")))
    assert forged.status_code == 403 and forged.json()["code"] == "altcha_invalid"

    challenge = login(browser(app, "10.1.2.3"), "ada", PASSWORD).json()["altcha"]
    wrong_number = json.loads(base64.b64decode(solve(challenge)))
    wrong_number["number"] = (wrong_number["number"] + 1) % (challenge["maxnumber"] + 1)
    unsolved = login(browser(app, "10.1.2.3"), "ada", PASSWORD, altcha=base64.b64encode(json.dumps(wrong_number).encode()).decode())
    assert unsolved.status_code == 403
    for junk in ["", "not base64!", base64.b64encode(b"[1, 2]").decode(), base64.b64encode(b"{}").decode(), "x" * 1024]:
        answer = login(browser(app, "10.1.2.3"), "ada", PASSWORD, altcha=junk)
        assert answer.status_code == 403 and answer.json()["code"] == "altcha_invalid", junk
    assert login(browser(app, "10.1.2.3"), "ada", PASSWORD, altcha="x" * 1025).status_code == 422
    # nothing of that signed anyone in, and the proof still lets the owner in
    assert login(browser(app, "10.1.2.3"), "ada", PASSWORD, altcha=solve(challenge)).status_code == 200


@pytest.mark.parametrize(
    "lang, detail",
    [
        ("fr", "cette vérification a déjà servi"),
        ("nl", "deze controle is al gebruikt"),
    ],
)
def test_the_refusal_of_a_used_proof_is_translated(app, lang, detail):
    guessed(app)
    payload = solve(login(browser(app, "10.1.2.3"), "ada", PASSWORD).json()["altcha"])
    assert login(browser(app, "10.1.2.3"), "ada", PASSWORD, altcha=payload).status_code == 200
    assert login(browser(app, "10.1.2.3"), "ada", PASSWORD, altcha=payload, lang=lang).json()["detail"] == detail


def test_a_guesser_pays_a_solution_per_guess_and_stays_under_the_address_limit(app):
    guessed(app)
    guesser = browser(app, "10.77.0.1")
    answer = login(guesser, "ada", "guess")
    assert answer.status_code == 429
    solved = 0
    for attempt in range(9):  # the address's limit is 10 a minute, the first try included
        answer = login(guesser, "ada", f"guess again {attempt}", altcha=solve(answer.json()["altcha"]))
        solved += 1
        # a wrong password with a good proof: 401, and the next guess needs a new proof
        assert answer.status_code == 401 and answer.json()["code"] == "bad_credentials"
        assert sorted(answer.json()["altcha"]) == V1_FIELDS
    refused = login(guesser, "ada", "one more", altcha=solve(answer.json()["altcha"]))
    assert refused.status_code == 429 and "altcha" not in refused.json()  # the address's own limit: no way round
    assert solved == 9


def test_a_name_not_under_guessing_asks_for_nothing(app):
    first = login(browser(app, "10.1.0.1"), "ada", "wrong once")
    assert first.status_code == 401 and "altcha" not in first.json()
    assert login(browser(app, "10.1.0.1"), "ada", PASSWORD).status_code == 200
    # the 401 that reaches the name's limit already carries the challenge for the next try
    # (two attempts counted so far, the limit is 5 a minute)
    answers = [login(browser(app, f"10.2.0.{k}"), "ada", "wrong") for k in range(4)]
    assert [answer.status_code for answer in answers] == [401, 401, 401, 429]
    assert ["altcha" in answer.json() for answer in answers] == [False, False, True, True]


def test_the_schema_documents_the_proof(app):
    with browser(app, "10.0.0.1") as client:
        schema = client.get("/openapi.json").json()
    login_op = schema["paths"]["/api/auth/login"]["post"]
    for status in ("401", "403", "429"):
        ref = login_op["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/ProofProblem")
    assert sorted(schema["components"]["schemas"]["AltchaChallenge"]["properties"]) == V1_FIELDS
    assert "altcha" in schema["components"]["schemas"]["Credentials"]["properties"]
