"""The pool of proved-winnable deals: filled in the background, taken by requests.

A Winnable request never searches: it takes an unused proved deal from the database
(``X-Winnable-Source: pool``), or when every proved deal of the game has been dealt
once, one of them again (``reused``); when the game has no proved deal at all it is
refused at once with 409 ``no_winnable_deal``. The proved deals are the ``won`` rows of
the verdicts table (:mod:`winnable.storage.verdicts`), which surveys fill too (``winnable survey
--database URL``); the filler adds its wins and its proved losses there.

Every deal the filler proves is graded (:mod:`winnable.grading`: easy, medium, hard,
expert) and its grade kept beside its verdict; won deals a survey stored without a grade
are graded by the filler too, without a search. A Winnable request may ask for a grade
(``deal_for(game, grade)``): an unused deal of that grade, else one of that grade dealt
before, else none (409 ``no_graded_deal``).

The filler keeps ``size`` unused deals ready for every game, and at least ``per_grade``
of each grade: it goes on proving deals while a grade is short, up to ``most`` unused
deals of the game (an expert deal may be rare: the deals proved meanwhile wait their turn). It runs once per database,
whatever the number of worker processes and machines: each server's :class:`WinnablePool`
competes for the database lease ``pool-filler`` (:mod:`winnable.storage.leases`), and only the
holder runs the filler, in a process of its own at low CPU priority, one search at a
time, resting between them, so that requests and hints come first. When the holder dies
its lease expires and another server's pool takes over.
"""

from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import random
import signal
import socket
import threading
import time
import uuid
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any

from sqlalchemy.engine import Engine

from winnable.errors import WinnableError
from winnable.games import game_class, game_ids
from winnable.grading import GRADES, NotGradable, grade_position
from winnable.solver import Status
from winnable.storage import leases
from winnable.storage.verdicts import VerdictStore
from winnable.web.pages.i18n import N_
from winnable.web.play.cluster import Cluster
from winnable.web.play.lookup import RANDOM_DEALS, lookup_game
from winnable.web.play.solving import Solver

log = logging.getLogger("winnable.web")

GRADE_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "expert": N_("expert")}
"""Each grade's name in the player's words (:class:`winnable.grading.Grade`'s values)."""

LEASE = "pool-filler"
NONE_MEMORY = 2.0
"""Seconds a server remembers that a game has no proved deal (a filler in another
process may find one meanwhile: it is dealt at most this much later)."""


@dataclass
class PoolSettings:
    size: int = 20
    """Unused proved-winnable deals kept ready per game."""
    per_grade: int = 3
    """Unused deals of each grade kept ready per game (Winnable mode by grade)..."""
    most: int = 200
    """...looked for until the game has this many unused deals (a rare grade's search
    stops there until deals are dealt)."""
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
    lease_seconds: float = 30.0
    """The filler's lease on the database lasts this long; renewed every third of it."""
    scheduler: str | None = None
    """A Dask scheduler whose workers search (:mod:`winnable.web.play.cluster`), else this machine."""


@dataclass
class Found:
    game: str
    deal: int
    line: tuple[str, ...]
    positions: int = 0
    seconds: float = 0.0
    from_pool: bool = True
    grade: str | None = None
    """How hard the deal is (:class:`winnable.grading.Grade`'s value), None: not graded."""


