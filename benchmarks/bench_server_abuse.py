"""What an anonymous client can do to `exact61 serve` (issue 23), and what it does to an honest
one: each abuse limit under its attack, against two versions of the server in one run.

    pip install -e ".[server,bench]"
    python benchmarks/bench_server_abuse.py --before 041cffa            # this checkout after
    python benchmarks/bench_server_abuse.py --before 041cffa --after HEAD --outage
    python benchmarks/bench_server_abuse.py --before 041cffa --only replays,hello

Each version runs from a temporary git worktree of its commit (without `--after`: this checkout),
that worktree's `src/` first on the server's PYTHONPATH; the worktrees are removed at the end.
Each scenario starts a new `exact61 serve` on a loopback port with a temporary EXACT61_DATA_DIR
and SQLite (the outage: PostgreSQL), the versions taking turns scenario by scenario. The server
runs at its defaults but for new games (`--games-per-minute` lifted: the honest client makes a
game whenever one ends) and, where the version has the option, `--forwarded-allow-ips 127.0.0.1`,
so that the clients here come from the addresses they name in X-Forwarded-For (198.18.0.0/15;
the earlier version's uvicorn trusted that header from loopback by default). The scenarios:

- spectators: 64 spectators of one game, from one address and from 64; do the game's own two
  seats get in (a `state`) or are they refused (an `error` code)?
- replays: 16 clients post a 22 KB record to `POST /api/replays` in a loop, from one address
  and from 16, while an honest pair of clients plays a game (a move every 0.1 s, from its own
  address): the honest move's latency (from `act` to both seats holding the new state) alone
  and under the flood, and how the posts were answered.
- hello: 16 spectators of a long game (from 16 addresses) each send `hello` with `since: 0` 19
  times a second; the answers a second and their size, and the honest move's latency.
- slow heads: 200 connections send part of a request's head, then nothing (100) or one header
  line every 2 s (100); how many are still open after 5 and 12 s, and how long an honest
  request takes meanwhile. Then `--cap N` connections (the default cap, 10,000, and 50 more)
  send part of a head; an honest request then gets what?
- outage (`--outage`, needs Debian's `pg_createcluster`, as `pg_virtualenv` uses): 10 honest
  games on a PostgreSQL cluster of the script's own, stopped for 10 s and started again; the
  tracebacks in the server's log, the answers meanwhile, and whether play goes on.

Prints a Markdown table: each measurement, then its value for each version.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

# The outage test's own PostgreSQL cluster, from this checkout's tests/ (not a package of the
# installed program)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.cluster import own_cluster

ROOT = Path(__file__).resolve().parent.parent

HONEST = "198.18.0.1"  # the honest client's address
PAUSE = 0.1  # seconds between the honest game's moves


def _address(group: int, index: int) -> str:
    return f"198.18.{group}.{index + 1}"


def _xff(address: str | None) -> dict[str, str]:
    return {} if address is None else {"x-forwarded-for": address}


# ---- the versions and their servers ----------------------------------------------------------


@dataclass
class Code:
    label: str
    tree: Path  # a checkout: its src/ is imported
    commit: str
    options: str = ""  # `exact61 serve --help`

    def env(self, folder: str) -> dict[str, str]:
        return {**os.environ, "PYTHONPATH": str(self.tree / "src"), "EXACT61_DATA_DIR": folder}

    def has(self, option: str) -> bool:
        return option in self.options


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str
    log: Path

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://")

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def _serve(code: Code, db: str | None = None, extra: tuple[str, ...] = ()) -> Iterator[Server]:
    with tempfile.TemporaryDirectory() as folder:
        port = _free_port()
        command = [sys.executable, "-m", "exact61", "serve", "--port", str(port)]
        command += ["--db", db or f"sqlite:///{folder}/abuse.sqlite3"]
        command += ["--games-per-minute", "1000000", *extra]
        if code.has("--forwarded-allow-ips"):
            command += ["--forwarded-allow-ips", "127.0.0.1"]
        log = Path(folder) / "server.log"
        with log.open("w") as out:
            process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=code.env(folder)
            )
        server = Server(process, f"http://127.0.0.1:{port}", log)
        try:
            for _ in range(300):
                if process.poll() is not None:
                    raise RuntimeError(f"the server stopped:\n{log.read_text()[-3000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{server.url}/api/games", timeout=1).status_code == 200:
                        break
                time.sleep(0.1)
            else:
                raise RuntimeError("the server did not start")
            yield server
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            server.log = Path(tempfile.gettempdir()) / f"exact61-abuse-{code.label}.log"
            shutil.copy(log, server.log)


# ---- an honest game ----------------------------------------------------------------------------


@dataclass
class Seat:
    conn: Any
    seq: int = -1
    state: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)
    closed: bool = False
    event: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None


async def _read(seat: Seat) -> None:
    try:
        async for text in seat.conn:
            frame = json.loads(text)
            if frame.get("type") == "state":
                seat.state, seat.seq = frame, frame["seq"]
            elif frame.get("type") == "error":
                seat.errors.append(frame.get("code", "?"))
            seat.event.set()
    except websockets.ConnectionClosed:
        pass
    finally:
        seat.closed = True
        seat.event.set()


async def _connect(server: Server, game: str, hello: dict[str, Any], address: str) -> Seat:
    conn = await websockets.connect(
        f"{server.ws}/ws/games/{game}",
        max_size=2**23,
        ping_interval=None,
        open_timeout=10,
        additional_headers=_xff(address),
    )
    seat = Seat(conn)
    seat.reader = asyncio.get_running_loop().create_task(_read(seat))
    await conn.send(json.dumps({"type": "hello", **hello}))
    return seat


async def _first(seat: Seat, timeout: float = 10) -> str:
    """What a new connection was answered: `state`, an error's code, `closed` or `timeout`."""
    deadline = time.monotonic() + timeout
    while seat.state is None and not seat.errors and not seat.closed:
        seat.event.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                await seat.event.wait()
        if time.monotonic() >= deadline:
            return "timeout"
    if seat.state is not None:
        return "state"
    return seat.errors[0] if seat.errors else "closed"


