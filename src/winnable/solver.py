"""The solver API: ask the engine, then replay its line through the rules.

>>> from winnable.blackhole import BlackHole
>>> verdict = solve(BlackHole.deal(2))
>>> verdict.status, verdict.won, len(verdict.line)
(<Status.WON: 'won'>, True, 51)
>>> solve(BlackHole.deal(1)).status
<Status.LOST: 'lost'>
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field

from winnable.errors import EngineError, WinnableError
from winnable.game import Move, Position


class Status(str, enum.Enum):
    """What the solver proved: a win, a loss, or nothing within its budget."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Budget:
    """How much search one question may cost. ``None`` means no limit."""

    nodes: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None and self.nodes <= 0:
            raise ValueError("a node budget must be positive")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a time budget must be positive")


UNLIMITED = Budget()


@dataclass(frozen=True, slots=True)
class Verdict:
    """The solver's answer for one position.

    ``line`` is a winning line that the Python rules have replayed from the position
    (empty unless ``status`` is ``WON``); ``positions`` is what the engine searched.
    """

    status: Status
    line: tuple[Move, ...] = ()
    positions: int = 0
    seconds: float = 0.0
    game: str = ""
    deal: int | None = None
    extra: dict = field(default_factory=dict)

    @property
    def won(self) -> bool:
        return self.status is Status.WON

    @property
    def lost(self) -> bool:
        return self.status is Status.LOST

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "deal": self.deal,
            "verdict": self.status.value,
            "moves": len(self.line),
            "line": [str(move) for move in self.line],
            "positions": self.positions,
            "seconds": round(self.seconds, 6),
        }


def replay(position: Position, line: list[str]) -> tuple[Move, ...]:
    """Play ``line`` with the rules; return its moves if it ends in a win.

    Raises :class:`EngineError` if a move is illegal or the line does not win.
    """
    moves: list[Move] = []
    current = position
    for index, text in enumerate(line):
        try:
            move = current.parse_move(text)
            current = current.play(move)
        except WinnableError as error:
            raise EngineError(f"engine line refused at move {index + 1} ({text}): {error}") from error
        moves.append(move)
    if not current.is_won():
        raise EngineError(f"engine line of {len(line)} moves does not win ({current.cards_left()} cards left)")
    return tuple(moves)


def solve(position: Position, budget: Budget = UNLIMITED) -> Verdict:
    """Solve ``position`` with the engine within ``budget``; verify any win.

    The engine releases the GIL while it searches, so threads may solve in parallel.
    """
    start = time.perf_counter()
    if position.is_won():
        return Verdict(Status.WON, (), 0, 0.0, position.game_id, position.deal_number)
    status, line, positions = position.engine_search(budget.nodes, budget.seconds)
    moves: tuple[Move, ...] = ()
    if status == "won":
        moves = replay(position, line)
    elif status not in ("lost", "unknown"):
        raise EngineError(f"engine answered {status!r}")
    return Verdict(Status(status), moves, positions, time.perf_counter() - start, position.game_id, position.deal_number)
