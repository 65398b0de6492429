"""The free-cell family: Penguin and its variants, FreeCell, Eight Off and Baker's Game.

The rules are ``docs/RULES.md#penguin`` and ``docs/RULES.md#relatives-named-in-the-seeds``.

One set of rules plays every game of the family; each game is a subclass that changes a
few class attributes (python-chess style):

* ``COLUMNS`` and ``CELLS``: the tableau columns and the free cells (Penguin's
  *flippers*), one card per cell;
* ``BUILD``: columns build down ``"suit"`` (same suit) or ``"alternate"`` (colours);
* ``WRAP``: ``"none"`` (a King never goes on an Ace), ``"restricted"`` (Penguin: ranks
  wrap from the base rank, but a base-rank card never goes onto the tableau) or
  ``"full"`` (PySolFC's Penguin: K on A everywhere, base cards included);
* ``EMPTY_COLUMN``: what fills an empty column, ``"any"`` card (or run) or only a card
  one rank ``"below-base"`` (Penguin; Eight Off's Kings, since its base is the Ace);
* ``RUNS``: ``"supermove"`` (a run of cards moves if its length is at most
  (empty cells + 1) x 2^(empty columns not counting the destination)), ``"cells"``
  (at most empty cells + 1: Eight Off, as PySolFC plays it) or ``"unlimited"``;
* ``BASE_RANK``: the foundations' base rank (the Ace), or ``None`` when the *beak*, the
  first card of the deal, sets it (Penguin);
* ``AUTO_BEAK``: the beak goes to its foundation by itself as soon as it is the playable
  card of its column (the restricted wrap of ``docs/RULES.md#penguin``).

Foundations build up in suit from the base rank, wrapping K to A, 13 cards each.

>>> position = Penguin.deal(1)
>>> position.base_rank, [str(card) for card in position.foundation_tops()]
(Rank.JACK, ['JC', 'JD', '-', 'JS'])
>>> " ".join(str(card) for card in position.columns[0])
'JH KD 3H 3C 4D 2C 3D'
>>> [str(move) for move in position.legal_moves()][:4]
['1a', '1b', '1c', '1d']
>>> after = position.play("7a")
>>> after.cells[0], after.columns[6][-1]
(Card.from_text('6H'), Card.from_text('6C'))
>>> type(position).from_text(after.to_text()) == after
True

The engine (``engine/src/freecell/``) solves every preset: soft threads (depth-first
scans over *meta-moves*, a card onto a parent with the cards in the way parked first,
each scan with its own move order, run in turn) find most wins in a few hundred
positions; exact searches over every move these rules allow (single cards, and runs of
every length the run limit allows) prove a deal lost only after the whole reachable
space is exhausted. It plays the safe moves to the foundations itself (a card nothing
can be built on any more, or nothing that could not go home instead; never the beak
under the full wrap) and treats positions that differ only by the order of columns or
cells as one (128-bit keys); it never moves a card from a cell to another. Its winning
line lists every move, the automatic ones included, except those the rules make
themselves (the beak); :func:`winnable.solver.solve` replays it here.

Move notation: a source and a target, each a column (``1`` to ``8``), a cell (``a`` to
``h``) or ``o`` for the foundations (out), then ``x`` and a count when a run of several
cards moves: ``3a`` (column 3 to cell a), ``a5``, ``ab`` (cell a to cell b), ``2o``,
``48x3`` (three cards from column 4 onto column 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Self

from winnable import deals
from winnable.cards import Card, Rank, Suit, parse_cards
from winnable.errors import EngineError, IllegalMoveError, ParseError
from winnable.game import Move, Position

_ON_TABLES: dict = {}

CELL_LETTERS = "abcdefgh"
COLUMN_DIGITS = "12345678"
FOUNDATION = "o"
_COLUMN_INDEX = {digit: index for index, digit in enumerate(COLUMN_DIGITS)}
_CELL_INDEX = {letter: index for index, letter in enumerate(CELL_LETTERS)}

# -- moves ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class FreeCellMove(Move):
    """Move ``count`` cards from ``source`` to ``target``.

    Each end is a token: a column digit (``"1"``..``"8"``), a cell letter
    (``"a"``..``"h"``) or ``"o"`` (the foundations, only as a target).

    >>> FreeCellMove.from_text("48x3")
    FreeCellMove.from_text('48x3')
    >>> FreeCellMove.from_text("3A").target
    'a'
    """

    source: str
    target: str
    count: int = 1

    @classmethod
    def from_text(cls, text: str) -> Self:
        return _parse_move(cls, text)

    def __str__(self) -> str:
        suffix = f"x{self.count}" if self.count != 1 else ""
        return f"{self.source}{self.target}{suffix}"


@lru_cache(maxsize=4096)
def _parse_move(cls: type, text: str) -> FreeCellMove:
    cleaned = text.strip().lower()
    body, sep, count_text = cleaned.partition("x")
    count = 1
    if sep:
        if not count_text.isdigit() or int(count_text) < 1:
            raise ParseError(f"bad card count in move {text!r} (write 48x3 for three cards)")
        count = int(count_text)
    if len(body) != 2:
        raise ParseError(f"not a move: {text!r} (write source and target, like 3a, a5, 2o or 48x3)")
    source, target = body[0], body[1]
    if source not in COLUMN_DIGITS + CELL_LETTERS:
        raise ParseError(f"bad source {source!r} in {text!r}: a column 1-8 or a cell a-h")
    if target not in COLUMN_DIGITS + CELL_LETTERS + FOUNDATION:
        raise ParseError(f"bad target {target!r} in {text!r}: a column 1-8, a cell a-h or o (foundation)")
    if count > 1 and (source not in COLUMN_DIGITS or target not in COLUMN_DIGITS):
        raise ParseError(f"only column-to-column moves carry several cards: {text!r}")
    if source == target:
        raise ParseError(f"a move needs two different places: {text!r}")
    return cls(source, target, count)


# -- positions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FreeCellFamily(Position):
    """A position of the free-cell family. The class attributes are the rules.

    ``columns`` hold their cards deepest first (the last card is playable); ``cells``
    hold a card or ``None``; ``foundations`` count the cards on each suit's foundation
    (suits C D H S), which build up from ``base_rank``. ``auto`` lists the automatic
    moves that the last move (or the deal) made, as ``(card, from)`` pairs; it is not
    part of the position's identity.
    """

    columns: tuple[tuple[Card, ...], ...]
    cells: tuple[Card | None, ...]
    foundations: tuple[int, int, int, int]
    base_rank: Rank
    deal_number: int | None = field(default=None, compare=False)
    auto: tuple[tuple[Card, str], ...] = field(default=(), compare=False)

    family = "freecell"
    move_type = FreeCellMove
    FORMATS = ("text", "fcs")

    COLUMNS: ClassVar[int] = 8
    CELLS: ClassVar[int] = 4
    BUILD: ClassVar[str] = "alternate"
    WRAP: ClassVar[str] = "none"
    EMPTY_COLUMN: ClassVar[str] = "any"
    RUNS: ClassVar[str] = "supermove"
    BASE_RANK: ClassVar[Rank | None] = Rank.ACE
    AUTO_BEAK: ClassVar[bool] = False
    LAYOUT: ClassVar[str] = "freecell"
    """How a deal is laid out: ``freecell``, ``eight-off`` or ``penguin``."""
    FCS_OPTIONS: ClassVar[str] = "-g freecell"
    """fc-solve's options for this game (its board from :meth:`to_fcs`)."""
    ENGINE_PRESET: ClassVar[str] = "default"
    """The engine's search preset: ``default`` for games where nearly every deal is won
    (long soft threads first), ``mixed`` where many are lost (exact searches sooner);
    ``winnable._engine.freecell_presets()`` describes them."""

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
    def _make(cls, columns, cells, foundations, base_rank, deal_number, auto=()) -> Self:
        """Build a position known to be consistent, without the checks (fast replay)."""
        position = object.__new__(cls)
        _SET_COLUMNS(position, columns)
        _SET_CELLS(position, cells)
        _SET_FOUNDATIONS(position, foundations)
        _SET_BASE(position, base_rank)
        _SET_DEAL(position, deal_number)
        _SET_AUTO(position, auto)
        return position

    # -- dealing ---------------------------------------------------------------------
    @classmethod
    def deal(cls, number: int | str | deals.DealNumber) -> Self:
        """PySolFC's layout of deal ``number`` for this game (``"ms146692"``: Microsoft's
        deal 146692, as PySolFC deals it)."""
        deal = deals.DealNumber.parse(number)
        return cls._lay_out(deals.shuffled(deal), deal.number)

    @classmethod
    def _lay_out(cls, cards: list[Card], number: int | None) -> Self:
        cells: list[Card | None] = [None] * cls.CELLS
        auto: tuple[tuple[Card, str], ...] = ()
        foundations = [0, 0, 0, 0]
        if cls.LAYOUT == "penguin":
            # The top card sets the base rank; the four base cards come off first: three
            # go to their foundations, the fourth (the beak) starts column 1.
            base = cards[0].rank if cls.BASE_RANK is None else cls.BASE_RANK
            bases = [card for card in cards if card.rank == base]
            rest = [card for card in cards if card.rank != base]
            for card in bases[:3]:
                foundations[card.suit] = 1
            auto = tuple((card, "deck") for card in bases[:3])
            cards = bases[3:] + rest
        else:
            base = Rank.ACE
        columns: list[list[Card]] = [[] for _ in range(cls.COLUMNS)]
        tableau = cards
        if cls.LAYOUT == "eight-off":
            # Six rows of eight, then four cards into every other cell.
            tableau, extra = cards[:48], cards[48:]
            for slot, card in zip(range(0, cls.CELLS, 2), extra):
                cells[slot] = card
        for index, card in enumerate(tableau):
            columns[index % cls.COLUMNS].append(card)
        return cls(tuple(tuple(column) for column in columns), tuple(cells), tuple(foundations), base, number, auto)

    # -- the rules ------------------------------------------------------------------
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
        return (self.free_cells() + 1) * 2**empty

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

        >>> position = FreeCell.deal(1)  # column 2 ends 8S 9C
        >>> position.moved_card(FreeCellMove("2", "5", 2)), position.play("2a").moved_card(FreeCellMove("a", "b"))
        (Card.from_text('8S'), Card.from_text('9C'))
        """
        source, count = move.source, move.count  # type: ignore[attr-defined]
        if source in COLUMN_DIGITS:
            column = self.columns[COLUMN_DIGITS.index(source)]
            return column[-count] if len(column) >= count else None
        return self.cells[CELL_LETTERS.index(source)]

    def _card_at(self, token: str) -> Card | None:
        index = _COLUMN_INDEX.get(token)
        if index is not None:
            if index >= self.COLUMNS:
                return None
            column = self.columns[index]
            return column[-1] if column else None
        index = _CELL_INDEX[token]
        return self.cells[index] if index < self.CELLS else None

    def legal_moves(self) -> list[FreeCellMove]:
        """Every legal move: from each column, then each cell, to the foundation, each
        column and each empty cell; runs of every length the rules allow.

        >>> [str(m) for m in FreeCell.deal(1).play("1a").legal_moves() if m.source == "a"]
        ['ab', 'ac', 'ad']
        """
        moves: list[FreeCellMove] = []
        empty_cells = [CELL_LETTERS[i] for i, card in enumerate(self.cells) if card is None]
        limits = (self.run_limit(False), self.run_limit(True))
        for i, column in enumerate(self.columns):
            if not column:
                continue
            source = COLUMN_DIGITS[i]
            top = column[-1]
            if self.foundation_accepts(top):
                moves.append(FreeCellMove(source, FOUNDATION))
            run = self.run_length(column)
            for j, other in enumerate(self.columns):
                if j == i:
                    continue
                if other:
                    target = other[-1]
                    for count in range(1, min(run, limits[0]) + 1):
                        if self._fits(column[-count], target):
                            moves.append(FreeCellMove(source, COLUMN_DIGITS[j], count))
                else:
                    for count in range(1, min(run, limits[1], len(column)) + 1):
                        if self.fills_empty_column(column[-count]):
                            moves.append(FreeCellMove(source, COLUMN_DIGITS[j], count))
            moves.extend(FreeCellMove(source, cell) for cell in empty_cells)
        for i, card in enumerate(self.cells):
            if card is None:
                continue
            source = CELL_LETTERS[i]
            if self.foundation_accepts(card):
                moves.append(FreeCellMove(source, FOUNDATION))
            for j, other in enumerate(self.columns):
                if (self._fits(card, other[-1]) if other else self.fills_empty_column(card)):
                    moves.append(FreeCellMove(source, COLUMN_DIGITS[j]))
            moves.extend(FreeCellMove(source, cell) for cell in empty_cells)
        return moves

    def is_legal(self, move: FreeCellMove) -> bool:
        """Check one move directly (the same answer as ``move in legal_moves()``)."""
        return self.why_illegal(move) is None

    def why_illegal(self, move: Move) -> str | None:  # type: ignore[override]
        """A sentence on why ``move`` is refused, or ``None`` if it is legal."""
        source, target, count = move.source, move.target, move.count  # type: ignore[attr-defined]
        card = self._card_at(source)
        if card is None:
            where = "column" if source in COLUMN_DIGITS else "cell"
            return f"no card to move: {where} {source} is empty or does not exist"
        if target == FOUNDATION:
            if count != 1:
                return "cards go to the foundations one at a time"
            if self.foundation_accepts(card):
                return None
            return f"{card} does not go on its foundation now ({self._foundation_wants(card.suit)})"
        if target in CELL_LETTERS:
            index = CELL_LETTERS.index(target)
            if count != 1:
                return "a free cell takes one card"
            if index >= self.CELLS:
                return f"{self.title} has {self.CELLS} free cells (a-{CELL_LETTERS[self.CELLS - 1]})" if self.CELLS else f"{self.title} has no free cells"
            if self.cells[index] is not None:
                return f"cell {target} is not empty"
            return None
        index = COLUMN_DIGITS.index(target)
        if index >= self.COLUMNS:
            return f"{self.title} has {self.COLUMNS} columns"
        destination = self.columns[index]
        if count > 1:
            if source not in COLUMN_DIGITS:
                return "a cell holds one card"
            column = self.columns[COLUMN_DIGITS.index(source)]
            run = self.run_length(column)
            if count > run:
                return f"the last {count} cards of column {source} are not a run"
            limit = self.run_limit(not destination)
            if count > limit:
                return f"only {limit} cards may move together now (free cells and empty columns)"
            card = column[-count]
        if destination:
            if self._fits(card, destination[-1]):
                return None
            return f"{card} does not go on {destination[-1]} ({self._build_rule()})"
        if self.fills_empty_column(card):
            return None
        return f"an empty column takes {self._empty_rule()}, not {card}"

    def _foundation_wants(self, suit: Suit) -> str:
        count = self.foundations[suit]
        if count == 13:
            return "the foundation is full"
        wanted = Card(Rank((self.base_rank - 1 + count) % 13 + 1), suit)
        return f"it needs {wanted} next"

    def _build_rule(self) -> str:
        how = "in suit" if self.BUILD == "suit" else "in alternate colours"
        wrap = {"none": "no King on an Ace", "restricted": "wrapping, but no base card on the tableau", "full": "K on A allowed"}[self.WRAP]
        return f"columns build down {how}, {wrap}"

    def _empty_rule(self) -> str:
        if self.EMPTY_COLUMN == "below-base":
            return f"only a {self.base_rank.previous_in_circle.name.title()} (one rank below the base) or a run from one"
        return "any card or run"

    def play(self, move: Move | str) -> Self:
        """Check ``move`` against the rules and return the position after it.

        >>> FreeCell.deal(1).play("1o")
        Traceback (most recent call last):
        ...
        winnable.errors.IllegalMoveError: 6S does not go on its foundation now (it needs AS next)
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        if move.target == FOUNDATION and move.count == 1:
            # The commonest move, checked inline.
            card = self._card_at(move.source)
            if card is not None:
                count = self.foundations[card.suit]
                if count < 13 and (card.rank - self.base_rank) % 13 == count:
                    return self.apply(move)
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        return self.apply(move)

    def parse_move(self, text: str) -> FreeCellMove:
        return _checked_move(type(self), text)

    @classmethod
    def _check_move(cls, text: str) -> FreeCellMove:
        move = _parse_move(cls.move_type, text)
        for token in (move.source, move.target):
            if token in COLUMN_DIGITS and COLUMN_DIGITS.index(token) >= cls.COLUMNS:
                raise ParseError(f"no column {token}: {cls.title} has columns 1-{cls.COLUMNS}")
            if token in CELL_LETTERS and CELL_LETTERS.index(token) >= cls.CELLS:
                cells = f"cells a-{CELL_LETTERS[cls.CELLS - 1]}" if cls.CELLS else "no free cells"
                raise ParseError(f"no cell {token}: {cls.title} has {cells}")
        return move

    def apply(self, move: FreeCellMove) -> Self:
        columns, cells, foundations = self.columns, self.cells, self.foundations
        source, target, count = move.source, move.target, move.count
        i = _COLUMN_INDEX.get(source)
        if i is not None:
            column = columns[i]
            moving = column[-count:]
            columns = columns[:i] + (column[:-count],) + columns[i + 1 :]
        else:
            i = _CELL_INDEX[source]
            moving = (cells[i],)
            cells = cells[:i] + (None,) + cells[i + 1 :]
        if target == FOUNDATION:
            suit = moving[0].suit
            foundations = foundations[:suit] + (foundations[suit] + 1,) + foundations[suit + 1 :]
        elif target in _CELL_INDEX:
            j = _CELL_INDEX[target]
            cells = cells[:j] + (moving[0],) + cells[j + 1 :]
        else:
            j = _COLUMN_INDEX[target]
            columns = columns[:j] + (columns[j] + moving,) + columns[j + 1 :]
        auto: tuple = ()
        if self.AUTO_BEAK:
            column_list, foundation_list = list(columns), list(foundations)
            auto = self._auto_moves(column_list, foundation_list)
            if auto:
                columns, foundations = tuple(column_list), tuple(foundation_list)
        return self._make(columns, cells, foundations, self.base_rank, self.deal_number, auto)

    def _auto_moves(self, columns: list, foundations: list) -> tuple[tuple[Card, str], ...]:
        """The beak goes to its empty foundation as soon as it is playable (in place)."""
        done = []
        for i, column in enumerate(columns):
            if column and column[-1].rank == self.base_rank and foundations[column[-1].suit] == 0:
                card = column[-1]
                columns[i] = column[:-1]
                foundations[card.suit] = 1
                done.append((card, f"column:{i}"))
        return tuple(done)

    # -- playing home by itself ----------------------------------------------------------
    def is_safe_home(self, card: Card) -> bool:
        """May ``card``, which its foundation accepts, go home without losing anything?

        True when no card still in play could ever be built on it: a base card (unless
        the wrap is full, where the rank below the base goes on it), any card when
        columns build in suit (the card that would go on it is already home), and with
        alternate colours a card whose two opposite-colour foundations hold the rank
        below it already. The web page plays them for the player when "safe moves home"
        is on; the engine plays them by itself while it searches, and in alternate colours
        a few more (Horne's rule: a card whose opposite colours hold rank - 2 and whose
        other suit of its colour holds rank - 3, since every card that could go on it
        could go home instead).

        >>> fresh = FreeCell.deal(1)  # nothing home yet
        >>> fresh.is_safe_home(Card.from_text("AH")), fresh.is_safe_home(Card.from_text("2H"))
        (True, False)
        >>> PySolFCPenguin.deal(1).is_safe_home(Card.from_text("JH"))  # a K may go on it
        False
        """
        shifted = self.shifted(card.rank)
        if shifted == 0:
            return self.WRAP != "full"
        if self.BUILD == "suit":
            return True
        opposite = (Suit.CLUBS, Suit.SPADES) if card.is_red else (Suit.DIAMONDS, Suit.HEARTS)
        return all(self.foundations[suit] >= shifted for suit in opposite)

    def safe_moves_home(self) -> list[FreeCellMove]:
        """The moves to the foundations that lose nothing (:meth:`is_safe_home`), from
        the columns then the cells.

        >>> [str(move) for move in FreeCell.deal(8).safe_moves_home()]  # two Aces on top
        ['5o', '8o']
        >>> FreeCell.deal(1).safe_moves_home()
        []
        """
        moves = []
        for i, column in enumerate(self.columns):
            if column and self.foundation_accepts(column[-1]) and self.is_safe_home(column[-1]):
                moves.append(FreeCellMove(COLUMN_DIGITS[i], FOUNDATION))
        for i, card in enumerate(self.cells):
            if card is not None and self.foundation_accepts(card) and self.is_safe_home(card):
                moves.append(FreeCellMove(CELL_LETTERS[i], FOUNDATION))
        return moves

    def finishing_line(self) -> list[FreeCellMove] | None:
        """When the rest of the game is a plain run home (every card left reaches its
        foundation by foundation moves alone), those moves, lowest cards first; else
        ``None``. A won position needs none: ``[]``.

        Playing a card home never stops another from going home, so trying the
        foundation moves greedily decides it.
        """
        position, line = self, []
        while not position.is_won():
            home = [move for move in position._moves_home()]
            if not home:
                return None
            move = min(home, key=lambda m: position.shifted(position._card_at(m.source).rank))
            line.append(move)
            position = position.apply(move)
        return line

    def _moves_home(self) -> list[FreeCellMove]:
        moves = [FreeCellMove(COLUMN_DIGITS[i], FOUNDATION) for i, column in enumerate(self.columns) if column and self.foundation_accepts(column[-1])]
        moves += [FreeCellMove(CELL_LETTERS[i], FOUNDATION) for i, card in enumerate(self.cells) if card is not None and self.foundation_accepts(card)]
        return moves

    def is_won(self) -> bool:
        return sum(self.foundations) == 52

    def is_lost(self) -> bool:
        return not self.is_won() and not self.legal_moves()

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

    # -- notation --------------------------------------------------------------------
    def to_text(self) -> str:
        """Winnable's notation: the base rank, the foundations' top cards (C D H S, ``-``
        when empty), the cells, then one line a column, deepest card first."""
        lines = [
            f"Base: {self.base_rank.char}",
            "Foundations: " + " ".join(str(top) for top in self.foundation_tops()),
            "Cells: " + (" ".join(str(card) if card else "-" for card in self.cells) or "none"),
        ]
        lines += [f"{i + 1}: " + (" ".join(str(card) for card in column) or "-") for i, column in enumerate(self.columns)]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Self:
        header: dict[str, str] = {}
        columns: list[tuple[Card, ...]] = []
        for raw in text.strip().splitlines():
            line = raw.strip()
            if not line:
                continue
            label, sep, rest = line.partition(":")
            key = label.strip().lower()
            if sep and key in ("base", "foundations", "cells"):
                header[key] = rest.strip()
                continue
            body = rest if sep and label.strip().isdigit() else line
            body = body.strip()
            columns.append(() if body in ("-", "") else tuple(parse_cards(body)))
        if "base" in header:
            base = Rank.from_char(header["base"])
        elif cls.BASE_RANK is not None:
            base = cls.BASE_RANK
        else:
            raise ParseError("a Penguin position names its base rank: 'Base: J'")
        foundations = [0, 0, 0, 0]
        tops = header.get("foundations", "").split()
        if len(tops) not in (0, 4):
            raise ParseError("the Foundations line lists four top cards (C D H S), '-' for an empty one")
        for suit, word in zip(Suit, tops):
            if word == "-":
                continue
            card = Card.from_text(word)
            if card.suit != suit:
                raise ParseError(f"foundation {suit.char} cannot hold {card} (order C D H S)")
            foundations[suit] = (card.rank - base) % 13 + 1
        cells_text = header.get("cells", "")
        cells = [None if word == "-" else Card.from_text(word) for word in cells_text.split() if word != "none"]
        cells += [None] * (cls.CELLS - len(cells))
        position = cls(tuple(columns), tuple(cells), tuple(foundations), base)
        return position._normalised()

    def _normalised(self) -> Self:
        """Apply the automatic moves that the rules would already have made."""
        if not self.AUTO_BEAK:
            return self
        columns, foundations = list(self.columns), list(self.foundations)
        auto = self._auto_moves(columns, foundations)
        if not auto:
            return self
        return self._make(tuple(columns), self.cells, tuple(foundations), self.base_rank, self.deal_number, auto)

    # fc-solve's board: ranks shifted so that the base rank is the Ace.
    def to_fcs(self) -> str:
        """fc-solve's board format, ranks shifted so that the base rank reads as an Ace
        (as PySolFC does for Penguin); play it with :attr:`FCS_OPTIONS`."""

        def shifted(card: Card) -> str:
            return Rank(self.shifted(card.rank) + 1).char + card.suit.char

        found = " ".join(f"{suit.char}-{'0' if not self.foundations[suit] else Rank(self.foundations[suit]).char}" for suit in (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES))
        lines = [f"Foundations: {found}"]
        if self.CELLS:
            lines.append("Freecells: " + " ".join(shifted(card) if card else "-" for card in self.cells))
        lines += [": " + " ".join(shifted(card) for card in column) for column in self.columns]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_fcs(cls, text: str, base_rank: Rank | None = None) -> Self:
        """Read fc-solve's board. Its ranks count from the base rank, which the board
        does not record: a Penguin board is read with ``base_rank`` (the Ace unless
        given, so the cards keep the ranks fc-solve sees), or the base named by a
        comment line ``# base J`` (which fc-solve itself does not accept)."""
        base = base_rank or cls.BASE_RANK or Rank.ACE
        columns: list[tuple[Card, ...]] = []
        cells: list[Card | None] = []
        foundations = [0, 0, 0, 0]
        rows = []
        for raw in text.splitlines():
            line = raw.strip()
            if line.startswith("#"):
                words = line[1:].split()
                if len(words) == 2 and words[0].lower() == "base":
                    base = Rank.from_char(words[1])
                continue
            rows.append(line)

        def unshift(word: str) -> Card:
            card = Card.from_text(word)
            return Card(Rank((card.rank - 1 + base - 1) % 13 + 1), card.suit)

        for line in rows:
            if not line:
                continue
            lower = line.lower()
            if lower.startswith("foundations:"):
                for word in line.split(":", 1)[1].split():
                    suit_char, _, rank_char = word.partition("-")
                    suit = Suit.from_char(suit_char)
                    foundations[suit] = 0 if rank_char == "0" else Rank.from_char(rank_char)
            elif lower.startswith("freecells:"):
                cells = [None if word == "-" else unshift(word) for word in line.split(":", 1)[1].split()]
            else:
                body = line[1:] if line.startswith(":") else line
                columns.append(tuple(unshift(word) for word in body.split()))
        if len(cells) > cls.CELLS:
            raise ParseError(f"{cls.title} has {cls.CELLS} free cells, the board {len(cells)}")
        cells += [None] * (cls.CELLS - len(cells))
        columns += [()] * max(0, cls.COLUMNS - len(columns))
        return cls(tuple(columns), tuple(cells), tuple(foundations), base)._normalised()

    def export(self, fmt: str = "text") -> str:
        if fmt == "fcs":
            return self.to_fcs()
        return Position.export(self, fmt)

    @classmethod
    def import_(cls, fmt: str, text: str) -> Self:
        if fmt == "fcs":
            return cls.from_fcs(text)
        return Position.import_.__func__(cls, fmt, text)

    # -- what the browser needs ---------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "deal": self.deal_number,
            "family": self.family,
            "columns": [[str(card) for card in column] for column in self.columns],
            "cells": [str(card) if card else None for card in self.cells],
            "foundations": [
                {"suit": suit.char, "cards": [str(card) for card in self.foundation_cards() if card.suit == suit]} for suit in Suit
            ],
            "base_rank": self.base_rank.char,
            "cards_left": self.cards_left(),
            "score": self.score(),
            "won": self.is_won(),
            "lost": self.is_lost(),
            "auto": [{"card": str(card), "from": where, "to": "foundation"} for card, where in self.auto],
            "run_limit": self.run_limit(False),
            "run_limit_to_empty": self.run_limit(True),
            "rules": {
                "columns": self.COLUMNS,
                "cells": self.CELLS,
                "build": self.BUILD,
                "wrap": self.WRAP,
                "empty_column": self.EMPTY_COLUMN,
                "runs": self.RUNS,
            },
        }

    # -- search ----------------------------------------------------------------------
    @classmethod
    def engine_rules(cls) -> Any:
        """The rules as the engine reads them: a ``winnable._engine.FreeCellRules``,
        named fields, made once per game.

        >>> FreeCell.engine_rules()
        FreeCellRules(columns=8, cells=4, build="alternate", wrap="none", empty_column="any", runs="supermove", auto_beak=False)
        """
        rules = cls.__dict__.get("_engine_rules")
        if rules is None:
            from winnable import _engine

            rules = _engine.FreeCellRules(
                columns=cls.COLUMNS,
                cells=cls.CELLS,
                build=cls.BUILD,
                wrap=cls.WRAP,
                empty_column=cls.EMPTY_COLUMN,
                runs=cls.RUNS,
                auto_beak=cls.AUTO_BEAK,
            )
            cls._engine_rules = rules
        return rules

    def engine_layout(self) -> tuple[list[list[int]], list[int], list[int], int]:
        """The position as the engine reads it: columns and cells of card bytes
        (``Card.index``, 255 for an empty cell), foundation counts, the base rank."""
        columns = [[card.index for card in column] for column in self.columns]
        cells = [card.index if card else 255 for card in self.cells]
        return columns, cells, list(self.foundations), int(self.base_rank)

    def engine_search(self, nodes: int | None, seconds: float | None, preset: str | None = None) -> tuple[str, list[str], int]:
        """The engine's answer with search ``preset`` (the game's :attr:`ENGINE_PRESET`
        unless given; ``winnable._engine.freecell_presets()`` lists them)."""
        from winnable import _engine

        preset = preset or self.ENGINE_PRESET
        try:
            status, line, positions = _engine.freecell_solve(self.engine_rules(), *self.engine_layout(), nodes, seconds, preset)
        except ValueError as error:
            raise EngineError(f"the engine cannot take this position: {error}") from None
        return status, line.split(), positions


