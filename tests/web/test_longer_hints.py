"""Hints that do not give up (issue 35): a hint whose search finds no line within its
budget starts a longer search of the position in the background, and the next hint
there gives its line with no search of its own (``winnable.web.play.longer``)."""

from __future__ import annotations

import threading

import pytest

from webapp import make_client
from winnable.blackhole import BlackHole
from winnable.web.play.longer import LongerSearches

SPIDER_DEAL = 11483
"""A four-suit Spider deal the hints' search leaves at 0.5 s of CPU (1.1 million positions)
and wins when given 20 s, at a million positions in its first long pass (0.5 s of CPU; the
pass has 5 s, and no other pass wins it within 1.7 million): never within a hint of 0.5 s,
always within a longer search of 20 s."""


def new_game(client, game: str, deal: int) -> dict:
    response = client.post("/api/games", json={"game": game, "deal": deal})
    assert response.status_code == 201, response.text
    return response.json()


def longer_searches(client) -> LongerSearches:
    longer = client.app.state.services.solver.longer
    assert longer is not None
    return longer


def test_a_hint_that_finds_nothing_searches_longer_and_the_next_hint_gives_the_line(db_url):
    with make_client(db_url, hint_seconds=0.5, hint_longer_seconds=20) as client:
        game = new_game(client, "spider-4", SPIDER_DEAL)
        first = client.get(f"/api/games/{game['id']}/hint").json()
        assert (first["verdict"], first["move"], first["searching"], first["answered"]) == ("unknown", None, True, "searched")
        assert "longer search" in first["message"]
        assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 0  # nothing was told yet
        assert longer_searches(client).wait_idle(120)
        searches = client.app.state.services.solver.searches
        second = client.get(f"/api/games/{game['id']}/hint").json()
        assert second["verdict"] == "won" and second["move"] is not None and second["line_length"] > 50
        assert (second["searching"], second["answered"], second["cached"]) == (False, "known", True)
        assert client.app.state.services.solver.searches == searches  # no search of its own
        assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 1
        # The line is the game's now: the next hint, one move on, follows it.
        played = client.post(f"/api/games/{game['id']}/moves", json={"move": second["move"]})
        assert played.status_code == 200, played.text
        third = client.get(f"/api/games/{game['id']}/hint").json()
        assert third["line_length"] == second["line_length"] - 1 and third["answered"] == "known"


def test_the_longer_search_is_said_in_french_and_dutch(db_url):
    with make_client(db_url, hint_seconds=0.5, hint_longer_seconds=20) as client:
        game = new_game(client, "spider-4", SPIDER_DEAL)
        french = client.get(f"/api/games/{game['id']}/hint", headers={"Accept-Language": "fr"}).json()
        assert french["searching"] and "recherche plus longue" in french["message"]
        dutch = client.get(f"/api/games/{game['id']}/hint", headers={"Accept-Language": "nl"}).json()
        assert dutch["searching"] and "langere zoektocht" in dutch["message"]
        longer_searches(client).wait_idle(120)


@pytest.fixture
def gated_engine(monkeypatch):
    """Black Hole's searches of 1 s or less find nothing; longer ones wait for ``gate``
    (then find nothing too when ``found`` is False, else search for real); ``control["entered"]``
    is set when a longer one has begun."""
    real = BlackHole.engine_search
    calls: list[float] = []
    gate = threading.Event()
    control = {"found": True, "entered": threading.Event()}

    def search(self, nodes, seconds, **options):
        calls.append(seconds)
        if seconds is not None and seconds <= 1:
            return "unknown", [], 0
        control["entered"].set()
        gate.wait(60)
        if not control["found"]:
            return "unknown", [], 0
        return real(self, nodes, seconds, **options)

    monkeypatch.setattr(BlackHole, "engine_search", search)
    yield calls, gate, control
    gate.set()


