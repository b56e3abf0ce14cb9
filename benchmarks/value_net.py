"""A learned value of positions for the expert's search, 2 players (issue 25, item 3).

    python benchmarks/value_net.py data --matches 3000 --bot expert:100 --out data/values-2.npz
    python benchmarks/value_net.py train data/values-2.npz --out data/value-2.npz
    python benchmarks/bench_equity_variants.py --seconds 0.05 --pairs 150 --seed 9000 \\
        --value data/value-2.npz

`data` plays 2-player matches in self-play and keeps every position a seat acts in, hidden tiles
included (`Match.position`), with what its round's end was worth to the seat to act: its side's
chance to win the match from the scores the round ended at (the match equity table, with the next
opener, R8), 1 for a match won at exactly 61 (R30), 0 for one lost. Matches are split by seed:
the last tenth is held out.

`train` fits a small network (one hidden layer, numpy alone) to those values, and prints its
error on the held-out positions beside two others': the table's chance from the round's start
scores alone, and one rollout of the expert's policy from the position (what the search uses
today).

The network reads a searched position whole, as the search's sampled deal has it (both hands,
the boneyard), from the seat to act's side: its hand, the other hand, the boneyard's tiles, how
many free attach points take each value, the end sum (R15), each side's room below 61 (R4), and
the table's chance at the current scores. `ValueNet.values` gives each side's value of a
position; `bench_equity_variants.py --value` makes it the expert's leaf, in place of a rollout.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from exact61.bots import make_bot
from exact61.core import TARGET_RAW, Match
from exact61.core.engine import (
    BONEYARD,
    DRAWN,
    END_SUM,
    FREE,
    HAND,
    HANDS,
    PENDING,
    SCORES,
    SHIFT,
    TO_ACT,
    Position,
    bits,
)
from exact61.core.points import POINT_VALUE
from exact61.search.equity import default_table
from exact61.search.solver import Leaf, Solver

Floats = npt.NDArray[np.float32]

OWN, OTHER, YARD = 0, 28, 56  # each tile's bit: in the own hand, the other hand, the boneyard
OPEN = 84  # per value 0-6: 0, 1, 2, 3 or more free points take it
SUM_MOD = OPEN + 28  # end sum mod 5
SUM = SUM_MOD + 5  # end sum 0..40 (more: 40)
ROOM = SUM + 41  # own side's room below 61 display points, then the other's (0..61 each)
LEFT = ROOM + 2 * 62  # tiles left in the boneyard 0..18
INPUTS = LEFT + 19
WIDTH = 48  # the most set features a position has, padded with -1


def features(position: Position, leaf: Leaf) -> tuple[list[int], float]:
    """The set features of a 2-player position, from the seat to act's side, and the table's
    chance of that side at the current scores."""
    seat = position[TO_ACT]
    hands = position[HANDS]
    own = (hands >> SHIFT[seat]) & HAND
    other = (hands >> SHIFT[1 - seat]) & HAND
    boneyard = position[BONEYARD]
    drawn = position[DRAWN]
    found = [OWN + t for t in bits(own)]
    found += [OTHER + t for t in bits(other)]
    found += [YARD + t for t in boneyard[drawn:]]
    pending = position[PENDING]
    if pending >= 0:
        found.append(OWN + pending)
    counts = [0] * 7
    for p in bits(position[FREE]):
        counts[POINT_VALUE[p]] += 1
    found += [OPEN + 4 * v + min(c, 3) for v, c in enumerate(counts)]
    end_sum = position[END_SUM]
    found.append(SUM_MOD + end_sum % 5)
    found.append(SUM + min(end_sum, 40))
    scores = position[SCORES]
    found.append(ROOM + (TARGET_RAW - scores[seat]) // 5)  # display points (R3)
    found.append(ROOM + 62 + (TARGET_RAW - scores[1 - seat]) // 5)
    found.append(LEFT + len(boneyard) - drawn)
    return found, leaf(scores, None)[seat]


class ValueNet:
    """The trained network: each side's value of a 2-player position (see the module)."""

    def __init__(self, weights: dict[str, Any]) -> None:
        self.w1: Floats = weights["w1"]  # INPUTS x hidden
        self.e1: Floats = weights["e1"]  # hidden: the table chance's weights
        self.b1: Floats = weights["b1"]
        self.w2: Floats = weights["w2"]  # hidden
        self.b2 = float(weights["b2"])
        self.leaf = default_table().leaf(2)

    @classmethod
    def load(cls, path: Path | str) -> ValueNet:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def values(self, position: Position) -> tuple[float, float]:
        found, chance = features(position, self.leaf)
        h = self.w1[found].sum(axis=0) + self.e1 * chance + self.b1
        z = float(np.maximum(h, 0.0) @ self.w2) + self.b2
        v = 1.0 / (1.0 + math.exp(-z))
        return (v, 1.0 - v) if position[TO_ACT] == 0 else (1.0 - v, v)


# ---- data ------------------------------------------------------------------------------------