async def _close(seats: list[Seat]) -> None:
    for seat in seats:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(2):
                await seat.conn.close()
        if seat.reader is not None:
            seat.reader.cancel()


async def _new_game(http: httpx.AsyncClient, address: str) -> dict[str, Any]:
    made = await http.post(
        "/api/games", json={"players": 2, "seats": ["human", "human"]}, headers=_xff(address)
    )
    if made.status_code != 201:
        raise RuntimeError(f"new game: {made.status_code}")
    game: dict[str, Any] = made.json()
    return game


async def _table(server: Server, http: httpx.AsyncClient, address: str) -> list[Seat]:
    game = await _new_game(http, address)
    seats = []
    for entry in game["seats"]:
        seat = await _connect(server, game["game"], {"token": entry["token"]}, address)
        seats.append(seat)
        answer = await _first(seat)
        if answer != "state":
            await _close(seats)
            raise RuntimeError(f"seat: {answer}")
    return seats


async def _until(seat: Seat, seq: int, deadline: float) -> bool:
    while seat.seq < seq and not seat.closed:
        seat.event.clear()
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(left):
                await seat.event.wait()
    return seat.seq >= seq


async def _move(seats: list[Seat], rng: random.Random, timeout: float = 10) -> float | str:
    """One move of the game: its latency, `over`, or what went wrong."""
    states = [s.state for s in seats if s.state is not None]
    state = max(states, key=lambda f: f["seq"])
    if state["winner"] is not None:
        return "over"
    mover = seats[state["to_act"]]
    if not await _until(mover, state["seq"], time.monotonic() + timeout):
        return "lost" if mover.closed else "timeout"
    assert mover.state is not None
    errors = sum(len(s.errors) for s in seats)
    sent = time.monotonic()
    action = rng.choice(mover.state["legal"])
    await mover.conn.send(json.dumps({"type": "act", "seq": state["seq"], "action": action}))
    for seat in seats:
        if not await _until(seat, state["seq"] + 1, sent + timeout):
            codes = [c for s in seats for c in s.errors]
            if len(codes) > errors:
                return f"error {codes[-1]}"
            return "lost" if seat.closed else "timeout"
    return time.monotonic() - sent


