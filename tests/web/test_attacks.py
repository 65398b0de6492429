"""Each attack of the public-server issue, reproduced: it gets its 4xx/429/503, while
other players' requests stay fast and every stored game stays intact."""

from __future__ import annotations

import threading
import time
import tracemalloc

import pytest
from fastapi.testclient import TestClient

import webapp
from webapp import SITE, client_at
from winnable.blackhole import BlackHole

SLOW_DEAL = 777  # its searches are made to take their whole budget (see slow_engine)


def make_app(url, **settings):
    """The test app with the server's rate limits on."""
    return webapp.make_app(url, **({"rate_limits": True} | settings))


@pytest.fixture
def slow_engine(monkeypatch):
    """Searches of deal SLOW_DEAL's deal position use up their whole budget and find nothing,
    like the hardest deals of the hardest games."""
    real = BlackHole.engine_search

    def search(self, nodes, seconds, **options):
        if self.deal_number == SLOW_DEAL and len(self.foundation) == 1:
            time.sleep(seconds or 1)
            return "unknown", [], 0
        return real(self, nodes, seconds, **options)

    monkeypatch.setattr(BlackHole, "engine_search", search)


# -- 1. solver starvation ---------------------------------------------------------------
def test_a_client_looping_long_analyses_does_not_starve_the_others(db_url, slow_engine):
    app = make_app(db_url, solver_threads=2, analysis_max_seconds=3, hint_seconds=5, rate_limits=False)
    attacker = client_at(app, "10.6.6.6")
    target = attacker.post("/api/games", json={"game": "black-hole", "deal": SLOW_DEAL}).json()["id"]
    stop = threading.Event()
    attacks: list[int] = []

    def attack():
        while not stop.is_set():
            attacks.append(attacker.get(f"/api/games/{target}/analysis", params={"seconds": 3}).status_code)

    threads = [threading.Thread(target=attack) for _ in range(6)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # the attacker holds its worker now
    answers = []
    try:
        for k in range(6):  # other players, one after the other, each their own deal
            player = client_at(app, f"10.0.1.{k}")
            game = player.post("/api/games", json={"game": "black-hole", "deal": 2 + k * 10}).json()
            started = time.monotonic()
            hint = player.get(f"/api/games/{game['id']}/hint").json()
            answers.append((hint["verdict"], time.monotonic() - started))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert [verdict for verdict, _ in answers if verdict == "unknown"] == [], answers
    assert max(seconds for _, seconds in answers) < 3.0, answers  # not behind the attacker's searches
    assert 429 in attacks  # more than its share at once is refused...
    assert 200 in attacks  # ...while its own turns still come
    capped = attacker.get(f"/api/games/{target}/analysis", params={"seconds": 60})
    assert capped.status_code == 422 and capped.json()["code"] == "budget_too_large" and "3" in capped.json()["detail"]


def test_a_full_solver_queue_answers_at_once_with_what_is_known(db_url, slow_engine):
    app = make_app(db_url, solver_threads=1, solver_queue=2, hint_seconds=2, rate_limits=False)
    games = []
    for k in range(6):
        player = client_at(app, f"10.0.2.{k}")
        games.append((player, player.post("/api/games", json={"game": "black-hole", "deal": SLOW_DEAL}).json()["id"]))
    results: list[tuple[int, float, str | None]] = []

    def ask(player, game_id):
        started = time.monotonic()
        response = player.get(f"/api/games/{game_id}/hint")
        results.append((response.status_code, time.monotonic() - started, response.json().get("answered")))

    threads = [threading.Thread(target=ask, args=pair) for pair in games]
    for thread in threads:
        thread.start()
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    crowded = [result for result in results if result[2] == "busy"]
    # one running, two waiting, the rest had no place: answered with what is known
    # (nothing) at once, not after waiting out the 2 s budget (a waiting job whose time
    # ran out is busy too, later)
    at_once = [result for result in crowded if result[1] < 1.0]
    assert len(at_once) >= 2, results
    assert all(status == 200 for status, _, _ in results)  # never a 503


def test_the_queue_serves_clients_in_turn():
    import asyncio

    from winnable.web.play.queue import SolverQueue

    queue = SolverQueue(patience=60, workers=1, max_waiting=20, per_client=10)
    order: list[str] = []
    gate = threading.Event()

    async def main():
        deadline = time.monotonic() + 10
        first = asyncio.ensure_future(queue.run("a", lambda s: gate.wait(5), deadline))
        await asyncio.sleep(0.05)  # the worker is busy with "a"; now queue more
        jobs = [
            asyncio.ensure_future(queue.run(client, lambda s, c=client: order.append(c), deadline)) for client in ["a", "a", "a", "b", "c"]
        ]
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(first, *jobs)

    # in a thread of its own: a test before this one may have left an event loop running here
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()
    queue.stop()
    assert order == ["b", "c", "a", "a", "a"]  # a had work running: b and c do not wait behind it


# -- 2. Winnable storms ---------------------------------------------------------------------
def test_a_winnable_storm_on_a_preset_without_proved_deals(db_url):
    app = make_app(db_url, limit_create="20/minute")
    storm = client_at(app, "10.6.6.7")
    codes = []
    started = time.process_time()
    for _ in range(40):
        codes.append(storm.post("/api/games", json={"game": "penguin-0", "winnable": True}).status_code)
    cpu = time.process_time() - started
    assert codes[:20] == [409] * 20 and set(codes[20:]) == {429}
    assert app.state.services.solver.searches == 0 and len(app.state.services.solver.cache) == 0  # no search, no cache junk
    assert cpu < 2.0  # 40 refusals, not 40 searches
    other = client_at(app, "10.0.3.1")
    assert other.post("/api/games", json={"game": "black-hole", "deal": 5}).status_code == 201
    refused = storm.post("/api/games", json={"game": "black-hole", "deal": 5})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert refused.json()["code"] == "rate_limited"


# -- 3. memory ----------------------------------------------------------------------------
def test_a_10000_move_game_costs_a_few_megabytes(db_url):
    """A card moved back and forth (FreeCell deal 6: column 2 to 5 and back)."""
    app = make_app(db_url, rate_limits=False)
    games = app.state.services.games
    state = games.create("freecell", 6)
    game_id = state["id"]
    start = games.store.snapshot(game_id).position
    there, back = "25", "52"
    assert start.play(there).play(back).to_text() == start.to_text()
    # 9,960 moves written at once, as if played; the last forty through the service
    with app.state.services.engine.begin() as connection:
        from winnable.storage.tables import GameRow

        connection.execute(GameRow.__table__.update().where(GameRow.__table__.c.id == game_id).values(moves=[there, back] * 4980))
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for k in range(40):
        games.play(game_id, there if k % 2 == 0 else back)
    client = client_at(app, "10.0.4.1")
    assert client.get(f"/api/games/{game_id}").json()["move_count"] == 10_000
    assert client.get(f"/api/games/{game_id}/position", params={"at": 5000}).status_code == 200
    full = client.post(f"/api/games/{game_id}/moves", json={"move": there})
    assert full.status_code == 409 and full.json()["code"] == "move_limit"  # the move cap stays
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert grown < 8 << 20, f"{grown / 1e6:.1f} MB"
    assert app.state.services.games.positions.cache.bytes < 8 << 20


def test_caches_stay_within_their_byte_budgets(db_url):
    app = make_app(db_url, rate_limits=False, position_cache_mb=1)
    games = app.state.services.games
    for deal in range(1, 120):
        state = games.create("black-widow", deal)
        for choice in state["legal"][:3]:
            games.play(state["id"], choice["move"])
            games.undo(state["id"])
    assert games.positions.cache.bytes <= 1 << 20
    assert games.positions.cache.evictions > 0


# -- 4. request limits ------------------------------------------------------------------------
def test_large_bodies_are_refused_before_they_are_read(db_url):
    app = make_app(db_url, rate_limits=False)
    client = client_at(app, "10.0.5.1")
    body = b'{"game": "black-hole", "deal": 2, "pad": "' + b"x" * (200 << 10) + b'"}'
    response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["code"] == "body_too_large"

    def chunks():  # no Content-Length: counted while it streams
        yield b'{"game": "black-hole", "pad": "'
        for _ in range(100):
            yield b"x" * 4096
        yield b'"}'

    streamed = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413 and streamed.json()["code"] == "body_too_large"
    assert app.state.services.games.store.count() == 0


def test_large_headers_are_refused(db_url):
    client = client_at(make_app(db_url), "10.0.5.2")
    response = client.get("/api/catalog", headers={"X-Padding": "x" * (1 << 20)})
    assert response.status_code == 431 and response.json()["code"] == "headers_too_large"


@pytest.mark.parametrize(
    "body", [{"game": "y" * 60}, {"game": "black-hole", "deal": "9" * 25}, {"game": "black-hole", "deal": 10**300}, {"game": "\ud800" * 50}]
)
def test_error_bodies_quote_a_short_prefix_only(db_url, body):
    import json

    client = client_at(make_app(db_url, rate_limits=False), "10.0.5.3")
    response = client.post("/api/games", content=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500
    assert len(response.content) < 400, response.text


def test_a_long_game_id_or_move_is_not_echoed(db_url):
    client = client_at(make_app(db_url, rate_limits=False), "10.0.5.4")
    assert len(client.get("/api/games/" + "z" * 5000).content) < 300
    game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "Q" * 64})
    assert response.status_code == 409 and len(response.content) < 400  # text this game cannot read


