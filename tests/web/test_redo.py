"""Redo (issue 32), through the API: it plays again exactly what the last undo took back
(a move and the safe moves home that came with it), fails cleanly when nothing was
undone, is cleared by any other move, a restart or a take-over, gives no undo back, and
is kept in the database: a new app on the same database (a restarted server) redoes it,
on SQLite and PostgreSQL."""

from __future__ import annotations

from webapp import make_client
from winnable import Budget, solve
from winnable.freecell import FreeCell

DEAL = 1


def with_safe_moves() -> tuple[list[str], str]:
    """FreeCell deal 1's winning line up to a move after which safe moves home follow
    (none before it), and that move."""
    position = FreeCell.deal(DEAL)
    line = [str(move) for move in solve(position, Budget(seconds=10)).line]
    for index, text in enumerate(line):
        after = position.play(text)
        if not position.safe_moves_home() and after.safe_moves_home():
            return line[:index], text
        position = after
    raise AssertionError("no move of the line opens safe moves home")


def post(client, game_id, action, **body):
    return client.post(f"/api/games/{game_id}/{action}", json=body)


def started(client, undo="unlimited"):
    """A game at the move that opens safe moves home, that move played with them."""
    state = client.post("/api/games", json={"game": "freecell", "deal": DEAL, "undo": undo}).json()
    before, move = with_safe_moves()
    for text in before:
        assert post(client, state["id"], "moves", move=text).status_code == 200
    played = post(client, state["id"], "moves", move=move, auto=True).json()
    assert len(played["moves"]) > len(before) + 1  # the move and its safe moves home
    assert played["redo_left"] == 0
    return state["id"], before, played


def test_redo_restores_the_move_undone_with_its_safe_moves_home(db_url):
    with make_client(db_url) as client:
        game_id, before, played = started(client)
        undone = post(client, game_id, "undo", auto=True).json()
        assert undone["moves"] == before and undone["redo_left"] == 1
        redone = post(client, game_id, "redo")
        assert redone.status_code == 200, redone.text
        assert redone.json()["moves"] == played["moves"] and redone.json()["position"] == played["position"]
        assert redone.json()["redo_left"] == 0
        nothing = post(client, game_id, "redo")
        assert nothing.status_code == 409 and nothing.json()["code"] == "nothing_to_redo"
        assert client.get(f"/api/games/{game_id}").json()["moves"] == played["moves"]  # nothing written
        # Two undos, two redos, in order; one by one (no auto): the safe moves singly.
        post(client, game_id, "undo")
        post(client, game_id, "undo")
        assert client.get(f"/api/games/{game_id}").json()["redo_left"] == 2
        assert post(client, game_id, "redo").json()["moves"] == played["moves"][:-1]
        assert post(client, game_id, "redo").json()["moves"] == played["moves"]


def test_any_other_move_a_restart_or_a_take_over_clears_the_redo(db_url):
    with make_client(db_url) as client:
        game_id, before, played = started(client)
        state = post(client, game_id, "undo", auto=True).json()
        other = next(choice["move"] for choice in state["legal"] if choice["move"] != played["moves"][len(before)])
        assert post(client, game_id, "moves", move=other).json()["redo_left"] == 0
        assert post(client, game_id, "redo").json()["code"] == "nothing_to_redo"
        post(client, game_id, "undo")
        assert post(client, game_id, "restart").json()["redo_left"] == 0
        assert post(client, game_id, "redo").status_code == 409
        post(client, game_id, "moves", move=before[0])
        back = post(client, game_id, "undo").json()
        assert back["redo_left"] == 1
        taken = post(client, game_id, "solution/play", **{"from": 0, "moves": [back["legal"][0]["move"]]})
        assert taken.status_code == 200 and taken.json()["redo_left"] == 0


def test_a_redo_gives_no_undo_back(db_url):
    with make_client(db_url) as client:
        game_id, _, played = started(client, undo="one")
        assert post(client, game_id, "undo", auto=True).json()["undo_left"] == 0
        redone = post(client, game_id, "redo").json()
        assert redone["moves"] == played["moves"] and redone["undo_left"] == 0 and redone["undo_used"] == 1
        assert post(client, game_id, "undo").json()["code"] == "undo_refused"


def test_the_redo_survives_a_restart_of_the_server(sqlite_and_postgres_url):
    with make_client(sqlite_and_postgres_url) as client:
        game_id, before, played = started(client)
        assert post(client, game_id, "undo", auto=True).json()["moves"] == before
        client.app.state.services.engine.dispose()
    with make_client(sqlite_and_postgres_url) as again:  # a new server on the same database
        assert again.get(f"/api/games/{game_id}").json()["redo_left"] == 1
        redone = post(again, game_id, "redo")
        assert redone.status_code == 200 and redone.json()["moves"] == played["moves"]
        again.app.state.services.engine.dispose()
