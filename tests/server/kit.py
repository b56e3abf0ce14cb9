"""Running `exact61 serve` for tests, as users have it: uvicorn on a loopback port (in a thread,
or as a separate process that can be killed), a real SQLite file or a real PostgreSQL database,
and clients speaking the online protocol over real WebSockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from exact61.server.app import Limits, create_app
from exact61.server.hub import Hub
from exact61.server.run import Connections, uvicorn_config
from exact61.server.store import Database

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


# ---- databases ---------------------------------------------------------------------------


def postgres_admin_url() -> str | None:
    """The PostgreSQL server the tests may use: EXACT61_TEST_POSTGRES, or the PG* variables
    `pg_virtualenv` sets (as `.ci/run` runs the tests)."""
    url = os.environ.get("EXACT61_TEST_POSTGRES")
    if url:
        return url
    if os.environ.get("PGHOST") and os.environ.get("PGUSER"):
        user, password = os.environ["PGUSER"], os.environ.get("PGPASSWORD", "")
        host, port = os.environ["PGHOST"], os.environ.get("PGPORT", "5432")
        auth = f"{user}:{password}" if password else user
        return (
            f"postgresql+psycopg://{auth}@{host}:{port}/{os.environ.get('PGDATABASE', 'postgres')}"
        )
    return None


def fresh_postgres_database() -> str:
    """A new, empty database on the test PostgreSQL server; skips (fails in CI) without one."""
    admin = postgres_admin_url()
    if admin is None:
        message = "no PostgreSQL server: run under pg_virtualenv or set EXACT61_TEST_POSTGRES"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(admin)
    name = "exact61_test_" + secrets.token_hex(6)
    plain = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"')
    return url.set(database=name).render_as_string(hide_password=False)


def database_url(kind: str, folder: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{folder / 'games.sqlite3'}"
    return fresh_postgres_database()


# ---- servers -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    """A server on a loopback port: `url` for HTTP, `ws(game)` for its socket (and, run in this
    process, its `store` and its `hub` of games)."""

    port: int
    db: str
    store: Database | None = None
    hub: Hub | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, game: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/games/{game}"

    def create(self, seats: list[str], **extra: Any) -> dict[str, Any]:
        body = {"players": len(seats), "seats": seats, **extra}
        answer = httpx.post(f"{self.url}/api/games", json=body, timeout=30)
        assert answer.status_code == 201, answer.text
        result: dict[str, Any] = answer.json()
        return result


@contextlib.contextmanager
def server_in_thread(
    db: str,
    folder: Path,
    *,
    limits: Limits | None = None,
    bot_pool: Callable[[], Any] | None = None,
    max_iterations: int = 5000,
    connections: Connections | None = None,
    allowed_origins: tuple[str, ...] = (),
    bot_delay: float = 0.0,
    forced_delay: float = 0.0,
    expire_after: float | None = None,
) -> Iterator[Server]:
    """The app under uvicorn in a thread of this process (its own event loop)."""
    store = Database.open(db, folder)
    # Test clients act as fast as the server answers: no rate limit unless a test sets one.
    fast = Limits(
        rate=1e6,
        burst=1e6,
        games_per_minute=1e6,
        sockets_per_address=10**6,
        replays_per_minute=1e6,
        resyncs_per_minute=1e6,
        open_games_per_address=10**6,
    )
    app = create_app(
        store,
        bot_pool=bot_pool,
        limits=limits or fast,
        max_iterations=max_iterations,
        allowed_origins=allowed_origins,
        bot_delay=bot_delay,
        forced_delay=forced_delay,
        expire_after=expire_after,
    )
    port = free_port()
    config = uvicorn_config(app, "127.0.0.1", port, log_level="warning", connections=connections)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield Server(port, db, store, app.state.hub)
    finally:
        server.should_exit = True
        thread.join(30)


class ServerProcess:
    """`exact61 serve` as its own process, to be killed with SIGKILL and started again."""

    def __init__(
        self,
        db: str,
        folder: Path,
        port: int | None = None,
        *,
        bot_workers: int = 0,
        heartbeat: float | None = None,
    ) -> None:
        """`heartbeat`: seconds between the server's telling the others who is connected to
        it (`exact61.server.presence`; None: its default). Given, the server is started by
        `run.serve` with the options `exact61 serve` is given here, which has no flag for it."""
        self.db, self.folder, self.bot_workers = db, folder, bot_workers
        self.heartbeat = heartbeat
        self.port = port or free_port()
        self.process: subprocess.Popen[str] | None = None
        self.log = folder / f"server-{self.port}.log"

    def start(self) -> Server:
        self.launch()
        return self.wait_up()

    def launch(self) -> None:
        """Start the process and return at once (see `wait_up`)."""
        env = {**os.environ, "EXACT61_DATA_DIR": str(self.folder / "data")}
        command = [sys.executable, "-m", "exact61", "serve", "--port", str(self.port)]
        command += ["--db", self.db, "--bot-workers", str(self.bot_workers), "--bot-delay", "0"]
        command += ["--forced-delay", "0"]
        command += ["--frame-rate", "100000"]  # test clients act as fast as they are answered
        command += ["--connections-per-address", "100000"]  # every test client is 127.0.0.1
        if self.heartbeat is not None:  # the same options, to `serve` itself
            script = (
                "import sys\n"
                "from exact61.server.app import Limits\n"
                "from exact61.server.run import serve\n"
                "port, db, workers, heartbeat = sys.argv[1:]\n"
                "serve(port=int(port), db=db, bot_workers=int(workers), bot_delay=0,"
                " forced_delay=0, heartbeat=float(heartbeat), limits=Limits(rate=100000,"
                " burst=300000, sockets_per_address=100000))\n"
            )
            command = [sys.executable, "-c", script, str(self.port), self.db]
            command += [str(self.bot_workers), str(self.heartbeat)]
        self.process = subprocess.Popen(
            command, env=env, stdout=self.log.open("a"), stderr=subprocess.STDOUT, text=True
        )

    def wait_up(self) -> Server:
        assert self.process is not None
        server = Server(self.port, self.db)
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, self.log.read_text()
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{server.url}/api/games", timeout=2).status_code == 200:
                    return server
            assert time.monotonic() < deadline, "the server did not start: " + self.log.read_text()
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; whatever was not committed is gone."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


# ---- clients -----------------------------------------------------------------------------


@dataclass
class Client:
    """One WebSocket client of a game: every frame it got, in order."""

    conn: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    _reader: asyncio.Task[None] | None = None
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)

    @classmethod
    async def connect(
        cls,
        server: Server,
        game: str,
        token: str | None,
        since: int | None = None,
        *,
        headers: dict[str, str] | None = None,
    ) -> Client:
        conn = await websockets.connect(
            server.ws(game), max_size=2**22, open_timeout=30, additional_headers=headers
        )
        client = cls(conn)
        client._reader = asyncio.get_running_loop().create_task(client._read())
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        if since is not None:
            hello["since"] = since
        await client.send(hello)
        return client

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.conn:
                self.frames.append(json.loads(text))
                self._arrived.set()
        self._arrived.set()

    async def send(self, frame: dict[str, Any] | str) -> None:
        await self.conn.send(frame if isinstance(frame, str) else json.dumps(frame))

    @property
    def closed(self) -> bool:
        return self._reader is not None and self._reader.done()

    @property
    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]

    @property
    def state(self) -> dict[str, Any]:
        return self.states[-1]

    async def wait(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30, *, after: int = 0
    ) -> dict[str, Any]:
        """The first frame received (so far, or from now on; past the first `after` frames)
        that satisfies `predicate`."""
        deadline = asyncio.get_running_loop().time() + timeout
        seen = after
        while True:
            for frame in self.frames[seen:]:
                if predicate(frame):
                    return frame
            seen = len(self.frames)
            if self.closed:
                raise AssertionError(f"connection closed; last frames: {self.frames[-3:]}")
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"no such frame in {timeout}s; last: {self.frames[-3:]}")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def wait_seq(self, seq: int, timeout: float = 30) -> dict[str, Any]:
        return await self.wait(lambda f: f.get("type") == "state" and f["seq"] >= seq, timeout)

    async def close(self) -> None:
        await self.conn.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader


async def play_game(
    server: Server | dict[int, Server],
    game: dict[str, Any],
    choose: Callable[[dict[str, Any]], dict[str, Any]] = lambda s: s["legal"][0],
    *,
    stop_after: int | None = None,
    until: Callable[[dict[str, Any]], bool] | None = None,
    clients: dict[int, Client] | None = None,
    send_forced: bool = False,
) -> dict[int, Client]:
    """Connect a client to every human seat (through `server`, or each seat's own server) and
    play until the match is over (or `stop_after` actions, or a state for which `until` holds);
    each person plays `choose(state)`. A draw or pass nobody may refuse (R10) is the server's
    to play (`state.forced`); with `send_forced` the people send it too, as an old page did.
    Returns the clients, still connected (`clients` given: those, already connected)."""
    tokens = {s["seat"]: s["token"] for s in game["seats"] if "token" in s}
    if clients is None:
        clients = {}
        for seat, token in tokens.items():
            at = server if isinstance(server, Server) else server[seat]
            clients[seat] = await Client.connect(at, game["game"], token)
    any_client = next(iter(clients.values()))
    floor = max((s["seq"] for s in any_client.states), default=0)  # from the newest state seen

    def ready(frame: dict[str, Any]) -> bool:
        if frame.get("type") != "state" or frame["seq"] < floor:
            return False
        return _settled(frame, clients, send_forced) or (until is not None and until(frame))

    while True:
        state = await any_client.wait(ready, timeout=60)
        seq = state["seq"]
        if state["winner"] is not None or (stop_after is not None and seq >= stop_after):
            return clients
        if until is not None and until(state):
            return clients
        seat = state["to_act"]
        if seat in clients:
            mine = await clients[seat].wait_seq(seq)
            assert mine["seq"] == seq and "legal" in mine, mine
            await clients[seat].send({"type": "act", "seq": seq, "action": choose(mine)})
        floor = seq + 1


def _settled(frame: dict[str, Any], clients: dict[int, Client], send_forced: bool) -> bool:
    """A state in which a person is to choose (or the match is over): nothing more will come
    until someone acts. (A forced action, the server plays; with `send_forced`, the person
    sends it first.)"""
    if frame["winner"] is not None:
        return True
    return frame["to_act"] in clients and (send_forced or frame["forced"] is None)
