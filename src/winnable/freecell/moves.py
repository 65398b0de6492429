"""The free-cell family's moves: a source, a target and a count of cards.

Move notation: a source and a target, each a column (``1`` to ``8``), a cell (``a`` to
``h``) or ``o`` for the foundations (out), then ``x`` and a count when a run of several
cards moves: ``3a`` (column 3 to cell a), ``a5``, ``ab`` (cell a to cell b), ``2o``,
``48x3`` (three cards from column 4 onto column 8).

>>> str(FreeCellMove.from_text("48X3")), FreeCellMove("a", "o")
('48x3', FreeCellMove.from_text('ao'))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Self, cast

from winnable.errors import ParseError
from winnable.game import Move

CELL_LETTERS = "abcdefgh"
COLUMN_DIGITS = "12345678"
FOUNDATION = "o"
COLUMN_INDEX = {digit: index for index, digit in enumerate(COLUMN_DIGITS)}
"""A column digit's index (0 for ``"1"``)."""
CELL_INDEX = {letter: index for index, letter in enumerate(CELL_LETTERS)}
"""A cell letter's index (0 for ``"a"``)."""


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
        return cast(Self, _parse_move(cls, text))  # _parse_move makes a cls

    def __str__(self) -> str:
        suffix = f"x{self.count}" if self.count != 1 else ""
        return f"{self.source}{self.target}{suffix}"


@lru_cache(maxsize=4096)
def _parse_move(cls: type[FreeCellMove], text: str) -> FreeCellMove:
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
