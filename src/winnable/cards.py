"""Cards, ranks, suits and decks, in the notation of the rules: ``AS``, ``TD``, ``KH``.

>>> Card.from_text("TD")
Card.from_text('TD')
>>> str(Card(Rank.QUEEN, Suit.HEARTS))
'QH'
>>> Card.from_text("AS").rank.next_in_circle
Rank.TWO
>>> len(new_deck()), len(new_deck(decks=2))
(52, 104)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Iterable, cast

from winnable.errors import ParseError

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"


class Rank(enum.IntEnum):
    """A card's rank, Ace (1) to King (13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def char(self) -> str:
        return RANK_CHARS[self - 1]

    @classmethod
    def from_char(cls, char: str) -> Rank:
        index = RANK_CHARS.find(char.upper()) if len(char) == 1 else -1
        if index < 0:
            raise ParseError(f"not a rank: {char!r} (expected one of {RANK_CHARS})")
        return cls(index + 1)

    @property
    def next_in_circle(self) -> Rank:
        """The rank one above, with the King followed by the Ace."""
        return _NEXT_RANK[self]

    @property
    def previous_in_circle(self) -> Rank:
        """The rank one below, with the Ace preceded by the King."""
        return _PREVIOUS_RANK[self]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


# Looked up, not computed: the rules ask for neighbours of ranks millions of times a survey.
# Indexed by a Rank (1-13): the None at index 0 is never read, hence the cast.
_NEXT_RANK = cast("tuple[Rank, ...]", (None,) + tuple(Rank(rank % 13 + 1) for rank in range(1, 14)))
_PREVIOUS_RANK = cast("tuple[Rank, ...]", (None,) + tuple(Rank((rank - 2) % 13 + 1) for rank in range(1, 14)))


class Suit(enum.IntEnum):
    """A card's suit, in the order of the rules: clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def from_char(cls, char: str) -> Suit:
        index = SUIT_CHARS.find(char.upper()) if len(char) == 1 else -1
        if index < 0:
            raise ParseError(f"not a suit: {char!r} (expected one of {SUIT_CHARS})")
        return cls(index)

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_TEXTS = tuple(RANK_CHARS[index % 13] + SUIT_CHARS[index // 13] for index in range(52))


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card. Two decks hold two equal copies of each card."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)
    """0..51, suit-major in the order C D H S: the engine's byte for the card."""

    def __post_init__(self) -> None:
        rank, suit = Rank(self.rank), Suit(self.suit)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "index", suit * 13 + rank - 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Parse ``AS``, ``td`` or ``10D``; raise :class:`ParseError` otherwise."""
        card = _BY_TEXT.get(text)
        if card is not None:  # the usual spelling: one look-up
            return card
        cleaned = text.strip()
        if cleaned[:2] == "10":
            cleaned = "T" + cleaned[2:]
        if len(cleaned) != 2:
            raise ParseError(f"not a card: {text!r} (expected rank and suit, like AS or TD)")
        try:
            return cls(Rank.from_char(cleaned[0]), Suit.from_char(cleaned[1]))
        except ParseError as error:
            raise ParseError(f"not a card: {text!r} ({error})") from None

    @classmethod
    def from_index(cls, index: int) -> Card:
        return _BY_INDEX[index]

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    def __str__(self) -> str:
        return _TEXTS[self.index]

    def __repr__(self) -> str:
        return f"Card.from_text({str(self)!r})"


_BY_INDEX = tuple(Card(Rank(i % 13 + 1), Suit(i // 13)) for i in range(52))
_BY_TEXT = {str(card): card for card in _BY_INDEX}


def new_deck(decks: int = 1) -> list[Card]:
    """Fresh decks in index order (clubs Ace to King, then diamonds, hearts, spades)."""
    return [card for _ in range(decks) for card in _BY_INDEX]


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by white space: ``"AS 2H TD"``."""
    return [Card.from_text(word) for word in text.split()]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)
