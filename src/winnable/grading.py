"""TEMPORARY STUB of the grading contract (issue 33), so that the web side can run
before the real module lands: the grade helper's ``grading.py`` replaces this file at
the merge. Deterministic (positions searched under a node budget, never time).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Mapping

from winnable.errors import WinnableError
from winnable.game import Position
from winnable.games import game_class
from winnable.solver import Budget, solve


class Grade(str, enum.Enum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"


GRADES = tuple(Grade)


class NotGradable(WinnableError):
    """The position is not proved winnable by the grading's bounded search."""


@dataclass(frozen=True)
class GradeReport:
    grade: Grade
    figures: Mapping[str, int | float] = field(default_factory=dict)


def grade_position(position: Position) -> GradeReport:
    verdict = solve(position, Budget(nodes=200_000))
    if not verdict.won:
        raise NotGradable("not proved winnable within the grading's budget")
    positions = verdict.positions
    grade = Grade.EASY if positions < 60 else Grade.MEDIUM if positions < 200 else Grade.HARD if positions < 2000 else Grade.EXPERT
    return GradeReport(grade, {"positions": positions})


def grade_deal(game_id: str, deal: int) -> GradeReport:
    return grade_position(game_class(game_id).deal(deal))
