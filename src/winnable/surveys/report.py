"""The published survey tables: which surveys, how they are run, and their reports.

Each :class:`Table` names a survey (game, deals, budget) and what to compare it with.
``docs/surveys/make_tables.py`` runs them (:func:`survey_command`), keeps each one's
JSON lines small (:class:`winnable.surveys.data.SurveyData`: two bits a deal and the
figures) and turns that into a text table per survey, with the command that reproduces
it, the engine, the budget and checksums (:func:`text_table`), plus two pictures drawn
with matplotlib (``pip install 'winnable[docs]'``): the share of deals won, lost and
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

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence, cast

from winnable.deals import MS_LIMIT, Numbering
from winnable.games import family_named, game_class, game_ids
from winnable.surveys.data import DealVerdicts, SurveyData, SurveyFigures

if TYPE_CHECKING:
    from matplotlib.colors import ListedColormap

FREE_CELL_GAMES = tuple(game_ids(library=True, family="freecell"))
SPIDER_GAMES = tuple(game_ids(library=True, family="spider"))
CHARTED_FAMILIES = ("blackhole", "freecell", "spider")
"""The families whose surveys the CPU-time picture draws, a panel each."""

FREECELL_UNWINNABLE = (11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948)
"""The FreeCell deals of 1-1,000,000 known to have no solution (Microsoft's numbering;
found by exhaustive solvers and listed in the FreeCell FAQ)."""

FREECELL_UNWINNABLE_PYSOLFC = tuple(deal for deal in FREECELL_UNWINNABLE if deal <= MS_LIMIT)
"""Those of them that PySolFC's numbering deals the same way (below 32000: just 11982)."""

PYSOLFC_FREECELL_NOTE = (
    "the FreeCell FAQ's unwinnable deals are in Microsoft's numbering; PySolFC deals the same "
    "cards only below 32000, so only 11982 applies here: its numbers from 32000 on are its "
    "Mersenne Twister's deals, other deals. The table freecell-ms surveys Microsoft's deals"
)


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
        """The survey's JSON lines: ``freecell-1-1000000.jsonl``; ``freecell-ms1-1000000.jsonl``
        for Microsoft's deals."""
        return f"{self.stem}.jsonl"

    @property
    def stem(self) -> str:
        """The name of its kept data, ``<stem>.verdicts.gz`` and ``<stem>.json``."""
        return f"{self.game}-{self.numbering.prefix}{self.first}-{self.last}"

    @property
    def budget_text(self) -> str:
        if self.nodes is None:
            return "none: every deal searched until won or proved lost"
        return f"{self.nodes:,} positions a deal (past it the verdict is unknown)"


def _title(game: str, deals: str) -> str:
    """A table's title: the game's, as the registry's class has it, and the deals."""
    return f"{game_class(game, library=True).title}, {deals}"


def _tables() -> dict[str, Table]:
    tables = [
        Table(
            "black-hole",
            "black-hole",
            1,
            1_000_000,
            title=_title("black-hole", "deals 1-1,000,000"),
            published_won=869_413,
            published_source="Shlomi Fish's black-hole-solver",
            list_lost=False,
        )
    ]
    for game in FREE_CELL_GAMES:
        freecell = game == "freecell"
        tables.append(
            Table(
                f"{game}-100k",
                game,
                1,
                100_000,
                nodes=20_000_000,
                title=_title(game, "deals 1-100,000"),
                known_lost=FREECELL_UNWINNABLE_PYSOLFC if freecell else (),
                note=PYSOLFC_FREECELL_NOTE if freecell else "",
            )
        )
    tables.append(
        Table(
            "freecell",
            "freecell",
            1,
            1_000_000,
            nodes=20_000_000,
            title=_title("freecell", "deals 1-1,000,000"),
            known_lost=FREECELL_UNWINNABLE_PYSOLFC,
            note=PYSOLFC_FREECELL_NOTE,
        )
    )
    tables.append(
        Table(
            "freecell-ms",
            "freecell",
            1,
            1_000_000,
            nodes=20_000_000,
            title=_title("freecell", "Microsoft's deals 1-1,000,000"),
            known_lost=FREECELL_UNWINNABLE,
            numbering=Numbering.MICROSOFT,
            note="Microsoft's numbering, PySolFC's ms numbers, as in the FreeCell FAQ: all eight of its unwinnable deals apply",
        )
    )
    for game in SPIDER_GAMES:
        tables.append(Table(game, game, 1, 10_000, nodes=2_000_000, title=_title(game, "deals 1-10,000"), chunk=10))
    tables.append(Table("fourteen-out", "fourteen-out", 1, 1_000_000, title=_title("fourteen-out", "deals 1-1,000,000"), list_lost=False))
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


