"""Load on `exact61 serve`: N concurrent games over loopback WebSockets, each seat a client that
plays a legal move after a think time, so each game makes a move every `--interval` seconds.

    pip install -e ".[server,bench]"
    python benchmarks/bench_server_load.py --games 1000 --interval 2 --seconds 60
    python benchmarks/bench_server_load.py --games 1000 --db postgresql+psycopg://...
    python benchmarks/bench_server_load.py --games 1000 --addresses 100   # every limit on

The server runs as its own process (`exact61 serve`, no bots, its default limits but those on
the new games and the connections one address may make: every game here comes from one
address); this process is every client. Reported: moves per second; move latency, from a
client sending its `act` to every client of that game holding the new `state` (p50, p95,
p99, max); the server's memory per game (resident memory with the games connected, less before any
game, over N); the server's CPU per move; errors (error frames, lost connections, moves not
answered within 10 s).

The server runs with `EXACT61_TIMINGS` set (`exact61.server.timings`), so each move's round trip
is split into its legs, all on the machine's one monotonic clock: to the server (from the
client's send until the server's handler has the frame: the kernel, and the server's event
loop getting round to it), storing (checked, applied and committed), building (every
recipient's frame made and queued), writing (the last of them handed to its socket), and to the
clients (until the last client's loop has read and parsed it). "server" is the sum of the
three legs inside the server, from the frame's receipt to the last frame written. How late each
event loop runs a callback that is due (its queue) is probed every 10 ms on both sides.

    --server-cpus 0 --client-cpus 1   # the server on one core, the clients on the other
    --profile FILE                    # py-spy samples of the server while measuring (raw)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

try:  # the clients parse every frame: orjson keeps this process from being the bottleneck
    from orjson import loads as parse_frame
except ImportError:  # pragma: no cover - the bench extra installs it
    parse_frame = json.loads


def _raise_file_limit() -> int:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _cpu_seconds(pid: int, stat: str | None = None) -> float:
    fields = Path(stat or f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _loop_cpu_seconds(pid: int) -> float:
    """The CPU time of the process's main thread: the one its event loop runs in."""
    return _cpu_seconds(pid, f"/proc/{pid}/task/{pid}/stat")


_KEPT = ("seq", "to_act", "winner", "legal", "forced")
LAG_STEP = 0.01  # seconds between the event loop's probes, as the server's


@dataclass
class Seat:
    conn: Any
    seq: int = 0
    state: dict[str, Any] | None = None
    arrived: dict[int, float] = field(default_factory=dict)
    event: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    trips: list[tuple[str, int, float, float]] = field(default_factory=list)  # game, seq, times
    lags: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    finished: int = 0
    measuring: bool = False


async def _read(seat: Seat, totals: Totals) -> None:
    try:
        async for text in seat.conn:
            frame = parse_frame(text)
            kind = frame.get("type")
            if kind == "state":
                # Keep only what a move needs: whole frames kept for seconds filled this
                # process's heap, and its collector's pauses showed up as server latency.
                seat.state = {k: frame[k] for k in _KEPT if k in frame}
                seat.seq = frame["seq"]
                seat.arrived[frame["seq"]] = time.monotonic()
                seat.event.set()
            elif kind == "error":
                totals.errors.append(f"error frame: {frame.get('code')}")
    except websockets.ConnectionClosed as err:
        totals.errors.append(f"connection lost: {err}")


async def _until(seat: Seat, seq: int, deadline: float) -> bool:
    while seat.seq < seq:
        seat.event.clear()
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(left):  # no task per wait, unlike wait_for
                await seat.event.wait()
    return True


async def _probe(totals: Totals, stop: asyncio.Event) -> None:
    while not stop.is_set():
        due = time.monotonic() + LAG_STEP
        await asyncio.sleep(LAG_STEP)
        if totals.measuring:
            totals.lags.append(time.monotonic() - due)