@dataclass
class Honest:
    """An honest pair of clients playing one game after another, noting each move."""

    moves: list[tuple[float, float]] = field(default_factory=list)  # (when, latency)
    failures: list[tuple[float, str]] = field(default_factory=list)

    def window(self, start: float, end: float) -> dict[str, Any]:
        lat = sorted(lat for at, lat in self.moves if start <= at <= end)
        failed = Counter(kind for at, kind in self.failures if start <= at <= end)
        return {
            "moves": len(lat),
            "p50": _ms(lat, 0.5),
            "p99": _ms(lat, 0.99),
            "max": _ms(lat, 1.0),
            "failed": dict(failed),
        }


async def _play(
    server: Server, address: str, stop: asyncio.Event, honest: Honest, pause: float = PAUSE
) -> None:
    rng = random.Random(7)
    seats: list[Seat] | None = None
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        while not stop.is_set():
            try:
                if seats is None:
                    seats = await _table(server, http, address)
                result = await _move(seats, rng)
            except Exception as err:  # noted, and the game made again
                result = f"{type(err).__name__}: {err}"[:60]
            if isinstance(result, float):
                honest.moves.append((time.monotonic(), result))
                await asyncio.sleep(pause)
                continue
            if result != "over":
                honest.failures.append((time.monotonic(), result))
            if seats is not None:
                await _close(seats)
                seats = None
            if result != "over":
                await asyncio.sleep(0.5)
    if seats is not None:
        await _close(seats)


def _ms(values: list[float], q: float) -> float | None:
    return round(1000 * values[int(q * (len(values) - 1))], 1) if values else None


def _latency(figures: dict[str, Any]) -> str:
    if not figures["moves"]:
        failed = f" (failed {figures['failed']})" if figures["failed"] else ""
        return "no move answered" + failed
    text = f"{figures['p50']} / {figures['p99']} / {figures['max']:.0f} ms ({figures['moves']})"
    if figures["failed"]:
        text += f", failed {figures['failed']}"
    return text


Rows = list[tuple[str, str]]


# ---- the scenarios ---------------------------------------------------------------------------


async def spectators(code: Code, args: argparse.Namespace) -> Rows:
    rows: Rows = []
    with _serve(code) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            for label, spread in (("one address", False), ("64 addresses", True)):
                game = await _new_game(http, HONEST)
                crowd = []
                for i in range(64):
                    address = _address(1 if spread else 2, i if spread else 0)
                    try:
                        crowd.append(await _connect(server, game["game"], {}, address))
                    except Exception as err:  # a refused handshake
                        crowd.append(Seat(None, errors=[f"handshake {type(err).__name__}"]))
                answers = Counter([await _first(s) for s in crowd])
                seats = [
                    await _connect(server, game["game"], {"token": e["token"]}, HONEST)
                    for e in game["seats"]
                ]
                got = [await _first(s) for s in seats]
                shown = ", ".join(f"{k} {v}" for k, v in sorted(answers.items()))
                rows.append((f"64 spectators from {label}: their answers", shown))
                rows.append((f"64 spectators from {label}: the two seats get", " / ".join(got)))
                await _close([s for s in crowd if s.conn is not None] + seats)
    return rows


def _record() -> bytes:
    """A 2-player match's record of about 22 KB, made by this checkout's engine."""
    from exact61.simulation.driver import bot_table

    table = bot_table(2, 11, ["greedy"] * 2)
    table.play_out()
    return json.dumps(table.record()).encode()


