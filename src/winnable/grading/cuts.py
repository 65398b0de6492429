"""Each game's cuts: the score (:func:`winnable.grading.grade_position`) from which a
deal is medium, hard, expert. Fitted by ``bench/grades.py cuts`` on deals 1-2,000 of
each game (the tuning range; the validation reads other deals) so that about 40 % of the
winnable deals are easy, 35 % medium, 17 % hard and 8 % expert."""

from __future__ import annotations

CUTS: dict[str, tuple[float, float, float]] = {
    "black-hole": (15.0, 20.0, 25.0),
    "penguin": (5.0, 6.0, 7.0),
    "penguin-relaxed": (5.0, 6.0, 7.0),
    "penguin-6": (5.0, 5.5, 6.0),
    "penguin-5": (4.0, 4.5, 5.0),
    "penguin-3": (3.1, 3.2, 3.3),
    "penguin-0": (0.1, 0.2, 0.3),
    "penguin-pysolfc": (5.0, 6.0, 7.0),
    "freecell": (2.0, 3.0, 4.0),
    "eight-off": (5.0, 6.0, 7.0),
    "bakers-game": (3.0, 4.0, 4.5),
    "black-widow": (30_000, 90_000, 250_000),
    "spider-4": (30_000, 90_000, 250_000),
    "spider-2": (16_000, 20_000, 25_000),
    "spider-1": (14_000, 17_000, 20_000),
    "fourteen-out": (2.0, 5.0, 10.0),
}