def test_while_the_longer_search_runs_hints_there_answer_from_it_with_no_search(db_url, gated_engine):
    calls, gate, control = gated_engine
    with make_client(db_url, hint_seconds=0.5, hint_longer_seconds=5) as client:
        game = new_game(client, "black-hole", 2)
        assert client.get(f"/api/games/{game['id']}/hint").json()["searching"]
        assert control["entered"].wait(30)
        for _ in range(3):
            again = client.get(f"/api/games/{game['id']}/hint").json()
            assert (again["searching"], again["answered"], again["move"]) == (True, "known", None)
        gate.set()
        assert longer_searches(client).wait_idle(60)
        assert len(calls) == 2  # the hint's search and the longer one, nothing more
        found = client.get(f"/api/games/{game['id']}/hint").json()
        assert found["move"] is not None and found["verdict"] == "won" and len(calls) == 2
        assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 1


def test_a_longer_search_that_finds_nothing_is_said_and_not_searched_again(db_url, gated_engine):
    calls, gate, control = gated_engine
    control["found"] = False
    gate.set()
    with make_client(db_url, hint_seconds=0.5, hint_longer_seconds=5) as client:
        game = new_game(client, "black-hole", 2)
        assert client.get(f"/api/games/{game['id']}/hint").json()["searching"]
        assert longer_searches(client).wait_idle(60)
        after = client.get(f"/api/games/{game['id']}/hint").json()
        assert (after["verdict"], after["searching"], after["answered"]) == ("unknown", False, "known")
        assert "even by a longer search of 5 s" in after["message"]
        assert len(calls) == 2
        assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 1


def test_without_longer_searches_a_hint_that_finds_nothing_says_so(db_url, gated_engine):
    with make_client(db_url, hint_seconds=0.5, hint_longer_seconds=0) as client:
        assert client.app.state.services.solver.longer is None
        game = new_game(client, "black-hole", 2)
        hint = client.get(f"/api/games/{game['id']}/hint").json()
        assert (hint["verdict"], hint["searching"]) == ("unknown", False)
        assert "0.5 s" in hint["message"] and "longer" not in hint["message"]


# -- what a client can make it cost ------------------------------------------------------------
@pytest.fixture
def held():
    """Longer searches whose ``run`` waits for ``gate``; ``ran`` lists the keys run."""
    gate = threading.Event()
    ran: list[str] = []

    def run(key, job):
        ran.append(key)
        return gate.wait(30) and job == "found"

    longer: LongerSearches[str] = LongerSearches(run, waiting=2, nice=0)
    yield longer, gate, ran
    gate.set()
    longer.stop()


def running(longer: LongerSearches, key: str) -> None:
    with longer._cond:
        assert longer._cond.wait_for(lambda: longer.state(key) == "running", 10)


def test_one_longer_search_a_client_and_a_bounded_queue(held):
    longer, gate, ran = held
    assert longer.start("a", "client-1", "found")
    running(longer, "a")
    assert not longer.start("b", "client-1", "found")  # its own is running: one at a time
    assert longer.start("a", "client-2", "found")  # the same position: the one search
    assert longer.start("c", "client-2", "found") and longer.start("d", "client-2", "found")
    assert (longer.state("c"), longer.state("d")) == (None, "waiting")  # its newer one took the place
    assert longer.start("e", "client-3", "nothing")
    assert not longer.start("f", "client-4", "found")  # two waiting: full
    assert longer.stats() == {"longer_waiting": 2, "longer_running": 1, "longer_done": 0, "longer_refused": 2}
    gate.set()
    assert longer.wait_idle(10)
    assert ran == ["a", "d", "e"]
    # What was found is the cache's to say (no state); where nothing was found, "searched",
    # and it is not searched again.
    assert [longer.state(key) for key in "ade"] == [None, None, "searched"]
    assert not longer.start("e", "client-5", "found") and ran == ["a", "d", "e"]


def test_a_stopped_server_starts_no_longer_search(held):
    longer, gate, ran = held
    longer.stop()
    assert not longer.start("a", "client-1", "found") and ran == []


def test_show_me_says_the_longer_search_and_shows_its_line_once_found(db_url, gated_engine):
    calls, gate, control = gated_engine
    with make_client(db_url, hint_seconds=0.5, hint_longer_seconds=5) as client:
        game = new_game(client, "black-hole", 2)
        refused = client.get(f"/api/games/{game['id']}/solution")
        assert refused.status_code == 409 and refused.json()["code"] == "not_winnable"
        assert control["entered"].wait(30)
        assert "a longer search goes on in the background" in refused.json()["detail"]
        dutch = client.get(f"/api/games/{game['id']}/solution", headers={"Accept-Language": "nl"})
        assert "langere zoektocht" in dutch.json()["detail"] and len(calls) == 2
        gate.set()
        assert longer_searches(client).wait_idle(60)
        shown = client.get(f"/api/games/{game['id']}/solution")
        assert shown.status_code == 200 and len(shown.json()["line"]) > 10 and len(calls) == 2


