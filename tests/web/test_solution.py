"""Show me (issue 32): the whole winning line from a position, through the API. From the
deal and from mid-game, for every game the web app plays, the line answered wins by the
rules and each frame is the table the page would draw; after a loss, ``at`` starts it at
the last winnable position; it marks the game assisted, is refused by the one help gate
(the Daily, a ranked challenge attempt, any game of an open challenge's cards), and
"take over" plays its start as the player's own moves, all or none."""

from __future__ import annotations

import pytest

from dailies import seeded_draws
from webapp import browser, make_app, make_client, signup
from winnable import Budget, solve
from winnable.blackhole import BlackHole
from winnable.games import game_class, game_ids
from winnable.web.play.pool import Found
from winnable.web.views import describe_move, player_view

WINNING_DEALS = {
    "black-hole": 2,
    "penguin": 1,
    "penguin-relaxed": 1,
    "penguin-6": 1,
    "penguin-5": 2,
    "penguin-3": 12,
    "penguin-pysolfc": 1,
    "freecell": 1,
    "eight-off": 1,
    "bakers-game": 1,
    "black-widow": 1,
    "spider-4": 1,
    "spider-2": 1,
    "spider-1": 1,
    "fourteen-out": 1,
}
"""A deal of each game the solver wins within a hint's budget (the Spider family's in a
fraction of a second); Penguin without flippers has none (0 of 100,000 deals)."""
NEVER_WON = {"penguin-0": 1}


def new_game(client, game, deal, **body):
    response = client.post("/api/games", json={"game": game, "deal": deal} | body)
    assert response.status_code == 201, response.text
    return response.json()


def post_moves(client, game_id, moves):
    for text in moves:
        response = client.post(f"/api/games/{game_id}/moves", json={"move": text})
        assert response.status_code == 200, response.text
    return response.json()