def _play(job: tuple[int, str]) -> tuple[list[list[int]], list[float], list[float], list[float]]:
    """One self-play match: each position's features, table chance, round-end value and one
    rollout's value, for the seat to act."""
    seed, bot = job
    chance = random.Random(seed)
    seats = [make_bot(bot, random.Random(f"{seed}:seat:{s}")) for s in range(2)]
    leaf = default_table().leaf(2)
    solver: Solver | None = None  # its rollouts and round ends do not depend on its position
    rollouts = random.Random(f"{seed}:rollout")
    rows: list[list[int]] = []
    chances: list[float] = []
    ends: list[float] = []
    rolled: list[float] = []
    match = Match(2)
    while not match.is_over:
        match.deal_next_round(chance)
        kept: list[tuple[int, int]] = []  # (row, seat to act)
        mover = 0
        while (seat := match.to_act) is not None:
            position = match.position()
            assert position is not None
            found, now = features(position, leaf)
            kept.append((len(rows), seat))
            rows.append(found)
            chances.append(now)
            solver = solver or Solver(position, leaf)
            rolled.append(solver.rollout(position, rollouts, 0.25)[seat])
            legal = match.legal_actions()
            action = legal[0] if len(legal) == 1 else seats[seat].choose(match.view(seat))
            mover = seat
            match.apply(action)
        end = match.position()
        assert end is not None
        assert solver is not None
        worth = solver.ended(end, mover)
        ends.extend(worth[s] for _, s in kept)
    return rows, chances, ends, rolled


def data(args: argparse.Namespace) -> int:
    jobs = [(args.seed * 100_000 + i, args.bot) for i in range(args.matches)]
    rows: list[list[int]] = []
    chances: list[float] = []
    ends: list[float] = []
    rolled: list[float] = []
    match_of: list[int] = []
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        for i, (r, c, e, o) in enumerate(pool.imap(_play, jobs, chunksize=4)):
            rows += r
            chances += c
            ends += e
            rolled += o
            match_of += [i] * len(r)
            if (i + 1) % 100 == 0:
                rate = (i + 1) / (time.perf_counter() - started)
                print(f"{i + 1} matches, {len(rows)} positions, {rate:.2f} matches/s", flush=True)
    found = np.full((len(rows), WIDTH), -1, dtype=np.int16)
    for i, r in enumerate(rows):
        found[i, : len(r)] = r
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out,
        found=found,
        chance=np.array(chances, np.float32),
        end=np.array(ends, np.float32),
        rollout=np.array(rolled, np.float32),
        match=np.array(match_of, np.int32),
    )
    print(f"{len(rows)} positions from {args.matches} matches in {args.out}")
    return 0


# ---- training --------------------------------------------------------------------------------


def _dense(found: npt.NDArray[np.int16]) -> Floats:
    x = np.zeros((len(found), INPUTS + 1), np.float32)  # the last column takes the -1 padding
    rows = np.repeat(np.arange(len(found)), found.shape[1])
    x[rows, found.ravel()] = 1.0
    return x[:, :INPUTS]


def train(args: argparse.Namespace) -> int:
    with np.load(args.data) as d:
        found, chance, end = d["found"], d["chance"], d["end"]
        rollout, match = d["rollout"], d["match"]
    held = match >= int(match.max() * 0.9)
    rng = np.random.default_rng(args.seed)
    x_all = _dense(found)
    x, c, y = x_all[~held], chance[~held], end[~held]
    xv, cv, yv = x_all[held], chance[held], end[held]
    hidden = args.hidden
    params = {
        "w1": (rng.standard_normal((INPUTS, hidden)) * 0.1).astype(np.float32),
        "e1": (rng.standard_normal(hidden) * 0.1).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal(hidden) * 0.1).astype(np.float32),
        "b2": np.zeros((), np.float32),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}

    def predict(xb: Floats, cb: Floats) -> tuple[Floats, Floats, Floats]:
        h = xb @ params["w1"] + np.outer(cb, params["e1"]) + params["b1"]
        a = np.maximum(h, 0.0)
        z = a @ params["w2"] + params["b2"]
        return 1.0 / (1.0 + np.exp(-z)), h, a

    def mse(p: Floats, t: Floats) -> float:
        return float(np.mean((p - t) ** 2))

    step = 0
    for epoch in range(args.epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(order), args.batch):
            idx = order[start : start + args.batch]
            xb, cb, yb = x[idx], c[idx], y[idx]
            p, h, a = predict(xb, cb)
            dz = (p - yb) / len(idx)  # cross-entropy against the value, through the sigmoid
            grads = {"w2": a.T @ dz, "b2": dz.sum()}
            dh = np.outer(dz, params["w2"]) * (h > 0)
            grads["w1"] = xb.T @ dh
            grads["e1"] = cb @ dh
            grads["b1"] = dh.sum(axis=0)
            step += 1
            for k, g in grads.items():
                m, v = moments[k]
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                mhat = m / (1 - 0.9**step)
                vhat = v / (1 - 0.999**step)
                params[k] -= (args.rate * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)
        print(f"epoch {epoch + 1}: held-out error {mse(predict(xv, cv)[0], yv):.5f}", flush=True)
    print(f"{len(x)} positions to train on, {len(xv)} held out (the last tenth of the matches)")
    print("mean squared error against the round's end on the held-out positions:")
    print(f"  the network:                       {mse(predict(xv, cv)[0], yv):.5f}")
    print(f"  one rollout (the search's today):  {mse(rollout[held], yv):.5f}")
    print(f"  the table at the current scores:   {mse(cv, yv):.5f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, **params)
    print(f"saved {args.out}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("data", help="positions and their rounds' ends from self-play")
    d.add_argument("--matches", type=int, default=3000)
    d.add_argument("--bot", default="expert:100")
    d.add_argument("--seed", type=int, default=25)
    d.add_argument("--workers", type=int, default=2)
    d.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("train", help="fit the network to the positions' values")
    t.add_argument("data", type=Path)
    t.add_argument("--hidden", type=int, default=64)
    t.add_argument("--epochs", type=int, default=8)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--rate", type=float, default=0.002)
    t.add_argument("--seed", type=int, default=25)
    t.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    return data(args) if args.command == "data" else train(args)


if __name__ == "__main__":
    sys.exit(main())