async def _play(
    game: str, seats: list[Seat], interval: float, stop: asyncio.Event, totals: Totals
) -> None:
    rng = random.Random()
    await asyncio.sleep(rng.uniform(0, interval))  # games out of step with each other
    while not stop.is_set():
        state = max((s.state for s in seats if s.state), key=lambda f: f["seq"])
        if state["winner"] is not None:
            totals.finished += 1
            return
        mover = seats[state["to_act"]]
        mine = mover.state
        assert mine is not None and mine["seq"] == state["seq"] and "legal" in mine
        if mine.get("forced") is not None:  # a draw or pass R10 forces: the server plays it
            if not all([await _until(s, mine["seq"] + 1, time.monotonic() + 10) for s in seats]):
                totals.errors.append("a forced action was not played within 10 s")
                return
            continue
        legal = mine["legal"]
        sent = time.monotonic()
        await mover.conn.send(
            json.dumps({"type": "act", "seq": mine["seq"], "action": rng.choice(legal)})
        )
        target = mine["seq"] + 1
        deadline = sent + 10
        if not all([await _until(s, target, deadline) for s in seats]):
            totals.errors.append("a move was not answered within 10 s")
            return
        arrived = max(s.arrived[target] for s in seats)
        latency = arrived - sent
        for s in seats:
            s.arrived.clear()
        if totals.measuring:
            totals.latencies.append(latency)
            totals.trips.append((game, target, sent, arrived))
            totals.moves += 1
        await asyncio.sleep(max(0.0, interval - latency))


def _address(args: argparse.Namespace, game: int) -> dict[str, str]:
    """The headers that make game `game`'s clients come from their own address (`--addresses`:
    the games spread over that many, through the proxy header the server trusts from loopback);
    none with one address."""
    if args.addresses <= 1:
        return {}
    spot = game % args.addresses  # in 198.18.0.0/15, the range set aside for benchmarks
    return {"x-forwarded-for": f"198.{18 + spot // 65536 % 2}.{spot // 256 % 256}.{spot % 256}"}


