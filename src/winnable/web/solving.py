"""Request-time solving: hints, "still winnable?" and "where did I lose?".

Every search goes through the :class:`~winnable.web.queue.SolverQueue` (bounded workers,
bounded queue, fair between clients); each request has a time budget that covers its
wait in the queue as well as the search; when it runs out the answer is "unknown",
never a late reply. The budgets a client may ask for are capped by the settings.

Every verdict is cached by position, in a cache bounded by bytes. A position one move
along a cached winning line inherits the rest of the line, so a player who follows the
hints gets each next hint without a search; a proved loss is cached too.

Winnability is monotone along a game: a position from which no win exists leads only to
such positions. So the move that lost a game is found by a binary search over its
history, a handful of solver calls, after the cache has narrowed it.

The pool of proved-winnable deals is not here: :mod:`winnable.web.pool` fills it in the
background, and requests only take from it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import anyio.to_thread

from winnable.game import Position
from winnable.solver import Budget, Status, solve
from winnable.web.cache import ByteLRU
from winnable.web.i18n import NP_, N_
from winnable.web.queue import ANALYSIS, HINT, Expired, SolverQueue
from winnable.web.service import Snapshot, hides_cards

log = logging.getLogger("winnable.web")

MARGIN = 0.85
"""Share of a request's budget given to searching: the engine checks its clock every few
thousand positions and the line is replayed by the rules afterwards, so a search may end
a little after its deadline; the rest of the budget absorbs that."""


@dataclass(frozen=True)
class Known:
    """What the solver knows about one position."""

    status: Status
    line: tuple[str, ...] = ()
    positions: int = 0
    seconds: float = 0.0
    cached: bool = False
    busy: bool = False  # no solver worker came free within the budget
    failure: str = ""  # the engine failed (a bug, reported as "unknown")

    def cost(self) -> int:
        """Bytes this verdict holds in the cache (its line's moves are short strings)."""
        return 120 + 64 * len(self.line)


def cache_key(position: Position) -> tuple[str, str]:
    return (position.game_id, position.to_text())


class Solver:
    """Runs the engine through the queue, with per-request budgets and a verdict cache
    of at most ``cache_bytes``."""

    def __init__(self, queue: SolverQueue | None = None, cache_bytes: int = 32 << 20) -> None:
        self.queue = queue
        self.cache = ByteLRU(cache_bytes)
        self.searches = 0

    @property
    def threads(self) -> int:
        return self.queue.workers if self.queue is not None else 1

    def stats(self) -> dict[str, int]:
        queue = self.queue.stats() if self.queue is not None else {}
        return queue | {"searches": self.searches, "cached": len(self.cache), "cache_bytes": self.cache.bytes}

    def _put(self, position: Position, known: Known) -> None:
        key = cache_key(position)
        self.cache.put(key, known, known.cost() + 2 * len(key[1]))

    def lookup(self, position: Position, parent: Position | None = None, last_move: str | None = None) -> Known | None:
        """The cached verdict on ``position``, if any. A position reached by playing the
        first move of a cached winning line from ``parent`` (with ``last_move``) gets
        the rest of that line: a player who follows the hints needs no new search."""
        if position.is_won():
            return Known(Status.WON, (), cached=True)
        if position.is_lost():  # the rules say so: no search, no solver slot
            return Known(Status.LOST, (), cached=True)
        known = self.cache.get(cache_key(position))
        if known is None and parent is not None and last_move is not None:
            before = self.cache.get(cache_key(parent))
            if before is not None and before.status is Status.WON and before.line[:1] == (last_move,):
                known = Known(Status.WON, before.line[1:])
                self._put(position, known)
        return None if known is None else Known(known.status, known.line, 0, 0.0, cached=True)

    def remember_line(self, position: Position, line: Sequence[str]) -> None:
        """Cache a verified winning line from ``position`` (the positions along it are
        found from it when they are reached; see :meth:`lookup`)."""
        self._put(position, Known(Status.WON, tuple(line)))

    def solve_now(self, position: Position, seconds: float) -> Known:
        """Solve in this thread (a queue worker, or the pool's filler process)."""
        known = self.lookup(position)
        if known is not None:
            return known
        try:
            verdict = solve(position, Budget(seconds=max(seconds, 0.001)))
        except Exception as error:  # an engine bug (EngineError) must not become a 500
            log.exception("solver failed on %s position", position.game_id)
            return Known(Status.UNKNOWN, failure=f"{type(error).__name__}: {error}")
        self.searches += 1
        line = tuple(str(move) for move in verdict.line)
        if verdict.status is Status.WON:
            self.remember_line(position, line)
        elif verdict.status is Status.LOST:
            self._put(position, Known(Status.LOST))
        return Known(verdict.status, line, verdict.positions, verdict.seconds)

    async def verdict(self, position: Position, deadline: float, client: str = "",
                      parent: Position | None = None, last_move: str | None = None, kind: str = HINT) -> Known:
        """The verdict on ``position``, searched by the queue in ``client``'s turn among
        jobs of its ``kind`` (hints go before analyses) before ``deadline`` (a
        :func:`time.monotonic` time); ``parent`` and ``last_move`` as in :meth:`lookup`.
        A full queue raises 503 (429 for a client over its share)."""
        known = self.lookup(position, parent, last_move)
        if known is not None:
            return known
        if self.queue is None:
            return await anyio.to_thread.run_sync(self.solve_now, position, max(0.0, deadline - time.monotonic()))
        try:
            return await self.queue.run(client, lambda seconds: self.solve_now(position, seconds), deadline, kind)
        except Expired:
            return Known(Status.UNKNOWN, busy=True)


def describe(position: Position, notation: str) -> dict[str, Any]:
    return position.describe_move(position.parse_move(notation))


async def hint(solver: Solver, game: Snapshot, seconds: float, parent: Position | None = None,
               client: str = "") -> dict[str, Any]:
    """The next move of a winning line from the game's current position, or a verdict.

    ``parent`` is the position before the last move, if at hand (see :meth:`Solver.lookup`).
    """
    started = time.monotonic()
    position = game.position
    knows_hidden = hides_cards(game.cls)
    answer: dict[str, Any] = {"move": None, "knows_hidden": knows_hidden, "at": len(game.moves)}
    if position.is_won():
        return answer | {"verdict": "won", "message": N_("The game is won."), "seconds": 0.0, "cached": True}
    if not position.legal_moves():
        return answer | {"verdict": "lost", "message": N_("No winning line from here: no move is left."), "seconds": 0.0, "cached": True}
    last_move = game.moves[-1] if game.moves else None
    known = await solver.verdict(position, started + seconds * MARGIN, client, parent, last_move)
    answer |= {"verdict": known.status.value, "seconds": round(time.monotonic() - started, 4), "cached": known.cached}
    if known.status is Status.WON:
        move = known.line[0]
        return answer | {
            "move": move,
            "describe": describe(position, move),
            "line_length": len(known.line),
            "message": NP_("{move} keeps a win in reach ({n} move to go; the hint knows the face-down cards)",
                           "{move} keeps a win in reach ({n} moves to go; the hint knows the face-down cards)",
                           len(known.line), move=move) if knows_hidden else
            NP_("{move} keeps a win in reach ({n} move to go)", "{move} keeps a win in reach ({n} moves to go)",
                len(known.line), move=move),
        }
    if known.status is Status.LOST:
        return answer | {"message": N_("No winning line from here.")}
    if known.busy:
        return answer | {"message": N_("The solver is busy with other players' hints; try again in a moment.")}
    if known.failure:
        return answer | {"message": N_("The solver could not work on this position (a bug on our side).")}
    return answer | {"message": N_("No winning line found within {seconds} s; one may still exist.", seconds=format(seconds, "g"))}


async def analysis(solver: Solver, game: Snapshot, prefixes: Callable[[int], Position], seconds: float,
                   client: str = "") -> dict[str, Any]:
    """Is the game still winnable and, if it is lost, which move lost it.

    ``prefixes(k)`` is the position after the first ``k`` moves. A binary search finds
    the last winnable position ``k`` (a win exists after ``moves[:k]`` but not after
    ``moves[:k+1]``); ``moves[k]`` is the losing move and ``better_move`` the first move
    of a winning line from there.
    """
    started = time.monotonic()
    deadline = started + seconds * MARGIN
    moves = list(game.moves)
    checked: list[dict[str, Any]] = []
    searched = 0

    async def verdict_at(k: int) -> Known:
        nonlocal searched
        position = game.position if k == len(moves) else await anyio.to_thread.run_sync(prefixes, k)
        known = await solver.verdict(position, deadline, client, kind=ANALYSIS)
        searched += known.positions
        checked.append({"at": k, "verdict": known.status.value, "cached": known.cached})
        return known

    result: dict[str, Any] = {
        "verdict": "unknown",
        "winnable": None,
        "lost_at": None,
        "losing_move": None,
        "better_move": None,
        "better_line_length": None,
        "moves": len(moves),
        "knows_hidden": hides_cards(game.cls),
    }

    def finish(message: str) -> dict[str, Any]:
        return result | {
            "message": message,
            "positions": searched,
            "checked": checked,
            "seconds": round(time.monotonic() - started, 4),
        }

    now = await verdict_at(len(moves))
    result["verdict"] = now.status.value
    if now.status is Status.WON:
        result["winnable"] = True
        return finish(N_("Still winnable.") if game.status != "won" else N_("The game is won."))
    if now.status is Status.UNKNOWN:
        return finish(N_("Undecided: the solver found no winning line within {seconds} s.", seconds=format(seconds, "g")))
    # Lost from here. What hints and earlier analyses proved narrows the search: the
    # last position known winnable (low) and the first known lost (high).
    low, low_line, high = (0, None, 0) if not moves else await anyio.to_thread.run_sync(known_bounds, solver, prefixes(0), moves)
    if low_line is None:  # nothing known, not even about the deal: was it winnable at all?
        start = now if not moves else await verdict_at(0)
        if start.status is Status.LOST:
            result["winnable"] = False
            return finish(N_("This deal cannot be won: no move lost it."))
        if start.status is Status.UNKNOWN:
            return finish(N_("No winning line from here; the solver could not tell within {seconds} s whether the deal was winnable.",
                              seconds=format(seconds, "g")))
        low_line = start.line
    result["winnable"] = True
    while high - low > 1:
        middle = (low + high) // 2
        known = await verdict_at(middle)
        if known.status is Status.WON:
            low, low_line = middle, known.line
        elif known.status is Status.LOST:
            high = middle
        else:
            result["between"] = [low, high]
            return finish(N_("No winning line from here; the losing move is between moves {low} and {high}, "
                             "but the solver ran out of its {seconds} s.", low=low + 1, high=high, seconds=format(seconds, "g")))
    result |= {
        "lost_at": low,
        "losing_move": moves[low],
        "better_move": low_line[0] if low_line else None,
        "better_line_length": len(low_line),
    }
    if low_line:
        return finish(N_("Move {n}, {move}, lost the game; {better} would have kept a win in reach.",
                         n=low + 1, move=moves[low], better=low_line[0]))
    return finish(N_("Move {n}, {move}, lost the game.", n=low + 1, move=moves[low]))


def known_bounds(solver: Solver, start: Position,
                 moves: Sequence[str]) -> tuple[int, tuple[str, ...] | None, int]:
    """From the cache alone: the last position of a lost game known to be winnable, with
    its line (None if not even the deal is known to be), and the first known to be lost.
    Cached lines are followed along the moves played, so a hint taken ten moves ago still
    counts if its line was followed. One replay of the game from ``start``, the deal."""
    low, low_line, high = 0, None, len(moves)
    previous = None
    position = start
    for k in range(len(moves)):
        if k:
            position = position.play(moves[k - 1])
        known = solver.lookup(position, previous, moves[k - 1] if k else None)
        previous = position
        if known is None:
            continue
        if known.status is Status.WON:
            low, low_line = k, known.line
        elif known.status is Status.LOST:
            high = k
            break  # monotone: lost from here on
    return low, low_line, high
