"""A survey kept small: every deal's verdict in two bits, and the figures its table prints.

A survey's JSON lines (``winnable survey --out``) hold a line a deal with its timings:
tens of megabytes for a million deals. A published table needs only the verdicts and a
few figures, so a survey is kept as two files named after its JSON lines
(``black-hole-1-1000000``):

* ``<name>.verdicts.gz``: the gzip of a header line, ``winnable-verdicts 1 <game>
  <numbering> <first> <last>``, then two bits a deal, four deals a byte, the first deal in
  the lowest bits: 0 not surveyed, 1 won, 2 lost, 3 unknown. A million Black Hole deals
  take 87 KB. Its checksum is the SHA-256 of the uncompressed content (header and bits),
  so it does not depend on the compressor.
* ``<name>.grades.gz``, for a survey run with ``--grades``: each deal's grade, four bits
  a deal (:class:`DealGrades`).
* ``<name>.json``: the run (command, engine, commit, machine, wall and CPU time), the
  figures the table prints (CPU time and positions per deal), the CPU time per deal at
  up to 2,000 evenly spaced ranks (the picture's curve), and the two checksums of the
  JSON lines it was made from (:func:`winnable.surveys.report.lines_digest`,
  :func:`winnable.surveys.survey.verdicts_digest`).

:meth:`SurveyData.from_lines` converts JSON lines; :meth:`SurveyData.read` is what the
report reads.

>>> lines = [{"game": "black-hole", "deal": deal, "verdict": verdict, "positions": 10 * deal,
...           "seconds": 0.002, "cpu_seconds": 0.001, "moves": 51 if verdict == "won" else 0}
...          for deal, verdict in [(1, "lost"), (2, "won"), (3, "won"), (5, "unknown")]]
>>> verdicts = DealVerdicts.of("black-hole", 1, 5, lines)
>>> verdicts.counts(), verdicts.deals("lost"), verdicts.verdict(4), verdicts.surveyed, verdicts.span()
({'won': 2, 'lost': 1, 'unknown': 1}, [1], None, 4, (1, 5))
>>> verdicts.to_bytes()  # deals 1-4 in a byte, 0b00_01_01_10 (none, won, won, lost); 5 in the next
b'winnable-verdicts 1 black-hole pysolfc 1 5\\n\\x16\\x03'
>>> DealVerdicts.from_bytes(verdicts.to_bytes()) == verdicts
True
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Self

from winnable.deals import Numbering
from winnable.grading import GRADES
from winnable.surveys.survey import percentile, verdicts_digest

VERDICTS = ("won", "lost", "unknown")
CODES = {"won": 1, "lost": 2, "unknown": 3}
"""The two bits of each verdict; 0 is a deal not surveyed."""

MAGIC = "winnable-verdicts"
FORMAT = 1
CURVE_POINTS = 2000
"""The points of a survey's CPU-time curve (fewer when it has fewer deals)."""

# One byte to its four deals' codes, one byte each: the verdicts unpacked at C speed.
_UNPACK = [bytes((byte >> shift) & 3 for shift in (0, 2, 4, 6)) for byte in range(256)]


