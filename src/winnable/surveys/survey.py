"""Surveys: solve a range of deals, in chunks, and summarise what was proved.

Only verified lines count as wins: every winning line the engine finds is replayed by
the Python rules (:func:`winnable.solver.replay`) in the process that found it, before
it is reported.

A survey cuts its range into chunks of consecutive deals; a *runner* solves the chunks
(:mod:`winnable.surveys.runners`: the cores of this machine, or a Dask cluster) and hands them
back in any order; :func:`run_survey` writes them in deal order, so the output is the
same file whatever ran it (but for the timings). A chunk is written whole or not at
all, so a survey stopped at any moment resumes from its file (:func:`read_done`).

Deal numbers are PySolFC's unless the survey asks for Microsoft's
(:class:`winnable.deals.Numbering`); a record's ``deal`` is always an int, and the
records of a Microsoft survey say ``"numbering": "microsoft"`` (PySolFC's records carry
no such field, as before), so a file of one numbering never resumes a survey of the other.

>>> records = solve_chunk("black-hole", 1, 3, Budget())
>>> [(r["deal"], r["verdict"], r["moves"]) for r in records]
[(1, 'lost', 0), (2, 'won', 51), (3, 'won', 51)]
>>> chunk_ranges([(1, 10)], 4)
[(1, 4), (5, 8), (9, 10)]
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from winnable.deals import DealNumber, Numbering
from winnable.errors import NotGradable, SurveyError  # raised here; importers of the survey catch it by this name
from winnable.game import Position
from winnable.games import game_class
from winnable.grading import grade_position
from winnable.solver import Budget, Status, replay
from winnable.surveys.runners import DaskRunner, LocalRunner, Plan

if TYPE_CHECKING:
    from types import TracebackType

    from rich.progress import Progress, TaskID

DETERMINISTIC = ("game", "deal", "verdict", "positions", "moves")
"""The fields of a record that are the same whatever machine solved the deal (the
others are timings), when the budget counts positions rather than seconds."""


# -- one deal, one chunk --------------------------------------------------------------
def search(position: Position, budget: Budget, short: bool = False) -> tuple[str, list[str], int]:
    """The engine's raw answer on ``position`` (see :meth:`Position.engine_search`): for
    the verdict alone unless ``short`` (a survey that keeps its lines)."""
    status, line, positions = position.engine_search(budget.nodes, budget.seconds, short=short, **budget.engine_options())
    if status not in ("won", "lost", "unknown"):
        raise SurveyError(f"engine answered {status!r}")
    return status, line, positions


def record(
    position: Position,
    status: str,
    line: list[str],
    positions: int,
    seconds: float,
    cpu: float,
    lines: bool,
    numbering: Numbering = Numbering.PYSOLFC,
) -> dict[str, Any]:
    """One survey record: game, deal, verdict, positions, seconds (wall), cpu_seconds
    (of the process, search and replay), moves; ``line`` too if ``lines``; ``numbering``
    after the deal when it is Microsoft's."""
    entry = {
        "game": position.game_id,
        "deal": position.deal_number,
        **({"numbering": numbering.value} if numbering is not Numbering.PYSOLFC else {}),
        "verdict": status,
        "positions": positions,
        "seconds": round(seconds, 6),
        "cpu_seconds": round(cpu, 6),
        "moves": len(line),
    }
    if lines:
        entry["line"] = line
    return entry


def solve_deal(
    game: str, number: int, budget: Budget, lines: bool = False, numbering: Numbering | str = Numbering.PYSOLFC
) -> dict[str, Any]:
    """Deal, search and replay one deal: its survey record.

    >>> entry = solve_deal("black-hole", 2, Budget(), lines=True)
    >>> entry["verdict"], entry["moves"], len(entry["line"])
    ('won', 51, 51)
    """
    return solve_chunk(game, number, number, budget, lines, numbering)[0]


