"""A hint from a known line costs no search and no solver quota (issue 21, item 8).

Tapping Hint quickly must not run into the solver's limits when the answer comes from
the game's kept line: such a hint counts against no ``solver`` rate limit and takes no
share of the solver (its per-client places); only a hint that searches does. Every hint
still counts against the plain, much higher, ``hint`` rate limit, so that asking for
hints in a loop is bounded all the same.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import webapp
from winnable.web.settings import Settings

CLIENT = "testclient"  # the rate-limit key of TestClient's requests
GAME = "black-hole"


def make_client(url: str, **settings) -> TestClient:
    """The test client with the server's rate limits on, and high ones for all but hints."""
    limits = {"rate_limits": True, "limit_default": "10000/minute", "limit_play": "10000/minute", "limit_create": "10000/minute"}
    return webapp.make_client(url, **(limits | settings))


def new_game(client: TestClient, deal: int) -> str:
    response = client.post("/api/games", json={"game": GAME, "deal": deal})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def searches(client: TestClient) -> int:
    return client.app.state.services.solver.searches


def first_hint(client: TestClient, deal: int) -> tuple[str, dict]:
    """A new game of ``deal`` and its first hint (a search): the game's line is kept."""
    game_id = new_game(client, deal)
    before = searches(client)
    response = client.get(f"/api/games/{game_id}/hint")
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["verdict"] == "won" and answer["cached"] is False
    assert searches(client) == before + 1
    return game_id, answer


def follow(client: TestClient, game_id: str, answer: dict) -> dict:
    """Play the hinted move, then ask again: the kept line answers."""
    played = client.post(f"/api/games/{game_id}/moves", json={"move": answer["move"]})
    assert played.status_code == 200, played.text
    response = client.get(f"/api/games/{game_id}/hint")
    assert response.status_code == 200, response.text
    return response.json()


def test_hints_from_the_kept_line_count_against_no_solver_limit(db_url):
    with make_client(db_url, limit_solver="1/minute") as client:
        game_id, answer = first_hint(client, 2)
        for _ in range(15):  # tapping Hint again and again, and following it
            again = client.get(f"/api/games/{game_id}/hint")
            assert again.status_code == 200 and again.json()["move"] == answer["move"]
            answer = follow(client, game_id, answer)
            assert answer["cached"] is True and answer["move"]
        assert searches(client) == 1
        # a search still counts: the next deal's first hint is over the limit
        refused = client.get(f"/api/games/{new_game(client, 3)}/hint")
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert searches(client) == 1


def test_hints_from_the_kept_line_take_no_share_of_the_solver(db_url):
    """With the client's one place in the solver taken (another request of its own
    waiting for a search), its hints from the kept line are still answered; a hint that
    must search is refused."""
    with make_client(db_url, solver_queue_per_client=1) as client:
        game_id, answer = first_hint(client, 2)
        other = new_game(client, 3)
        queue = client.app.state.services.queue
        with queue.admit(CLIENT, "hint"):
            for _ in range(5):
                answer = follow(client, game_id, answer)
                assert answer["cached"] is True and answer["move"]
            refused = client.get(f"/api/games/{other}/hint")
            assert refused.status_code == 429 and refused.json()["code"] == "solver_queue_full_for_client"
        assert queue.stats()["requests"] == 0
        assert client.get(f"/api/games/{other}/hint").status_code == 200  # its place is free again


def test_every_hint_counts_against_the_plain_hint_limit(db_url):
    with make_client(db_url, limit_hint="6/minute", limit_solver="100/minute") as client:
        game_id, answer = first_hint(client, 2)
        for _ in range(5):
            assert client.get(f"/api/games/{game_id}/hint").status_code == 200
        refused = client.get(f"/api/games/{game_id}/hint")
        assert refused.status_code == 429
        body = refused.json()
        assert body["code"] == "rate_limited" and "too many hints" in body["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
        fr = client.get(f"/api/games/{game_id}/hint", headers={"Accept-Language": "fr"})
        assert fr.status_code == 429 and "indices" in fr.json()["detail"]
        # moves are not hints: the game goes on
        assert client.post(f"/api/games/{game_id}/moves", json={"move": answer["move"]}).status_code == 200


def test_the_hint_limit_is_much_higher_than_the_solvers_and_checked():
    from limits import parse

    settings = Settings()
    assert parse(settings.limit_hint).amount >= 5 * parse(settings.limit_solver).amount
    assert Settings(limit_hint="90/minute").limit_hint == "90/minute"
    with pytest.raises(ValueError):
        Settings(limit_hint="lots")
