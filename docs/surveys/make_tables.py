"""Run the published surveys, keep them small, and make the tables and pictures here.

    .venv/bin/python docs/surveys/make_tables.py commands              # what runs, table by table
    .venv/bin/python docs/surveys/make_tables.py run black-hole        # one survey (or several ids; none: all)
    .venv/bin/python docs/surveys/make_tables.py run black-hole --scheduler tcp://HOST:8786
    .venv/bin/python docs/surveys/make_tables.py report                # text tables, pictures, index.md
    .venv/bin/python docs/surveys/make_tables.py dry-run --deals 50    # every table on its first 50 deals, in /tmp
    .venv/bin/python docs/surveys/make_tables.py convert               # data/'s JSON lines made small again
    .venv/bin/python docs/surveys/make_tables.py convert lines.jsonl.gz --verdicts-only   # any survey's lines

``run`` writes ``data/<game>-<first>-<last>.jsonl`` (resumable: run it again with
``--resume`` after a stop), gzips it, and keeps from it what the repository holds
(:class:`winnable.surveys.data.SurveyData`): ``<game>-<first>-<last>.verdicts.gz``, two
bits a deal, and ``<game>-<first>-<last>.json``, the figures the table prints and the
run (the command, the engine, the commit, the wall and CPU time). The JSON lines stay
in ``data/`` for whoever ran the survey; git ignores them. ``report`` reads every
survey's kept data in ``data/`` and writes ``<id>.txt`` per table, ``win-rates.png``,
``cpu-per-deal.png`` and ``index.md`` here. The pictures need matplotlib
(``pip install -e '.[docs]'``).
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from winnable.storage.verdicts import engine_version
from winnable.surveys.data import SurveyData, read_records
from winnable.surveys.report import TABLES, Table, convert, survey_command, write_reports

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(table: Table, data: Path, extra: list[str], resume: bool) -> Path:
    """Run one survey into ``data`` and keep it small; returns the gzipped JSON lines."""
    data.mkdir(parents=True, exist_ok=True)
    lines = data / table.data_name
    shown = survey_command(table, table.data_name)
    command = [sys.executable, "-m", "winnable.cli", *shown[1:], *extra] + (["--resume"] if resume else [])
    print(f"{table.id}: {' '.join(shown + extra)}", flush=True)
    wall, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(["nice", *command], capture_output=True, text=True, cwd=data)
    wall, cpu = time.perf_counter() - wall, children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{table.id}: the survey failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    summary = json.loads(done.stdout)
    meta = {
        "table": table.id,
        "command": shown + extra,
        "engine": engine_version(),
        "winnable": _winnable_version(),
        "commit": commit(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "jobs": summary.get("jobs"),
        "where": summary.get("where"),
        "resumed": bool(resume),
        "summary": summary,
    }
    packed = data / f"{table.data_name}.gz"
    with lines.open("rb") as source, gzip.open(packed, "wb", compresslevel=9) as target:
        shutil.copyfileobj(source, target)
    lines.unlink()
    convert(table, packed, meta)
    print(
        f"  {summary['won']:,} won, {summary['lost']:,} lost, {summary['unknown']:,} unknown; "
        f"{wall:,.0f} s wall, {cpu:,.0f} s CPU -> {packed}",
        flush=True,
    )
    return packed


def _winnable_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("winnable")
    except PackageNotFoundError:
        return "unknown"


def convert_lines(paths: list[Path], out: Path | None, verdicts_only: bool) -> list[Path]:
    """Each game's verdicts in each of ``paths`` (a survey's JSON lines, or several games'
    in one file) kept as ``<game>-<first>-<last>`` over the deals found, in ``out`` or
    beside the file."""
    written = []
    for path in paths:
        games = dict.fromkeys(record["game"] for record in read_records(path))
        for game in games:
            survey = SurveyData.from_lines(path, game, figures=not verdicts_only)
            first, last = survey.verdicts.first, survey.verdicts.last
            prefix = survey.verdicts.numbering.prefix
            written += survey.write(out or path.parent, f"{game}-{prefix}{first}-{last}")
    return written


def chosen(ids: list[str]) -> list[Table]:
    unknown = [name for name in ids if name not in TABLES]
    if unknown:
        raise SystemExit(f"no table {', '.join(unknown)} (tables: {', '.join(TABLES)})")
    return [TABLES[name] for name in ids] if ids else list(TABLES.values())


def shortened(table: Table, deals: int) -> Table:
    last = min(table.last, table.first + deals - 1)
    # A published count is for the whole range: a dry run has nothing to compare it with.
    return dataclasses.replace(
        table,
        last=last,
        title=f"{table.title or table.id} (dry run: deals {table.first}-{last})",
        published_won=None if last < table.last else table.published_won,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("commands", help="print the command of every table")
    runner = sub.add_parser("run", help="run surveys into data/")
    runner.add_argument("ids", nargs="*")
    runner.add_argument("--data", type=Path, default=HERE / "data")
    runner.add_argument("--scheduler", help="a Dask scheduler (tcp://HOST:8786)")
    runner.add_argument("--jobs", type=int, help="processes on this machine")
    runner.add_argument("--resume", action="store_true", help="continue surveys stopped midway")
    reporter = sub.add_parser("report", help="text tables and pictures from data/")
    reporter.add_argument("--data", type=Path, default=HERE / "data")
    reporter.add_argument("--out", type=Path, default=HERE)
    dry = sub.add_parser("dry-run", help="every table on its first deals, in a temporary folder")
    dry.add_argument("ids", nargs="*")
    dry.add_argument("--deals", type=int, default=50)
    dry.add_argument("--keep", type=Path, help="keep the results in this folder")
    converter = sub.add_parser("convert", help="keep JSON lines small: every table's in data/, or the files given")
    converter.add_argument("files", nargs="*", type=Path)
    converter.add_argument("--data", type=Path, default=HERE / "data")
    converter.add_argument("--out", type=Path, help="where the files given go (default: beside each)")
    converter.add_argument("--verdicts-only", action="store_true", help="the verdicts without the figures")
    args = parser.parse_args()

    if args.action == "commands":
        for table in TABLES.values():
            print(f"{table.id:22} {' '.join(survey_command(table, f'data/{table.data_name}'))}")
    elif args.action == "run":
        extra = (["--scheduler", args.scheduler] if args.scheduler else []) + (["--jobs", str(args.jobs)] if args.jobs else [])
        for table in chosen(args.ids):
            run(table, args.data, extra, args.resume)
    elif args.action == "convert" and args.files:
        for path in convert_lines(args.files, args.out, args.verdicts_only):
            print(path)
    elif args.action == "convert":
        for table in TABLES.values():
            lines = next((p for p in (args.data / table.data_name, args.data / f"{table.data_name}.gz") if p.exists()), None)
            if lines is not None:
                survey = convert(table, lines)
                print(f"{table.id}: {lines.name} -> {table.stem}.verdicts.gz {survey.verdicts.counts()}")
    elif args.action == "report":
        report = write_reports(args.data, args.out)
        for path in report.tables + report.pictures + [report.index]:
            print(path)
    elif args.action == "dry-run":
        folder = args.keep or Path(tempfile.mkdtemp(prefix="winnable-tables-"))
        folder.mkdir(parents=True, exist_ok=True)
        tables = []
        for table in map(lambda table: shortened(table, args.deals), chosen(args.ids)):
            if all(other.data_name != table.data_name for other in tables):  # freecell: 100k and 1M alike
                tables.append(table)
        for table in tables:
            run(table, folder / "data", [], False)
        report = write_reports(folder / "data", folder, tables)
        for path in report.tables:
            print(f"--- {path}\n{path.read_text()}")
        print(f"pictures: {', '.join(map(str, report.pictures))}")


if __name__ == "__main__":
    main()