# -- the text table ------------------------------------------------------------------
def text_table(table: Table, data: SurveyData) -> str:
    """The report of one survey, as ``docs/surveys/<id>.txt`` holds it."""
    verdicts, figures, meta = data.verdicts, data.figures, data.run
    if figures is None:
        raise ValueError(f"{table.id}: a table needs the survey's figures, not its verdicts only")
    counts, surveyed = verdicts.counts(), verdicts.surveyed
    total = surveyed or 1
    first, last = verdicts.span() or (table.first, table.first - 1)
    cpu, positions = figures.cpu_seconds, figures.positions

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:,.3f} ms"

    out = [
        f"{table.title or table.id}",
        "",
        f"command     {' '.join(meta.get('command') or survey_command(table, table.data_name))}",
        f"engine      {meta.get('engine', '?')}   (winnable {meta.get('winnable', '?')}, commit {meta.get('commit', '?')})",
        f"budget      {table.budget_text}",
        f"machine     {meta.get('machine', '?')}",
        f"deals       {table.numbering.prefix}{first:,}-{table.numbering.prefix}{last:,}: {surveyed:,} surveyed"
        + ("" if surveyed == table.last - table.first + 1 else f" (of {table.last - table.first + 1:,}: a partial run)"),
        "",
        f"  won       {counts['won']:>10,}  {100 * counts['won'] / total:8.4f} %   every line replayed by the Python rules",
        f"  lost      {counts['lost']:>10,}  {100 * counts['lost'] / total:8.4f} %   proved: the whole space searched",
        f"  unknown   {counts['unknown']:>10,}  {100 * counts['unknown'] / total:8.4f} %   the budget ran out",
        "",
        f"CPU time per deal   median {ms(cpu['median'])}   p90 {ms(cpu['p90'])}   p99 {ms(cpu['p99'])}   max {ms(cpu['max'])}",
        f"CPU time in all     {cpu['total']:,.1f} s (search and replay; {cpu['total'] / total * 1000:.3f} ms a deal)",
        f"positions per deal  median {positions['median']:,}   p90 {positions['p90']:,}   "
        f"max {positions['max']:,}   total {positions['total']:,}",
    ]
    if meta.get("wall_seconds") is not None:
        out.append(
            f"the run             {meta['wall_seconds']:,.0f} s of wall time, {meta.get('cpu_seconds', 0):,.0f} s of CPU "
            f"time (all processes, start-up included) on {meta.get('jobs', '?')} processes"
        )
    out += [""] + comparison(table, verdicts)
    lines = figures.lines
    out += [
        "",
        f"verdicts    {table.stem}.verdicts.gz (two bits a deal; the figures above: {table.stem}.json)",
        f"  sha256 of the verdicts file  {verdicts.sha256}",
        "  (of its uncompressed content; tests/cli/test_survey_data.py reads the verdicts and checks them",
        "  against this table)",
        f"JSON lines  {lines.get('file', table.data_name)} (the survey's output, not kept in the repository)",
        f"  sha256 of the lines        {lines.get('sha256', '?')}",
        f"  sha256 of the verdicts     {lines.get('verdicts_sha256', '?')}",
        "  (the second covers game, deal, verdict, positions and moves only: a rerun with the same",
        "  engine and budget on any machine gives the same; the first changes with the timings)",
    ]
    return "\n".join(out) + "\n"


