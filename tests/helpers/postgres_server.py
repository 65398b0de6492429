"""A throwaway PostgreSQL server for the tests (started on loopback, stopped after)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from ports import free_port


class Unavailable(Exception):
    """PostgreSQL cannot run here (the reason is the message): the tests skip (fail under
    ``CI=true``)."""


def find_initdb() -> str | None:
    found = shutil.which("initdb")
    if found:
        return found
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return candidates[-1] if candidates else None


@contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a fresh PostgreSQL database, for the duration of the block."""
    initdb = find_initdb()
    if initdb is None:
        raise Unavailable("PostgreSQL is not installed (no initdb)")
    bindir = os.path.dirname(os.path.realpath(initdb))
    folder = tempfile.mkdtemp(prefix="winnable-pg-")
    data = os.path.join(folder, "data")
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        if shutil.which("runuser") is None:
            raise Unavailable("running as root without runuser")
        try:
            shutil.chown(folder, "postgres")
        except (LookupError, PermissionError):
            raise Unavailable("no postgres user to run PostgreSQL as")
        prefix = ["runuser", "-u", "postgres", "--"]
    port = free_port()

    def run(*args: str) -> None:
        subprocess.run(prefix + list(args), check=True, capture_output=True, text=True)

    try:
        run(os.path.join(bindir, "initdb"), "-D", data, "-U", "winnable", "--auth=trust", "-E", "UTF8")
        run(
            os.path.join(bindir, "pg_ctl"),
            "-D",
            data,
            "-l",
            os.path.join(folder, "log"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )
    except subprocess.CalledProcessError as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise Unavailable(f"could not start PostgreSQL: {error.stderr.strip()[:200]}")
    try:
        yield f"postgresql+psycopg://winnable@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(prefix + [os.path.join(bindir, "pg_ctl"), "-D", data, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
