"""Fourteen Out through the web API: a game created, pairs taken out (in cards or pile
numbers), a refused pair and its reason, the hint, "still winnable?" and "where did I
lose?", Winnable mode, the Daily, the statistics, the catalogue and the rules pages."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webapp import browser, make_app
from winnable import Budget, solve
from winnable.fourteen import FourteenOut
from winnable.web.play.pool import Found
from winnable.web.players.daily import draw_layout

GAME = "fourteen-out"
WON_DEAL = 1  # the solver wins it; always taking the last listed pair loses it after 14 moves
LOST_QUICKLY = 2  # won by the solver, lost in 3 moves by always taking the last listed pair
NO_WIN = 3  # no order of pairs clears it
BUDGET = Budget(seconds=10)


@pytest.fixture
def app(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}")
    yield app
    app.state.services.engine.dispose()


@pytest.fixture
def client(app):
    with browser(app) as client:
        yield client


def create(client, deal=WON_DEAL, **extra) -> dict:
    response = client.post("/api/games", json={"game": GAME, "deal": deal, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def play(client, game_id, move):
    return client.post(f"/api/games/{game_id}/moves", json={"move": move})


def solver_line(position) -> list[str]:
    verdict = solve(position, BUDGET)
    assert verdict.won
    return [str(move) for move in verdict.line]


def losing_line(deal: int) -> list[str]:
    """Always take the last listed pair, to the end."""
    position, line = FourteenOut.deal(deal), []
    while position.legal_moves():
        move = position.legal_moves()[-1]
        line.append(str(move))
        position = position.apply(move)
    assert position.is_lost()
    return line


# -- the game ------------------------------------------------------------------------------
def test_a_new_game_shows_the_twelve_piles_and_every_pair_from_both_its_piles(client):
    state = create(client)
    deal = FourteenOut.deal(WON_DEAL)
    assert state["game"] == GAME and state["family"] == "fourteen" and state["status"] == "playing"
    assert state["position"]["piles"] == [[str(card) for card in pile] for pile in deal.piles]
    assert state["position"]["removed"] == [] and state["position"]["cards_left"] == 52
    assert {entry["move"] for entry in state["legal"]} == {str(move) for move in deal.legal_moves()}
    for entry in state["legal"]:
        # The browser offers a pair from either card: both piles are named, the move is the pair.
        first, second = entry["move"].split("+")
        i, j = int(entry["from"].split(":")[1]), int(entry["to"].split(":")[1])
        assert {str(deal.piles[i][-1]), str(deal.piles[j][-1])} == {first, second} and i != j
        assert entry["count"] == 1
    assert state["score"]["partial"] == 0 and state["score"]["out_of"] == 52
    assert state["undo"] == "unlimited" and state["links"]["rules"] == f"/rules/{GAME}"


def test_pairs_taken_out_by_cards_or_by_pile_numbers_score_the_cards_out(client):
    game = create(client)
    deal = FourteenOut.deal(WON_DEAL)
    first = deal.legal_moves()[0]
    after = play(client, game["id"], f"{first.second}+{first.first}")  # the lower card first: read too
    assert after.status_code == 200, after.text
    state = after.json()
    assert state["moves"] == [str(first)] and state["position"]["removed"] == [str(card) for card in first.cards]
    assert state["position"]["cards_left"] == 50 and state["score"]["partial"] == 2
    # Two pile numbers, 1 to 12, name the pair of their top cards.
    position = deal.play(first)
    move = position.legal_moves()[0]
    i, j = (position.pile_of(card) + 1 for card in move.cards)
    state = play(client, game["id"], f"{i}+{j}").json()
    assert state["moves"] == [str(first), str(move)] and state["score"]["partial"] == 4


def test_a_won_game_by_the_solvers_line(client):
    game = create(client)
    line = solver_line(FourteenOut.deal(WON_DEAL))
    assert len(line) == 26
    for move in line:
        state = play(client, game["id"], move).json()
    assert state["status"] == "won" and state["position"]["cards_left"] == 0 and state["legal"] == []
    assert state["score"]["won"] is True and state["score"]["partial"] == 52
    refused = play(client, game["id"], line[0])
    assert refused.status_code == 409 and refused.json()["code"] == "game_over"


def test_a_refused_pair_says_the_rules_reason_and_changes_nothing(client):
    game = create(client)
    deal = FourteenOut.deal(WON_DEAL)
    tops = [pile[-1] for pile in deal.piles]
    a, b = next((a, b) for a in tops for b in tops if a != b and a.rank + b.rank != 14)
    refused = play(client, game["id"], f"{a}+{b}")
    assert refused.status_code == 409 and refused.json()["code"] == "illegal_move"
    assert f"add up to {a.rank + b.rank}, not 14" in refused.json()["detail"]
    # A card under another is not available, whatever it pairs with.
    buried = deal.piles[0][0]
    partner = next(card for pile in deal.piles for card in pile if card.rank + buried.rank == 14)
    refused = play(client, game["id"], f"{buried}+{partner}")
    assert refused.status_code == 409 and f"{buried} is not available" in refused.json()["detail"]
    # In French: the code's sentence (the rules write English).
    french = client.post(f"/api/games/{game['id']}/moves", json={"move": f"{a}+{b}"}, headers={"Accept-Language": "fr"})
    assert french.status_code == 409 and french.json()["detail"] == "Les règles n'autorisent pas ce coup ici."
    # Not a move at all, a pile that does not exist: 4xx with a reason, never a 500.
    for text, code in (("KH", "bad_move"), ("1+13", "bad_move"), ("KH+KH", "illegal_move"), ("", None)):
        response = play(client, game["id"], text)
        assert 400 <= response.status_code < 500, (text, response.text)
        if code:
            assert response.json()["code"] == code, (text, response.json())
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


def test_undo_and_restart(client):
    game = create(client, undo="one")
    line = solver_line(FourteenOut.deal(WON_DEAL))
    play(client, game["id"], line[0])
    play(client, game["id"], line[1])
    state = client.post(f"/api/games/{game['id']}/undo", json={}).json()
    assert state["moves"] == line[:1] and state["position"]["cards_left"] == 50 and state["undo_left"] == 0
    refused = client.post(f"/api/games/{game['id']}/undo", json={})
    assert refused.status_code == 409 and refused.json()["code"] == "undo_refused"
    state = client.post(f"/api/games/{game['id']}/restart", json={}).json()
    assert state["moves"] == [] and state["position"]["cards_left"] == 52


# -- the solver: hint, still winnable?, where did I lose? ---------------------------------
def test_the_hint_is_a_pair_that_keeps_a_win(client):
    game = create(client)
    hint = client.get(f"/api/games/{game['id']}/hint").json()
    assert hint["verdict"] == "won" and hint["line_length"] == 26
    after = FourteenOut.deal(WON_DEAL).play(hint["move"])
    assert solve(after, BUDGET).won
    assert hint["describe"]["move"] == hint["move"] and hint["describe"]["from"].startswith("pile:")
    state = play(client, game["id"], hint["move"]).json()
    assert state["hints_used"] == 1 and state["assisted"] is True
    # On a deal no order clears, the hint says so.
    lost = create(client, NO_WIN)
    answer = client.get(f"/api/games/{lost['id']}/hint").json()
    assert answer["move"] is None and answer["verdict"] == "lost"


def test_still_winnable_and_where_did_i_lose(client):
    game = create(client, LOSING := LOST_QUICKLY)
    assert client.get(f"/api/games/{game['id']}/analysis").json()["verdict"] == "won"
    line = losing_line(LOSING)
    for move in line:
        state = play(client, game["id"], move).json()
    assert state["status"] == "lost" and state["legal"] == []
    analysis = client.get(f"/api/games/{game['id']}/analysis").json()
    assert analysis["winnable"] is True and analysis["verdict"] == "lost"
    k = analysis["lost_at"]
    assert k is not None and analysis["losing_move"] == line[k]
    before = FourteenOut.deal(LOSING).play_line(line[:k])
    assert solve(before, BUDGET).won and solve(before.play(line[k]), BUDGET).lost
    assert solve(before.play(analysis["better_move"]), BUDGET).won
    # The review steps back to the position before the losing move, with its pairs.
    at = client.get(f"/api/games/{game['id']}/position?at={k}").json()
    assert at["position"]["cards_left"] == before.cards_left()
    assert {entry["move"] for entry in at["legal"]} == {str(move) for move in before.legal_moves()}


def test_a_deal_no_order_clears_is_lost_from_the_start(client):
    game = create(client, NO_WIN)
    analysis = client.get(f"/api/games/{game['id']}/analysis").json()
    assert analysis["verdict"] == "lost" and analysis["winnable"] is False


# -- Winnable mode, the Daily, the statistics ---------------------------------------------------
def test_winnable_mode_deals_a_proved_deal_from_the_pool(app, client):
    refused = client.post("/api/games", json={"game": GAME, "winnable": True})
    assert refused.status_code == 409 and refused.json()["code"] == "no_winnable_deal"
    line = solver_line(FourteenOut.deal(7))
    app.state.services.pool.add(Found(GAME, 7, tuple(line)))
    response = client.post("/api/games", json={"game": GAME, "winnable": True})
    assert response.status_code == 201, response.text
    state = response.json()
    assert state["deal"] == 7 and state["winnable_deal"] is True and response.headers["X-Winnable-Source"] == "pool"
    # The pool's line is the hint's, with no search.
    assert client.get(f"/api/games/{state['id']}/hint").json()["move"] == line[0]


def test_the_daily_lays_a_proved_deck_out_and_ranks_by_time(app, now):
    app.state.services.pool.add(Found(GAME, 7, ()))  # a proved deal: Fourteen Out has a Daily
    decks = {}

    def draw(game):
        decks[game] = draw_layout(FourteenOut, random.Random(f"22:{game}"))
        return decks[game]

    app.state.services.daily.draw = draw
    with browser(app) as ada, browser(app) as bob:
        assert ada.get(f"/api/daily/{GAME}").json()["code"] == "sign_in_required"
        for client, name in ((ada, "ada"), (bob, "bob")):
            assert client.post("/api/auth/signup", json={"name": name, "password": "correct horse battery"}).status_code == 201
        overview = {game["game"]: game for game in ada.get("/api/daily").json()["games"]}
        assert overview[GAME]["available"] is True
        attempt = ada.get(f"/api/daily/{GAME}").json()
        laid = FourteenOut.from_deck(decks[GAME])
        assert attempt["deal"] is None and attempt["daily"] is not None and attempt["hint_allowed"] is False
        assert attempt["position"]["piles"] == [[str(card) for card in pile] for pile in laid.piles]
        assert ada.get(f"/api/games/{attempt['id']}/hint").json()["code"] == "daily_no_help"
        line = solver_line(laid)
        for move in line:
            now.at += dt.timedelta(seconds=2)
            state = play(ada, attempt["id"], move).json()
        assert state["status"] == "won"
        other = bob.get(f"/api/daily/{GAME}").json()
        assert other["position"] == attempt["position"]  # one deal for everyone
        play(bob, other["id"], line[0])
        board = ada.get(f"/api/daily/{GAME}/leaderboard").json()
    assert [(entry["player"], entry["status"], entry["rank"]) for entry in board["entries"]] == [("ada", "won", 1), ("bob", "playing", 2)]
    # A Daily's clock runs from the attempt's start: 26 moves, 2 s apart.
    assert board["entries"][0]["seconds"] == 52.0 and board["entries"][1]["cards_left"] == 50


def test_statistics_keep_the_best_time_per_undo_rule_and_the_cards_taken_out(client, now):
    assert client.post("/api/auth/signup", json={"name": "ada", "password": "correct horse battery"}).status_code == 201

    def win(deal, undo, seconds):
        game = create(client, deal, undo=undo)
        for move in solver_line(FourteenOut.deal(deal)):
            now.at += dt.timedelta(seconds=seconds)
            state = play(client, game["id"], move).json()
        assert state["status"] == "won"

    win(WON_DEAL, "none", 2)
    win(7, "unlimited", 1)
    lost = create(client, LOST_QUICKLY)
    for move in losing_line(LOST_QUICKLY):
        state = play(client, lost["id"], move).json()
    assert state["status"] == "lost" and state["position"]["cards_left"] == 46
    stats = {entry["game"]: entry for entry in client.get("/api/stats").json()["games"]}[GAME]
    assert (stats["played"], stats["won"], stats["lost"]) == (3, 2, 1)
    # The clock of a game starts with its first move: 25 steps of the server's clock.
    assert stats["best_seconds_by_undo"] == {"none": 50.0, "unlimited": 25.0}
    assert stats["best_seconds"] == 25.0 and stats["fewest_moves"] == 26
    assert stats["removed_best"] == 52 and stats["removed_average"] == pytest.approx((52 + 52 + 6) / 3, abs=0.05)
    assert stats["partial_average"] is None and stats["speed_best"] is None  # Penguin's scores are not its


# -- the catalogue and the pages -------------------------------------------------------------
def test_the_catalogue_and_the_pages_offer_it(client):
    catalog = {entry["id"]: entry for entry in client.get("/api/catalog").json()}
    entry = catalog[GAME]
    assert entry["family"] == "fourteen" and entry["title"] == "Fourteen Out"
    assert entry["undo_modes"] == ["unlimited", "one", "none"] and entry["hidden_cards"] is False
    assert list(catalog)[-1] == GAME  # the registry's order
    assert client.get(f"/play/{GAME}").status_code == 200
    for lang, title, words in (
        ("en", "Fourteen Out", "twelve piles"),
        ("fr", "Quatorze", "douze piles"),
        ("nl", "Veertien", "twaalf stapels"),
    ):
        page = client.get(f"/rules/{GAME}?lang={lang}")
        assert page.status_code == 200 and f'<h1 id="fourteen-out">{title}</h1>' in page.text
        assert words in page.text
    lobby = client.get("/?lang=fr").text
    assert "Toutes les cartes face visible" in lobby  # the family's sentence, translated


# -- hostile moves ----------------------------------------------------------------------------
PILE_WORDS = st.sampled_from(
    ["0", "1", "5", "12", "13", "p3", "-1", "99999999999999999999", "KH", "AC", "7S", "7C", "Z9", "+", " ", "\x00"]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.lists(PILE_WORDS, max_size=4).map("+".join), st.lists(PILE_WORDS, max_size=3).map(" ".join), st.text(max_size=20)))
def test_no_move_text_is_a_server_error(client, text):
    game = create(client, LOST_QUICKLY)
    play(client, game["id"], losing_line(LOST_QUICKLY)[0])  # two piles lower, none empty yet
    response = play(client, game["id"], text)
    assert response.status_code in (200, 400, 409, 422), (text, response.text)
    if response.status_code != 200:
        assert response.json()["code"] and response.json()["detail"]


def test_an_empty_pile_named_by_its_number_is_refused_with_its_reason(client):
    position = FourteenOut.deal(WON_DEAL)
    game = create(client)
    for move in solver_line(position):  # up to the first pile emptied
        assert play(client, game["id"], move).status_code == 200
        position = position.play(move)
        if not all(position.piles):
            break
    empty = next(i for i, pile in enumerate(position.piles) if not pile) + 1
    other = next(i for i, pile in enumerate(position.piles) if pile) + 1
    refused = play(client, game["id"], f"{empty}+{other}")
    assert refused.status_code == 409 and refused.json()["code"] == "illegal_move"
    assert f"pile {empty} is empty" in refused.json()["detail"]