async def _post(
    http: httpx.AsyncClient,
    record: bytes,
    headers: dict[str, str],
    address: str,
    stop: asyncio.Event,
    answers: Counter[str],
) -> None:
    """Post `record` for replay until `stop`, noting each answer's status."""
    mine = {**headers, **_xff(address)}
    while not stop.is_set():
        try:
            answer = await http.post("/api/replays", content=record, headers=mine)
            answers[str(answer.status_code)] += 1
        except httpx.HTTPError as err:
            answers[type(err).__name__] += 1


async def replays(code: Code, args: argparse.Namespace) -> Rows:
    record = _record()
    rows: Rows = []
    with _serve(code) as server:
        stop = asyncio.Event()
        honest = Honest()
        player = asyncio.get_running_loop().create_task(_play(server, HONEST, stop, honest))
        await asyncio.sleep(2)  # the first game made and joined
        start = time.monotonic()
        await asyncio.sleep(args.seconds / 2)
        rows.append(
            (
                "replays: honest move alone, p50 / p99 / max",
                _latency(honest.window(start, time.monotonic())),
            )
        )
        limits = httpx.Limits(max_connections=16)
        headers = {"content-type": "application/json", "accept-encoding": "gzip"}
        for label, spread in (("one address", False), ("16 addresses", True)):
            answers: Counter[str] = Counter()
            flooding = asyncio.Event()

            async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
                start = time.monotonic()
                posts = [
                    asyncio.get_running_loop().create_task(
                        _post(
                            http,
                            record,
                            headers,
                            _address(3 if spread else 4, i if spread else 0),
                            flooding,
                            answers,
                        )
                    )
                    for i in range(16)
                ]
                await asyncio.sleep(args.seconds)
                end = time.monotonic()
                flooding.set()
                await asyncio.gather(*posts)
            window = honest.window(start + 1, end)  # from the flood's first second
            rate = ", ".join(f"{k} {v / (end - start):.1f}/s" for k, v in sorted(answers.items()))
            rows.append((f"replays from {label}: honest move, p50 / p99 / max", _latency(window)))
            rows.append((f"replays from {label}: the posts answered", rate))
            await asyncio.sleep(2)
        stop.set()
        await player
    rows.insert(0, ("replays: the record posted", f"{len(record) / 1000:.1f} KB"))
    return rows


async def _long_game(server: Server, target: int) -> str:
    """A game played (random moves, as fast as the frame limit lets) until a `hello` with
    `since: 0` is answered with at least `target` bytes, or it is over; its id."""
    rng = random.Random(3)
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        while True:
            game = await _new_game(http, _address(5, 0))
            seats = []
            for entry in game["seats"]:
                seats.append(
                    await _connect(server, game["game"], {"token": entry["token"]}, _address(5, 0))
                )
                await _first(seats[-1])
            moves = 0
            while True:
                result = await _move(seats, rng)
                if result == "over":
                    break
                if not isinstance(result, float):
                    raise RuntimeError(f"making the long game: {result}")
                moves += 1
                if moves % 25 == 0:
                    size = await _since_zero(server, game["game"])
                    if size >= target:
                        await _close(seats)
                        return str(game["game"])
                await asyncio.sleep(0.03)  # within the frame limit's burst
            await _close(seats)


async def _since_zero(server: Server, game: str) -> int:
    async with websockets.connect(
        f"{server.ws}/ws/games/{game}", max_size=2**23, additional_headers=_xff(_address(5, 1))
    ) as conn:
        await conn.send(json.dumps({"type": "hello", "since": 0}))
        return len(await conn.recv())


