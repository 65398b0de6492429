"""PySolFC's deal numbers: the same number gives the same cards as in PySolFC.

PySolFC shuffles with a Microsoft-compatible linear congruential generator for numbers
below 32000 (so FreeCell deal N is Microsoft's deal N) and with the Mersenne Twister
from 32000 on. The one number where sources differ is 32000 itself: PySolFC deals it
with the Mersenne Twister (the Penguin deals in ``shared/vectors``, laid out by PySolFC,
show it), while the ``pysol-cards`` package uses Microsoft's generator for it; Winnable
follows PySolFC. :func:`shuffled` returns the cards in the order PySolFC deals them, first card
first; each game's module lays them out.

>>> from winnable.cards import format_cards
>>> format_cards(shuffled(1)[:8])
'JD 2D 9H JC 5D 7H 7C 5H'
"""

from __future__ import annotations

import random

from winnable.cards import Card, Rank, Suit
from winnable.errors import ParseError

MS_LIMIT = 31999
"""Numbers up to this one use the Microsoft-compatible generator."""

MAX_DEAL = 10**20 - 1
"""The largest deal number PySolFC accepts (twenty digits)."""

# PySolFC orders a fresh deck suit by suit in the order clubs, spades, hearts, diamonds.
_PYSOL_SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
_PYSOL_DECK = tuple(Card.from_index(suit * 13 + rank - 1) for suit in _PYSOL_SUITS for rank in range(1, 14))


def pysol_deck(decks: int = 1) -> list[Card]:
    """A fresh deck in PySolFC's order (suit by suit: C S H D, Ace to King)."""
    return list(_PYSOL_DECK) * decks


def parse_deal_number(text: str | int) -> int:
    """A deal number from text, checked to be in PySolFC's range 1..10**20-1."""
    try:
        number = int(str(text).strip().replace("_", ""))
    except ValueError:
        raise ParseError(f"not a deal number: {text!r}") from None
    if not 1 <= number <= MAX_DEAL:
        raise ParseError(f"deal number out of range: {number} (1 to {MAX_DEAL})")
    return number


class MicrosoftRandom:
    """The linear congruential generator of Microsoft's C library, as PySolFC uses it."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state * 214013 + 2531011) & 0xFFFFFFFF
        return (self.state >> 16) & 0x7FFF

    def randint(self, low: int, high: int) -> int:
        return low + self.next() % (high + 1 - low)


class MersenneRandom:
    """PySolFC's Mersenne Twister deals: Python's own generator, PySolFC's ``randint``."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return low + int(self._random.random() * (high + 1 - low))


def _microsoft_order(cards: list[Card]) -> list[Card]:
    """Microsoft's one-deck order: rank by rank, suits C D H S (PySolFC's rearrangement)."""
    if len(cards) != 52:
        return cards
    return [cards[rank + offset] for rank in range(13) for offset in (0, 39, 26, 13)]


def shuffled(number: int, decks: int = 1) -> list[Card]:
    """The cards of deal ``number`` in the order PySolFC deals them (first dealt first)."""
    number = parse_deal_number(number)
    cards = pysol_deck(decks)
    if number <= MS_LIMIT:
        generator: MicrosoftRandom | MersenneRandom = MicrosoftRandom(number)
        cards = _microsoft_order(cards)
    else:
        generator = MersenneRandom(number)
    for n in range(len(cards) - 1, 0, -1):
        j = generator.randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    cards.reverse()  # PySolFC deals from the end of its list
    return cards
