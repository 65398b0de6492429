"""Request-time solving: hints, "still winnable?" and "where did I lose?".

Every search goes through the :class:`~winnable.web.play.queue.SolverQueue` (bounded workers,
bounded queue, fair between clients); each request has a time budget that covers its
wait in the queue as well as the search; when it runs out the answer is "unknown",
never a late reply. The budgets a client may ask for are capped by the settings.

Hints follow one line per game (:class:`winnable.guide.Line`), kept with the game in
the database (``games.hint_line``), so that whichever worker or server answers, before
or after a restart, a player who follows the hints gets the next move of the line shown
before: following them wins, the moves to win never grow, and a hint from the line costs
no search, no solver slot and no solver quota. Positions are matched, not move texts: a
position on the line, or (free-cell games) one the page's safe moves home reached from a
line position, continues it. A search starts only off the line, from where the player
is; the line it finds, loops cut out and not just taking the player's move back when the
rules allow, becomes the game's line.

Every verdict is also cached by position in this process, in a cache bounded by bytes (a
proved loss too); a position one move along a cached winning line inherits the rest of
the line.

Winnability is monotone along a game: a position from which no win exists leads only to
such positions. So the move that lost a game is found by a binary search over its
history, a handful of solver calls, after the cache has narrowed it.

The pool of proved-winnable deals is not here: :mod:`winnable.web.play.pool` fills it in the
background, and requests only take from it.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Literal, NotRequired, Sequence, TypedDict, TypeVar

import anyio.to_thread

from winnable.errors import WinnableError
from winnable.game import Position
from winnable.guide import Line, home_first, undo_free
from winnable.solver import Budget, Status, Verdict, solve
from winnable.web.pages.i18n import N_, NP_
from winnable.web.play.cache import ByteLRU
from winnable.web.play.longer import LongerSearches
from winnable.web.play.lookup import hides_cards
from winnable.web.play.queue import ANALYSIS, HINT, Expired, SolverQueue
from winnable.web.play.store import Snapshot, StoredLine
from winnable.web.play.why import why
from winnable.web.views import describe_move
from winnable.web.views.moves import MoveDescription

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
    busy: bool = False  # no solver worker came free within the budget, or no place in the queue
    shortened: bool = False  # searched for one time slice, not the whole budget (others were waiting)
    failure: str = ""  # the engine failed (a bug, reported as "unknown")
    # A longer search of the position (see :mod:`.longer`): "searching" (waits or runs), "searched" (found nothing).
    longer: Literal["", "searching", "searched"] = ""

    @property
    def how(self) -> str:
        """How it was answered (the answers' ``answered``): ``known`` (the kept line or
        a cached verdict, no search), ``searched``, ``shortened`` (a search of one time
        slice: other players were waiting) or ``busy`` (no solver time: only what was
        known)."""
        return "busy" if self.busy else "shortened" if self.shortened else "known" if self.cached else "searched"

    def cost(self) -> int:
        """Bytes this verdict holds in the cache (its line's moves are short strings)."""
        return 120 + 64 * len(self.line)


HOWS = ("known", "searched", "shortened", "busy")
"""The ways of answering, from the best: an answer built of several is answered as its worst."""


def worst(hows: Sequence[str]) -> str:
    """How an answer built of answers answered ``hows`` was answered.

    >>> worst(["known", "searched"]), worst([])
    ('searched', 'known')
    """
    return max(hows, key=HOWS.index, default="known")


@dataclass
class LongerJob:
    """A longer search's position, and whether a player was told it goes on (``told``: a
    hint or analysis there found nothing, so the next ones wait for it rather than
    search; a new game's search of its deal, not yet told, lets them search as usual)."""

    position: Position
    told: bool = False


def cache_key(position: Position) -> tuple[str, str]:
    return (position.game_id, position.to_text())


class Solver:
    """Runs the engine through the queue, with per-request budgets and a verdict cache
    of at most ``cache_bytes``. ``search`` is what solves one position within a budget
    (:func:`winnable.solver.solve` on this machine's engine, or a Dask cluster's:
    :meth:`winnable.web.play.cluster.Cluster.solve`); either way the Python rules have
    replayed its line in this process."""

    def __init__(
        self,
        queue: SolverQueue | None = None,
        cache_bytes: int = 32 << 20,
        search: Callable[[Position, Budget], Verdict] = solve,
        longer_seconds: float = 0.0,
        longer_waiting: int = 8,
        longer_memory_mb: int | None = None,
    ) -> None:
        self.queue = queue
        self.search = search
        self.cache = ByteLRU(cache_bytes)
        self.searches = 0
        self.longer_seconds = longer_seconds
        self.longer: LongerSearches[LongerJob] | None = None
        if longer_seconds > 0 and longer_waiting > 0:

            def run(key: Hashable, job: LongerJob) -> bool:
                # An engine failure is not "found nothing": the next hint there searches.
                known = self.solve_now(job.position, longer_seconds, longer_memory_mb)
                return known.status is not Status.UNKNOWN or bool(known.failure)

            self.longer = LongerSearches(run, longer_waiting)

    @property
    def threads(self) -> int:
        return self.queue.workers if self.queue is not None else 1

    def stats(self) -> dict[str, int]:
        queue = self.queue.stats() if self.queue is not None else {}
        longer = self.longer.stats() if self.longer is not None else {}
        return queue | longer | {"searches": self.searches, "cached": len(self.cache), "cache_bytes": self.cache.bytes}

    def presearch(self, position: Position, client: str) -> bool:
        """Search a new game's deal in the background at once, as a longer search (the
        same thread, places and budget), so that its first hint and "still winnable?"
        are ready when asked; whether it is waiting or running. Nothing when the deal's
        verdict is known already or longer searches are off."""
        if self.longer is None or self.lookup(position) is not None:
            return False
        return self.longer.start(cache_key(position), client, LongerJob(position))

    def stop(self) -> None:
        """Stop the longer searches (the queue is stopped by its owner)."""
        if self.longer is not None:
            self.longer.stop()

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

    def solve_now(self, position: Position, seconds: float, memory_mb: int | None = None) -> Known:
        """Solve in this thread (a queue worker, the pool's filler process, a longer
        search), holding at most ``memory_mb`` where the engine bounds it."""
        known = self.lookup(position)
        if known is not None:
            return known
        try:
            verdict = self.search(position, Budget(seconds=max(seconds, 0.001), memory_mb=memory_mb))
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

    async def verdict(
        self,
        position: Position,
        deadline: float,
        client: str = "",
        parent: Position | None = None,
        last_move: str | None = None,
        on_search: Callable[[], None] | None = None,
        kind: str = HINT,
        longer: bool | None = None,
    ) -> Known:
        """The verdict on ``position``, searched by the queue in ``client``'s turn among
        jobs of its ``kind`` (hints go before analyses) before ``deadline`` (a
        :func:`time.monotonic` time); ``parent`` and ``last_move`` as in :meth:`lookup`.
        ``on_search`` is called before a search (not for what is known already): the
        solver's rate limit, which may refuse it. A client over its share gets 429; a
        search that gets no solver time (no place in the queue, or no worker before the
        deadline) is "unknown" and ``busy``, one given a time slice only ``shortened``.

        A hint whose search finds nothing (or, with ``longer``, any such search: an
        analysis of the game's own position) starts a longer search of the position in
        the background (:mod:`.longer`, when the server runs them): its answer's
        ``longer`` says "searching"; asked again there, it answers from the longer
        search's state, or from its line in the cache, with no search of its own."""
        longer = kind == HINT if longer is None else longer
        known = self.lookup(position, parent, last_move)
        if known is not None:
            return known
        if longer and self.longer is not None:
            key = cache_key(position)
            job = self.longer.job(key)
            if job is not None and job.told:
                return Known(Status.UNKNOWN, cached=True, longer="searching")
            if job is None and self.longer.state(key) == "searched":
                return Known(Status.UNKNOWN, cached=True, longer="searched")
        if on_search is not None:
            on_search()
        known = await self._search(position, deadline, client, kind)
        if longer and self.longer is not None and known.how == "searched" and known.status is Status.UNKNOWN and not known.failure:
            key = cache_key(position)
            if self.longer.start(key, client, LongerJob(position, told=True)):
                job = self.longer.job(key)
                if job is not None:  # a new game's search of its deal, already waiting or running: told now
                    job.told = True
                known = dataclasses.replace(known, longer="searching")
        return known

    async def _search(self, position: Position, deadline: float, client: str, kind: str) -> Known:
        if self.queue is None:
            return await anyio.to_thread.run_sync(self.solve_now, position, max(0.0, deadline - time.monotonic()))

        def work(seconds: float) -> Known:
            sliced = seconds < deadline - time.monotonic() - 0.01  # the queue gave it one time slice
            known = self.solve_now(position, seconds)
            return dataclasses.replace(known, shortened=True) if sliced and known.status is Status.UNKNOWN else known

        try:
            answer: Known = await self.queue.run(client, work, deadline, kind)
            return answer
        except Expired:  # Crowded too
            return Known(Status.UNKNOWN, busy=True)


def describe(position: Position, notation: str) -> MoveDescription:
    return describe_move(position, position.parse_move(notation))


# -- the hints' line ----------------------------------------------------------------------
_lines = ByteLRU(16 << 20)


def kept_line(cls: type[Position], stored: dict[str, Any] | None) -> Line | None:
    """The game's hints' line from its stored form (``{"from": text, "moves": [...]}``),
    with the safe moves home first (:func:`~winnable.guide.home_first`: the page may
    play them by itself), replayed once per process (kept in a small cache: it is only
    ever rebuilt from the database's copy, so every process agrees). None if there is
    none, or if it no longer replays under the current rules."""
    if not stored or not isinstance(stored.get("from"), str) or not isinstance(stored.get("moves"), list):
        return None
    cache_key = (cls.game_id, stored["from"], tuple(stored["moves"]))
    line = _lines.get(cache_key)
    if line is None:
        try:
            line = home_first(Line.of(cls.from_text(stored["from"]), stored["moves"]))
        except (WinnableError, ValueError, LookupError, TypeError):
            log.warning("a kept hint line of %s no longer replays; dropped", cls.game_id)
            return None
        _lines.put(cache_key, line, 400 * (len(line) + 1) + len(stored["from"]))
    return line


def stored_line(line: Line) -> StoredLine:
    """A line as ``games.hint_line`` keeps it."""
    return {"from": line.start.to_text(), "moves": list(line.moves)}


def rest_on_line(line: Line | None, game: Snapshot, prefixes: Callable[[int], Position] | None) -> tuple[str, ...] | None:
    """The rest of ``line`` from the game's position: the position is on the line, or
    (free-cell games, whose page may send safe cards home by itself) the moves after a
    line position were all moves home, whose cards' moves the rest then leaves out."""
    if line is None:
        return None
    position = game.position
    rest = line.rest(position)
    if rest is not None or prefixes is None or not hasattr(position, "safe_moves_home"):
        return rest
    moves = game.moves
    for k in range(len(moves) - 1, max(-1, len(moves) - 60), -1):
        before = prefixes(k)
        try:
            if describe_move(before, before.parse_move(moves[k])).get("to") != "foundation":
                return None
        except WinnableError:
            return None
        at = line.at(before)
        if at is not None:
            return line.rest_after_home(position, at)
    return None


class HintHead(TypedDict):
    """What every hint answers before it is worded."""

    move: str | None
    knows_hidden: bool
    at: int
    verdict: str
    seconds: float
    cached: bool
    answered: str
    searching: bool


class Hint(HintHead):
    """A hint (the API's ``Hint``)."""

    message: str


class WinningHint(Hint):
    """A hint with a move: described, with the moves left along its line."""

    describe: MoveDescription
    line_length: int
    why: str | None
    why_code: str | None


class Checked(TypedDict):
    """One position an analysis looked at (the API's ``Checked``)."""

    at: int
    verdict: str
    cached: bool


class AnalysisHead(TypedDict):
    """What an analysis has found so far."""

    verdict: str
    winnable: bool | None
    lost_at: int | None
    losing_move: str | None
    better_move: str | None
    better_line_length: int | None
    moves: int
    knows_hidden: bool
    between: NotRequired[list[int]]


class Analysis(AnalysisHead):
    """An analysis (the API's ``Analysis``)."""

    message: str
    positions: int
    checked: list[Checked]
    seconds: float
    answered: str


BodyT = TypeVar("BodyT", Hint, Analysis)


@dataclass(frozen=True)
class Answer(Generic[BodyT]):
    """A hint's or analysis's answer, and the line to keep with the game if it changed."""

    body: BodyT
    keep: StoredLine | None = None


async def hint(
    solver: Solver,
    game: Snapshot,
    seconds: float,
    parent: Position | None = None,
    client: str = "",
    line: dict[str, Any] | None = None,
    prefixes: Callable[[int], Position] | None = None,
    on_search: Callable[[], None] | None = None,
) -> Answer[Hint]:
    """The next move of the game's hints' line from its current position, or of a new
    winning line if the player left it (or none was kept), or a verdict.

    ``parent`` is the position before the last move, if at hand; ``line`` the game's
    stored hints' line; ``prefixes(k)`` the position after the first ``k`` moves (to
    see past moves home played by the page); ``on_search`` is called before a search.
    """
    started = time.monotonic()
    position = game.position
    knows_hidden = hides_cards(game.cls)
    at = len(game.moves)
    if position.is_won():
        return Answer(
            {
                "move": None,
                "knows_hidden": knows_hidden,
                "at": at,
                "verdict": "won",
                "message": N_("The game is won."),
                "seconds": 0.0,
                "cached": True,
                "answered": "known",
                "searching": False,
            }
        )

    def on_line() -> tuple[Line | None, tuple[str, ...] | None]:
        kept = kept_line(game.cls, line)
        return kept, rest_on_line(kept, game, prefixes)

    kept, rest = await anyio.to_thread.run_sync(on_line) if line else (None, None)
    if rest is None and not position.legal_moves():
        return Answer(
            {
                "move": None,
                "knows_hidden": knows_hidden,
                "at": at,
                "verdict": "lost",
                "message": N_("No winning line from here: no move is left."),
                "seconds": 0.0,
                "cached": True,
                "answered": "known",
                "searching": False,
            }
        )
    keep: StoredLine | None = None
    if rest is not None:
        known = Known(Status.WON, rest, cached=True)
        if kept is not None and kept.at(position) is None:  # picked up past moves home: keep it from here
            keep = stored_line(await anyio.to_thread.run_sync(Line.of, position, rest))
    else:
        last_move = game.moves[-1] if game.moves else None
        known = await solver.verdict(position, started + seconds * MARGIN, client, parent, last_move, on_search)
        if known.status is Status.WON:
            new = await anyio.to_thread.run_sync(new_line, position, parent, known.line, kept)
            keep = stored_line(new)
            known = dataclasses.replace(known, line=new.moves)
    answer: HintHead = {
        "move": None,
        "knows_hidden": knows_hidden,
        "at": at,
        "verdict": known.status.value,
        "seconds": round(time.monotonic() - started, 4),
        "cached": known.cached,
        "answered": known.how,
        "searching": known.longer == "searching",
    }
    return Answer(_worded(answer, known, position, knows_hidden, seconds, solver.longer_seconds), keep)


def new_line(position: Position, parent: Position | None, line: Sequence[str], kept: Line | None = None) -> Line:
    """The line to keep from ``position``: ``line`` with its loops cut out, and if it
    starts by going back to ``parent`` (taking the player's move back), the same line
    keeping that move when the rules allow (two moves shorter), else the shorter of it
    and the move back followed by the ``kept`` line from ``parent``."""
    if parent is not None and line and position.play(line[0]).to_text() == parent.to_text():
        kept_rest = kept.rest(parent) if kept is not None else None
        line = undo_free(position, parent, line) or (
            (line[0], *kept_rest) if kept_rest is not None and 1 + len(kept_rest) < len(line) else line
        )
    return home_first(Line.of(position, line))


def _worded(answer: HintHead, known: Known, position: Position, knows_hidden: bool, seconds: float, longer: float = 0.0) -> Hint:
    if known.status is Status.WON:
        move = known.line[0]
        said = why(position, move)
        won: WinningHint = {
            **answer,
            "move": move,
            "describe": describe(position, move),
            "line_length": len(known.line),
            "why": None if said is None else said[0],
            "why_code": None if said is None else said[1],
            "message": NP_(
                "{move} keeps a win in reach ({n} move to go; the hint knows the face-down cards)",
                "{move} keeps a win in reach ({n} moves to go; the hint knows the face-down cards)",
                len(known.line),
                move=move,
            )
            if knows_hidden
            else NP_(
                "{move} keeps a win in reach ({n} move to go)", "{move} keeps a win in reach ({n} moves to go)", len(known.line), move=move
            ),
        }
        return won
    if known.status is Status.LOST:
        return {**answer, "message": N_("No winning line from here.")}
    if known.busy or known.shortened:
        return {**answer, "message": N_("The solver is busy with other players' hints; try again in a moment.")}
    if known.failure:
        return {**answer, "message": N_("The solver could not work on this position (a bug on our side).")}
    if known.longer == "searching":
        return {
            **answer,
            "message": N_(
                "No winning line found within {seconds} s; a longer search goes on in the background: ask again in a moment.",
                seconds=format(seconds, "g"),
            ),
        }
    if known.longer == "searched":
        return {
            **answer,
            "message": N_(
                "No winning line found here, even by a longer search of {seconds} s; one may still exist.", seconds=format(longer, "g")
            ),
        }
    return {**answer, "message": N_("No winning line found within {seconds} s; one may still exist.", seconds=format(seconds, "g"))}


async def analysis(
    solver: Solver,
    game: Snapshot,
    prefixes: Callable[[int], Position],
    seconds: float,
    client: str = "",
    line: dict[str, Any] | None = None,
    on_search: Callable[[], None] | None = None,
) -> Answer[Analysis]:
    """Is the game still winnable and, if it is lost, which move lost it.

    ``prefixes(k)`` is the position after the first ``k`` moves. A binary search finds
    the last winnable position ``k`` (a win exists after ``moves[:k]`` but not after
    ``moves[:k+1]``); ``moves[k]`` is the losing move and ``better_move`` the first move
    of a winning line from there. The game's hints' line (``line``, as stored) counts as
    known: a position on it is winnable with no search, and a line found from the
    current position off it becomes the game's hints' line (the answer's ``keep``).
    ``on_search`` is called once, before the first search. A search that gets no solver
    time, or only a slice of it (the queue is crowded), leaves what is known: the
    answer's ``answered`` says how it was made (:attr:`Known.how`, the worst of its checks).
    """
    started = time.monotonic()
    deadline = started + seconds * MARGIN
    moves = list(game.moves)
    checked: list[Checked] = []
    searched = 0
    hows: list[str] = []
    kept = await anyio.to_thread.run_sync(kept_line, game.cls, line) if line else None
    charged = False
    keep: list[StoredLine | None] = [None]

    def charge() -> None:
        nonlocal charged
        if not charged and on_search is not None:
            charged = True
            on_search()

    async def verdict_at(k: int) -> Known:
        nonlocal searched
        position = game.position if k == len(moves) else await anyio.to_thread.run_sync(prefixes, k)
        rest = kept.rest(position) if kept is not None else None
        if rest is not None:
            known = Known(Status.WON, rest, cached=True)
        else:
            current = k == len(moves)  # the game's own position: may search longer in the background
            known = await solver.verdict(position, deadline, client, on_search=charge, kind=ANALYSIS, longer=current)
            if k == len(moves) and known.status is Status.WON and known.line:
                new = await anyio.to_thread.run_sync(lambda: home_first(Line.of(position, known.line)))
                keep[0] = stored_line(new)
                known = dataclasses.replace(known, line=new.moves)
        searched += known.positions
        hows.append(known.how)
        checked.append({"at": k, "verdict": known.status.value, "cached": known.cached})
        return known

    result: AnalysisHead = {
        "verdict": "unknown",
        "winnable": None,
        "lost_at": None,
        "losing_move": None,
        "better_move": None,
        "better_line_length": None,
        "moves": len(moves),
        "knows_hidden": hides_cards(game.cls),
    }

    def finish(message: str) -> Answer[Analysis]:
        return Answer(
            {
                **result,
                "message": message,
                "positions": searched,
                "checked": checked,
                "seconds": round(time.monotonic() - started, 4),
                "answered": worst(hows),
            },
            keep[0],
        )

    now = await verdict_at(len(moves))
    result["verdict"] = now.status.value
    if now.status is Status.WON:
        result["winnable"] = True
        return finish(N_("Still winnable.") if game.status != "won" else N_("The game is won."))
    if now.status is Status.UNKNOWN and now.busy:
        return finish(N_("Undecided: the solver is busy with other players and had no time for this; try again in a moment."))
    if now.status is Status.UNKNOWN and now.shortened:
        return finish(N_("Undecided: the solver is busy with other players and could search only briefly; try again in a moment."))
    if now.status is Status.UNKNOWN and now.longer == "searching":
        return finish(
            N_(
                "Undecided: the solver found no winning line within {seconds} s; a longer search goes on in the background: "
                "ask again in a moment.",
                seconds=format(seconds, "g"),
            )
        )
    if now.status is Status.UNKNOWN and now.longer == "searched":
        return finish(
            N_(
                "Undecided: the solver found no winning line, even by a longer search of {seconds} s.",
                seconds=format(solver.longer_seconds, "g"),
            )
        )
    if now.status is Status.UNKNOWN:
        return finish(N_("Undecided: the solver found no winning line within {seconds} s.", seconds=format(seconds, "g")))
    # Lost from here. What hints and earlier analyses proved narrows the search: the
    # last position known winnable (low) and the first known lost (high).
    low, low_line, high = (0, None, 0) if not moves else await anyio.to_thread.run_sync(known_bounds, solver, prefixes(0), moves, kept)
    if low_line is None:  # nothing known, not even about the deal: was it winnable at all?
        start = now if not moves else await verdict_at(0)
        if start.status is Status.LOST:
            result["winnable"] = False
            return finish(N_("This deal cannot be won: no move lost it."))
        if start.status is Status.UNKNOWN:
            return finish(
                N_(
                    "No winning line from here; the solver could not tell within {seconds} s whether the deal was winnable.",
                    seconds=format(seconds, "g"),
                )
            )
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
            return finish(
                N_(
                    "No winning line from here; the losing move is between moves {low} and {high}, "
                    "but the solver ran out of its {seconds} s.",
                    low=low + 1,
                    high=high,
                    seconds=format(seconds, "g"),
                )
            )
    result |= {
        "lost_at": low,
        "losing_move": moves[low],
        "better_move": low_line[0] if low_line else None,
        "better_line_length": len(low_line),
    }
    if low_line:
        return finish(
            N_("Move {n}, {move}, lost the game; {better} would have kept a win in reach.", n=low + 1, move=moves[low], better=low_line[0])
        )
    return finish(N_("Move {n}, {move}, lost the game.", n=low + 1, move=moves[low]))


def known_bounds(
    solver: Solver, start: Position, moves: Sequence[str], kept: Line | None = None
) -> tuple[int, tuple[str, ...] | None, int]:
    """From what is known alone (the game's hints' line ``kept``, then the cache): the
    last position of a lost game known to be winnable, with its line (None if not even
    the deal is known to be), and the first known to be lost. Cached lines are followed
    along the moves played, so a hint taken ten moves ago still counts if its line was
    followed. One replay of the game from ``start``, the deal."""
    low, low_line, high = 0, None, len(moves)
    previous = None
    position = start
    for k in range(len(moves)):
        if k:
            position = position.play(moves[k - 1])
        rest = kept.rest(position) if kept is not None else None
        known = Known(Status.WON, rest) if rest is not None else solver.lookup(position, previous, moves[k - 1] if k else None)
        previous = position
        if known is None:
            continue
        if known.status is Status.WON:
            low, low_line = k, known.line
        elif known.status is Status.LOST:
            high = k
            break  # monotone: lost from here on
    return low, low_line, high
