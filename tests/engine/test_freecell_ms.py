"""FreeCell in Microsoft's numbering: the eight deals of 1-1,000,000 known to be lost.

The FreeCell FAQ lists them in Microsoft's numbering (``ms146692`` ...); PySolFC's
numbers from 32000 on are other deals (its Mersenne Twister's), so these tests deal
the ``ms`` numbers. The engine must prove each lost within a modest budget (all eight
take about a second in all); Debian's fc-solve must prove each lost too (skipped where
it is not installed, failed under ``CI=true``). The same numbers in PySolFC's numbering
are won, with lines the rules replay.
"""

from __future__ import annotations

import pytest

from fcsolve import fc_solve
from winnable.deals import DealNumber, Numbering
from winnable.freecell import FreeCell
from winnable.solver import Budget, Status, replay, solve
from winnable.surveys.report import FREECELL_UNWINNABLE

BUDGET = Budget(nodes=3_000_000)
"""Far above what the engine needs for any of the eight (it proves each in well under
this), far below a runaway search."""


@pytest.mark.parametrize("number", FREECELL_UNWINNABLE)
def test_the_known_unwinnable_deals_are_proved_lost(number):
    position = FreeCell.deal(DealNumber(number, Numbering.MICROSOFT))
    verdict = solve(position, BUDGET)
    assert verdict.status is Status.LOST, (number, verdict.status, verdict.positions)
    assert verdict.positions > 1 and not verdict.line


@pytest.mark.fcsolve
@pytest.mark.parametrize("number", FREECELL_UNWINNABLE)
def test_fc_solve_proves_them_lost_too(number):
    # An independent solver on the same board: it exhausts its search without a win.
    assert fc_solve(FreeCell.deal(f"ms{number}")) == "lost"


@pytest.mark.parametrize("number", FREECELL_UNWINNABLE[1:4])
def test_the_same_numbers_in_pysolfcs_numbering_are_other_deals_and_won(number):
    position = FreeCell.deal(number)
    assert position != FreeCell.deal(f"ms{number}")
    verdict = solve(position, BUDGET)
    assert verdict.status is Status.WON
    replay(position, [str(move) for move in verdict.line])
