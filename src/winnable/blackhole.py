"""Black Hole (David Parlett): the rules, the layout and the board formats.

The Ace of Spades is the foundation, the "black hole". The other 51 cards lie face up in
17 piles of three; only the top card of a pile is playable. A top card goes onto the
foundation if its rank is one above or one below the foundation's top rank, around the
circle K-A-2 (a King takes a Queen or an Ace, an Ace a King or a Two). Suits never
matter. The game is won when all 51 cards are on the foundation and lost when no top
card can move.

>>> position = BlackHole.deal(2)
>>> position.foundation_card
Card.from_text('AS')
>>> [str(move) for move in position.legal_moves()]
['2S', '2H', 'KH']
>>> after = position.play("KH")
>>> after.foundation_card, after.cards_left()
(Card.from_text('KH'), 50)
>>> BlackHole.from_text(after.to_text()) == after
True

A move is written as the card it plays (``KH``); ``parse_move`` also takes a pile
number, 1 to 17 (``"5"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from winnable import deals
from winnable.cards import Card, Rank, Suit, format_cards, parse_cards
from winnable.errors import IllegalMoveError, ParseError
from winnable.game import Move, Position

PILES = 17
PILE_SIZE = 3
HOLE = Card(Rank.ACE, Suit.SPADES)


def ranks_adjacent(a: Rank, b: Rank) -> bool:
    """One rank apart around the circle K-A-2."""
    return a.next_in_circle == b or b.next_in_circle == a


@dataclass(frozen=True, slots=True, repr=False)
class BlackHoleMove(Move):
    """Play ``card``, the top card of its pile, onto the foundation."""

    card: Card

    @classmethod
    def from_text(cls, text: str) -> Self:
        return cls(Card.from_text(text))

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True, slots=True, repr=False)
class BlackHole(Position):
    """A Black Hole position: 17 piles (bottom card first) and the foundation.

    ``foundation`` holds every card played, the Ace of Spades first and the top card
    last, so a position also records how it was reached.
    """

    piles: tuple[tuple[Card, ...], ...]
    foundation: tuple[Card, ...] = (HOLE,)
    deal_number: int | None = field(default=None, compare=False)

    game_id = "black-hole"
    title = "Black Hole"
    family = "blackhole"
    summary = "Parlett's one-deck game: play every card into the hole, one rank up or down."
    move_type = BlackHoleMove
    FORMATS = ("text", "bhs")

    def __post_init__(self) -> None:
        if len(self.piles) != PILES:
            raise ParseError(f"Black Hole has {PILES} piles, not {len(self.piles)}")
        if any(len(pile) > PILE_SIZE for pile in self.piles):
            raise ParseError(f"a Black Hole pile holds at most {PILE_SIZE} cards")
        if not self.foundation:
            raise ParseError("the foundation cannot be empty")
        cards = [card for pile in self.piles for card in pile] + list(self.foundation)
        if len(set(cards)) != len(cards):
            raise ParseError("a card appears twice")

    # -- dealing ---------------------------------------------------------------------
    @classmethod
    def deal(cls, number: int) -> Self:
        """PySolFC's Black Hole: the Ace of Spades goes to the hole, then the other 51
        cards are dealt round the 17 piles, three times."""
        cards = deals.shuffled(number)
        cards.remove(HOLE)
        piles = tuple(tuple(cards[index::PILES]) for index in range(PILES))
        return cls(piles, (HOLE,), deal_number=deals.parse_deal_number(number))

    # -- rules -----------------------------------------------------------------------
    @property
    def foundation_card(self) -> Card:
        return self.foundation[-1]

    def tops(self) -> list[Card | None]:
        return [pile[-1] if pile else None for pile in self.piles]

    def legal_moves(self) -> list[BlackHoleMove]:
        rank = self.foundation_card.rank
        return [BlackHoleMove(top) for top in self.tops() if top is not None and ranks_adjacent(top.rank, rank)]

    def pile_of(self, card: Card) -> int | None:
        """The index of the pile whose top card is ``card``, if any."""
        for index, top in enumerate(self.tops()):
            if top == card:
                return index
        return None

    def apply(self, move: BlackHoleMove) -> Self:
        index = self.pile_of(move.card)
        if index is None:
            raise IllegalMoveError(f"{move.card} is not the top card of a pile")
        piles = self.piles[:index] + (self.piles[index][:-1],) + self.piles[index + 1 :]
        return type(self)(piles, self.foundation + (move.card,), self.deal_number)

    def why_illegal(self, move: Move) -> str:
        card = getattr(move, "card", None)
        if card is None or self.pile_of(card) is None:
            return f"{move} is not the top card of a pile"
        return f"{card} is not one rank above or below {self.foundation_card} (suits do not matter; K-A-2 wraps)"

    def parse_move(self, text: str) -> BlackHoleMove:
        cleaned = text.strip().lower().removeprefix("p")
        if cleaned.isdigit():
            pile = int(cleaned)
            if not 1 <= pile <= PILES:
                raise ParseError(f"no pile {pile}: piles are numbered 1 to {PILES}")
            if not self.piles[pile - 1]:
                raise IllegalMoveError(f"pile {pile} is empty")
            return BlackHoleMove(self.piles[pile - 1][-1])
        return BlackHoleMove.from_text(text)

    def finishing_line(self) -> list[BlackHoleMove] | None:
        """When the rest of the game is a plain run home, with exactly one card to play
        at every step until the hole has them all, those moves; else ``None``. Black
        Hole never plays a card by itself (every move is a choice), but a forced ending
        can be played in one go. A won position needs none: ``[]``.

        >>> BlackHole.deal(2).finishing_line() is None
        True
        >>> BlackHole.from_text("Foundation: AS\\n1: 3H 2C\\n" + "\\n".join(f"{i}: -" for i in range(2, 18))).finishing_line()
        [BlackHoleMove.from_text('2C'), BlackHoleMove.from_text('3H')]
        """
        position, line = self, []
        while not position.is_won():
            moves = position.legal_moves()
            if len(moves) != 1:
                return None
            line.append(moves[0])
            position = position.apply(moves[0])
        return line

    def is_won(self) -> bool:
        return not any(self.piles)

    def cards_left(self) -> int:
        return sum(len(pile) for pile in self.piles)

    # -- notation --------------------------------------------------------------------
    def to_text(self) -> str:
        """Winnable's notation: the foundation (first card first), then one line a pile,
        bottom card first; ``-`` for an empty pile."""
        lines = ["Foundation: " + format_cards(self.foundation)]
        lines += [f"{index + 1:2}: {format_cards(pile) or '-'}" for index, pile in enumerate(self.piles)]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Self:
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if not lines or not lines[0].lower().startswith("foundation:"):
            raise ParseError("a Black Hole position starts with 'Foundation: AS ...'")
        foundation = tuple(parse_cards(lines[0].split(":", 1)[1]))
        piles = []
        for line in lines[1:]:
            label, sep, rest = line.partition(":")
            body = rest if sep else label
            body = body.strip()
            piles.append(tuple() if body in ("-", "") else tuple(parse_cards(body)))
        return cls(tuple(piles), foundation)

    def to_bhs(self) -> str:
        """The board format of Shlomi Fish's black-hole-solver: ``Foundations: AS``, then
        the 17 piles, bottom card first, one a line (an empty pile as ``:``)."""
        lines = [f"Foundations: {self.foundation_card}"]
        lines += [format_cards(pile) if pile else ":" for pile in self.piles]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_bhs(cls, text: str) -> Self:
        """Read black-hole-solver's board. Only the foundation's top card is known there,
        so the cards missing from the piles are taken to be on the foundation."""
        lines = [line.strip() for line in text.strip().splitlines()]
        if not lines or not lines[0].startswith("Foundations:"):
            raise ParseError("a black-hole-solver board starts with 'Foundations: AS'")
        top = parse_cards(lines[0].split(":", 1)[1])
        if len(top) != 1:
            raise ParseError("the Foundations line names one card")
        piles = [tuple(parse_cards(line.lstrip(":"))) for line in lines[1:]]
        on_table = {card for pile in piles for card in pile}
        missing = [card for card in sorted(set(Card.from_index(i) for i in range(52)) - on_table) if card != top[0]]
        if top[0] in on_table:
            raise ParseError(f"{top[0]} is both on the foundation and in a pile")
        rest = [card for card in missing if card != HOLE]
        foundation = ((HOLE,) if top[0] != HOLE else ()) + tuple(rest) + (top[0],)
        return cls(tuple(piles), foundation)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "deal": self.deal_number,
            "foundation": [str(card) for card in self.foundation],
            "piles": [[str(card) for card in pile] for pile in self.piles],
            "cards_left": self.cards_left(),
            "won": self.is_won(),
            "lost": self.is_lost(),
        }

    def describe_move(self, move: Move) -> dict[str, Any]:
        card = getattr(move, "card", None)
        pile = self.pile_of(card) if card is not None else None
        return {"move": str(move), "from": f"pile:{pile}", "to": "foundation", "card": str(card), "count": 1}

    # -- search ----------------------------------------------------------------------
    def engine_search(self, nodes: int | None, seconds: float | None) -> tuple[str, list[str], int]:
        from winnable import _engine

        piles = [[card.index for card in pile] for pile in self.piles]
        status, pile_line, positions = _engine.black_hole_solve(piles, int(self.foundation_card.rank), nodes, seconds)
        # The engine names piles; turn them into cards by following the line.
        heights = [len(pile) for pile in self.piles]
        line = []
        for pile in pile_line:
            if not 0 <= pile < PILES or heights[pile] == 0:
                line.append(f"pile {pile + 1}")  # refused by the replay, never trusted
                break
            heights[pile] -= 1
            line.append(str(self.piles[pile][heights[pile]]))
        return status, line, positions
