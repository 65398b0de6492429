"""The ``winnable`` command: deal, solve and survey any game; serve the web app.

Deal numbers are PySolFC's; ``ms146692`` is Microsoft's deal 146692 (PySolFC's ``ms``
numbers, ms0 to ms8589934591), and ``winnable survey freecell ms1-ms1000000`` (or
``1-1000000 --numbering microsoft``) surveys Microsoft's deals.

Bad input (an unknown game, a malformed range, a bad file) prints one line to stderr
and exits with code 2.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, cast

import typer

from winnable.errors import WinnableError
from winnable.games import game_class, game_ids
from winnable.solver import Budget

if TYPE_CHECKING:
    from winnable.deals import DealNumber, Numbering
    from winnable.game import Position

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Winnable: patience games with a solver behind every deal.",
    pretty_exceptions_enable=False,
)

USAGE_ERROR = 2


def fail(message: str) -> typer.Exit:
    typer.echo(f"winnable: error: {message}", err=True)
    return typer.Exit(USAGE_ERROR)


def parse_range(text: str, numbering: Optional[str] = None) -> tuple[int, int, Numbering]:
    """``"1-1000"``, ``"7"`` or ``"ms1-ms1000"`` (Microsoft's deals, also written
    ``ms1-1000``) to an inclusive range of deal numbers and their numbering;
    ``numbering`` is ``--numbering`` (``None``: PySolFC's unless the range says ``ms``)."""
    from winnable.deals import DealNumber, Numbering

    try:
        chosen = Numbering.parse(numbering) if numbering is not None else None
    except WinnableError as error:
        raise fail(f"--numbering: {error}") from None
    first, sep, last = text.partition("-")
    marked = first.strip().lower().startswith("ms")
    if sep and last.strip().lower().startswith("ms") and not marked:
        raise fail(f"not a range of deal numbers: {text!r} (write ms1-ms1000 for Microsoft's deals)")
    if marked and chosen is Numbering.PYSOLFC:
        raise fail(f"{text!r} is a range of Microsoft's deals, not of --numbering pysolfc")
    numbering_used = Numbering.MICROSOFT if marked else chosen or Numbering.PYSOLFC
    try:
        low = DealNumber.parse(first, numbering_used)
        high = DealNumber.parse(last, numbering_used) if sep else low
    except WinnableError as error:
        raise fail(f"not a range of deal numbers: {text!r} ({error}; write A-B, like 1-1000)") from None
    if high.number < low.number:
        raise fail(f"empty range {text!r}: {high} is below {low}")
    return low.number, high.number, numbering_used


def make_budget(nodes: Optional[int], seconds: Optional[float], memory_mb: Optional[int] = None) -> Budget:
    try:
        return Budget(nodes, seconds, memory_mb)
    except ValueError as error:
        raise fail(str(error)) from None


def lookup(game: str) -> type[Position]:
    try:
        return game_class(game, library=True)
    except WinnableError as error:
        raise fail(str(error)) from None


GameArg = typer.Argument(..., help="Game id; `winnable games` lists them.")


@app.command()
def games() -> None:
    """List the games and their ids."""
    for game_id in game_ids(library=True):
        cls = game_class(game_id, library=True)
        typer.echo(f"{game_id:18} {cls.title:24} {cls.summary}")


@app.command()
def deal(
    game: str = GameArg,
    number: str = typer.Argument(..., help="Deal number, as in PySolFC: 146692, or ms146692 for Microsoft's deal."),
    fmt: str = typer.Option("text", "--format", "-f", help="Board format (text, or the game's own: bhs, fcs, ...)."),
    as_json: bool = typer.Option(False, "--json", help="Print the table as JSON."),
    grade: bool = typer.Option(False, "--grade", help="Print the deal's grade instead (with --json: and its figures)."),
) -> None:
    """Print deal NUMBER of GAME (PySolFC's numbering; ms146692 is Microsoft's deal 146692)."""
    from winnable.deals import DealNumber

    cls = lookup(game)
    try:
        chosen = DealNumber.parse(number)
        position = cls.deal(chosen)
        if grade:
            typer.echo(grade_line(position, chosen, as_json))
        elif as_json:
            typer.echo(json.dumps(with_numbering(position.to_json(), chosen)))
        else:
            typer.echo(position.export(fmt), nl=False)
    except WinnableError as error:
        raise fail(str(error)) from None


@app.command()
def solve(
    game: str = GameArg,
    number: Optional[str] = typer.Argument(None, help="Deal number, ms146692 for Microsoft's (or use --file)."),
    file: Optional[Path] = typer.Option(None, "--file", help="Read the position from a file ('-' for stdin)."),
    fmt: str = typer.Option("text", "--format", "-f", help="Format of --file."),
    nodes: Optional[int] = typer.Option(None, "--nodes", help="Give up after this many positions."),
    seconds: Optional[float] = typer.Option(None, "--seconds", help="Give up after this many CPU seconds of the search."),
    memory_mb: Optional[int] = typer.Option(
        None, "--memory-mb", help="What the search may hold, in megabytes (the Spider family; default 1024)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the verdict as JSON."),
) -> None:
    """Solve one deal (ms146692: Microsoft's deal 146692) or position: the verdict, a
    verified winning line, positions and time."""
    from winnable.deals import DealNumber
    from winnable.solver import solve as run_solver

    cls = lookup(game)
    budget = make_budget(nodes, seconds, memory_mb)
    if (number is None) == (file is None):
        raise fail("give a deal number or --file, not both")
    chosen = None
    try:
        if file is not None:
            try:
                text = sys.stdin.read() if str(file) == "-" else file.read_text()
            except OSError as error:
                raise fail(f"cannot read {file}: {error.strerror}") from None
            position = cls.import_(fmt, text)
        else:
            chosen = DealNumber.parse(cast(str, number))  # given: exactly one of it and --file
            position = cls.deal(chosen)
        verdict = run_solver(position, budget)
    except WinnableError as error:
        raise fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps(with_numbering(verdict.to_json(), chosen)))
        return
    where = f"deal {chosen}" if chosen is not None else str(file)
    typer.echo(f"{cls.title} {where}: {verdict.status.value}")
    if verdict.won:
        typer.echo(f"winning line ({len(verdict.line)} moves, verified by the rules):")
        typer.echo(format_line([str(move) for move in verdict.line]))
    elif verdict.lost:
        typer.echo("no winning line exists: every reachable position was searched")
    else:
        typer.echo("undecided: the budget ran out before a win or a proof of loss")
    typer.echo(f"positions searched: {verdict.positions:,}")
    typer.echo(f"time: {verdict.seconds:.3f} s")


