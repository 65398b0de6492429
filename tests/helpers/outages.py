"""A Redis and a PostgreSQL the tests can take away and bring back on the same port (a
kill, a restart), started on loopback in a temporary folder and stopped at the end."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from postgres_server import Unavailable, find_initdb, free_port
from redis_server import redis_binary


def wait_for(condition, what: str, seconds: float = 60.0, every: float = 0.02):
    """Poll ``condition`` until it is true (its value is returned); fail after ``seconds``
    with ``what`` (a state waited for, not a time: the deadline is only a safety net)."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(every)


def answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class KillableRedis:
    """``redis-server`` on a fixed loopback port: :meth:`kill` (SIGKILL) and :meth:`start` again."""

    def __init__(self, folder: Path) -> None:
        self.binary = redis_binary()
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.folder),
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--logfile",
                str(self.folder / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        wait_for(lambda: answers_ping(self.port), "redis-server to answer")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.process = None


class RestartablePostgres:
    """A PostgreSQL cluster of its own on a fixed loopback port: :meth:`stop` and
    :meth:`start` again (a restart), as ``pg_ctl`` does it."""

    def __init__(self) -> None:
        initdb = find_initdb()
        if initdb is None:
            raise Unavailable("PostgreSQL is not installed (no initdb)")
        self.bindir = os.path.dirname(os.path.realpath(initdb))
        self.folder = tempfile.mkdtemp(prefix="winnable-pg-restart-")
        self.data = os.path.join(self.folder, "data")
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            if shutil.which("runuser") is None:
                raise Unavailable("running as root without runuser")
            try:
                shutil.chown(self.folder, "postgres")
            except (LookupError, PermissionError):
                raise Unavailable("no postgres user to run PostgreSQL as")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        self.url = f"postgresql+psycopg://winnable@127.0.0.1:{self.port}/postgres"
        try:
            self._run("initdb", "-D", self.data, "-U", "winnable", "--auth=trust", "-E", "UTF8")
        except subprocess.CalledProcessError as error:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise Unavailable(f"could not make a PostgreSQL cluster: {error.stderr.strip()[:200]}")

    def _run(self, program: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.prefix + [os.path.join(self.bindir, program), *args], check=True, capture_output=True, text=True)

    def start(self) -> None:
        self._run(
            "pg_ctl",
            "-D",
            self.data,
            "-l",
            os.path.join(self.folder, "log"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def remove(self) -> None:
        subprocess.run(self.prefix + [os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)
