"""The Spider family: Black Widow and Spider with four, two or one suits.

The rules are ``docs/RULES.md#black-widow``; in short: two decks, 104 cards, ten
columns. The deal puts five face-down cards in each of the first four columns and four
in each of the other six, then one face-up card on every column; the other 50 cards are
the stock.

* A card may be placed on any card one rank higher, whatever the suit. A King is never
  placed on an Ace (there is no wrap: nothing is one rank above a King).
* Black Widow: any face-up card moves with all the cards on it if they descend one rank
  at a time, whatever their suits. Spider: only a run of one suit moves as a unit.
* An empty column accepts any card or any movable run.
* The stock deals one card onto each of the ten columns (five deals), never while a
  column is empty.
* A face-down card that becomes the top of its column turns face up; a King-to-Ace run
  of one suit on top of a column leaves the table at once, after a move or a deal.
  Both happen inside :meth:`Spider.apply` and are recorded in ``auto``.
* Won when the eight runs have left the table.

>>> position = BlackWidow.deal(1)
>>> position.columns[0]
Column.from_text('3D AS KD 7D 3S | 8H')
>>> [str(move) for move in position.legal_moves()]
['2>4', '4>7', '4>8', '6>1', '9>1', '10>5', 'deal']
>>> after = position.play("10>5")
>>> after.auto
({'event': 'turned', 'card': '2S', 'at': 'column:9'},)
>>> BlackWidow.from_text(after.to_text()) == after
True

A move is written with 1-based column numbers: ``6>10`` moves the top card of column 6
onto column 10, ``3>7x4`` moves the top four cards of column 3, and ``deal`` deals the
stock. The browser (:mod:`winnable.web.views.spider`) counts columns from 0.

Spider with one or two suits uses PySolFC's decks for those games: its card *slots*
are shuffled exactly like the four-suit deck, with spades and diamonds replaced by clubs
and hearts (one suit: all clubs; two suits: clubs and hearts).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Self, cast

from winnable import deals
from winnable.cards import Card, Rank, Suit, format_cards, parse_cards
from winnable.errors import IllegalMoveError, ParseError
from winnable.game import Move, Position

COLUMNS = 10
RUN = 13
"""A completed run: King down to Ace, one suit."""
DEALS = 5
DOWN_ROWS = 4
"""Full rows of face-down cards; the first ``EXTRA_DOWN`` columns get one more."""
EXTRA_DOWN = 4
STOCK_CARDS = COLUMNS * DEALS

SEARCH_MEMORY_MB = 1024
"""What one engine search may hold, in megabytes: each pass of the search stops at as
many positions (about 120 bytes each: 8.9 million), and a time budget is then spent on
restarts, each another flavour of the search (``engine/src/spider/search.rs``,
``solve_bounded``; ``presets.rs``, ``SPIDER_RESTARTS``)."""


@dataclass(frozen=True, slots=True)
class Column:
    """One column: face-down cards (deepest first) under face-up cards (top last).

    >>> column = Column.from_text("4C 9D | 8S 7S 6H")
    >>> column.top, len(column)
    (Card.from_text('6H'), 5)
    >>> str(column)
    '4C 9D | 8S 7S 6H'
    """

    down: tuple[Card, ...] = ()
    up: tuple[Card, ...] = ()

    @classmethod
    def from_text(cls, text: str) -> Self:
        """``"4C 9D | 8S 7S"``: face-down cards, a bar, face-up cards; ``-`` is empty."""
        text = text.strip()
        if text in ("", "-"):
            return cls()
        down_text, bar, up_text = text.rpartition("|")
        return cls(tuple(parse_cards(down_text)), tuple(parse_cards(up_text)))

    def __str__(self) -> str:
        if not self.down and not self.up:
            return "-"
        if not self.down:
            return format_cards(self.up)
        return f"{format_cards(self.down)} | {format_cards(self.up)}"

    def __repr__(self) -> str:
        return f"Column.from_text({str(self)!r})"

    def __len__(self) -> int:
        return len(self.down) + len(self.up)

    @property
    def top(self) -> Card | None:
        return self.up[-1] if self.up else None

    @property
    def is_empty(self) -> bool:
        return not self.down and not self.up


def follows(lower: Card, upper: Card, same_suit: bool) -> bool:
    """Does ``upper`` lie correctly on ``lower`` inside a run? (one rank lower, and the
    same suit when ``same_suit``)."""
    return upper.rank + 1 == lower.rank and (not same_suit or upper.suit == lower.suit)


def run_length(cards: tuple[Card, ...], same_suit: bool) -> int:
    """How many cards at the end of ``cards`` form a run (at least one if any)."""
    if not cards:
        return 0
    length = 1
    while length < len(cards) and follows(cards[-length - 1], cards[-length], same_suit):
        length += 1
    return length


def is_complete_run(cards: tuple[Card, ...]) -> bool:
    """Are the last thirteen cards a King-to-Ace run of one suit?"""
    return len(cards) >= RUN and run_length(cards[-RUN:], same_suit=True) == RUN and cards[-RUN].rank == Rank.KING


@dataclass(frozen=True, slots=True, repr=False)
class SpiderMove(Move):
    """Move the top ``count`` cards of column ``source`` onto column ``target`` (both
    0-based), or deal the stock (``source`` and ``target`` are ``None``).

    >>> SpiderMove.from_text("3>7x4")
    SpiderMove.from_text('3>7x4')
    >>> SpiderMove.from_text("3>7x4").source, SpiderMove.DEAL.is_deal
    (2, True)
    """

    source: int | None
    target: int | None
    count: int = 1

    DEAL: ClassVar[SpiderMove]

    @property
    def is_deal(self) -> bool:
        return self.source is None

    @classmethod
    def from_text(cls, text: str) -> Self:
        cleaned = text.strip().lower().replace(" ", "")
        if cleaned in ("deal", "d", "stock", "s"):
            return cls(None, None, 0)
        source, arrow, rest = cleaned.partition(">")
        target, times, count = rest.partition("x")
        try:
            if not arrow:
                raise ValueError
            move = cls(int(source) - 1, int(target) - 1, int(count) if times else 1)
        except ValueError:
            raise ParseError(f"not a Spider move: {text!r} (write 3>7, 3>7x4 or deal)") from None
        if not (0 <= cast(int, move.source) < COLUMNS and 0 <= cast(int, move.target) < COLUMNS):  # made from ints
            raise ParseError(f"no such column in {text!r}: columns are numbered 1 to {COLUMNS}")
        if move.source == move.target:
            raise ParseError(f"{text!r} moves a column onto itself")
        if move.count < 1:
            raise ParseError(f"{text!r} moves no card")
        return move

    def __str__(self) -> str:
        if self.is_deal:
            return "deal"
        suffix = f"x{self.count}" if self.count != 1 else ""
        source, target = cast(int, self.source), cast(int, self.target)  # not a deal: two columns
        return f"{source + 1}>{target + 1}{suffix}"


SpiderMove.DEAL = SpiderMove(None, None, 0)


@dataclass(frozen=True, slots=True)
class Spider(Position):
    """A position of the Spider family: ten columns, the stock and the removed runs.

    ``stock`` lists the cards still to be dealt in the order they come: the next deal
    puts ``stock[0]`` on column 1 ... ``stock[9]`` on column 10. ``foundations`` holds
    the suit of each run removed, in order. ``auto`` records what happened by itself
    during the move that led here (cards turned, runs removed); it is not part of the
    position's identity.
    """

    columns: tuple[Column, ...]
    stock: tuple[Card, ...] = ()
    foundations: tuple[Suit, ...] = ()
    deal_number: int | None = field(default=None, compare=False)
    auto: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    game_id = "spider-4"
    title = "Spider"
    family = "spider"
    summary = "Two decks, ten columns: build King-to-Ace runs of one suit; only one-suit runs move."
    move_type = SpiderMove
    hidden_cards = True
    decks = 2
    """Face-down cards and the stock's order are hidden from the player."""

    by_suit: ClassVar[bool] = True
    """True: only one-suit runs move as a unit (Spider). False: any descending run does
    (Black Widow)."""
    suit_map: ClassVar[tuple[Suit, Suit, Suit, Suit]] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
    """The suit each of the four suits of a standard deck becomes in this game's deck."""

    def __post_init__(self) -> None:
        if len(self.columns) != COLUMNS:
            raise ParseError(f"{self.title} has {COLUMNS} columns, not {len(self.columns)}")
        if len(self.stock) % COLUMNS or len(self.stock) > STOCK_CARDS:
            raise ParseError(f"the stock holds a multiple of {COLUMNS} cards, at most {STOCK_CARDS}, not {len(self.stock)}")
        for index, column in enumerate(self.columns):
            if column.down and not column.up:
                raise ParseError(f"column {index + 1} has face-down cards but no face-up card on them")
            if is_complete_run(column.up):
                raise ParseError(f"column {index + 1} ends in a complete run, which should have left the table")
        have = Counter(card for column in self.columns for card in column.down + column.up)
        have.update(self.stock)
        for suit in self.foundations:
            have.update(Card(Rank(rank), suit) for rank in range(1, 14))
        want = self.deck()
        if have != want:
            extra = sorted((have - want).elements())
            missing = sorted((want - have).elements())
            detail = []
            if extra:
                detail.append("too many " + format_cards(extra[:6]))
            if missing:
                detail.append("missing " + format_cards(missing[:6]))
            raise ParseError(f"not the cards of {self.title}: {'; '.join(detail)}")

    @classmethod
    def deck(cls) -> Counter[Card]:
        """The 104 cards of this game (two decks, suits mapped as ``suit_map`` says)."""
        return Counter(cls.map_card(card) for card in deals.pysol_deck(2))

    @classmethod
    def map_card(cls, card: Card) -> Card:
        return Card(card.rank, cls.suit_map[card.suit])

    # -- dealing ---------------------------------------------------------------------
    @classmethod
    def deal(cls, number: int | str | deals.DealNumber) -> Self:
        """PySolFC's shuffle of two decks, dealt as ``docs/RULES.md#black-widow`` says: four
        rows of ten face down, a fifth face-down row on the first four columns, a face-up
        row of ten; the other 50 cards are the stock, in the order they come.

        >>> position = Spider4.deal(1)
        >>> [len(column.down) for column in position.columns]
        [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
        >>> len(position.stock), position.cards_left()
        (50, 104)
        """
        deal = deals.DealNumber.parse(number)
        return cls._lay_out(deals.shuffled(deal, decks=2), deal.number)

    @classmethod
    def _lay_out(cls, shuffled: list[Card], number: int | None) -> Self:
        cards = [cls.map_card(card) for card in shuffled]
        downs: list[list[Card]] = [[] for _ in range(COLUMNS)]
        at = 0
        for _ in range(DOWN_ROWS):
            for column in range(COLUMNS):
                downs[column].append(cards[at])
                at += 1
        for column in range(EXTRA_DOWN):
            downs[column].append(cards[at])
            at += 1
        columns = []
        for column in range(COLUMNS):
            columns.append(Column(tuple(downs[column]), (cards[at],)))
            at += 1
        return cls(tuple(columns), tuple(cards[at:]), (), number)

    # -- rules -----------------------------------------------------------------------
    def movable(self, column: int) -> int:
        """How many cards on top of ``column`` may move together."""
        return run_length(self.columns[column].up, self.by_suit)

    def empty_columns(self) -> list[int]:
        return [index for index, column in enumerate(self.columns) if column.is_empty]

    def accepts(self, target: int, card: Card) -> bool:
        """May ``card`` (with any run on it) go onto column ``target``?"""
        top = self.columns[target].top
        return top is None or top.rank == card.rank + 1

    def stocks_left(self) -> int:
        """How many deals the stock still holds (0 to 5)."""
        return len(self.stock) // COLUMNS

    def legal_moves(self) -> list[SpiderMove]:
        """Every column move (by source, then run length, then target), then the deal."""
        moves = []
        for source, column in enumerate(self.columns):
            for count in range(1, self.movable(source) + 1):
                card = column.up[-count]
                for target in range(COLUMNS):
                    if target != source and self.accepts(target, card):
                        moves.append(SpiderMove(source, target, count))
        if self.stock and not self.empty_columns():
            moves.append(SpiderMove.DEAL)
        return moves

    def is_legal(self, move: Move) -> bool:
        """Is ``move`` one of :meth:`legal_moves`? (Checked directly, without listing them.)"""
        if not isinstance(move, SpiderMove):
            return False
        if move.is_deal:
            return bool(self.stock) and not self.empty_columns()
        source, target = cast(int, move.source), cast(int, move.target)  # not a deal: two columns
        if not (0 <= source < COLUMNS and 0 <= target < COLUMNS) or source == target:
            return False
        if not 1 <= move.count <= self.movable(source):
            return False
        return self.accepts(target, self.columns[source].up[-move.count])

    def why_illegal(self, move: Move) -> str:
        if not isinstance(move, SpiderMove):
            return f"{move} is not a Spider move"
        if move.is_deal:
            if not self.stock:
                return "the stock is empty: all five deals have been made"
            empty = self.empty_columns()
            if empty:
                names = ", ".join(str(index + 1) for index in empty)
                return f"the stock does not deal while a column is empty (column {names})"
            return "the stock cannot deal"
        source, target = cast(int, move.source), cast(int, move.target)  # not a deal: two columns
        column = self.columns[source]
        if not column.up:
            return f"column {source + 1} is empty"
        if move.count > len(column.up):
            return f"column {source + 1} has only {len(column.up)} face-up cards"
        if move.count > self.movable(source):
            kind = "of one suit" if self.by_suit else "descending one rank at a time"
            return f"the top {move.count} cards of column {source + 1} are not a run {kind}"
        card = column.up[-move.count]
        top = self.columns[target].top
        if card.rank == Rank.KING and top is not None and top.rank == Rank.ACE:
            return "a King is never placed on an Ace"
        return f"{card} cannot go on {top}: it needs a card one rank higher or an empty column"

    def apply(self, move: SpiderMove) -> Self:  # type: ignore[override]  # only its own moves: see Position.apply
        """Play ``move``, then turn exposed cards and remove completed runs."""
        columns = list(self.columns)
        auto: list[dict[str, Any]] = []
        foundations = list(self.foundations)
        if move.is_deal:
            if len(self.stock) < COLUMNS:
                raise IllegalMoveError("the stock is empty")
            dealt = self.stock[:COLUMNS]
            stock = self.stock[COLUMNS:]
            for index in range(COLUMNS):
                columns[index] = Column(columns[index].down, columns[index].up + (dealt[index],))
            touched: Iterable[int] = range(COLUMNS)
        else:
            stock = self.stock
            i, j = cast(int, move.source), cast(int, move.target)  # not a deal: two columns
            source, target = columns[i], columns[j]
            run = source.up[len(source.up) - move.count :]
            columns[i] = Column(source.down, source.up[: len(source.up) - move.count])
            columns[j] = Column(target.down, target.up + run)
            touched = (j, i)
        for index in touched:
            column = columns[index]
            if is_complete_run(column.up):
                suit = column.up[-1].suit
                column = Column(column.down, column.up[:-RUN])
                foundations.append(suit)
                auto.append({"event": "removed", "suit": suit.char, "at": f"column:{index}"})
            if column.down and not column.up:
                column = Column(column.down[:-1], column.down[-1:])
                auto.append({"event": "turned", "card": str(column.up[0]), "at": f"column:{index}"})
            columns[index] = column
        return self._trusted(tuple(columns), stock, tuple(foundations), self.deal_number, tuple(auto))

    @classmethod
    def _trusted(
        cls,
        columns: tuple[Column, ...],
        stock: tuple[Card, ...],
        foundations: tuple[Suit, ...],
        deal_number: int | None,
        auto: tuple[dict[str, Any], ...],
    ) -> Self:
        """A position made by the rules from a valid one: no need to check the cards."""
        position = object.__new__(cls)
        for name, value in (
            ("columns", columns),
            ("stock", stock),
            ("foundations", foundations),
            ("deal_number", deal_number),
            ("auto", auto),
        ):
            object.__setattr__(position, name, value)
        return position

    def is_won(self) -> bool:
        return len(self.foundations) == 8

    def cards_left(self) -> int:
        return sum(len(column) for column in self.columns) + len(self.stock)

    def cards_total(self) -> int:
        """Two decks: 104 cards.

        >>> Spider4.deal(1).cards_total()
        104
        """
        return 2 * 52

    def moved_card(self, move: Move) -> Card | None:
        """The deepest card of the run a move takes (None for the deal).

        >>> BlackWidow.deal(1).moved_card(SpiderMove.from_text("10>5"))
        Card.from_text('3S')
        """
        if not isinstance(move, SpiderMove) or move.is_deal:
            return None
        up = self.columns[cast(int, move.source)].up  # not a deal: a column
        return up[-move.count] if move.count <= len(up) else None

    def to_json(self) -> dict[str, Any]:
        """The whole position, face-down cards and stock order included."""
        return {
            "game": self.game_id,
            "deal": self.deal_number,
            "family": self.family,
            "columns": [{"down": [str(card) for card in column.down], "up": [str(card) for card in column.up]} for column in self.columns],
            "stock": [str(card) for card in self.stock],
            "deals_left": self.stocks_left(),
            "foundations": [suit.char for suit in self.foundations],
            "cards_left": self.cards_left(),
            "won": self.is_won(),
            "lost": self.is_lost(),
            "auto": list(self.auto),
        }

    # -- notation --------------------------------------------------------------------
    def to_text(self) -> str:
        """Winnable's notation: the stock in dealing order, the removed runs, then one
        line a column: face-down cards, ``|``, face-up cards (deepest first)."""
        lines = [
            "Stock: " + (format_cards(self.stock) or "-"),
            "Foundations: " + (" ".join(suit.char for suit in self.foundations) or "-"),
        ]
        lines += [f"{index + 1:2}: {column}" for index, column in enumerate(self.columns)]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Self:
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if len(lines) < 2 or not lines[0].lower().startswith("stock:") or not lines[1].lower().startswith("foundations:"):
            raise ParseError(f"a {cls.title} position starts with 'Stock: ...' and 'Foundations: ...' lines")
        stock_text = lines[0].split(":", 1)[1].strip()
        stock = () if stock_text == "-" else tuple(parse_cards(stock_text))
        found_text = lines[1].split(":", 1)[1].strip()
        foundations = () if found_text == "-" else tuple(Suit.from_char(word) for word in found_text.split())
        columns = []
        for line in lines[2:]:
            label, sep, rest = line.partition(":")
            columns.append(Column.from_text(rest if sep else label))
        return cls(tuple(columns), stock, foundations)

    # -- search ----------------------------------------------------------------------
    def engine_search(
        self, nodes: int | None, seconds: float | None, *, short: bool = True, memory_mb: int | None = None
    ) -> tuple[str, list[str], int]:
        """Ask the engine for a winning line (see ``engine/src/spider/``); ``short=False``
        searches without the short pass and does not shorten the line (a survey).
        ``seconds`` is CPU time of the searching thread, all of it spent unless a line is
        found; memory is bounded by ``memory_mb`` (:data:`SEARCH_MEMORY_MB` unless given)."""
        from winnable import _engine

        columns = [([card.index for card in column.down], [card.index for card in column.up]) for column in self.columns]
        stock = [card.index for card in self.stock]
        status, line, positions = _engine.spider_solve(
            columns,
            stock,
            len(self.foundations),
            self.by_suit,
            nodes,
            seconds,
            shorten=short,
            short_pass=short,
            memory_mb=memory_mb or SEARCH_MEMORY_MB,
        )
        moves = [str(SpiderMove.DEAL if source == 255 else SpiderMove(source, target, count)) for source, target, count in line]
        return status, moves, positions

    def engine_moves(self) -> list[str]:
        """The engine's own list of legal moves here (for tests of agreement)."""
        from winnable import _engine

        columns = [([card.index for card in column.down], [card.index for card in column.up]) for column in self.columns]
        stock = [card.index for card in self.stock]
        line = _engine.spider_legal_moves(columns, stock, self.by_suit)
        return [str(SpiderMove.DEAL if source == 255 else SpiderMove(source, target, count)) for source, target, count in line]


class BlackWidow(Spider):
    """Black Widow: any descending run moves, whatever its suits."""

    game_id = "black-widow"
    title = "Black Widow"
    summary = "Spider where any run descending one rank at a time moves, whatever its suits."
    by_suit = False


class Spider4(Spider):
    """Spider with four suits (two full decks)."""

    game_id = "spider-4"
    title = "Spider (4 suits)"


class Spider2(Spider):
    """Spider with two suits: PySolFC's deck of clubs and hearts."""

    game_id = "spider-2"
    title = "Spider (2 suits)"
    suit_map = (Suit.CLUBS, Suit.HEARTS, Suit.HEARTS, Suit.CLUBS)


class Spider1(Spider):
    """Spider with one suit: PySolFC's deck of eight suits of clubs."""

    game_id = "spider-1"
    title = "Spider (1 suit)"
    suit_map = (Suit.CLUBS, Suit.CLUBS, Suit.CLUBS, Suit.CLUBS)
