"""The expert with the round's end solved earlier: a tree search while many tiles are in hand,
perfect-information Monte Carlo (`pimc`'s search) once the hands hold few, against another bot.

    python benchmarks/bench_endgame.py --players 4 --against pimc:700 --tiles 12 --seed 5100
    python benchmarks/bench_endgame.py --players 4 --against pimc:700 --tiles 0 --seed 5100
    python benchmarks/bench_endgame.py --players 4 --against pimc:700 --tiles 16 --early

Issue 42 lists "the endgame solved exactly earlier in the round" among its ideas. The variant
plays `expert:ITERATIONS` until the hands (all seats together) hold `--tiles` or fewer tiles,
then values each move by `--deals` deals sampled from its view, each solved exactly to the
round's end over the match equity table (`search.evaluate.evaluate_moves`, what `pimc` does),
and plays the best mean. `--tiles 0` is the expert alone (the control on the same deals).
`--early` turns it round: `pimc`'s search while the hands hold more than `--tiles`, the expert
from there on.

Each seed is played twice with the sides swapped; at 4 players the variant is a pair (seats 0
and 2, or 1 and 3). Prints the variant's win rate with a 95% Wilson interval and each bot's ms a
move. Two worker processes by default.
"""

from __future__ import annotations

import argparse
import random
import sys
from multiprocessing import Pool
from typing import Any

from selfplay import timed_match

from exact61.bots import make_bot
from exact61.bots.expert import ExpertBot
from exact61.core import Action, Match, SeatView
from exact61.search.evaluate import evaluate_moves
from exact61.tournament.stats import wilson


class EndgameExpert:
    """`expert` until the hands hold `tiles` or fewer tiles, then `pimc`'s search (`late`), or
    the other way round."""

    name = "endgame"

    def __init__(
        self, rng: random.Random, iterations: int, tiles: int, deals: int, *, late: bool = True
    ) -> None:
        self._rng = rng
        self._expert = ExpertBot(rng, iterations=iterations)
        self.tiles = tiles
        self.deals = deals
        self.late = late  # False: `pimc`'s search while more than `tiles` are in hand, then expert

    def choose(self, view: SeatView) -> Action:
        if (sum(view.hand_sizes) > self.tiles) == self.late:
            return self._expert.choose(view)
        found = evaluate_moves(view, rng=self._rng, deals=self.deals, table=self._expert.table)
        return found.best.action


def _match(
    job: tuple[int, bool, int, str, int, int, int, bool],
) -> tuple[int, float, int, float, int]:
    """1 if the variant's side wins the match from `seed`; each side's seconds and moves."""
    seed, swap, players, against, iterations, tiles, deals, late = job
    variant = int(swap)  # the variant's side: 0 (seats 0, 2) or 1 (seats 1, 3)
    bots: list[Any] = []
    for seat in range(players):
        rng = random.Random(f"{seed}:{seat}:{swap}")
        if seat % 2 == variant:
            bots.append(EndgameExpert(rng, iterations, tiles, deals, late=late))
        else:
            bots.append(make_bot(against, rng))
    match = Match(players)  # side 0: the variant's
    thinking, chosen = timed_match(
        match, random.Random(seed), bots, lambda seat: 0 if seat % 2 == variant else 1
    )
    return int(match.winner == variant), thinking[0], chosen[0], thinking[1], chosen[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--against", default="pimc:700", help="the other side's bot spec")
    parser.add_argument("--iterations", type=int, default=10_000, help="the expert's budget")
    parser.add_argument("--tiles", type=int, default=12, help="solve from this many in hands")
    parser.add_argument("--deals", type=int, default=700, help="deals a move once solving")
    parser.add_argument(
        "--early", action="store_true", help="pimc's search first, the expert from --tiles on"
    )
    parser.add_argument("--pairs", type=int, default=200, help="seeds, each played both ways")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    jobs = [
        (
            seed,
            swap,
            args.players,
            args.against,
            args.iterations,
            args.tiles,
            args.deals,
            not args.early,
        )
        for seed in range(args.seed, args.seed + args.pairs)
        for swap in (False, True)
    ]
    wins = 0
    seconds, moves = [0.0, 0.0], [0, 0]
    with Pool(args.workers) as pool:
        for done, (won, t0, n0, t1, n1) in enumerate(pool.imap_unordered(_match, jobs), 1):
            wins += won
            seconds[0] += t0
            seconds[1] += t1
            moves[0] += n0
            moves[1] += n1
            print(f"\r{done}/{len(jobs)} matches, {wins} won", end="", file=sys.stderr)
    print(file=sys.stderr)
    low, high = wilson(wins, len(jobs))
    ms = [1000 * s / max(n, 1) for s, n in zip(seconds, moves, strict=True)]
    print(
        f"variant ({'pimc' if args.early else 'expert'}:"
        f"{args.deals if args.early else args.iterations} until {args.tiles} tiles in hand, "
        f"then {'expert' if args.early else 'pimc'}) vs {args.against}, "
        f"{args.players} players: {100 * wins / len(jobs):.1f}% "
        f"({100 * low:.1f}-{100 * high:.1f}%), {wins} of {len(jobs)}; "
        f"ms/move {ms[0]:.1f} / {ms[1]:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
