"""Deck orders: the notation round-trips, only whole decks are decks, and every game
lays out a deck order exactly as it deals the number that gives that order."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnable.cards import new_deck
from winnable.decks import Deck
from winnable.errors import ParseError
from winnable.games import game_class, game_ids


@given(st.permutations(new_deck(1)))
def test_the_notation_round_trips(cards):
    deck = Deck(tuple(cards))
    assert Deck.parse(str(deck)) == deck and hash(Deck.parse(str(deck))) == hash(deck)
    assert eval(repr(deck)) == deck  # the repr is the constructor


@pytest.mark.parametrize(
    "text",
    [
        "",
        "AS",
        " ".join(["AS"] * 52),
        " ".join(map(str, new_deck(1)[:-1] + [new_deck(1)[0]])),
        " ".join(map(str, new_deck(3))),
        "XX " * 52,
        " ".join(map(str, new_deck(2)[:-1] + [new_deck(2)[0]])),
    ],
)
def test_anything_but_whole_decks_is_refused(text):
    with pytest.raises(ParseError):
        Deck.parse(text)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(game_ids()), st.integers(1, 10**20 - 1))
def test_every_game_lays_out_a_number_s_order_as_it_deals_the_number(game, number):
    cls = game_class(game)
    dealt = cls.from_deck(Deck.of_deal(number, cls.decks))
    assert dealt == cls.deal(number) and dealt.deal_number is None and cls.deal(number).deal_number == number


@pytest.mark.parametrize("game", game_ids())
def test_a_game_takes_only_its_number_of_decks(game):
    cls = game_class(game)
    with pytest.raises(ParseError):
        cls.from_deck(Deck.shuffled(3 - cls.decks, random.Random(1)))


def test_shuffles_from_the_system_differ():
    assert len({Deck.shuffled() for _ in range(20)}) == 20
