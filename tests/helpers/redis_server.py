"""A throwaway Redis for the tests: Debian's ``redis-server`` on a free loopback port, its
files in a temporary folder, stopped at the end (``make system-deps`` installs it). Under
``CI=true`` a missing ``redis-server`` fails the test instead of skipping it."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ports import free_port
from required import unavailable


def redis_binary() -> str:
    found = shutil.which("redis-server") or ("/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None)
    if found is None:
        unavailable("redis-server is not installed (Debian package redis-server; make system-deps installs it)")
    return found


@contextmanager
def redis_server(tmp_path: Path) -> Iterator[str]:
    """``redis://127.0.0.1:PORT/0`` of a Redis started in ``tmp_path`` for the block."""
    binary = redis_binary()
    folder = tmp_path / "redis"
    folder.mkdir()
    port = free_port()
    log = folder / "redis.log"
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(folder),
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "yes",
            "--daemonize",
            "no",
            "--logfile",
            str(log),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, log.read_text() if log.exists() else "redis-server stopped"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "redis-server did not answer"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
