"""Every response of a real game's life (not only the fuzzer's 404s) is valid against the
OpenAPI schema the API declares for its operation and status."""

from __future__ import annotations

import re

import pytest
from jsonschema_rs import Draft202012Validator

from webapp import make_client


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('schema') / 'games.db'}"
    with make_client(url) as client:
        yield client


@pytest.fixture(scope="module")
def spec(client):
    return client.get("/openapi.json").json()


def operation(spec: dict, method: str, path: str) -> dict:
    for template, operations in spec["paths"].items():
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if re.match(pattern, path.split("?")[0]) and method.lower() in operations:
            return operations[method.lower()]
    raise AssertionError(f"{method} {path} is not in the schema")


def checked(client, spec: dict, method: str, path: str, **kwargs):
    response = client.request(method, path, **kwargs)
    declared = operation(spec, method, path)["responses"]
    assert str(response.status_code) in declared, f"{method} {path}: {response.status_code} is not documented"
    schema = declared[str(response.status_code)]["content"]["application/json"]["schema"]
    validator = Draft202012Validator({**schema, "components": spec["components"]})
    errors = list(validator.iter_errors(response.json()))
    assert not errors, f"{method} {path} {response.status_code}: {errors[0].message}"
    return response


def test_a_games_responses_match_their_schemas(client, spec):
    app = client.app
    assert app.state.services.pool.fill("black-hole", 1) == 1
    checked(client, spec, "GET", "/api/catalog")
    checked(client, spec, "GET", "/api/health")
    checked(client, spec, "GET", "/api/csrf")
    game = checked(client, spec, "POST", "/api/games", json={"game": "black-hole", "deal": 2}).json()
    path = f"/api/games/{game['id']}"
    checked(client, spec, "POST", path + "/moves", json={"move": "KH"})
    checked(client, spec, "POST", path + "/moves", json={"move": "QD"})  # 409
    checked(client, spec, "POST", path + "/moves", json={"move": 7})  # 422
    checked(client, spec, "GET", path + "/hint")
    checked(client, spec, "GET", path + "/hint?seconds=999")  # 422: over the cap
    checked(client, spec, "GET", path + "/position?at=1")
    checked(client, spec, "POST", path + "/undo", json={})
    checked(client, spec, "POST", path + "/restart", json={})
    state = checked(client, spec, "GET", path).json()
    while state["status"] == "playing":
        state = checked(client, spec, "POST", path + "/moves", json={"move": state["legal"][-1]["move"]}).json()
    checked(client, spec, "GET", path + "/analysis")
    checked(client, spec, "POST", "/api/games", json={"game": "black-hole", "winnable": True})
    checked(client, spec, "POST", "/api/games", json={"game": "penguin-0", "winnable": True})  # 409
    for name in ("FreeCell", "Black Widow"):
        game_id = {"FreeCell": "freecell", "Black Widow": "black-widow"}[name]
        other = checked(client, spec, "POST", "/api/games", json={"game": game_id, "deal": 5}).json()
        moved = checked(client, spec, "POST", f"/api/games/{other['id']}/moves", json={"move": other["legal"][0]["move"]})
        assert moved.json()["title"] == name
        checked(client, spec, "GET", f"/api/games/{other['id']}/hint?seconds=0.5")


def test_game_states_are_exactly_what_their_model_writes(client):
    """The hot routes write the game state themselves (winnable.web.models.responses.StateJSON),
    not through their response_model: the bytes must be the model's own, field for
    field and number for number (``0.0``, not ``0``), for every route that answers a
    state, plain and timed games, after moves, an undo, a restart and a loss."""
    from winnable.web.models.schemas import GameState

    def same(response, status=200):
        assert response.status_code == status, response.text
        assert response.headers["content-type"] == "application/json"
        assert GameState.model_validate_json(response.content).model_dump_json().encode() == response.content
        return response.json()

    for body in (
        {"game": "black-hole", "deal": 3},
        {"game": "black-hole", "deal": 4, "think": 30, "undo": "one"},
        {"game": "freecell", "deal": 9},
        {"game": "black-widow", "deal": 2},
    ):
        state = same(client.post("/api/games", json=body), 201)
        path = f"/api/games/{state['id']}"
        state = same(client.post(path + "/moves", json={"move": state["legal"][0]["move"]}))
        same(client.get(path))
        same(client.post(path + "/undo", json={}))
        state = same(client.post(path + "/restart", json={}))
        while state["status"] == "playing" and state["move_count"] < 60:
            state = same(client.post(path + "/moves", json={"move": state["legal"][-1]["move"], "auto": True}))
        same(client.get(path))