@app.command()
def grade(
    game: str = GameArg,
    deals: str = typer.Argument(..., help="Deal number or range, A-B (PySolFC's); ms1-ms1000 for Microsoft's deals."),
    numbering: Optional[str] = typer.Option(None, "--numbering", help="Whose deal numbers A-B are: pysolfc (the default) or microsoft."),
    as_json: bool = typer.Option(False, "--json", help="A JSON line a deal: the grade and the figures behind it."),
) -> None:
    """Grade deals: easy, medium, hard or expert, a line a deal ("-" for a deal not proved
    winnable). The same deal gets the same grade on every run (docs/grades.md)."""
    from winnable.deals import DealNumber

    cls = lookup(game)
    low, high, chosen = parse_range(deals, numbering)
    try:
        for number in range(low, high + 1):
            which = DealNumber(number, chosen)
            typer.echo(grade_line(cls.deal(which), which, as_json))
    except WinnableError as error:
        raise fail(str(error)) from None


def grade_line(position: Position, chosen: DealNumber, as_json: bool) -> str:
    """A deal's grade as ``winnable grade`` prints it: ``GAME DEAL GRADE`` (``-`` when
    the deal is not proved winnable), or a JSON object with its figures."""
    from winnable.errors import NotGradable
    from winnable.grading import grade_position

    try:
        report = grade_position(position)
    except NotGradable as error:
        if as_json:
            return json.dumps(
                with_numbering({"game": position.game_id, "deal": chosen.number, "grade": None, "reason": str(error)}, chosen)
            )
        return f"{position.game_id} {chosen} -"
    if as_json:
        return json.dumps(with_numbering({"game": position.game_id, "deal": chosen.number, **report.to_json()}, chosen))
    return f"{position.game_id} {chosen} {report.grade}"


