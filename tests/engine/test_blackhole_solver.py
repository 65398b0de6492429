"""The engine's Black Hole search against the Python rules, a reference solver and the
verdicts of Shlomi Fish's black-hole-solver."""

import csv
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_blackhole import random_position, reference_solve
from shared_data import DATA
from winnable import _engine
from winnable.blackhole import BlackHole
from winnable.errors import EngineError
from winnable.solver import Budget, Status, solve

with open(DATA / "black-hole-1-1000.csv", newline="") as vectors:
    VECTORS = {int(row["deal"]): row for row in csv.DictReader(vectors)}


def test_verdicts_of_deals_1_to_1000_match_black_hole_solver():
    verdicts = {number: solve(BlackHole.deal(number)) for number in range(1, 1001)}
    assert {n: v.status.value for n, v in verdicts.items()} == {n: row["verdict"] for n, row in VECTORS.items()}
    assert sum(v.won for v in verdicts.values()) == 877
    for number, verdict in verdicts.items():
        if verdict.won:
            assert len(verdict.line) == 51
            assert BlackHole.deal(number).play_line(verdict.line).is_won()


SMALL = [number for number, row in VECTORS.items() if int(row["positions_plain_dfs"]) <= 3000]


def test_reference_solver_reproduces_the_c_solver_exactly():
    # Same search as black-hole-solver without pruning: same verdicts, same positions.
    for number in SMALL[:60]:
        verdict, _, positions = reference_solve(BlackHole.deal(number))
        assert (verdict, positions) == (VECTORS[number]["verdict"], int(VECTORS[number]["positions_plain_dfs"]))


def test_engine_agrees_with_the_reference_solver():
    assert len(SMALL) > 150
    for number in SMALL:
        deal = BlackHole.deal(number)
        expected, line, _ = reference_solve(deal)
        assert solve(deal).status.value == expected, number
        if expected == "won":
            heights = [len(pile) for pile in deal.piles]
            cards = []
            for pile in line:
                heights[pile] -= 1
                cards.append(str(deal.piles[pile][heights[pile]]))
            assert deal.play_line(cards).is_won()


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10**9), st.integers(0, 40))
def test_engine_and_python_move_generators_agree(number, steps):
    pos = random_position(number, steps)
    piles = [[card.index for card in pile] for pile in pos.piles]
    engine = _engine.black_hole_moves(piles, int(pos.foundation_card.rank))
    python = sorted(pos.pile_of(move.card) for move in pos.legal_moves())
    assert sorted(engine) == python
    assert len(set(engine)) == len(engine)
    # The engine tries the tallest pile first.
    heights = [len(pos.piles[p]) for p in engine]
    assert heights == sorted(heights, reverse=True)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 10**6), st.integers(10, 45))
def test_mid_game_verdicts_agree_with_the_reference(number, steps):
    pos = random_position(number, steps)
    expected, _, _ = reference_solve(pos, limit=50_000)
    if expected != "unknown":
        assert solve(pos).status.value == expected


def test_budgets_give_unknown():
    hard = BlackHole.deal(400)  # lost, and needs a large search to prove it
    verdict = solve(hard, Budget(nodes=50))
    assert verdict.status is Status.UNKNOWN and verdict.line == ()
    assert 50 <= verdict.positions < 100
    assert solve(hard).status is Status.LOST


def test_bad_engine_lines_never_reach_a_player(monkeypatch):
    deal = BlackHole.deal(2)
    good = solve(deal).line
    bad = [str(move) for move in good[:10]] + [str(good[11])]
    monkeypatch.setattr(BlackHole, "engine_search", lambda self, n, s: ("won", bad, 1))
    with pytest.raises(EngineError):
        solve(deal)
    monkeypatch.setattr(BlackHole, "engine_search", lambda self, n, s: ("won", [str(m) for m in good[:50]], 1))
    with pytest.raises(EngineError, match="does not win"):
        solve(deal)


def test_engine_rejects_malformed_layouts():
    with pytest.raises(ValueError):
        _engine.black_hole_solve([[0, 1, 2]] * 16, 1)
    with pytest.raises(ValueError):
        _engine.black_hole_solve([[0, 1, 2, 3]] + [[]] * 16, 1)
    with pytest.raises(ValueError):
        _engine.black_hole_solve([[]] * 17, 14)


def test_searches_run_in_parallel_threads():
    # The engine releases the GIL: threads each get their own correct answer.
    numbers = [400, 915, 2, 3, 790, 12]
    results = {}

    def work(number):
        results[number] = solve(BlackHole.deal(number)).status.value

    threads = [threading.Thread(target=work, args=(n,)) for n in numbers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {n: VECTORS[n]["verdict"] for n in numbers}
