"""The free-cell family and the engine (``engine/src/freecell/``): the rules and a
position as the engine reads them, and its search.

>>> from winnable.freecell import FreeCell
>>> status, line, positions = FreeCell.deal(1).engine_search(100_000, None)
>>> status, FreeCell.deal(1).play_line(line).is_won()
('won', True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from winnable.errors import EngineError
from winnable.freecell.table import FreeCellTable

if TYPE_CHECKING:
    from winnable._engine import FreeCellRules


class FreeCellEngine(FreeCellTable):
    """The engine's glue of :class:`~winnable.freecell.FreeCellFamily` (a base class of it)."""

    ENGINE_PRESET: ClassVar[str] = "default"
    """The engine's search preset: ``default`` for games where nearly every deal is won
    (long soft threads first), ``mixed`` where many are lost (exact searches sooner);
    ``winnable._engine.freecell_presets()`` describes them."""
    SHORTEN_DEPTH: ClassVar[int] = 1
    """How far the engine looks for shortcuts in a winning line (``engine/src/shorten/``):
    0, loops and moves taken back only; 1, also one move between two positions of the
    line; 2, also two moves. Fitted on FreeCell deals 1-300 for a fifth of the search's
    CPU at most (``bench/lines.py``)."""
    _engine_rules: ClassVar[FreeCellRules]
    """Each game's own, made by :meth:`engine_rules`."""

    @classmethod
    def engine_rules(cls) -> FreeCellRules:
        """The rules as the engine reads them: a ``winnable._engine.FreeCellRules``,
        named fields, made once per game.

        >>> from winnable.freecell import FreeCell
        >>> FreeCell.engine_rules()
        FreeCellRules(columns=8, cells=4, build="alternate", wrap="none", empty_column="any", runs="supermove", auto_beak=False)
        """
        rules: FreeCellRules | None = cls.__dict__.get("_engine_rules")
        if rules is None:
            from winnable import _engine

            rules = _engine.FreeCellRules(
                columns=cls.COLUMNS,
                cells=cls.CELLS,
                build=cls.BUILD,
                wrap=cls.WRAP,
                empty_column=cls.EMPTY_COLUMN,
                runs=cls.RUNS,
                auto_beak=cls.AUTO_BEAK,
            )
            cls._engine_rules = rules
        return rules

    def engine_layout(self) -> tuple[list[list[int]], list[int], list[int], int]:
        """The position as the engine reads it: columns and cells of card bytes
        (``Card.index``, 255 for an empty cell), foundation counts, the base rank."""
        columns = [[card.index for card in column] for column in self.columns]
        cells = [card.index if card else 255 for card in self.cells]
        return columns, cells, list(self.foundations), int(self.base_rank)

    def engine_search(
        self, nodes: int | None, seconds: float | None, preset: str | None = None, *, short: bool = True, memory_mb: int | None = None
    ) -> tuple[str, list[str], int]:
        """The engine's answer with search ``preset`` (the game's :attr:`ENGINE_PRESET`
        unless given; ``winnable._engine.freecell_presets()`` lists them); ``short=False``:
        the search's own line, not shortened (see :meth:`Position.engine_search`)."""
        from winnable import _engine

        preset = preset or self.ENGINE_PRESET
        try:
            status, line, positions = _engine.freecell_solve(
                self.engine_rules(), *self.engine_layout(), nodes, seconds, preset, shorten=short, shorten_depth=self.SHORTEN_DEPTH
            )
        except ValueError as error:
            raise EngineError(f"the engine cannot take this position: {error}") from None
        return status, line, positions
