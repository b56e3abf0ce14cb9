"""How much more of the other hand can a learned model read from the public play? Issue 25.

    python benchmarks/belief_model.py --positions 6000 --workers 2

`bench_belief.py` measures the deals the searches draw: 26.6% of the other seat's tiles right
from the draws and passes alone (R10), 28.7% when the others' choices are read too. This asks
whether a model learned from play reads much more. It takes decisions of 2-player `ismcts:200`
self-play (the opponent the expert is measured against), each with the other seat's true hand,
and for every tile the seat to act cannot see it fits a small network (numpy alone) to the
chance that the tile is in the other hand rather than the boneyard.

The network reads, for each unseen tile: how often the searches' deals put it in the other hand
(uniform, and reading choices; so it starts from what they know), whether it is a double and its
pips, and for each of its two values what the other seat did with that value in public: tiles
of it placed, ends of it it opened, times it declined to place it while it could (R4, R15), how
many unseen tiles carry it, with the round's progress and the sizes of the hand and the boneyard.

Each model's chances are scaled to add up to the other hand's size, and the figure is the share
of the other seat's true tiles they cover: the same figure as `bench_belief.py` gives for deals
drawn from those chances. Positions of the last fifth of the matches are held out.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from multiprocessing import Pool

import numpy as np
import numpy.typing as npt
from selfplay import kept_decisions

from exact61.core import ALL_TILES, Action, Layout, Match, SeatView
from exact61.core.tiles import TILE_INDEX
from exact61.search.sampler import choices_of, knowledge_of, sample_indices, sample_weighted

Floats = npt.NDArray[np.float64]
SAMPLES = 100  # deals drawn a position for each sampler's chances


def _logit(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def _public(view: SeatView, other: int) -> tuple[list[int], list[int], list[int]]:
    """Per value 0-6, what `other` did with it in public: tiles placed showing it, ends it
    opened showing it, and placements where it held (placed) a tile of another value while an
    end of this value was free (a mild sign it had none that scored)."""
    placed, opened, declined = [0] * 7, [0] * 7, [0] * 7
    layout = Layout()
    for step in view.history:
        if step.kind == "play" and step.play is not None:
            if step.seat == other:
                free = {value for value in range(7) if layout.accepts(value)}
                a, b = step.play.tile
                placed[a] += 1
                if b != a:
                    placed[b] += 1
                for value in free - {a, b}:
                    declined[value] += 1
            layout.place(step.play.tile, step.play.at)
            if step.seat == other:
                for value in {step.play.tile[0], step.play.tile[1]}:
                    if layout.accepts(value):
                        opened[value] += 1
    return placed, opened, declined


def rows_of(view: SeatView, truth: set[int], rng: random.Random) -> tuple[Floats, Floats, Floats]:
    """Per tile the other seat may hold: its features, whether it holds it, and the uniform
    sampler's chance (the baseline)."""
    other = 1 - view.seat
    knowledge = knowledge_of(view)
    choices = choices_of(view, before_draws=True)
    uniform = [0] * len(ALL_TILES)
    reading = [0] * len(ALL_TILES)
    for _ in range(SAMPLES):
        for t in sample_indices(knowledge, rng)[0][other]:
            uniform[t] += 1
        for t in sample_weighted(knowledge, choices, rng)[0][other]:
            reading[t] += 1
    placed, opened, declined = _public(view, other)
    unseen = [TILE_INDEX[t] for t in knowledge.unseen]
    supply = [0] * 7
    for t in unseen:
        a, b = ALL_TILES[t]
        supply[a] += 1
        if b != a:
            supply[b] += 1
    progress = len(view.history) / 40
    size = view.hand_sizes[other] / 7
    yard = view.boneyard_size / 14
    x, y, base = [], [], []
    for t in unseen:
        if not uniform[t]:
            continue  # R10 rules it out: no model may give it a chance
        a, b = ALL_TILES[t]
        row = [
            _logit(uniform[t] / SAMPLES),
            _logit(reading[t] / SAMPLES),
            float(a == b),
            (a + b) / 12,
            progress,
            size,
            yard,
        ]
        for value in (a, b):
            row += [placed[value] / 3, opened[value] / 3, declined[value] / 5, supply[value] / 7]
        x.append(row)
        y.append(float(t in truth))
        base.append(uniform[t] / SAMPLES)
    return np.array(x), np.array(y), np.array(base)


