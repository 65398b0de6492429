"""The free-cell family's table: the columns, cells and foundations of a position, the
checks that it holds one deck, and what the rules let go where.

:class:`FreeCellTable` is the base of :class:`~winnable.freecell.FreeCellFamily`, which
deals and moves (``winnable.freecell``); its notations are in
:mod:`winnable.freecell.notation`, the engine's glue in :mod:`winnable.freecell.engine`.

>>> from winnable.cards import Card
>>> from winnable.freecell import Penguin
>>> table = Penguin.deal(1)  # the beak is a Jack: foundations from J, ranks wrap K to A
>>> table.base_rank, table.free_cells(), table.run_limit(False)
(Rank.JACK, 7, 8)
>>> table.builds_on(Card.from_text("KH"), Card.from_text("AH")), table.builds_on(Card.from_text("JH"), Card.from_text("QH"))
(True, False)
>>> table.fills_empty_column(Card.from_text("TS")), table.fills_empty_column(Card.from_text("KS"))
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Self, cast

from winnable.cards import Card, Rank, Suit
from winnable.errors import ParseError
from winnable.freecell.moves import CELL_INDEX, CELL_LETTERS, COLUMN_DIGITS, COLUMN_INDEX, FreeCellMove
from winnable.game import Move, Position

_ON_TABLES: dict[tuple[type[FreeCellTable], Rank], bytes] = {}


@dataclass(frozen=True, slots=True)
class FreeCellTable(Position):
    """A position of the free-cell family: the cards where they lie, and what may go where
    (the building rules, the run limit, the foundations). The class attributes are the
    rules; :class:`~winnable.freecell.FreeCellFamily` adds the moves.

    ``columns`` hold their cards deepest first (the last card is playable); ``cells``
    hold a card or ``None``; ``foundations`` count the cards on each suit's foundation
    (suits C D H S), which build up from ``base_rank``. ``auto`` lists the automatic
    moves that the last move (or the deal) made, as ``(card, from)`` pairs; it is not
    part of the position's identity.
    """

    columns: tuple[tuple[Card, ...], ...]
    cells: tuple[Card | None, ...]
    foundations: tuple[int, ...]  # four, one a suit (checked in __post_init__)
    base_rank: Rank
    deal_number: int | None = field(default=None, compare=False)
    auto: tuple[tuple[Card, str], ...] = field(default=(), compare=False)

    family = "freecell"
    move_type = FreeCellMove
    FORMATS = ("text", "fcs")

    COLUMNS: ClassVar[int] = 8
    CELLS: ClassVar[int] = 4
    CELL_NAME: ClassVar[str] = "free cell"
    """What the game calls its cells (Penguin: flippers), for what is said of a move."""
    BUILD: ClassVar[str] = "alternate"
    WRAP: ClassVar[str] = "none"
    EMPTY_COLUMN: ClassVar[str] = "any"
    RUNS: ClassVar[str] = "supermove"
    BASE_RANK: ClassVar[Rank | None] = Rank.ACE
    AUTO_BEAK: ClassVar[bool] = False
    LAYOUT: ClassVar[str] = "freecell"
    """How a deal is laid out: ``freecell``, ``eight-off`` or ``penguin``."""

    def __post_init__(self) -> None:
        name = self.title
        if len(self.columns) != self.COLUMNS:
            raise ParseError(f"{name} has {self.COLUMNS} columns, not {len(self.columns)}")
        if len(self.cells) != self.CELLS:
            raise ParseError(f"{name} has {self.CELLS} free cells, not {len(self.cells)}")
        if len(self.foundations) != 4 or any(not 0 <= count <= 13 for count in self.foundations):
            raise ParseError("four foundations of 0 to 13 cards each")
        if self.BASE_RANK is not None and self.base_rank != self.BASE_RANK:
            raise ParseError(f"{name}'s foundations start from {self.BASE_RANK.char}, not {Rank(self.base_rank).char}")
        cards = [card for column in self.columns for card in column] + [card for card in self.cells if card is not None]
        cards += self.foundation_cards()
        if len(set(cards)) != len(cards):
            twice = sorted({str(card) for card in cards if cards.count(card) > 1})
            raise ParseError(f"a card appears twice: {' '.join(twice)}")
        if len(cards) != 52:
            missing = sorted(set(Card.from_index(i) for i in range(52)) - set(cards))
            raise ParseError(f"cards missing from the position: {' '.join(str(card) for card in missing)}")

    @classmethod
    def _make(
        cls,
        columns: tuple[tuple[Card, ...], ...],
        cells: tuple[Card | None, ...],
        foundations: tuple[int, ...],
        base_rank: Rank,
        deal_number: int | None,
        auto: tuple[tuple[Card, str], ...] = (),
    ) -> Self:
        """Build a position known to be consistent, without the checks (fast replay)."""
        position = object.__new__(cls)
        _SET_COLUMNS(position, columns)
        _SET_CELLS(position, cells)
        _SET_FOUNDATIONS(position, foundations)
        _SET_BASE(position, base_rank)
        _SET_DEAL(position, deal_number)
        _SET_AUTO(position, auto)
        return position

    # -- what may go where ------------------------------------------------------------
    def shifted(self, rank: Rank) -> int:
        """A rank's place counted from the base rank: 0 for the base, 12 for the rank below."""
        return (rank - self.base_rank) % 13

    def builds_on(self, card: Card, target: Card) -> bool:
        """May ``card`` go onto ``target`` in the tableau (ranks and suits only)?"""
        if self.BUILD == "suit":
            if card.suit != target.suit:
                return False
        elif card.is_red == target.is_red:
            return False
        if self.WRAP == "full":
            return card.rank.next_in_circle == target.rank
        if self.WRAP == "restricted" and card.rank == self.base_rank:
            return False
        return self.shifted(card.rank) + 1 == self.shifted(target.rank)

    def _on(self) -> bytes:
        """``builds_on`` for every pair of cards, by card index (the fast path)."""
        key = (type(self), self.base_rank)
        table = _ON_TABLES.get(key)
        if table is None:
            cards = [Card.from_index(i) for i in range(52)]
            table = bytes(self.builds_on(a, b) for a in cards for b in cards)
            _ON_TABLES[key] = table
        return table

    def _fits(self, card: Card, target: Card) -> bool:
        return self._on()[(card.suit * 13 + card.rank - 1) * 52 + target.suit * 13 + target.rank - 1] == 1

    def fills_empty_column(self, card: Card) -> bool:
        """May ``card`` (alone or as the deepest card of a run) go to an empty column?"""
        if self.WRAP == "restricted" and card.rank == self.base_rank:
            return False
        if self.EMPTY_COLUMN == "below-base":
            return card.rank == self.base_rank.previous_in_circle
        return True

    def foundation_accepts(self, card: Card) -> bool:
        count = self.foundations[card.suit]
        return count < 13 and (card.rank - self.base_rank) % 13 == count

    def free_cells(self) -> int:
        return sum(card is None for card in self.cells)

    def empty_columns(self) -> int:
        return sum(not column for column in self.columns)

    def run_limit(self, to_empty_column: bool) -> int:
        """The longest run that may move at once: the supermove formula, or empty cells + 1
        where empty columns do not count (``docs/RULES.md#relatives-named-in-the-seeds``)."""
        if self.RUNS == "unlimited":
            return 52
        if self.RUNS == "cells":
            return self.free_cells() + 1
        empty = max(0, self.empty_columns() - (1 if to_empty_column else 0))
        return (self.free_cells() + 1) << empty  # (cells + 1) * 2**empty

    def run_length(self, column: tuple[Card, ...]) -> int:
        """How many cards at the end of ``column`` form a run that may move together."""
        if not column:
            return 0
        length = 1
        fits = self._fits
        while length < len(column) and fits(column[-length], column[-length - 1]):
            length += 1
        return length

    def moved_card(self, move: Move) -> Card | None:
        """The card a move takes: the deepest card of a run, or a cell's card.

        >>> from winnable.freecell import FreeCell
        >>> position = FreeCell.deal(1)  # column 2 ends 8S 9C
        >>> position.moved_card(FreeCellMove("2", "5", 2)), position.play("2a").moved_card(FreeCellMove("a", "b"))
        (Card.from_text('8S'), Card.from_text('9C'))
        """
        move = cast(FreeCellMove, move)  # a free-cell position's moves (see Position.apply)
        source, count = move.source, move.count
        if source in COLUMN_DIGITS:
            column = self.columns[COLUMN_DIGITS.index(source)]
            return column[-count] if len(column) >= count else None
        return self.cells[CELL_LETTERS.index(source)]

    def _card_at(self, token: str) -> Card | None:
        index = COLUMN_INDEX.get(token)
        if index is not None:
            if index >= self.COLUMNS:
                return None
            column = self.columns[index]
            return column[-1] if column else None
        index = CELL_INDEX[token]
        return self.cells[index] if index < self.CELLS else None

    # -- the automatic moves ----------------------------------------------------------
    def _auto_moves(self, columns: list[tuple[Card, ...]], foundations: list[int]) -> tuple[tuple[Card, str], ...]:
        """The beak goes to its empty foundation as soon as it is playable (in place)."""
        done = []
        for i, column in enumerate(columns):
            if column and column[-1].rank == self.base_rank and foundations[column[-1].suit] == 0:
                card = column[-1]
                columns[i] = column[:-1]
                foundations[card.suit] = 1
                done.append((card, f"column:{i}"))
        return tuple(done)

    def _normalised(self) -> Self:
        """Apply the automatic moves that the rules would already have made."""
        if not self.AUTO_BEAK:
            return self
        columns, foundations = list(self.columns), list(self.foundations)
        auto = self._auto_moves(columns, foundations)
        if not auto:
            return self
        return self._make(tuple(columns), self.cells, tuple(foundations), self.base_rank, self.deal_number, auto)

    # -- the score -----------------------------------------------------------------------
    def is_won(self) -> bool:
        return sum(self.foundations) == 52

    def cards_left(self) -> int:
        return 52 - sum(self.foundations)

    def cards_total(self) -> int:
        """One deck: 52 cards (the beak on its foundation counts as brought home)."""
        return 52

    def score(self) -> int:
        """Cards on the foundations: the partial score of a lost game."""
        return sum(self.foundations)

    def foundation_cards(self) -> list[Card]:
        cards = []
        for suit in Suit:
            for step in range(self.foundations[suit]):
                cards.append(Card(Rank((self.base_rank - 1 + step) % 13 + 1), suit))
        return cards

    def foundation_tops(self) -> list[Card | str]:
        """The top card of each foundation (suits C D H S), ``"-"`` when empty."""
        tops: list[Card | str] = []
        for suit in Suit:
            count = self.foundations[suit]
            tops.append(Card(Rank((self.base_rank - 2 + count) % 13 + 1), suit) if count else "-")
        return tops


# Slot setters for `_make` (they bypass the frozen dataclass's __setattr__): the slots'
# member descriptors, read from the class's namespace (typed: the checker sees fields).
_Setter = Callable[[FreeCellTable, Any], None]
_SET_COLUMNS: _Setter = vars(FreeCellTable)["columns"].__set__
_SET_CELLS: _Setter = vars(FreeCellTable)["cells"].__set__
_SET_FOUNDATIONS: _Setter = vars(FreeCellTable)["foundations"].__set__
_SET_BASE: _Setter = vars(FreeCellTable)["base_rank"].__set__
_SET_DEAL: _Setter = vars(FreeCellTable)["deal_number"].__set__
_SET_AUTO: _Setter = vars(FreeCellTable)["auto"].__set__