def with_numbering(data: dict[str, Any], chosen: DealNumber | None) -> dict[str, Any]:
    """``data`` (whose ``deal`` is an int) with ``"numbering": "microsoft"`` when the
    deal is Microsoft's."""
    from winnable.deals import Numbering

    if chosen is not None and chosen.numbering is Numbering.MICROSOFT:
        return {**data, "numbering": chosen.numbering.value}
    return data


def format_line(moves: list[str], per_row: int = 10) -> str:
    rows = []
    for start in range(0, len(moves), per_row):
        numbered = [f"{start + i + 1}.{move}" for i, move in enumerate(moves[start : start + per_row])]
        rows.append("  " + " ".join(numbered))
    return "\n".join(rows)


@app.command()
def survey(
    game: str = GameArg,
    deals: str = typer.Argument(..., help="Range of deal numbers, A-B (PySolFC's); ms1-ms1000 for Microsoft's deals."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write one JSON line per deal to this file, in deal order."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes on this machine (0: one per core)."),
    nodes: Optional[int] = typer.Option(None, "--nodes", help="Position budget per deal."),
    seconds: Optional[float] = typer.Option(None, "--seconds", help="Time budget per deal (CPU seconds of the searching thread)."),
    memory_mb: Optional[int] = typer.Option(
        None,
        "--memory-mb",
        help="What one search may hold, in megabytes (the Spider family: each pass of its search stops there; "
        "default 1024). More lets a long search go deeper before it restarts.",
    ),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Run on the Dask cluster with this scheduler (tcp://HOST:8786)."),
    resume: bool = typer.Option(False, "--resume", help="Keep the deals already in --out and solve the rest."),
    chunk: Optional[int] = typer.Option(None, "--chunk", help="Deals per chunk of work (default: a few seconds' worth)."),
    lines: bool = typer.Option(
        False,
        "--lines",
        help="Also write each verified winning line to --out, as short as a hint's (a slower "
        "search: without --lines or --database a survey asks for verdicts alone).",
    ),
    database: Optional[str] = typer.Option(
        None,
        "--database",
        help="Also store every verdict in this database, with the short winning lines the web app's "
        "deals start from (SQLAlchemy URL; PySolFC's numbering only).",
    ),
    numbering: Optional[str] = typer.Option(
        None,
        "--numbering",
        help="Whose deal numbers A-B are: pysolfc (the default) or microsoft (Microsoft's deals, "
        "as PySolFC's ms numbers: the same as writing ms1-ms1000). Each JSON line of a Microsoft survey says "
        '"numbering": "microsoft"; its "deal" stays the number.',
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    grades: bool = typer.Option(
        False, "--grades", help='Also grade every won deal (docs/grades.md): each JSON line of --out gets its "grade".'
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Solve a range of deals on all cores or a Dask cluster; print won / lost / unknown and timings.

    Deals are PySolFC's; `winnable survey freecell ms1-ms1000000` (or `1-1000000
    --numbering microsoft`) surveys Microsoft's deals 1 to 1,000,000 instead."""
    from winnable.deals import Numbering
    from winnable.surveys.survey import read_done, run_survey

    lookup(game)
    low, high, chosen = parse_range(deals, numbering)
    if database is not None and chosen is not Numbering.PYSOLFC:
        raise fail(
            "--database holds PySolFC's deal numbers (the verdicts table and the web app use them): "
            "survey Microsoft's deals without --database"
        )
    budget = make_budget(nodes, seconds, memory_mb)
    if jobs < 0:
        raise fail("--jobs must be 0 or more")
    if chunk is not None and chunk < 1:
        raise fail("--chunk must be 1 or more")
    if resume and out is None:
        raise fail("--resume continues the survey in --out: give --out")
    try:
        done = read_done(out, game, low, high, chosen) if resume and out is not None else []  # --resume needs --out
        handle = out.open("a" if resume else "w") if out is not None else None
    except OSError as error:
        raise fail(f"cannot write {out}: {error.strerror}") from None
    except WinnableError as error:
        raise fail(str(error)) from None
    store = None
    try:
        sink = None
        if database is not None:
            from winnable.storage.verdicts import VerdictStore

            store = VerdictStore.open(database)
            sink = store.sink(budget)
        summary = run_survey(
            game,
            low,
            high,
            budget,
            jobs,
            handle,
            progress=not quiet,
            scheduler=scheduler,
            chunk=chunk,
            lines=lines,
            done=done,
            sink=sink,
            numbering=chosen,
            grades=grades,
        )
    except WinnableError as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        if out is not None:
            typer.echo(f"stopped: every chunk finished is in {out}; the same command with --resume goes on", err=True)
        raise
    finally:
        if handle is not None:
            handle.close()
        if store is not None:
            store.close()
    if as_json:
        typer.echo(json.dumps(summary.to_json()))
    else:
        typer.echo(summary.to_text())


@app.command()
def pool(
    games: Optional[list[str]] = typer.Argument(None, help="Game ids (default: every game)."),
    database: Optional[str] = typer.Option(None, "--database", help="Database URL (default: the web app's SQLite file)."),
    as_json: bool = typer.Option(False, "--json", help="Print the counts as JSON."),
) -> None:
    """How many deals of each game the verdicts table holds: proved winnable (and not
    dealt yet by the web app), proved lost, undecided."""
    from winnable.storage.verdicts import VerdictStore

    for game in games or ():
        lookup(game)
    if database is None:
        from winnable.storage.engine import default_database_url

        database = default_database_url()
    try:
        store = VerdictStore.open(database)
    except WinnableError as error:
        raise fail(str(error)) from None
    try:
        counts = store.counts(games or game_ids())
    finally:
        store.close()
    shown = {game: counts[game] for game in (games or game_ids())}
    shown |= {game: value for game, value in counts.items() if not games and game not in shown}
    if as_json:
        typer.echo(json.dumps(shown))
        return
    typer.echo(f"{'game':18} {'won':>10} {'not dealt':>10} {'lost':>10} {'unknown':>10}")
    for game, count in shown.items():
        typer.echo(f"{game:18} {count['won']:>10,} {count['unused']:>10,} {count['lost']:>10,} {count['unknown']:>10,}")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    database: Optional[str] = typer.Option(None, "--database", help="Database URL (default: SQLite in the user's data folder)."),
    workers: int = typer.Option(1, "--workers", min=1, max=64, help="Worker processes, all on the one database."),
    allowed_host: Optional[list[str]] = typer.Option(
        None,
        "--allowed-host",
        help="A Host name the site answers to (repeat for several); others are refused. Default: localhost and the --host address.",
    ),
    metrics: Optional[bool] = typer.Option(
        None, "--metrics/--no-metrics", help="Serve Prometheus figures at /metrics (loopback clients only)."
    ),
    forwarded_allow_ips: Optional[str] = typer.Option(
        None, "--forwarded-allow-ips", help="Addresses of reverse proxies whose X-Forwarded-For/-Proto to trust (comma-separated)."
    ),
    solver_scheduler: Optional[str] = typer.Option(
        None,
        "--solver-scheduler",
        help="Run hints', analyses' and the pool's searches on the Dask cluster with this "
        "scheduler (tcp://HOST:PORT); this machine solves while it is away.",
    ),
) -> None:
    """Start the web app (every WINNABLE_* setting applies; these flags win over them)."""
    try:
        from winnable.web import run
    except ImportError as error:
        raise fail(f"the web app is not installed: {error}") from None
    run(
        host=host,
        port=port,
        database=database,
        workers=workers,
        allowed_hosts=allowed_host or None,
        metrics=metrics,
        forwarded_allow_ips=forwarded_allow_ips,
        solver_scheduler=solver_scheduler,
    )


def main() -> None:
    started = time.perf_counter()
    try:
        app()
    except KeyboardInterrupt:
        typer.echo(f"interrupted after {time.perf_counter() - started:.1f} s", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
