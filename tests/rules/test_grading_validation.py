"""The grades against players they were not built from (winnable.grading.players), on a
small held-out sample: the full figures are in docs/grades.md (bench/grades.py)."""

from __future__ import annotations

import pytest

from winnable.errors import NotGradable
from winnable.games import deal
from winnable.grading import Grade, grade_deal
from winnable.grading.players import play

pytestmark = pytest.mark.slow

HELD_OUT = 2_000_001
"""Far from the deals the cuts were fitted on (1-10,000) and from bench/grades.py's."""


def sample(game: str, wanted: dict[Grade, int]) -> dict[Grade, list[int]]:
    found: dict[Grade, list[int]] = {grade: [] for grade in wanted}
    number = HELD_OUT
    while any(len(found[grade]) < count for grade, count in wanted.items()):
        try:
            grade = grade_deal(game, number).grade
        except NotGradable:
            grade = None
        if grade in found and len(found[grade]) < wanted[grade]:
            found[grade].append(number)
        number += 1
    return found


def wins(game: str, numbers: list[int], player: str, seeds: int) -> int:
    return sum(play(deal(game, number), player, seed).won for number in numbers for seed in range(seeds))


def test_fourteen_out_players_win_easy_deals_more_often_than_expert_ones():
    deals = sample("fourteen-out", {Grade.EASY: 20, Grade.EXPERT: 20})
    for player, seeds in [("random", 5), ("lookahead", 1)]:
        easy, expert = wins("fourteen-out", deals[Grade.EASY], player, seeds), wins("fourteen-out", deals[Grade.EXPERT], player, seeds)
        assert easy > expert, (player, easy, expert)


def test_penguin_lookahead_wins_easy_deals_more_often_than_expert_ones():
    deals = sample("penguin", {Grade.EASY: 15, Grade.EXPERT: 15})
    assert wins("penguin", deals[Grade.EASY], "lookahead", 1) > wins("penguin", deals[Grade.EXPERT], "lookahead", 1)
