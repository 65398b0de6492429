"""A small pure-Python free-cell solver, kept to cross-check the engine's verdicts.

It plays only through the rules (``legal_moves`` and ``apply``, the beak's automatic
move included), searches depth first over every legal move and marks a position seen
by its contents up to the order of columns and of cells. No safe moves home, no
meta-moves, no evaluation: slow and simple on purpose, so that when it answers *lost*
the whole space of positions has been searched by code that shares nothing with the
engine but the rules.
"""

from __future__ import annotations

from winnable.freecell import FreeCellFamily


def canonical(position: FreeCellFamily) -> tuple:
    return (
        tuple(sorted(position.columns)),
        tuple(sorted(card for card in position.cells if card is not None)),
        position.foundations,
    )


def reference_solve(position: FreeCellFamily, limit: int = 200_000) -> tuple[str, int]:
    """Return ``(verdict, positions seen)``: ``won``, ``lost``, or ``unknown`` past ``limit``."""
    seen = {canonical(position)}
    stack = [position]
    while stack:
        current = stack.pop()
        if current.is_won():
            return "won", len(seen)
        for move in current.legal_moves():
            after = current.apply(move)
            key = canonical(after)
            if key not in seen:
                seen.add(key)
                if len(seen) > limit:
                    return "unknown", len(seen)
                stack.append(after)
    return "lost", len(seen)
