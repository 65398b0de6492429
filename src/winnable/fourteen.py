"""Fourteen Out: the rules, the layout and the notations.

All 52 cards lie face up in twelve piles, the first four of five cards and the other
eight of four; only the top card of a pile is available. Two available cards whose
values add up to 14 are removed together (Ace 1, Jack 11, Queen 12, King 13: K+A, Q+2,
J+3, 10+4, 9+5, 8+6, 7+7; suits never matter). The game is won when every card is
removed and lost when no two available cards make 14. The rules are written out in
``docs/RULES.md#fourteen-out``.

>>> position = FourteenOut.deal(1)
>>> [str(move) for move in position.legal_moves()][:4]
['8S+6S', '8D+6S', '8C+6S', 'QS+2H']
>>> after = position.play("6S+8C")
>>> after.cards_left(), [str(card) for card in after.removed]
(50, ['8C', '6S'])
>>> FourteenOut.from_text(after.to_text()) == after
True

A move names the two cards it removes, the higher first (``KH+AC``; ``AC+KH`` and
``KH AC`` are read too); ``parse_move`` also takes two pile numbers, 1 to 12
(``"1+11"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from winnable import deals
from winnable.cards import _BY_INDEX, Card, format_cards, parse_cards
from winnable.errors import IllegalMoveError, ParseError
from winnable.game import Move, Position

PILES = 12
SUM = 14
CARDS = 52
LONG_PILES = 4
"""The first four piles are dealt five cards, the other eight four."""


def pile_size(index: int) -> int:
    """The cards pile ``index`` (from 0) is dealt: 5 for the first four, else 4."""
    return 5 if index < LONG_PILES else 4


def pairs(a: Card, b: Card) -> bool:
    """Do the two cards' values add up to 14?

    >>> pairs(Card.from_text("KH"), Card.from_text("AS")), pairs(Card.from_text("7C"), Card.from_text("7D"))
    (True, True)
    >>> pairs(Card.from_text("QH"), Card.from_text("AS"))
    False
    """
    return a.rank + b.rank == SUM


@dataclass(frozen=True, slots=True, repr=False)
class FourteenMove(Move):
    """Remove two available cards whose values add up to 14. The higher card comes
    first (of two Sevens, the one first in the order of ``Card.index``), so a move has
    one spelling.

    >>> FourteenMove.from_text("AC+KH")
    FourteenMove.from_text('KH+AC')
    >>> str(FourteenMove.from_text("7s 7c"))
    '7C+7S'
    >>> FourteenMove.from_text("KH")
    Traceback (most recent call last):
    ...
    winnable.errors.ParseError: a Fourteen Out move names two cards, like KH+AC, not 'KH'
    """

    first: Card
    second: Card

    def __post_init__(self) -> None:
        if (-self.second.rank, self.second.index) < (-self.first.rank, self.first.index):
            first, second = self.second, self.first
            object.__setattr__(self, "first", first)
            object.__setattr__(self, "second", second)

    @classmethod
    def from_text(cls, text: str) -> Self:
        parts = text.replace("+", " ").split() if isinstance(text, str) else []
        if len(parts) != 2:
            raise ParseError(f"a Fourteen Out move names two cards, like KH+AC, not {text!r}")
        return cls(Card.from_text(parts[0]), Card.from_text(parts[1]))

    @property
    def cards(self) -> tuple[Card, Card]:
        return self.first, self.second

    def __str__(self) -> str:
        return f"{self.first}+{self.second}"


_PAIRS = {(a.index, b.index): FourteenMove(a, b) for a in _BY_INDEX for b in _BY_INDEX if a != b and pairs(a, b)}
"""Every move by the indices of its two cards, in either order (moves are immutable
values: one of each will do)."""
_MOVES = {f"{_BY_INDEX[i]}+{_BY_INDEX[j]}": move for (i, j), move in _PAIRS.items()}
"""Every move by its notation, the two cards in either order."""


@dataclass(frozen=True, slots=True, repr=False)
class FourteenOut(Position):
    """A Fourteen Out position: the twelve piles, bottom card first, and the cards
    removed so far (in the order they went, two by two)."""

    piles: tuple[tuple[Card, ...], ...]
    removed: tuple[Card, ...] = ()
    deal_number: int | None = field(default=None, compare=False)

    game_id = "fourteen-out"
    title = "Fourteen Out"
    family = "fourteen"
    summary = "A one-deck pairing game: take out two top cards that add up to fourteen."
    move_type = FourteenMove

    def __post_init__(self) -> None:
        if len(self.piles) != PILES:
            raise ParseError(f"Fourteen Out has {PILES} piles, not {len(self.piles)}")
        for index, pile in enumerate(self.piles):
            if len(pile) > pile_size(index):
                raise ParseError(f"pile {index + 1} holds at most {pile_size(index)} cards, not {len(pile)}")
        cards = [card for pile in self.piles for card in pile] + list(self.removed)
        if len(set(cards)) != len(cards):
            raise ParseError("a card appears twice")
        if len(self.removed) % 2:
            raise ParseError("cards are removed two at a time: an odd number is removed")
        for a, b in zip(self.removed[::2], self.removed[1::2]):
            if not pairs(a, b):
                raise ParseError(f"{a} and {b} were removed together but add up to {a.rank + b.rank}, not {SUM}")

    # -- dealing ---------------------------------------------------------------------
    @classmethod
    def deal(cls, number: int | str | deals.DealNumber) -> Self:
        """PySolFC's Fourteen: three rows of twelve, a fourth row of twelve, then one
        card on each of the first four piles (card ``i`` of the deal goes to pile
        ``i % 12``)."""
        deal = deals.DealNumber.parse(number)
        return cls._lay_out(deals.shuffled(deal), deal.number)

    @classmethod
    def _lay_out(cls, cards: list[Card], number: int | None) -> Self:
        piles = tuple(tuple(cards[index::PILES]) for index in range(PILES))
        return cls._trusted(piles, (), number)

    @classmethod
    def _trusted(cls, piles: tuple[tuple[Card, ...], ...], removed: tuple[Card, ...], deal_number: int | None) -> Self:
        """A position the rules made (a deal, or a legal move from a valid position):
        the checks of ``__post_init__`` are skipped."""
        position = object.__new__(cls)
        object.__setattr__(position, "piles", piles)
        object.__setattr__(position, "removed", removed)
        object.__setattr__(position, "deal_number", deal_number)
        return position

    # -- rules -----------------------------------------------------------------------
    def tops(self) -> list[Card | None]:
        """The available card of each pile (``None`` for an empty pile)."""
        return [pile[-1] if pile else None for pile in self.piles]

    def pile_of(self, card: Card) -> int | None:
        """The index of the pile whose top card is ``card``, if any."""
        wanted = card.index
        for index, pile in enumerate(self.piles):
            if pile and pile[-1].index == wanted:
                return index
        return None

    def _piles_of(self, a: Card, b: Card) -> tuple[int | None, int | None]:
        """The piles whose top cards are ``a`` and ``b`` (``None`` where there is none)."""
        found: list[int | None] = [None, None]
        wanted = (a.index, b.index)
        for index, pile in enumerate(self.piles):
            if pile:
                top = pile[-1].index
                if top == wanted[0]:
                    found[0] = index
                elif top == wanted[1]:
                    found[1] = index
        return found[0], found[1]

    def legal_moves(self) -> list[FourteenMove]:
        """Every pair of available cards that makes 14, by their piles' numbers
        (lower pile first, then the other pile)."""
        tops = self.tops()
        moves = []
        for i, a in enumerate(tops):
            if a is None:
                continue
            for b in tops[i + 1 :]:
                if b is not None and a.rank + b.rank == SUM:
                    moves.append(FourteenMove(a, b))
        return moves

    def is_legal(self, move: Move) -> bool:
        """Both cards are available (on top of two piles) and add up to 14."""
        cards = getattr(move, "cards", None)
        if cards is None or cards[0] == cards[1] or not pairs(*cards):
            return False
        i, j = self._piles_of(*cards)
        return i is not None and j is not None

    def why_illegal(self, move: Move) -> str:
        cards = getattr(move, "cards", None)
        if cards is None:
            return f"{move} is not a Fourteen Out move"
        a, b = cards
        if a == b:
            return f"a move removes two different cards, not {a} twice"
        for card in (a, b):
            if self.pile_of(card) is None:
                return f"{card} is not available: only the top card of a pile can be removed"
        return f"{a} and {b} add up to {a.rank + b.rank}, not {SUM} (Ace 1, Jack 11, Queen 12, King 13)"

    def apply(self, move: FourteenMove) -> Self:  # type: ignore[override]  # only its own moves: see Position.apply
        i, j = self._piles_of(move.first, move.second)
        if i is None or j is None:
            raise IllegalMoveError(self.why_illegal(move))
        piles = list(self.piles)
        piles[i] = piles[i][:-1]
        piles[j] = piles[j][:-1]
        return self._trusted(tuple(piles), self.removed + move.cards, self.deal_number)

    def parse_move(self, text: str) -> FourteenMove:
        """The two cards (``KH+AC``) or two pile numbers, 1 to 12 (``3+7``, ``3 7``).

        >>> position = FourteenOut.deal(1)
        >>> position.parse_move("1+11")
        FourteenMove.from_text('8C+6S')
        >>> position.parse_move("1+13")
        Traceback (most recent call last):
        ...
        winnable.errors.ParseError: no pile 13: piles are numbered 1 to 12
        """
        move = _MOVES.get(text)
        if move is not None:  # the usual spelling, as the engine's lines write it
            return move
        parts = text.replace("+", " ").split() if isinstance(text, str) else []
        if len(parts) == 2 and all(part.removeprefix("p").isdigit() for part in parts):
            cards = []
            for part in parts:
                pile = int(part.removeprefix("p"))
                if not 1 <= pile <= PILES:
                    raise ParseError(f"no pile {pile}: piles are numbered 1 to {PILES}")
                if not self.piles[pile - 1]:
                    raise IllegalMoveError(f"pile {pile} is empty")
                cards.append(self.piles[pile - 1][-1])
            return FourteenMove(cards[0], cards[1])
        return FourteenMove.from_text(text)

    def is_won(self) -> bool:
        return not any(self.piles)

    def cards_left(self) -> int:
        return sum(len(pile) for pile in self.piles)

    def cards_total(self) -> int:
        """The 52 cards dealt."""
        return CARDS

    # -- notation --------------------------------------------------------------------
    def to_text(self) -> str:
        """Winnable's notation: the cards removed (two by two, in order), then one line a
        pile, bottom card first; ``-`` for an empty pile.

        >>> print(FourteenOut.deal(1).play("6S+8C").to_text(), end="")
        Removed: 8C 6S
         1: JD AD 4C 8H
         2: 2D QC 5C 2C 9C
         3: 9H KH TS JH 2H
         4: JC 3H QH 7D 6H
         5: 5D 2S 4H 6D
         6: 7H KS AC 8S
         7: 7C 9D 4D 8D
         8: 5H QD 7S QS
         9: KD JS 3S 6C
        10: KC AS TD 3D
        11: 9S AH 4S
        12: 5S 3C TH TC
        """
        lines = ["Removed: " + (format_cards(self.removed) or "-")]
        lines += [f"{index + 1:2}: {format_cards(pile) or '-'}" for index, pile in enumerate(self.piles)]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Self:
        r"""Read :meth:`to_text`'s notation (the ``Removed:`` line may be left out when
        nothing is removed). The position must hold the 52 cards of one deck.

        >>> FourteenOut.from_text("Removed: KH QC\n" + "-\n" * 12)
        Traceback (most recent call last):
        ...
        winnable.errors.ParseError: KH and QC were removed together but add up to 25, not 14
        """
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        removed: tuple[Card, ...] = ()
        if lines and lines[0].lower().startswith("removed:"):
            body = lines.pop(0).split(":", 1)[1].strip()
            removed = () if body in ("", "-") else tuple(parse_cards(body))
        piles = []
        for line in lines:
            label, sep, rest = line.partition(":")
            body = (rest if sep else label).strip()
            piles.append(() if body in ("-", "") else tuple(parse_cards(body)))
        position = cls(tuple(piles), removed)
        position.check_whole()
        return position

    def check_whole(self) -> None:
        """Raise :class:`ParseError` unless the piles and the removed cards hold the 52
        cards of one deck."""
        cards = {card for pile in self.piles for card in pile} | set(self.removed)
        missing = [Card.from_index(index) for index in range(CARDS) if Card.from_index(index) not in cards]
        if missing:
            more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
            raise ParseError(f"not a whole deck: {format_cards(missing[:6])}{more} missing from the piles and the removed cards")

    def to_json(self) -> dict[str, Any]:
        """The table as JSON.

        >>> data = FourteenOut.deal(1).to_json()
        >>> data["piles"][0], data["removed"], data["cards_left"]
        (['JD', 'AD', '4C', '8H', '6S'], [], 52)
        """
        return {
            "game": self.game_id,
            "deal": self.deal_number,
            "piles": [[str(card) for card in pile] for pile in self.piles],
            "removed": [str(card) for card in self.removed],
            "cards_left": self.cards_left(),
            "won": self.is_won(),
            "lost": self.is_lost(),
        }

    def moved_card(self, move: Move) -> Card | None:
        """The first card of the pair the move removes."""
        cards = getattr(move, "cards", None)
        return None if cards is None else cards[0]

    # -- search ----------------------------------------------------------------------
    def engine_search(
        self, nodes: int | None, seconds: float | None, *, short: bool = True, memory_mb: int | None = None
    ) -> tuple[str, list[str], int]:
        """The engine's exact search; its line (pairs of piles) is turned into cards by
        following it, and :func:`winnable.solver.solve` replays it."""
        from winnable import _engine

        piles = [[card.index for card in pile] for pile in self.piles]
        status, pile_line, positions = _engine.fourteen_solve(piles, nodes, seconds)
        heights = [len(pile) for pile in self.piles]
        line = []
        for i, j in zip(pile_line[::2], pile_line[1::2]):
            if not (0 <= i < PILES and 0 <= j < PILES) or i == j or not heights[i] or not heights[j]:
                line.append(f"{i + 1}+{j + 1}")  # refused by the replay, never trusted
                break
            heights[i] -= 1
            heights[j] -= 1
            a, b = self.piles[i][heights[i]], self.piles[j][heights[j]]
            move = _PAIRS.get((a.index, b.index))
            line.append(str(move) if move is not None else f"{a}+{b}")  # not a pair: refused by the replay
        return status, line, positions