def solve_chunk(
    game: str,
    first: int,
    last: int,
    budget: Budget,
    lines: bool = False,
    numbering: Numbering | str = Numbering.PYSOLFC,
    *,
    grades: bool = False,
) -> list[dict[str, Any]]:
    """The records of deals ``first`` to ``last`` of ``game`` (in ``numbering``), in order.

    This is the unit of work a runner ships: one call, one answer, plain data. Every
    winning line is replayed by the rules here; a line they refuse raises
    :class:`winnable.errors.EngineError` and fails the chunk (never a wrong record).

    Without ``lines`` the engine searches for verdicts alone (``short=False`` in
    :meth:`Position.engine_search`: no short pass in the Spider family, no shortening);
    with them, for the short lines a hint plays, as the web app's deals keep them.
    With ``grades`` each record gets its deal's ``grade`` (:mod:`winnable.grading`; None
    for a deal not won, or won beyond the grade's own bounded search).
    """
    cls = game_class(game, library=True)
    numbering = Numbering.parse(numbering)
    clock, cpu_clock = time.perf_counter, time.thread_time
    records = []
    for number in range(first, last + 1):
        position = cls.deal(DealNumber(number, numbering))
        started, cpu_started = clock(), cpu_clock()
        status, line, positions = search(position, budget, short=lines)
        if status == Status.WON.value:
            replay(position, line)
        entry = record(position, status, line, positions, clock() - started, cpu_clock() - cpu_started, lines, numbering)
        if grades:
            entry["grade"] = graded(position) if status == Status.WON.value else None
        records.append(entry)
    return records


def solve_graded_chunk(
    game: str, first: int, last: int, budget: Budget, lines: bool = False, numbering: Numbering | str = Numbering.PYSOLFC
) -> list[dict[str, Any]]:
    """:func:`solve_chunk` with its won deals graded (a top-level function: the runners
    ship it by name)."""
    return solve_chunk(game, first, last, budget, lines, numbering, grades=True)


def graded(position: Position) -> str | None:
    """The grade of a won deal (None if the grade's own bounded search does not win it)."""
    try:
        return grade_position(position).grade.value
    except NotGradable:
        return None


