"""Start the server: migrate the database, make the bots' process pool, run uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import h11
import sqlalchemy as sa
import uvicorn
from alembic.util import CommandError as AlembicError
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from exact61.server.app import HeapPolicy, Limits, create_app
from exact61.server.pool import bot_pool
from exact61.server.presence import HEARTBEAT
from exact61.server.protocol import MAX_FRAME
from exact61.server.schema import first_line
from exact61.server.store import (
    Database,
    database_url,
    make_data_folder,
    shown_name,
    sqlite_file,
)
from exact61.table.files import games_dir


class CannotListen(OSError):
    """The server's address cannot be listened on (taken by another program, or not this
    machine's): said before anything else is done."""


class DatabaseInUse(Exception):
    """Another server serves from the same SQLite file: SQLite serves one server (its games'
    moves reach only the players connected to the server that made them); several servers
    share PostgreSQL (docs/hosting.md, "Several servers")."""


class CannotOpenDatabase(Exception):
    """The database cannot be opened, migrated or reached at start: its driver's one line."""


def hold_sqlite(file: Path) -> IO[bytes] | None:
    """Hold `file`'s lock for as long as the server runs (the system lets it go when the
    process ends, even killed): DatabaseInUse when another server holds it. The lock is
    flock's on the database file itself, which SQLite's own locks (POSIX record locks) do not
    meet on a local file system; a file not there yet is made empty, a new database to SQLite.
    Where there is no flock (Windows) nothing is held: None."""
    try:
        import fcntl
    except ImportError:
        return None
    lock = file.open("ab")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise DatabaseInUse(
            f"another server serves from {file}: an SQLite file serves one server "
            "(several servers share PostgreSQL: docs/hosting.md)"
        ) from None
    return lock


def open_database(db: str | None) -> tuple[Database, str, IO[bytes] | None]:
    """The server's database (`--db`, else the embedded file), migrated; how the banner names
    it (a PostgreSQL URL without its password); and the SQLite file's lock, held."""
    url = database_url(db, games_dir().parent)
    file = sqlite_file(url)
    shown = shown_name(url)

    def cannot(err: Exception) -> CannotOpenDatabase:
        why = err.strerror if isinstance(err, OSError) and err.strerror else first_line(err)
        return CannotOpenDatabase(f"cannot open the database {shown}: {why}")

    if not db and file is not None:  # the embedded file: its folder, the data directory, made
        try:
            make_data_folder(file.parent)
        except OSError as err:  # a file of that name, a folder it may not write in
            told = cannot(err)
            raise CannotOpenDatabase(
                f"{told} (set EXACT61_DATA_DIR to another folder, or give --db)"
            ) from None
    try:
        lock = None if file is None else hold_sqlite(file)
    except OSError as err:  # a folder, a file it may not open
        raise cannot(err) from None
    try:
        return Database.open(url, games_dir().parent), shown, lock
    except BaseException as err:
        if lock is not None:  # it failed, however: the file is let go
            lock.close()
        if isinstance(err, sa.exc.SQLAlchemyError | AlembicError | OSError):
            raise cannot(err) from None
        raise


