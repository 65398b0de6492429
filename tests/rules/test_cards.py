import pytest
from hypothesis import given
from hypothesis import strategies as st

from winnable.cards import Card, Rank, Suit, format_cards, new_deck, parse_cards
from winnable.errors import ParseError

cards = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(Suit)))


@given(cards)
def test_card_text_round_trips(card):
    assert Card.from_text(str(card)) == card
    assert eval(repr(card)) == card
    assert Card.from_index(card.index) == card


def test_notation_of_the_rules():
    assert str(Card(Rank.ACE, Suit.SPADES)) == "AS"
    assert str(Card(Rank.TEN, Suit.DIAMONDS)) == "TD"
    assert Card.from_text("kh") == Card(Rank.KING, Suit.HEARTS)
    assert Card.from_text("10C") == Card(Rank.TEN, Suit.CLUBS)


@pytest.mark.parametrize("text", ["", "A", "1S", "AX", "ASS", "ZZ", "11H", "A S"])
def test_bad_card_text_is_a_parse_error(text):
    with pytest.raises(ParseError):
        Card.from_text(text)


def test_rank_circle_wraps_both_ways():
    assert Rank.KING.next_in_circle is Rank.ACE
    assert Rank.ACE.previous_in_circle is Rank.KING
    assert Rank.SEVEN.next_in_circle is Rank.EIGHT


def test_decks_hold_each_card_once_per_deck():
    assert len(set(new_deck())) == 52
    two = new_deck(decks=2)
    assert len(two) == 104 and len(set(two)) == 52
    assert parse_cards(format_cards(two)) == two
    assert Suit.HEARTS.is_red and not Suit.CLUBS.is_red