async def hello(code: Code, args: argparse.Namespace) -> Rows:
    rows: Rows = []
    with _serve(code) as server:
        game = await _long_game(server, 54_000)
        stop = asyncio.Event()
        honest = Honest()
        player = asyncio.get_running_loop().create_task(_play(server, HONEST, stop, honest))
        await asyncio.sleep(2)
        start = time.monotonic()
        await asyncio.sleep(args.seconds / 2)
        rows.append(
            (
                "hello: honest move alone, p50 / p99 / max",
                _latency(honest.window(start, time.monotonic())),
            )
        )
        crowd = [await _connect(server, game, {"since": 0}, _address(6, i)) for i in range(16)]
        for seat in crowd:
            await _first(seat)
        sizes: list[int] = []
        counted = Counter[str]()

        async def count(seat: Seat) -> None:
            async for text in seat.conn:
                if len(text) > 5000:  # a state with the whole game: not parsed, to spare the
                    counted["state"] += 1  # clients' CPU for sending
                    sizes.append(len(text))
                    continue
                frame = json.loads(text)
                counted[frame.get("code", frame.get("type"))] += 1

        for seat in crowd:  # this task reads from now on
            assert seat.reader is not None
            seat.reader.cancel()
        readers = [asyncio.get_running_loop().create_task(count(s)) for s in crowd]
        flooding = asyncio.Event()
        sent = Counter[str]()

        async def flood(seat: Seat) -> None:
            while not flooding.is_set():
                try:
                    await seat.conn.send(json.dumps({"type": "hello", "since": 0}))
                except websockets.ConnectionClosed:
                    sent["closed"] += 1
                    return
                sent["hello"] += 1
                await asyncio.sleep(1 / 19)

        start = time.monotonic()
        floods = [asyncio.get_running_loop().create_task(flood(s)) for s in crowd]
        await asyncio.sleep(args.seconds)
        end = time.monotonic()
        flooding.set()
        await asyncio.gather(*floods)
        await asyncio.sleep(1)
        for reader in readers:
            reader.cancel()
        await _close(crowd)
        stop.set()
        await player
        seconds = end - start
        per = 16 * seconds
        rows.append(
            (
                "hello: its answer's size (a `state` with `since: 0`)",
                f"{max(sizes, default=0) / 1000:.1f} KB",
            )
        )
        rows.append(("hello: sent a second per connection", f"{sent['hello'] / per:.1f}"))
        answered = ", ".join(f"{k} {v / per:.1f}" for k, v in sorted(counted.items()))
        rows.append(("hello: answered a second per connection", answered))
        rows.append(("hello: the server sent, all 16", f"{sum(sizes) / seconds / 1e6:.2f} MB/s"))
        rows.append(
            (
                "hello: honest move in another game, p50 / p99 / max",
                _latency(honest.window(start + 1, end)),
            )
        )
    return rows


async def _open(server: Server, head: bytes) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(head)
    await writer.drain()
    return reader, writer


async def _still_open(conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]) -> int:
    """How many of these connections the server has not closed (nor answered)."""
    alive = 0
    for reader, _writer in conns:
        if reader.at_eof() or reader._buffer:  # noqa: SLF001 - closed, or answered (a 408, a 503)
            continue
        alive += 1
    return alive


HEAD = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"


