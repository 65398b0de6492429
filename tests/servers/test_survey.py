"""Surveys: the same records whatever runs them, a Dask cluster that loses a worker,
a survey stopped and resumed.

The cluster tests start a real ``dask scheduler`` and two ``dask worker`` processes on
loopback; the workers preload ``tests/helpers/slow_survey.py`` so that a chunk lasts long enough
to be interrupted.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ports import free_port
from winnable.solver import Budget
from winnable.surveys.survey import DETERMINISTIC, SurveyError, chunk_ranges, missing_ranges, ordered, read_done, run_survey, solve_chunk

HELPERS = Path(__file__).resolve().parents[1] / "helpers"
BIN = Path(sys.executable).parent
SLOW = HELPERS / "slow_survey.py"
DEALS = 300


def essentials(records: list[dict]) -> list[tuple]:
    return [tuple(record[key] for key in DETERMINISTIC) for record in records]


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture(scope="module")
def reference() -> list[dict]:
    """Black Hole deals 1-300 solved here, in this process, in one chunk."""
    return solve_chunk("black-hole", 1, DEALS, Budget())


# -- the pieces ------------------------------------------------------------------------
def test_chunks_cover_the_range_once():
    chunks = chunk_ranges([(1, 10), (15, 21)], 4)
    assert chunks == [(1, 4), (5, 8), (9, 10), (15, 18), (19, 21)]
    assert missing_ranges(1, 21, range(11, 15)) == [(1, 10), (15, 21)]
    assert missing_ranges(5, 7, [5, 6, 7]) == []


def test_chunks_back_in_any_order_come_out_in_order():
    back = [(2, ["c"]), (0, ["a"]), (2, ["c again"]), (1, ["b"])]
    assert [records for records, _ in ordered(iter(back), 3)] == [["a"], ["b"], ["c"]]
    with pytest.raises(SurveyError):
        list(ordered(iter([(1, ["b"])]), 2))


def test_every_runner_gives_the_same_records(reference, tmp_path):
    out = tmp_path / "two.jsonl"
    with out.open("w") as handle:
        summary = run_survey("black-hole", 1, DEALS, Budget(), jobs=2, out=handle, progress=False, chunk=7)
    assert essentials(read(out)) == essentials(reference)
    assert summary.total == DEALS and summary.counts["won"] == sum(r["verdict"] == "won" for r in reference)


@pytest.mark.parametrize("game, deal, budget", [("black-widow", 3, Budget(nodes=2_000_000)), ("freecell", 3, Budget())])
def test_a_survey_asks_for_verdicts_and_one_that_keeps_lines_for_short_ones(game, deal, budget):
    # Without lines the engine skips what only makes a line short (Spider's short pass,
    # the shortening): the same verdict, a smaller search or a longer line; with lines
    # (--lines, --database: the web app's deals) the line is as short as a hint's.
    verdict = solve_chunk(game, deal, deal, budget)[0]
    kept = solve_chunk(game, deal, deal, budget, lines=True)[0]
    assert verdict["verdict"] == kept["verdict"] == "won" and "line" not in verdict
    assert kept["moves"] == len(kept["line"]) < verdict["moves"]
    if game == "black-widow":
        assert verdict["positions"] * 3 < kept["positions"]


def test_resume_reads_back_and_drops_a_cut_line(tmp_path):
    out = tmp_path / "cut.jsonl"
    records = solve_chunk("black-hole", 1, 5, Budget())
    out.write_text("".join(json.dumps(r) + "\n" for r in records) + '{"game": "black-hole", "de')
    assert [r["deal"] for r in read_done(out, "black-hole", 1, 10)] == [1, 2, 3, 4, 5]
    assert out.read_text().endswith("}\n")  # the cut line is gone
    with pytest.raises(SurveyError, match="not part of"):
        read_done(out, "black-hole", 3, 10)
    with pytest.raises(SurveyError, match="not part of"):
        read_done(out, "freecell", 1, 10)


# -- a survey stopped and resumed --------------------------------------------------------
def survey_command(*args: str) -> list[str]:
    return [sys.executable, str(SLOW), "survey", "black-hole", f"1-{DEALS}", "--quiet", *args]


def test_a_stopped_survey_resumes_to_the_same_file(reference, tmp_path):
    out = tmp_path / "resumed.jsonl"
    command = survey_command("--out", str(out), "--jobs", "1", "--chunk", "10")
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: out.exists() and out.read_text().count("\n") >= 60, 120, "the first chunks")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    kept = read(out)
    assert 60 <= len(kept) < DEALS, "the survey was not stopped in the middle"
    resumed = subprocess.run(command + ["--resume", "--json"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["count"] == DEALS and summary["resumed"] == len(kept)
    records = read(out)
    assert essentials(records) == essentials(reference)  # each deal once, in order
    assert records[: len(kept)] == kept  # what was written stays as it was


def test_resume_needs_an_out_file_and_a_matching_one(tmp_path):
    cli = [sys.executable, "-m", "winnable.cli", "survey", "black-hole", "1-10", "--quiet"]
    assert subprocess.run(cli + ["--resume"], capture_output=True, text=True).returncode == 2
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"game": "freecell", "deal": 1, "verdict": "won"}) + "\n")
    refused = subprocess.run(cli + ["--resume", "--out", str(other)], capture_output=True, text=True)
    assert refused.returncode == 2 and "not part of black-hole 1-10" in refused.stderr


def test_a_survey_resumes_only_a_file_of_its_own_numbering(tmp_path):
    ms = tmp_path / "ms.jsonl"
    ms.write_text("".join(json.dumps(r) + "\n" for r in solve_chunk("freecell", 1, 3, Budget(), numbering="microsoft")))
    pysolfc = tmp_path / "pysolfc.jsonl"
    pysolfc.write_text("".join(json.dumps(r) + "\n" for r in solve_chunk("freecell", 1, 3, Budget())))
    assert [r["deal"] for r in read_done(ms, "freecell", 1, 10, "microsoft")] == [1, 2, 3]
    assert [r["deal"] for r in read_done(pysolfc, "freecell", 1, 10)] == [1, 2, 3]
    with pytest.raises(SurveyError, match="microsoft numbering, not pysolfc"):
        read_done(ms, "freecell", 1, 10)
    with pytest.raises(SurveyError, match="pysolfc numbering, not microsoft"):
        read_done(pysolfc, "freecell", 1, 10, "microsoft")
    cli = [sys.executable, "-m", "winnable.cli", "survey", "freecell"]
    tail = ["1-10", "--quiet", "--resume"]
    refused = subprocess.run(cli + tail + ["--out", str(pysolfc), "--numbering", "microsoft"], capture_output=True, text=True)
    assert refused.returncode == 2 and "resumes only a file of its own numbering" in refused.stderr
    refused = subprocess.run(cli + tail + ["--out", str(ms)], capture_output=True, text=True)
    assert refused.returncode == 2 and "microsoft numbering, not pysolfc" in refused.stderr
    resumed = subprocess.run(cli + ["ms1-ms5", "--quiet", "--resume", "--json", "--out", str(ms)], capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["resumed"] == 3 and len(read(ms)) == 5


def test_microsoft_records_are_the_deals_of_the_ms_numbers():
    ms, pysolfc = (solve_chunk("freecell", 146692, 146692, Budget(3_000_000), numbering=n)[0] for n in ("microsoft", "pysolfc"))
    assert (ms["deal"], ms["verdict"], ms["numbering"]) == (146692, "lost", "microsoft")
    assert (pysolfc["deal"], pysolfc["verdict"], "numbering" in pysolfc) == (146692, "won", False)


# -- a Dask cluster on loopback ----------------------------------------------------------
@pytest.fixture
def cluster(tmp_path):
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = tmp_path / "dask"
    logs.mkdir()
    common = ["--no-dashboard"]
    # Dask's scratch files go to this test's folder, not /tmp/dask-scratch-space.
    env = dict(
        os.environ,
        DASK_TEMPORARY_DIRECTORY=str(logs),
        PYTHONPATH=os.pathsep.join(filter(None, [str(HELPERS), os.environ.get("PYTHONPATH")])),
    )
    procs = [
        subprocess.Popen(
            [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), *common],
            stdout=subprocess.DEVNULL,
            stderr=open(logs / "scheduler.log", "w"),
            env=env,
        )
    ]
    for number in (1, 2):
        procs.append(
            subprocess.Popen(
                [
                    str(BIN / "dask"),
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--host",
                    "127.0.0.1",
                    "--name",
                    f"worker-{number}",
                    "--preload",
                    str(SLOW),
                    *common,
                ],
                stdout=subprocess.DEVNULL,
                stderr=open(logs / f"worker-{number}.log", "w"),
                env=env,
            )
        )
    from distributed import Client

    try:
        client = None
        deadline = time.monotonic() + 60
        while client is None:
            try:
                client = Client(address, timeout=5, set_as_default=False)
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        client.wait_for_workers(2, timeout=60)
        yield address, client, procs[1:]
        client.close()
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_a_dask_survey_survives_a_dead_worker(cluster, reference, tmp_path):
    address, client, (worker, _) = cluster
    dying = next(addr for addr, info in client.scheduler_info()["workers"].items() if info["name"] == "worker-1")
    out = tmp_path / "cluster.jsonl"
    command = [
        sys.executable,
        "-m",
        "winnable.cli",
        "survey",
        "black-hole",
        f"1-{DEALS}",
        "--quiet",
        "--json",
        "--scheduler",
        address,
        "--chunk",
        "5",
        "--out",
        str(out),
    ]
    survey = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Kill worker 1 while it holds a chunk, a good way into the survey.
        wait_for(lambda: out.exists() and out.read_text().count("\n") >= 50, 120, "the first chunks")
        wait_for(lambda: client.processing(workers=[dying]).get(dying), 30, "worker 1 to hold a chunk")
        held = set(client.processing(workers=[dying])[dying])
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        stdout, stderr = survey.communicate(timeout=300)
    finally:
        if survey.poll() is None:
            survey.kill()
    assert survey.returncode == 0, stderr
    assert held, "worker 1 held no chunk when it died"
    summary = json.loads(stdout)
    assert summary["count"] == DEALS and summary["jobs"] == 2 and "Dask" in summary["where"]
    records = read(out)
    assert [r["deal"] for r in records] == list(range(1, DEALS + 1))  # none lost, none twice
    assert essentials(records) == essentials(reference)


def test_an_unreachable_scheduler_is_a_clear_error():
    port = free_port()
    result = subprocess.run(
        [sys.executable, "-m", "winnable.cli", "survey", "black-hole", "1-3", "--quiet", "--scheduler", f"tcp://127.0.0.1:{port}"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="2s"),
    )
    assert result.returncode == 2
    assert "cannot reach the Dask scheduler" in result.stderr and "Traceback" not in result.stderr
