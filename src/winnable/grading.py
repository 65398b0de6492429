"""A deal's grade: easy, medium, hard or expert, measured by the engine, never guessed.

The grade is exact for the position: every figure behind it is a count (positions
searched within a budget in positions, moves), never a time, so the same deal gets the
same grade on every run and machine (:mod:`tests.rules.test_grading` checks it across
processes). A position the bounded search does not prove winnable has no grade
(:class:`NotGradable`).

>>> report = grade_deal("black-hole", 2)
>>> report.grade in GRADES, sorted(report.figures) == sorted(FIGURES)
(True, True)
>>> grade_deal("black-hole", 1)
Traceback (most recent call last):
...
winnable.errors.NotGradable: black-hole deal 1 is not proved winnable within 2,000,000 positions (lost)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from winnable.errors import NotGradable
from winnable.game import Position
from winnable.games import deal as dealt
from winnable.games import registered

__all__ = ["FIGURES", "GRADES", "Grade", "GradeReport", "NotGradable", "grade_deal", "grade_position"]


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


SEARCH_NODES = 2_000_000
"""The bounded search that proves a position winnable before it is graded: positions,
never seconds (the Spider family's survey budget; every other family's deals are won in
far fewer)."""

FIGURES: tuple[str, ...] = ("positions", "moves", "score")
"""The figures of every :class:`GradeReport`: ``positions`` the search needed to win
(the engine's verdict-only search, no shortening), ``moves`` its line, ``score`` what the
tiers cut."""

_CUTS: dict[str, tuple[int, int, int]] = {
    # The score from which a deal is medium, hard, expert: about the 50th, 80th and 95th
    # percentile of each family's winnable deals (docs/grades.md).
    "blackhole": (140, 700, 3000),
    "freecell": (65, 250, 1500),
    "spider": (30_000, 90_000, 250_000),
    "fourteen": (30, 100, 1000),
}


def _tier(cuts: tuple[int, int, int], score: float) -> Grade:
    for grade, cut in zip(GRADES[::-1], cuts[::-1]):
        if score >= cut:
            return grade
    return Grade.EASY


def grade_position(position: Position) -> GradeReport:
    """The grade of ``position``; :class:`NotGradable` unless the bounded search
    (:data:`SEARCH_NODES` positions) proves it winnable."""
    status, line, positions = position.engine_search(SEARCH_NODES, None, short=False)
    if status != "won":
        where = f"{position.game_id} deal {position.deal_number}" if position.deal_number is not None else position.game_id
        raise NotGradable(f"{where} is not proved winnable within {SEARCH_NODES:,} positions ({status})")
    score = positions
    cuts = _CUTS[registered(position.game_id, library=True).family]
    figures: dict[str, int | float] = {"positions": positions, "moves": len(line), "score": score}
    return GradeReport(_tier(cuts, score), figures)


def grade_deal(game_id: str, deal: int) -> GradeReport:
    """The grade of deal ``deal`` of ``game_id`` (:class:`~winnable.errors.UnknownGameError`
    for an unknown game, :class:`NotGradable` as :func:`grade_position`)."""
    return grade_position(dealt(game_id, deal))
