"""The free-cell family's legal moves (:class:`FreeCellFamily`, over the table, the
notation and the engine's glue) and its games, each a subclass that sets a few class
attributes (see :mod:`winnable.freecell`).

>>> position = Penguin.deal(1)
>>> [str(move) for move in position.legal_moves()][:4]
['1a', '1b', '1c', '1d']
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Self, cast

from winnable import deals
from winnable.cards import Card, Rank, Suit
from winnable.errors import IllegalMoveError, ParseError
from winnable.freecell.engine import FreeCellEngine
from winnable.freecell.moves import CELL_INDEX, CELL_LETTERS, COLUMN_DIGITS, COLUMN_INDEX, FOUNDATION, FreeCellMove
from winnable.freecell.notation import FreeCellNotation, penguin_fcs_options
from winnable.game import Move

__all__ = [
    "FreeCellFamily",
    "FreeCell",
    "BakersGame",
    "EightOff",
    "Penguin",
    "RelaxedPenguin",
    "Penguin6",
    "Penguin5",
    "Penguin3",
    "Penguin0",
    "PySolFCPenguin",
]


class FreeCellFamily(FreeCellNotation, FreeCellEngine):
    """A position of the free-cell family: the table (:class:`FreeCellTable`: its cards,
    what may go where), its notations (:class:`FreeCellNotation`) and the engine's glue
    (:class:`FreeCellEngine`), and here the moves: dealing, the legal moves, why one is
    refused, playing one, and the cards that may go home by themselves.
    """

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

    # -- the moves ---------------------------------------------------------------------
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
                if self._fits(card, other[-1]) if other else self.fills_empty_column(card):
                    moves.append(FreeCellMove(source, COLUMN_DIGITS[j]))
            moves.extend(FreeCellMove(source, cell) for cell in empty_cells)
        return moves

    def is_legal(self, move: FreeCellMove) -> bool:  # type: ignore[override]  # only its own moves, as apply: see Position.apply
        """Check one move directly (the same answer as ``move in legal_moves()``)."""
        return self.why_illegal(move) is None

    def why_illegal(self, move: FreeCellMove) -> str | None:  # type: ignore[override]  # own moves; None: legal
        """A sentence on why ``move`` is refused, or ``None`` if it is legal."""
        source, target, count = move.source, move.target, move.count
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
                return (
                    f"{self.title} has {self.CELLS} free cells (a-{CELL_LETTERS[self.CELLS - 1]})"
                    if self.CELLS
                    else f"{self.title} has no free cells"
                )
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
        move = cast(FreeCellMove, move)  # a free-cell position's moves (see Position.apply)
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
        move = cls.move_type.from_text(text)
        for token in (move.source, move.target):
            if token in COLUMN_DIGITS and COLUMN_DIGITS.index(token) >= cls.COLUMNS:
                raise ParseError(f"no column {token}: {cls.title} has columns 1-{cls.COLUMNS}")
            if token in CELL_LETTERS and CELL_LETTERS.index(token) >= cls.CELLS:
                cells = f"cells a-{CELL_LETTERS[cls.CELLS - 1]}" if cls.CELLS else "no free cells"
                raise ParseError(f"no cell {token}: {cls.title} has {cells}")
        return move

    def apply(self, move: FreeCellMove) -> Self:  # type: ignore[override]  # only its own moves: see Position.apply
        columns, cells, foundations = self.columns, self.cells, self.foundations
        source, target, count = move.source, move.target, move.count
        i = COLUMN_INDEX.get(source)
        if i is not None:
            column = columns[i]
            moving = column[-count:]
            columns = columns[:i] + (column[:-count],) + columns[i + 1 :]
        else:
            i = CELL_INDEX[source]
            moving = (cast(Card, cells[i]),)  # the source cell of a legal move holds a card
            cells = cells[:i] + (None,) + cells[i + 1 :]
        if target == FOUNDATION:
            suit = moving[0].suit
            foundations = foundations[:suit] + (foundations[suit] + 1,) + foundations[suit + 1 :]
        elif target in CELL_INDEX:
            j = CELL_INDEX[target]
            cells = cells[:j] + (moving[0],) + cells[j + 1 :]
        else:
            j = COLUMN_INDEX[target]
            columns = columns[:j] + (columns[j] + moving,) + columns[j + 1 :]
        auto: tuple[tuple[Card, str], ...] = ()
        if self.AUTO_BEAK:
            column_list, foundation_list = list(columns), list(foundations)
            auto = self._auto_moves(column_list, foundation_list)
            if auto:
                columns, foundations = tuple(column_list), tuple(foundation_list)
        return self._make(columns, cells, foundations, self.base_rank, self.deal_number, auto)

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
            # A move home has a card at its source.
            move = min(home, key=lambda m: position.shifted(cast(Card, position._card_at(m.source)).rank))
            line.append(move)
            position = position.apply(move)
        return line

    def _moves_home(self) -> list[FreeCellMove]:
        moves = [
            FreeCellMove(COLUMN_DIGITS[i], FOUNDATION)
            for i, column in enumerate(self.columns)
            if column and self.foundation_accepts(column[-1])
        ]
        moves += [
            FreeCellMove(CELL_LETTERS[i], FOUNDATION)
            for i, card in enumerate(self.cells)
            if card is not None and self.foundation_accepts(card)
        ]
        return moves


@lru_cache(maxsize=8192)
def _checked_move(cls: type[FreeCellFamily], text: str) -> FreeCellMove:
    return cls._check_move(text)


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


class Penguin(FreeCellFamily):
    """Penguin (David Parlett), as ``docs/RULES.md#penguin`` gives it: the beak sets the
    base rank, 7 columns, 7 flippers, build down in suit wrapping A to K but never onto
    the tableau with a base card, and only the rank below the base fills an empty column."""

    game_id = "penguin"
    title = "Penguin"
    summary = "Parlett's game: 7 columns, 7 flippers, foundations from the beak's rank."
    COLUMNS = 7
    CELLS = 7
    CELL_NAME = "flipper"
    BUILD = "suit"
    WRAP = "restricted"
    EMPTY_COLUMN = "below-base"
    BASE_RANK = None
    AUTO_BEAK = True
    LAYOUT = "penguin"
    ENGINE_PRESET = "mixed"  # with fewer flippers, most deals are lost
    SHORTEN_DEPTH = 0  # loops and take-backs are enough: PySolFC rules, deals 1-300, 93 / 104 moves (fc-solve -opt 102 / 116)

    def __init_subclass__(cls, **kwargs: Any) -> None:
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
