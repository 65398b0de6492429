"""A small pure-Python Fourteen Out solver, kept to cross-check the engine.

It searches every position reachable from the deal, depth first over the twelve pile
heights, each position once, with no prune and no move order beyond the piles' own
(pile pairs in order). It is slow and simple on purpose.
"""

from __future__ import annotations

from winnable.fourteen import FourteenOut


def reference_solve(position: FourteenOut, limit: int = 10**7) -> tuple[str, list[tuple[int, int]], int]:
    """Return ``(verdict, winning line as pairs of pile indices, positions seen)``."""
    ranks = [[int(card.rank) for card in pile] for pile in position.piles]
    heights = [len(pile) for pile in ranks]
    seen = {tuple(heights)}
    line: list[tuple[int, int]] = []
    piles = range(len(heights))

    def search() -> str:
        if not any(heights):
            return "won"
        tops = [ranks[p][heights[p] - 1] if heights[p] else 0 for p in piles]
        for p in piles:
            for q in range(p + 1, len(heights)):
                if not tops[p] or tops[p] + tops[q] != 14:
                    continue
                heights[p] -= 1
                heights[q] -= 1
                key = tuple(heights)
                verdict = "lost"
                if key not in seen:
                    seen.add(key)
                    if len(seen) > limit:
                        verdict = "unknown"
                    else:
                        line.append((p, q))
                        verdict = search()
                        if verdict != "won":
                            line.pop()
                heights[p] += 1
                heights[q] += 1
                if verdict != "lost":
                    return verdict
        return "lost"

    verdict = search()
    return verdict, line if verdict == "won" else [], len(seen)
