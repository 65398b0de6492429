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
import math
import time
from dataclasses import dataclass, field
from typing import Any

from winnable.errors import BudgetError, EngineError, WinnableError
from winnable.game import Move, Position
from winnable.lines import cut_loops


class Status(str, enum.Enum):
    """What the solver proved: a win, a loss, or nothing within its budget."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Budget:
    """How much search one question may cost: positions, seconds of CPU time of the
    thread that searches (not wall-clock time: a busy machine gives the same search),
    both or neither (``None`` means no limit). The engine splits it between the passes
    of its portfolio, each getting its share of the positions *and* of the time left;
    with no budget at all each engine still stops at a finite cap (see its presets), and
    the verdict is then ``unknown``. The Spider family spends a time budget whole (no
    cap; each pass of its search holds at most ``memory_mb`` megabytes, by default
    :data:`winnable.spider.SEARCH_MEMORY_MB`; the other engines ignore ``memory_mb``).

    >>> Budget(nodes=1_000_000)
    Budget(nodes=1000000, seconds=None, memory_mb=None)
    >>> Budget(seconds=60, memory_mb=6144)
    Budget(nodes=None, seconds=60, memory_mb=6144)
    >>> Budget(seconds=0)
    Traceback (most recent call last):
    ...
    winnable.errors.BudgetError: a time budget must be a positive number of seconds, not 0
    """

    nodes: int | None = None
    seconds: float | None = None
    memory_mb: int | None = None

    def engine_options(self) -> dict[str, Any]:
        """What :meth:`Position.engine_search` takes beyond positions and seconds: the
        memory bound, only when one is set (so a search that knows no such option, a
        test's stand-in say, is asked as before)."""
        return {} if self.memory_mb is None else {"memory_mb": self.memory_mb}

    def __post_init__(self) -> None:
        if self.memory_mb is not None:
            if isinstance(self.memory_mb, bool) or not isinstance(self.memory_mb, int) or not 16 <= self.memory_mb <= 1 << 20:
                raise BudgetError(f"a memory bound must be a whole number of megabytes from 16 to 1048576, not {self.memory_mb!r}")
        if self.nodes is not None:
            if isinstance(self.nodes, bool) or not isinstance(self.nodes, int) or self.nodes <= 0:
                raise BudgetError(f"a node budget must be a positive whole number of positions, not {self.nodes!r}")
        if self.seconds is not None:
            if (
                isinstance(self.seconds, bool)
                or not isinstance(self.seconds, (int, float))
                or not math.isfinite(self.seconds)
                or self.seconds <= 0
            ):
                raise BudgetError(f"a time budget must be a positive number of seconds, not {self.seconds!r}")


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
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def won(self) -> bool:
        return self.status is Status.WON

    @property
    def lost(self) -> bool:
        return self.status is Status.LOST

    def to_json(self) -> dict[str, Any]:
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
    return _replay(position, line)[0]


def _replay(position: Position, line: list[str]) -> tuple[tuple[Move, ...], list[Position]]:
    """:func:`replay`, with the positions of the line (``position`` first)."""
    moves: list[Move] = []
    states = [position]
    current = position
    for index, text in enumerate(line):
        try:
            move = current.parse_move(text)
            current = current.play(move)
        except WinnableError as error:
            raise EngineError(f"engine line refused at move {index + 1} ({text}): {error}") from error
        moves.append(move)
        states.append(current)
    if not current.is_won():
        raise EngineError(f"engine line of {len(line)} moves does not win ({current.cards_left()} cards left)")
    return tuple(moves), states


def solve(position: Position, budget: Budget = UNLIMITED) -> Verdict:
    """Solve ``position`` with the engine within ``budget``; verify any win.

    The engine releases the GIL while it searches, so threads may solve in parallel.
    It shortens the line it finds (``engine/src/shorten/``) within the same budget;
    the rules replay it, and a position the line would reach twice is cut out here too
    (:func:`winnable.lines.cut_loops`): a winning line never repeats a position.
    """
    start = time.perf_counter()
    if position.is_won():
        return Verdict(Status.WON, (), 0, 0.0, position.game_id, position.deal_number)
    status, line, positions = position.engine_search(budget.nodes, budget.seconds, **budget.engine_options())
    return checked(position, status, line, positions, start)


def checked(position: Position, status: str, line: list[str], positions: int, start: float) -> Verdict:
    """The engine's answer ``(status, line, positions)`` for ``position`` as a verdict,
    its line replayed by the rules (:class:`EngineError` if it does not win) with its
    loops cut out; ``start`` is when the search began (:func:`time.perf_counter`). For
    an answer from an engine elsewhere too (a Dask worker's): it is trusted only once
    the rules here have replayed it."""
    moves: tuple[Move, ...] = ()
    if status == "won":
        moves, states = _replay(position, line)
        if len(set(states)) < len(states):
            moves = cut_loops(position, moves, states)
    elif status not in ("lost", "unknown"):
        raise EngineError(f"engine answered {status!r}")
    return Verdict(Status(status), moves, positions, time.perf_counter() - start, position.game_id, position.deal_number)
