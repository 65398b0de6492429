"""Scores from the game pages, computed by the server from stored moves and its own clock.

* **Partial score** (Penguin and the free-cell family): the cards on the foundations, out
  of 52 (the deal's cards that can go home); a win scores them all.
* **Speed score** (Penguin's speed variant, "fewer moves and less time score higher"): a
  won game scores ``100000 // (moves + seconds)``, moves and whole seconds added as the
  game pages add them; an unfinished or lost game has none.

  ================  ==========  ===========
  moves             seconds     speed score
  ================  ==========  ===========
  60                180         416
  60                120         555
  90                120         476
  ================  ==========  ===========

* **Assisted**: a game won with at least one hint. Statistics keep assisted wins apart.
* **Timed play** (Black Hole): each move must be played within the thinking time chosen
  at the start (:data:`THINK_CHOICES`); the server's clock runs from the deal, the last
  move or the last undo, and a move that comes too late finds the game lost.

>>> speed_score(True, 60, 180.4), speed_score(False, 60, 180)
(416, None)
>>> Result("won", 75.0, 51, 0).key() < Result("won", 80.0, 40, 0).key() < Result("lost", None, 30, 3).key()
True
>>> Result("playing", None, 30, 12).key() < Result("lost", None, 20, 13).key()
True
>>> Result("won", 180.0, 60, 0, speed=416).key() < Result("won", 120.0, 90, 0, speed=476).key()
False
"""

from __future__ import annotations

import dataclasses
import math
from typing import Literal, overload

THINK_CHOICES = (10, 30, 60)
"""Black Hole's timed play: seconds allowed for each move."""

SPEED_POINTS = 100_000


@overload
def speed_score(won: Literal[True], moves: int, seconds: float) -> int: ...
@overload
def speed_score(won: bool, moves: int, seconds: float) -> int | None: ...
def speed_score(won: bool, moves: int, seconds: float) -> int | None:
    """Penguin's speed score of a game (None unless won)."""
    if not won:
        return None
    return SPEED_POINTS // max(1, moves + math.floor(seconds))


@dataclasses.dataclass(frozen=True)
class Result:
    """One attempt's result, as the leaderboard ranks it."""

    status: str
    seconds: float | None
    moves: int
    cards_left: int
    speed: int | None = None
    """Penguin's speed score of a win (the free-cell family), None elsewhere."""

    def key(self) -> tuple[int, float, float, int]:
        """Wins first, by time then moves (Penguin's: by speed score first, higher
        first); then every other attempt by cards left (for Penguin: by partial score,
        the same order), then moves."""
        if self.status == "won":
            return (0, -(self.speed or 0), self.seconds or 0.0, self.moves)
        return (1, 0, self.cards_left, self.moves)
