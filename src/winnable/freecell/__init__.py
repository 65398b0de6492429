"""The free-cell family: Penguin and its variants, FreeCell, Eight Off and Baker's Game.

The rules are ``docs/RULES.md#penguin`` and ``docs/RULES.md#relatives-named-in-the-seeds``.

One set of rules plays every game of the family; each game is a subclass that changes a
few class attributes (python-chess style):

* ``COLUMNS`` and ``CELLS``: the tableau columns and the free cells (Penguin's
  *flippers*), one card per cell;
* ``BUILD``: columns build down ``"suit"`` (same suit) or ``"alternate"`` (colours);
* ``WRAP``: ``"none"`` (a King never goes on an Ace), ``"restricted"`` (Penguin: ranks
  wrap from the base rank, but a base-rank card never goes onto the tableau) or
  ``"full"`` (PySolFC's Penguin: K on A everywhere, base cards included);
* ``EMPTY_COLUMN``: what fills an empty column, ``"any"`` card (or run) or only a card
  one rank ``"below-base"`` (Penguin; Eight Off's Kings, since its base is the Ace);
* ``RUNS``: ``"supermove"`` (a run of cards moves if its length is at most
  (empty cells + 1) x 2^(empty columns not counting the destination)), ``"cells"``
  (at most empty cells + 1: Eight Off, as PySolFC plays it) or ``"unlimited"``;
* ``BASE_RANK``: the foundations' base rank (the Ace), or ``None`` when the *beak*, the
  first card of the deal, sets it (Penguin);
* ``AUTO_BEAK``: the beak goes to its foundation by itself as soon as it is the playable
  card of its column (the restricted wrap of ``docs/RULES.md#penguin``).

Foundations build up in suit from the base rank, wrapping K to A, 13 cards each.

>>> position = Penguin.deal(1)
>>> position.base_rank, [str(card) for card in position.foundation_tops()]
(Rank.JACK, ['JC', 'JD', '-', 'JS'])
>>> " ".join(str(card) for card in position.columns[0])
'JH KD 3H 3C 4D 2C 3D'
>>> [str(move) for move in position.legal_moves()][:4]
['1a', '1b', '1c', '1d']
>>> after = position.play("7a")
>>> after.cells[0], after.columns[6][-1]
(Card.from_text('6H'), Card.from_text('6C'))
>>> type(position).from_text(after.to_text()) == after
True

The engine (``engine/src/freecell/``) solves every preset: soft threads (depth-first
scans over *meta-moves*, a card onto a parent with the cards in the way parked first,
each scan with its own move order, run in turn) find most wins in a few hundred
positions; exact searches over every move these rules allow (single cards, and runs of
every length the run limit allows) prove a deal lost only after the whole reachable
space is exhausted. It plays the safe moves to the foundations itself (a card nothing
can be built on any more, or nothing that could not go home instead; never the beak
under the full wrap) and treats positions that differ only by the order of columns or
cells as one (128-bit keys); it never moves a card from a cell to another. Its winning
line lists every move, the automatic ones included, except those the rules make
themselves (the beak); :func:`winnable.solver.solve` replays it here.

The family in parts, each class a layer over the one before (the mixins of
:class:`FreeCellFamily`): :mod:`~winnable.freecell.moves` (the moves and their notation,
``3a``, ``48x3``), :mod:`~winnable.freecell.table` (a position's cards and what may go
where), :mod:`~winnable.freecell.notation` (the text, fc-solve and JSON forms of a
position), :mod:`~winnable.freecell.engine` (the engine's glue), and
:mod:`~winnable.freecell.family` (the legal moves, :class:`FreeCellFamily`, and the
games). Everything is imported from here: ``from winnable.freecell import Penguin``.
"""

from winnable.freecell.engine import FreeCellEngine
from winnable.freecell.family import (
    BakersGame,
    EightOff,
    FreeCell,
    FreeCellFamily,
    Penguin,
    Penguin0,
    Penguin3,
    Penguin5,
    Penguin6,
    PySolFCPenguin,
    RelaxedPenguin,
)
from winnable.freecell.moves import CELL_LETTERS, COLUMN_DIGITS, FOUNDATION, FreeCellMove
from winnable.freecell.notation import FreeCellNotation, penguin_fcs_options
from winnable.freecell.table import FreeCellTable

__all__ = [
    "CELL_LETTERS",
    "COLUMN_DIGITS",
    "FOUNDATION",
    "FreeCellMove",
    "FreeCellTable",
    "FreeCellNotation",
    "FreeCellEngine",
    "FreeCellFamily",
    "FreeCell",
    "BakersGame",
    "EightOff",
    "Penguin",
    "RelaxedPenguin",
    "Penguin6",
    "Penguin5",
    "Penguin3",
    "Penguin0",
    "PySolFCPenguin",
    "penguin_fcs_options",
]
