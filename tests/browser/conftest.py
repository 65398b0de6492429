"""Real-browser tests: `winnable serve` in a subprocess, Debian's Chromium driven by
Playwright.

Needs the PyPI package ``playwright`` and Debian's ``chromium`` (Playwright's own browser
download is not used). Without either, every test here is skipped with the reason, or
fails under ``CI=true`` (``tests/helpers/required.py``).
"""

from __future__ import annotations

import importlib

import pytest

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, TIMEOUT, start_server, stop_server
from required import unavailable


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        importlib.import_module("playwright.sync_api")
    except ImportError:
        return "the Python package playwright is not installed (pip install playwright)"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


@pytest.fixture(scope="session", autouse=True)
def browser_available():
    """Every test here needs the browser: set up before the other session fixtures."""
    reason = missing()
    if reason is not None:
        unavailable(f"browser tests: {reason}")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("winnable-web")
    running = start_server(folder / "games.db", folder / "server.log")
    yield running
    stop_server(running)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (empty localStorage but for safe moves home switched off) at
    desktop size; page errors fail the test."""
    # bypass_csp: the tests wait on JavaScript expressions, which the strict CSP (no eval)
    # would refuse; test_security_headers.py checks the pages under the real policy.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    # Moves stay exactly as the test plays them: no safe move goes home by itself.
    context.add_init_script("try { localStorage.setItem('winnable:safe-home', '0'); } catch (e) {}")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.page_errors = errors
    yield tab
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