@lru_cache(maxsize=8192)
def _checked_move(cls: type, text: str) -> FreeCellMove:
    return cls._check_move(text)


# Slot setters for `_make` (they bypass the frozen dataclass's __setattr__).
_SET_COLUMNS = FreeCellFamily.columns.__set__
_SET_CELLS = FreeCellFamily.cells.__set__
_SET_FOUNDATIONS = FreeCellFamily.foundations.__set__
_SET_BASE = FreeCellFamily.base_rank.__set__
_SET_DEAL = FreeCellFamily.deal_number.__set__
_SET_AUTO = FreeCellFamily.auto.__set__


# -- the games ---------------------------------------------------------------------------


class FreeCell(FreeCellFamily):
    """FreeCell: 8 columns, 4 cells, alternate colours, foundations from the Ace;
    deal N is Microsoft's deal N (for N below 32000)."""

    game_id = "freecell"
    title = "FreeCell"
    summary = "8 columns, 4 free cells, build down in alternate colours; Microsoft's deals."
    ENGINE_PRESET = "freecell"  # soft threads fitted on FreeCell deals


class BakersGame(FreeCellFamily):
    """Baker's Game: FreeCell building in suit (FreeCell's deals)."""

    game_id = "bakers-game"
    title = "Baker's Game"
    summary = "FreeCell building down in suit; any card fills an empty column."
    BUILD = "suit"
    ENGINE_PRESET = "mixed"  # a quarter of the deals are lost
    FCS_OPTIONS = "-g bakers_game"


