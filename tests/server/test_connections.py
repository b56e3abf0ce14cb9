"""What the server accepts before a request reaches a game (`run.Connections`): a deadline for
each request's head, a cap on connections at once, and the client's address taken from
`X-Forwarded-For` only when a trusted proxy sends it, so per-address limits see real clients
behind a proxy and nobody can name themselves someone else."""

from __future__ import annotations

import socket
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from exact61.server.app import Limits
from exact61.server.quota import Quotas
from exact61.server.run import Connections
from tests.server.kit import Server, database_url, server_in_thread

pytestmark = pytest.mark.server

BODY = {"players": 2, "seats": ["human", "human"]}


def closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed `sock` (None: still open after `seconds`)."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(1024):
            pass
    except TimeoutError:
        return None
    return time.monotonic() - started


def test_a_request_head_sent_too_slowly_is_cut_off(tmp_path: Path) -> None:
    """A connection that sends part of its headers and then nothing is closed after the head
    deadline; so is one that sends nothing; one that finishes its head in time is answered,
    and a kept-alive connection gets the same deadline for its next request."""
    connections = Connections(head_seconds=0.5)
    with server_in_thread(
        database_url("sqlite", tmp_path), tmp_path, connections=connections
    ) as server:
        with socket.create_connection(("127.0.0.1", server.port)) as partial:
            partial.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            waited = closed_within(partial, 5)
            assert waited is not None and waited < 3
        with socket.create_connection(("127.0.0.1", server.port)) as silent:
            waited = closed_within(silent, 5)
            assert waited is not None and waited < 3
        with socket.create_connection(("127.0.0.1", server.port)) as slow_but_whole:
            slow_but_whole.sendall(b"GET /api/games HTTP/1.1\r\n")
            time.sleep(0.2)
            slow_but_whole.sendall(b"Host: x\r\n\r\n")
            slow_but_whole.settimeout(5)
            assert slow_but_whole.recv(12) == b"HTTP/1.1 200"
            waited = closed_within(slow_but_whole, 5)  # kept alive, then no next head
            assert waited is not None and waited < 3


def test_a_body_trickled_after_its_answer_is_cut_off(tmp_path: Path) -> None:
    """An answer sent before its body was read (413 for a declared length past the limit, 429
    for too many games) left the connection reading the body's rest: uvicorn throws it away,
    and each byte of it put the keep-alive timer off again, so a client trickling it held the
    connection for ever. The rest has the head's deadline now, as the next head has."""
    connections = Connections(head_seconds=0.5)
    with server_in_thread(
        database_url("sqlite", tmp_path), tmp_path, connections=connections
    ) as server:
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 1000000000\r\n\r\n{"
            )
            sock.settimeout(5)
            assert sock.recv(12) == b"HTTP/1.1 413"
            closed = False
            for _ in range(100):  # a byte every twentieth of a second: 5 s, ten deadlines
                try:
                    sock.sendall(b" ")
                    sock.settimeout(0.05)
                    if sock.recv(4096) == b"":
                        closed = True
                        break
                except TimeoutError:
                    continue
                except OSError:  # reset by the server: closed too
                    closed = True
                    break
            assert closed, "the connection stayed open while the body's rest trickled in"
        # a whole body after a refusal sent before it was read: the connection serves on
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(
                b"POST /api/nothing-here HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
                b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
            )
            sock.settimeout(5)
            got = b""
            while got.count(b"HTTP/1.1 ") < 2 and (chunk := sock.recv(4096)):
                got += chunk
            assert b"HTTP/1.1 200" in got, got[:200]


def test_connections_past_the_cap_are_told_the_server_is_busy(tmp_path: Path) -> None:
    """With the cap reached, a new request is answered 503 at once (not queued, not hung);
    once connections go, requests are served again."""
    connections = Connections(limit=4, head_seconds=30)
    with server_in_thread(
        database_url("sqlite", tmp_path), tmp_path, connections=connections
    ) as server:
        url = f"{server.url}/api/games"
        assert httpx.get(url).status_code == 200
        with ExitStack() as held:
            for _ in range(4):
                held.enter_context(socket.create_connection(("127.0.0.1", server.port)))
            time.sleep(0.2)
            busy = httpx.get(url, timeout=5)
            assert busy.status_code == 503
        deadline = time.monotonic() + 5
        while httpx.get(url).status_code != 200:
            assert time.monotonic() < deadline, "the server stayed busy after the clients left"
            time.sleep(0.05)