async def _run(
    args: argparse.Namespace, urls: list[str], pids: list[int]
) -> tuple[dict[str, Any], Totals, tuple[float, float]]:
    """Games made on the first server; seat i of every game connects to server i mod N. Returns
    the figures, what the clients noted, and the measurement's window (monotonic)."""
    totals = Totals()
    base_rss = sum(map(_rss_kib, pids))
    url = urls[0]
    seat_kinds = ["human"] * args.players
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        made = await asyncio.gather(
            *[
                http.post(
                    "/api/games",
                    json={"players": args.players, "seats": seat_kinds},
                    headers=_address(args, index),
                )
                for index in range(args.games)
            ]
        )
    refused = [g for g in made if g.status_code != 201]
    if refused:
        raise SystemExit(f"the server refused {len(refused)} new games: {refused[0].text}")
    games = [g.json() for g in made]
    ports = [u.rsplit(":", 1)[1] for u in urls]
    tables: list[list[Seat]] = []
    readers = []
    for index, game in enumerate(games):
        seats = []
        for entry in game["seats"]:
            port = ports[entry["seat"] % len(ports)]
            conn = await websockets.connect(
                f"ws://127.0.0.1:{port}/ws/games/{game['game']}",
                max_size=2**20,
                ping_interval=None,
                additional_headers=_address(args, index),
            )
            await conn.send(json.dumps({"type": "hello", "token": entry["token"]}))
            seat = Seat(conn)
            readers.append(asyncio.get_running_loop().create_task(_read(seat, totals)))
            seats.append(seat)
        tables.append(seats)
    for seats in tables:
        for seat in seats:
            await _until(seat, 0, time.monotonic() + 30)
            while seat.state is None:
                await asyncio.sleep(0.01)
    connected_rss = sum(map(_rss_kib, pids))
    stop = asyncio.Event()
    players = [
        asyncio.get_running_loop().create_task(
            _play(game["game"], seats, args.interval, stop, totals)
        )
        for game, seats in zip(games, tables, strict=True)
    ]
    probe = asyncio.get_running_loop().create_task(_probe(totals, stop))
    await asyncio.sleep(args.warmup)
    # The clients are the instrument, not what is measured: their thousands of connections make
    # a large heap, and a garbage collection of it would stall every client at once. Their
    # collector is off while measuring (a minute of cyclic garbage is a few megabytes).
    gc.collect()
    gc.freeze()
    gc.disable()
    totals.measuring = True
    cpu0, t0 = sum(map(_cpu_seconds, pids)), time.perf_counter()
    loop0 = _loop_cpu_seconds(pids[0])
    window = (time.monotonic(), time.monotonic() + args.seconds)
    mine0 = time.process_time()
    spy = _start_profile(args.profile, pids[0], args.seconds) if args.profile else None
    await asyncio.sleep(args.seconds)
    totals.measuring = False
    gc.enable()
    elapsed, cpu = time.perf_counter() - t0, sum(map(_cpu_seconds, pids)) - cpu0
    loop_cpu = _loop_cpu_seconds(pids[0]) - loop0
    clients_cpu = time.process_time() - mine0
    peak_rss = sum(map(_rss_kib, pids))
    stop.set()
    await asyncio.gather(*players, probe, return_exceptions=True)
    if spy is not None:
        await asyncio.get_running_loop().run_in_executor(None, spy.wait)
    for seats in tables:
        for seat in seats:
            await seat.conn.close()
    for reader in readers:
        reader.cancel()
    lat = sorted(totals.latencies)
    figures = {
        "nodes": len(urls),
        "games": args.games,
        "players": args.players,
        "interval": args.interval,
        "seconds": round(elapsed, 1),
        "moves": totals.moves,
        "moves_per_second": round(totals.moves / elapsed, 1),
        "p50_ms": _ms(lat, 0.5),
        "p95_ms": _ms(lat, 0.95),
        "p99_ms": _ms(lat, 0.99),
        "max_ms": round(1000 * lat[-1], 1) if lat else None,
        "server_kib_per_game": round((connected_rss - base_rss) / args.games, 1),
        "server_rss_mib": round(peak_rss / 1024, 1),
        "server_cpu_ms_per_move": round(1000 * cpu / max(totals.moves, 1), 2),
        # the first server's event loop alone, and the share of a core it used: near 1, it is
        # saturated and every move queues
        "server_loop_cpu_ms_per_move": round(1000 * loop_cpu / max(totals.moves, 1), 2),
        "server_loop_cpu_share": round(loop_cpu / elapsed, 2),
        # the instrument's own load: near 1 CPU second a second, its clients lag, not the server
        "clients_cpu_ms_per_move": round(1000 * clients_cpu / max(totals.moves, 1), 2),
        "clients_cpu_share": round(clients_cpu / elapsed, 2),
        "errors": len(totals.errors),
        "error_kinds": sorted(set(totals.errors))[:5],
        "games_finished": totals.finished,
    }
    return figures, totals, window


def _ms(values: list[float], q: float) -> float | None:
    """The `q` quantile of sorted seconds, in ms."""
    return round(1000 * values[int(q * (len(values) - 1))], 1) if values else None


