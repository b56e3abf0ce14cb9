"""Matches per second past one process: the process pool and a local Ray cluster, 1 and 2 workers.

    pip install -e ".[scale]"
    python benchmarks/bench_scale.py                      # 10-20 minutes on 2 cores
    python benchmarks/bench_scale.py --matches 2000 --repeats 1   # a quick look

Each run plays `--matches` matches exactly as `exact61 simulate --players 4 --bot random` does
(`simulate_lines` on the backend, every record line written to a file and flushed, the summary
counted), after a warm-up run on the same backend (worker start-up and imports are not
counted; the Ray cluster's start-up is measured on its own). The backends take turns, one run
each a round, so the machine's other load falls on all alike. Random bots make the cheapest
matches there are, so the scheduling's own cost shows most.

Per run it measures the wall time and the CPU time of every process doing the work: this
process (the driver, which receives and writes every record) and every live descendant (pool
workers; Ray's workers, raylet and GCS), read from /proc before and after. The machine may be
shared: CPU time is what other load disturbs least. The scheduling's own cost per match is
too small to see beside a match's (other load moves that by more), so it is measured with a
stand-in: a job that sleeps as long as a match takes in one process (so batches are the same
size) and returns a record line of the mean length, costing no CPU itself. The scheduling CPU
per match is then the stand-in's CPU per match, all processes, on the backend less in one
process; the driver CPU per match is the stand-in run's own process: what the one process that
receives and writes every record spends on each. Each figure is the best of `--repeats` runs
(the least CPU, the most matches per second): other load only ever adds to them. A Ray
cluster also spends CPU when idle (its raylet and GCS poll): that is measured over `--idle`
seconds with nothing to do, shown apart (per second) and taken out of the other figures.
Prints a Markdown table for docs/figures/.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from exact61 import replay
from exact61.scale import Backend, ProcessBackend, run_in_order
from exact61.simulation.runs import simulate_lines, simulated_line
from exact61.simulation.summary import MatchTotals, Summary

TICK = os.sysconf("SC_CLK_TCK")
PLAYERS = 4


def _tree_cpu() -> float:
    """CPU seconds used so far by this process and its live descendants (with the children
    each of them has reaped)."""
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        pid = int(entry.name)
        parent[pid] = int(fields[1])
        used[pid] = sum(int(f) for f in fields[11:15]) / TICK  # utime stime cutime cstime
    me = os.getpid()
    tree, todo = {me}, [me]
    children: dict[int, list[int]] = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    while todo:
        for child in children.get(todo.pop(), []):
            tree.add(child)
            todo.append(child)
    return sum(used.get(pid, 0.0) for pid in tree)


@dataclass
class Run:
    wall: float
    cpu: float  # every process (in the table: less what they use when idle)
    driver: float  # this process alone
    bytes: int


def _stand_in(line: str, totals: MatchTotals, seconds: float, index: int) -> tuple[str, Any]:
    """A match that costs no CPU: as long as a real one, the same record line back."""
    time.sleep(seconds)
    return line, totals


def _write(lines: Iterator[tuple[str, MatchTotals]], matches: int) -> Run:
    """What `exact61 simulate` does with the lines: write and flush each, count the summary."""
    summary = Summary()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.jsonl"
        cpu, driver, wall = _tree_cpu(), time.process_time(), time.perf_counter()
        with path.open("w") as sink:
            for text, totals in lines:
                sink.write(text + "\n")
                sink.flush()
                summary.add_totals(totals)
        wall = time.perf_counter() - wall
        driver = time.process_time() - driver
        cpu = _tree_cpu() - cpu
        size = path.stat().st_size
    assert summary.matches == matches
    return Run(wall, cpu, driver, size)


def _play(backend: Backend | None, matches: int, seed: int) -> Run:
    bots = ["random"] * PLAYERS
    return _write(simulate_lines(PLAYERS, matches, seed, bots, backend), matches)


def _schedule_only(backend: Backend | None, matches: int, line: str, seconds: float) -> Run:
    play = partial(_stand_in, line, MatchTotals.of(replay(line)), seconds)
    return _write(run_in_order(play, range(matches), backend), matches)


@contextmanager
def _pool(workers: int) -> Iterator[Backend]:
    pool = ProcessBackend(workers)
    try:
        yield pool
    finally:
        pool.close()


@contextmanager
def _ray(workers: int, started: list[float]) -> Iterator[Backend]:
    from exact61.scale.ray_backend import RayBackend

    clock = time.perf_counter()
    cluster = RayBackend(workers)
    started.append(time.perf_counter() - clock)
    try:
        yield cluster
    finally:
        cluster.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000, help="matches per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (best kept)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle measurement")
    parser.add_argument("--skip-ray", action="store_true")
    args = parser.parse_args()

    ray_start: list[float] = []
    setups: list[tuple[str, int, Callable[[], AbstractContextManager[Backend | None]]]] = [
        ("one process (`--workers 1`)", 1, lambda: nullcontext(None)),
        ("process pool", 1, lambda: _pool(1)),
        ("process pool", 2, lambda: _pool(2)),
    ]
    if not args.skip_ray:
        setups += [
            ("Ray, local cluster", 1, lambda: _ray(1, ray_start)),
            ("Ray, local cluster", 2, lambda: _ray(2, ray_start)),
        ]
    load = os.getloadavg()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores;")
    print(f"{args.matches:,} random 4-player matches a run, best of {args.repeats} runs;")
    print(f"load average at the start {load[0]:.1f}")
    print()
    print(
        "| backend | workers | matches/s (wall) | speed-up (wall) | CPU ms per match, all "
        "processes | scheduling CPU per match | driver CPU per match | idle CPU |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    # the stand-in: a record line of about the mean length, as long as a match in one process
    lines = [simulated_line(PLAYERS, args.seed, ["random"] * PLAYERS, i)[0] for i in range(50)]
    mean = sum(map(len, lines)) / len(lines)
    line = min(lines, key=lambda text: abs(len(text) - mean))
    # Rounds: every backend once a round, so a change in the machine's other load falls on all
    # of them alike; a Ray cluster is started afresh each round.
    seconds = 0.0
    plays: dict[int, list[Run]] = {i: [] for i in range(len(setups))}
    stand_ins: dict[int, list[Run]] = {i: [] for i in range(len(setups))}
    idles: dict[int, list[float]] = {i: [] for i in range(len(setups))}
    for _ in range(args.repeats):
        for i, (_, _, make) in enumerate(setups):
            with make() as backend:
                _play(backend, max(args.matches // 10, 200), args.seed + 1)  # warm-up
                idle = _tree_cpu()
                time.sleep(args.idle)
                idles[i].append((_tree_cpu() - idle) / args.idle)  # CPU s a second, no work
                plays[i].append(_play(backend, args.matches, args.seed))
                if not seconds:  # a match on one core, from the first run in one process
                    seconds = plays[i][0].cpu / args.matches
                stand_ins[i].append(_schedule_only(backend, args.matches, line, seconds))
    base: Run | None = None
    base_schedule = 0.0
    for i, (name, workers, _) in enumerate(setups):
        idle = min(idles[i])
        run = Run(
            min(r.wall for r in plays[i]),
            min(r.cpu - idle * r.wall for r in plays[i]),
            min(r.driver for r in plays[i]),
            plays[i][0].bytes,
        )
        schedule = min(r.cpu - idle * r.wall for r in stand_ins[i]) / args.matches
        driver = min(r.driver for r in stand_ins[i]) / args.matches
        if base is None:
            base, base_schedule = run, schedule
        print(
            f"| {name} | {workers} | {args.matches / run.wall:,.0f} | "
            f"{base.wall / run.wall:.2f}x | {1000 * run.cpu / args.matches:.3f} | "
            f"{'-' if run is base else f'{1e6 * (schedule - base_schedule):,.0f} µs'} | "
            f"{1e6 * driver:,.0f} µs | {100 * idle:.1f}% |"
        )
    assert base is not None
    print()
    print(f"Record bytes per match: {base.bytes / args.matches:,.0f}; stand-in line {len(line):,}")
    print(f"Stand-in match: {1000 * seconds:.2f} ms of sleep; in one process it costs ")
    print(f"{1e6 * base_schedule:,.0f} µs of CPU (writing the line, the summary, the sleep call)")
    if ray_start:
        print(f"Local Ray cluster start-up: {', '.join(f'{s:.1f} s' for s in ray_start)}")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
