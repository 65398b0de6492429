"""Schemathesis with all its checks against a running ``winnable serve``: every phase
(examples, coverage, fuzzing, stateful) and every check (server errors, statuses,
headers and bodies that match the schema, schema-valid input accepted and invalid input
refused, 405 with ``Allow`` for a method a path does not have, ...) must find nothing.

It runs the command line as a user would (``schemathesis run --checks all``), with a
bounded number of examples per operation and a fixed seed, so that it stays within a
couple of minutes; ``WINNABLE_SCHEMATHESIS_EXAMPLES`` raises the number for a longer run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from ports import free_port
from shared_data import ROOT

EXAMPLES = int(os.environ.get("WINNABLE_SCHEMATHESIS_EXAMPLES", "25"))


@pytest.fixture
def server(tmp_path):
    port = free_port()
    env = os.environ | {
        "WINNABLE_RATE_LIMITS": "0",
        "WINNABLE_POOL_SIZE": "0",
        "WINNABLE_POOL_BACKGROUND": "0",
        "WINNABLE_HINT_SECONDS": "0.2",
        "WINNABLE_ANALYSIS_SECONDS": "0.3",
        "WINNABLE_ARGON2_MEMORY_KIB": "1024",
        "WINNABLE_ARGON2_TIME_COST": "1",
    }
    log = tmp_path / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "winnable.cli", "serve", "--port", str(port), "--database", f"sqlite:///{tmp_path / 'games.db'}"],
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def test_schemathesis_with_all_checks_finds_nothing(server, tmp_path):
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "--config-file",
        str(ROOT / "schemathesis.toml"),
        "run",
        f"{server}/openapi.json",
        "--checks",
        "all",
        "--header",
        f"Origin: {server}",
        "--max-examples",
        str(EXAMPLES),
        "--seed",
        "1",
        "--workers",
        "1",
        "--no-color",
        "--generation-database",
        "none",
    ]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-12000:]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):  # every phase ran, and passed
        assert f"✅ {phase}" in output, output[-3000:]