async def slow_heads(code: Code, args: argparse.Namespace) -> Rows:
    rows: Rows = []
    with _serve(code) as server:
        silent = [await _open(server, HEAD) for _ in range(100)]
        trickling = [await _open(server, HEAD) for _ in range(100)]
        stop = asyncio.Event()

        async def trickle() -> None:
            line = 0
            while not stop.is_set():
                await asyncio.sleep(2)
                line += 1
                for _reader, writer in trickling:
                    with contextlib.suppress(Exception):
                        writer.write(f"X-Line-{line}: x\r\n".encode())

        drip = asyncio.get_running_loop().create_task(trickle())
        start = time.monotonic()
        honest: list[float] = []
        statuses = Counter[str]()
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            marks = {}
            while time.monotonic() - start < 12.5:
                sent = time.monotonic()
                try:
                    answer = await http.get("/api/games", headers={"connection": "close"})
                    statuses[str(answer.status_code)] += 1
                    honest.append(time.monotonic() - sent)
                except httpx.HTTPError as err:
                    statuses[type(err).__name__] += 1
                for mark in (5, 12):
                    if mark not in marks and time.monotonic() - start >= mark:
                        marks[mark] = (await _still_open(silent), await _still_open(trickling))
                await asyncio.sleep(0.2)
        stop.set()
        drip.cancel()
        for mark, (quiet, slow) in marks.items():
            rows.append(
                (
                    f"slow heads: still open after {mark} s (of 100 silent / 100 trickling)",
                    f"{quiet} / {slow}",
                )
            )
        lat = sorted(honest)
        answered = ", ".join(f"{k} x{v}" for k, v in sorted(statuses.items()))
        rows.append(
            (
                "slow heads: an honest request meanwhile, p50 / max",
                f"{_ms(lat, 0.5)} / {_ms(lat, 1.0)} ms ({answered})",
            )
        )
        for _reader, writer in silent + trickling:
            writer.close()
    if args.cap:
        with _serve(code) as server:
            opened = []
            started = time.monotonic()
            for _ in range(args.cap):
                try:
                    opened.append(await _open(server, HEAD))
                except OSError as err:
                    rows.append(
                        (f"cap: opening {args.cap} connections", f"stopped at {len(opened)}: {err}")
                    )
                    break
            took = time.monotonic() - started
            try:
                async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
                    answer = await http.get("/api/games")
                got = f"{answer.status_code} {answer.text[:60]}"
            except httpx.HTTPError as err:
                got = type(err).__name__
            rows.append(
                (
                    f"cap: {len(opened)} partial heads open ({took:.0f} s to open), "
                    "then an honest request gets",
                    got,
                )
            )
            for _reader, writer in opened:
                writer.close()
    return rows


async def outage(code: Code, args: argparse.Namespace) -> Rows:
    rows: Rows = []
    with own_cluster("abuse") as (url, switch), _serve(code, db=url) as server:
        stop = asyncio.Event()
        games = [Honest() for _ in range(10)]
        players = [
            asyncio.get_running_loop().create_task(_play(server, _address(7, i), stop, h, 0.5))
            for i, h in enumerate(games)
        ]
        lobby = Counter[str]()
        asking = asyncio.Event()

        async def ask() -> None:
            async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
                while not asking.is_set():
                    try:
                        answer = await http.get("/api/games")
                        lobby[str(answer.status_code)] += 1
                    except httpx.HTTPError as err:
                        lobby[type(err).__name__] += 1
                    await asyncio.sleep(0.25)

        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            kept = await _new_game(http, _address(8, 0))
        hellos = Counter[str]()

        async def reload() -> None:  # a page reloaded: a seat's new connection says hello
            token = {"token": kept["seats"][0]["token"]}
            while not asking.is_set():
                try:
                    seat = await _connect(server, kept["game"], token, _address(8, 0))
                    hellos[await _first(seat)] += 1
                    await _close([seat])
                except Exception as err:  # a refused handshake
                    hellos[type(err).__name__] += 1
                await asyncio.sleep(0.25)

        asker = asyncio.get_running_loop().create_task(ask())
        reloader = asyncio.get_running_loop().create_task(reload())
        await asyncio.sleep(5)
        down = time.monotonic()
        await asyncio.to_thread(switch, False)
        await asyncio.sleep(10)
        await asyncio.to_thread(switch, True)
        up = time.monotonic()
        during = Counter(dict(lobby))
        reloaded = Counter(dict(hellos))
        await asyncio.sleep(10)
        stop.set()
        asking.set()
        await asyncio.gather(*players, asker, reloader)
        end = time.monotonic()
        failed = Counter[str]()
        for honest in games:
            failed.update(kind for at, kind in honest.failures if down <= at <= end)
        after = [at for h in games for at, _lat in h.moves if at > up]
        log = server.log.read_text() if server.log.exists() else ""
    log = server.log.read_text()
    rows.append(
        (
            "outage: 'Exception in ASGI application' in the log",
            str(log.count("Exception in ASGI application")),
        )
    )
    rows.append(
        (
            "outage: 'Task exception was never retrieved'",
            str(log.count("Task exception was never retrieved")),
        )
    )
    rows.append(("outage: 'Traceback' in the log", str(log.count("Traceback"))))
    rows.append(
        (
            "outage: the honest moves' failures",
            ", ".join(f"{k} {v}" for k, v in failed.most_common(4)) or "none",
        )
    )
    rows.append(
        (
            "outage: a seat's new connections (5 s up, 10 s down)",
            ", ".join(f"{k} {v}" for k, v in sorted(reloaded.items())),
        )
    )
    rows.append(
        (
            "outage: the lobby's answers (5 s up, 10 s down)",
            ", ".join(f"{k} {v}" for k, v in sorted(during.items())),
        )
    )
    first = f"{min(after) - up:.1f} s" if after else "never"
    rows.append(
        ("outage: moves in the 10 s after the restart (the first after)", f"{len(after)} ({first})")
    )
    return rows


