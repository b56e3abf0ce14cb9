"""How much of the other hand do the searches' sampled deals get right? Issue 25's inference.

    python benchmarks/bench_belief.py --positions 300

Decisions of 2-player `ismcts:200` self-play (one in ten, kept with the true hand of the other
seat); on each, `--samples` deals are drawn as a search draws them, and the share of the other
seat's tiles that a deal puts in its hand is averaged. `uniform` reads the draws and passes
only (R10: `sampler.sample_indices`); the other rows also read the others' choices
(`sampler.sample_weighted`, as the expert does by default: temperature 4, 8 tries), sharper or
with more tries. A player who saw the hand would score 100%.
"""

from __future__ import annotations

import argparse
import random
import statistics

from selfplay import kept_decisions

from exact61.core import Action, Match, SeatView
from exact61.search.sampler import choices_of, knowledge_of, sample_indices, sample_weighted

# (label, temperature, tries, strength); strength 0: no reading of choices
MODELS = (
    ("uniform (draws and passes)", 4.0, 8, 0.0),
    ("the expert's default", 4.0, 8, 1.0),
    ("128 tries", 4.0, 128, 1.0),
    ("temperature 2, 128 tries", 2.0, 128, 1.0),
    ("temperature 1, 128 tries", 1.0, 128, 1.0),
    ("squared likelihood, 128 tries", 4.0, 128, 2.0),
)


def positions(n: int, seed: int) -> list[tuple[SeatView, set[int]]]:
    """`n` decisions with a history, each with the other seat's true hand (tile indices)."""

    def keep(
        match: Match, view: SeatView, legal: list[Action], pick: random.Random
    ) -> tuple[SeatView, set[int]] | None:
        if view.history and pick.random() < 0.1:
            return view, set(match.hand_indices(1 - view.seat))
        return None

    return kept_decisions(n, seed, 200, keep)


def accuracy(
    cases: list[tuple[SeatView, set[int]]],
    temperature: float,
    tries: int,
    strength: float,
    samples: int,
) -> float:
    """The mean share of the other seat's true tiles in its sampled hands."""
    rng = random.Random(7)
    shares = []
    for view, truth in cases:
        knowledge = knowledge_of(view)
        choices = choices_of(view, temperature, True) if strength > 0 else ()
        hits = 0
        for _ in range(samples):
            if choices:
                hidden, _ = sample_weighted(knowledge, choices, rng, tries, strength)
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
    args = parser.parse_args()
    cases = positions(args.positions, args.seed)
    print(f"{len(cases)} positions; the other seat's tiles a sampled deal gets right:")
    for label, temperature, tries, strength in MODELS:
        share = accuracy(cases, temperature, tries, strength, args.samples)
        print(f"  {label}: {share:.1%}", flush=True)


if __name__ == "__main__":
    main()
