"""The published survey tables: which surveys, how they are run, and their reports.

Each :class:`Table` names a survey (game, deals, budget) and what to compare it with.
``docs/surveys/make_tables.py`` runs them (:func:`survey_command`) and turns their
JSON lines into a text table per survey, with the command that reproduces it, the
engine, the budget and checksums (:func:`text_table`), plus two pictures drawn with
matplotlib (``pip install 'winnable[docs]'``): the share of deals won, lost and
unknown per game, and the distribution of CPU time per deal (:func:`draw`).

>>> table = TABLES["black-hole"]
>>> " ".join(survey_command(table, "out.jsonl"))
'winnable survey black-hole 1-1000000 --out out.jsonl --quiet --json'
>>> [t.id for t in TABLES.values() if t.game == "freecell"]
['freecell-100k', 'freecell', 'freecell-ms']
>>> " ".join(survey_command(TABLES["freecell-ms"], "out.jsonl"))
'winnable survey freecell 1-1000000 --numbering microsoft --out out.jsonl --nodes 20000000 --quiet --json'
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from winnable.deals import MS_LIMIT, Numbering
from winnable.games import game_class
from winnable.survey import Summary, percentile, verdicts_digest

FREE_CELL_GAMES = ("penguin", "penguin-relaxed", "penguin-6", "penguin-5", "penguin-3", "penguin-0",
                   "penguin-pysolfc", "freecell", "eight-off", "bakers-game")
SPIDER_GAMES = ("black-widow", "spider-4", "spider-2", "spider-1")

FREECELL_UNWINNABLE = (11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948)
"""The FreeCell deals of 1-1,000,000 known to have no solution (Microsoft's numbering;
found by exhaustive solvers and listed in the FreeCell FAQ)."""

FREECELL_UNWINNABLE_PYSOLFC = tuple(deal for deal in FREECELL_UNWINNABLE if deal <= MS_LIMIT)
"""Those of them that PySolFC's numbering deals the same way (below 32000: just 11982)."""

PYSOLFC_FREECELL_NOTE = (
    "the FreeCell FAQ's unwinnable deals are in Microsoft's numbering; PySolFC deals the same "
    "cards only below 32000, so only 11982 applies here: its numbers from 32000 on are its "
    "Mersenne Twister's deals, other deals. The table freecell-ms surveys Microsoft's deals")


@dataclass(frozen=True)
class Table:
    """One published survey."""

    id: str
    game: str
    first: int
    last: int
    nodes: int | None = None
    """Position budget per deal (None: none, every deal is searched to the end)."""
    title: str = ""
    published_won: int | None = None
    """A published count of won deals to compare with."""
    published_source: str = ""
    known_lost: tuple[int, ...] = ()
    """Deals published as lost, to compare deal by deal (when the range covers them)."""
    list_lost: bool = True
    """List the lost deals in the text table (when there are few)."""
    chunk: int | None = None
    numbering: Numbering = Numbering.PYSOLFC
    """Whose deal numbers: PySolFC's, or Microsoft's (``ms`` numbers)."""
    note: str = ""
    """A sentence printed with the comparison (why some published deals do not apply)."""

    @property
    def data_name(self) -> str:
        """``freecell-1-1000000.jsonl``; ``freecell-ms1-1000000.jsonl`` for Microsoft's deals."""
        return f"{self.game}-{self.numbering.prefix}{self.first}-{self.last}.jsonl"

    @property
    def budget_text(self) -> str:
        if self.nodes is None:
            return "none: every deal searched until won or proved lost"
        return f"{self.nodes:,} positions a deal (past it the verdict is unknown)"