def make(server: Server, forwarded_for: str) -> int:
    answer = httpx.post(
        f"{server.url}/api/games", json=BODY, headers={"x-forwarded-for": forwarded_for}
    )
    return answer.status_code


@pytest.fixture
def one_game_a_minute() -> Limits:
    return Limits(rate=1e6, burst=1e6, games_per_minute=1)


def test_behind_a_trusted_proxy_each_client_has_its_own_limit(
    tmp_path: Path, one_game_a_minute: Limits
) -> None:
    """The proxy (here: loopback, trusted) names each client: one address making a second game
    at once is refused, another address is not. One IPv6 host holds a /64 (2^64 addresses,
    SLAAC and privacy addresses): every limit per address counted each of them apart, so one
    machine had as many games, connections and hints as it wanted. A /64 is one client now;
    another /64 is another, and an IPv4 client reached over IPv6 (::ffff:a.b.c.d) is its IPv4
    address."""
    connections = Connections(forwarded_allow_ips=("127.0.0.1",))
    with server_in_thread(
        database_url("sqlite", tmp_path),
        tmp_path,
        limits=one_game_a_minute,
        connections=connections,
    ) as server:
        assert make(server, "203.0.113.7") == 201
        assert make(server, "203.0.113.7") == 429
        assert make(server, "198.51.100.9") == 201
        assert make(server, "::ffff:198.51.100.9") == 429
        assert make(server, "2001:db8:1:2::1") == 201
        assert make(server, "2001:db8:1:2:dead:beef:0:7") == 429
        assert make(server, "2001:db8:1:3::1") == 201


def test_many_addresses_do_not_give_an_exhausted_one_its_quota_back() -> None:
    """Past `most` addresses the buckets were all thrown away: a client with enough addresses
    (or a botnet) refilled every other client's quota, its own addresses' too. Now the buckets
    that are full again go first (they are as new ones), then the least used."""
    quotas = Quotas(1.0, most=4)
    assert quotas.take("192.0.2.1") and not quotas.take("192.0.2.1")
    for n in range(2, 40):
        quotas.take(f"198.51.100.{n}")
        assert not quotas.take("192.0.2.1"), n
    assert len(quotas.buckets) <= 4


def test_an_idle_exhausted_address_outlasts_newer_ones_with_tokens_left() -> None:
    """The exhausted client need not come back to keep its bucket: while it waits, a crowd
    of new addresses (each with tokens left) must not push it out as the least recently used,
    for that handed it a full quota at its next request."""
    quotas = Quotas(2.0, most=4)
    assert quotas.take("192.0.2.1") and quotas.take("192.0.2.1")
    assert not quotas.take("192.0.2.1")
    for n in range(2, 40):
        assert quotas.take(f"198.51.100.{n}")  # one token of two: the bucket is not full
    assert len(quotas.buckets) <= 4
    assert not quotas.take("192.0.2.1")


@pytest.mark.parametrize("most", [1, 2, 3])
def test_few_buckets_still_keep_an_exhausted_address(most: int) -> None:
    """With room for one bucket a newcomer's took the exhausted client's place, and the client
    came back to a full quota: two addresses taking turns were never refused."""
    quotas = Quotas(2.0, most=most)
    assert quotas.take("192.0.2.1") and quotas.take("192.0.2.1")
    for n in range(2, 12):
        assert not quotas.take("192.0.2.1"), n
        assert quotas.take(f"198.51.100.{n}")


def test_without_a_trusted_proxy_the_header_names_nobody(
    tmp_path: Path, one_game_a_minute: Limits
) -> None:
    """By default no proxy is trusted: a client writing someone else's address in
    `X-Forwarded-For` is still itself, and its limit holds."""
    with server_in_thread(
        database_url("sqlite", tmp_path), tmp_path, limits=one_game_a_minute
    ) as server:
        assert make(server, "203.0.113.7") == 201
        assert make(server, "198.51.100.9") == 429
        assert make(server, "192.0.2.1") == 429


def test_the_defaults_trust_no_proxy_and_leave_room_for_a_thousand_four_player_games() -> None:
    defaults = Connections()
    assert defaults.forwarded_allow_ips == () and defaults.limit >= 4 * 1000
    assert 1 <= defaults.head_seconds <= 30
