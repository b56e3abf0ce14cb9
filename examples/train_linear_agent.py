"""Train a small agent on `Exact61-v0` in a few minutes on the CPU, then measure it.

    pip install -e ".[research]"
    python examples/train_linear_agent.py                 # about 4 minutes on one core
    python examples/train_linear_agent.py --generations 5 --eval-matches 100   # a quick look

The agent is a linear policy: for each legal action it computes a few features from the
observation and the action's meaning (the credit it earns, whether it lands exactly on 61 or
would be rejected, the tile's pips, ...) and plays the action with the highest weighted sum.
CMA-ES (the `cma` package) tunes the weights to win 2-player matches against the project's
`greedy` bot, each generation on new seeded matches. Everything is seeded: the same command
prints the same figures.

At the end it plays fresh matches against `random` and `greedy` and prints win rates with 95%
Wilson intervals, for the trained weights and for the untrained agent (all weights zero: the
first legal action).
"""

from __future__ import annotations

import argparse
import time
import warnings

import gymnasium
import numpy as np
from scipy.stats import binomtest

import exact61.research.gymnasium  # noqa: F401 - registers Exact61-v0
from exact61.core import ALL_TILES, TARGET_RAW, Play
from exact61.research.encoding import ACTIONS, OBSERVATION_SLICES

with warnings.catch_warnings():
    # Without matplotlib (the research extra has none) cma warns on import that its plots are
    # unavailable: the example draws none, and the warning was the first line it printed.
    warnings.filterwarnings("ignore", "Could not import matplotlib", UserWarning)
    import cma

FEATURES = (
    "gain",  # the credit, / 50, when it is accepted (R4)
    "exact",  # lands exactly on 61 (R30: wins at once)
    "rejected",  # a credit that would pass 61 (R4: rejected whole)
    "pips",  # the tile's pips, / 12 (pips left in hand pay the others, R19-R21)
    "double",  # the tile is a double (a spinner, R12)
    "domino",  # the last tile in hand (R18)
    "variety",  # other tiles in hand still playable after it, / 5
    "shed_late",  # pips, / 12, once the boneyard is empty (a block counts hands, R20)
)

_S = OBSERVATION_SLICES


def features(obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """One row of features per legal action, from the observation alone."""
    hand = np.flatnonzero(obs[_S["hand"]])
    own = round(float(obs[_S["scores"]][0]) * TARGET_RAW)
    open_values = {v for v in range(7) if obs[_S["open_values"]][v]}
    boneyard_empty = obs[_S["boneyard"]][0] == 0
    credits = obs[_S["credits"]]
    held = [ALL_TILES[t] for t in hand]
    rows = np.zeros((len(legal), len(FEATURES)))
    for i, a in enumerate(legal):
        action = ACTIONS[a]
        if not isinstance(action, Play):
            continue
        tile = action.tile
        credit = round(float(credits[a]) * TARGET_RAW)
        accepted = own + credit <= TARGET_RAW
        if action.at is None:
            after = open_values | {tile.low, tile.high}
        else:
            after = open_values | {tile.high if action.at.value == tile.low else tile.low}
        rest = [t for t in held if t != tile]
        rows[i] = (
            credit / 50 if accepted else 0.0,
            1.0 if credit and own + credit == TARGET_RAW else 0.0,
            1.0 if credit and not accepted else 0.0,
            tile.pips / 12,
            1.0 if tile.is_double else 0.0,
            1.0 if not rest else 0.0,
            sum(1 for t in rest if t.low in after or t.high in after) / 5,
            tile.pips / 12 if boneyard_empty else 0.0,
        )
    return rows


def play(weights: np.ndarray, opponent: str, seeds: range) -> tuple[int, float]:
    """Matches won and mean reward of the linear policy against `opponent`, one per seed."""
    env = gymnasium.make("Exact61-v0", players=2, opponents=opponent)
    wins = 0
    total = 0.0
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        reward = 0.0
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            action = legal[int(np.argmax(features(obs, legal) @ weights))]
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += reward > 0
        total += reward
    env.close()
    return wins, total / len(seeds)


def interval(wins: int, n: int) -> str:
    ci = binomtest(wins, n).proportion_ci(method="wilson")
    return f"{wins / n:.1%} ({ci.low:.1%}-{ci.high:.1%}), {wins} of {n}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=30)
    parser.add_argument("--matches", type=int, default=60, help="matches per candidate")
    parser.add_argument("--eval-matches", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    started = time.perf_counter()
    options = {"seed": args.seed, "verbose": -9, "popsize": 10}
    es = cma.CMAEvolutionStrategy(np.zeros(len(FEATURES)), 0.5, options)
    for generation in range(args.generations):
        seeds = range(10_000 + generation * args.matches, 10_000 + (generation + 1) * args.matches)
        candidates = es.ask()
        # CMA-ES minimises; common seeds within a generation make candidates comparable.
        losses = [-play(np.asarray(c), "greedy", seeds)[1] for c in candidates]
        es.tell(candidates, losses)
        best = -min(losses)
        print(f"generation {generation + 1:2d}: best mean reward vs greedy {best:+.2f}", flush=True)
    weights = np.asarray(es.result.xfavorite)
    trained = time.perf_counter() - started
    print(f"trained in {trained:.0f} s; weights:")
    for name, w in zip(FEATURES, weights, strict=True):
        print(f"  {name:10s} {w:+.3f}")

    evaluation = range(1_000_000, 1_000_000 + args.eval_matches)  # never seen in training
    print(f"\nwin rates over {args.eval_matches} 2-player matches (95% Wilson interval):")
    for label, w in (("trained", weights), ("untrained", np.zeros(len(FEATURES)))):
        for opponent in ("random", "greedy"):
            wins, _ = play(w, opponent, evaluation)
            print(f"  {label:9s} vs {opponent:6s}: {interval(wins, args.eval_matches)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