def _start_profile(path: str, pid: int, seconds: float) -> subprocess.Popen[bytes]:
    spy = Path(sys.executable).with_name("py-spy")
    command = [str(spy), "record", "-p", str(pid), "-d", str(int(seconds)), "-r", "100"]
    command += ["-f", "raw", "-o", path, "--nonblocking", "-t"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _legs(totals: Totals, window: tuple[float, float], notes: dict[str, Any]) -> dict[str, Any]:
    """Each measured move's round trip split into its legs, with the server's own notes of it
    (`EXACT61_TIMINGS`), and the two event loops' lateness while measuring."""
    server = {(game, seq): times for game, seq, *times in notes["moves"]}
    legs: dict[str, list[float]] = {
        name: [] for name in ("to_server", "storing", "building", "writing", "to_clients")
    }
    legs["server"] = []
    for game, seq, sent, arrived in totals.trips:
        times = server.get((game, seq))
        if times is None or not times[3]:
            continue
        received, stored, queued, written = times
        for name, value in zip(
            legs,
            (received - sent, stored - received, queued - stored, written - queued),
            strict=False,
        ):
            legs[name].append(value)
        legs["to_clients"].append(arrived - written)
        legs["server"].append(written - received)
    out: dict[str, Any] = {"moves_split": len(legs["server"])}
    for name, values in legs.items():
        values.sort()
        out[name] = {f"p{round(100 * q)}_ms": _ms(values, q) for q in (0.5, 0.95, 0.99)}
    start, end = window
    server_lags = sorted(lag for at, lag in notes["lags"] if start <= at <= end)
    client_lags = sorted(totals.lags)
    for side, lags in (("server_loop_late", server_lags), ("clients_loop_late", client_lags)):
        out[side] = {f"p{round(100 * q)}_ms": _ms(lags, q) for q in (0.5, 0.95, 0.99, 1.0)}
    return out


def _wait_until_up(process: subprocess.Popen[bytes], url: str) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise RuntimeError("a server stopped")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError("a server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument(
        "--interval", type=float, default=2.0, help="seconds between a game's moves"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the measurement")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument(
        "--addresses",
        type=int,
        default=1,
        help="spread the games' clients over this many addresses (X-Forwarded-For) and keep "
        "every per-address limit at its default",
    )
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    parser.add_argument(
        "--nodes", type=int, default=1, help="servers on one database (more than one: PostgreSQL)"
    )
    parser.add_argument("--server-cpus", default=None, help="CPUs the servers run on: 0 or 0,1")
    parser.add_argument("--client-cpus", default=None, help="CPUs the clients run on")
    parser.add_argument("--profile", default=None, help="py-spy's samples of the first server")
    parser.add_argument(
        "--uvloop", action="store_true", help="the clients on uvloop (if it is installed)"
    )
    args = parser.parse_args()
    files = _raise_file_limit()
    if args.nodes > 1 and not (args.db or "").startswith("postgresql"):
        parser.error(
            "several nodes share a PostgreSQL database: give --db postgresql+psycopg://..."
        )
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or f"sqlite:///{folder}/load.sqlite3"
        servers: list[tuple[subprocess.Popen[bytes], str, Path]] = []
        if args.client_cpus is not None:
            os.sched_setaffinity(0, {int(c) for c in args.client_cpus.split(",")})
        try:
            for node in range(args.nodes):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", 0))
                    port = probe.getsockname()[1]
                command = [sys.executable, "-m", "exact61", "serve", "--port", str(port)]
                if args.addresses > 1:  # every limit at its default, over many addresses
                    command += ["--forwarded-allow-ips", "127.0.0.1"]
                else:  # one address makes every game: lift the per-address limits
                    command += ["--games-per-minute", "1000000"]
                    command += ["--connections-per-address", "1000000"]
                command += ["--db", db, "--bot-workers", "0"]
                if args.server_cpus is not None:
                    command = ["taskset", "-c", args.server_cpus, *command]
                log = Path(folder) / f"server-{node}.log"
                notes = Path(folder) / f"timings-{node}.json"
                env = {**os.environ, "EXACT61_DATA_DIR": folder, "EXACT61_TIMINGS": str(notes)}
                process = subprocess.Popen(
                    command, stdout=log.open("w"), stderr=subprocess.STDOUT, env=env
                )
                servers.append((process, f"http://127.0.0.1:{port}", log))
                _wait_until_up(process, f"http://127.0.0.1:{port}")
            try:
                run = _run(args, [url for _, url, _ in servers], [p.pid for p, _, _ in servers])
                if args.uvloop:
                    import uvloop

                    result, totals, window = uvloop.run(run)
                else:
                    result, totals, window = asyncio.run(run)
            except BaseException:
                for _, _, log in servers:
                    print(log.read_text()[-3000:], file=sys.stderr)
                raise
        finally:
            for process, _, _ in servers:
                process.terminate()
                process.wait(60)
        notes_file = Path(folder) / "timings-0.json"
        if args.nodes == 1 and notes_file.exists():
            result["legs"] = _legs(totals, window, json.loads(notes_file.read_text()))
        result["server_cpus"] = args.server_cpus
        result["client_cpus"] = args.client_cpus
        result["database"] = "SQLite" if args.db is None else db.split(":", 1)[0]
        result["file_limit"] = files
        print(json.dumps(result, indent=2))
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
