"""Debian's fc-solve (``freecell-solver-bin``), the independent solver the free-cell
verdicts are checked with."""

from __future__ import annotations

import subprocess

from required import require_tool


def fc_solve(position, limit: int = 2_000_000) -> str:
    """fc-solve's default preset on ``position`` (its board format and the game's options):
    ``won``, ``lost`` or ``unknown`` (past ``limit`` states)."""
    result = subprocess.run(
        [require_tool("fc-solve"), *type(position).FCS_OPTIONS.split(), "-mi", str(limit), "-"],
        input=position.export("fcs"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if "This game is solveable" in result.stdout:
        return "won"
    if "I could not solve" in result.stdout:
        return "lost"
    return "unknown"
