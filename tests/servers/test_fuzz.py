"""Property-based fuzzing of the API, on SQLite and PostgreSQL: no input makes a 500.

1. Schemathesis, driven by the OpenAPI schema: every operation with generated and
   schema-violating input; every response must be no server error, have a documented
   status, and be valid against the schema declared for it.
2. Hypothesis with hostile values the schema cannot express (JSON NaN and Infinity,
   lone surrogates, NUL bytes, any Unicode, deep nesting, huge numbers) in every body
   field, query and path of a real stored game: a 4xx with ``{code, detail}``, and the
   game stays as it was unless the call was a success.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from shared_data import ROOT
from webapp import SITE
from winnable.web.app import create_app

# Every check that judges one case (tests/servers/test_schemathesis.py runs them all, the
# stateful ones and the undeclared methods included, against a served app on SQLite).
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    allow_header_conformance,
]


def fuzz_app(url: str):
    return create_app(
        url,
        pool_size=0,
        pool_background=False,
        allowed_hosts=["testserver", "localhost"],
        rate_limits=False,
        hint_seconds=0.2,
        analysis_seconds=0.3,
        argon2_memory_kib=1024,
        argon2_time_cost=1,
    )


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database(request, tmp_path_factory):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'games.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture(scope="module")
def app(database):
    return fuzz_app(database)


OPERATIONS = [
    (method, path)
    for method, path in [
        ("GET", "/api/catalog"),
        ("POST", "/api/games"),
        ("GET", "/api/games/{game_id}"),
        ("POST", "/api/games/{game_id}/moves"),
        ("POST", "/api/games/{game_id}/undo"),
        ("POST", "/api/games/{game_id}/restart"),
        ("GET", "/api/games/{game_id}/position"),
        ("GET", "/api/games/{game_id}/hint"),
        ("GET", "/api/games/{game_id}/analysis"),
        ("GET", "/api/games/{game_id}/solution"),
        ("POST", "/api/games/{game_id}/solution/play"),
        ("POST", "/api/games/{game_id}/redo"),
        ("GET", "/api/csrf"),
        ("GET", "/api/health"),
        ("POST", "/api/games/summaries"),
        ("POST", "/api/auth/signup"),
        ("POST", "/api/auth/login"),
        ("POST", "/api/auth/logout"),
        ("GET", "/api/auth/me"),
        ("GET", "/api/account/export"),
        ("POST", "/api/account/delete"),
        ("GET", "/api/account/settings"),
        ("PUT", "/api/account/settings"),
        ("GET", "/api/daily"),
        ("GET", "/api/daily/{game}"),
        ("GET", "/api/daily/{game}/leaderboard"),
        ("GET", "/api/daily/calendar"),
        ("GET", "/api/stats"),
        ("GET", "/api/stats/record/{game_id}"),
        ("POST", "/api/challenges"),
        ("GET", "/api/challenges/mine"),
        ("GET", "/api/challenges/{challenge_id}"),
        ("POST", "/api/challenges/{challenge_id}/play"),
    ]
]
NO_PARAMETERS = (
    "/api/catalog",
    "/api/csrf",
    "/api/health",
    "/api/auth/me",
    "/api/account/export",
    "/api/account/settings",
    "/api/daily",
    "/api/stats",
    "/api/challenges/mine",
)


@pytest.fixture(scope="module")
def api_schema(app):
    config = schemathesis.config.SchemathesisConfig.from_path(ROOT / "schemathesis.toml")
    return schemathesis.openapi.from_asgi("/openapi.json", app, config=config)


def test_the_fuzzed_operations_are_all_there_are(api_schema):
    found = {(result.ok().method.upper(), result.ok().path) for result in api_schema.get_all_operations()}
    assert found == set(OPERATIONS)


@pytest.mark.parametrize("mode", ["positive", "negative"])
@pytest.mark.parametrize("method, path", OPERATIONS)
def test_every_operation_answers_within_its_schema(api_schema, method, path, mode):
    """Schemathesis cases for one operation (its pytest plugin does not run under this
    pytest, so the cases are drawn with its Python API)."""
    from schemathesis import GenerationMode

    if mode == "negative" and path in NO_PARAMETERS:
        pytest.skip("no parameter to make invalid")
    operation = api_schema[path][method].ok() if hasattr(api_schema[path][method], "ok") else api_schema[path][method]
    strategy = operation.as_strategy(generation_mode=GenerationMode(mode))
    # Negative cases are drawn and the ones the schema accepts thrown away: where every
    # parameter takes almost any text (a game id, a game's name in the path) nearly all
    # are, and Hypothesis's check against heavy filtering fails the test before it runs.
    filtering = [HealthCheck.filter_too_much] if mode == "negative" else []

    @given(case=strategy)
    @settings(max_examples=40, deadline=None, suppress_health_check=filtering)
    def check(case):
        case.call_and_validate(headers={"Origin": SITE}, checks=CHECKS)

    try:
        check()
    except Unsatisfiable:  # every value of its parameters is valid (a game id is any text)
        pytest.skip("no invalid value to send")


# -- hostile values the schema cannot describe --------------------------------------------
NASTY_TEXT = st.one_of(
    st.text(),
    st.sampled_from(
        [
            "\ud800",
            "\udfff",
            "a\x00b",
            "\x00",
            "KH\x00",
            "😀",
            "\u202e",
            "ｋｈ",
            "١٢٣",
            "-0",
            "1e309",
            "9" * 5000,
            "' OR 1=1 --",
            "%00",
            "../../etc/passwd",
        ]
    ),
)
LONG_TEXT = NASTY_TEXT | st.just("x" * 70_000)  # bodies only: no client sends such a URL
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | LONG_TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(NASTY_TEXT, children, max_size=3),
    max_leaves=8,
)


def encode(value) -> bytes:
    """JSON as Python writes it: NaN and Infinity as bare words, surrogates escaped."""
    return json.dumps(value, allow_nan=True).encode()


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app, headers={"Origin": SITE}, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(scope="module")
def game(client):
    state = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
    client.post(f"/api/games/{state['id']}/moves", json={"move": "KH"})
    return state["id"]


def assert_refused_cleanly(response) -> None:
    assert response.status_code < 500, response.text[:300]
    if response.status_code >= 400:
        body = response.json()
        assert set(body) >= {"code", "detail"} and isinstance(body["code"], str)
        assert len(response.content) < 4000  # nothing sent is echoed back at length


FIELDS = {"/api/games": ["game", "deal", "winnable", "undo"], "moves": ["move"], "undo": [], "restart": []}


@given(field=st.sampled_from(["game", "deal", "winnable", "undo"]), value=JSON_VALUES)
@settings(max_examples=150, deadline=None)
def test_new_game_with_any_value_in_any_field(client, field, value):
    body = {"game": "black-hole", "deal": 3} | {field: value}
    response = client.post("/api/games", content=encode(body), headers={"Content-Type": "application/json"})
    assert_refused_cleanly(response)


@given(path=st.sampled_from(["moves", "undo", "restart"]), body=JSON_VALUES | st.fixed_dictionaries({"move": JSON_VALUES}))
@settings(max_examples=150, deadline=None)
def test_play_calls_with_any_body_leave_the_game_intact(client, game, path, body):
    before = client.get(f"/api/games/{game}").json()
    response = client.post(f"/api/games/{game}/{path}", content=encode(body), headers={"Content-Type": "application/json"})
    assert_refused_cleanly(response)
    after = client.get(f"/api/games/{game}").json()
    if response.status_code != 200:
        assert after["moves"] == before["moves"] and after["restarts"] == before["restarts"]
    elif path == "restart":
        assert after["moves"] == []
    if after["moves"] != ["KH"]:  # put the game back for the next example
        client.post(f"/api/games/{game}/restart", json={})
        client.post(f"/api/games/{game}/moves", json={"move": "KH"})


@given(game_id=NASTY_TEXT, tail=st.sampled_from(["", "/hint", "/analysis", "/position?at=0"]))
@settings(max_examples=150, deadline=None)
def test_any_game_id_in_the_path(client, game_id, tail):
    from urllib.parse import quote

    response = client.get("/api/games/" + quote(game_id.encode("utf-8", "surrogatepass"), safe="") + tail)
    assert_refused_cleanly(response)


@given(name=st.sampled_from(["seconds", "at"]), value=NASTY_TEXT | st.sampled_from(["nan", "inf", "-inf", "1e999", "0"]))
@settings(max_examples=100, deadline=None)
def test_any_query_value(client, game, name, value):
    path = {"seconds": "hint", "at": "position"}[name]
    response = client.get(f"/api/games/{game}/{path}", params={name: value.encode("utf-8", "surrogatepass")})
    assert_refused_cleanly(response)


def test_raw_bodies_that_are_not_json(client, game):
    for raw in [
        b"NaN",
        b"[NaN]",
        b'{"move": Infinity}',
        b"{",
        b"\xff\xfe",
        b'"\\ud800"',
        b'{"move": "\\u0000"}',
        b"[" * 5000 + b"]" * 5000,
        b'{"game": "black-hole", "deal": ' + b"9" * 5000 + b"}",
    ]:
        for path in ("/api/games", f"/api/games/{game}/moves", f"/api/games/{game}/undo"):
            assert_refused_cleanly(client.post(path, content=raw, headers={"Content-Type": "application/json"}))
