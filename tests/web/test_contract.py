"""The API says what it takes: the OpenAPI schema holds every cap and range the server
holds a request to, what the schema takes is taken, booleans are booleans, and a method
a path does not have is 405 with ``Allow`` (before the JSON and same-origin checks,
which are about calls a path has)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from webapp import SITE, make_app
from winnable.deals import MAX_DEAL
from winnable.web.play.lookup import MAX_MOVES
from winnable.web.play.scores import THINK_CHOICES


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('contract') / 'games.db'}"
    return make_app(url, hint_max_seconds=3, analysis_max_seconds=7)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app, headers={"Origin": SITE}) as client:
        yield client


@pytest.fixture(scope="module")
def spec(client):
    return client.get("/openapi.json").json()


def parameter(spec, path: str, name: str) -> dict:
    (found,) = [p for p in spec["paths"][path]["get"]["parameters"] if p["name"] == name]
    return found["schema"]


def branch(schema: dict, kind: str) -> dict:
    (found,) = [item for item in schema.get("anyOf", [schema]) if item.get("type") == kind]
    return found


# -- 405 ----------------------------------------------------------------------------------
def test_a_method_a_path_does_not_have_is_405_with_allow(client, spec):
    import re

    bare = TestClient(client.app)  # no Origin, no JSON body: the gate would say 415 or 403
    for template in spec["paths"]:
        path = template.replace("{game_id}", "abc").replace("{game}", "black-hole")
        own = {method.upper() for method in spec["paths"][template]}
        # every template the path matches (/api/games/summaries is also a {game_id})
        declared = {
            method.upper()
            for other, operations in spec["paths"].items()
            if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", other), path)
            for method in operations
        }
        for method in {"PUT", "PATCH", "DELETE", "POST"} - declared:
            answers = set()
            for caller, body in ((bare, None), (client, {})):
                response = caller.request(method, path, json=body)
                assert response.status_code == 405, (method, path, response.status_code, response.text)
                assert response.json()["code"] == "method_not_allowed"
                answers.add(response.headers["allow"])
            assert len(answers) == 1, (method, path, answers)  # the gate says what the router says
            assert own <= set(answers.pop().split(", ")) <= declared, (method, path)


def test_the_gate_still_refuses_calls_a_path_has(client):
    bare = TestClient(client.app)
    assert bare.post("/api/games", content=b"game=black-hole").json()["code"] == "json_required"
    assert bare.post("/api/games", json={"game": "black-hole"}).json()["code"] in ("cross_site", "csrf_failed")
    assert bare.put("/no/such/path").status_code == 404  # a path nobody has: not found, not 405
    assert bare.put("/static/app.css").status_code == 405  # static files: GET and HEAD


# -- caps and ranges in the schema ----------------------------------------------------------------
def test_every_cap_and_range_is_in_the_schema(spec):
    hint = branch(parameter(spec, "/api/games/{game_id}/hint", "seconds"), "number")
    analysis = branch(parameter(spec, "/api/games/{game_id}/analysis", "seconds"), "number")
    assert (hint["maximum"], analysis["maximum"]) == (3, 7)  # this server's settings
    assert hint["exclusiveMinimum"] == analysis["exclusiveMinimum"] == 0
    at = parameter(spec, "/api/games/{game_id}/position", "at")
    assert (at["minimum"], at["maximum"]) == (0, MAX_MOVES)
    date = parameter(spec, "/api/daily/{game}/leaderboard", "date")
    assert date["format"] == "date" and branch(date, "string")["pattern"]
    schemas = spec["components"]["schemas"]
    deal = schemas["NewGame"]["properties"]["deal"]
    number, text = branch(deal, "integer"), branch(deal, "string")
    assert (number["minimum"], number["maximum"]) == (1, MAX_DEAL) and type(number["maximum"]) is int
    assert text["pattern"] == "^[1-9][0-9]{0,19}$"
    assert branch(schemas["NewGame"]["properties"]["think"], "integer")["enum"] == list(THINK_CHOICES)
    move = schemas["PlayMove"]["properties"]["move"]
    assert (move["minLength"], move["maxLength"]) == (1, 64)
    account = schemas["NewAccount"]["properties"]
    assert (account["name"]["minLength"], account["name"]["maxLength"], account["name"]["pattern"]) == (
        3,
        24,
        "^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$",
    )
    assert (account["password"]["minLength"], account["password"]["maxLength"]) == (8, 128)
    signup = spec["paths"]["/api/auth/signup"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert signup["$ref"].endswith("/NewAccount")


def test_what_the_schema_takes_is_taken(client):
    """Values at the edges of the schema's ranges: taken, never refused as malformed."""
    game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
    path = f"/api/games/{game['id']}"
    assert client.get(path + "/hint", params={"seconds": 3}).status_code == 200  # the cap itself
    over = client.get(path + "/hint", params={"seconds": 3.001})
    assert over.status_code == 422 and over.json()["code"] == "budget_too_large"
    assert client.get(path + "/analysis", params={"seconds": 0.5}).status_code == 200
    assert client.get(path + "/position", params={"at": 0}).status_code == 200
    past = client.get(path + "/position", params={"at": MAX_MOVES})  # in range, not in this game: no such position
    assert past.status_code == 404 and past.json()["code"] == "bad_position"
    for deal in (MAX_DEAL, str(MAX_DEAL), 7.0, "7"):
        created = client.post("/api/games", json={"game": "black-hole", "deal": deal})
        assert created.status_code == 201, (deal, created.text)
    timed = client.post("/api/games", json={"game": "black-hole", "deal": 2, "think": 30.0})
    assert timed.status_code == 201 and timed.json()["think_seconds"] == 30
    untimed = client.post("/api/games", json={"game": "penguin", "deal": 2, "think": 30})  # no timed play there
    assert untimed.status_code == 409 and untimed.json()["code"] == "bad_think"
    read = client.post(path + "/moves", json={"move": "3>7"})  # a move of another game's notation
    assert read.status_code == 409 and read.json()["code"] == "bad_move"
    assert client.get("/api/daily/black-hole/leaderboard", params={"date": "0001-01-01"}).status_code == 200
    assert client.get("/api/daily/black-hole/leaderboard", params={"date": "9999-12-31"}).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"game": "black-hole", "deal": 0},
        {"game": "black-hole", "deal": MAX_DEAL + 1},
        {"game": "black-hole", "deal": "007"},
        {"game": "black-hole", "deal": " 7"},
        {"game": "black-hole", "deal": "1_000"},
        {"game": "black-hole", "deal": "ms7"},
        {"game": "black-hole", "think": 15},
        {"game": "black-hole", "think": "10"},
    ],
)
def test_what_the_schema_refuses_is_refused(client, body):
    response = client.post("/api/games", json=body)
    assert response.status_code == 422 and response.json()["code"] == "invalid_request", response.text


