"""How much of the other hand do the searches' sampled deals get right? Issue 25's inference.

    python benchmarks/bench_belief.py --positions 300
    python benchmarks/bench_belief.py --positions 300 --bot heuristic

Decisions of 2-player `ismcts:200` self-play (or of `--bot`'s; one in ten, kept with the true
hand of the other seat); on each, `--samples` deals are drawn as a search draws them, and the
share of the other seat's tiles that a deal puts in its hand is averaged. `uniform` reads the
draws and passes only (R10: `sampler.sample_indices`); the other rows also read the others'
choices (`sampler.sample_weighted`, as the expert does by default: temperature 4, 8 tries),
sharper or with more tries. A player who saw the hand would score 100%.
"""

from __future__ import annotations

import argparse
import random
import statistics

from selfplay import kept_decisions

from exact61.core import Action, Match, SeatView
from exact61.search.sampler import choices_of, knowledge_of, sample_indices, sample_weighted

# (label, temperature, tries, reads the choices); the search's sampler squared the likelihood
# once too (documented 2026-12-04), an option gone with the switches only a benchmark set
MODELS = (
    ("uniform (draws and passes)", 4.0, 8, False),
    ("the expert's default", 4.0, 8, True),
    ("128 tries", 4.0, 128, True),
    ("temperature 2, 128 tries", 2.0, 128, True),
    ("temperature 1, 128 tries", 1.0, 128, True),
)


def positions(n: int, seed: int, bot: str) -> list[tuple[SeatView, set[int]]]:
    """`n` decisions with a history, each with the other seat's true hand (tile indices)."""

    def keep(
        match: Match, view: SeatView, legal: list[Action], pick: random.Random
    ) -> tuple[SeatView, set[int]] | None:
        if view.history and pick.random() < 0.1:
            return view, set(match.hand_indices(1 - view.seat))
        return None

    return kept_decisions(n, seed, bot, keep)


def accuracy(
    cases: list[tuple[SeatView, set[int]]],
    temperature: float,
    tries: int,
    reads: bool,
    samples: int,
) -> float:
    """The mean share of the other seat's true tiles in its sampled hands."""
    rng = random.Random(7)
    shares = []
    for view, truth in cases:
        knowledge = knowledge_of(view)
        choices = choices_of(view, temperature, True) if reads else ()
        hits = 0
        for _ in range(samples):
            if choices:
                hidden, _ = sample_weighted(knowledge, choices, rng, tries)
            else:
                hidden, _ = sample_indices(knowledge, rng)
            hits += len(truth & set(hidden[1 - view.seat]))
        shares.append(hits / samples / len(truth))
    return statistics.fmean(shares)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--samples", type=int, default=60, help="deals drawn a position")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--bot", default="ismcts:200", help="the self-play's bot")
    args = parser.parse_args()
    cases = positions(args.positions, args.seed, args.bot)
    print(f"{len(cases)} positions; the other seat's tiles a sampled deal gets right:")
    for label, temperature, tries, reads in MODELS:
        share = accuracy(cases, temperature, tries, reads, args.samples)
        print(f"  {label}: {share:.1%}", flush=True)


if __name__ == "__main__":
    main()
