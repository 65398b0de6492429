"""PySolFC's deal numbers: the same number gives the same cards as in PySolFC
(``docs/RULES.md#deal-numbers``).

PySolFC shuffles with a Microsoft-compatible linear congruential generator for numbers
below 32000 (so FreeCell deal N is Microsoft's deal N) and with the Mersenne Twister
from 32000 on. The one number where sources differ is 32000 itself: PySolFC deals it
with the Mersenne Twister (the Penguin deals in ``tests/data/penguin-deals.txt``, laid out by PySolFC,
show it), while the ``pysol-cards`` package uses Microsoft's generator for it; Winnable
follows PySolFC. :func:`shuffled` returns the cards in the order PySolFC deals them, first card
first; each game's module lays them out.

PySolFC also offers *Microsoft's* numbering: a number written ``ms146692`` is dealt with
Microsoft's generator whatever its size (below 32000 the two numberings give the same
cards). Like PySolFC, Winnable accepts ``ms0`` to ``ms8589934591`` (2**33 - 1): up to
2**31 - 1 they are the deals of Windows FreeCell, from 2**31 the extra deals of
FreeCell Pro and later versions. A :class:`DealNumber` holds a number and its
numbering; plain ints are PySolFC's numbers everywhere.

>>> from winnable.cards import format_cards
>>> format_cards(shuffled(1)[:8])
'JD 2D 9H JC 5D 7H 7C 5H'
>>> DealNumber.parse("ms146692")
DealNumber('ms146692')
>>> str(DealNumber.parse(146692)), DealNumber.parse("146692").numbering.value
('146692', 'pysolfc')
>>> shuffled("ms11982") == shuffled(11982) != shuffled("ms146692")
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum

from winnable.cards import Card, Suit
from winnable.errors import ParseError

MS_LIMIT = 31999
"""Numbers up to this one use the Microsoft-compatible generator."""

MAX_DEAL = 10**20 - 1
"""The largest deal number PySolFC accepts (twenty digits)."""

MS_MAX_DEAL = 2**33 - 1
"""The largest Microsoft deal number PySolFC accepts (``ms8589934591``)."""

# PySolFC orders a fresh deck suit by suit in the order clubs, spades, hearts, diamonds.
_PYSOL_SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
_PYSOL_DECK = tuple(Card.from_index(suit * 13 + rank - 1) for suit in _PYSOL_SUITS for rank in range(1, 14))


def pysol_deck(decks: int = 1) -> list[Card]:
    """A fresh deck in PySolFC's order (suit by suit: C S H D, Ace to King)."""
    return list(_PYSOL_DECK) * decks


def parse_deal_number(text: str | int) -> int:
    """A PySolFC deal number from text or an int, checked to be in its range
    1..10**20-1 (:meth:`DealNumber.parse`, refusing Microsoft's ``ms`` numbers)."""
    deal = DealNumber.parse(text)
    if deal.numbering is not Numbering.PYSOLFC:
        raise ParseError(f"not a PySolFC deal number: {text!r} (Microsoft's ms numbers are not taken here)")
    return deal.number


class Numbering(str, Enum):
    """Whose deal numbers: PySolFC's (the default) or Microsoft's (``ms`` numbers)."""

    PYSOLFC = "pysolfc"
    MICROSOFT = "microsoft"

    @property
    def prefix(self) -> str:
        """How a number of this numbering is written: ``ms146692`` or ``146692``."""
        return "ms" if self is Numbering.MICROSOFT else ""

    @property
    def lowest(self) -> int:
        return 0 if self is Numbering.MICROSOFT else 1

    @property
    def highest(self) -> int:
        return MS_MAX_DEAL if self is Numbering.MICROSOFT else MAX_DEAL

    @classmethod
    def parse(cls, text: str | Numbering) -> Numbering:
        """``"microsoft"`` (or ``"ms"``) or ``"pysolfc"`` (or ``"pysol"``)."""
        name = str(text.value if isinstance(text, Numbering) else text).strip().lower()
        aliases = {"ms": cls.MICROSOFT, "pysol": cls.PYSOLFC}
        try:
            return aliases.get(name) or cls(name)
        except ValueError:
            raise ParseError(f"no numbering {text!r} (pysolfc or microsoft)") from None