@dataclass(frozen=True)
class DealVerdicts:
    """The verdict of every deal ``first``-``last`` of a survey of ``game``, two bits a deal."""

    game: str
    first: int
    last: int
    packed: bytes = field(repr=False)
    numbering: Numbering = Numbering.PYSOLFC

    def __post_init__(self) -> None:
        if self.first < 0 or self.last < self.first - 1:
            raise ValueError(f"not a range of deals: {self.first}-{self.last}")
        if len(self.packed) != (self.last - self.first + 4) // 4:
            raise ValueError(f"{len(self.packed)} bytes of verdicts for deals {self.first}-{self.last}")

    @classmethod
    def of(cls, game: str, first: int, last: int, records: Iterable[dict[str, Any]], numbering: Numbering = Numbering.PYSOLFC) -> Self:
        """The verdicts of a survey's records (``game``, ``deal``, ``verdict``), each deal once."""
        packed = bytearray((last - first + 4) // 4)
        for record in records:
            deal = record["deal"]
            if record["game"] != game or not first <= deal <= last:
                raise ValueError(f"{record['game']} deal {deal} is not in the survey of {game} {first}-{last}")
            index, shift = divmod(deal - first, 4)
            if (packed[index] >> 2 * shift) & 3:
                raise ValueError(f"deal {deal} twice")
            packed[index] |= CODES[record["verdict"]] << 2 * shift
        return cls(game, first, last, bytes(packed), numbering)

    @cached_property
    def codes(self) -> bytes:
        """One byte a deal (0-3), from ``first`` on."""
        return b"".join(_UNPACK[byte] for byte in self.packed)[: self.last - self.first + 1]

    def verdict(self, deal: int) -> str | None:
        """``won``, ``lost`` or ``unknown``; None for a deal not surveyed."""
        if not self.first <= deal <= self.last:
            return None
        code = self.codes[deal - self.first]
        return VERDICTS[code - 1] if code else None

    def counts(self) -> dict[str, int]:
        return {verdict: self.codes.count(CODES[verdict]) for verdict in VERDICTS}

    @property
    def surveyed(self) -> int:
        """How many deals have a verdict."""
        return len(self.codes) - self.codes.count(0)

    def span(self) -> tuple[int, int] | None:
        """The first and the last deal surveyed (None: none was)."""
        codes = self.codes
        if not codes.strip(b"\x00"):
            return None
        return self.first + len(codes) - len(codes.lstrip(b"\x00")), self.first + len(codes.rstrip(b"\x00")) - 1

    def deals(self, verdict: str) -> list[int]:
        """The deals with ``verdict``, in order."""
        code, codes, found, at = CODES[verdict], self.codes, [], -1
        while (at := codes.find(code, at + 1)) >= 0:
            found.append(self.first + at)
        return found

    def to_bytes(self) -> bytes:
        header = f"{MAGIC} {FORMAT} {self.game} {self.numbering.value} {self.first} {self.last}\n"
        return header.encode() + self.packed

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        header, _, packed = data.partition(b"\n")
        fields = header.decode("ascii", "replace").split(" ")
        if len(fields) != 6 or fields[0] != MAGIC or fields[1] != str(FORMAT):
            raise ValueError(f"not a verdicts file of format {FORMAT}: {header[:80]!r}")
        _, _, game, numbering, first, last = fields
        return cls(game, int(first), int(last), packed, Numbering(numbering))

    @property
    def sha256(self) -> str:
        """The checksum the tables print: of the file's uncompressed content."""
        return hashlib.sha256(self.to_bytes()).hexdigest()

    def write(self, path: Path) -> None:
        path.write_bytes(gzip.compress(self.to_bytes(), 9, mtime=0))

    @classmethod
    def read(cls, path: Path) -> Self:
        return cls.from_bytes(gzip.decompress(path.read_bytes()))


GRADE_MAGIC = "winnable-grades"
GRADE_CODES = {grade.value: code for code, grade in enumerate(GRADES, 1)}
"""A deal's grade in four bits: 0 no grade (not won, or not graded), 1 easy ... 4 expert."""


@dataclass(frozen=True)
class DealGrades:
    """The grade of every deal ``first``-``last`` of a survey run with ``--grades``, four
    bits a deal (two deals a byte, the first in the low bits): ``<name>.grades.gz``, beside
    the verdicts, with a header line ``winnable-grades 1 <game> <numbering> <first> <last>``.

    >>> grades = DealGrades.of("black-hole", 1, 3, [{"deal": 2, "grade": "hard"}, {"deal": 3, "grade": "easy"}, {"deal": 1, "grade": None}])
    >>> grades.grade(1), grades.grade(2), grades.counts()
    (None, 'hard', {'easy': 1, 'medium': 0, 'hard': 1, 'expert': 0})
    >>> DealGrades.from_bytes(grades.to_bytes()) == grades
    True
    """

    game: str
    first: int
    last: int
    packed: bytes = field(repr=False)
    numbering: Numbering = Numbering.PYSOLFC

    @classmethod
    def of(cls, game: str, first: int, last: int, records: Iterable[dict[str, Any]], numbering: Numbering = Numbering.PYSOLFC) -> Self:
        packed = bytearray((last - first + 2) // 2)
        for record in records:
            if record.get("grade"):
                index, shift = divmod(record["deal"] - first, 2)
                packed[index] |= GRADE_CODES[record["grade"]] << 4 * shift
        return cls(game, first, last, bytes(packed), numbering)

    def grade(self, deal: int) -> str | None:
        if not self.first <= deal <= self.last:
            return None
        index, shift = divmod(deal - self.first, 2)
        code = (self.packed[index] >> 4 * shift) & 15
        return GRADES[code - 1].value if code else None

    def counts(self) -> dict[str, int]:
        found = [self.grade(deal) for deal in range(self.first, self.last + 1)]
        return {grade.value: found.count(grade.value) for grade in GRADES}

    def to_bytes(self) -> bytes:
        header = f"{GRADE_MAGIC} {FORMAT} {self.game} {self.numbering.value} {self.first} {self.last}\n"
        return header.encode() + self.packed

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        header, _, packed = data.partition(b"\n")
        fields = header.decode("ascii", "replace").split(" ")
        if len(fields) != 6 or fields[0] != GRADE_MAGIC or fields[1] != str(FORMAT):
            raise ValueError(f"not a grades file of format {FORMAT}: {header[:80]!r}")
        _, _, game, numbering, first, last = fields
        return cls(game, int(first), int(last), packed, Numbering(numbering))

    def write(self, path: Path) -> None:
        path.write_bytes(gzip.compress(self.to_bytes(), 9, mtime=0))

    @classmethod
    def read(cls, path: Path) -> Self:
        return cls.from_bytes(gzip.decompress(path.read_bytes()))


def curve_ranks(count: int) -> list[int]:
    """The ranks (0-based, among ``count`` sorted values) a curve keeps: evenly spaced.

    >>> curve_ranks(5), len(curve_ranks(10**6)), curve_ranks(10**6)[-1]
    ([0, 1, 2, 3, 4], 2000, 999999)
    """
    if count <= 0:
        return []
    return sorted({min(count - 1, round(k * (count - 1) / (CURVE_POINTS - 1))) for k in range(CURVE_POINTS)})


@dataclass(frozen=True)
class SurveyFigures:
    """What a survey's table prints besides the verdicts, as its JSON lines gave them."""

    count: int
    """How many deals (JSON lines) they cover."""
    cpu_seconds: dict[str, float]
    """CPU time per deal (search and replay): ``median``, ``p90``, ``p99``, ``max``, ``total``."""
    positions: dict[str, float]  # whole numbers (0.0 for no deal: see percentile)
    """Positions searched per deal: ``median``, ``p90``, ``max``, ``total``."""
    cpu_curve_us: tuple[int, ...]
    """CPU time per deal in microseconds, sorted, at :func:`curve_ranks`."""
    lines: dict[str, str] = field(default_factory=dict)
    """The JSON lines they came from: ``file``, ``sha256`` (of the lines), ``verdicts_sha256``."""

    @classmethod
    def of(cls, records: list[dict[str, Any]], lines: dict[str, str] | None = None) -> Self:
        cpu = sorted(record.get("cpu_seconds", record["seconds"]) for record in records)
        positions = sorted(record["positions"] for record in records)
        floored = [max(seconds, 1e-6) for seconds in cpu]  # a log scale has no 0
        return cls(
            count=len(records),
            cpu_seconds={
                "median": percentile(cpu, 0.5),
                "p90": percentile(cpu, 0.9),
                "p99": percentile(cpu, 0.99),
                "max": cpu[-1] if cpu else 0.0,
                "total": sum(cpu),
            },
            positions={
                "median": percentile(positions, 0.5),
                "p90": percentile(positions, 0.9),
                "max": positions[-1] if positions else 0,
                "total": sum(positions),
            },
            cpu_curve_us=tuple(round(floored[rank] * 1e6) for rank in curve_ranks(len(floored))),
            lines=dict(lines or {}),
        )

    def curve(self) -> tuple[list[float], list[float]]:
        """The picture's curve: CPU seconds per deal, and the share of deals (%) within it."""
        return [us / 1e6 for us in self.cpu_curve_us], [100 * (rank + 1) / self.count for rank in curve_ranks(self.count)]


@dataclass(frozen=True)
class SurveyData:
    """A survey as the repository keeps it: the verdicts, the figures and the run."""

    verdicts: DealVerdicts
    figures: SurveyFigures | None = None
    """None for a survey kept for its verdicts only."""
    run: dict[str, Any] = field(default_factory=dict)
    """How it was run (``make_tables.py run``): command, engine, commit, machine, times."""
    grades: DealGrades | None = None
    """The deals' grades, for a survey run with ``--grades``."""

    @classmethod
    def from_lines(
        cls,
        path: Path,
        game: str | None = None,
        first: int | None = None,
        last: int | None = None,
        numbering: Numbering | None = None,
        run: dict[str, Any] | None = None,
        figures: bool = True,
    ) -> Self:
        """The converter: a survey's JSON lines (plain or gzipped) made small. The range is
        the survey's (a partial run leaves the rest unsurveyed), else the deals found."""
        records = read_records(path)
        game = game or (records[0]["game"] if records else "")
        records = [record for record in records if record["game"] == game]
        if numbering is None:
            numbering = Numbering(records[0].get("numbering", "pysolfc")) if records else Numbering.PYSOLFC
        deals = [record["deal"] for record in records]
        first = min(deals, default=1) if first is None else first
        last = max(deals, default=first - 1) if last is None else last
        verdicts = DealVerdicts.of(game, first, last, records, numbering)
        made = None
        if figures:
            lines = {"file": path.name, "sha256": lines_digest(path), "verdicts_sha256": verdicts_digest(records)}
            made = SurveyFigures.of(records, lines)
        graded = DealGrades.of(game, first, last, records, numbering) if any("grade" in record for record in records) else None
        return cls(verdicts, made, dict(run or {}), graded)

    def write(self, folder: Path, name: str) -> list[Path]:
        """``<name>.verdicts.gz`` and, with figures, ``<name>.json`` in ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        bits = folder / f"{name}.verdicts.gz"
        self.verdicts.write(bits)
        written = [bits]
        if self.grades is not None:
            written.append(folder / f"{name}.grades.gz")
            self.grades.write(written[-1])
        if self.figures is None:
            return written
        figures = self.figures
        head = {
            "game": self.verdicts.game,
            "numbering": self.verdicts.numbering.value,
            "deals": [self.verdicts.first, self.verdicts.last],
            "surveyed": figures.count,
            "verdicts": {"file": bits.name, "sha256": self.verdicts.sha256, "counts": self.verdicts.counts()},
            "json_lines": figures.lines,
            "cpu_seconds": figures.cpu_seconds,
            "positions": figures.positions,
            "run": self.run,
        }
        text = json.dumps(head, indent=1)
        # The curve on one line: 2,000 numbers one a line would be most of the file.
        text = text[: text.rindex("}")].rstrip() + f',\n "cpu_curve_us": {json.dumps(list(figures.cpu_curve_us))}\n}}\n'
        sidecar = folder / f"{name}.json"
        sidecar.write_text(text)
        return [*written, sidecar]

    @classmethod
    def read(cls, folder: Path, name: str) -> Self:
        """What :meth:`write` wrote; a ``.json`` whose verdicts checksum is not the file's
        is refused (the two were made apart)."""
        verdicts = DealVerdicts.read(folder / f"{name}.verdicts.gz")
        kept = folder / f"{name}.grades.gz"
        grades = DealGrades.read(kept) if kept.exists() else None
        sidecar = folder / f"{name}.json"
        if not sidecar.exists():
            return cls(verdicts, grades=grades)
        head = json.loads(sidecar.read_text())
        if head["verdicts"]["sha256"] != verdicts.sha256:
            raise ValueError(f"{sidecar.name} was made for other verdicts than {name}.verdicts.gz")
        figures = SurveyFigures(head["surveyed"], head["cpu_seconds"], head["positions"], tuple(head["cpu_curve_us"]), head["json_lines"])
        return cls(verdicts, figures, head["run"], grades)


# -- JSON lines ------------------------------------------------------------------------
def open_lines(path: Path) -> io.TextIOBase:
    """A survey's JSON lines, plain or gzipped."""
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path), encoding="utf-8")
    return path.open(encoding="utf-8")


def read_records(path: Path) -> list[dict[str, Any]]:
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