def _positions(job: tuple[int, int]) -> list[tuple[Floats, Floats, Floats, int]]:
    seed, n = job

    def keep(
        match: Match, view: SeatView, legal: list[Action], pick: random.Random
    ) -> tuple[SeatView, set[int]] | None:
        if view.history and view.boneyard_size and pick.random() < 0.15:
            return view, set(match.hand_indices(1 - view.seat))
        return None

    rng = random.Random(seed)
    out = []
    for view, truth in kept_decisions(n, seed, "ismcts:200", keep):
        x, y, base = rows_of(view, truth, rng)
        out.append((x, y, base, len(truth)))
    return out


def covered(chances: list[Floats], cases: list[tuple[Floats, Floats, Floats, int]]) -> float:
    """The mean share of the true tiles the chances cover, scaled to the hand's size."""
    shares = []
    for p, (_, y, _, size) in zip(chances, cases, strict=True):
        scaled = np.minimum(p * size / p.sum(), 1.0)
        shares.append(float((scaled * y).sum()) / size)
    return statistics.fmean(shares)


def train(x: Floats, y: Floats, hidden: int, epochs: int, seed: int) -> list[Floats]:
    """A network with one hidden layer, by Adam on cross-entropy; its weights."""
    rng = np.random.default_rng(seed)
    mean, spread = x.mean(0), x.std(0) + 1e-6
    w1 = rng.normal(0, 1 / math.sqrt(x.shape[1]), (x.shape[1], hidden))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0, 1 / math.sqrt(hidden), hidden)
    b2 = np.zeros(1)
    params = [w1, b1, w2, b2]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    z = (x - mean) / spread
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(z))
        for start in range(0, len(z), 256):
            batch = order[start : start + 256]
            h = np.maximum(z[batch] @ w1 + b1, 0)
            out = 1 / (1 + np.exp(-(h @ w2 + b2[0] + x[batch, 0])))
            d = (out - y[batch]) / len(batch)
            dh = np.outer(d, w2) * (h > 0)
            grads = [z[batch].T @ dh, dh.sum(0), h.T @ d, np.array([d.sum()])]
            step += 1
            for p, g, m, v in zip(params, grads, moments, squares, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= 0.003 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return [mean, spread, *params]


def predict(weights: list[Floats], x: Floats) -> Floats:
    mean, spread, w1, b1, w2, b2 = weights
    h = np.maximum(((x - mean) / spread) @ w1 + b1, 0)
    result: Floats = 1 / (1 + np.exp(-(h @ w2 + b2[0] + x[:, 0])))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args()
    parts = 20
    jobs = [(args.seed * 100 + k, args.positions // parts) for k in range(parts)]
    with Pool(args.workers) as pool:
        cases = []
        for k, part in enumerate(pool.imap(_positions, jobs)):
            cases += part
            print(f"\r{k + 1}/{parts} parts of positions", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    held = len(cases) * 4 // 5
    fit, test = cases[:held], cases[held:]
    x = np.concatenate([c[0] for c in fit])
    y = np.concatenate([c[1] for c in fit])
    weights = train(x, y, args.hidden, args.epochs, args.seed)
    print(f"{len(fit)} positions to learn from, {len(test)} held out ({len(x)} tiles to learn)")
    rows = {
        "uniform (draws and passes)": [c[2] for c in test],
        "reading choices (the expert's deals)": [
            np.array([1 / (1 + math.exp(-v)) for v in c[0][:, 1]]) for c in test
        ],
        "learned": [predict(weights, c[0]) for c in test],
    }
    for label, chances in rows.items():
        print(f"  {label}: {covered(chances, test):.1%}")
    own = covered([predict(weights, c[0]) for c in fit], fit)
    print(f"  (learned, on its own training positions: {own:.1%})")


if __name__ == "__main__":
    main()
