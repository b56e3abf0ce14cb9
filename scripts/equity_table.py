"""Build, check and draw the match equity table shipped in exact61/search/data/equity.npz.

The table is a Markov chain over round starts (exact61.search.markov) solved from a round model
played by a bot in self-play (scripts/equity_rounds.py); it needs scipy and matplotlib, the extra
`tournament` (pip install -e ".[tournament]"). The shipped table, from scratch (the
rounds take about 10 minutes a player count on one core, the build about 15 minutes):

    for n in 2 3 4; do
        python scripts/equity_rounds.py --players $n --bot heuristic --rounds 12000 \
            --out build/equity/heur-$n.jsonl
    done
    python scripts/equity_table.py build --rounds "build/equity/heur-{n}.jsonl" \
        --bot heuristic --out src/exact61/search/data/equity.npz
    python scripts/equity_table.py check --players 2 --bot heuristic --matches 2000 \
        --rounds "build/equity/heur-{n}.jsonl"     # direct self-play against the chain
    python scripts/equity_table.py plot --out docs/   # heat maps (also: exact61 equity --plot)

A stronger bot's rounds (`--bot ismcts:300`) make a table the same way; they take about an hour
per 1,000 rounds on one core.

`build` also states the table's statistical error: the round model is split into four disjoint
parts, each solved on its own; the spread of the four tables, divided by two, estimates the
standard error of the table solved from all of them (the chain is close to linear in the
rounds' frequencies, so the error of a mean of four independent parts is what remains).
`floor` shows why 4-player scores are kept from -20 up: how often a match goes below a floor.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from exact61.core import Match
from exact61.search.equity import default_table
from exact61.search.markov import (
    TARGET,
    RoundModel,
    solve_three_sides,
    solve_two_sides,
)
from exact61.simulation.driver import match_seed

LOW = {2: 0, 3: 0, 4: -20}  # the lowest display score kept (R19: only 4 players go below 0)


def load_model(pattern: str, players: int) -> RoundModel:
    return RoundModel.from_jsonl(players, Path(pattern.format(n=players)).read_text())


def solve(model: RoundModel) -> np.ndarray:
    if model.players == 3:
        return solve_three_sides(model)
    return solve_two_sides(model, LOW[model.players])


def standard_error(model: RoundModel, parts: int = 4) -> np.ndarray:
    """Per entry: the spread of tables solved from `parts` disjoint parts, / sqrt(parts)."""
    rng = np.random.default_rng(0)
    order = rng.permutation(len(model))
    tables = [solve(model.take(np.sort(part))) for part in np.array_split(order, parts)]
    return np.asarray(np.std(np.stack(tables), axis=0, ddof=1) / math.sqrt(parts))


def _solve_into(
    arrays: dict[str, Any], meta: dict[str, Any], model: RoundModel, limit: int, parts: int
) -> None:
    """Solve the chain of `model`'s rounds (its first `limit`, if given) into the table's
    arrays and meta for its player count."""
    n = model.players
    if limit:
        model = model.take(np.arange(min(limit, len(model))))
    started = time.perf_counter()
    table = solve(model)
    print(f"{n} players: {len(model)} rounds, solved in {time.perf_counter() - started:.0f} s")
    se = standard_error(model, parts) if parts > 1 else np.zeros_like(table)
    meta["rounds"][str(n)] = len(model)
    meta["standard_error"][str(n)] = {"max": float(se.max()), "mean": float(se.mean())}
    print(f"  standard error: max {se.max():.4f}, mean {se.mean():.4f}")
    if n == 3:  # each side's chance, the third is 1 - the others: keep two, 16 bits each
        arrays["w3"] = np.round(table[..., :2] * 65535).astype(np.uint16)
    else:
        arrays[f"w{n}"] = table.astype(np.float32)
    if n == 3:  # the opener's error only: the others' are alike
        se = se[..., 0]
    arrays[f"se{n}"] = np.round(se * 65535).astype(np.uint16)
    arrays[f"model{n}_seats"] = model.seats
    arrays[f"model{n}_points"] = model.points.astype(np.int8)
    arrays[f"model{n}_domino"] = model.domino


def cmd_swap(args: argparse.Namespace) -> int:
    """A copy of the shipped table with one player count's part solved from other rounds (to
    measure a table of another bot's rounds: `benchmarks/bench_equity_variants.py --table`)."""
    arrays: dict[str, Any] = dict(default_table().arrays)
    meta = json.loads(str(arrays["meta"]))
    meta["bot"] = f"{meta['bot']}; {args.players} players: {args.bot}"
    meta["built"] = time.strftime("%Y-%m-%d")
    model = RoundModel.from_jsonl(args.players, Path(args.rounds).read_text())
    _solve_into(arrays, meta, model, 0, args.parts)
    arrays["meta"] = np.array(json.dumps(meta))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {args.out}")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    arrays: dict[str, Any] = {}
    meta: dict[str, Any] = {
        "method": "Markov chain over round starts (exact61.search.markov)",
        "bot": args.bot,
        "built": time.strftime("%Y-%m-%d"),
        "low": {str(n): LOW[n] for n in (2, 3, 4)},
        "rounds": {},
        "standard_error": {},
    }
    for n in (2, 3, 4):
        _solve_into(arrays, meta, load_model(args.rounds, n), args.limit, args.parts)
    arrays["meta"] = np.array(json.dumps(meta))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


