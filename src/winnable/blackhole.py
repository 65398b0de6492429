"""Black Hole (David Parlett): the rules, the layout and the board formats.

The rules are ``docs/RULES.md#black-hole``; in short: the Ace of Spades is the
foundation, the "black hole". The other 51 cards lie face up in 17 piles of three; only
the top card of a pile is playable. A top card goes onto the foundation if its rank is
one above or one below the foundation's top rank, around the circle K-A-2 (a King takes
a Queen or an Ace, an Ace a King or a Two). Suits never matter. The game is won when all
51 cards are on the foundation and lost when no top card can move.

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
from winnable.cards import _BY_TEXT, Card, Rank, Suit, format_cards, parse_cards
from winnable.errors import IllegalMoveError, ParseError
from winnable.game import Move, Position

PILES = 17
PILE_SIZE = 3
HOLE = Card(Rank.ACE, Suit.SPADES)


def ranks_adjacent(a: Rank, b: Rank) -> bool:
    """One rank apart around the circle K-A-2."""
    return (a - b) % 13 in (1, 12)


def foundation_order(played: list[Card], top: Card) -> tuple[Card, ...]:
    """An order in which ``played`` can have gone onto the foundation after the Ace of
    Spades and before ``top``: each card one rank above or below the one before.

    Only ranks matter, so this is a walk of +-1 steps on the 13-rank circle from the
    Ace to ``top``'s rank, crossing each edge between neighbouring ranks a number of
    times fixed by the cards (an Euler trail: the crossings are solved for on the odd
    cycle, then the trail is walked with Hierholzer's algorithm). Raises
    :class:`ParseError` when there is none.

    >>> [str(card) for card in foundation_order(parse_cards("3C 2D 2H"), Card.from_text("AC"))]
    ['2D', '3C', '2H']
    >>> foundation_order(parse_cards("KD 2H"), Card.from_text("AC"))
    Traceback (most recent call last):
    ...
    winnable.errors.ParseError: no order of the 2 cards missing from the piles leads from AS to AC one rank at a time
    """
    ranks = 13
    degree = [0] * ranks
    for card in played:
        degree[card.rank - 1] += 2
    degree[top.rank - 1] += 1  # the walk ends on top's rank
    degree[HOLE.rank - 1] += 1  # and starts on the Ace
    # Edge v joins ranks v and v+1 (0-based, around the circle); its crossings c[v]
    # satisfy c[v-1] + c[v] = degree[v]. On an odd cycle there is one solution.
    alternating = sum(degree[v] * (-1) ** (ranks - 1 - v) for v in range(ranks))
    crossings = [alternating // 2]  # c[12], the edge from the King to the Ace
    for v in range(ranks - 1):
        crossings.append(degree[v] - crossings[-1])
    crossings = crossings[1:] + crossings[:1]  # c[0] .. c[12]
    why = f"no order of the {len(played)} cards missing from the piles leads from AS to {top} one rank at a time"
    if alternating % 2 or min(crossings) < 0:
        raise ParseError(why)
    left = crossings[:]
    stack, walk = [HOLE.rank - 1], []
    while stack:
        v = stack[-1]
        if left[v]:
            left[v] -= 1
            stack.append((v + 1) % ranks)
        elif left[v - 1]:
            left[v - 1] -= 1
            stack.append((v - 1) % ranks)
        else:
            walk.append(stack.pop())
    walk.reverse()
    if len(walk) != len(played) + 2 or walk[-1] != top.rank - 1:
        raise ParseError(why)
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(played, reverse=True):
        by_rank.setdefault(card.rank - 1, []).append(card)
    return tuple(by_rank[v].pop() for v in walk[1:-1])


@dataclass(frozen=True, slots=True, repr=False)
class BlackHoleMove(Move):
    """Play ``card``, the top card of its pile, onto the foundation."""

    card: Card

    @classmethod
    def from_text(cls, text: str) -> Self:
        return cls(Card.from_text(text))

    def __str__(self) -> str:
        return str(self.card)


_MOVES = {text: BlackHoleMove(card) for text, card in _BY_TEXT.items()}
"""Every move by its usual notation (moves are immutable values: one of each will do)."""


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
    def deal(cls, number: int | str | deals.DealNumber) -> Self:
        """PySolFC's Black Hole: the Ace of Spades goes to the hole, then the other 51
        cards are dealt round the 17 piles, three times."""
        deal = deals.DealNumber.parse(number)
        return cls._lay_out(deals.shuffled(deal), deal.number)

    @classmethod
    def _lay_out(cls, cards: list[Card], number: int | None) -> Self:
        cards.remove(HOLE)
        piles = tuple(tuple(cards[index::PILES]) for index in range(PILES))
        return cls._trusted(piles, (HOLE,), number)

    @classmethod
    def _trusted(cls, piles: tuple[tuple[Card, ...], ...], foundation: tuple[Card, ...], deal_number: int | None) -> Self:
        """A position the rules made (a fresh deal, or a legal move from a valid
        position): every card is in it once, so the checks of ``__post_init__`` are
        skipped. They cost more than the move itself when a survey replays lines."""
        position = object.__new__(cls)
        object.__setattr__(position, "piles", piles)
        object.__setattr__(position, "foundation", foundation)
        object.__setattr__(position, "deal_number", deal_number)
        return position

    # -- rules -----------------------------------------------------------------------
    @property
    def foundation_card(self) -> Card:
        return self.foundation[-1]

    def tops(self) -> list[Card | None]:
        return [pile[-1] if pile else None for pile in self.piles]

    def legal_moves(self) -> list[BlackHoleMove]:
        rank = self.foundation_card.rank
        return [BlackHoleMove(top) for top in self.tops() if top is not None and ranks_adjacent(top.rank, rank)]

    def is_legal(self, move: Move) -> bool:
        """A top card one rank above or below the foundation's (checked directly, without
        listing every move: the replay of a survey's lines goes through here)."""
        card = getattr(move, "card", None)
        if card is None or not ranks_adjacent(card.rank, self.foundation_card.rank):
            return False
        return self.pile_of(card) is not None

    def pile_of(self, card: Card) -> int | None:
        """The index of the pile whose top card is ``card``, if any."""
        wanted = card.index
        for index, pile in enumerate(self.piles):
            if pile and pile[-1].index == wanted:
                return index
        return None

    def apply(self, move: BlackHoleMove) -> Self:  # type: ignore[override]  # only its own moves: see Position.apply
        index = self.pile_of(move.card)
        if index is None:
            raise IllegalMoveError(f"{move.card} is not the top card of a pile")
        return self._after(index, move.card)

    def _after(self, index: int, card: Card) -> Self:
        """The position after the top card of pile ``index``, ``card``, is played."""
        piles = self.piles[:index] + (self.piles[index][:-1],) + self.piles[index + 1 :]
        return self._trusted(piles, self.foundation + (card,), self.deal_number)

    def why_illegal(self, move: Move) -> str:
        card = getattr(move, "card", None)
        if card is None or self.pile_of(card) is None:
            return f"{move} is not the top card of a pile"
        return f"{card} is not one rank above or below {self.foundation_card} (suits do not matter; K-A-2 wraps)"

    def parse_move(self, text: str) -> BlackHoleMove:
        move = _MOVES.get(text)
        if move is not None:  # the usual spelling, as the engine's lines write it
            return move
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
        >>> from winnable.solver import solve
        >>> line = solve(BlackHole.deal(2)).line
        >>> BlackHole.deal(2).play_line(line[:-3]).finishing_line()
        [BlackHoleMove.from_text('4D'), BlackHoleMove.from_text('5C'), BlackHoleMove.from_text('6D')]
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

    def cards_total(self) -> int:
        """The 51 cards dealt to the piles (the Ace of Spades starts in the hole)."""
        return PILES * PILE_SIZE

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
        position = cls(tuple(piles), foundation)
        position.check_whole()
        return position

    def check_whole(self) -> None:
        r"""Raise :class:`ParseError` unless this is a position of a real game: the 52
        cards of one deck, every one once, with the foundation a legal sequence (the Ace
        of Spades first, then each card one rank above or below the one before).

        >>> BlackHole.from_text("Foundation: AS 3C\n" + "-\n" * 17)
        Traceback (most recent call last):
        ...
        winnable.errors.ParseError: the foundation is not a legal sequence: 3C cannot follow AS (one rank above or below, K-A-2 wraps)
        """
        if self.foundation[0] != HOLE:
            raise ParseError(f"the foundation starts with the Ace of Spades, not {self.foundation[0]}")
        for before, after in zip(self.foundation, self.foundation[1:]):
            if not ranks_adjacent(before.rank, after.rank):
                raise ParseError(
                    f"the foundation is not a legal sequence: {after} cannot follow {before} (one rank above or below, K-A-2 wraps)"
                )
        cards = {card for pile in self.piles for card in pile} | set(self.foundation)
        missing = [Card.from_index(index) for index in range(52) if Card.from_index(index) not in cards]
        if missing:
            more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
            raise ParseError(f"not a whole deck: {format_cards(missing[:6])}{more} missing from the piles and the foundation")

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
        on_table = [card for pile in piles for card in pile]
        if len(set(on_table)) != len(on_table):
            raise ParseError("a card appears twice in the piles")
        if top[0] in on_table:
            raise ParseError(f"{top[0]} is both on the foundation and in a pile")
        if HOLE in on_table:
            raise ParseError("the Ace of Spades starts in the hole: it cannot be in a pile")
        played = [Card.from_index(i) for i in range(52) if Card.from_index(i) not in on_table and Card.from_index(i) not in (HOLE, top[0])]
        if top[0] == HOLE:
            if played:
                raise ParseError(f"{len(played)} cards are missing from the piles, but the foundation shows only AS")
            foundation: tuple[Card, ...] = (HOLE,)
        else:
            foundation = (HOLE,) + foundation_order(played, top[0]) + (top[0],)
        position = cls(tuple(piles), foundation)
        position.check_whole()
        return position

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

    def moved_card(self, move: Move) -> Card | None:
        """The card the move plays to the foundation (the top card of its pile)."""
        return getattr(move, "card", None)

    # -- search ----------------------------------------------------------------------
    def engine_search(
        self, nodes: int | None, seconds: float | None, *, short: bool = True, memory_mb: int | None = None
    ) -> tuple[str, list[str], int]:
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
