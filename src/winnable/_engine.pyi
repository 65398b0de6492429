"""Types of the Rust engine (``engine/src``, built by maturin into ``winnable._engine``).

Written by hand from the ``#[pyfunction]`` and ``#[pyclass]`` items each family's
``register`` adds in ``engine/src/lib.rs``; keep it in step when they change. Cards are
indices ``suit * 13 + rank - 1``; a ``Vec<u8>`` argument takes any sequence of ints and a
Rust tuple argument a Python tuple. Every verdict is one of ``"won"``, ``"lost"``,
``"unknown"``; ``max_nodes``/``max_seconds`` of ``None`` mean the preset's own cap.
"""

from collections.abc import Sequence
from typing import ClassVar, Literal, TypeAlias

__version__: str

_Outcome: TypeAlias = Literal["won", "lost", "unknown"]
_Piles: TypeAlias = Sequence[Sequence[int]]
# A Spider-family column: (face-down cards, face-up cards), deepest first.
_Columns: TypeAlias = Sequence[tuple[Sequence[int], Sequence[int]]]
# A Spider-family move: (source, target, count), 0-based; (255, 255, 0) deals.
_SpiderMove: TypeAlias = tuple[int, int, int]

# engine/src/blackhole/mod.rs

def black_hole_solve(
    piles: _Piles,
    foundation_rank: int,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> tuple[_Outcome, list[int], int]: ...
def black_hole_moves(piles: _Piles, foundation_rank: int) -> list[int]: ...

# engine/src/fourteen/mod.rs

def fourteen_solve(
    piles: _Piles,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> tuple[_Outcome, list[int], int]: ...
def fourteen_moves(piles: _Piles) -> list[tuple[int, int]]: ...

# engine/src/freecell/mod.rs

class FreeCellRules:
    """The rules of a free-cell game as the engine reads them (frozen, unhashable)."""

    __hash__: ClassVar[None]  # type: ignore[assignment]  # __eq__ without __hash__: pyo3 leaves it None
    def __init__(
        self,
        *,
        columns: int,
        cells: int,
        build: str,  # "suit" or "alternate" (else ValueError, as for the others)
        wrap: str,  # "none", "restricted" or "full"
        empty_column: str,  # "any" or "below-base"
        runs: str,  # "supermove", "cells" or "unlimited"
        auto_beak: bool,
    ) -> None: ...
    @property
    def columns(self) -> int: ...
    @property
    def cells(self) -> int: ...
    @property
    def build(self) -> Literal["suit", "alternate"]: ...
    @property
    def wrap(self) -> Literal["none", "restricted", "full"]: ...
    @property
    def empty_column(self) -> Literal["any", "below-base"]: ...
    @property
    def runs(self) -> Literal["supermove", "cells", "unlimited"]: ...
    @property
    def auto_beak(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...

def freecell_solve(
    rules: FreeCellRules,
    columns: _Piles,
    cells: Sequence[int],
    foundations: Sequence[int],
    base: int,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    preset: str = "default",
    shorten: bool = True,
    shorten_depth: int = 2,
    shorten_tries: int | None = None,
) -> tuple[_Outcome, list[str], int]: ...
def freecell_shorten(
    rules: FreeCellRules,
    columns: _Piles,
    cells: Sequence[int],
    foundations: Sequence[int],
    base: int,
    line: str,
    max_seconds: float | None = None,
    depth: int = 2,
    tries: int | None = None,
) -> tuple[str, int]: ...
def freecell_lines(
    rules: FreeCellRules,
    columns: _Piles,
    cells: Sequence[int],
    foundations: Sequence[int],
    base: int,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    preset: str = "default",
    depth: int = 2,
    tries: int | None = None,
) -> tuple[_Outcome, str, str, int, float, float]: ...
def freecell_presets() -> list[tuple[str, str]]: ...
def freecell_successors(
    rules: FreeCellRules,
    columns: _Piles,
    cells: Sequence[int],
    foundations: Sequence[int],
    base: int,
) -> list[tuple[str, list[list[int]], list[int]]]: ...

# engine/src/spider/mod.rs

def spider_solve(
    columns: _Columns,
    stock: Sequence[int],
    removed: int,
    by_suit: bool,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    shorten: bool = True,
    shorten_depth: int = 2,
    shorten_tries: int | None = None,
    short_pass: bool = True,
    memory_mb: int = 1024,
) -> tuple[_Outcome, list[_SpiderMove], int]: ...
def spider_shorten(
    columns: _Columns,
    stock: Sequence[int],
    removed: int,
    by_suit: bool,
    line: Sequence[_SpiderMove],
    max_seconds: float | None = None,
    depth: int = 2,
    tries: int | None = None,
    research: int | None = None,
    research_weight: int | None = None,
    searched: int = 0,
) -> tuple[list[_SpiderMove], int]: ...
def spider_exhaust(
    columns: _Columns,
    stock: Sequence[int],
    removed: int,
    by_suit: bool,
    memory_mb: int = 1024,
    max_seconds: float | None = None,
) -> tuple[_Outcome, int, int, int]: ...
def spider_legal_moves(columns: _Columns, stock: Sequence[int], by_suit: bool) -> list[_SpiderMove]: ...
def spider_apply(
    columns: _Columns, stock: Sequence[int], by_suit: bool, mv: _SpiderMove
) -> tuple[list[tuple[list[int], list[int]]], list[int], int]: ...
