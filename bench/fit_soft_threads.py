"""Fit a soft-thread prelude to a cost matrix (how the `soft` passes of the free-cell
presets in `engine/src/freecell/presets.rs` were chosen).

    cargo run --release --example fc_tune -- DEALS SCANS CAP > matrix.csv
    python bench/fit_soft_threads.py matrix.csv [--turns 40] [--scans 12]

The matrix has a row per deal and a column per candidate scan: the positions that scan
alone needs to win the deal (CAP + 1: not within CAP). A prelude is a list of turns
(scan, quota); a deal costs the positions spent by every turn until the first scan
whose quotas so far cover its cost. The fit is greedy: each turn is the (scan, quota)
that wins the most deals per position spent on the deals still open; `--improve N`
then tries N random changes (a quota, a dropped turn, another scan, two turns swapped)
and keeps those that lower the total. It prints the prelude, the scans it uses and the
total cost; the deals no scan wins within CAP go to the exact searches after the soft
pass.
"""

from __future__ import annotations

import argparse
import csv

QUOTAS = (50, 100, 150, 200, 300, 400, 600, 800, 1200, 1600, 2400, 3200, 5000, 8000)


def load(path: str) -> tuple[list[str], list[str], list[list[int]]]:
    with open(path) as handle:
        rows = list(csv.reader(handle))
    scans = rows[0][1:]
    deals = [row[0] for row in rows[1:]]
    costs = [[int(row[1 + s]) for row in rows[1:]] for s in range(len(scans))]
    return scans, deals, costs


def simulate(prelude: list[tuple[int, int]], costs: list[list[int]], deals: int, step: int, cap: int) -> tuple[int, int]:
    """Total positions over all deals, and deals left unsolved, for a prelude followed by
    round robin (over the scans the prelude uses) with `step` until every scan has `cap`."""
    used = sorted({s for s, _ in prelude})
    total, unsolved = 0, 0
    for d in range(deals):
        given = {s: 0 for s in used}
        spent = 0
        solved = False
        turns = list(prelude)
        while True:
            for s, q in turns:
                need = costs[s][d] - given[s]
                if costs[s][d] <= cap and need <= q:
                    spent += max(0, need)
                    solved = True
                    break
                spent += q
                given[s] += q
            if solved or all(given[s] >= cap for s in used):
                break
            turns = [(s, step) for s in used]
        total += spent
        unsolved += not solved
    return total, unsolved


def fit(costs: list[list[int]], turns: int, max_scans: int, cap: int) -> list[tuple[int, int]]:
    n = len(costs[0])
    given = [0] * len(costs)
    open_deals = set(range(n))
    prelude: list[tuple[int, int]] = []
    chosen: list[int] = []
    for _ in range(turns):
        best = None
        for s in range(len(costs)):
            if s not in chosen and len(chosen) >= max_scans:
                continue
            for q in QUOTAS:
                won = 0
                spent = 0
                for d in open_deals:
                    need = costs[s][d] - given[s]
                    if costs[s][d] <= cap and 0 < need <= q:
                        won += 1
                        spent += need
                    elif costs[s][d] <= given[s]:
                        pass
                    else:
                        spent += q
                if won and (best is None or won / spent > best[0]):
                    best = (won / spent, s, q)
        if best is None:
            break
        _, s, q = best
        prelude.append((s, q))
        if s not in chosen:
            chosen.append(s)
        given[s] += q
        open_deals = {d for d in open_deals if not (costs[s][d] <= given[s] and costs[s][d] <= cap)}
        if not open_deals:
            break
    return prelude


def improve(
    prelude: list[tuple[int, int]], costs: list[list[int]], step: int, cap: int, rounds: int, seed: int = 1
) -> list[tuple[int, int]]:
    """Local search from a prelude: change one turn's quota, drop a turn, give a turn to
    another scan, or swap two turns; keep any change that lowers the total cost."""
    import random

    rng = random.Random(seed)
    deals = len(costs[0])
    best = list(prelude)
    best_cost = simulate(best, costs, deals, step, cap)
    best_cost = best_cost[0] + 20 * cap * best_cost[1]
    for _ in range(rounds):
        trial = list(best)
        k = rng.randrange(len(trial))
        move = rng.randrange(4)
        if move == 0:
            s, q = trial[k]
            trial[k] = (s, max(25, int(q * rng.choice((0.5, 0.7, 1.4, 2.0)))))
        elif move == 1 and len(trial) > 1:
            del trial[k]
        elif move == 2:
            trial[k] = (rng.randrange(len(costs)), trial[k][1])
        else:
            j = rng.randrange(len(trial))
            trial[k], trial[j] = trial[j], trial[k]
        cost = simulate(trial, costs, deals, step, cap)
        cost = cost[0] + 20 * cap * cost[1]
        if cost < best_cost:
            best, best_cost = trial, cost
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("matrix")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--scans", type=int, default=12)
    parser.add_argument("--step", type=int, default=300)
    parser.add_argument("--cap", type=int, default=20000)
    parser.add_argument("--improve", type=int, default=0, help="rounds of local search after the greedy fit")
    args = parser.parse_args()
    scans, deals, costs = load(args.matrix)
    for s, name in enumerate(scans):
        alone = sorted(costs[s])
        print(f"  scan {s:3} {name:28} median {alone[len(alone) // 2]:6}  total {sum(alone):9}")
    best_single = min(range(len(scans)), key=lambda s: sum(costs[s]))
    print(f"best single scan: {scans[best_single]} total {sum(costs[best_single])}")
    prelude = fit(costs, args.turns, args.scans, args.cap)
    if args.improve:
        prelude = improve(prelude, costs, args.step, args.cap, args.improve)
    used = []
    for s, _ in prelude:
        if s not in used:
            used.append(s)
    total, unsolved = simulate(prelude, costs, len(deals), args.step, args.cap)
    print(
        f"prelude of {len(prelude)} turns over {len(used)} scans: total {total} positions, {total / len(deals):.0f} a deal, {unsolved} left to the exact searches"
    )
    for s in used:
        print(f"  scan={scans[s]}")
    print("  prelude=" + ",".join(f"{used.index(s)}:{q}" for s, q in prelude))


if __name__ == "__main__":
    main()
