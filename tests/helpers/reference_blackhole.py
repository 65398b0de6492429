"""A small pure-Python Black Hole solver, kept to cross-check the engine.

It searches the way Shlomi Fish's black-hole-solver does without pruning: depth first
over (pile heights, foundation rank), a position marked as seen when it is reached,
piles tried from the last to the first. It is slow and simple on purpose.
"""

from __future__ import annotations

from winnable.blackhole import BlackHole


def reference_solve(position: BlackHole, limit: int = 10**6) -> tuple[str, list[int], int]:
    """Return ``(verdict, winning line as pile indices, positions seen)``."""
    ranks = [[card.rank for card in pile] for pile in position.piles]
    heights = [len(pile) for pile in ranks]
    seen = {(tuple(heights), position.foundation_card.rank)}
    line: list[int] = []

    def search(rank: int) -> str:
        if not any(heights):
            return "won"
        for pile in reversed(range(len(heights))):
            height = heights[pile]
            if height == 0 or (ranks[pile][height - 1] - rank) % 13 not in (1, 12):
                continue
            top = ranks[pile][height - 1]
            heights[pile] -= 1
            key = (tuple(heights), top)
            if key not in seen:
                seen.add(key)
                if len(seen) > limit:
                    return "unknown"
                line.append(pile)
                verdict = search(top)
                if verdict != "lost":
                    heights[pile] += 1
                    return verdict
                line.pop()
            heights[pile] += 1
        return "lost"

    verdict = search(position.foundation_card.rank)
    return verdict, line if verdict == "won" else [], len(seen)


def random_position(number: int, steps: int) -> BlackHole:
    """Deal ``number`` after up to ``steps`` legal moves chosen by a fixed rule."""
    pos = BlackHole.deal(number)
    for index in range(steps):
        legal = pos.legal_moves()
        if not legal:
            break
        pos = pos.play(legal[(index * 5 + number) % len(legal)])
    return pos
