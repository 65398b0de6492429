"""Hints that lead home: keep one winning line and follow it.

Asking :func:`winnable.solve` afresh after every move can go round in circles: each
answer is a winning line, but the next search may find another one that starts by taking
the last move back (Penguin deal 655106 alternates ``1f`` / ``f1`` for ever). A
:class:`Guide` keeps the line it showed and answers from it while the player follows
it, so following its hints wins, and the moves to win it announces never grow. A new
search starts only when the player leaves the line, from where the player is.

>>> import winnable
>>> guide = winnable.Guide(winnable.Budget(seconds=2))
>>> position = winnable.deal("penguin", 655106)
>>> hint = guide.hint(position)
>>> hint.won, hint.searched, len(hint.line) > 50
(True, True, True)
>>> seen, counts = {position.to_text()}, [len(hint.line)]
>>> while not position.is_won():
...     position = position.play(guide.next_move(position))
...     assert position.to_text() not in seen  # no position twice
...     seen.add(position.to_text())
...     counts.append(len(guide.hint(position).line))
>>> counts == sorted(counts, reverse=True), guide.searches  # never more moves to win; one search
(True, 1)

:class:`Line` is the value a guide keeps: a verified winning line from a position, which
knows the positions it passes and answers the rest of the line from any of them
(:meth:`Line.rest`). Positions are matched, not move texts, so a line is picked up
again however a position was reached; in the free-cell family, where a program (the web
app's "safe moves home") may play cards home by itself, a position that is a line
position plus cards sent home early gets the rest of the line without those cards' moves
(:meth:`Line.rest_after_home`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from winnable.errors import WinnableError
from winnable.game import Move, Position
from winnable.solver import Budget, Status, solve

__all__ = ["Guide", "Hint", "Line", "home_first", "undo_free"]


def key(position: Position) -> str:
    """What identifies a position (the solver's view: hidden cards included)."""
    return position.to_text()


@dataclass(frozen=True, eq=False)
class Line:
    """A winning line from ``start``, replayed by the rules when made.

    >>> import winnable
    >>> start = winnable.deal("black-hole", 2)
    >>> line = Line.of(start, [str(move) for move in winnable.solve(start).line])
    >>> len(line), line.rest(start) == line.moves
    (51, True)
    >>> after = start.play(line.moves[0])
    >>> line.rest(after) == line.moves[1:], line.rest(start.play("2S") if line.moves[0] != "2S" else start.play("2H"))
    (True, None)
    >>> Line.of(start, ["KH"])
    Traceback (most recent call last):
    ...
    winnable.errors.WinnableError: the line does not win (50 cards left)
    """

    start: Position
    moves: tuple[str, ...]
    positions: tuple[Position, ...] = field(repr=False)
    """``positions[i]`` is the position after ``moves[:i]`` (the last one is won)."""
    index: dict[str, int] = field(repr=False)

    @classmethod
    def of(cls, start: Position, moves: Iterable[str | Move]) -> Line:
        """The line ``moves`` from ``start``; raises :class:`WinnableError` if a move is
        illegal or the line does not end in a win. A position met twice is cut out (the
        moves between were a detour), so no position of a line repeats."""
        texts: list[str] = []
        positions = [start]
        index = {key(start): 0}
        for move in moves:
            after = positions[-1].play(move)
            texts.append(str(move))
            seen = index.get(key(after))
            if seen is not None:  # a loop: go back to where the line first was there
                for dropped in positions[seen + 1 :]:
                    index.pop(key(dropped), None)
                del positions[seen + 1 :], texts[seen:]
                continue
            index[key(after)] = len(positions)
            positions.append(after)
        if not positions[-1].is_won():
            raise WinnableError(f"the line does not win ({positions[-1].cards_left()} cards left)")
        return cls(start, tuple(texts), tuple(positions), index)

    def __len__(self) -> int:
        return len(self.moves)

    def at(self, position: Position) -> int | None:
        """Where ``position`` is on the line (moves played from the start), or None."""
        return self.index.get(key(position))

    def rest(self, position: Position) -> tuple[str, ...] | None:
        """The rest of the line from ``position``, if the line passes through it."""
        at = self.at(position)
        return None if at is None else self.moves[at:]

    def rest_after_home(self, position: Position, at: int) -> tuple[str, ...] | None:
        """The rest of the line from ``positions[at]`` played from ``position``, which is
        that position with some cards sent home early (free-cell games' safe moves home):
        the line's moves of those cards (home, or to a cell on the way) are dropped. None if it does not work out
        (checked by the rules: the answer always wins from ``position``)."""
        if not hasattr(position, "foundation_cards") or not 0 <= at < len(self.moves):
            return None
        rest: list[str] = []
        current = position
        try:
            for index in range(at, len(self.moves)):
                before, text = self.positions[index], self.moves[index]
                move = before.parse_move(text)
                card = before.moved_card(move)
                if card is not None and card in current.foundation_cards():
                    continue  # that card went home early: where the line moves it is moot
                if current.moved_card(move) != card:
                    return None  # the line would move another card here
                current = current.play(text)
                rest.append(text)
        except WinnableError:
            return None
        return tuple(rest) if current.is_won() else None


def home_first(line: Line) -> Line:
    """``line`` as a player whose safe moves home are played by themselves meets it (the
    free-cell family's option, on the web page): after each move, every safe move home
    (:meth:`~winnable.freecell.FreeCellFamily.safe_moves_home`, the first one each time,
    as the web app plays them), and the line's later moves of those cards left out. Such
    a player stays on the line, and one who plays them by hand is hinted them. Never
    longer; ``line`` itself if it does not work out or the game has no such moves.

    >>> import winnable
    >>> start = winnable.deal("freecell", 30002)
    >>> line = Line.of(start, [str(move) for move in winnable.solve(start).line])
    >>> home = home_first(line)
    >>> len(home) <= len(line) and start.play_line(home.moves).is_won()
    True
    """
    start = line.start
    if not hasattr(start, "safe_moves_home") or not hasattr(start, "foundation_cards"):  # the free-cell family has both
        return line
    moves: list[str] = []
    current, index = start, 0
    try:
        while not current.is_won() and len(moves) <= len(line):
            safe = current.safe_moves_home()
            if safe:
                moves.append(str(safe[0]))
                current = current.play(safe[0])
                continue
            if index >= len(line.moves):
                return line
            before, text = line.positions[index], line.moves[index]
            index += 1
            move = before.parse_move(text)
            card = before.moved_card(move)
            if card is not None and card in current.foundation_cards():
                continue
            if current.moved_card(move) != card:
                return line
            current = current.play(text)
            moves.append(text)
    except WinnableError:
        return line
    if not current.is_won() or len(moves) > len(line):
        return line
    return Line.of(start, moves)


@dataclass(frozen=True)
class Hint:
    """A guide's answer for one position: the next move of the kept line (``move``),
    the rest of the line from here (``line``, the moves to win is its length), or no
    move when the position is won, lost or undecided within the budget.
    ``searched`` says whether it took a search (else it came from the kept line)."""

    status: Status
    line: tuple[str, ...] = ()
    searched: bool = False
    positions: int = 0

    @property
    def move(self) -> str | None:
        return self.line[0] if self.line else None

    @property
    def won(self) -> bool:
        return self.status is Status.WON


def undo_free(position: Position, previous: Position, line: Sequence[str]) -> tuple[str, ...] | None:
    """A line from ``position`` that does not begin by going back to ``previous``, made
    from ``line`` (which does) if the move that led from ``previous`` to ``position``
    can be kept where it is: the line from ``previous`` without its first occurrence of
    that move, checked by the rules. Two moves shorter; None if there is none such.

    >>> import winnable
    >>> start = winnable.deal("penguin", 655106)
    >>> line = [str(move) for move in winnable.solve(start).line]
    >>> first = line[0]
    >>> after = start.play(first)
    >>> undo_free(after, start, ["?"] + line) == tuple(line[1:])
    True
    """
    target = key(position)
    played = [move for move in previous.legal_moves() if key(previous.apply(move)) == target]
    if not played:
        return None
    mine = str(played[0])
    rest = list(line[1:])
    if mine not in rest:
        return None
    rest.remove(mine)
    try:
        if position.play_line(rest).is_won():
            return tuple(rest)
    except WinnableError:
        return None
    return None


class Guide:
    """Hints for one game that always lead home: the guide keeps the winning line it
    showed and answers the next move of it for the current position. It searches (with
    ``budget``) only when the position is off the line: the player left it, or no line
    is kept yet. A line found by a search that would just take the player's own move
    back is replaced by one that keeps the move when the rules allow it.

    A guide holds one game; use one guide per game (``Guide.for_line`` starts from a
    line already known, as the web app does with the line kept with a game).
    """

    def __init__(self, budget: Budget = Budget(seconds=2), line: Line | None = None) -> None:
        self.budget = budget
        self.line = line
        self.searches = 0
        self._last: tuple[Position, int] | None = None  # the last position answered from the line, and where

    @classmethod
    def for_line(cls, start: Position, moves: Iterable[str], budget: Budget = Budget(seconds=2)) -> Guide:
        return cls(budget, Line.of(start, moves))

    def known(self, position: Position) -> tuple[str, ...] | None:
        """The rest of the kept line from ``position``, if it is on it (or, in the
        free-cell family, is the next line position with cards sent home early)."""
        if self.line is None:
            return None
        rest = self.line.rest(position)
        if rest is not None:
            return rest
        if self._last is not None:
            return self.line.rest_after_home(position, self._last[1] + 1)
        return None

    def hint(self, position: Position, previous: Position | None = None) -> Hint:
        """The next move to play from ``position``, with the rest of its winning line.
        ``previous`` is the position before the player's last move, if known (else the
        last position this guide answered for)."""
        if position.is_won():
            return Hint(Status.WON)
        rest = self.known(position)
        if rest is not None:
            self._remember(position, rest)
            return Hint(Status.WON, rest)
        if position.is_lost():
            return Hint(Status.LOST)
        verdict = solve(position, self.budget)
        self.searches += 1
        if not verdict.won:
            return Hint(verdict.status, (), True, verdict.positions)
        line = tuple(str(move) for move in verdict.line)
        previous = previous if previous is not None else (self._last[0] if self._last else None)
        if previous is not None and line and key(position.play(line[0])) == key(previous):
            line = undo_free(position, previous, line) or line
        self.line = Line.of(position, line)
        self._remember(position, self.line.moves)
        return Hint(Status.WON, self.line.moves, True, verdict.positions)

    def next_move(self, position: Position) -> str | None:
        """Just the move (None when the game is over or no winning line is known)."""
        return self.hint(position).move

    def _remember(self, position: Position, rest: Sequence[str]) -> None:
        assert self.line is not None
        at = self.line.at(position)
        if at is None:  # matched after cards went home early: keep the line from here
            self.line = Line.of(position, rest)
            at = 0
        self._last = (position, at)
