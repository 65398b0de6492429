"""Real-browser tests: `winnable serve` in a subprocess, Debian's Chromium driven by
Playwright.

Needs the PyPI package ``playwright`` and Debian's ``chromium`` (Playwright's own browser
download is not used). Without either, every test here is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("WINNABLE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HERE = Path(__file__).parent


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install playwright)"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


def pytest_collection_modifyitems(config, items):
    reason = missing()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=f"browser tests skipped: {reason}")
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A running `winnable serve` with its own database, plus a tiny JSON client."""

    def __init__(self, base: str, process: subprocess.Popen, log: Path):
        self.base = base
        self.process = process
        self.log = log

    def url(self, path: str) -> str:
        return self.base + path

    def api(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url(path), data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {path} -> {error.code}: {error.read().decode()}") from None

    def catalog_ids(self) -> list[str]:
        return [game["id"] for game in self.api("GET", "/api/catalog")]


def start_server(database: Path, log: Path, env_extra: dict | None = None) -> Server:
    port = free_port()
    env = dict(os.environ)
    # Keep the background pool small: the machine is shared and the tests ask for few deals.
    env.setdefault("WINNABLE_POOL_SIZE", "3")
    env.update(env_extra or {})
    command = [sys.executable, "-c", "from winnable.cli import main; main()", "serve", "--host", "127.0.0.1", "--port", str(port), "--database", f"sqlite:///{database}"]
    handle = log.open("w")
    process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"winnable serve exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=2) as response:
                if json.loads(response.read()).get("ok"):
                    break
        except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
            pass
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"winnable serve did not answer /api/health within 60 s:\n{log.read_text()}")
        time.sleep(0.2)
    return Server(base, process, log)


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(timeout=5)


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
    """A fresh browser context (empty localStorage) at desktop size; page errors fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.page_errors = errors
    yield tab
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
