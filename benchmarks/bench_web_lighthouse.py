"""Lighthouse on the web page's table (issue 24): the accessibility score and the layout shift
(CLS) at a phone's size (390 x 844) and a desktop's (1280 x 800), as a seat and as a spectator.

    pip install -e ".[server,bench]"
    npm install --prefix /tmp/lh2 -E lighthouse@12.8.2
    python benchmarks/bench_web_lighthouse.py --lighthouse /tmp/lh2/node_modules/.bin/lighthouse

Lighthouse 13 wants Node 22; 12.2 cannot read the trace of Chromium 156 (NO_NAVSTART), 12.8
can. A throwaway `exact61 serve` on a loopback port and a SQLite file; Debian's Chromium
(CHROME_PATH, default /usr/bin/chromium) with the flags the browser tests use
(tests/web/chromium.py, read from this checkout). Each page is audited `--runs` times in a fresh
browser; the table gives the lowest score and the highest CLS seen. The reports (JSON) stay in
`--out` when it is given.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

# The browser tests' flags, from this checkout's tests/ (not a package of the installed program)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.web.chromium import FLAGS

SIZES = {
    "phone 390x844": [
        "--form-factor=mobile",
        "--screenEmulation.mobile",
        "--screenEmulation.width=390",
        "--screenEmulation.height=844",
        "--screenEmulation.deviceScaleFactor=3",
    ],
    "desktop 1280x800": [
        "--preset=desktop",
        "--screenEmulation.width=1280",
        "--screenEmulation.height=800",
        "--screenEmulation.deviceScaleFactor=1",
    ],
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def serve(folder: Path):  # type: ignore[no-untyped-def]
    port = free_port()
    command = [sys.executable, "-m", "exact61", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{folder / 'games.sqlite3'}", "--bot-workers", "0"]
    env = {**os.environ, "EXACT61_DATA_DIR": str(folder / "data")}
    log = folder / "server.log"
    process = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/api/games", timeout=5).status_code == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(log.read_text()[-3000:])
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(20)


def lighthouse_command(given: str | None) -> list[str]:
    if given:
        return [given]
    found = shutil.which("lighthouse")
    return [found] if found else ["npx", "--yes", "lighthouse@12.8.2"]


def audit(command: list[str], url: str, size: list[str], report: Path) -> tuple[float, float]:
    """One Lighthouse run: (accessibility score 0-100, cumulative layout shift)."""
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    run = [
        *command,
        url,
        "--quiet",
        "--only-categories=accessibility,performance",
        "--output=json",
        f"--output-path={report}",
        f"--chrome-flags={' '.join(FLAGS)}",
        *size,
    ]
    for attempt in range(3):  # a trace Lighthouse could not read: it says to run it again
        done = subprocess.run(run, env=env, timeout=300, capture_output=True, text=True)
        if done.returncode == 0:
            break
        print(f"  lighthouse failed (attempt {attempt + 1}): {done.stderr.strip()[-300:]}")
    else:
        raise SystemExit("lighthouse failed three times")
    data = json.loads(report.read_text())
    score = data["categories"]["accessibility"]["score"] * 100
    cls = data["audits"]["cumulative-layout-shift"]["numericValue"]
    return score, cls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lighthouse", help="the lighthouse command (default: on PATH, or npx)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, help="keep the JSON reports in this folder")
    args = parser.parse_args()
    command = lighthouse_command(args.lighthouse)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        out = args.out or folder
        out.mkdir(parents=True, exist_ok=True)
        with serve(folder) as url:
            print(f"{'page':<22} {'size':<18} {'accessibility':>13} {'CLS':>7}")
            for size, flags in SIZES.items():
                # a new game for each size: the seat is to act (it opens, or the bot has moved)
                body = {"players": 2, "seats": ["human", "bot:greedy"]}
                game = httpx.post(f"{url}/api/games", json=body, timeout=30).json()
                pages = {
                    "table (seat 0)": url + game["seats"][0]["url"],
                    "table (spectator)": f"{url}/g/{game['game']}/watch",
                }
                for name, address in pages.items():
                    scores, shifts = [], []
                    for run in range(args.runs):
                        slug = f"{name.split()[1].strip('()')}-{size.split()[0]}-{run}.json"
                        score, cls = audit(command, address, flags, out / slug)
                        scores.append(score)
                        shifts.append(cls)
                    print(f"{name:<22} {size:<18} {min(scores):>13.0f} {max(shifts):>7.3f}")


if __name__ == "__main__":
    main()