@pytest.mark.parametrize(
    "name, password, code",
    [
        ("0" * 63, "correct horse", "bad_name"),
        ("ab", "correct horse", "bad_name"),
        ("a..b", "correct horse", "bad_name"),
        ("ada", "short", "bad_password"),
        ("ada", "tab\there!", "bad_password"),
        ("ada", " " * 9, "blank_password"),
    ],
)
def test_a_new_accounts_rules_are_the_schemas(client, name, password, code):
    """What the schema refuses is refused, with the rules' own reason (not the pattern's)."""
    response = client.post("/api/auth/signup", json={"name": name, "password": password})
    assert response.status_code == 422 and response.json()["code"] == code, response.text


# -- strict booleans ------------------------------------------------------------------------
@pytest.mark.parametrize("flag", [0, 1, "true", "yes", None, 1.0])
def test_booleans_are_strict(client, flag):
    before = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
    path = f"/api/games/{before['id']}"
    refused = [
        client.post("/api/games", json={"game": "black-hole", "deal": 2, "winnable": flag}),
        client.post(path + "/moves", json={"move": "KH", "auto": flag}),
        client.post(path + "/undo", json={"auto": flag}),
    ]
    for response in refused:
        assert response.status_code == 422 and "valid boolean" in response.json()["detail"], response.text
    assert client.get(path).json()["moves"] == []  # nothing played
    assert client.post(path + "/moves", json={"move": "KH", "auto": False}).status_code == 200