# -- 6. cross-site requests -------------------------------------------------------------------
@pytest.fixture
def played(db_url):
    app = make_app(db_url, rate_limits=False)
    own = client_at(app, "10.0.6.1")
    game = own.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
    own.post(f"/api/games/{game['id']}/moves", json={"move": "KH"})
    return app, own, game["id"]


@pytest.mark.parametrize(
    "headers, body, code",
    [
        ({"Origin": "https://evil.example", "Content-Type": "application/x-www-form-urlencoded"}, b"x=1", "json_required"),
        ({"Origin": "https://evil.example", "Content-Type": "text/plain"}, b"{}", "json_required"),
        ({"Origin": "https://evil.example", "Content-Type": "application/json"}, b"{}", "cross_site"),
        ({"Origin": "null", "Content-Type": "application/json"}, b"{}", "cross_site"),
        ({"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, b"{}", "cross_site"),
        ({"Sec-Fetch-Site": "same-site", "Origin": SITE, "Content-Type": "application/json"}, b"{}", "cross_site"),
        ({"Content-Type": "application/json"}, b"{}", "csrf_failed"),  # neither Origin nor token
        ({"Content-Type": "application/json", "X-CSRF-Token": "1.forged"}, b"{}", "csrf_failed"),
    ],
)
def test_cross_site_calls_change_nothing(played, headers, body, code):
    app, own, game_id = played
    stranger = TestClient(app, client=("10.0.6.2", 40000))
    for path in ("restart", "undo", "moves"):
        response = stranger.post(f"/api/games/{game_id}/{path}", content=body, headers=headers)
        assert response.status_code in (403, 415) and response.json()["code"] == code
    assert own.get(f"/api/games/{game_id}").json()["moves"] == ["KH"]


def test_same_origin_browsers_and_scripts_with_a_token_may_change_state(played):
    app, own, game_id = played
    browser = TestClient(app, client=("10.0.6.3", 40000))
    same = browser.post(f"/api/games/{game_id}/moves", json={"move": "AD"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200
    script = TestClient(app, client=("10.0.6.4", 40000))
    token = script.get("/api/csrf").json()
    assert token["header"] == "X-CSRF-Token"
    response = script.post(f"/api/games/{game_id}/undo", json={}, headers={"X-CSRF-Token": token["token"]})
    assert response.status_code == 200 and response.json()["moves"] == ["KH"]


def test_cors_stays_closed(played):
    app, own, game_id = played
    stranger = TestClient(app, client=("10.0.6.5", 40000))
    preflight = stranger.options(
        f"/api/games/{game_id}/moves",
        headers={
            "Origin": "https://evil.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert "access-control-allow-origin" not in preflight.headers
    read = stranger.get(f"/api/games/{game_id}", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in read.headers


def test_other_host_names_are_refused(db_url):
    app = make_app(db_url, allowed_hosts=["games.example.org"])
    assert TestClient(app, base_url="http://games.example.org").get("/api/health").status_code == 200
    rebound = TestClient(app, base_url="http://attacker.example").get("/api/health")
    assert rebound.status_code == 400 and rebound.json()["code"] == "host_not_allowed"


# -- 7. headers, docs, health, metrics ------------------------------------------------------
def test_security_headers_on_pages_api_and_errors(db_url):
    client = client_at(make_app(db_url), "10.0.7.1")
    for path in ("/", "/api/catalog", "/api/games/nope", "/static/js/api.js", "/docs"):
        response = client.get(path)
        csp = response.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"
        assert "server" not in response.headers
    assert client.get("/api/catalog").headers["cache-control"] == "no-store"


def test_docs_are_served_from_the_package(db_url):
    client = client_at(make_app(db_url), "10.0.7.2")
    page = client.get("/docs").text
    assert "cdn" not in page.lower() and "<script>" not in page  # no inline script either
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
    assert client.get("/docs/start.js").text.count("/openapi.json") == 1
    assert client.get("/redoc").status_code == 404


def test_health_says_only_up(db_url):
    client = client_at(make_app(db_url), "10.0.7.3")
    assert client.get("/api/health").json() == {"status": "up"}


def test_metrics_are_off_by_default_and_loopback_only(db_url):
    off = make_app(db_url)
    assert client_at(off, "127.0.0.1").get("/metrics").status_code == 404
    on = make_app(db_url, metrics=True)
    assert client_at(on, "10.0.7.4").get("/metrics").status_code == 404  # not from outside
    local = client_at(on, "127.0.0.1")
    local.get("/api/catalog")
    text = local.get("/metrics").text
    assert 'winnable_request_seconds_count{method="GET",route="/api/catalog"}' in text
    assert "winnable_solver_queue_waiting" in text and 'winnable_pool_ready{game="black-hole"}' in text


# -- rate limits ------------------------------------------------------------------------------
def test_rate_limits_per_client_with_retry_after(db_url):
    app = make_app(db_url, limit_default="30/minute", limit_solver="3/minute")
    flood = client_at(app, "10.0.8.1")
    games = [flood.post("/api/games", json={"game": "black-hole", "deal": deal}).json() for deal in (2, 3, 4, 5, 6)]
    hints = [flood.get(f"/api/games/{game['id']}/hint").status_code for game in games]
    assert hints == [200, 200, 200, 429, 429]  # five searches
    again = flood.get(f"/api/games/{games[0]['id']}/hint")  # the game's kept line: no search, no solver quota
    assert again.status_code == 200 and again.json()["cached"] is True
    game = games[0]
    codes = [flood.get("/api/catalog").status_code for _ in range(30)]
    assert codes.count(429) > 0 and codes[0] == 200
    refused = flood.get("/static/js/api.js")  # every endpoint counts
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    neighbour = client_at(app, "10.0.8.2")
    assert neighbour.get(f"/api/games/{game['id']}").status_code == 200  # others are not limited
    assert neighbour.get("/api/health").status_code == 200


def test_reading_any_point_of_a_long_game_replays_a_few_hundred_moves_at_most(monkeypatch):
    """A client stepping at random through a 10,000-move game (GET position?at=k) costs
    each time at most the replay from the nearest checkpoint, not the whole game."""
    from winnable.freecell import FreeCell
    from winnable.web.play.positions import CHECKPOINT, Positions

    moves = ["25", "52"] * 5000
    positions = Positions()
    positions.after("freecell", 6, moves)  # the first read replays the game once
    plays = []
    real = FreeCell.play
    monkeypatch.setattr(FreeCell, "play", lambda self, move: plays.append(1) or real(self, move))
    for at in (9_999, 1_000, 7_777, 4_097, 3):
        before = len(plays)
        position = positions.after("freecell", 6, moves[:at])
        assert len(plays) - before <= CHECKPOINT
        assert position.to_text() == FreeCell.deal(6).play_line(moves[:at]).to_text()


def test_summaries_of_hostile_ids(db_url):
    client = client_at(make_app(db_url, rate_limits=False), "10.0.9.1")
    game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
    response = client.post("/api/games/summaries", json={"ids": [game["id"], "a\x00b", "\x00", "x" * 5000, "é"]})
    assert response.status_code == 200 and [g["id"] for g in response.json()["games"]] == [game["id"]]
    assert client.post("/api/games/summaries", json={"ids": ["g"] * 101}).status_code == 422
