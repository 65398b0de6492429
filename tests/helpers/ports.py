"""Loopback ports for the servers the tests start."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port free on 127.0.0.1 now (the kernel's pick: test workers running side by side
    get different ones)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
