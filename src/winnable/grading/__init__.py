"""A deal's grade: easy, medium, hard or expert, measured by the engine, never guessed.

The grade is exact for the position: every figure behind it is a count (positions
searched within a budget in positions, moves), never a time, so the same deal gets the
same grade on every run and machine (:mod:`tests.rules.test_grading` checks it across
processes). A position the bounded search does not prove winnable has no grade
(:class:`NotGradable`).

>>> report = grade_deal("black-hole", 2)
>>> report.grade in GRADES, set(FIGURES) <= set(report.figures)
(True, True)
>>> grade_deal("black-hole", 1)
Traceback (most recent call last):
...
winnable.errors.NotGradable: black-hole deal 1 is not proved winnable within 2,000,000 positions (lost)
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass

from winnable.errors import NotGradable
from winnable.freecell import FreeCellFamily
from winnable.game import Position
from winnable.games import deal as dealt
from winnable.games import registered
from winnable.grading import measures
from winnable.grading.cuts import CUTS

__all__ = ["CUTS", "FIGURES", "GRADES", "Grade", "GradeReport", "NotGradable", "grade_deal", "grade_position"]


class Grade(str, enum.Enum):
    """How hard a winnable deal is, from easy to expert (:data:`GRADES` in that order)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"

    def __str__(self) -> str:
        return self.value

    @property
    def order(self) -> int:
        """Its place from easy (0) to expert (3).

        >>> Grade.HARD.order, max(GRADES, key=lambda grade: grade.order)
        (2, <Grade.EXPERT: 'expert'>)
        """
        return GRADES.index(self)


GRADES: tuple[Grade, ...] = (Grade.EASY, Grade.MEDIUM, Grade.HARD, Grade.EXPERT)
"""Every grade, from the easiest."""


@dataclass(frozen=True)
class GradeReport:
    """A position's grade and the figures it was read from (JSON-able counts)."""

    grade: Grade
    figures: Mapping[str, int | float]

    def to_json(self) -> dict[str, object]:
        return {"grade": self.grade.value, "figures": dict(self.figures)}


FIGURES: tuple[str, ...] = ("positions", "moves", "score")
"""The figures every :class:`GradeReport` has: ``positions`` the search needed to prove
the position winnable (the engine's verdict-only search, :data:`measures.SEARCH_NODES`
at most), ``moves`` its line, ``score`` what the grade's cuts divide (higher is harder).
Each family adds its own (:func:`_measure`)."""


def _measure(position: Position) -> dict[str, int | float]:
    """The figures of ``position``, ``score`` among them: Black Hole and Fourteen Out,
    how forgiving the deal is along its winning line (``bits``); the free-cell family,
    the fewest free cells it is won with, then the search's positions; the Spider family,
    the search's positions (the children's searches of a forgiving count would cost
    seconds there)."""
    found = measures.proved(position)
    figures: dict[str, int | float] = {"positions": found.positions, "moves": len(found.line)}
    family = registered(position.game_id, library=True).family
    if isinstance(position, FreeCellFamily):
        cells = measures.fewest_cells(position)
        figures.update(cells=cells.fewest, cells_searched=cells.searched)
        figures["score"] = round(cells.fewest + math.log10(max(found.positions, 1)) / 10, 4)
    elif family in FORGIVENESS_FAMILIES:
        forgiving = measures.forgiveness(position, found.line)
        figures.update(decisions=forgiving.decisions, forced=forgiving.forced, bits=forgiving.bits, children_searched=forgiving.searched)
        figures["score"] = forgiving.bits
    else:
        figures["score"] = found.positions
    return figures


FORGIVENESS_FAMILIES = frozenset({"blackhole", "fourteen"})
"""The families graded by how forgiving their deals are (cheap there: short lines, few
legal moves, small searches)."""


def _tier(cuts: tuple[float, float, float], score: float) -> Grade:
    for grade, cut in zip(GRADES[::-1], cuts[::-1]):
        if score >= cut:
            return grade
    return Grade.EASY


def grade_position(position: Position) -> GradeReport:
    """The grade of ``position`` (its figures, cut by its game's :data:`CUTS`);
    :class:`NotGradable` unless the bounded search proves it winnable."""
    figures = _measure(position)
    return GradeReport(_tier(CUTS[position.game_id], figures["score"]), figures)


def grade_deal(game_id: str, deal: int) -> GradeReport:
    """The grade of deal ``deal`` of ``game_id`` (:class:`~winnable.errors.UnknownGameError`
    for an unknown game, :class:`NotGradable` as :func:`grade_position`)."""
    return grade_position(dealt(game_id, deal))