def _tables() -> dict[str, Table]:
    tables = [Table("black-hole", "black-hole", 1, 1_000_000, title="Black Hole, deals 1-1,000,000",
                    published_won=869_413, published_source="Shlomi Fish's black-hole-solver", list_lost=False)]
    for game in FREE_CELL_GAMES:
        freecell = game == "freecell"
        tables.append(Table(f"{game}-100k", game, 1, 100_000, nodes=20_000_000, title=f"{game_class(game).title}, deals 1-100,000",
                            known_lost=FREECELL_UNWINNABLE_PYSOLFC if freecell else (),
                            note=PYSOLFC_FREECELL_NOTE if freecell else ""))
    tables.append(Table("freecell", "freecell", 1, 1_000_000, nodes=20_000_000, title="FreeCell, deals 1-1,000,000",
                        known_lost=FREECELL_UNWINNABLE_PYSOLFC, note=PYSOLFC_FREECELL_NOTE))
    tables.append(Table("freecell-ms", "freecell", 1, 1_000_000, nodes=20_000_000,
                        title="FreeCell, Microsoft's deals 1-1,000,000", known_lost=FREECELL_UNWINNABLE,
                        numbering=Numbering.MICROSOFT,
                        note="Microsoft's numbering, PySolFC's ms numbers, as in the FreeCell FAQ: "
                             "all eight of its unwinnable deals apply"))
    for game in SPIDER_GAMES:
        tables.append(Table(game, game, 1, 10_000, nodes=2_000_000, title=f"{game_class(game).title}, deals 1-10,000", chunk=10))
    tables.append(Table("fourteen-out", "fourteen-out", 1, 1_000_000, title="Fourteen Out, deals 1-1,000,000", list_lost=False))
    return {table.id: table for table in tables}


TABLES = _tables()


def survey_command(table: Table, out: str, first: int | None = None, last: int | None = None) -> list[str]:
    """The ``winnable survey`` command that produces ``table`` (over ``first``-``last``
    instead, for a dry run)."""
    command = ["winnable", "survey", table.game, f"{first or table.first}-{last or table.last}"]
    if table.numbering is not Numbering.PYSOLFC:
        command += ["--numbering", table.numbering.value]
    command += ["--out", out]
    if table.nodes is not None:
        command += ["--nodes", str(table.nodes)]
    if table.chunk is not None:
        command += ["--chunk", str(table.chunk)]
    return command + ["--quiet", "--json"]


# -- reading -------------------------------------------------------------------------
def open_lines(path: Path) -> io.TextIOBase:
    """A survey's JSON lines, plain or gzipped."""
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path), encoding="utf-8")
    return path.open(encoding="utf-8")


def read_records(path: Path) -> list[dict]:
    with open_lines(path) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def lines_digest(path: Path) -> str:
    """SHA-256 of the JSON lines themselves (of the uncompressed text, for a ``.gz``)."""
    digest = hashlib.sha256()
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def summarise(table: Table, records: Iterable[dict]) -> Summary:
    summary = Summary(table.game, table.first, table.last, numbering=table.numbering)
    for entry in records:
        summary.add(entry)
    return summary


# -- the text table ------------------------------------------------------------------
def text_table(table: Table, records: list[dict], meta: dict, data_path: Path) -> str:
    """The report of one survey, as ``docs/surveys/<id>.txt`` holds it."""
    summary = summarise(table, records)
    counts, total = summary.counts, summary.total or 1
    deals = [entry["deal"] for entry in records]
    first, last = (min(deals), max(deals)) if deals else (table.first, table.first - 1)
    cpu = sorted(summary.cpu_seconds)
    positions = sorted(summary.positions)
    ms = lambda seconds: f"{seconds * 1000:,.3f} ms"  # noqa: E731
    out = [
        f"{table.title or table.id}",
        "",
        f"command     {' '.join(meta.get('command') or survey_command(table, data_path.name.removesuffix('.gz')))}",
        f"engine      {meta.get('engine', '?')}   (winnable {meta.get('winnable', '?')}, commit {meta.get('commit', '?')})",
        f"budget      {table.budget_text}",
        f"machine     {meta.get('machine', '?')}",
        f"deals       {table.numbering.prefix}{first:,}-{table.numbering.prefix}{last:,}: {summary.total:,} surveyed"
        + ("" if summary.total == table.last - table.first + 1 else f" (of {table.last - table.first + 1:,}: a partial run)"),
        "",
        f"  won       {counts['won']:>10,}  {100 * counts['won'] / total:8.4f} %   every line replayed by the Python rules",
        f"  lost      {counts['lost']:>10,}  {100 * counts['lost'] / total:8.4f} %   proved: the whole space searched",
        f"  unknown   {counts['unknown']:>10,}  {100 * counts['unknown'] / total:8.4f} %   the budget ran out",
        "",
        f"CPU time per deal   median {ms(percentile(cpu, 0.5))}   p90 {ms(percentile(cpu, 0.9))}   "
        f"p99 {ms(percentile(cpu, 0.99))}   max {ms(cpu[-1] if cpu else 0)}",
        f"CPU time in all     {sum(cpu):,.1f} s (search and replay; {sum(cpu) / total * 1000:.3f} ms a deal)",
        f"positions per deal  median {percentile(positions, 0.5):,}   p90 {percentile(positions, 0.9):,}   "
        f"max {positions[-1] if positions else 0:,}   total {sum(positions):,}",
    ]
    if meta.get("wall_seconds") is not None:
        out.append(f"the run             {meta['wall_seconds']:,.0f} s of wall time, {meta.get('cpu_seconds', 0):,.0f} s of CPU "
                   f"time (all processes, start-up included) on {meta.get('jobs', '?')} processes")
    out += [""] + comparison(table, records, summary)
    out += [
        "",
        f"JSON lines  {data_path.name}",
        f"  sha256 of the lines        {lines_digest(data_path)}",
        f"  sha256 of the verdicts     {verdicts_digest(records)}",
        "  (the second covers game, deal, verdict, positions and moves only: a rerun with the same",
        "  engine and budget on any machine gives the same; the first changes with the timings)",
    ]
    return "\n".join(out) + "\n"


