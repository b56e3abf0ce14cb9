"""Request bodies as an attacker sends them: trickled a byte at a time (slow-loris after the
head), cut off halfway, or far longer than the endpoint takes. Every endpoint that reads a body
reads it the same way (`answers.read_body`): bounded in size before it is held, bounded in
time, and a client gone halfway is no error of the server's."""

from __future__ import annotations

import contextlib
import logging
import select
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from exact61.server import answers
from tests.server.kit import Server, database_url, server_in_thread

pytestmark = pytest.mark.server

BODY_SECONDS = 0.3  # the deadline for a body in these tests


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("server")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(answers, "BODY_SECONDS", BODY_SECONDS)
        with server_in_thread(database_url("sqlite", folder), folder) as running:
            yield running


def posts(server: Server) -> list[str]:
    """Every path that takes a body: a game, a seat of an open game, a replay, a puzzle's answer."""
    game = server.create(["human", "human"], open=True)
    puzzle = httpx.get(f"{server.url}/api/puzzles").json()["puzzles"][0]["id"]
    return [
        "/api/games",
        f"/api/games/{game['game']}/seats/1",
        "/api/replays",
        f"/api/puzzles/{puzzle}/answer",
    ]


def head(path: str, length: int) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\nConnection: close\r\n\r\n"
    ).encode()


def answer_of(sock: socket.socket, seconds: float) -> bytes:
    """What the server sent until it closed `sock` (or `seconds` passed)."""
    sock.settimeout(seconds)
    got = b""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline and (chunk := sock.recv(4096)):
            got += chunk
    except (TimeoutError, ConnectionResetError):  # a reset after the answer: it is read
        pass
    return got


def test_a_body_trickled_in_is_cut_off_at_its_deadline(server: Server) -> None:
    """The head's deadline (`--head-timeout`) ended where the body began: a client could send
    one byte of its body every few seconds and hold a connection for ever (a few thousand such
    took every connection the server has). Now a body not whole within its deadline gets 408,
    and the connection is closed."""
    for path in posts(server):
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(head(path, 1000) + b"{")
            cut_off = False
            with contextlib.suppress(OSError):  # closed by the server: what was wanted
                # a byte every tenth of a second for 10 s (33 times the deadline: a loaded
                # machine is slow, not wrong), until the server answers
                for _ in range(100):
                    if select.select([sock], [], [], 0.1)[0]:
                        cut_off = True
                        break
                    sock.sendall(b" ")
            assert cut_off, f"{path}: still reading a body trickled in for 10 s"
            got = answer_of(sock, 3)
            assert got.startswith(b"HTTP/1.1 408"), (path, got[:80])
            assert b'"error":"too_slow"' in got, path


def test_a_body_longer_than_the_endpoint_takes_is_refused_before_it_is_read(
    server: Server,
) -> None:
    """A puzzle's answer was read whole before its size was looked at: a client could make
    the server hold a body of any size. Every endpoint refuses a declared length over its
    limit at once (413, nothing read), and one sent without a length once it passes it."""
    for path in posts(server):
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(head(path, 10**9) + b"{")
            got = answer_of(sock, 3)
            assert got.startswith(b"HTTP/1.1 413"), (path, got[:80])

        def endless() -> Iterator[bytes]:
            yield b"{"
            for _ in range(200):
                yield b" " * 32_768

        answer = httpx.post(f"{server.url}{path}", content=endless(), timeout=10)
        assert answer.status_code == 413, path
        assert answer.json()["error"] == "too_large"


def test_a_client_gone_halfway_through_its_body_is_no_error(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """A client that closes its connection in the middle of a body made the server log an
    `internal error` and a traceback: anyone could fill the log with them. Now it is nothing
    worth a line above INFO, and the server goes on."""
    caplog.set_level(logging.INFO)
    paths = posts(server)
    for path in paths:
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(head(path, 1000) + b'{"players": 2')
            time.sleep(0.05)

    def gone() -> int:
        return sum("went away before its body was whole" in r.getMessage() for r in caplog.records)

    deadline = time.monotonic() + 10  # until the server has heard every client go (or fails)
    while gone() < len(paths) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert gone() == len(paths), [r.getMessage() for r in caplog.records]
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not loud, [r.getMessage() for r in loud]
    assert httpx.get(f"{server.url}/api/games").status_code == 200
