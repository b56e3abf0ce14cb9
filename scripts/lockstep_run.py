"""The two engines in lockstep over many matches: for each match, the native core's digest of
every action (its ordered legal moves, the move made, its events, the scores, the next seat;
`simulation.driver.native_match`) against the Python engine's of the same match
(`tests.core.test_lockstep.python_digest`). The CI's run is 10,000 matches a player count
(`tests/core/test_lockstep.py`); this one is for a run of any size, on every core.

    python scripts/lockstep_run.py --matches 1000000                # a few hours on 2 cores
    python scripts/lockstep_run.py --matches 3000 --players 2 --workers 1

Match i of a run is played by the bots `BOTS[i % 3]` from seed `--seed + i`, at 2, 3 and 4
players (or `--players`). Progress goes to standard error; every disagreement is printed with
its match, and the run's figures (matches, actions, time) at the end. Exit 1 if any match
disagrees. Run from the repository's folder (it imports the test's Python digest).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BOTS = ("random", "greedy", "heuristic")
CHUNK = 500


def check(players: int, first: int, count: int) -> tuple[int, int, list[str]]:
    """Matches `first` to `first + count - 1`: how many, their actions, and the disagreements."""
    from exact61.simulation.driver import native_match
    from tests.core.test_lockstep import python_digest

    actions, wrong = 0, []
    for seed in range(first, first + count):
        bots = [BOTS[seed % len(BOTS)]] * players
        native = native_match(players, seed, bots)
        actions += native.totals.actions
        if native.digest != python_digest(players, seed, bots):
            wrong.append(f"{players} players, seed {seed}, {bots[0]}: the digests differ")
    return count, actions, wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1_000_000, help="matches a player count")
    parser.add_argument("--players", type=int, action="append", choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    from exact61.core import engines

    if engines.NATIVE is None:
        print("lockstep_run: the native engine is not built here", file=sys.stderr)
        return 2
    counts = args.players or [2, 3, 4]
    started = time.perf_counter()
    failures: list[str] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for players in counts:
            jobs = [
                pool.submit(check, players, first, min(CHUNK, args.seed + args.matches - first))
                for first in range(args.seed, args.seed + args.matches, CHUNK)
            ]
            done = actions = 0
            for job in jobs:
                count, played, wrong = job.result()
                done, actions = done + count, actions + played
                failures += wrong
                for line in wrong:
                    print(line, flush=True)
                elapsed = time.perf_counter() - started
                print(
                    f"\r{players} players: {done:,} of {args.matches:,} matches, "
                    f"{len(failures)} disagreeing, {elapsed / 60:.0f} min",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            print(file=sys.stderr)
            print(
                f"{players} players: {done:,} matches ({actions:,} actions) from seed {args.seed}, "
                f"{sum(f.startswith(f'{players} players') for f in failures)} disagreeing",
                flush=True,
            )
    minutes = (time.perf_counter() - started) / 60
    print(f"{len(failures)} disagreeing in all; {minutes:.0f} min on {args.workers} workers")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
