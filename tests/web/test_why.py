"""Hints that say why (issue 32): what a move does on the table, read from the rules (the
position before and after it), in the request's language; on every hint with a move and
every move of a shown line."""

from __future__ import annotations

import pytest

from webapp import make_client
from winnable import Budget, solve
from winnable.games import game_class
from winnable.web.play.why import why, worded
from winnable.web.views import effect

LINES = {"freecell": 1, "penguin": 1, "eight-off": 1, "black-widow": 1, "spider-1": 1, "black-hole": 2, "fourteen-out": 1}


def columns(position):
    return getattr(position, "columns", ())


@pytest.mark.parametrize("game", sorted(LINES))
def test_each_move_of_a_winning_line_says_what_the_rules_show_it_does(game):
    position = game_class(game).deal(LINES[game])
    seen = set()
    for move in solve(position, Budget(seconds=10)).line:
        said = why(position, str(move))
        assert said is not None, (game, str(move))
        phrase, code = said
        found = effect(position, move)
        after = position.play(move)
        seen.add(code)
        if code in ("to_foundation", "starts_foundation", "completes_suit", "to_hole", "removes_pair"):
            assert after.cards_left() < position.cards_left(), (code, str(move))
        if code == "empties_column":
            assert len(columns(after)[found["column"] - 1]) == 0 and f"column {found['column']}" in phrase
        if code == "turns_over":  # a face-down card turned, never named
            assert columns(after)[found["column"] - 1].down != columns(position)[found["column"] - 1].down
            assert "card" not in found
        if code == "uncovers" and game != "black-hole":
            # the card now on top of the column moved from, or gone home by itself (Penguin's beak)
            column = columns(after)[int(str(move)[0]) - 1]
            assert (column and str(column[-1]) == found["card"]) or found["card"] in map(str, after.foundation_cards())
        if code == "frees_cell":
            assert after.free_cells() == position.free_cells() + 1
        if code == "completes_suit" and game in ("black-widow", "spider-1"):
            assert len(after.foundations) == len(position.foundations) + 1
        position = after
    assert position.is_won()
    assert seen, game


def test_the_phrases_in_english_french_and_dutch():
    cases = [
        ({"code": "uncovers", "card": "7C"}, "uncovers the 7♣", "découvre le 7♣", "legt de 7♣ bloot"),
        ({"code": "empties_column", "card": "9H", "column": 3}, "empties column 3", "vide la colonne 3", "maakt kolom 3 leeg"),
        ({"code": "frees_cell", "card": "9H", "cell": "flipper"}, "frees a flipper", "libère une nageoire", "maakt een vin vrij"),
        (
            {"code": "to_foundation", "card": "9H", "follow": 3},
            "sends the 9♥ home; 3 more cards follow",
            "monte le 9♥ sur sa fondation ; 3 autres cartes suivent",
            "legt de 9♥ op de basisstapel; nog 3 kaarten volgen",
        ),
        (
            {"code": "starts_foundation", "card": "AS", "suit": "S", "follow": 0},
            "starts the ♠ foundation",
            "commence la fondation ♠",
            "begint de ♠-basisstapel",
        ),
        ({"code": "builds", "card": "QH", "onto": "KS"}, "puts the Q♥ on the K♠", "pose la D♥ sur le R♠", "legt de V♥ op de H♠"),
        ({"code": "uncovers", "card": "AD"}, "uncovers the A♦", "découvre l'A♦", "legt de A♦ bloot"),
        (
            {"code": "completes_suit", "suit": "H"},
            "completes a ♥ run, which leaves the table",
            "complète une suite de ♥, qui quitte la table",
            "maakt een ♥-reeks af, die van tafel gaat",
        ),
        ({"code": "to_hole", "card": "JC"}, "plays the J♣ into the hole", "joue le V♣ dans le trou", "speelt de B♣ in het gat"),
    ]
    for found, english, french, dutch in cases:
        phrase = worded(found, None)
        assert phrase is not None
        assert (str(phrase), phrase.translate("fr"), phrase.translate("nl")) == (english, french, dutch)


def test_hints_and_shown_lines_say_why_in_the_requests_language(db_url):
    with make_client(db_url) as client:
        state = client.post("/api/games", json={"game": "penguin", "deal": 1}).json()
        position = game_class("penguin").deal(1)
        hints = {lang: client.get(f"/api/games/{state['id']}/hint", params={"lang": lang}).json() for lang in ("en", "fr", "nl")}
        phrase, code = why(position, hints["en"]["move"])
        for lang, hint in hints.items():
            assert hint["why_code"] == code
            assert hint["why"] == phrase.translate(lang)
        assert len({hint["why"] for hint in hints.values()}) == 3
        french = client.get(f"/api/games/{state['id']}/solution", headers={"Accept-Language": "fr"}).json()
        for text, frame in zip(french["line"], french["frames"][1:]):
            phrase, code = why(position, text)
            assert (frame["why"], frame["why_code"]) == (phrase.translate("fr"), code)
            position = position.play(text)
        assert position.is_won()