def play_from(players: int, scores: tuple[int, ...], opener: int, bot: str, seed: int) -> int:
    """Play a match from display `scores` with `opener` opening the first round; the winner."""
    from exact61.bots import make_bot
    from exact61.core import random_deal

    chance = random.Random(seed)
    seats = [make_bot(bot, random.Random(f"{seed}:seat:{s}")) for s in range(players)]
    match = Match(players, scores=[5 * s for s in scores])
    match.start_round(random_deal(chance, players), opener)
    while True:
        while (seat := match.to_act) is not None:
            legal = match.legal_actions()
            if len(legal) == 1:
                match.apply(legal[0])
            else:
                match.apply(seats[seat].choose(match.view(seat), legal))
        if match.winner is not None:
            return match.winner
        match.deal_next_round(chance)


def wilson(wins: int, n: int) -> tuple[float, float]:
    from scipy.stats import norm

    z = float(norm.ppf(0.975))
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


CHECK_STATES = {
    2: [(0, 0), (30, 30), (45, 30), (50, 50), (55, 50), (50, 55), (58, 58), (60, 55), (60, 60)],
    3: [(0, 0, 0), (40, 40, 40), (55, 50, 45), (45, 50, 55), (58, 58, 58), (60, 30, 30)],
    4: [(0, 0), (30, 30), (50, 50), (55, 50), (50, 55), (58, 58), (60, 60)],
}


def cmd_check(args: argparse.Namespace) -> int:
    """Direct self-play from chosen states (the first side opens), against the chain."""
    n = args.players
    model = load_model(args.rounds, n)
    if args.limit:
        model = model.take(np.arange(min(args.limit, len(model))))
    table = solve(model)
    low = LOW[n]
    print(f"| scores (opener first) | chain | self-play ({args.bot}) | 95% interval | matches |")
    print("|---|---:|---:|---|---:|")
    outside = 0
    for k, state in enumerate(CHECK_STATES[n]):
        chain = float(table[state][0]) if n == 3 else float(table[state[0] - low, state[1] - low])
        wins = 0
        for i in range(args.matches):
            seed = match_seed(args.seed * 1000 + k, i)
            winner = play_from(n, state, 0, args.bot, seed)
            wins += winner == 0
        lo, hi = wilson(wins, args.matches)
        outside += not lo <= chain <= hi
        print(
            f"| {'-'.join(map(str, state))} | {chain:.3f} | {wins / args.matches:.3f} | "
            f"{lo:.3f}-{hi:.3f} | {args.matches} |",
            flush=True,
        )
    print(f"chain outside the interval at {outside} of {len(CHECK_STATES[n])} states")
    return 0


def cmd_floor(args: argparse.Namespace) -> int:
    """4 players: how often a match from 0-0 goes below each floor (rounds drawn from the model,
    played through the chain's rules with no floor at all)."""
    model = load_model(args.rounds, 4)
    rng = random.Random(1)
    sides = model.side_of_seat(model.seats.astype(np.int16))
    lowest: list[int] = []
    for _ in range(args.matches):
        score = [0, 0]
        opener_side = rng.randrange(2)
        low = 0
        while True:
            r = rng.randrange(len(model))
            won = False
            for k in range(model.seats.shape[1]):
                if model.seats[r, k] < 0:
                    break
                side = (opener_side + int(sides[r, k])) % 2
                after = score[side] + int(model.points[r, k])
                if after <= TARGET:
                    score[side] = after
                    low = min(low, after)
                    if after == TARGET:
                        won = True
                        break
            if won:
                break
            d = int(model.domino[r])
            opener_side = rng.randrange(2) if d < 0 else (opener_side + d) % 2
        lowest.append(low)
    for floor in (0, -5, -10, -15, -20, -25, -30):
        below = sum(1 for x in lowest if x < floor)
        print(f"below {floor:4d}: {below / len(lowest):.5f} of {len(lowest)} matches")
    return 0


def cmd_plot(args: argparse.Namespace) -> int:
    from exact61.search.equity import plot_heatmaps

    for path in plot_heatmaps(args.out):
        print(f"wrote {path}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="solve the chain for 2, 3 and 4 players, write the table")
    b.add_argument("--rounds", default="build/equity/rounds-{n}.jsonl", help="{n}: players")
    b.add_argument("--bot", default="ismcts:300", help="the bot the rounds were played by")
    b.add_argument("--out", type=Path, default=Path("src/exact61/search/data/equity.npz"))
    b.add_argument("--parts", type=int, default=4, help="parts for the error (1: no error)")
    b.add_argument("--limit", type=int, default=0, help="use only the first N rounds (tests)")
    c = sub.add_parser("check", help="direct self-play from chosen states against the chain")
    c.add_argument("--players", type=int, choices=(2, 3, 4), required=True)
    c.add_argument("--rounds", default="build/equity/rounds-{n}.jsonl")
    c.add_argument("--bot", default="ismcts:300")
    c.add_argument("--matches", type=int, default=200)
    c.add_argument("--seed", type=int, default=7)
    c.add_argument("--limit", type=int, default=0, help="use only the first N rounds")
    f = sub.add_parser("floor", help="4 players: how often scores fall below a floor")
    f.add_argument("--rounds", default="build/equity/rounds-{n}.jsonl")
    f.add_argument("--matches", type=int, default=200_000)
    w = sub.add_parser("swap", help="the shipped table with one player count's from other rounds")
    w.add_argument("--players", type=int, choices=(2, 3, 4), required=True)
    w.add_argument("--rounds", required=True, help="the rounds, from scripts/equity_rounds.py")
    w.add_argument("--bot", required=True, help="the bot the rounds were played by")
    w.add_argument("--out", type=Path, required=True)
    w.add_argument("--parts", type=int, default=4, help="parts for the error (1: no error)")
    p = sub.add_parser("plot", help="heat maps of the shipped table")
    p.add_argument("--out", type=Path, default=Path("."))
    args = parser.parse_args()
    commands = {
        "build": cmd_build,
        "check": cmd_check,
        "floor": cmd_floor,
        "swap": cmd_swap,
        "plot": cmd_plot,
    }
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
