"""A pace no person reaches: which results are kept out of every ranking.

Every stored move has the server's time (``games.move_times``: milliseconds from the
game's clock start, written when the move is stored; a client sends no time). A move
sent with ``auto`` and the safe moves home it played share one time: one request, one
*action* of the player. The gaps between the actions are the player's pace.

A result is **not ranked** when its actions came faster than a person can make them
(the figures and where they come from: ``docs/fair-play.md``):

* ``pace_median``: over at least :data:`MEDIAN_MIN_GAPS` gaps, the median gap is under
  :data:`MEDIAN_FLOOR` seconds. A move is seeing a card, choosing it and pointing at it;
  a simple reaction alone takes a person about 0.2-0.25 s, a choice and a pointing
  movement (Fitts' law) 0.4 s and more: half of a game's moves under 0.2 s is no person.
* ``pace_total``: from the first action to the last, less than :data:`TOTAL_FLOOR`
  seconds an action: faster than the line could be clicked (ten taps a second is past
  the fastest finger-tapping rates measured), whatever the pauses.

>>> pace([0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500]).code   # a bot posting its line
'pace_median'
>>> pace([0] + [1200 * k for k in range(1, 60)]) is None            # a move every 1.2 s
True
>>> quick_then_wait = [0, 10, 20, 30, 40, 50, 60, 70, 80, 60_000]   # nine at once, a pause
>>> pace(quick_then_wait) is None, pace([0, 10, 20, 30, 40]).code
(True, 'pace_total')
>>> pace([0, 500, 500, 500, 900]) is None   # one move sent with auto: three moves, one action
True
>>> pace(None) is None   # a game stored before the server kept move times: not judged
True
"""

from __future__ import annotations

import dataclasses
import statistics
from typing import Sequence, TypedDict

MEDIAN_FLOOR = 0.2
"""Seconds: a median gap between actions under this is no person's."""
MEDIAN_MIN_GAPS = 10
"""Gaps a median is judged on at least (fewer say little about a pace)."""
TOTAL_FLOOR = 0.1
"""Seconds an action at least, from the first action to the last."""
TOTAL_MIN_GAPS = 3
"""Gaps the total is judged on at least."""


class NotRanked(TypedDict):
    """A :class:`Pace` as JSON (the API's ``NotRanked``)."""

    code: str
    actions: int
    seconds: float
    median_seconds: float
    floor_seconds: float


@dataclasses.dataclass(frozen=True)
class Pace:
    """Why a result is not ranked: its ``code`` and the figures behind it."""

    code: str
    actions: int
    seconds: float
    """From the first action to the last."""
    median_seconds: float
    floor_seconds: float

    def as_json(self) -> NotRanked:
        return {
            "code": self.code,
            "actions": self.actions,
            "seconds": self.seconds,
            "median_seconds": self.median_seconds,
            "floor_seconds": self.floor_seconds,
        }


def actions(move_times: Sequence[int] | None) -> list[int]:
    """The times of the player's actions: the moves' times, one per request."""
    if not move_times:
        return []
    out: list[int] = []
    for at in move_times:
        if not out or at != out[-1]:
            out.append(int(at))
    return out


def pace(move_times: Sequence[int] | None) -> Pace | None:
    """Why a game's moves came faster than a person plays (None: they did not, or too
    few to judge)."""
    times = actions(move_times)
    gaps = [(after - before) / 1000 for before, after in zip(times, times[1:])]
    if len(gaps) < TOTAL_MIN_GAPS:
        return None
    median = statistics.median(gaps)
    total = sum(gaps)
    if len(gaps) >= MEDIAN_MIN_GAPS and median < MEDIAN_FLOOR:
        code, floor = "pace_median", MEDIAN_FLOOR
    elif total < TOTAL_FLOOR * len(gaps):
        code, floor = "pace_total", TOTAL_FLOOR
    else:
        return None
    return Pace(code, len(times), round(total, 3), round(median, 3), floor)
