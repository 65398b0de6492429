"""Solver-backed play: hints, "where did I lose?" and the pool of winnable deals.

The engine releases the GIL, so every search runs in a worker thread and the server
keeps answering other players meanwhile. Each request has a time budget (default 2 s)
that covers waiting for a free solver slot as well as the search; when it runs out the
answer is "unknown", never a late reply.

Every verdict is cached by position. A position one move along a cached winning line
inherits the rest of the line, so a player who follows the hints gets each next hint
without a search; a proved loss is cached too.

Winnability is monotone along a game: a position from which no win exists leads only to
such positions. So the move that lost a game is found by a binary search over its
history, a handful of solver calls, after the cache has narrowed it.

The pool of proved-winnable deals lives in the database and is filled by a separate
low-priority process, so its searches never compete with requests for the GIL.
"""

from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import anyio
import anyio.to_thread
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from winnable.errors import WinnableError
from winnable.game import Position
from winnable.games import game_class, game_ids
from winnable.solver import Budget, Status, solve
from winnable.web.db import WinnableDeal, utcnow, write_lock, writer
from winnable.web.service import LRU, RANDOM_DEALS, Snapshot, hides_cards, lookup_game

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
    busy: bool = False  # no solver slot came free within the budget
    failure: str = ""  # the engine failed (a bug, reported as "unknown")


def cache_key(position: Position) -> tuple[str, str]:
    return (position.game_id, position.to_text())


class Solver:
    """Runs the engine in worker threads with per-request budgets and a verdict cache."""

    def __init__(self, threads: int | None = None, cache_size: int = 20_000) -> None:
        # One core is left to answer requests: hints must never slow the game down.
        self.threads = max(1, threads or (os.cpu_count() or 2) - 1)
        self.cache = LRU(cache_size)
        self._slots: anyio.CapacityLimiter | None = None
        self._pool: anyio.CapacityLimiter | None = None
        self._active = 0
        self._active_lock = threading.Lock()
        self.searches = 0

    def stats(self) -> dict[str, int]:
        return {"threads": self.threads, "searching": self._active, "searches": self.searches, "cached": len(self.cache)}

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
                self.cache.put(cache_key(position), known)
        return None if known is None else Known(known.status, known.line, 0, 0.0, cached=True)

    def remember_line(self, position: Position, line: Sequence[str]) -> None:
        """Cache a verified winning line from ``position`` (the positions along it are
        found from it when they are reached; see :meth:`lookup`)."""
        self.cache.put(cache_key(position), Known(Status.WON, tuple(line)))

    def solve_now(self, position: Position, seconds: float) -> Known:
        """Solve in this thread (a worker thread; the engine releases the GIL)."""
        known = self.lookup(position)
        if known is not None:
            return known
        with self._active_lock:
            self._active += 1
        try:
            verdict = solve(position, Budget(seconds=max(seconds, 0.001)))
        except Exception as error:  # an engine bug (EngineError) must not become a 500
            log.exception("solver failed on %s position", position.game_id)
            return Known(Status.UNKNOWN, failure=f"{type(error).__name__}: {error}")
        finally:
            with self._active_lock:
                self._active -= 1
        self.searches += 1
        line = tuple(str(move) for move in verdict.line)
        if verdict.status is Status.WON:
            self.remember_line(position, line)
        elif verdict.status is Status.LOST:
            self.cache.put(cache_key(position), Known(Status.LOST))
        return Known(verdict.status, line, verdict.positions, verdict.seconds)

    async def verdict(self, position: Position, deadline: float, parent: Position | None = None,
                      last_move: str | None = None) -> Known:
        """The verdict on ``position``, searched in a worker thread before ``deadline``
        (a :func:`time.monotonic` time); ``parent`` and ``last_move`` as in :meth:`lookup`."""
        known = self.lookup(position, parent, last_move)
        if known is not None:
            return known
        if self._slots is None:
            self._slots = anyio.CapacityLimiter(self.threads)
            self._pool = anyio.CapacityLimiter(self.threads)
        got_slot = False
        with anyio.move_on_after(max(0.0, deadline - time.monotonic())):
            await self._slots.acquire()
            got_slot = True
        if not got_slot:
            return Known(Status.UNKNOWN, busy=True)
        try:
            left = deadline - time.monotonic()
            if left <= 0.001:
                return Known(Status.UNKNOWN, busy=True)
            return await anyio.to_thread.run_sync(self.solve_now, position, left, limiter=self._pool)
        finally:
            self._slots.release()


