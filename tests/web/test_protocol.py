"""The server's HTTP protocol (uvicorn's httptools one on a corked transport): every
response leaves in one write on the socket, and everything else behaves as before
(keep-alive, streamed files, HEAD, a closed connection)."""

from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest
import uvicorn

from ports import free_port
from winnable.web.app import create_app
from winnable.web.protocol import HttpProtocol

WRITES: list[int] = []


class Counting:
    """The socket's transport, counting its writes."""

    def __init__(self, transport) -> None:
        self._transport = transport

    def write(self, data: bytes) -> None:
        WRITES.append(len(data))
        self._transport.write(data)

    def __getattr__(self, name: str):
        return getattr(self._transport, name)


class CountingProtocol(HttpProtocol):
    def connection_made(self, transport) -> None:
        super().connection_made(Counting(transport))


@pytest.fixture(scope="module")
def base():
    port = free_port()
    app = create_app("sqlite://", pool_size=0, allowed_hosts=["127.0.0.1"])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http=CountingProtocol, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_each_answer_is_one_write_and_keep_alive_still_works(base):
    with httpx.Client(base_url=base, headers={"Origin": base}) as client:
        WRITES.clear()
        game = client.post("/api/games", json={"game": "black-hole", "deal": 2})
        assert game.status_code == 201
        state = client.get(f"/api/games/{game.json()['id']}")
        moved = client.post(f"/api/games/{game.json()['id']}/moves", json={"move": "QD"})
        assert state.json()["id"] == game.json()["id"]
        assert moved.status_code == 409 and moved.json()["code"] == "illegal_move"
        assert state.http_version == "HTTP/1.1" and client.get("/api/health").status_code == 200
    # Four answers, four writes: uvicorn alone writes headers and body apart (eight).
    assert len(WRITES) == 4, WRITES


def test_files_stream_whole_and_head_has_no_body(base):
    # play.js is split into modules; play-game.js is one over 10 kB.
    with httpx.Client(base_url=base) as client:
        script = client.get("/static/js/play-game.js", headers={"Accept-Encoding": "identity"})
        assert script.status_code == 200
        assert len(script.content) == int(script.headers["content-length"]) > 10_000
        head = client.head("/static/js/play-game.js", headers={"Accept-Encoding": "identity"})
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == script.headers["content-length"]


def test_a_client_that_goes_away_mid_answer_does_not_stop_the_server(base):
    with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1]))) as raw:
        raw.sendall(b"GET /static/js/play.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert httpx.get(base + "/api/health").status_code == 200
