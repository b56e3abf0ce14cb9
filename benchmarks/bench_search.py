"""Search speed on one core, on both engines: the hidden-hand sampler's deals per second (Python),
and the iterations per second and time per move of `ismcts` and `expert` at their default
budgets, searching in Python and in the native core on the same positions.

    python benchmarks/bench_search.py              # a few minutes
    python benchmarks/bench_search.py --positions 20

Positions are taken mid-round from seeded random matches (the seat to act, with at least two
legal actions), for 2, 3 and 4 players. Times are CPU seconds of this process (the native
searches run in it). Both engines make the same choices from the same seeds
(`tests/bots/test_native_searches.py`), so their rates compare the same work. Prints a
Markdown table for docs/figures/.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from exact61 import Match, Phase, SeatView
from exact61.bots.expert import ExpertBot
from exact61.bots.ismcts import DEFAULT_ITERATIONS, ISMCTSBot
from exact61.core import engines
from exact61.search.sampler import knowledge_of, sample_deal

clock = time.process_time


def search_rate(
    views: list[SeatView], bot: type[ISMCTSBot] | type[ExpertBot], on: str
) -> tuple[float, list[float]]:
    """Iterations per CPU second of `bot` at its default budget on `views`, searching on
    engine `on`, and the time of each move."""
    engines.use(on)
    times = []
    iterations = 0
    for i, view in enumerate(views):
        player = bot(random.Random(i))
        t0 = clock()
        player.choose(view)
        times.append(clock() - t0)
        iterations += player.last_iterations
    engines.use("auto")
    return iterations / sum(times), times


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
        f"default budgets: {DEFAULT_ITERATIONS} iterations (ismcts, expert)"
    )
    print()
    print(
        "| players | sampler deals/s | search | engine | iterations/s | ms per move (median) "
        "| ms per move (max) | vs Python |"
    )
    print("|---|---:|---|---|---:|---:|---:|---:|")
    for players in (2, 3, 4):
        views = positions(players, args.positions, args.seed + players)
        rng = random.Random(args.seed)
        started = clock()
        for view in views:
            know = knowledge_of(view)
            for _ in range(args.deals):
                sample_deal(view, rng, know)
        deals = len(views) * args.deals / (clock() - started)
        for name, bot in (("ismcts", ISMCTSBot), ("expert", ExpertBot)):
            python_rate = 0.0
            for on in ("python", "native"):
                rate, times = search_rate(views, bot, on)
                gain = "-" if on == "python" else f"{rate / python_rate:.1f}x"
                python_rate = rate if on == "python" else python_rate
                print(
                    f"| {players} | {deals:,.0f} | {name} | {on} | {rate:,.0f} | "
                    f"{1000 * statistics.median(times):.1f} | {1000 * max(times):.1f} | {gain} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