@dataclass(frozen=True)
class DealNumber:
    """A deal number and its numbering; round-trips through :meth:`parse` and ``str``
    (and its repr through the constructor, which also takes the text).

    >>> DealNumber(146692, Numbering.MICROSOFT)
    DealNumber('ms146692')
    >>> DealNumber("ms146692") == DealNumber.parse("ms146692")
    True
    >>> DealNumber.parse("ms8589934592")
    Traceback (most recent call last):
    ...
    winnable.errors.ParseError: Microsoft deal number out of range: ms8589934592 (ms0 to ms8589934591)
    """

    number: int
    numbering: Numbering = Numbering.PYSOLFC
    """PySolFC's unless given (``"microsoft"`` or :attr:`Numbering.MICROSOFT`)."""

    def __post_init__(self) -> None:
        if isinstance(self.number, str):  # DealNumber("ms146692"), as repr writes it
            parsed = DealNumber.parse(self.number, self.numbering)
            object.__setattr__(self, "number", parsed.number)
            object.__setattr__(self, "numbering", parsed.numbering)
        elif isinstance(self.number, bool) or not isinstance(self.number, int):
            raise ParseError(f"not a deal number: {self.number!r}")
        object.__setattr__(self, "numbering", Numbering.parse(self.numbering))
        numbering = self.numbering
        if not numbering.lowest <= self.number <= numbering.highest:
            whose = "Microsoft deal number" if numbering is Numbering.MICROSOFT else "deal number"
            raise ParseError(
                f"{whose} out of range: {numbering.prefix}{self.number} "
                f"({numbering.prefix}{numbering.lowest} to {numbering.prefix}{numbering.highest})"
            )

    @classmethod
    def parse(cls, text: str | int | DealNumber, numbering: Numbering | str = Numbering.PYSOLFC) -> DealNumber:
        """``"ms146692"`` is Microsoft's; a bare number (or an int) is ``numbering``'s."""
        if isinstance(text, DealNumber):
            return text
        if isinstance(text, bool):
            raise ParseError(f"not a deal number: {text!r}")
        numbering = Numbering.parse(numbering)
        body = str(text).strip().replace("_", "")
        if body[:2].lower() == "ms":
            numbering, body = Numbering.MICROSOFT, body[2:]
        if not body.isascii() or not body.isdigit():
            raise ParseError(f"not a deal number: {text!r} (write 146692, or ms146692 for Microsoft's deals)")
        return cls(int(body), numbering)

    @property
    def microsoft(self) -> bool:
        """Dealt with Microsoft's generator (every ``ms`` number, PySolFC's below 32000)."""
        return self.numbering is Numbering.MICROSOFT or self.number <= MS_LIMIT

    def __int__(self) -> int:
        return self.number

    def __str__(self) -> str:
        return f"{self.numbering.prefix}{self.number}"

    def __repr__(self) -> str:
        return f"DealNumber({str(self)!r})"


class MicrosoftRandom:
    """The linear congruential generator of Microsoft's C library, as PySolFC uses it.

    Seeds from 2**31 to 2**32 - 1 set the top bit of every draw (FreeCell Pro's extra
    deals); seeds from 2**32 on restart from ``seed - 2**32`` with 16-bit draws plus one,
    as PySolFC's ``ms`` numbers do up to 2**33 - 1.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.state = seed if seed < 1 << 32 else seed - (1 << 32)

    def _step(self) -> int:
        self.state = (self.state * 214013 + 2531011) & 0xFFFFFFFF
        return self.state >> 16

    def next(self) -> int:
        if self.seed >= 1 << 32:
            return (self._step() & 0xFFFF) + 1
        value = self._step() & 0x7FFF
        return value | 0x8000 if self.seed >= 1 << 31 else value

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


def shuffled(number: int | str | DealNumber, decks: int = 1) -> list[Card]:
    """The cards of deal ``number`` in the order PySolFC deals them (first dealt first);
    ``number`` is PySolFC's unless written ``ms...`` or a Microsoft :class:`DealNumber`."""
    deal = DealNumber.parse(number)
    cards = pysol_deck(decks)
    if deal.microsoft:
        generator: MicrosoftRandom | MersenneRandom = MicrosoftRandom(deal.number)
        cards = _microsoft_order(cards)
    else:
        generator = MersenneRandom(deal.number)
    for n in range(len(cards) - 1, 0, -1):
        j = generator.randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    cards.reverse()  # PySolFC deals from the end of its list
    return cards
