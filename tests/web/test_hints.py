"""Hints that lead home (issue 18): following the hints wins, no position comes twice,
and the moves to win they announce never grow, in the library (winnable.Guide) and
through the web API, across workers and restarts; a hint from the kept line costs no
search and no solver quota (issue 21, item 8).

The held-out test plays 40 deals (from 50001) of one game per family by default (Black
Hole, Penguin, Black Widow: about 90 s of CPU); ``WINNABLE_HINT_GAMES=all`` (or a
comma-separated list of game ids) plays every game (about 10 minutes more).
"""

from __future__ import annotations

import os

import httpx
import pytest
from fastapi.testclient import TestClient

import winnable
from webapp import SITE, make_client
from winnable import Budget

# httpx's ASGI transport tries to import sniffio (not installed) on every request to
# see whether trio runs: a quarter of these tests' CPU. Only asyncio runs here.
httpx._transports.asgi.is_running_trio = lambda: False

LOOPING = [("penguin", 655106), ("penguin", 778607)]
"""Deals where asking the solver afresh after each hinted move went round in circles."""


# -- the library ---------------------------------------------------------------------------
def follow_guide(position, guide, limit=1000):
    """Play the guide's hints to the end: (won, announced moves to win, repeated positions)."""
    seen, counts, repeated = {position.to_text()}, [], 0
    for _ in range(limit):
        if position.is_won():
            break
        hint = guide.hint(position)
        assert hint.won, hint
        counts.append(len(hint.line))
        position = position.play(hint.move)
        repeated += position.to_text() in seen
        seen.add(position.to_text())
    return position.is_won(), counts, repeated


@pytest.mark.parametrize("game, deal", LOOPING)
def test_guide_wins_the_deals_that_looped(game, deal):
    won, counts, repeated = follow_guide(winnable.deal(game, deal), winnable.Guide(Budget(seconds=2)))
    assert won and repeated == 0
    assert counts == list(range(counts[0], 0, -1))  # one move fewer each time


def test_guide_searches_again_only_off_its_line():
    guide = winnable.Guide(Budget(seconds=2))
    position = winnable.deal("penguin", 655106)
    first = guide.hint(position)
    assert first.searched and guide.searches == 1
    after = position.play(first.move)
    assert guide.hint(after).line == first.line[1:] and guide.searches == 1
    other = next(move for move in after.legal_moves() if str(move) != first.line[1])
    off = after.play(other)
    hint = guide.hint(off, previous=after)
    assert hint.searched and guide.searches == 2 and hint.won
    assert off.play_line(hint.line).is_won()


def test_a_new_line_does_not_just_take_the_players_move_back():
    """Where today's solver answers with the move back (Penguin 655106: ``f1`` after
    ``1f``, 95 moves), the guide keeps the player's move and wins in fewer."""
    position, previous = winnable.deal("penguin", 655106), None
    for _ in range(40):  # the position where a fresh search says: take it back
        line = winnable.solve(position, Budget(seconds=2)).line
        after = position.play(line[0])
        if previous is not None and after.to_text() == previous.to_text():
            break
        previous, position = position, after
    else:
        pytest.skip("the solver no longer answers with the move back here")
    hint = winnable.Guide(Budget(seconds=2)).hint(position, previous=previous)
    assert position.play(hint.move).to_text() != previous.to_text()
    assert len(hint.line) < len(line) and position.play_line(hint.line).is_won()


def test_guide_continues_after_cards_went_home_by_themselves():
    """The web page's safe moves home play cards the line would play later: the guide
    picks its line up from the position they reach, without a search."""
    guide = winnable.Guide(Budget(seconds=2))
    for deal in range(30001, 30041):
        position = winnable.deal("freecell", deal)
        guide = winnable.Guide(Budget(seconds=2))
        for _ in range(300):
            if position.is_won():
                break
            hint = guide.hint(position)
            assert hint.won
            position = position.play(hint.move)
            while position.safe_moves_home() and not position.is_won():
                position = position.play(position.safe_moves_home()[0])
        assert position.is_won()
        assert guide.searches == 1, deal


