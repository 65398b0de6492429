"""`make check` leaves out what needs a browser, PostgreSQL, Redis, fc-solve or long
minutes (tests/conftest.py marks each test): every collected test of this session is
marked for what it needs, so none of them can slip into the fast loop."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
FAST = "not browser and not postgres and not redis and not fcsolve and not slow"


def marks(item) -> set[str]:
    return {mark.name for mark in item.iter_markers()}


def folder(item) -> str | None:
    path = Path(str(item.fspath))
    return path.relative_to(TESTS).parts[0] if TESTS in path.parents else None


def test_each_test_is_marked_for_what_it_needs(request):
    items = request.session.items
    assert request.node in items
    for item in items:
        names = marks(item)
        if folder(item) == "browser":
            assert "browser" in names, item.nodeid
        if folder(item) == "servers":
            assert "slow" in names, item.nodeid
        fixtures = getattr(item, "fixturenames", ())
        if "postgres_url" in fixtures or "[postgresql" in item.nodeid or "-postgresql" in item.nodeid:
            assert "postgres" in names, item.nodeid
        if "redis_url" in fixtures:
            assert "redis" in names, item.nodeid


def test_the_fast_selection_leaves_out_the_marked_tests(request):
    """The expression `make check` passes to ``-m`` selects this test and refuses a test
    marked with any of the five markers."""
    from _pytest.mark.expression import Expression

    fast = Expression.compile(FAST)
    assert fast.evaluate(lambda name, **kwargs: name in marks(request.node))
    for name in ["browser", "postgres", "redis", "fcsolve", "slow"]:
        assert not fast.evaluate(lambda marker, **kwargs: marker == name), name


@pytest.mark.parametrize("makefile", [TESTS.parent / "Makefile"])
def test_make_check_uses_that_selection(makefile):
    assert f"FAST := {FAST}" in makefile.read_text()