def describe(position: Position, notation: str) -> dict[str, Any]:
    return position.describe_move(position.parse_move(notation))


async def hint(solver: Solver, game: Snapshot, seconds: float, parent: Position | None = None) -> dict[str, Any]:
    """The next move of a winning line from the game's current position, or a verdict.

    ``parent`` is the position before the last move, if at hand (see :meth:`Solver.lookup`).
    """
    started = time.monotonic()
    position = game.position
    knows_hidden = hides_cards(game.cls)
    answer: dict[str, Any] = {"move": None, "knows_hidden": knows_hidden, "at": len(game.moves)}
    if position.is_won():
        return answer | {"verdict": "won", "message": "The game is won.", "seconds": 0.0, "cached": True}
    if not position.legal_moves():
        return answer | {"verdict": "lost", "message": "No winning line from here: no move is left.", "seconds": 0.0, "cached": True}
    last_move = game.moves[-1] if game.moves else None
    known = await solver.verdict(position, started + seconds * MARGIN, parent, last_move)
    answer |= {"verdict": known.status.value, "seconds": round(time.monotonic() - started, 4), "cached": known.cached}
    if known.status is Status.WON:
        move = known.line[0]
        return answer | {
            "move": move,
            "describe": describe(position, move),
            "line_length": len(known.line),
            "message": f"{move} keeps a win in reach ({len(known.line)} moves to go)"
            + (" (the hint knows the face-down cards)" if knows_hidden else ""),
        }
    if known.status is Status.LOST:
        return answer | {"message": "No winning line from here."}
    if known.busy:
        return answer | {"message": "The solver is busy with other players' hints; try again in a moment."}
    if known.failure:
        return answer | {"message": "The solver could not work on this position (a bug on our side)."}
    return answer | {"message": f"No winning line found within {seconds:g} s; one may still exist."}


async def analysis(solver: Solver, game: Snapshot, prefixes: Callable[[int], Position], seconds: float) -> dict[str, Any]:
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
        known = await solver.verdict(position, deadline)
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
        return finish("Still winnable." if game.status != "won" else "The game is won.")
    if now.status is Status.UNKNOWN:
        return finish(f"Undecided: the solver found no winning line within {seconds:g} s.")
    # Lost from here. What hints and earlier analyses proved narrows the search: the
    # last position known winnable (low) and the first known lost (high).
    low, low_line, high = (0, None, 0) if not moves else await anyio.to_thread.run_sync(known_bounds, solver, prefixes, moves)
    if low_line is None:  # nothing known, not even about the deal: was it winnable at all?
        start = now if not moves else await verdict_at(0)
        if start.status is Status.LOST:
            result["winnable"] = False
            return finish("This deal cannot be won: no move lost it.")
        if start.status is Status.UNKNOWN:
            return finish(f"No winning line from here; the solver could not tell within {seconds:g} s whether the deal was winnable.")
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
            return finish(f"No winning line from here; the losing move is between moves {low + 1} and {high}, "
                          f"but the solver ran out of its {seconds:g} s.")
    result |= {
        "lost_at": low,
        "losing_move": moves[low],
        "better_move": low_line[0] if low_line else None,
        "better_line_length": len(low_line),
    }
    better = f"; {low_line[0]} would have kept a win in reach" if low_line else ""
    return finish(f"Move {low + 1}, {moves[low]}, lost the game{better}.")


def known_bounds(solver: Solver, prefixes: Callable[[int], Position],
                 moves: Sequence[str]) -> tuple[int, tuple[str, ...] | None, int]:
    """From the cache alone: the last position of a lost game known to be winnable, with
    its line (None if not even the deal is known to be), and the first known to be lost.
    Cached lines are followed along the moves played, so a hint taken ten moves ago still
    counts if its line was followed."""
    low, low_line, high = 0, None, len(moves)
    previous = None
    for k in range(len(moves)):
        position = prefixes(k)
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


