"""Surveys: solve a range of deals on every core and summarise what was proved.

Only verified lines count as wins: each worker replays the engine's line through the
Python rules (:func:`winnable.solver.solve`) before reporting it.
"""

from __future__ import annotations

import json
import multiprocessing
import statistics
import time
from dataclasses import dataclass, field
from typing import IO, Iterator

from winnable.games import game_class
from winnable.solver import Budget, solve


def solve_deal(game: str, number: int, budget: Budget) -> dict:
    """One survey record: game, deal, verdict, positions, seconds (wall), cpu_seconds
    (the CPU time of the solve: the engine searches on the calling thread, and the
    replay runs there too, so a busy machine does not change it), moves."""
    position = game_class(game).deal(number)
    cpu = time.thread_time()
    verdict = solve(position, budget)
    cpu = time.thread_time() - cpu
    return {
        "game": game,
        "deal": number,
        "verdict": verdict.status.value,
        "positions": verdict.positions,
        "seconds": round(verdict.seconds, 6),
        "cpu_seconds": round(cpu, 6),
        "moves": len(verdict.line),
    }


def _work(args: tuple[str, int, Budget]) -> dict:
    return solve_deal(*args)


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, int(round(fraction * len(sorted_values) + 0.5)) - 1))
    return sorted_values[index]


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

    def add(self, record: dict) -> None:
        self.counts[record["verdict"]] += 1
        self.seconds.append(record["seconds"])
        self.cpu_seconds.append(record["cpu_seconds"])
        self.positions.append(record["positions"])
        if record["verdict"] == "won":
            self.moves.append(record["moves"])

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def stats(self, values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {
            "median": statistics.median(ordered) if ordered else 0,
            "p90": percentile(ordered, 0.9),
            "max": ordered[-1] if ordered else 0,
            "total": sum(ordered),
        }

    def to_json(self) -> dict:
        total = self.total or 1
        return {
            "game": self.game,
            "deals": f"{self.first}-{self.last}",
            "count": self.total,
            **self.counts,
            "percent": {key: round(100 * value / total, 4) for key, value in self.counts.items()},
            "seconds": self.stats(self.seconds),
            "cpu_seconds": self.stats(self.cpu_seconds),
            "positions": self.stats(self.positions),
            "moves": self.stats(self.moves),
            "wall_seconds": round(self.wall, 3),
            "jobs": self.jobs,
        }

    def to_text(self) -> str:
        data = self.to_json()
        pct = data["percent"]
        sec, cpu, pos, mov = data["seconds"], data["cpu_seconds"], data["positions"], data["moves"]
        lines = [
            f"{self.game} deals {self.first}-{self.last}: {self.total:,} solved in {self.wall:.1f} s on {self.jobs} processes",
            f"  won      {self.counts['won']:>9,}  {pct['won']:8.4f} %  (every line verified by the rules)",
            f"  lost     {self.counts['lost']:>9,}  {pct['lost']:8.4f} %  (proved: whole space searched)",
            f"  unknown  {self.counts['unknown']:>9,}  {pct['unknown']:8.4f} %  (budget ran out)",
            f"  CPU per deal       median {cpu['median'] * 1000:9.3f} ms   p90 {cpu['p90'] * 1000:9.3f} ms   max {cpu['max'] * 1000:9.1f} ms   total {cpu['total']:.1f} s",
            f"  wall per deal      median {sec['median'] * 1000:9.3f} ms   p90 {sec['p90'] * 1000:9.3f} ms   max {sec['max'] * 1000:9.1f} ms",
            f"  positions per deal median {pos['median']:>12,.0f}   p90 {pos['p90']:>12,.0f}   max {pos['max']:>12,.0f}",
        ]
        if self.moves:
            lines.append(f"  winning line       median {mov['median']:.0f} moves   max {mov['max']:.0f} moves")
        return "\n".join(lines)


def _records(game: str, low: int, high: int, budget: Budget, jobs: int) -> Iterator[dict]:
    tasks = ((game, number, budget) for number in range(low, high + 1))
    if jobs <= 1 or high == low:
        yield from map(_work, tasks)
        return
    context = multiprocessing.get_context("fork" if hasattr(multiprocessing, "get_all_start_methods") and "fork" in multiprocessing.get_all_start_methods() else "spawn")
    chunk = max(1, min(64, (high - low + 1) // (jobs * 32)))
    with context.Pool(jobs) as pool:
        yield from pool.imap(_work, tasks, chunksize=chunk)


def run_survey(game: str, low: int, high: int, budget: Budget, jobs: int, out: IO[str] | None = None, progress: bool = True) -> Summary:
    summary = Summary(game, low, high, jobs=jobs)
    started = time.perf_counter()
    records = _records(game, low, high, budget, jobs)
    if progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("won {task.fields[won]}"), TimeElapsedColumn(), TimeRemainingColumn())
        with Progress(*columns, transient=True) as bar:
            task = bar.add_task(f"{game} {low}-{high}", total=high - low + 1, won=0)
            for record in records:
                summary.add(record)
                if out is not None:
                    out.write(json.dumps(record) + "\n")
                bar.update(task, advance=1, won=summary.counts["won"])
    else:
        for record in records:
            summary.add(record)
            if out is not None:
                out.write(json.dumps(record) + "\n")
    summary.wall = time.perf_counter() - started
    return summary