def shown(client, game_id, **params):
    response = client.get(f"/api/games/{game_id}/solution", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def check_wins(game, deal, moves, answer):
    """The answer's line wins by the rules from the position after ``moves``, and every
    frame is what the page draws of the position there, the move described as in ``legal``."""
    position = game_class(game).deal(deal).play_line(moves)
    assert answer["frames"][0]["position"] == player_view(position)
    assert answer["frames"][0]["move"] is None and answer["frames"][0]["describe"] is None
    assert len(answer["frames"]) == len(answer["line"]) + 1
    for text, frame in zip(answer["line"], answer["frames"][1:]):
        described = describe_move(position, position.parse_move(text))
        position = position.play(text)
        assert frame["move"] == text and frame["describe"] == described
        assert frame["position"] == player_view(position) and frame["cards_left"] == position.cards_left()
        assert frame["why"] and frame["why_code"]
        assert frame["status"] == ("won" if position.is_won() else "playing")
    assert position.is_won()


@pytest.mark.parametrize("game", game_ids())
def test_the_solution_from_the_deal_and_from_mid_game_wins_by_the_rules(db_url, game):
    assert set(WINNING_DEALS) | set(NEVER_WON) == set(game_ids())
    with make_client(db_url) as client:
        if game in NEVER_WON:
            state = new_game(client, game, NEVER_WON[game])
            refused = client.get(f"/api/games/{state['id']}/solution")
            assert refused.status_code == 409 and refused.json()["code"] == "not_winnable"
            assert client.get(f"/api/games/{state['id']}").json()["assisted"] is False
            return
        deal = WINNING_DEALS[game]
        state = new_game(client, game, deal)
        first = shown(client, state["id"])
        assert first["game_id"] == state["id"] and first["from"] == 0 and first["assisted"] is True
        assert first["source"] == "searched"
        check_wins(game, deal, [], first)
        # Mid-game on the line: the kept line, no search.
        played = first["line"][: len(first["line"]) // 3]
        post_moves(client, state["id"], played)
        searches = client.app.state.services.solver.searches
        middle = shown(client, state["id"])
        assert middle["from"] == len(played) and middle["source"] == "kept"
        assert middle["line"] == first["line"][len(played) :]
        assert client.app.state.services.solver.searches == searches
        check_wins(game, deal, played, middle)
        # Mid-game off the line (another game of the deal, a move the line does not
        # play first): a search from there, or no line when that move lost the game.
        other = new_game(client, game, deal)
        moves = client.get(f"/api/games/{other['id']}").json()["legal"]
        aside = next(choice["move"] for choice in moves if choice["move"] != first["line"][0])
        post_moves(client, other["id"], [aside])
        answer = client.get(f"/api/games/{other['id']}/solution")
        if answer.status_code == 409:
            assert answer.json()["code"] == "not_winnable"
        else:
            assert answer.status_code == 200 and answer.json()["source"] == "searched"
            check_wins(game, deal, [aside], answer.json())


def lose(client, game_id):
    """Play the first legal move until none is left (Black Hole deal 2 is lost so)."""
    state = client.get(f"/api/games/{game_id}").json()
    while state["status"] == "playing":
        state = post_moves(client, game_id, [state["legal"][0]["move"]])
    assert state["status"] == "lost"
    return state


def test_after_a_loss_the_line_starts_where_the_game_was_last_winnable(db_url):
    with make_client(db_url) as client:
        state = new_game(client, "black-hole", 2)
        lost = lose(client, state["id"])
        assert client.get(f"/api/games/{state['id']}/solution").json()["code"] == "not_winnable"
        report = client.get(f"/api/games/{state['id']}/analysis").json()
        at = report["lost_at"]
        assert at is not None and 0 <= at < lost["move_count"]
        answer = shown(client, state["id"], at=at)
        assert answer["from"] == at and answer["line"][0] == report["better_move"]
        check_wins("black-hole", 2, lost["moves"][:at], answer)
        position = client.get(f"/api/games/{state['id']}/position", params={"at": at}).json()["position"]
        assert answer["frames"][0]["position"] == position
        assert client.get(f"/api/games/{state['id']}").json()["assisted"] is True
        past = client.get(f"/api/games/{state['id']}/solution", params={"at": lost["move_count"] + 1})
        assert past.status_code == 404 and past.json()["code"] == "bad_position"  # as /position answers it
        assert client.get(f"/api/games/{state['id']}/solution", params={"at": -1}).status_code == 422
        assert client.get(f"/api/games/{state['id']}/solution", params={"at": "x"}).status_code == 422


def test_a_solution_marks_the_game_assisted_and_counts_as_a_hint(db_url):
    with make_client(db_url) as client:
        state = new_game(client, "freecell", 1)
        assert (state["hints_used"], state["assisted"]) == (0, False)
        line = shown(client, state["id"])["line"]
        after = client.get(f"/api/games/{state['id']}").json()
        assert (after["hints_used"], after["assisted"]) == (1, True)
        # The line found became the game's hints' line: the next hint is its first move, no search.
        searches = client.app.state.services.solver.searches
        hint = client.get(f"/api/games/{state['id']}/hint").json()
        assert hint["move"] == line[0] and hint["answered"] == "known"
        assert client.app.state.services.solver.searches == searches
        won = post_moves(client, state["id"], line)
        assert won["status"] == "won" and won["assisted"] is True


def test_a_solution_counts_against_the_hint_rate_limit(tmp_path):
    with make_client(f"sqlite:///{tmp_path / 'games.db'}", rate_limits=True, limit_hint="2/minute") as client:
        state = new_game(client, "black-hole", 2)
        assert client.get(f"/api/games/{state['id']}/solution").status_code == 200
        assert client.get(f"/api/games/{state['id']}/hint").status_code == 200
        refused = client.get(f"/api/games/{state['id']}/solution")
        assert refused.status_code == 429


# -- take over ----------------------------------------------------------------------------
def test_take_over_plays_a_prefix_of_the_line_all_or_none(db_url):
    with make_client(db_url) as client:
        state = new_game(client, "black-hole", 2)
        answer = shown(client, state["id"])
        line = answer["line"]
        taken = client.post(f"/api/games/{state['id']}/solution/play", json={"from": 0, "moves": line[:5]})
        assert taken.status_code == 200, taken.text
        assert taken.json()["moves"] == line[:5] and taken.json()["status"] == "playing"
        # Stale: the game is no longer where the line was shown from.
        stale = client.post(f"/api/games/{state['id']}/solution/play", json={"from": 0, "moves": line[:5]})
        assert stale.status_code == 409 and stale.json()["code"] == "stale"
        # One illegal move (the same card twice): nothing is played.
        illegal = client.post(f"/api/games/{state['id']}/solution/play", json={"from": 5, "moves": [line[5], line[5]]})
        assert illegal.status_code == 409 and illegal.json()["code"] == "illegal_move"
        for bad in ({"from": 5, "moves": []}, {"from": -1, "moves": [line[5]]}, {"from": 5}, {"moves": [line[5]]}):
            assert client.post(f"/api/games/{state['id']}/solution/play", json=bad).status_code == 422, bad
        unchanged = client.get(f"/api/games/{state['id']}").json()
        assert unchanged["moves"] == line[:5]
        rest = client.post(f"/api/games/{state['id']}/solution/play", json={"from": 5, "moves": line[5:]})
        assert rest.status_code == 200 and rest.json()["status"] == "won"


# -- the one help gate ----------------------------------------------------------------------
DEAL = 3  # a Black Hole deal the solver wins


@pytest.fixture
def app(db_url):
    app = seeded_draws(make_app(db_url))
    line = [str(move) for move in solve(BlackHole.deal(DEAL), Budget(seconds=10)).line]
    app.state.services.pool.add(Found("black-hole", DEAL, tuple(line)))  # Black Hole has Dailies
    yield app
    app.state.services.engine.dispose()


def refused(client, game_id, code):
    """Neither the line nor a take-over, with the gate's code; nothing counted."""
    before = client.get(f"/api/games/{game_id}").json()
    answer = client.get(f"/api/games/{game_id}/solution")
    assert answer.status_code == 403 and answer.json()["code"] == code
    move = before["legal"][0]["move"]
    taken = client.post(f"/api/games/{game_id}/solution/play", json={"from": before["move_count"], "moves": [move]})
    assert taken.status_code == 403 and taken.json()["code"] == code
    after = client.get(f"/api/games/{game_id}").json()
    assert (after["hints_used"], after["moves"]) == (before["hints_used"], before["moves"])


def test_no_solution_in_the_daily(app, now):
    with browser(app) as client:
        signup(client)
        attempt = client.get("/api/daily/black-hole").json()
        refused(client, attempt["id"], "daily_no_help")


def test_no_solution_on_the_cards_of_an_open_challenge(app, now):
    with browser(app) as ada, browser(app) as bob, browser(app) as guest:
        signup(ada, "ada")
        signup(bob, "bob")
        source = new_game(ada, "black-hole", DEAL)
        token = ada.post("/api/challenges", json={"game_id": source["id"]}).json()["id"]
        ranked = bob.post(f"/api/challenges/{token}/play", json={}).json()
        copy = guest.post(f"/api/challenges/{token}/play", json={}).json()
        refused(bob, ranked["id"], "challenge_no_help")
        refused(guest, copy["id"], "challenge_open")
        refused(ada, source["id"], "challenge_open")


def test_the_typed_solution_has_the_models_fields_by_their_json_names():
    from winnable.web.models import schemas
    from winnable.web.play import solution

    names = {field.alias or name for name, field in schemas.Solution.model_fields.items()}
    assert set(solution.Solution.__required_keys__) == names and "from" in names
    assert set(solution.Frame.__required_keys__) == set(schemas.SolutionFrame.model_fields)