def listening_socket(host: str, port: int) -> socket.socket:
    """The socket the server listens on, bound as uvicorn binds its own (CannotListen, naming
    the address, when it cannot be)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        raise CannotListen(err.errno, f"cannot listen on {shown}:{port}: {err.strerror}") from None
    sock.set_inheritable(True)
    return sock


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8061,
    db: str | None = None,
    bot_workers: int = 2,
    bot_delay: float = 0.6,
    forced_delay: float = 0.7,
    limits: Limits | None = None,
    expire_days: float = 30.0,
    connections: Connections | None = None,
    allowed_origins: Sequence[str] = (),
    heartbeat: float = HEARTBEAT,
) -> None:
    sock = listening_socket(host, port)  # first: a taken port stops the server before it starts
    port = sock.getsockname()[1]  # the port the system chose, for --port 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)  # migrations: say only what fails

    def workers() -> ProcessPoolExecutor:
        return bot_pool(bot_workers)

    try:
        store, where, lock = open_database(db)
    except (DatabaseInUse, CannotOpenDatabase):
        sock.close()
        raise

    # the SQLite file's lock is held while the server runs, and let go however it stops
    with lock if lock is not None else contextlib.nullcontext():
        app = create_app(
            store,
            bot_pool=workers if bot_workers else None,
            bot_workers=bot_workers,
            bot_delay=bot_delay,
            forced_delay=forced_delay,
            limits=limits,
            heap=HeapPolicy(),
            allowed_origins=allowed_origins,
            expire_after=expire_days * 86_400 if expire_days else None,
            heartbeat=heartbeat,
        )
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        if ":" in shown:  # an IPv6 address: in brackets in a URL (RFC 3986)
            shown = f"[{shown}]"
        print(f"exact61 serves on http://{shown}:{port}/  (Ctrl+C stops it)", flush=True)
        print(f"games kept in {where}", flush=True)
        uvicorn.Server(uvicorn_config(app, host, port, connections=connections)).run(sockets=[sock])


@dataclass(frozen=True)
class Connections:
    """What the server accepts before a request reaches the game: `limit` connections at once
    (more get 503), `head_seconds` to send a request's head (then the connection is closed),
    and the proxies whose `X-Forwarded-For` names the client (none unless given: otherwise any
    client could name itself anyone and slip past the per-address limits)."""

    limit: int = 10_000
    head_seconds: float = 10.0
    forwarded_allow_ips: tuple[str, ...] = ()


class HeadTimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with a deadline for each request's head: a client that
    opens a connection and sends its headers slowly, or never, is closed after `head_seconds`
    (uvicorn's own timers cover only the wait between requests). The rest of a body the answer
    did not wait for (a 413, a 429 sent before the body was read) has as long to come: uvicorn
    reads it and throws it away, and each byte put its keep-alive timer off again, so a body
    trickled after the answer held the connection for ever."""

    head_seconds = Connections.head_seconds
    head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm_head_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.between_requests():  # the head has arrived
            self.disarm_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.between_requests():  # the next request's head is due, or an unread body's end
            self.arm_head_timer()

    def between_requests(self) -> bool:
        """Whether no request is being answered: none has come since the last answer (kept
        alive), or the last answer went before its request's body was in (its rest is due)."""
        return self.conn.their_state is h11.IDLE or self.conn.our_state is h11.DONE

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm_head_timer()
        super().connection_lost(exc)

    def arm_head_timer(self) -> None:
        self.disarm_head_timer()
        self.head_timer = self.loop.call_later(self.head_seconds, self.head_late)

    def disarm_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_late(self) -> None:
        self.head_timer = None
        if self.between_requests() and not self.transport.is_closing():
            self.transport.close()


class QueuedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O), that stops reading from a
    connection only once `queued` of its messages wait for the application, and reads again
    when they are taken: uvicorn's own stops after every message and reads again at the next,
    two system calls a message that were a tenth of the event loop's work under load."""

    queued = 8

    def send_receive_event_to_app(self) -> None:
        paused = self.read_paused
        self.read_paused = True  # so that uvicorn does not stop reading for this one message
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= self.queued:
            self.read_paused = True
            self.transport.pause_reading()


def uvicorn_config(
    app: Any,
    host: str,
    port: int,
    *,
    log_level: str = "info",
    connections: Connections | None = None,
) -> uvicorn.Config:
    """How the server runs under uvicorn (the tests run it the same way)."""
    connections = connections or Connections()
    protocol = type(
        "HeadTimed", (HeadTimedH11Protocol,), {"head_seconds": connections.head_seconds}
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        limit_concurrency=connections.limit,
        proxy_headers=bool(connections.forwarded_allow_ips),
        forwarded_allow_ips=list(connections.forwarded_allow_ips) or None,
        ws=QueuedWebSocketProtocol,
        ws_max_size=4 * MAX_FRAME,  # larger frames close the connection (1009)
        ws_per_message_deflate=False,  # small frames: compressing costs more CPU than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        log_level=log_level,
        access_log=True,  # paths only: tokens never travel in a path or query
        lifespan="on",
    )
