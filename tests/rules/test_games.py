"""The registry (``winnable.games``): one line a game, every listing derived from it."""

from __future__ import annotations

import pytest

from winnable.cards import Card
from winnable.errors import UnknownGameError
from winnable.games import FAMILIES, GAMES, LIBRARY_ONLY, families, family_named, family_of, game_class, game_ids, picture, registered


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
def test_each_line_names_the_class_that_plays_it(game):
    cls = game_class(game.id, library=True)
    assert cls.game_id == game.id
    assert cls.family == game.family  # the rules module or package: winnable.<family>
    assert cls.__module__.split(".")[:2] == ["winnable", game.family]
    assert game.cls is cls and game.title == cls.title and game.summary == cls.summary


def test_ids_and_families_are_unique_and_every_game_has_a_family():
    ids = [game.id for game in GAMES]
    assert len(set(ids)) == len(ids) == len(game_ids(library=True))
    assert len({family.id for family in FAMILIES}) == len(FAMILIES)
    assert {game.family for game in GAMES} == {family.id for family in FAMILIES}


def test_a_family_s_games_are_listed_together_in_the_families_order():
    """The lobby groups games by family in the registry's order of families; the catalogue
    lists them in the registry's order: both agree only if a family's games are together."""
    order = [family.id for family in FAMILIES]
    seen = [game.family for game in GAMES]
    assert seen == sorted(seen, key=order.index)
    assert [family.id for family in families()] == ["blackhole", "freecell", "spider", "fourteen"]
    assert [family.id for family in families(library=True)] == order


def test_a_variant_follows_the_game_it_varies_in_its_family():
    for game in GAMES:
        if game.variant_of is None:
            continue
        parent = registered(game.variant_of, library=True)
        assert parent.family == game.family and parent.variant_of is None
        assert GAMES.index(parent) < GAMES.index(game)
    assert [game.id for game in GAMES if game.variant_of == "penguin"] == [
        "penguin-relaxed",
        "penguin-6",
        "penguin-5",
        "penguin-3",
        "penguin-0",
        "penguin-pysolfc",
    ]


def test_pictures_are_three_cards_or_face_down_cards():
    for game_id in game_ids(library=True):
        cards = picture(game_id)
        assert len(cards) == 3
        for code in cards:
            assert code is None or str(Card.from_text(code)) == code
    assert picture("penguin-6") == family_named("freecell").picture
    assert picture("freecell") == ("KS", "QH", "JC")


def test_library_only_is_the_games_the_web_does_not_play(monkeypatch):
    assert LIBRARY_ONLY == {game.id for game in GAMES if not game.web} == set()  # the web app plays every game
    assert game_ids() == [game.id for game in GAMES if game.web] == game_ids(library=True)
    with pytest.raises(UnknownGameError, match="unknown game 'nope'"):
        family_of("nope")
    # A line that says web=False keeps its game out of the web app's listings and lookups.
    import dataclasses

    import winnable.games as registry

    hidden = dataclasses.replace(registered("fourteen-out"), web=False)
    monkeypatch.setattr(registry, "GAMES", tuple(hidden if game.id == hidden.id else game for game in GAMES))
    monkeypatch.setitem(registry._BY_ID, hidden.id, hidden)
    monkeypatch.setattr(registry, "_classes", {})
    monkeypatch.setattr(registry, "_library_classes", {})
    assert "fourteen-out" not in registry.game_ids() and "fourteen-out" in registry.game_ids(library=True)
    with pytest.raises(UnknownGameError, match="unknown game 'fourteen-out'"):
        registry.registered("fourteen-out")
    assert registry.registered("fourteen-out", library=True).family == "fourteen"
    assert registry.game_class("fourteen-out", library=True).game_id == "fourteen-out"
    with pytest.raises(UnknownGameError):  # looked up by the library first, still unknown to the web's default
        registry.game_class("fourteen-out")


def test_a_family_s_games():
    assert game_ids(family="freecell") == [
        "penguin",
        "penguin-relaxed",
        "penguin-6",
        "penguin-5",
        "penguin-3",
        "penguin-0",
        "penguin-pysolfc",
        "freecell",
        "eight-off",
        "bakers-game",
    ]
    assert game_ids(family="fourteen") == game_ids(family="fourteen", library=True) == ["fourteen-out"]
    assert sum((game_ids(family=family.id) for family in FAMILIES), []) == game_ids()
    assert family_of("spider-1").title == "Spider games" and family_of("spider-1").page_title == "Black Widow and Spider"
    assert family_of("penguin").page_title == "Penguin and the free-cell games"
