"""How long `exact61 serve` takes to start on a database of many games in play (issue 23).

    pip install -e ".[server,bench]"
    python benchmarks/bench_server_start.py --games 10000              # this tree
    python benchmarks/bench_server_start.py --games 10000 --src /tmp/b  # another checkout

The games are made through the API of a first server of the same code (each a person and a
`greedy` bot, which moves at once where it opens), which then stops. The same database is then
served again `--repeats` times: the figure is the wall time from starting the process to its
first answer to `GET /api/games`, and its resident memory then.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start(db: str, folder: str, src: Path | None) -> tuple[subprocess.Popen[bytes], str, float]:
    """A server on `db`; returns it, its URL and the seconds until it first answered."""
    port = free_port()
    command = [sys.executable, "-m", "exact61", "serve", "--port", str(port), "--db", db]
    command += ["--bot-workers", "0", "--bot-delay", "0", "--games-per-minute", "1000000"]
    env = {**os.environ, "EXACT61_DATA_DIR": folder}
    if src is not None:
        env["PYTHONPATH"] = str(src.resolve() / "src")
    log = Path(folder) / f"server-{port}.log"
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/games", timeout=5).status_code == 200:
                return process, url, time.perf_counter() - started
        if process.poll() is not None:
            raise SystemExit(log.read_text()[-3000:])
        time.sleep(0.02)


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--src", type=Path, help="serve with this checkout's src/")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{folder}/start.sqlite3"
        maker, url, _ = start(db, folder, args.src)  # the schema of the code timed
        body = {"players": 2, "seats": ["human", "bot:greedy"]}
        try:
            with httpx.Client(timeout=30) as client, ThreadPoolExecutor(8) as pool:
                made = list(
                    pool.map(
                        lambda _: client.post(f"{url}/api/games", json=body).status_code,
                        range(args.games),
                    )
                )
            assert made.count(201) == args.games, "not every game was made"
            time.sleep(2)  # the bots' first moves are stored
        finally:
            maker.terminate()
            maker.wait(60)
        starts, memory = [], []
        for _ in range(args.repeats):
            process, _url, seconds = start(db, folder, args.src)
            starts.append(seconds)
            memory.append(resident_mb(process.pid))
            process.terminate()
            process.wait(60)
    result = {
        "games": args.games,
        "code": str(args.src) if args.src else "this tree",
        "start_seconds": [round(s, 2) for s in starts],
        "resident_mb": [round(m) for m in memory],
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