def comparison(table: Table, verdicts: DealVerdicts) -> list[str]:
    """What the survey says against published figures, deal by deal where possible."""
    lines = []
    lost, unknown = verdicts.deals("lost"), verdicts.deals("unknown")
    won = verdicts.counts()["won"]
    complete = verdicts.surveyed == table.last - table.first + 1
    if table.published_won is not None:
        difference = won - table.published_won
        if not complete:
            lines.append(f"published   {table.published_won:,} won ({table.published_source}); not comparable: a partial run")
        elif difference == 0:
            lines.append(f"published   {table.published_won:,} won ({table.published_source}): the same count")
        else:
            lines.append(f"published   {table.published_won:,} won ({table.published_source}): {difference:+,} here")
            lines.append(
                f"            the deals to look at: the {len(unknown):,} unknown ones, then every verdict that "
                "differs from that solver's on the same deal"
            )
    if table.known_lost:
        in_range = [deal for deal in table.known_lost if table.first <= deal <= table.last]
        lines.append(f"published   lost deals in this range: {', '.join(map(str, in_range)) or 'none'}")
        if table.note:
            lines.append(f"            ({table.note})")
        for deal in in_range:
            if verdicts.verdict(deal) is not None:
                lines.append(f"            deal {deal}: {verdicts.verdict(deal)} here")
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
def draw(surveys: list[tuple[Table, SurveyData]], folder: Path) -> list[Path]:
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
    shares: dict[str, list[float]] = {verdict: [] for verdict in ("won", "lost", "unknown")}
    for _, data in surveys:
        counts = data.verdicts.counts()
        for verdict in shares:
            shares[verdict].append(100 * counts[verdict] / (data.verdicts.surveyed or 1))
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

    families = [(family_named(name).name, game_ids(library=True, family=name)) for name in CHARTED_FAMILIES]
    shown = [(name, [(t, r) for t, r in surveys if t.game in games]) for name, games in families]
    shown = [(name, group) for name, group in shown if group]
    figure, panels = plt.subplots(1, len(shown), figsize=(5 * len(shown), 5), sharey=True, squeeze=False)
    tab20 = cast("ListedColormap", plt.get_cmap("tab20"))  # a listed colour map:
    palette = cast("Sequence[Any]", tab20.colors)  # its 20 colours, RGB triples
    for axes, (name, group) in zip(panels[0], shown):
        for index, (table, data) in enumerate(group):
            # At most 2,000 points, evenly spaced in rank; every survey drawn has its figures (text_table).
            seconds, shares_within = cast(SurveyFigures, data.figures).curve()
            if seconds:
                axes.plot(
                    seconds,
                    shares_within,
                    label=table.title,
                    linewidth=1.3,
                    color=palette[(2 * index) % 20 if index < 10 else (2 * index + 1) % 20],
                )
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
    """For every table whose data is in ``data`` (``<stem>.verdicts.gz`` and ``<stem>.json``,
    or JSON lines to make them from: see :func:`load`): its text table in ``out``, the
    pictures, and ``out/index.md`` listing them."""
    report = Report()
    surveys = []
    out.mkdir(parents=True, exist_ok=True)
    for table in tables or TABLES.values():
        survey = load(table, data)
        if survey is None:
            continue
        target = out / f"{table.id}.txt"
        target.write_text(text_table(table, survey))
        report.tables.append(target)
        surveys.append((table, survey))
    if surveys:
        report.pictures = draw(surveys, out)
    report.index = out / "index.md"
    report.index.write_text(index_text(surveys))
    return report


def load(table: Table, data: Path) -> SurveyData | None:
    """The kept data of ``table`` in the folder ``data``; where there is none yet but the
    survey's JSON lines are there (``<stem>.jsonl`` or ``.jsonl.gz``, with the run in
    ``<stem>.jsonl.meta.json``), it is made from them and written beside them (:func:`convert`).
    None: neither is there."""
    if (data / f"{table.stem}.verdicts.gz").exists():
        return SurveyData.read(data, table.stem)
    lines = next((path for path in (data / table.data_name, data / f"{table.data_name}.gz") if path.exists()), None)
    return None if lines is None else convert(table, lines)


def convert(table: Table, lines: Path, run: dict[str, Any] | None = None) -> SurveyData:
    """``table``'s JSON lines made into its kept data, written beside them; the run is
    ``run``, else what ``<lines>.meta.json`` says (``make_tables.py run`` wrote it)."""
    if run is None:
        meta = lines.with_name(f"{lines.name.removesuffix('.gz')}.meta.json")
        run = json.loads(meta.read_text()) if meta.exists() else {}
    survey = SurveyData.from_lines(lines, table.game, table.first, table.last, table.numbering, run)
    survey.write(lines.parent, table.stem)
    return survey


def index_text(surveys: list[tuple[Table, SurveyData]]) -> str:
    """``index.md``: a row per survey, and the pictures."""
    rows = []
    for table, survey in surveys:
        counts, total = survey.verdicts.counts(), survey.verdicts.surveyed or 1
        rows.append(
            f"| [{table.title or table.id}]({table.id}.txt) | {survey.verdicts.surveyed:,} | "
            f"{100 * counts['won'] / total:.4f} % | {100 * counts['lost'] / total:.4f} % | "
            f"{100 * counts['unknown'] / total:.4f} % | {table.budget_text.split(':')[0]} |"
        )
    return "\n".join(
        [
            "# Survey tables",
            "",
            "Made by `docs/surveys/make_tables.py report` from the data of each survey (`data/`: two bits",
            "a deal and the figures); each table gives the command that reproduces it, the engine, the",
            "budget and checksums.",
            "",
            "| survey | deals | won | lost | unknown | budget |",
            "| --- | ---: | ---: | ---: | ---: | --- |",
            *rows,
            "",
            "![won, lost and unknown per survey](win-rates.png)",
            "",
            "![CPU time per deal](cpu-per-deal.png)",
            "",
        ]
    )