SCENARIOS = {
    "spectators": spectators,
    "replays": replays,
    "hello": hello,
    "slow-heads": slow_heads,
    "outage": outage,
}


# ---- the run -----------------------------------------------------------------------------


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def _code(label: str, ref: str | None, folder: Path) -> Code:
    if ref is None:
        tree, commit = ROOT, _git("rev-parse", "--short", "HEAD") + " (this checkout)"
    elif Path(ref).is_dir():  # a checkout of its own, left as it is
        tree = Path(ref).resolve()
        commit = _git("-C", str(tree), "rev-parse", "--short", "HEAD")
    else:
        tree = folder / label
        _git("worktree", "add", "--detach", str(tree), ref)
        commit = _git("-C", str(tree), "rev-parse", "--short", "HEAD")
    code = Code(label, tree, commit)
    code.options = subprocess.run(
        [sys.executable, "-m", "exact61", "serve", "--help"],
        env=code.env(str(folder)),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--before", required=True, help="the earlier version: a commit, or a checkout's folder"
    )
    parser.add_argument(
        "--after", default=None, help="the later version, likewise (default: this checkout)"
    )
    parser.add_argument("--only", default=None, help="comma-separated: " + ",".join(SCENARIOS))
    parser.add_argument("--outage", action="store_true", help="also the PostgreSQL outage")
    parser.add_argument("--seconds", type=float, default=10.0, help="each flood's length")
    parser.add_argument(
        "--cap", type=int, default=10_050, help="connections for the cap (0: leave it out)"
    )
    parser.add_argument("--json", default=None, help="also write the rows to this file")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    chosen = (
        args.only.split(",")
        if args.only
        else [s for s in SCENARIOS if s != "outage" or args.outage]
    )
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        codes: list[Code] = []
        try:
            codes.append(_code("before", args.before, folder))
            codes.append(_code("after", args.after, folder))
            results: dict[str, dict[str, str]] = {}
            order: list[str] = []
            for name in chosen:
                for code in codes:
                    began = time.monotonic()
                    rows = asyncio.run(SCENARIOS[name](code, args))
                    print(
                        f"{name}, {code.label}: {time.monotonic() - began:.0f} s", file=sys.stderr
                    )
                    for what, value in rows:
                        if what not in results:
                            order.append(what)
                            results[what] = {}
                        results[what][code.label] = value
        finally:
            for code in codes:
                if code.tree.parent == folder:  # a worktree made here
                    _git("worktree", "remove", "--force", str(code.tree))
    print(f"| measurement | before (`{codes[0].commit}`) | after (`{codes[1].commit}`) |")
    print("|---|---|---|")
    for what in order:
        print(f"| {what} | {results[what].get('before', '')} | {results[what].get('after', '')} |")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"codes": [c.commit for c in codes], "rows": results}, indent=2)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
