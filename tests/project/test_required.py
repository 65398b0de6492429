"""A missing tool skips a test on a developer's machine and fails it under ``CI=true``."""

from __future__ import annotations

import pytest

from required import require_module, require_tool, strict, unavailable

MISSING = "winnable-no-such-program"


@pytest.mark.parametrize("value, expected", [("true", True), ("1", True), ("TRUE", True), ("", False), ("false", False), ("0", False)])
def test_ci_is_strict(monkeypatch, value, expected):
    monkeypatch.setenv("CI", value)
    assert strict() is expected


def test_without_ci_a_missing_tool_skips(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"{MISSING} is not installed"):
        require_tool(MISSING)
    with pytest.raises(pytest.skip.Exception, match="no_such_module"):
        require_module("winnable.no_such_module", "nowhere")


def test_under_ci_a_missing_tool_fails(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=f"{MISSING} is not installed.*CI=true"):
        require_tool(MISSING)
    with pytest.raises(pytest.fail.Exception, match="no_such_module"):
        require_module("winnable.no_such_module", "nowhere")
    with pytest.raises(pytest.fail.Exception, match="PostgreSQL"):
        unavailable("PostgreSQL is not installed")


def test_a_present_tool_and_module_are_returned(monkeypatch):
    monkeypatch.setenv("CI", "true")
    assert require_tool("sh", "dash").endswith("/sh")
    assert require_module("json", "stdlib").loads("[1]") == [1]
