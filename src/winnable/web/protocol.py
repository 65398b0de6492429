"""uvicorn's HTTP/1.1 protocol (httptools), with each response leaving in one send.

uvicorn writes a response's status line and headers, then its body, as two writes on the
socket: two system calls, and on loopback or a quiet link two packets, the first of which
wakes the client for nothing (their cost: ``docs/tuning.md``). :class:`HttpProtocol` holds the writes made in one
turn of the event loop and sends them together at the end of that turn: a whole JSON
answer (whose headers and body are written in the same turn) goes out in one send; a
streamed body still leaves chunk by chunk, each turn's chunks together.

``winnable serve`` runs uvicorn with ``http=HttpProtocol``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class CorkedTransport:
    """A transport whose writes wait for the end of the event loop's turn, then leave
    together; everything else is the wrapped transport's.

    >>> class Socket:
    ...     sent = []
    ...     def write(self, data): self.sent.append(data)
    ...     def is_closing(self): return False
    ...     def close(self): self.sent.append(b"<closed>")
    >>> loop = asyncio.new_event_loop()
    >>> corked = CorkedTransport(Socket(), loop)
    >>> corked.write(b"HTTP/1.1 200 OK\\r\\n\\r\\n"); corked.write(b"{}")
    >>> Socket.sent
    []
    >>> loop.run_until_complete(asyncio.sleep(0)); Socket.sent
    [b'HTTP/1.1 200 OK\\r\\n\\r\\n{}']
    >>> corked.write(b"bye"); corked.close(); Socket.sent[1:]
    [b'bye', b'<closed>']
    >>> loop.close()
    """

    __slots__ = ("transport", "loop", "pending")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self.loop = loop
        self.pending: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        if self.pending is None:
            self.pending = [data]
            self.loop.call_soon(self.flush)
        else:
            self.pending.append(data)

    def flush(self) -> None:
        pending, self.pending = self.pending, None
        if pending and not self.transport.is_closing():
            self.transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol on a :class:`CorkedTransport`."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's (asyncio says BaseTransport)
        super().connection_made(CorkedTransport(transport, self.loop))  # type: ignore[arg-type]  # a Transport by delegation