def comparison(table: Table, records: list[dict], summary: Summary) -> list[str]:
    """What the survey says against published figures, deal by deal where possible."""
    lines = []
    lost = sorted(entry["deal"] for entry in records if entry["verdict"] == "lost")
    unknown = sorted(entry["deal"] for entry in records if entry["verdict"] == "unknown")
    complete = summary.total == table.last - table.first + 1
    if table.published_won is not None:
        difference = summary.counts["won"] - table.published_won
        if not complete:
            lines.append(f"published   {table.published_won:,} won ({table.published_source}); not comparable: a partial run")
        elif difference == 0:
            lines.append(f"published   {table.published_won:,} won ({table.published_source}): the same count")
        else:
            lines.append(f"published   {table.published_won:,} won ({table.published_source}): {difference:+,} here")
            lines.append(f"            the deals to look at: the {len(unknown):,} unknown ones, then every verdict that "
                         "differs from that solver's on the same deal")
    if table.known_lost:
        in_range = [deal for deal in table.known_lost if table.first <= deal <= table.last]
        surveyed = {entry["deal"]: entry["verdict"] for entry in records}
        lines.append(f"published   lost deals in this range: {', '.join(map(str, in_range)) or 'none'}")
        if table.note:
            lines.append(f"            ({table.note})")
        for deal in in_range:
            if deal in surveyed:
                lines.append(f"            deal {deal}: {surveyed[deal]} here")
        extra = [deal for deal in lost if deal not in table.known_lost]
        if extra:
            lines.append(f"            lost here but not published as lost: {', '.join(map(str, extra[:50]))}")
    if table.list_lost and lost:
        shown = ", ".join(map(str, lost[:200])) + (f", ... ({len(lost):,} in all)" if len(lost) > 200 else "")
        lines.append(f"lost deals  {shown}")
    if unknown:
        shown = ", ".join(map(str, unknown[:200])) + (f", ... ({len(unknown):,} in all)" if len(unknown) > 200 else "")
        lines.append(f"unknown     {shown}")
    return lines or ["every deal decided"]


