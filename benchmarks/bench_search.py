"""Search speed on one core: the hidden-hand sampler's deals per second, ISMCTS iterations per
second and time per move at its default budget.

    python benchmarks/bench_search.py              # about a minute
    python benchmarks/bench_search.py --positions 20

Positions are taken mid-round from seeded random matches (the seat to act, with at least two
legal actions), for 2, 3 and 4 players. Prints a Markdown table for docs/figures/.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from exact61 import Match, Phase, SeatView
from exact61.bots.ismcts import DEFAULT_ITERATIONS, ISMCTSBot
from exact61.search.sampler import knowledge_of, sample_deal


def positions(players: int, count: int, seed: int) -> list[SeatView]:
    rng = random.Random(seed)
    out: list[SeatView] = []
    while len(out) < count:
        match = Match(players)
        match.deal_next_round(rng)
        for _ in range(rng.randrange(4, 40)):
            if match.phase is not Phase.PLAY:
                break
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        if match.phase is Phase.PLAY and len(match.legal_actions()) > 1:
            assert match.to_act is not None
            out.append(match.view(match.to_act))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40, help="positions per player count")
    parser.add_argument("--deals", type=int, default=200, help="samples per position")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, one core; "
        f"ISMCTS default budget {DEFAULT_ITERATIONS} iterations"
    )
    print()
    print(
        "| players | sampler deals/s | ISMCTS iterations/s | ms per move (median) | "
        "ms per move (max) |"
    )
    print("|---|---:|---:|---:|---:|")
    for players in (2, 3, 4):
        views = positions(players, args.positions, args.seed + players)
        rng = random.Random(args.seed)
        started = time.perf_counter()
        for view in views:
            know = knowledge_of(view)
            for _ in range(args.deals):
                sample_deal(view, rng, know)
        deals = len(views) * args.deals / (time.perf_counter() - started)
        times = []
        iterations = 0
        for i, view in enumerate(views):
            bot = ISMCTSBot(random.Random(i))
            t0 = time.perf_counter()
            bot.choose(view, view.legal_actions)
            times.append(time.perf_counter() - t0)
            iterations += bot.last_iterations
        rate = iterations / sum(times)
        print(
            f"| {players} | {deals:,.0f} | {rate:,.0f} | {1000 * statistics.median(times):.0f} "
            f"| {1000 * max(times):.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