def test_still_winnable_searches_longer_at_the_games_position(db_url, gated_engine):
    calls, gate, control = gated_engine
    with make_client(db_url, analysis_seconds=0.5, hint_longer_seconds=5) as client:
        game = new_game(client, "black-hole", 2)
        first = client.get(f"/api/games/{game['id']}/analysis").json()
        assert first["verdict"] == "unknown" and "a longer search goes on in the background" in first["message"]
        assert control["entered"].wait(30)
        french = client.get(f"/api/games/{game['id']}/analysis", headers={"Accept-Language": "fr"}).json()
        assert "recherche plus longue" in french["message"] and len(calls) == 2  # answered from its state
        gate.set()
        assert longer_searches(client).wait_idle(60)
        after = client.get(f"/api/games/{game['id']}/analysis").json()
        assert (after["verdict"], after["winnable"]) == ("won", True) and len(calls) == 2


def test_a_new_games_deal_is_searched_at_once_and_its_first_hint_is_ready(db_url):
    with make_client(db_url, hint_seconds=0.5, hint_longer_seconds=20, hint_presearch=True) as client:
        game = new_game(client, "spider-4", SPIDER_DEAL)
        assert longer_searches(client).wait_idle(120) and longer_searches(client).done == 1
        searches = client.app.state.services.solver.searches
        first = client.get(f"/api/games/{game['id']}/hint").json()
        assert (first["verdict"], first["answered"], first["searching"]) == ("won", "known", False)
        assert client.app.state.services.solver.searches == searches
        again = new_game(client, "spider-4", SPIDER_DEAL)  # the same deal: known, nothing searched
        assert client.get(f"/api/games/{again['id']}/hint").json()["answered"] == "known"
        assert longer_searches(client).done == 1


def test_no_presearch_when_it_is_off(db_url):
    with make_client(db_url, hint_longer_seconds=20, hint_presearch=False) as client:
        new_game(client, "spider-4", SPIDER_DEAL)
        assert longer_searches(client).stats()["longer_waiting"] + longer_searches(client).started == 0


def test_a_longer_search_that_fails_leaves_the_next_hint_its_own_search(db_url, monkeypatch):
    from winnable.errors import EngineError

    calls: list[float] = []

    def search(self, nodes, seconds, **options):
        calls.append(seconds)
        if seconds is not None and seconds <= 1:
            return "unknown", [], 0
        raise EngineError("engine line refused at move 1")

    monkeypatch.setattr(BlackHole, "engine_search", search)
    with make_client(db_url, hint_seconds=0.5, hint_longer_seconds=5) as client:
        game = new_game(client, "black-hole", 2)
        assert client.get(f"/api/games/{game['id']}/hint").json()["searching"]
        assert longer_searches(client).wait_idle(60) and len(calls) == 2
        after = client.get(f"/api/games/{game['id']}/hint").json()
        # its own search (not "found nothing" from the failed one), then another longer one
        assert (after["verdict"], after["answered"], after["searching"]) == ("unknown", "searched", True) and calls[2] <= 1


def test_while_a_new_games_search_runs_the_first_hint_still_searches_then_waits_for_it(db_url, gated_engine):
    calls, gate, control = gated_engine
    with make_client(db_url, hint_seconds=0.5, hint_longer_seconds=5, hint_presearch=True) as client:
        game = new_game(client, "black-hole", 2)
        assert control["entered"].wait(30) and calls == [5.0]  # the deal's search, held
        first = client.get(f"/api/games/{game['id']}/hint").json()
        assert (first["answered"], first["searching"]) == ("searched", True) and len(calls) == 2  # its own search
        again = client.get(f"/api/games/{game['id']}/hint").json()
        assert (again["answered"], again["searching"]) == ("known", True) and len(calls) == 2  # told: it waits now
        gate.set()
        assert longer_searches(client).wait_idle(60)
        assert client.get(f"/api/games/{game['id']}/hint").json()["move"] is not None and len(calls) == 2