# -- the web API ----------------------------------------------------------------------------
class Player:
    """Follows the hints of one game through the API, as the page does (safe moves home
    played with each move in the free-cell games), checking what the issue asks. The
    requests go to the app of a started TestClient from inside its event loop (an
    ``httpx.AsyncClient`` on the ASGI app): a third of the CPU of TestClient's calls."""

    def __init__(self, client: TestClient, game: str, deal: int):
        response = client.post("/api/games", json={"game": game, "deal": deal})
        assert response.status_code == 201, response.text
        self.client, self.state = client, response.json()
        self.auto = self.state["family"] == "freecell"
        self.seen = {self.position()}
        self.counts: list[int] = []
        self.repeated = 0
        self.searches = 0

    def position(self):
        return self.client.app.state.services.games.positions.after(self.state["game"], self.state["deal"], self.state["moves"]).to_text()

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.ASGITransport(app=self.client.app), base_url=SITE, headers={"Origin": SITE})

    async def _step(self, http: httpx.AsyncClient) -> dict:
        game_id = self.state["id"]
        hint = await http.get(f"/api/games/{game_id}/hint")
        assert hint.status_code == 200, hint.text
        hint = hint.json()
        if hint["move"] is None:
            return hint
        self.counts.append(hint["line_length"])
        self.searches += not hint["cached"]
        response = await http.post(f"/api/games/{game_id}/moves", json={"move": hint["move"], "auto": self.auto})
        assert response.status_code == 200, response.text
        self.state = response.json()
        here = self.position()
        self.repeated += here in self.seen
        self.seen.add(here)
        return hint

    async def _follow(self, limit: int) -> dict | None:
        hint = None
        async with self.http() as http:
            for _ in range(limit):
                if self.state["status"] != "playing":
                    break
                hint = await self._step(http)
                if hint["move"] is None:
                    break
        return hint

    def step(self) -> dict:
        async def one():
            async with self.http() as http:
                return await self._step(http)

        return self.client.portal.call(one)

    def ask(self) -> httpx.Response:
        """One hint, whatever the answer (from the same client address as the steps)."""

        async def one():
            async with self.http() as http:
                return await http.get(f"/api/games/{self.state['id']}/hint")

        return self.client.portal.call(one)

    def follow(self, limit: int = 2000) -> dict | None:
        return self.client.portal.call(self._follow, limit)

    def check(self):
        assert self.state["status"] == "won", (self.state["game"], self.state["deal"], self.state["status"])
        assert self.repeated == 0
        assert all(b < a for a, b in zip(self.counts, self.counts[1:])), self.counts


@pytest.mark.parametrize("game, deal", LOOPING)
def test_following_hints_through_the_api_wins_the_deals_that_looped(db_url, game, deal):
    with make_client(db_url) as client:
        player = Player(client, game, deal)
        player.follow()
        player.check()
        assert player.searches <= 1


def test_the_line_is_shared_by_workers_and_survives_a_restart(db_url):
    """Two apps on one database answer in turn, as two workers would; then a third,
    started after the others stopped, continues the same line without a search."""
    with make_client(db_url) as first, make_client(db_url) as second:
        player = Player(first, "penguin", 655106)
        for turn in range(30):
            player.client = (first, second)[turn % 2]
            player.step()
        assert player.repeated == 0 and player.searches == 1
        half = player.counts[-1] - 1
        game_id = player.state["id"]
    with make_client(db_url) as restarted:
        hint = restarted.get(f"/api/games/{game_id}/hint").json()
        assert hint["cached"] is True and hint["line_length"] <= half
        assert restarted.app.state.services.solver.searches == 0
        player.client = restarted
        player.follow()
        player.check()
        assert restarted.app.state.services.solver.searches == 0


def test_a_hint_from_the_kept_line_costs_no_solver_quota(db_url):
    with make_client(db_url, rate_limits=True, limit_solver="3/minute") as client:
        player = Player(client, "penguin", 655106)
        for _ in range(20):  # 20 hints, one search
            player.step()
        assert player.searches == 1
        # a search still counts: two more deals' first hints, then the limit
        for deal in (30001, 30002):
            assert Player(client, "penguin", deal).step()["cached"] is False
        refused = Player(client, "penguin", 30003).ask()
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        player.step()  # the first game's line still answers
        assert player.counts[-1] < player.counts[-2]


def test_analysis_uses_the_kept_line(db_url):
    with make_client(db_url) as client:
        player = Player(client, "penguin", 778607)
        for _ in range(15):
            player.step()
        searches = client.app.state.services.solver.searches
        report = client.get(f"/api/games/{player.state['id']}/analysis").json()
        assert report["verdict"] == "won" and report["checked"][0]["cached"] is True
        assert client.app.state.services.solver.searches == searches


# -- held-out deals, every family ---------------------------------------------------------------
DEFAULT_GAMES = ("black-hole", "penguin", "black-widow")
HELD_OUT = 50001
WINS = 40


def games_to_play() -> list[str]:
    chosen = os.environ.get("WINNABLE_HINT_GAMES", "")
    if chosen == "all":
        return list(winnable.game_ids())
    return [name for name in chosen.split(",") if name] or list(DEFAULT_GAMES)


RARELY_WON = ("penguin-3", "penguin-0")
"""Games whose deals the solver rarely wins within a hint's budget (few or no free cells):
every deal it wins must be won by following the hints, but 40 of them are not asked."""


@pytest.mark.slow
@pytest.mark.parametrize("game", games_to_play())
def test_following_hints_wins_held_out_deals(tmp_path, game):
    """From the deal, following the hints through the API wins at least 40 held-out
    deals; deals whose first hint is not a win (a loss, or undecided within the budget)
    are skipped, at most a deal in two (any number in :data:`RARELY_WON`)."""
    with make_client(f"sqlite:///{tmp_path / 'games.db'}") as client:
        won = skipped = 0
        deal = HELD_OUT
        while won < WINS and deal < HELD_OUT + 4 * WINS:
            player = Player(client, game, deal)
            last = player.follow()
            if not player.state["moves"] and (player.state["status"] == "lost" or (last and last["move"] is None)):
                skipped += 1
            else:
                player.check()
                won += 1
            deal += 1
        assert won == WINS or game in RARELY_WON
        assert skipped <= WINS or game in RARELY_WON
