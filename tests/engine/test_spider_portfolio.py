"""The hint portfolio's fit (`bench/spider_portfolio.py`): from each flavour's positions to
a win, a portfolio wins a deal when one of its passes wins it within that pass's positions."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "spider_portfolio.py"


def load():
    spec = importlib.util.spec_from_file_location("spider_portfolio", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_log(folder: Path, name: str, found: dict[int, int | None]) -> str:
    """A `spider_tune --show` log: per-pass lines (ignored) and one line a deal."""
    lines = []
    for deal, positions in found.items():
        if positions is None:
            lines.append(f"{deal:6} unknown  pass None    4000000 positions 2.000 s CPU")
        else:
            lines.append(f"{deal:6}   pass 0 won {positions} positions")
            lines.append(f"{deal:6} won      pass Some(0) {positions:>10} positions 0.100 s CPU")
    path = folder / f"{name}.log"
    path.write_text("\n".join(lines) + "\nwon ...\n")
    return str(path)


def test_the_fit_covers_what_one_flavour_alone_cannot(tmp_path):
    portfolio = load()
    logs = [
        write_log(tmp_path, "wide", {1: 200_000, 2: 3_000_000, 3: None, 4: 150_000}),
        write_log(tmp_path, "narrow", {1: 100_000, 2: None, 3: 250_000, 4: None}),
        write_log(tmp_path, "slow", {1: 3_900_000, 2: 3_900_000, 3: 3_900_000, 4: 3_900_000}),
    ]
    flavours = portfolio.read(logs)
    deals = [1, 2, 3, 4]
    # Within 600,000 positions no flavour alone wins more than two; two passes win three.
    assert portfolio.won(flavours, deals, {"wide": 600_000}) == [1, 4]
    assert portfolio.won(flavours, deals, {"wide": 300_000, "narrow": 300_000}) == [1, 3, 4]
    passes = portfolio.fit(flavours, deals, 600_000, None, 5)
    assert portfolio.won(flavours, deals, passes) == [1, 3, 4]
    assert passes == {"narrow": 250_000, "wide": 200_000}  # each cut to its last win
    # A first pass keeps its positions (here it wins nothing within them, so it goes).
    kept = portfolio.fit(flavours, deals, 4_000_000, ("slow", 100_000), 5)
    assert "slow" not in kept and portfolio.won(flavours, deals, kept) == [1, 2, 3, 4]


def test_a_missing_log_is_a_clear_error(tmp_path):
    run = subprocess.run([sys.executable, str(BENCH), str(tmp_path / "none.log")], capture_output=True, text=True)
    assert run.returncode != 0 and "none.log" in run.stderr and "Traceback" not in run.stderr
