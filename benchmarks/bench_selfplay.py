"""Random self-play speed on one core, against the PyPI package `dominoes` as a peer baseline.

    pip install -e ".[bench]"
    python benchmarks/bench_selfplay.py            # a few minutes
    python benchmarks/bench_selfplay.py --seconds 1 --matches 2000  # a quick look

For 2, 3 and 4 players:
- the engine: whole matches of uniform random play through the public API (`legal_actions()`
  then `apply()`), counting actions (placements, draws, passes), placements and matches;
- the game loop: the same through the simulation driver (`Table.play_out`), asking a `random`
  bot each choice (a blind bot: no view is built for it);
- `exact61 simulate` end to end: the real command in a child process, start-up and writing every
  record to a file included (`--matches` matches).
and the random-play moves per second of `dominoes` (4-player block game, moves are
placements). Rates are per second of CPU time of the process doing the work (the child's, for
`simulate`), so other load on the machine disturbs them little. Each figure is the best of
`--repeats` runs, and each run is paired with a run of the peer just before it: the machine's
speed drifts by a fifth over minutes on a shared host, so a figure is compared with the peer
measured beside it (its best over the same pairs), not with one measured minutes earlier.
Prints a Markdown table for docs/figures/.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from exact61 import Match, Play
from exact61.simulation.driver import play_match

clock = time.process_time  # CPU time of this process


@dataclass
class Rate:
    actions: float
    placements: float
    matches: float


def _selfplay(players: int, seconds: float, seed: int) -> Rate:
    rng = random.Random(seed)
    actions = placements = matches = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        match = Match(players)
        while not match.is_over:
            match.deal_next_round(rng)
            while match.to_act is not None:
                legal = match.legal_actions()
                match.apply(legal[int(rng.random() * len(legal))])
        actions += sum(len(r.steps) for r in match.rounds)
        placements += sum(1 for r in match.rounds for s in r.steps if isinstance(s.action, Play))
        matches += 1
    elapsed = clock() - start
    return Rate(actions / elapsed, placements / elapsed, matches / elapsed)


def _driver(players: int, seconds: float, seed: int) -> Rate:
    actions = placements = matches = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        match = play_match(players, seed + matches, ["random"] * players)
        actions += sum(len(r.steps) for r in match.rounds)
        placements += sum(1 for r in match.rounds for s in r.steps if isinstance(s.action, Play))
        matches += 1
    elapsed = clock() - start
    return Rate(actions / elapsed, placements / elapsed, matches / elapsed)


def _simulate(players: int, matches: int, seed: int) -> Rate:
    """`exact61 simulate` in a child process, from start-up to the last record written."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "m.jsonl"
        command = [sys.executable, "-m", "exact61", "simulate", "--players", str(players)]
        command += ["--matches", str(matches), "--seed", str(seed), "--out", str(out)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert len(out.read_text().splitlines()) == matches
    elapsed = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = re.search(r"([\d,]+) actions in", done.stdout)
    assert found, done.stdout
    actions = int(found.group(1).replace(",", ""))
    return Rate(actions / elapsed, float("nan"), matches / elapsed)


def _peer(seconds: float, seed: int) -> Rate | None:
    try:
        import dominoes  # type: ignore[import-untyped]
    except ImportError:
        return None
    random.seed(seed)  # dominoes draws from the global source
    moves = games = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        game = dominoes.Game.new()
        while game.result is None:
            dominoes.players.random(game)
            domino, left = game.valid_moves[0]
            game.make_move(domino, left)
            moves += 1
        games += 1
    elapsed = clock() - start
    return Rate(moves / elapsed, moves / elapsed, games / elapsed)


def _paired(
    run: Callable[[], Rate], peer: Callable[[], Rate | None], repeats: int
) -> tuple[Rate, Rate | None]:
    """The best of `repeats` runs of `run`, and the best of the peer's runs, each just before."""
    ours: list[Rate] = []
    theirs: list[Rate] = []
    for _ in range(repeats):
        other = peer()
        if other is not None:
            theirs.append(other)
        ours.append(run())
    best_peer = max(theirs, key=lambda r: r.actions) if theirs else None
    return max(ours, key=lambda r: r.actions), best_peer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="CPU seconds of one run")
    parser.add_argument("--matches", type=int, default=20_000, help="matches per simulate run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (best kept)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores;")
    print("rates per CPU second of one process; `vs peer`: against the peer measured beside it")
    print()
    print("| what | players | actions/s | placements/s | matches/s | peer moves/s | vs peer |")
    print("|---|---|---:|---:|---:|---:|---:|")
    worst: dict[str, float] = {}
    peers: list[Rate] = []
    rows: list[tuple[str, Callable[[int], Rate]]] = [
        ("exact61 engine, random self-play", lambda p: _selfplay(p, args.seconds, args.seed)),
        ("exact61 game loop, random bots", lambda p: _driver(p, args.seconds, args.seed)),
        (
            f"`exact61 simulate` end to end ({args.matches:,} matches, records written)",
            lambda p: _simulate(p, args.matches, args.seed),
        ),
    ]
    for name, run in rows:
        for players in (2, 3, 4):
            rate, peer = _paired(
                lambda p=players, r=run: r(p),  # type: ignore[misc]
                lambda: _peer(args.seconds, args.seed),
                args.repeats,
            )
            ratio = rate.actions / peer.actions if peer else float("nan")
            if peer:
                peers.append(peer)
            worst[name] = min(worst.get(name, ratio), ratio)
            placements = "-" if rate.placements != rate.placements else f"{rate.placements:,.0f}"
            beside = f"{peer.actions:,.0f}" if peer else "-"
            print(
                f"| {name} | {players} | {rate.actions:,.0f} | {placements} | "
                f"{rate.matches:,.1f} | {beside} | {ratio:.2f}x |"
            )
    if not peers:
        print("\n`dominoes` is not installed: pip install -e '.[bench]' for the peer baseline.")
        return 0
    low, high = min(r.actions for r in peers), max(r.actions for r in peers)
    print()
    print(f"Peer `dominoes`, 4-player random play: {low:,.0f} to {high:,.0f} moves/s over the run.")
    for name, ratio in worst.items():
        print(f"Slowest {name}: {ratio:.2f}x the peer's moves per second (target 1.5x).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
