"""What every game has in common: a move, an immutable position and its contract.

Each game family (``blackhole``, ``freecell``, ``spider``) subclasses :class:`Position`
and :class:`Move`; variants are subclasses of a family's position with a few class
attributes changed, as in python-chess. Everything else in Winnable (the solver API,
the CLI, the web app) talks to games through this interface only:

* ``Position.deal(number)`` lays out PySolFC deal ``number``, ``Position.from_deck(deck)``
  the cards of a :class:`~winnable.decks.Deck` (no number: the Daily's layouts);
* ``legal_moves()``, ``is_legal(move)``, ``play(move)`` (checks legality with
  ``is_legal``, raises :class:`IllegalMoveError` with ``why_illegal``'s reason),
  ``is_won()``, ``is_lost()``;
* ``hidden_cards`` (does the player see every card?), ``cards_left()`` and
  ``cards_total()`` (the cards a player brings home: the partial score);
* ``parse_move(text)`` and ``str(move)``: a move notation that round-trips;
  ``moved_card(move)``: the card a move takes;
* ``to_text()`` / ``from_text()``: a position notation that round-trips, plus any
  other board ``FORMATS`` (``export(fmt)`` / ``import_(fmt, text)``);
* ``to_json()``: what the CLI's ``--json`` and the web app show;
* ``engine_search(nodes, seconds)``: the engine's raw answer, which
  :func:`winnable.solver.solve` replays through the rules before trusting it.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Self, Sequence

from winnable.errors import IllegalMoveError, ParseError

if TYPE_CHECKING:
    from winnable.cards import Card
    from winnable.deals import DealNumber
    from winnable.decks import Deck


class Move(abc.ABC):
    """A move of some game. Subclasses are frozen dataclasses with a text notation."""

    @classmethod
    @abc.abstractmethod
    def from_text(cls, text: str) -> Self:
        """Parse the move notation; raise :class:`ParseError` on bad text."""

    @abc.abstractmethod
    def __str__(self) -> str:
        """The move notation, which :meth:`from_text` reads back."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({str(self)!r})"


