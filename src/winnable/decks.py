"""A deck order: the cards of one or two decks in the order they are dealt, first first.

Every game lays out its deal from such an order (``Position.from_deck``); a deal number
is one way to get one (:meth:`Deck.of_deal`, PySolFC's shuffle), a secret shuffle
another (:meth:`Deck.shuffled`, the Daily's: no deal number reaches it). The notation
is the cards in order, separated by spaces, and round-trips:

>>> deck = Deck.of_deal(1)
>>> str(deck)[:23]
'JD 2D 9H JC 5D 7H 7C 5H'
>>> Deck.parse(str(deck)) == deck and len(deck) == 52 and deck.decks == 1
True
>>> import random
>>> Deck.shuffled(2, random.Random(7)).decks
2
>>> Deck.parse("AS 2S")
Traceback (most recent call last):
...
winnable.errors.ParseError: a deck order holds 52 or 104 cards (one or two whole decks), not 2
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Iterator

from winnable.cards import Card, format_cards, new_deck, parse_cards
from winnable.errors import ParseError

if TYPE_CHECKING:
    from winnable.deals import DealNumber

DECK_SIZE = 52

_SYSTEM = secrets.SystemRandom()


@dataclass(frozen=True)
class Deck:
    """The cards of ``decks`` whole decks (1 or 2), in dealing order.

    The constructor takes the cards (or the notation) and checks that each card is there
    exactly ``decks`` times:

    >>> Deck("AS " * 52)
    Traceback (most recent call last):
    ...
    winnable.errors.ParseError: not whole decks: AS 52 times; AC AD AH 2C missing
    """

    cards: tuple[Card, ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = self.cards
        if isinstance(cards, str):
            cards = parse_cards(cards)
        cards = tuple(cards)
        if any(not isinstance(card, Card) for card in cards):
            raise ParseError("a deck order holds cards")
        if len(cards) not in (DECK_SIZE, 2 * DECK_SIZE):
            raise ParseError(f"a deck order holds 52 or 104 cards (one or two whole decks), not {len(cards)}")
        decks = len(cards) // DECK_SIZE
        counts = Counter(cards)
        if len(counts) != DECK_SIZE or any(count != decks for count in counts.values()):
            wrong = sorted(card for card, count in counts.items() if count != decks)
            missing = sorted(set(new_deck()) - set(counts))
            detail = [", ".join(f"{card} {counts[card]} times" for card in wrong[:4])] if wrong else []
            if missing:
                detail.append(f"{format_cards(missing[:4])} missing")
            raise ParseError(f"not whole decks: {'; '.join(detail)}")
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "_hash", hash(cards))  # a deck is a cache key on every request

    # -- where an order comes from ------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Deck:
        """The notation (cards separated by white space) back to a deck order."""
        if not isinstance(text, str):
            raise ParseError(f"not a deck order: {text!r}")
        return cls(tuple(parse_cards(text)))

    @classmethod
    def of_deal(cls, number: int | str | DealNumber, decks: int = 1) -> Deck:
        """PySolFC's order of deal ``number`` (an int, ``"ms146692"`` or a
        :class:`~winnable.deals.DealNumber`), as :func:`winnable.deals.shuffled` gives it."""
        from winnable.deals import shuffled

        return cls(tuple(shuffled(number, decks)))

    @classmethod
    def shuffled(cls, decks: int = 1, rng: random.Random | None = None) -> Deck:
        """A uniformly random order of ``decks`` decks, from the operating system's
        generator unless ``rng`` is given: no deal number, no seed to find it again."""
        if decks not in (1, 2):
            raise ParseError(f"one or two decks, not {decks!r}")
        cards = new_deck(decks)
        (rng or _SYSTEM).shuffle(cards)
        return cls(tuple(cards))

    # -- what it is ---------------------------------------------------------------------
    @property
    def decks(self) -> int:
        return len(self.cards) // DECK_SIZE

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Deck({str(self)!r})"


def as_deck(cards: Deck | Iterable[Card] | str) -> Deck:
    """A :class:`Deck` from a deck, cards or the notation."""
    return cards if isinstance(cards, Deck) else Deck(tuple(parse_cards(cards)) if isinstance(cards, str) else tuple(cards))
