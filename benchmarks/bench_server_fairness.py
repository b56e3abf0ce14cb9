"""One client's bots against another's on `exact61 serve` (issue 23): how long a bot takes to
answer a person while another address keeps the bots' processes busy.

    pip install -e ".[server,bench]"
    python benchmarks/bench_server_fairness.py                     # this tree, ~2 minutes
    python benchmarks/bench_server_fairness.py --src /tmp/before   # another checkout's code

A flooding address makes `--games` games, each a person and three `ismcts:5000` bots, and plays
its person's moves at once, so that its bots always have searches waiting. A second address
plays one game, a person against one `ismcts:5000` bot, and times each of its moves: from
sending `act` to the state in which it is to act again (the bot has answered). The same is
timed first with no flood, so the table gives the bot's own thinking beside the wait the flood
adds. The server runs as its own process with two bot workers and no bot delay, trusting the
loopback proxy's X-Forwarded-For so that one machine can be two addresses.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

FLOOD, PLAYER = "203.0.113.1", "198.51.100.2"
BOT = "bot:ismcts:5000"


def create(url: str, seats: list[str], address: str) -> dict[str, Any]:
    body = {"players": len(seats), "seats": seats}
    answer = httpx.post(f"{url}/api/games", json=body, headers={"x-forwarded-for": address})
    answer.raise_for_status()
    result: dict[str, Any] = answer.json()
    return result


def ws_url(url: str, game: str) -> str:
    return url.replace("http://", "ws://") + f"/ws/games/{game}"


async def play(url: str, game: dict[str, Any], address: str, moves: int | None) -> list[float]:
    """Play the game's person (seat 0) with the first legal action each turn, `moves` times
    (None: until stopped); return the seconds from each `act` to the person's next turn."""
    token = game["seats"][0]["token"]
    waits: list[float] = []
    headers = {"x-forwarded-for": address}
    async with websockets.connect(ws_url(url, game["game"]), additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: float | None = None
        async for text in ws:
            frame = json.loads(text)
            if frame.get("type") != "state" or frame.get("status") != "playing":
                if frame.get("status") == "over":
                    return waits
                continue
            if frame.get("to_act") != 0 or "legal" not in frame:
                continue
            if sent is not None:
                waits.append(time.perf_counter() - sent)
                if moves is not None and len(waits) >= moves:
                    return waits
            act = {"type": "act", "seq": frame["seq"], "action": frame["legal"][0]}
            sent = time.perf_counter()
            await ws.send(json.dumps(act))
    return waits


async def timed_moves(url: str, moves: int) -> list[float]:
    waits: list[float] = []
    while len(waits) < moves:  # a match may end first: play another
        game = create(url, ["human", BOT], PLAYER)
        waits += await play(url, game, PLAYER, moves - len(waits))
    return waits


async def run(url: str, games: int, moves: int) -> dict[str, Any]:
    alone = await timed_moves(url, moves)
    flood = [create(url, ["human", BOT, BOT, BOT], FLOOD) for _ in range(games)]
    tasks = [asyncio.ensure_future(play(url, g, FLOOD, None)) for g in flood]
    await asyncio.sleep(5)  # the flood's searches queue up
    flooded = await timed_moves(url, moves)
    for task in tasks:
        task.cancel()
    with contextlib.suppress(BaseException):
        await asyncio.gather(*tasks, return_exceptions=True)

    def summary(waits: list[float]) -> dict[str, float]:
        ordered = sorted(waits)
        return {
            "median": round(statistics.median(ordered), 3),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
            "max": round(ordered[-1], 3),
        }

    return {"alone": summary(alone), "flooded": summary(flooded), "moves": moves}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="the flooding address's games")
    parser.add_argument("--moves", type=int, default=20, help="moves timed, alone and flooded")
    parser.add_argument("--src", type=Path, help="run the server from this checkout's src/")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        command = [sys.executable, "-m", "exact61", "serve", "--port", str(port)]
        command += ["--db", f"sqlite:///{folder}/fair.sqlite3", "--bot-delay", "0"]
        command += ["--bot-workers", "2", "--games-per-minute", "1000000"]
        command += ["--forwarded-allow-ips", "127.0.0.1"]
        env = {**os.environ, "EXACT61_DATA_DIR": folder}
        if args.src is not None:
            env["PYTHONPATH"] = str(args.src.resolve() / "src")
        log = Path(folder) / "server.log"
        process = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/api/games", timeout=2).status_code == 200:
                        break
                if process.poll() is not None or time.monotonic() > deadline:
                    print(log.read_text()[-3000:], file=sys.stderr)
                    return 1
                time.sleep(0.2)
            result = asyncio.run(run(url, args.games, args.moves))
        finally:
            process.terminate()
            process.wait(30)
    result["games"] = args.games
    result["code"] = str(args.src) if args.src else "this tree"
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
