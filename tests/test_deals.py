"""PySolFC's deal numbers, checked against the pysol-cards package."""

import pytest
from hypothesis import given, settings, strategies as st
from pysol_cards.cards import CardRenderer, createCards
from pysol_cards.deal_game import Game
from pysol_cards.random import shuffle as pysol_shuffle

from shared_data import DATA, SHARED_VECTORS
from winnable.blackhole import BlackHole
from winnable.deals import MAX_DEAL, parse_deal_number, shuffled
from winnable.errors import ParseError

RENDERER = CardRenderer(True)


def pysol_black_hole(number):
    return Game("black_hole", number, 1).calc_layout_string(RENDERER)


def pysol_order(number, decks):
    cards = pysol_shuffle(createCards(decks), number, 1)
    cards.reverse()
    return [RENDERER.to_s(card) for card in cards]


def test_black_hole_deals_1_to_1000_match_pysolfc():
    for number in range(1, 1001):
        assert BlackHole.deal(number).to_bhs() == pysol_black_hole(number), number


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=32001, max_value=MAX_DEAL))
def test_black_hole_deals_above_32000_match_pysolfc(number):
    assert BlackHole.deal(number).to_bhs() == pysol_black_hole(number)


@pytest.mark.parametrize("number", [1, 617, 11982, 31999, 32001, 10**6, 10**19])
@pytest.mark.parametrize("decks", [1, 2])
def test_card_order_matches_pysolfc_for_one_and_two_decks(number, decks):
    assert [str(card) for card in shuffled(number, decks)] == pysol_order(number, decks)


def test_deal_32000_comes_from_the_mersenne_twister_as_in_pysolfc():
    # pysol-cards switches generators after 32000, PySolFC at 32000 (its Penguin deal
    # 32000 in shared/vectors is the Mersenne Twister's): Winnable follows PySolFC.
    from pysol_cards.random import MTRandom

    cards = createCards(1)
    MTRandom(32000).shuffle(cards)
    cards.reverse()
    assert [str(card) for card in shuffled(32000)] == [RENDERER.to_s(card) for card in cards]
    assert [str(card) for card in shuffled(32000)] != pysol_order(32000, 1)


def test_microsoft_deal_one():
    # FreeCell deal 1 as every Microsoft user knows it, dealt row by row.
    assert [str(card) for card in shuffled(1)[:8]] == ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]


@pytest.mark.parametrize("text", ["0", "-3", "abc", "1.5", str(MAX_DEAL + 1), ""])
def test_bad_deal_numbers(text):
    with pytest.raises(ParseError):
        parse_deal_number(text)


def test_deal_numbers_accept_text_and_int():
    assert parse_deal_number(" 42 ") == 42 == parse_deal_number(42)


def test_the_test_vectors_are_in_the_repository():
    assert sorted(path.name for path in DATA.iterdir()) == ["black-hole-1-1000.csv", "penguin-deals.txt"]
    rows = (DATA / "black-hole-1-1000.csv").read_text().splitlines()
    assert rows[0].startswith("deal,verdict") and len(rows) == 1001


@pytest.mark.skipif(not SHARED_VECTORS.is_dir(), reason="no ../shared/vectors beside this checkout (optional)")
def test_the_copies_match_the_shared_vectors():
    for path in DATA.iterdir():
        assert path.read_bytes() == (SHARED_VECTORS / path.name).read_bytes(), path.name
