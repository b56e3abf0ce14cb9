"""Random self-play speed on one core, against the PyPI package `dominoes` as a peer baseline.

    pip install -e ".[bench]"
    python benchmarks/bench_selfplay.py            # about a minute
    python benchmarks/bench_selfplay.py --seconds 1  # a quick look

For 2, 3 and 4 players: whole matches of uniform random play through the public API
(`legal_actions()` then `apply()`), counting actions (placements, draws, passes), placements and
matches per second; the same through the simulation driver, which builds a seat view for every
choice. Then the random-play moves per second of `dominoes` (4-player block game, moves are
placements). Each figure is the best of `--repeats` runs of `--seconds` each. Prints a Markdown
table for the README.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from exact61 import Match, Play
from exact61.simulation.driver import play_match


@dataclass
class Rate:
    actions: float
    placements: float
    matches: float


def _selfplay(players: int, seconds: float, seed: int) -> Rate:
    rng = random.Random(seed)
    actions = placements = matches = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        match = Match(players)
        while not match.is_over:
            match.deal_next_round(rng)
            while match.to_act is not None:
                legal = match.legal_actions()
                match.apply(legal[int(rng.random() * len(legal))])
        actions += sum(len(r.steps) for r in match.rounds)
        placements += sum(1 for r in match.rounds for s in r.steps if isinstance(s.action, Play))
        matches += 1
    elapsed = time.perf_counter() - start
    return Rate(actions / elapsed, placements / elapsed, matches / elapsed)


def _driver(players: int, seconds: float, seed: int) -> Rate:
    actions = placements = matches = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        match = play_match(players, seed + matches, ["random"] * players)
        actions += sum(len(r.steps) for r in match.rounds)
        placements += sum(1 for r in match.rounds for s in r.steps if isinstance(s.action, Play))
        matches += 1
    elapsed = time.perf_counter() - start
    return Rate(actions / elapsed, placements / elapsed, matches / elapsed)


def _peer(seconds: float, seed: int) -> Rate | None:
    try:
        import dominoes  # type: ignore[import-untyped]
    except ImportError:
        return None
    random.seed(seed)  # dominoes draws from the global source
    moves = games = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        game = dominoes.Game.new()
        while game.result is None:
            dominoes.players.random(game)
            domino, left = game.valid_moves[0]
            game.make_move(domino, left)
            moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    return Rate(moves / elapsed, moves / elapsed, games / elapsed)


def _best(run: Callable[[], Rate | None], repeats: int) -> Rate | None:
    rates = [run() for _ in range(repeats)]
    found = [r for r in rates if r is not None]
    return max(found, key=lambda r: r.actions) if found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="length of one run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (best kept)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    print()
    print("| what | players | actions/s | placements/s | matches/s |")
    print("|---|---|---:|---:|---:|")
    best_actions = []
    for players in (2, 3, 4):
        rate = _best(lambda p=players: _selfplay(p, args.seconds, args.seed), args.repeats)
        assert rate is not None
        best_actions.append(rate.actions)
        print(
            f"| exact61 random self-play | {players} | {rate.actions:,.0f} | "
            f"{rate.placements:,.0f} | {rate.matches:,.1f} |"
        )
    for players in (2, 3, 4):
        rate = _best(lambda p=players: _driver(p, args.seconds, args.seed), args.repeats)
        assert rate is not None
        print(
            f"| exact61 driver, random bots with views | {players} | {rate.actions:,.0f} | "
            f"{rate.placements:,.0f} | {rate.matches:,.1f} |"
        )
    peer = _best(lambda: _peer(args.seconds, args.seed), args.repeats)
    if peer is None:
        print("\n`dominoes` is not installed: pip install -e '.[bench]' for the peer baseline.")
        return 0
    print(
        f"| peer: `dominoes` random play | 4 | {peer.actions:,.0f} | {peer.placements:,.0f} | "
        f"{peer.matches:,.1f} |"
    )
    worst = min(best_actions)
    print()
    print(
        f"Slowest exact61 self-play: {worst / peer.actions:.2f}x the peer's moves per second "
        f"(target 1.5x)."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
