"""Slow surveys for the tests: each deal takes an extra ``WINNABLE_TEST_DEAL_DELAY``
seconds (default 0.02), so that a test can stop a worker or the survey itself in the
middle. The records are unchanged.

Two uses: ``dask worker --preload tests/helpers/slow_survey.py`` slows a Dask worker, and
``python tests/helpers/slow_survey.py survey ...`` runs the ``winnable`` command slowed.
"""

from __future__ import annotations

import os
import time

from winnable.surveys import survey

# Dask may import this file twice (from a copy and by name): wrap the original once.
_solve_chunk = getattr(survey.solve_chunk, "original", survey.solve_chunk)
DELAY = float(os.environ.get("WINNABLE_TEST_DEAL_DELAY", "0.02"))


def slow_solve_chunk(game, first, last, budget, *args, **options):
    records = _solve_chunk(game, first, last, budget, *args, **options)
    time.sleep(DELAY * len(records))
    return records


slow_solve_chunk.original = _solve_chunk
# What a worker gets when it unpickles the task, and what run_survey hands its runner
# (the plan's ``solve``).
survey.solve_chunk = slow_solve_chunk

if __name__ == "__main__":
    from winnable.cli import main

    main()