class EightOff(FreeCellFamily):
    """Eight Off: 8 columns, 8 cells (four filled at the deal), in suit, Kings fill."""

    game_id = "eight-off"
    title = "Eight Off"
    summary = "8 columns, 8 cells, build down in suit; only Kings fill empty columns; runs of empty cells + 1."
    CELLS = 8
    BUILD = "suit"
    EMPTY_COLUMN = "below-base"
    RUNS = "cells"
    LAYOUT = "eight-off"
    FCS_OPTIONS = "-g eight_off"


def penguin_fcs_options(cls: type) -> str:
    """fc-solve's options for a Penguin preset, once its ranks are shifted so that the
    base rank is the Ace (PySolFC's own Penguin options, with this preset's cells,
    empty-column rule and run moves)."""
    empty = "any" if cls.EMPTY_COLUMN == "any" else "kings"
    sequence = "unlimited" if cls.RUNS == "unlimited" else "limited"
    return (
        f"--freecells-num {cls.CELLS} --stacks-num {cls.COLUMNS} --decks-num 1 --sequences-are-built-by suit "
        f"--empty-stacks-filled-by {empty} --sequence-move {sequence}"
    )


class Penguin(FreeCellFamily):
    """Penguin (David Parlett), as ``docs/RULES.md#penguin`` gives it: the beak sets the
    base rank, 7 columns, 7 flippers, build down in suit wrapping A to K but never onto
    the tableau with a base card, and only the rank below the base fills an empty column."""

    game_id = "penguin"
    title = "Penguin"
    summary = "Parlett's game: 7 columns, 7 flippers, foundations from the beak's rank."
    COLUMNS = 7
    CELLS = 7
    BUILD = "suit"
    WRAP = "restricted"
    EMPTY_COLUMN = "below-base"
    BASE_RANK = None
    AUTO_BEAK = True
    LAYOUT = "penguin"
    ENGINE_PRESET = "mixed"  # with fewer flippers, most deals are lost

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.FCS_OPTIONS = penguin_fcs_options(cls)


