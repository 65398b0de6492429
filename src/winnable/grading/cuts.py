"""Each game's cuts: the score (:func:`winnable.grading.grade_position`) from which a
deal is medium, hard, expert. Fitted by ``bench/grades.py cuts`` on the first deals of
each game (deals 1-250 at least, as many as this shared machine graded in the time; the
validation reads other deals, 1,000,001 on) so that about 40 % of the winnable deals are
easy, 35 % medium, 17 % hard and 8 % expert. The free-cell family's scores come in steps
(a whole free cell, then a tenth of the search's positions' logarithm), so its shares
land near those, not on them (docs/surveys/grades.md gives them)."""

from __future__ import annotations

CUTS: dict[str, tuple[float, float, float]] = {
    "black-hole": (16.077, 21.172, 25.4),  # 1744 winnable of deals 1-2000
    "penguin": (5.1813, 6.1987, 7.2033),  # 494 winnable of deals 1-500
    "penguin-relaxed": (5.138, 5.2167, 6.2013),  # 253 winnable of deals 1-253
    "penguin-6": (5.1875, 6.1982, 6.3021),  # 212 winnable of deals 1-250
    "penguin-5": (5.1732, 5.2636, 5.3443),  # 130 winnable of deals 1-250
    "penguin-3": (3.1724, 3.2149, 3.3455),  # 8 winnable of deals 1-250
    "penguin-0": (0.1, 0.2, 0.3),  # no deal winnable (none of 1-250): never used
    "penguin-pysolfc": (5.1519, 5.2711, 6.2079),  # 250 winnable of deals 1-250
    "freecell": (2.1898, 2.286, 3.2427),  # 250 winnable of deals 1-250
    "eight-off": (6.1491, 6.2342, 7.2025),  # 250 winnable of deals 1-250
    "bakers-game": (4.1716, 4.267, 4.3035),  # 190 winnable of deals 1-250
    "black-widow": (16100, 54475, 180753),  # 250 winnable of deals 1-250
    "spider-4": (16096, 54456, 175952),  # 249 winnable of deals 1-250
    "spider-2": (14283, 16007, 17708),  # 250 winnable of deals 1-250
    "spider-1": (13167, 15197, 16612),  # 250 winnable of deals 1-250
    "fourteen-out": (2.737, 7.152, 12.188),  # 462 winnable of deals 1-500
}