# -- the pool of proved-winnable deals ---------------------------------------------------
@dataclass
class PoolSettings:
    size: int = 20
    """Unused proved-winnable deals kept ready per game."""
    seconds: float = 2.0
    """Search budget per candidate deal in the background."""
    idle: float = 5.0
    """Seconds between checks once every game's pool is full."""
    games: list[str] | None = None
    """Games to fill (default: every registered game)."""
    give_up_after: int = 10
    """Deals not proved in a row before a game's filling pauses..."""
    backoff: float = 60.0
    """...for this many seconds, doubled each time up to an hour."""
    rest: float = 0.5
    """After each attempt, rest this share of its time."""


@dataclass
class Found:
    game: str
    deal: int
    line: tuple[str, ...]
    positions: int = 0
    seconds: float = 0.0
    from_pool: bool = True
    extra: dict = field(default_factory=dict)


class WinnablePool:
    """Deal numbers the solver proved winnable, per game, kept in the database.

    In the background (:meth:`start`: a process of low CPU priority, so that requests and
    hints come first) ``size`` unused deals are kept ready for every game: random deal
    numbers, each searched within a budget. :meth:`take` hands one out and marks it used.
    """

    def __init__(self, engine: Engine, solver: Solver, settings: PoolSettings | None = None) -> None:
        self.engine = engine
        self.write_engine = writer(engine)
        self.solver = solver
        self.settings = settings or PoolSettings()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._process = None
        self._process_stop = None
        self._take_lock = threading.Lock()
        self.attempts = 0
        self.progress: dict[str, Progress] = {}

    # -- storage ---------------------------------------------------------------------
    def ready(self, game: str) -> int:
        with Session(self.engine) as session:
            query = select(func.count()).select_from(WinnableDeal).where(WinnableDeal.game == game, WinnableDeal.used_at.is_(None))
            return session.scalar(query) or 0

    def counts(self) -> dict[str, int]:
        with Session(self.engine) as session:
            query = (
                select(WinnableDeal.game, func.count())
                .where(WinnableDeal.used_at.is_(None))
                .group_by(WinnableDeal.game)
            )
            found = dict(session.execute(query).all())
        return {game: found.get(game, 0) for game in self.games()}

    def add(self, found: Found, used: bool = False) -> bool:
        """Store a proved deal; False if the pool already had it."""
        try:
            with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
                session.add(
                    WinnableDeal(
                        game=found.game,
                        deal=str(found.deal),
                        line=list(found.line),
                        positions=found.positions,
                        seconds=found.seconds,
                        created_at=utcnow(),
                        used_at=utcnow() if used else None,
                    )
                )
        except IntegrityError:
            return False
        return True

    def take(self, game: str) -> Found | None:
        """Hand out one unused proved deal of ``game`` (marked used), or None."""
        with self._take_lock, write_lock(self.engine), Session(self.write_engine) as session, session.begin():
            query = (
                select(WinnableDeal)
                .where(WinnableDeal.game == game, WinnableDeal.used_at.is_(None))
                .order_by(WinnableDeal.id)
                .limit(1)
                .with_for_update(skip_locked=True)
            )
            row = session.scalars(query).first()
            if row is None:
                return None
            row.used_at = utcnow()
            found = Found(game, int(row.deal), tuple(row.line), row.positions, row.seconds)
        return found  # the filler notices within `idle` seconds (not at once: this request first)

    def known_deal(self, game: str, deal: int) -> bool:
        with Session(self.engine) as session:
            query = select(WinnableDeal.id).where(WinnableDeal.game == game, WinnableDeal.deal == str(deal))
            return session.scalars(query).first() is not None

    # -- searching -------------------------------------------------------------------
    def games(self) -> list[str]:
        return list(self.settings.games) if self.settings.games is not None else game_ids()

    def try_deal(self, game: str, deal: int, seconds: float) -> Found | None:
        """Solve one deal within ``seconds``; the proof if it is winnable."""
        position = lookup_game(game).deal(deal)
        self.attempts += 1
        known = self.solver.solve_now(position, seconds)
        if known.status is not Status.WON:
            return None
        return Found(game, deal, known.line, known.positions, known.seconds)

    def search(self, game: str, seconds: float, per_deal: float | None = None, rng: random.Random | None = None) -> Found | None:
        """Try random deals until one is proved winnable or ``seconds`` are spent
        (in the calling thread)."""
        rng = rng or random.Random()
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0.005:
            deal = rng.randint(1, RANDOM_DEALS)
            if self.known_deal(game, deal):
                continue
            found = self.try_deal(game, deal, min(left, per_deal or self.settings.seconds))
            if found is not None:
                return found
        return None

    def fill(self, game: str, count: int, seconds: float = 60.0) -> int:
        """Add up to ``count`` proved deals of ``game`` within ``seconds``; how many were added."""
        added = 0
        deadline = time.monotonic() + seconds
        while added < count and (left := deadline - time.monotonic()) > 0:
            found = self.search(game, left)
            if found is not None and self.add(found):
                added += 1
        return added

    # -- background ------------------------------------------------------------------
    def start(self) -> None:
        """Start filling in the background: in a process of its own at low CPU priority
        (so that neither its searches nor its share of the GIL slow the server down),
        or in a thread when the database is in memory and cannot be shared."""
        if self._thread is not None or self._process is not None or self.settings.size <= 0:
            return
        url = self.engine.url
        if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="winnable-pool", daemon=True)
            self._thread.start()
            return
        context = multiprocessing.get_context("spawn")
        self._process_stop = context.Event()
        settings = dataclasses.asdict(self.settings)
        self._process = context.Process(
            target=fill_in_background,
            args=(url.render_as_string(hide_password=False), settings, self._process_stop, os.getpid()),
            name="winnable-pool",
            daemon=True,
        )
        self._process.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._process is not None:
            self._process_stop.set()
            self._process.join(timeout)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(timeout)
            self._process.close()
            self._process = self._process_stop = None

    def _run(self, parent: int | None = None) -> None:
        rng = random.Random()
        while not self._stop.is_set():
            if parent is not None and os.getppid() != parent:
                return  # the server is gone: so is its filler
            try:
                worked = self._fill_round(rng)
            except Exception:  # never let the filler die on one bad deal or a db hiccup
                log.exception("winnable pool: a round failed")
                worked = False
            if not worked:
                self._stop.wait(self.settings.idle)

    def _fill_round(self, rng: random.Random) -> bool:
        """One attempt for each game short of deals; False when none needs one now.

        A game whose deals keep failing (its budget is too small, or its deals are rarely
        winnable at all) is left alone for a while, longer each time; after every attempt
        the thread rests for a share of the attempt's time, so it never takes a whole core.
        """
        worked = False
        for game in self.games():
            if self._stop.is_set():
                return True
            progress = self.progress.setdefault(game, Progress())
            if time.monotonic() < progress.resume_at:
                continue
            try:
                if self.ready(game) >= self.settings.size:
                    continue
                game_class(game)
            except WinnableError:
                continue
            worked = True
            deal = rng.randint(1, RANDOM_DEALS)
            if self.known_deal(game, deal):
                continue
            started = time.monotonic()
            found = self.try_deal(game, deal, self.settings.seconds)
            progress.attempts += 1
            if found is not None and self.add(found):
                progress.found += 1
                progress.failures = 0
                progress.backoff = 0.0
            elif found is None:
                progress.failures += 1
                if progress.failures >= self.settings.give_up_after:
                    progress.backoff = min(max(self.settings.backoff, 2 * progress.backoff), 3600.0)
                    progress.resume_at = time.monotonic() + progress.backoff
                    progress.failures = 0
                    log.info("winnable pool: %s: %d deals in a row not proved; next try in %.0f s",
                             game, self.settings.give_up_after, progress.backoff)
            self._stop.wait((time.monotonic() - started) * self.settings.rest)
        return worked


def fill_in_background(url: str, settings: dict, stop, parent: int) -> None:
    """The filler process: keep every game's pool full until ``stop`` is set or the
    server (process ``parent``) is gone."""
    try:
        os.nice(10)
    except (AttributeError, OSError):
        pass
    from winnable.web.db import make_engine

    engine = make_engine(url)
    pool = WinnablePool(engine, Solver(1), PoolSettings(**settings))
    pool._stop = stop
    try:
        pool._run(parent)
    except KeyboardInterrupt:
        pass
    finally:
        engine.dispose()


@dataclass
class Progress:
    """How filling one game's pool goes."""

    attempts: int = 0
    found: int = 0
    failures: int = 0
    """Deals not proved in a row."""
    backoff: float = 0.0
    resume_at: float = 0.0
