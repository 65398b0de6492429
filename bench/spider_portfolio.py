"""Fit a Spider-family hint portfolio from each flavour's positions to a win.

The hints' passes after the first long one (engine/src/spider/presets.rs, `SPIDER` and
`BLACK_WIDOW`) were chosen this way. Each pass of a portfolio is a search of its own from
the deal, so a portfolio wins a deal when one of its flavours, searched alone, wins it
within that pass's positions. Search each candidate flavour alone over the tuning deals
once, then fit any number of portfolios from the logs:

    # the tuning deals: those the preset needs many positions for
    .venv/bin/python bench/spider.py spider-4 1-12000 --dump /tmp/all.txt
    engine/target/release/examples/spider_tune /tmp/all.txt --preset spider --nodes 5000000 --show > /tmp/scan.log
    .venv/bin/python bench/spider.py spider-4 $(awk '$2 == "unknown" || ($2 == "won" && $5 > 1200000) {printf "%s,", $1}' /tmp/scan.log) --dump /tmp/hard.txt
    # each flavour alone, one log a flavour (the file's stem names it)
    engine/target/release/examples/spider_tune /tmp/hard.txt --nodes 4000000 --show --pass base=spider,noise=32 > logs/n32.log
    # a portfolio of at most 4.5 million positions starting with n8 (a million positions)
    .venv/bin/python bench/spider_portfolio.py logs/*.log --budget 4500000 --first n8:1000000
    .venv/bin/python bench/spider_portfolio.py logs/*.log --evaluate n8:1000000,n32:1000000,n64:600000

It prints how many of the deals each flavour wins alone, the portfolio (each pass's
positions, the least that keeps its wins) and the deals it leaves. The fit is a search over
the allocations (moves of 100,000 positions between passes from random starts), so it
fits the tuning deals closely: judge a portfolio on other deals (`bench/spider.py GAME
60001-62000 --long 0` with the preset built from it).
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

LINE = re.compile(r"\s*(\d+) (won|unknown|lost)\s+pass \S+\s+(\d+) positions")
STEP = 100_000
Flavours = dict[str, dict[int, float]]


def read(paths: list[str]) -> Flavours:
    """Positions to a win (infinite if none) of each deal, a flavour a log."""
    flavours: Flavours = {}
    for path in paths:
        try:
            text = Path(path).read_text()
        except OSError as error:
            raise SystemExit(f"error: {path}: {error.strerror}") from None
        found = {int(m[1]): (int(m[3]) if m[2] == "won" else float("inf")) for m in map(LINE.match, text.splitlines()) if m}
        if not found:
            raise SystemExit(f"error: {path} has no deal lines (spider_tune --show)")
        flavours[Path(path).stem] = found
    return flavours


def won(flavours: Flavours, deals: list[int], passes: dict[str, int]) -> list[int]:
    return [d for d in deals if any(flavours[f].get(d, float("inf")) <= b for f, b in passes.items() if b > 0)]


def fit(flavours: Flavours, deals: list[int], budget: int, first: tuple[str, int] | None, starts: int) -> dict[str, int]:
    names = sorted(flavours)
    rng = random.Random(1)
    best: tuple[int, int, dict[str, int]] | None = None
    for _ in range(starts):
        passes = dict.fromkeys(names, 0)
        if first:
            passes[first[0]] = first[1]
        left = budget - sum(passes.values())
        while left >= STEP:
            name = rng.choice(names)
            if not first or name != first[0]:
                size = min(left, STEP * rng.randint(1, 10))
                passes[name] += size
                left -= size
        score = len(won(flavours, deals, passes))
        improved = True
        while improved:
            improved = False
            for a in names:
                for b in names:
                    if a == b or passes[a] == 0 or (first and a == first[0]):
                        continue
                    for size in {STEP, 3 * STEP, 10 * STEP, passes[a]}:
                        if 0 < size <= passes[a]:
                            passes[a] -= size
                            passes[b] += size
                            now = len(won(flavours, deals, passes))
                            if now > score:
                                score, improved = now, True
                            else:
                                passes[a] += size
                                passes[b] -= size
        # Each pass cut to the positions of its last win.
        for name in names:
            wins = [flavours[name][d] for d in deals if flavours[name].get(d, float("inf")) <= passes[name]]
            passes[name] = int(max(wins)) if wins else 0
        key = (score, -sum(passes.values()))
        if best is None or key > best[:2]:
            best = (*key, dict(passes))
    assert best is not None
    return {name: size for name, size in sorted(best[2].items(), key=lambda item: -item[1]) if size}


def parse_pass(text: str, flavours: Flavours) -> tuple[str, int]:
    name, _, size = text.partition(":")
    if name not in flavours or not size.isdigit():
        raise SystemExit(f"error: {text!r} is not FLAVOUR:POSITIONS with a flavour among {sorted(flavours)}")
    return name, int(size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", help="spider_tune --show logs, one flavour each (named by the file's stem)")
    parser.add_argument("--budget", type=int, default=4_500_000, help="positions of the whole portfolio")
    parser.add_argument("--first", help="a pass kept first, FLAVOUR:POSITIONS")
    parser.add_argument("--starts", type=int, default=30, help="random starts of the fit")
    parser.add_argument("--evaluate", help="no fit: the deals these passes win, FLAVOUR:POSITIONS,...")
    args = parser.parse_args()
    flavours = read(args.logs)
    deals = sorted(set().union(*flavours.values()))
    for name, found in sorted(flavours.items()):
        wins = [p for p in found.values() if p != float("inf")]
        print(f"  {name:14} alone: {len(wins):4} of {len(found)} won, {sum(p <= 1_000_000 for p in wins):4} within 1 M positions")
    if args.evaluate:
        passes = dict(parse_pass(text, flavours) for text in args.evaluate.split(","))
    else:
        first = parse_pass(args.first, flavours) if args.first else None
        passes = fit(flavours, deals, args.budget, first, args.starts)
    wins = won(flavours, deals, passes)
    print(f"portfolio of {sum(passes.values()):,} positions: {len(wins)} of {len(deals)} deals won")
    for name, size in passes.items():
        print(f"  {name:14} {size:>10,}")
    print(f"left: {[d for d in deals if d not in wins]}")


if __name__ == "__main__":
    main()
