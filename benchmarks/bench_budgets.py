"""The budget at which each search bot thinks a given time a move on one core: what "equal
time" means for the strength figures (issue 42), found on positions the bots really meet.

    python benchmarks/bench_budgets.py                      # 200 ms a move, 2 and 4 players
    python benchmarks/bench_budgets.py --ms 50 --players 2 --positions 30

Positions are the decisions (two or more distinct moves) of seeded `heuristic` self-play,
spread over whole matches, so the late round with nothing hidden counts as often as it comes.
For each bot the budget (iterations, or `pimc`'s deals) is scaled from its default by the time
it took, twice, and the last budget is given with its time: the mean CPU time of this process
a move (the native searches run in it, so the native engine's figures are the searches' own).
Prints a Markdown table for docs/figures/strength.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from exact61 import Match, SeatView
from exact61.bots import DEFAULT_BUDGETS, make_bot
from exact61.core import engines
from exact61.core.engine import choices

clock = time.process_time


def decisions(players: int, count: int, seed: int) -> list[SeatView]:
    """`count` decisions of `heuristic` self-play at `players`, taken evenly from whole
    matches (every third decision, so one match gives positions of every stage)."""
    views: list[SeatView] = []
    game = 0
    while len(views) < count:
        match = Match(players)
        chance = random.Random(seed * 1000 + game)
        bots = [make_bot("heuristic", random.Random(seed + 7 * game + s)) for s in range(players)]
        k = 0
        while not match.is_over and len(views) < count:
            if match.to_act is None:
                match.deal_next_round(chance)
                continue
            match.play_forced()
            seat = match.to_act
            if seat is None:
                continue
            view = match.view(seat)
            if len(choices(view.legal_actions)) > 1:
                if k % 3 == 0:
                    views.append(view)
                k += 1
            match.apply(bots[seat].choose(view))
        game += 1
    return views


def ms_a_move(spec: str, views: list[SeatView]) -> float:
    """The mean CPU milliseconds a move of the bot `spec` on `views`."""
    bot = make_bot(spec, random.Random(1))
    started = clock()
    for view in views:
        bot.choose(view)
    return (clock() - started) / len(views) * 1000


def calibrate(name: str, views: list[SeatView], target_ms: float) -> tuple[int, float]:
    """The budget of bot `name` that takes about `target_ms` a move on `views`, and its time."""
    budget = DEFAULT_BUDGETS[name]
    for _ in range(3):
        ms = ms_a_move(f"{name}:{budget}", views)
        budget = max(1, round(budget * target_ms / ms))
    return budget, ms_a_move(f"{name}:{budget}", views)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ms", type=float, default=200.0, help="target CPU ms a move")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--positions", type=int, default=40, help="decisions a player count")
    parser.add_argument("--bots", nargs="+", default=["expert", "ismcts", "pimc"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"Engine {engines.current().ENGINE}; Python {platform.python_version()}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; target {args.ms:g} ms a move\n"
    )
    print("| players | bot | budget | CPU ms a move |")
    print("|---:|---|---:|---:|")
    for players in args.players:
        views = decisions(players, args.positions, args.seed)
        for name in args.bots:
            budget, ms = calibrate(name, views, args.ms)
            print(f"| {players} | `{name}:{budget}` | {budget:,} | {ms:.1f} |", flush=True)


if __name__ == "__main__":
    main()
