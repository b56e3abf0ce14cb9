"""Exact solver speed, on both engines: 2-player positions at the moment the boneyard empties,
from simulated matches, solved to the end of the round over the match equity table, by the
Python solver (`search.solver.Solver`) and the native one (`_native.solve`), which search the
same nodes (`tests/bots/test_native_searches.py`).

    python benchmarks/bench_solver.py                   # 200 positions, a few minutes
    python benchmarks/bench_solver.py --positions 50 --bot greedy

Positions: seeded matches between two `--bot` bots; in each round, the first decision (two or
more distinct moves) after the last boneyard tile was drawn. Each is solved twice: every move's
exact value (what `exact61 analyze` needs) and the best move alone (what the `equity` bot needs;
alpha-beta's root window prunes more). A search that passes `--cap` nodes is stopped and counted;
its time counts in the maximum. Prints a Markdown table for docs/figures/.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from exact61 import Match
from exact61.bots import make_bot
from exact61.core import _native
from exact61.core.engine import class_of
from exact61.search.equity import default_table
from exact61.search.solver import SearchLimit, Solver

clock = time.process_time


def positions(count: int, seed: int, bot: str) -> list[Match]:
    out: list[Match] = []
    index = 0
    while len(out) < count:
        index += 1
        chance = random.Random(f"{seed}:{index}")
        bots = [make_bot(bot, random.Random(f"{seed}:{index}:{s}")) for s in range(2)]
        match = Match(2)
        while not match.is_over and len(out) < count:
            match.deal_next_round(chance)
            taken = False
            while (seat := match.to_act) is not None:
                legal = match.legal_actions()
                moves = len({class_of(a) for a in legal})
                if not taken and match.boneyard_size == 0 and moves > 1:
                    out.append(match.copy())
                    taken = True
                if len(legal) == 1:
                    match.apply(legal[0])
                else:
                    match.apply(bots[seat].choose(match.view(seat)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="heuristic", help="the bots that play the matches")
    parser.add_argument("--cap", type=int, default=5_000_000, help="nodes before giving up")
    args = parser.parse_args()
    leaf = default_table().leaf(2)
    found = positions(args.positions, args.seed, args.bot)
    tiles = [sum(m.hand_sizes()) for m in found]
    print(
        f"Python {platform.python_version()} on {platform.machine()}, one core; "
        f"{len(found)} positions from {args.bot} self-play (seed {args.seed}); tiles in hands: "
        f"median {statistics.median(tiles):.0f}, max {max(tiles)}; cap {args.cap:,} nodes"
    )
    print()
    print(
        "| what | engine | nodes/s | median ms | 90th pct ms | max ms | max nodes | over the cap |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    table = default_table()
    for what in ("every move's value", "best move"):
        for on in ("python", "native"):
            times: list[float] = []
            nodes = over = 0
            largest = 0
            for match in found:
                started = clock()
                if on == "native":
                    solved = _native.solve(
                        match.position(), table.native, args.cap, every_move=what != "best move"
                    )
                    searched = args.cap + 1 if solved is None else solved[1]
                    over += solved is None
                else:
                    solver = Solver(match.position(), leaf, node_limit=args.cap)
                    try:
                        if what == "best move":
                            solver.best_move()
                        else:
                            solver.move_values(match.legal_actions())
                    except SearchLimit:
                        over += 1
                    searched = solver.nodes
                times.append(clock() - started)
                nodes += searched
                largest = max(largest, searched)
            times.sort()
            print(
                f"| {what} | {on} | {nodes / sum(times):,.0f} | "
                f"{1000 * statistics.median(times):.1f} | "
                f"{1000 * times[int(0.9 * (len(times) - 1))]:.0f} | {1000 * times[-1]:,.0f} | "
                f"{largest:,} | {over} of {len(times)} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
