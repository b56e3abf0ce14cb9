"""Random self-play speed on one core, on both engines, against the PyPI package `dominoes` as a
peer baseline.

    pip install -e ".[bench]"
    python benchmarks/bench_selfplay.py            # a few minutes
    python benchmarks/bench_selfplay.py --seconds 1 --matches 2000  # a quick look

For 2, 3 and 4 players, each on the Python engine and on the native one (`exact61.core.engines`;
the Python rows are what a pure install, `EXACT61_COMPILE=0`, runs):
- the engine: whole matches of uniform random play through the public API (`legal_actions()`
  then `apply()`), counting actions (placements, draws, passes), placements and matches;
- the engine's own playouts: matches of random moves with nothing else, the Python engine's
  functions on its positions in a plain loop, or the native core's loop (`_native.playouts`);
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
from exact61.core import engine, engines
from exact61.core.deal import round_chance
from exact61.simulation.driver import bot_table

ENGINES = ("python", "native")

clock = time.process_time  # CPU time of this process


@dataclass
class Rate:
    actions: float
    placements: float
    matches: float


def _selfplay(players: int, seconds: float, seed: int, on: str) -> Rate:
    rng = random.Random(seed)
    actions = placements = matches = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        match = Match(players, engine=engines.named(on))
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


def random_playouts(players: int, matches: int, seed: int) -> int:
    """The Python engine's own playouts: `matches` matches of uniformly random moves on search
    positions (no book, no match around them), every draw from `random.Random(seed)`; the
    native core's `random_playouts` plays the same loop, so the same moves. The actions."""
    rng = random.Random(seed)
    actions = 0
    for _ in range(matches):
        sides = 2 if players == 4 else players
        scores: tuple[int, ...] = (0,) * sides
        required = None
        while engine.TARGET_RAW not in scores:
            lot, deal = round_chance(rng, players)
            hands = [deal.hand_indices(s) for s in range(players)]
            opener = lot if required is None else required
            position = engine.start(hands, deal.boneyard_indices(), opener, scores, book=False)
            last = opener
            while not position[engine.END]:
                legal = engine.legal_moves(position)
                last = position[engine.TO_ACT]
                engine.play(position, legal[int(rng.random() * len(legal))])
                actions += 1
            scores = position[engine.SCORES]
            required = last if position[engine.END] == engine.DOMINO else None  # R8
    return actions


def _playouts(players: int, seconds: float, seed: int, on: str) -> Rate:
    """The engine's own loop of random moves: no match, views or logs around it."""
    actions = matches = 0
    start = clock()
    while clock() - start < seconds:
        if on == "native":
            from exact61.core import _native

            done, _ = _native.random_playouts(players, 200, seed + matches)
        else:
            done = random_playouts(players, 20, seed + matches)
        actions += done
        matches += 200 if on == "native" else 20
    elapsed = clock() - start
    return Rate(actions / elapsed, float("nan"), matches / elapsed)


def _driver(players: int, seconds: float, seed: int, on: str) -> Rate:
    actions = placements = matches = 0
    engines.use(on)
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        table = bot_table(players, seed + matches, ["random"] * players)
        table.play_out()
        match = table.match
        actions += sum(len(r.steps) for r in match.rounds)
        placements += sum(1 for r in match.rounds for s in r.steps if isinstance(s.action, Play))
        matches += 1
    elapsed = clock() - start
    engines.use("auto")
    return Rate(actions / elapsed, placements / elapsed, matches / elapsed)


def _simulate(players: int, matches: int, seed: int, on: str) -> Rate:
    """`exact61 simulate` in a child process, from start-up to the last record written."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "m.jsonl"
        command = [sys.executable, "-m", "exact61", "simulate", "--players", str(players)]
        command += ["--matches", str(matches), "--seed", str(seed), "--out", str(out)]
        command += ["--bot", "random"]
        env = {**os.environ, "EXACT61_ENGINE": on}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
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
    print("rates per CPU second of one process; `vs peer`: against the peer measured beside it;")
    print("`vs Python`: the native engine's rate over the Python engine's in the same row")
    print()
    print(
        "| what | players | engine | actions/s | matches/s | peer moves/s | vs peer | vs Python |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|")
    peers: list[Rate] = []
    rows: list[tuple[str, Callable[[int, str], Rate]]] = [
        ("engine, random self-play", lambda p, e: _selfplay(p, args.seconds, args.seed, e)),
        ("the engine's own random playouts", lambda p, e: _playouts(p, args.seconds, args.seed, e)),
        ("game loop, random bots", lambda p, e: _driver(p, args.seconds, args.seed, e)),
        (
            f"`exact61 simulate` end to end ({args.matches:,} matches, records written)",
            lambda p, e: _simulate(p, args.matches, args.seed, e),
        ),
    ]
    for name, run in rows:
        for players in (2, 3, 4):
            python_rate = None
            for on in ENGINES:
                rate, peer = _paired(
                    lambda p=players, r=run, e=on: r(p, e),  # type: ignore[misc]
                    lambda: _peer(args.seconds, args.seed),
                    args.repeats,
                )
                ratio = rate.actions / peer.actions if peer else float("nan")
                if peer:
                    peers.append(peer)
                beside = f"{peer.actions:,.0f}" if peer else "-"
                if on == "python":
                    python_rate, gain = rate, "-"
                else:
                    assert python_rate is not None
                    gain = f"{rate.actions / python_rate.actions:.1f}x"
                print(
                    f"| {name} | {players} | {on} | {rate.actions:,.0f} | "
                    f"{rate.matches:,.1f} | {beside} | {ratio:.2f}x | {gain} |"
                )
    if peers:
        low, high = min(r.actions for r in peers), max(r.actions for r in peers)
        print()
        print(f"Peer `dominoes`, 4-player random play: {low:,.0f} to {high:,.0f} moves/s.")
    else:
        print("\n`dominoes` is not installed: pip install -e '.[bench]' for the peer baseline.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