class RelaxedPenguin(Penguin):
    game_id = "penguin-relaxed"
    title = "Relaxed Penguin"
    summary = "Penguin where any card or run fills an empty column."
    EMPTY_COLUMN = "any"
    ENGINE_PRESET = "default"


class Penguin6(Penguin):
    game_id = "penguin-6"
    title = "Penguin (6 flippers)"
    summary = "Penguin with 6 flippers."
    CELLS = 6


class Penguin5(Penguin):
    game_id = "penguin-5"
    title = "Penguin (5 flippers)"
    summary = "Penguin with 5 flippers."
    CELLS = 5


class Penguin3(Penguin):
    game_id = "penguin-3"
    title = "Penguin (3 flippers)"
    summary = "Penguin with 3 flippers."
    CELLS = 3


class Penguin0(Penguin):
    game_id = "penguin-0"
    title = "Penguin (no flippers)"
    summary = "Penguin without flippers: tableau and foundation moves only."
    CELLS = 0


class PySolFCPenguin(Penguin):
    """Penguin exactly as PySolFC plays it: runs move without limit, K goes on A
    everywhere (base cards too), and the player moves the beak to its foundation."""

    game_id = "penguin-pysolfc"
    title = "Penguin (PySolFC rules)"
    summary = "PySolFC's Penguin: unlimited run moves, K on A everywhere, the beak moved by hand."
    WRAP = "full"
    RUNS = "unlimited"
    AUTO_BEAK = False
    ENGINE_PRESET = "default"


Penguin.FCS_OPTIONS = penguin_fcs_options(Penguin)