class Position(abc.ABC):
    """An immutable position of one game. Subclasses set the class attributes below."""

    game_id: ClassVar[str]
    """The stable id used everywhere: CLI, web, storage (``black-hole``, ``penguin``)."""
    title: ClassVar[str]
    """The game's name for people."""
    family: ClassVar[str]
    """The rules module that plays it."""
    move_type: ClassVar[type[Move]]
    FORMATS: ClassVar[tuple[str, ...]] = ("text",)
    """Board formats :meth:`export` writes (``to_<fmt>``) and :meth:`import_` reads
    (``from_<fmt>``)."""
    summary: ClassVar[str] = ""
    """One line on the game, for listings."""
    hidden_cards: ClassVar[bool] = False
    """True when the player does not see every card (face-down cards, the order of a
    stock): the solver knows them, the player does not, so a verdict speaks of the
    whole deal. The web app's view of the table (:mod:`winnable.web.views`) then
    hides them."""

    decks: ClassVar[int] = 1
    """How many whole decks a deal uses (the :class:`~winnable.decks.Deck` that
    :meth:`from_deck` takes)."""

    deal_number: int | None = None
    """The number of the deal this position came from, if known (PySolFC's, or
    Microsoft's when it was dealt from an ``ms`` number: the caller knows which)."""

    # -- dealing ---------------------------------------------------------------------
    @classmethod
    @abc.abstractmethod
    def deal(cls, number: int | str | DealNumber) -> Self:
        """The starting position of PySolFC deal ``number`` (an int or its text), or of
        Microsoft's deal for ``"ms146692"`` or a Microsoft :class:`DealNumber`."""

    @classmethod
    def from_deck(cls, deck: Deck) -> Self:
        """The starting position this game lays out from the cards of ``deck`` (a
        :class:`~winnable.decks.Deck`: one deck, or two for the Spider family, first card
        dealt first), with no deal number. ``deal(n)`` is ``from_deck(Deck.of_deal(n))``
        with the number kept; a Daily is dealt from a secret :meth:`Deck.shuffled`.

        >>> from winnable.blackhole import BlackHole
        >>> from winnable.decks import Deck
        >>> BlackHole.from_deck(Deck.of_deal(2)) == BlackHole.deal(2)
        True
        >>> BlackHole.from_deck(Deck.of_deal(2)).deal_number is None
        True
        >>> BlackHole.from_deck(Deck.of_deal(2, decks=2))
        Traceback (most recent call last):
        ...
        winnable.errors.ParseError: Black Hole is dealt from one deck, not 2
        """
        from winnable.decks import as_deck

        deck = as_deck(deck)
        if deck.decks != cls.decks:
            decks = "one deck" if cls.decks == 1 else f"{cls.decks} decks"
            raise ParseError(f"{cls.title} is dealt from {decks}, not {deck.decks}")
        return cls._lay_out(list(deck.cards), None)

    @classmethod
    @abc.abstractmethod
    def _lay_out(cls, cards: list[Card], number: int | None) -> Self:
        """The game's own dealing of ``cards`` (the deck order, first card dealt first),
        with deal number ``number`` (None for a deck with no number)."""

    # -- rules -----------------------------------------------------------------------
    @abc.abstractmethod
    def legal_moves(self) -> Sequence[Move]:
        """Every move the rules allow here, in a stable order."""

    @abc.abstractmethod
    def apply(self, move: Move) -> Self:
        """The position after ``move``, which must be legal (not checked here).

        Each game takes only its own ``move_type`` here (a legal move is one), so its
        ``apply`` narrows the argument: the one override the type checker is told to allow.
        """

    @abc.abstractmethod
    def is_won(self) -> bool: ...

    def is_lost(self) -> bool:
        """No legal move is left and the game is not won."""
        return not self.is_won() and not self.legal_moves()

    def is_over(self) -> bool:
        return self.is_won() or self.is_lost()

    def parse_move(self, text: str) -> Move:
        """Read a move in this game's notation. Subclasses may accept more spellings."""
        return self.move_type.from_text(text)

    def is_legal(self, move: Move) -> bool:
        """Do the rules allow ``move`` here? The same answer as ``move in
        legal_moves()``; families override it with a direct check of the one move."""
        return move in self.legal_moves()

    def play(self, move: Move | str) -> Self:
        """Check ``move`` with :meth:`is_legal` and return the position after it; an
        illegal move raises :class:`IllegalMoveError` with :meth:`why_illegal`'s reason."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if not self.is_legal(move):
            raise IllegalMoveError(self.why_illegal(move))
        return self.apply(move)

    def why_illegal(self, move: Move) -> str:
        """A sentence for a player on why ``move`` is refused."""
        return f"illegal move {move} in this position"

    def play_line(self, moves: Iterable[Move | str]) -> Self:
        position = self
        for move in moves:
            position = position.play(move)
        return position

    def moved_card(self, move: Move) -> Card | None:
        """The card ``move`` takes here (the deepest card of a run), or None when the
        move takes no one card (Spider's deal) or the game does not say. The rules'
        answer to "which card is this move about?", which a line keeps when its moves
        are replayed elsewhere (:mod:`winnable.guide`, :mod:`winnable.lines`).

        >>> from winnable.freecell import FreeCell
        >>> position = FreeCell.deal(1)
        >>> position.moved_card(position.parse_move("1a"))
        Card.from_text('6S')
        """
        return None

    # -- scores ----------------------------------------------------------------------
    @abc.abstractmethod
    def cards_left(self) -> int:
        """Cards not yet on the foundations."""

    @abc.abstractmethod
    def cards_total(self) -> int:
        """Cards a player brings home in a won game (``cards_total() - cards_left()``
        is the partial score of a lost one)."""

    # -- notation --------------------------------------------------------------------
    @abc.abstractmethod
    def to_text(self) -> str:
        """This position in Winnable's text notation (read back by :meth:`from_text`)."""

    @classmethod
    @abc.abstractmethod
    def from_text(cls, text: str) -> Self: ...

    def export(self, fmt: str = "text") -> str:
        """This position in board format ``fmt``: ``text``, or one of ``FORMATS``, each
        written by a method ``to_<fmt>``."""
        if fmt not in self.FORMATS:
            raise ParseError(f"{self.game_id} has no board format {fmt!r} (formats: {', '.join(self.FORMATS)})")
        text: str = getattr(self, f"to_{fmt}")()  # a FORMATS entry has its to_<fmt> -> str
        return text

    @classmethod
    def import_(cls, fmt: str, text: str) -> Self:
        """Read a position in board format ``fmt`` (a class method ``from_<fmt>``)."""
        if fmt not in cls.FORMATS:
            raise ParseError(f"{cls.game_id} has no board format {fmt!r} (formats: {', '.join(cls.FORMATS)})")
        position: Self = getattr(cls, f"from_{fmt}")(text)  # a FORMATS entry has its from_<fmt>
        return position

    @abc.abstractmethod
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description of the table, for ``--json`` and the web app."""

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"

    # -- search ----------------------------------------------------------------------
    @abc.abstractmethod
    def engine_search(
        self, nodes: int | None, seconds: float | None, *, short: bool = True, memory_mb: int | None = None
    ) -> tuple[str, list[str], int]:
        """Ask the engine: ``(verdict, line, positions)``.

        ``verdict`` is ``"won"``, ``"lost"`` or ``"unknown"``; ``line`` is the winning
        line in this game's move notation (empty unless won); ``positions`` is the
        number of positions searched. Nothing here is trusted until replayed.

        ``short=False`` asks for the verdict alone (a survey): the engine skips what
        only makes its line short (the shortening, Spider's short pass), so a winning
        line may hold wasted moves, but it still wins and is still replayed. Games
        whose lines all have the same length (Black Hole, Fourteen Out) ignore it.

        ``memory_mb`` bounds what the search may hold where the engine bounds it (the
        Spider family; ``None``: its default); the other engines ignore it.
        """