class WinnablePool:
    """Deal numbers the solver proved winnable, per game, kept in the database.

    In the background (:meth:`start`: a process of low CPU priority, so that requests and
    hints come first) ``size`` unused deals are kept ready for every game: random deal
    numbers, each searched within a budget. :meth:`take` hands one out and marks it used.
    """

    def __init__(self, engine: Engine, solver: Solver, settings: PoolSettings | None = None) -> None:
        self.engine = engine
        self.solver = solver
        self.settings = settings or PoolSettings()
        self.store = VerdictStore(engine)
        self._stop: threading.Event | StopFlag = threading.Event()  # a StopFlag in the filler process
        self._thread: threading.Thread | None = None
        self._process: BaseProcess | None = None
        self._take_lock = threading.Lock()
        self._keeper: threading.Thread | None = None
        self._keeper_stop = threading.Event()
        self.holder = f"{socket.gethostname()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self.attempts = 0
        self.progress: dict[str, Progress] = {}
        self._none_until: dict[tuple[str, str | None], float] = {}  # (game, grade) -> no proved deal until then
        self._not_gradable: set[tuple[str, int]] = set()  # won deals the grading's search did not prove

    # -- storage: the verdicts table (winnable.storage.verdicts) ------------------------------
    def ready(self, game: str, at_most: int | None = None) -> int:
        """Won deals of ``game`` not dealt yet (counted up to ``at_most``: after a
        survey there may be a million)."""
        return self.store.unused(game, at_most)

    def counts(self) -> dict[str, int]:
        unused = self.store.unused_counts()
        return {game: unused.get(game, 0) for game in self.games()}

    def add(self, found: Found) -> bool:
        """Store a proved deal; False if the table already had a proof of it."""
        entry = {
            "game": found.game,
            "deal": found.deal,
            "verdict": "won",
            "moves": len(found.line),
            "line": list(found.line),
            "positions": found.positions,
            "seconds": found.seconds,
            "grade": found.grade,
        }
        added = self.store.record([entry], "filler", seconds=self.settings.seconds) > 0
        self._none_until.pop((found.game, None), None)
        self._none_until.pop((found.game, found.grade), None)
        return added

    def add_loss(self, game: str, deal: int, positions: int, seconds: float) -> None:
        """Store a proved loss, so that no filler searches that deal again."""
        entry = {"game": game, "deal": deal, "verdict": "lost", "moves": 0, "positions": positions, "seconds": seconds}
        self.store.record([entry], "filler", seconds=self.settings.seconds)

    def take(self, game: str, grade: str | None = None) -> Found | None:
        """Hand out one won deal of ``game`` (of ``grade``, if given) not dealt before
        (marked dealt), or None."""
        with self._take_lock:
            proved = self.store.take(game, grade)
        # the filler notices within `idle` seconds (not at once: this request first)
        return None if proved is None else Found(game, proved.deal, proved.line, proved.positions, proved.seconds, grade=proved.grade)

    def reuse(self, game: str, rng: random.Random | None = None, grade: str | None = None) -> Found | None:
        """Any won deal of ``game`` (of ``grade``, if given), dealt before or not (None if it has none)."""
        proved = self.store.any_won(game, rng, grade)
        if proved is None:
            return None
        return Found(game, proved.deal, proved.line, proved.positions, proved.seconds, from_pool=False, grade=proved.grade)

    def deal_for(self, game: str, grade: str | None = None) -> Found | None:
        """The deal a Winnable request gets: an unused proved one (of ``grade``, if given),
        else any proved one (of that grade). A game with none is remembered for
        :data:`NONE_MEMORY` seconds: a storm of Winnable requests for it is refused without
        touching the database (taking a deal is a write transaction, which waits for the
        write lock on SQLite)."""
        if time.monotonic() < self._none_until.get((game, grade), 0.0):
            return None
        found = self.take(game, grade) or self.reuse(game, grade=grade)
        if found is None:
            self._none_until[(game, grade)] = time.monotonic() + NONE_MEMORY
        return found

    def grade_of(self, game: str, deal: int) -> str | None:
        """The grade kept for a deal (None: not graded, or not proved)."""
        return self.store.grade_of(game, deal)

    # -- grading ---------------------------------------------------------------------
    def grade(self, game: str, deal: int) -> str | None:
        """Grade a proved deal (:func:`winnable.grading.grade_position`); None when the
        grading's bounded search does not prove it (kept ungraded)."""
        try:
            return grade_position(lookup_game(game).deal(deal)).grade.value
        except NotGradable:
            return None

    def short_grades(self, game: str) -> list[str]:
        """The grades of which ``game`` has fewer than ``per_grade`` unused deals (each a
        bounded count down an index, however many deals a survey stored)."""
        wanted = self.settings.per_grade
        return [grade.value for grade in GRADES if self.store.unused(game, wanted, grade.value) < wanted]

    def has_ungraded(self, game: str) -> bool:
        """``game`` has an unused won deal not graded yet that the filler may grade."""
        return any((game, deal) not in self._not_gradable for deal in self.store.ungraded(game, len(self._not_gradable) + 1))

    def grade_stored(self, game: str) -> bool:
        """Grade one won deal a survey stored without a grade (no search: the solver
        proved it); False when there is none to grade."""
        for deal in self.store.ungraded(game, limit=len(self._not_gradable) + 1):
            if (game, deal) in self._not_gradable:
                continue
            grade = self.grade(game, deal)
            if grade is None:
                if len(self._not_gradable) >= 4096:
                    self._not_gradable.clear()
                self._not_gradable.add((game, deal))
            else:
                self.store.set_grade(game, deal, grade)
            return True
        return False

    def known_deal(self, game: str, deal: int) -> bool:
        """The table has a verdict on this deal (a survey's or a filler's)."""
        return self.store.verdict(game, deal) is not None

    # -- searching -------------------------------------------------------------------
    def games(self) -> list[str]:
        return list(self.settings.games) if self.settings.games is not None else game_ids()

    def try_deal(self, game: str, deal: int, seconds: float) -> Found | None:
        """Solve one deal within ``seconds``; the proof if it is winnable."""
        position = lookup_game(game).deal(deal)
        self.attempts += 1
        known = self.solver.solve_now(position, seconds)
        if known.status is Status.LOST:
            self.add_loss(game, deal, known.positions, known.seconds)
        if known.status is not Status.WON:
            return None
        return Found(game, deal, known.line, known.positions, known.seconds, grade=self.grade(game, deal))

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
    @property
    def filling(self) -> bool:
        """This server runs the database's filler now."""
        return self._thread is not None or self._process is not None

    def start(self) -> None:
        """Compete for the database's filler lease in the background; while this server
        holds it, run the filler (:meth:`_start_filler`)."""
        if self._keeper is not None or self.settings.size <= 0:
            return
        self._keeper_stop.clear()
        self._keeper = threading.Thread(target=self._keep, name="winnable-pool-lease", daemon=True)
        self._keeper.start()

    def _keep(self) -> None:
        every = max(0.05, self.settings.lease_seconds / 3)
        try:
            while not self._keeper_stop.is_set():
                try:
                    held = leases.acquire(self.engine, LEASE, self.holder, self.settings.lease_seconds)
                except Exception:  # the database is away for a moment: try again later
                    log.exception("winnable pool: cannot renew the filler's lease")
                    held = False
                if held and not self._filler_alive():
                    self._stop_filler()
                    self._start_filler()
                elif not held and self.filling:
                    log.info("winnable pool: another server fills the pool now")
                    self._stop_filler()
                self._keeper_stop.wait(every)
        finally:
            self._stop_filler()
            try:
                leases.release(self.engine, LEASE, self.holder)
            except Exception:
                log.exception("winnable pool: cannot release the filler's lease")

    def _filler_alive(self) -> bool:
        if self._thread is not None:
            return self._thread.is_alive()
        return self._process is not None and self._process.is_alive()

    def _start_filler(self) -> None:
        """The filler: a process of its own at low CPU priority (so that neither its
        searches nor its share of the GIL slow the server down), or a thread when the
        database is in memory and cannot be shared."""
        url = self.engine.url
        if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="winnable-pool", daemon=True)
            self._thread.start()
            return
        context = multiprocessing.get_context("spawn")
        settings = dataclasses.asdict(self.settings)
        self._process = context.Process(
            target=fill_in_background,
            args=(url.render_as_string(hide_password=False), settings, os.getpid()),
            name="winnable-pool",
            daemon=True,
        )
        self._process.start()

    def _stop_filler(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._process is not None:
            # SIGTERM, which the filler takes as "stop after this deal". Not a shared
            # Event: setting one waits forever when the filler died first, as it does
            # when a terminal's Ctrl-C or `timeout` signals the whole process group.
            self._process.terminate()
            self._process.join(timeout)
            if self._process.is_alive():
                self._process.kill()
                self._process.join(timeout)
            self._process.close()
            self._process = None

    def stop(self, timeout: float = 10.0) -> None:
        """Stop filling and give the lease up (another server takes it at once)."""
        self._keeper_stop.set()
        if self._keeper is not None:
            self._keeper.join(timeout + 5)
            self._keeper = None
        self._stop_filler(timeout)

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

    def needs(self, game: str) -> bool:
        """Whether ``game`` needs proved deals: fewer than ``size`` unused, or a grade short
        of ``per_grade`` while it has fewer than ``most``."""
        size = self.settings.size
        ready = self.ready(game, max(size, self.settings.most))
        if ready < size:
            return True
        if self.settings.per_grade <= 0 or not self.short_grades(game):
            return False
        # A survey's deals are graded however many there are (no search); new deals are
        # proved only up to `most`.
        return ready < self.settings.most or self.has_ungraded(game)

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
                if not self.needs(game):
                    continue
                game_class(game)
            except WinnableError:
                continue
            worked = True
            if self.grade_stored(game):  # a survey's deal graded: no search this round
                continue
            enough = max(self.settings.size, self.settings.most)
            if self.ready(game, enough) >= enough:
                continue  # a grade is short but the game holds `most` deals: no search
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
                    log.info(
                        "winnable pool: %s: %d deals in a row not proved; next try in %.0f s",
                        game,
                        self.settings.give_up_after,
                        progress.backoff,
                    )
            self._stop.wait((time.monotonic() - started) * self.settings.rest)
        return worked


class StopFlag:
    """What the filler process waits on: set by its SIGTERM handler. (A threading.Event
    set from a signal handler can deadlock on the lock its own thread holds; a flag and
    short sleeps, which a signal cuts short, cannot.)

    >>> flag = StopFlag(); flag.wait(0.01), flag.is_set()
    (False, False)
    >>> flag.set(); flag.wait(60)
    True
    """

    def __init__(self) -> None:
        self.flag = False

    def set(self) -> None:
        self.flag = True

    def is_set(self) -> bool:
        return self.flag

    def clear(self) -> None:
        self.flag = False

    def wait(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not self.flag and (left := deadline - time.monotonic()) > 0:
            time.sleep(min(left, 0.1))
        return self.flag


def fill_in_background(url: str, settings: dict[str, Any], parent: int) -> None:
    """The filler process: keep every game's pool full until SIGTERM (the server's
    :meth:`WinnablePool.stop`) or until the server (process ``parent``) is gone. A
    terminal's Ctrl-C, sent to the whole process group, is the server's to act on."""
    stop = StopFlag()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(10)
    except (AttributeError, OSError):
        pass
    from winnable.storage.engine import make_engine

    engine = make_engine(url)
    options = PoolSettings(**settings)
    cluster = Cluster(options.scheduler) if options.scheduler else None
    if cluster is not None:
        cluster.start()
    solver = Solver(None, cache_bytes=4 << 20, search=cluster.solve) if cluster is not None else Solver(None, cache_bytes=4 << 20)
    pool = WinnablePool(engine, solver, options)
    pool._stop = stop
    try:
        pool._run(parent)
    except KeyboardInterrupt:
        pass
    finally:
        if cluster is not None:
            cluster.stop()
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