# -- pictures ------------------------------------------------------------------------
def draw(surveys: list[tuple[Table, list[dict]]], folder: Path) -> list[Path]:
    """``win-rates.png`` (won / lost / unknown per survey) and ``cpu-per-deal.png`` (the
    distribution of CPU time per deal, one curve per survey) in ``folder``."""
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("drawing needs matplotlib: pip install 'winnable[docs]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    names = [table.title for table, _ in surveys]
    shares = {verdict: [] for verdict in ("won", "lost", "unknown")}
    for table, records in surveys:
        summary = summarise(table, records)
        for verdict in shares:
            shares[verdict].append(100 * summary.counts[verdict] / (summary.total or 1))
    figure, axes = plt.subplots(figsize=(9, 0.42 * len(names) + 1.6))
    left = [0.0] * len(names)
    colours = {"won": "#2e7d32", "lost": "#c62828", "unknown": "#9e9e9e"}
    for verdict, values in shares.items():
        axes.barh(names, values, left=left, color=colours[verdict], label=verdict)
        left = [a + b for a, b in zip(left, values)]
    for index, value in enumerate(shares["won"]):
        axes.text(1, index, f"{value:.2f} % won", va="center", color="white", fontsize=8)
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of deals (%)")
    axes.set_title("Winnable's surveys: deals won, proved lost, undecided")
    axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    rates = folder / "win-rates.png"
    figure.savefig(rates, dpi=110)
    plt.close(figure)

    families = [("Black Hole", ("black-hole",)), ("The free-cell family", FREE_CELL_GAMES), ("The Spider family", SPIDER_GAMES)]
    shown = [(name, [(t, r) for t, r in surveys if t.game in games]) for name, games in families]
    shown = [(name, group) for name, group in shown if group]
    figure, panels = plt.subplots(1, len(shown), figsize=(5 * len(shown), 5), sharey=True, squeeze=False)
    palette = plt.get_cmap("tab20").colors
    for axes, (name, group) in zip(panels[0], shown):
        for index, (table, records) in enumerate(group):
            cpu = sorted(max(entry.get("cpu_seconds", entry["seconds"]), 1e-6) for entry in records)
            if cpu:  # at most 2,000 points a curve, evenly spaced in rank
                ranks = sorted({min(len(cpu) - 1, round(k * (len(cpu) - 1) / 1999)) for k in range(2000)})
                axes.plot([cpu[i] for i in ranks], [100 * (i + 1) / len(cpu) for i in ranks], label=table.title,
                          linewidth=1.3, color=palette[(2 * index) % 20 if index < 10 else (2 * index + 1) % 20])
        axes.set_xscale("log")
        axes.set_xlabel("CPU seconds per deal (search and replay)")
        axes.set_title(name)
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(fontsize=7, loc="lower right")
    panels[0][0].set_ylabel("deals decided within that time (%)")
    figure.suptitle("Distribution of CPU time per deal (log scale)")
    figure.tight_layout()
    times = folder / "cpu-per-deal.png"
    figure.savefig(times, dpi=110)
    plt.close(figure)
    return [rates, times]


@dataclass
class Report:
    """What :func:`write_reports` produced."""

    tables: list[Path] = field(default_factory=list)
    pictures: list[Path] = field(default_factory=list)
    index: Path | None = None


def write_reports(data: Path, out: Path, tables: Iterable[Table] | None = None) -> Report:
    """For every table whose JSON lines are in ``data`` (``<game>-<first>-<last>.jsonl``,
    or ``.jsonl.gz``, and ``.meta.json`` beside them): its text table in ``out``, the
    pictures, and ``out/index.md`` listing them."""
    report = Report()
    surveys = []
    rows = []
    for table in tables or TABLES.values():
        path = next((p for p in (data / table.data_name, data / f"{table.data_name}.gz") if p.exists()), None)
        if path is None:
            continue
        meta_path = data / f"{table.data_name}.meta.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        records = read_records(path)
        text = text_table(table, records, meta, path)
        target = out / f"{table.id}.txt"
        target.write_text(text)
        report.tables.append(target)
        surveys.append((table, records))
        summary = summarise(table, records)
        total = summary.total or 1
        rows.append(f"| [{table.title or table.id}]({target.name}) | {summary.total:,} | "
                    f"{100 * summary.counts['won'] / total:.4f} % | {100 * summary.counts['lost'] / total:.4f} % | "
                    f"{100 * summary.counts['unknown'] / total:.4f} % | {table.budget_text.split(':')[0]} |")
    if surveys:
        report.pictures = draw(surveys, out)
    index = out / "index.md"
    index.write_text("\n".join([
        "# Survey tables", "",
        "Made by `docs/surveys/make_tables.py report` from the JSON lines of each survey; each",
        "table gives the command that reproduces it, the engine, the budget and checksums.", "",
        "| survey | deals | won | lost | unknown | budget |", "| --- | ---: | ---: | ---: | ---: | --- |",
        *rows, "",
        "![won, lost and unknown per survey](win-rates.png)", "",
        "![CPU time per deal](cpu-per-deal.png)", "",
    ]))
    report.index = index
    return report
