"""What the grades are read from: counts the engine and the rules establish for a
position, each within a budget in positions (never time), so that they are the same on
every run and machine.

* :func:`proved`: the bounded search that proves the position winnable (its positions
  and its line), or :class:`~winnable.errors.NotGradable`.
* :func:`forgiveness`: along that winning line, at every decision (more than one legal
  move), how many of the moves keep the position winnable (each child proved by a
  small bounded search): the decisions with only one such move (``forced``) and the
  information a player needs to stay on a winnable path (``bits``: the sum of
  ``log2(legal / winnable)``, 0 for a deal where every move keeps it winnable).
* :func:`fewest_cells`: the fewest free cells (Penguin's flippers) with which the
  free-cell family's position is still won by the engine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from winnable.errors import NotGradable
from winnable.freecell import FreeCellFamily
from winnable.game import Position

SEARCH_NODES = 2_000_000
"""The search that proves a position winnable before it is graded (the Spider family's
survey budget; every other family's deals are won in far fewer)."""

CHILD_NODES = 2_000
"""The search that proves a child on the winning line winnable (:func:`forgiveness`):
a child not won within it counts as a move that loses (to a player, one whose way on
is too deep to see)."""

CELLS_NODES = 100_000
"""Each search with fewer free cells (:func:`fewest_cells`); not won within it, the
deal needs more."""


@dataclass(frozen=True)
class Proved:
    positions: int
    line: tuple[str, ...]


def proved(position: Position) -> Proved:
    """The bounded search's winning line; :class:`NotGradable` without one."""
    status, line, positions = position.engine_search(SEARCH_NODES, None, short=False)
    if status != "won":
        where = (
            f"{position.game_id} deal {position.deal_number}" if position.deal_number is not None else f"this {position.game_id} position"
        )
        raise NotGradable(f"{where} is not proved winnable within {SEARCH_NODES:,} positions ({status})")
    return Proved(positions, tuple(line))


@dataclass(frozen=True)
class Forgiveness:
    decisions: int
    """Positions of the line with more than one legal move."""
    forced: int
    """Decisions where only one move keeps the position winnable."""
    bits: float
    """The sum over the decisions of ``log2(legal moves / winnable moves)``."""
    searched: int
    """Positions the children's searches took."""


def forgiveness(position: Position, line: tuple[str, ...], child_nodes: int = CHILD_NODES) -> Forgiveness:
    """How forgiving ``position`` is along its winning ``line`` (module docstring)."""
    known: dict[Position, bool] = {}
    decisions = forced = searched = 0
    bits = 0.0
    for text in line:
        moves = position.legal_moves()
        if len(moves) > 1:
            decisions += 1
            winnable = 0
            for move in moves:
                child = position.apply(move)
                if child not in known:
                    if child.is_won():
                        known[child] = True
                    else:
                        status, _, positions = child.engine_search(child_nodes, None, short=False)
                        searched += positions
                        known[child] = status == "won"
                winnable += known[child]
            winnable = max(winnable, 1)  # the line's own move, won with more than a child's budget
            forced += winnable == 1
            bits += math.log2(len(moves) / winnable)
        position = position.play(text)
    return Forgiveness(decisions, forced, round(bits, 3), searched)


@dataclass(frozen=True)
class Cells:
    fewest: int
    """The fewest free cells with which the engine wins the position."""
    searched: int
    """Positions the searches with fewer cells took."""


def fewest_cells(position: FreeCellFamily, cells_nodes: int = CELLS_NODES) -> Cells:
    """Search ``position`` with one free cell fewer, then another, while the engine still
    wins within ``cells_nodes`` positions (never fewer cells than hold cards)."""
    from winnable import _engine

    cls = type(position)
    columns, cells, foundations, base = position.engine_layout()
    held = [card for card in cells if card != 255]
    fewest, searched = cls.CELLS, 0
    while fewest > len(held):
        rules = _engine.FreeCellRules(
            columns=cls.COLUMNS,
            cells=fewest - 1,
            build=cls.BUILD,
            wrap=cls.WRAP,
            empty_column=cls.EMPTY_COLUMN,
            runs=cls.RUNS,
            auto_beak=cls.AUTO_BEAK,
        )
        fewer = held + [255] * (fewest - 1 - len(held))
        status, _, positions = _engine.freecell_solve(
            rules, columns, fewer, foundations, base, cells_nodes, None, cls.ENGINE_PRESET, shorten=False
        )
        searched += positions
        if status != "won":
            break
        fewest -= 1
    return Cells(fewest, searched)