def chunk_ranges(ranges: Iterable[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """Cut inclusive ranges of deal numbers into chunks of at most ``size`` deals."""
    chunks = []
    for low, high in ranges:
        for start in range(low, high + 1, size):
            chunks.append((start, min(high, start + size - 1)))
    return chunks


def default_chunk(game: str, count: int, workers: int) -> int:
    """Deals per chunk: a few seconds of work (Black Hole deals take milliseconds, the
    others up to their budget), and at least a dozen chunks per worker for balance."""
    most = 500 if game == "black-hole" else 25
    return max(1, min(most, count // max(1, workers * 12)))


# -- resuming ------------------------------------------------------------------------
def read_done(path: Path, game: str, low: int, high: int, numbering: Numbering | str = Numbering.PYSOLFC) -> list[dict[str, Any]]:
    """The records already in ``path`` for a survey of ``game`` deals ``low``-``high``
    in ``numbering``.

    A last line cut short (the survey was killed while writing) is removed from the
    file; a record of another game, outside the range or of the other numbering is an
    error, not a guess.
    """
    numbering = Numbering.parse(numbering)
    if not path.exists():
        return []
    data = path.read_bytes()
    complete = data.rfind(b"\n") + 1
    if complete < len(data):  # a chunk was being written when the survey stopped
        with path.open("r+b") as handle:
            handle.truncate(complete)
    records, seen = [], set()
    for number, text in enumerate(data[:complete].decode().splitlines(), 1):
        if not text.strip():
            continue
        try:
            entry = json.loads(text)
            deal, verdict = int(entry["deal"]), entry["verdict"]
        except (ValueError, KeyError, TypeError):
            raise SurveyError(f"{path} line {number} is not a survey record; cannot resume from it") from None
        theirs = entry.get("numbering", Numbering.PYSOLFC.value)
        if theirs != numbering.value:
            raise SurveyError(
                f"{path} line {number} is a deal in {theirs} numbering, not {numbering.value}: "
                "a survey resumes only a file of its own numbering"
            )
        if entry.get("game") != game or not low <= deal <= high:
            raise SurveyError(f"{path} line {number} is {entry.get('game')} deal {deal}, not part of {game} {low}-{high}")
        if deal in seen:
            raise SurveyError(f"{path} has deal {deal} twice")
        if verdict not in ("won", "lost", "unknown"):
            raise SurveyError(f"{path} line {number}: unknown verdict {verdict!r}")
        seen.add(deal)
        records.append(entry)
    return records


def missing_ranges(low: int, high: int, done: Iterable[int]) -> list[tuple[int, int]]:
    """The runs of deals in ``low``-``high`` not in ``done``.

    >>> missing_ranges(1, 10, [1, 2, 5])
    [(3, 4), (6, 10)]
    """
    ranges, start = [], low
    for deal in sorted(set(done)):
        if deal > start:
            ranges.append((start, deal - 1))
        start = max(start, deal + 1)
    if start <= high:
        ranges.append((start, high))
    return ranges


# -- the summary ---------------------------------------------------------------------
def percentile(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, int(round(fraction * len(sorted_values) + 0.5)) - 1))
    return sorted_values[index]


def verdicts_digest(records: Iterable[dict[str, Any]]) -> str:
    """SHA-256 of the deterministic fields of ``records`` in deal order: two surveys of
    the same deals with the same engine and node budget have the same digest, whatever
    machines ran them (the file's own checksum changes with the timings)."""
    digest = hashlib.sha256()
    for entry in sorted(records, key=lambda entry: entry["deal"]):
        digest.update(json.dumps([entry[key] for key in DETERMINISTIC]).encode() + b"\n")
    return digest.hexdigest()


@dataclass
class Summary:
    game: str
    first: int
    last: int
    counts: dict[str, int] = field(default_factory=lambda: {"won": 0, "lost": 0, "unknown": 0})
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    wall: float = 0.0
    jobs: int = 1
    where: str = "this machine"
    resumed: int = 0
    """Records read back from the ``--out`` file of a stopped survey."""
    numbering: Numbering = Numbering.PYSOLFC
    """Whose deal numbers ``first``-``last`` are."""

    @property
    def deals(self) -> str:
        """The range as written on the command line: ``1-1000`` or ``ms1-ms1000``."""
        prefix = self.numbering.prefix
        return f"{prefix}{self.first}-{prefix}{self.last}"

    def add(self, record: dict[str, Any]) -> None:
        self.counts[record["verdict"]] += 1
        self.seconds.append(record["seconds"])
        self.cpu_seconds.append(record.get("cpu_seconds", record["seconds"]))
        self.positions.append(record["positions"])
        if record["verdict"] == "won":
            self.moves.append(record["moves"])

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def stats(self, values: Sequence[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {
            "median": statistics.median(ordered) if ordered else 0,
            "p90": percentile(ordered, 0.9),
            "max": ordered[-1] if ordered else 0,
            "total": sum(ordered),
        }

    def to_json(self) -> dict[str, Any]:
        total = self.total or 1
        return {
            "game": self.game,
            "deals": self.deals,
            "numbering": self.numbering.value,
            "count": self.total,
            **self.counts,
            "percent": {key: round(100 * value / total, 4) for key, value in self.counts.items()},
            "seconds": self.stats(self.seconds),
            "cpu_seconds": self.stats(self.cpu_seconds),
            "positions": self.stats(self.positions),
            "moves": self.stats(self.moves),
            "wall_seconds": round(self.wall, 3),
            "jobs": self.jobs,
            "where": self.where,
            "resumed": self.resumed,
        }

    def to_text(self) -> str:
        data = self.to_json()
        pct = data["percent"]
        sec, cpu, pos, mov = data["seconds"], data["cpu_seconds"], data["positions"], data["moves"]
        resumed = f" ({self.resumed:,} read back from the file)" if self.resumed else ""
        lines = [
            f"{self.game} deals {self.deals}: {self.total:,} solved in {self.wall:.1f} s on {self.jobs} processes ({self.where}){resumed}",
            f"  won      {self.counts['won']:>9,}  {pct['won']:8.4f} %  (every line verified by the rules)",
            f"  lost     {self.counts['lost']:>9,}  {pct['lost']:8.4f} %  (proved: whole space searched)",
            f"  unknown  {self.counts['unknown']:>9,}  {pct['unknown']:8.4f} %  (budget ran out)",
            f"  CPU per deal       median {cpu['median'] * 1000:9.3f} ms   p90 {cpu['p90'] * 1000:9.3f} ms   max {cpu['max'] * 1000:9.1f} ms   total {cpu['total']:,.1f} s (search and replay)",
            f"  wall per deal      median {sec['median'] * 1000:9.3f} ms   p90 {sec['p90'] * 1000:9.3f} ms   max {sec['max'] * 1000:9.1f} ms",
            f"  positions per deal median {pos['median']:>12,.0f}   p90 {pos['p90']:>12,.0f}   max {pos['max']:>12,.0f}",
        ]
        if self.moves:
            lines.append(f"  winning line       median {mov['median']:.0f} moves   max {mov['max']:.0f} moves")
        return "\n".join(lines)


# -- running -------------------------------------------------------------------------
Sink = Callable[[list[dict[str, Any]]], object]
"""Something told each chunk's records, in deal order, after they are written (the
verdicts table of ``--database``)."""


def ordered(results: Iterator[tuple[int, list[dict[str, Any]]]], count: int) -> Iterator[tuple[list[dict[str, Any]], int]]:
    """Chunks handed back in any order, as ``(index, records)``, put back in order:
    yields ``(records, finished)`` for each chunk in turn, ``finished`` counting the
    chunks back so far (for a progress bar). A chunk seen twice is ignored."""
    waiting: dict[int, list[dict[str, Any]]] = {}
    following = 0
    finished = 0
    for index, records in results:
        if index < following or index in waiting:
            continue
        finished += 1
        waiting[index] = records
        while following in waiting:
            yield waiting.pop(following), finished
            following += 1
    if following != count:
        raise SurveyError(f"the runner stopped after {following} of {count} chunks")


def run_survey(
    game: str,
    low: int,
    high: int,
    budget: Budget,
    jobs: int = 0,
    out: IO[str] | None = None,
    progress: bool = True,
    *,
    scheduler: str | None = None,
    chunk: int | None = None,
    lines: bool = False,
    done: list[dict[str, Any]] | None = None,
    sink: Sink | None = None,
    numbering: Numbering | str = Numbering.PYSOLFC,
    grades: bool = False,
) -> Summary:
    """Solve ``game`` deals ``low``-``high`` (in ``numbering``, PySolFC's by default) and
    write their records to ``out`` in deal order; ``done`` are records already written
    (a resumed survey), which are counted but not solved again. ``scheduler`` is a Dask
    scheduler's address (else ``jobs`` processes here, 0 for one per core); ``sink``
    also gets every chunk's records; ``grades`` grades every won deal (its records'
    ``grade``)."""
    game_class(game, library=True)  # an unknown game fails here, before any worker starts
    numbering = Numbering.parse(numbering)
    DealNumber(low, numbering), DealNumber(high, numbering)  # out of range: ParseError here
    summary = Summary(game, low, high, numbering=numbering)
    for entry in done or ():
        summary.add(entry)
    summary.resumed = len(done or ())
    todo = missing_ranges(low, high, (entry["deal"] for entry in done or ()))
    count = sum(b - a + 1 for a, b in todo)
    started = time.perf_counter()
    runner = DaskRunner(scheduler) if scheduler else LocalRunner(jobs or os.cpu_count() or 1)
    with runner:
        summary.jobs, summary.where = runner.workers(), runner.where
        size = chunk or default_chunk(game, count, summary.jobs)
        plan = Plan(
            game,
            chunk_ranges(todo, size),
            budget,
            lines or sink is not None,
            numbering,
            solve=solve_graded_chunk if grades else solve_chunk,
        )
        bar = Bar(f"{game} {summary.deals}", high - low + 1, summary.total, summary.counts["won"], progress)
        with bar:
            for records, _ in ordered(runner.run(plan, bar.chunk_back), len(plan.chunks)):
                for entry in records:
                    summary.add(entry)
                if out is not None:
                    out.write("".join(json.dumps(without_line(entry, lines)) + "\n" for entry in records))
                    out.flush()
                if sink is not None:
                    sink(records)
                bar.written(summary.counts["won"])
    summary.wall = time.perf_counter() - started
    return summary


def without_line(entry: dict[str, Any], lines: bool) -> dict[str, Any]:
    """``entry`` as the ``--out`` file holds it: the line only if asked for."""
    if lines or "line" not in entry:
        return entry
    return {key: value for key, value in entry.items() if key != "line"}


class Bar:
    """The progress bar (rich): deals back from the workers, and won so far."""

    def __init__(self, title: str, total: int, done: int, won: int, show: bool) -> None:
        self.title, self.total, self.done, self.won, self.show = title, total, done, won, show
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> Bar:
        if self.show:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            columns = (
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("won {task.fields[won]}"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
            )
            self._progress = Progress(*columns, transient=True)
            self._progress.__enter__()
            self._task = self._progress.add_task(self.title, total=self.total, completed=self.done, won=self.won)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.__exit__(kind, error, trace)

    def chunk_back(self, deals: int) -> None:
        """A chunk of ``deals`` came back from a worker (maybe ahead of its turn)."""
        self.done += deals
        if self._progress is not None and self._task is not None:  # set together
            self._progress.update(self._task, completed=self.done)

    def written(self, won: int) -> None:
        if self._progress is not None and self._task is not None:  # set together
            self._progress.update(self._task, won=won)
