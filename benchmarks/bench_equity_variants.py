"""The `equity` bot with changed settings against `ismcts`, at equal seconds a move, 2 players.

    python benchmarks/bench_equity_variants.py --seconds 0.02 --pairs 200
    python benchmarks/bench_equity_variants.py --seconds 0.02 --pairs 200 --set exploration=2.5
    python benchmarks/bench_equity_variants.py --seconds 0.02 --set epsilon=0.1 --no-solve
    python benchmarks/bench_equity_variants.py --set inference=1 --set exploration=2.5
    python benchmarks/bench_equity_variants.py --iterations 300 --pairs 200

`--set NAME=V` sets one of the expert's constants in the worker processes (`exploration`,
`epsilon`, `tries`, `opponent_visits`: `expert.EXPLORATION` and its neighbours).
`--set opponent_visits=K`: UCB picks the other side's replies at a node from K visits on (50 by
default; 0: the rollout policy always). The switches this script once set (`inference`,
`before_draws`, `temperature`, `double_bonus`, `paired`, `opponent`) are the bot now (issue 42):
what each was worth is in docs/figures/strength.md, measured with this script before then.
`--equity-iterations N` gives equity its own iteration budget (with `--iterations` for ismcts):
an equal-time comparison that does not depend on the machine's load (it reports each bot's ms a
move, to check that the times match: about 1500 against 1000 and 400 against 250; 1700
against 1000 with `--set opponent_visits=0`).
`--regret N`: no matches; N positions from `ismcts:60` self-play, each move's value from a
6,000-iteration paired search with the same settings (`--reference`), and the points of
match-winning chance each pick of the variant (3 a position) gives away against it: a low-noise
check of the search alone (it cannot judge a change of the values themselves).
`--iterations N` gives both bots N iterations a move instead of a time budget: it compares what
the searches learn per iteration, apart from how fast they iterate.
`--rollout lookahead`: the expert's rollouts and its policy for the other side's replies pick
the move whose credit, less the best credit the next seat could take at once from its (sampled)
hand, is highest, instead of the highest credit (`Solver.greedy_move`): a one-reply lookahead,
issue 25's "better rollouts".
`--table FILE.npz`: the expert values a round's end by that match equity table instead of the
shipped one (`scripts/equity_table.py build`; `scripts/equity_table.py swap` puts one player
count's table from other rounds into a copy of the shipped file).
`--value FILE.npz`: the expert values the position a new node of its tree reaches by a learned
value (`benchmarks/value_net.py`, 2 players) instead of a rollout: issue 25's "a learned value of
positions". `--value-share W` mixes it with a rollout: W times the learned value and 1-W times
the rollout's.

For tuning the equity bot (issue 12): `exact61 tournament` plays bots by name only, so it cannot
try a setting that is not the default. Each seed is played twice with the seats swapped, and
every variant gets the same seeds, so variants are compared on the same deals. Prints equity's
win rate with a 95% interval (normal approximation). Two worker processes by default.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from selfplay import kept_decisions, timed_match
from value_net import ValueNet

from exact61.bots import expert
from exact61.bots.expert import ExpertBot
from exact61.bots.ismcts import ISMCTSBot
from exact61.core import TARGET_RAW, Match, engine
from exact61.core.engine import DRAW, END, MOVE_STRIDE, class_of, credit_of
from exact61.core.tiles import PIPS
from exact61.search.equity import EquityTable
from exact61.search.solver import Solver

SETTINGS = {  # a --set name: the expert's constant it sets
    "exploration": "EXPLORATION",
    "epsilon": "EPSILON",
    "tries": "TRIES",
    "opponent_visits": "OPPONENT_VISITS",
}
INTEGERS = ("tries", "opponent_visits")


def _expert(rng: random.Random, settings: dict[str, float], **budget: Any) -> ExpertBot:
    """An expert with the constants `settings` names set (in this worker process only)."""
    for name, value in settings.items():
        setattr(expert, SETTINGS[name], value)
    return ExpertBot(rng, **budget)


class _Lookahead(Solver):
    def greedy_move(self, position: list[Any], moves: list[int]) -> int:
        """The move whose credit (0 if R4 rejects it) less the next seat's best credit at once
        is highest; a win at once first; then the heavier tile."""
        room = self._room(position)
        best, best_rank = moves[0], -math.inf
        for m in moves:
            if m >= DRAW:
                return m
            credit = credit_of(position, m)
            if credit == room:
                return m
            after = position.copy()
            engine.play(after, m)
            reply = 0
            if not after[END]:
                their_room = self._room(after)
                for r in engine.distinct_moves(after):
                    c = credit_of(after, r)
                    if c == their_room:
                        reply = TARGET_RAW  # they would win at once
                        break
                    if c < their_room:
                        reply = max(reply, c)
            rank = ((credit if credit < room else 0) - reply) * 16 + PIPS[m // MOVE_STRIDE]
            if rank > best_rank:
                best, best_rank = m, rank
        return best


class _Valued(Solver):
    net: ValueNet | None = None  # set in each worker
    share = 1.0  # the learned value's share of a leaf's value; the rest is a rollout's

    def rollout(self, position: list[Any], rng: random.Random, epsilon: float) -> tuple[float, ...]:
        """The learned value of the position, mixed with a rollout's by `share`."""
        assert self.net is not None
        learned = self.net.values(position)
        if self.share >= 1.0:
            return learned
        rolled = super().rollout(position, rng, epsilon)
        w = self.share
        return tuple(w * a + (1 - w) * b for a, b in zip(learned, rolled, strict=True))


@functools.cache
def _solver(lookahead: bool, value: str | None, share: float) -> type[Solver]:
    """The expert's solver with the run's changes (the first in this order overrides); the
    pure engine's search only (the native search has no such hooks)."""
    chosen = [mixin for mixin, on in ((_Valued, value), (_Lookahead, lookahead)) if on]
    if value is not None:
        _Valued.net = ValueNet.load(value)
        _Valued.share = share
    return type("Variant", tuple(chosen), {}) if chosen else Solver


@functools.cache
def _table(path: str | None) -> EquityTable | None:
    """The equity table in `path`, loaded once per worker (None: the shipped one)."""
    return None if path is None else EquityTable.load(Path(path))


def _match(
    job: tuple[
        int,
        bool,
        float | None,
        int,
        int,
        dict[str, float],
        bool,
        bool,
        str | None,
        str | None,
        float,
    ],
) -> tuple[int, float, int, float, int]:
    """1 if the equity bot wins the match played from `seed`; then each bot's seconds thinking
    and moves chosen (equity's, ismcts's)."""
    (seed, swap, seconds, iterations, equity_iterations, settings, no_solve, lookahead, table,
     value, share) = job  # fmt: skip
    solver = _solver(lookahead, value, share)
    setattr(expert, "Solver", solver)  # noqa: B010  (in this worker process only)
    bots: list[Any] = [
        _expert(random.Random(f"{seed}:equity:{swap}"), settings, seconds=seconds,
                iterations=equity_iterations, table=_table(table),
                solve_nodes=0 if no_solve else expert.SOLVE_NODES),
        ISMCTSBot(random.Random(f"{seed}:ismcts:{swap}"), seconds=seconds, iterations=iterations),
    ]  # fmt: skip
    if swap:
        bots.reverse()
    match = Match(2)
    thinking, chosen = timed_match(  # side 0: equity
        match, random.Random(seed), bots, lambda seat: int(seat == 0) if swap else seat
    )
    return int(match.winner == (1 if swap else 0)), thinking[0], chosen[0], thinking[1], chosen[1]


def _positions(n: int, seed: int) -> list[tuple[Any, Any]]:
    """`n` decisions (two or more moves, a boneyard left) from `ismcts:60` self-play, 2 players."""

    def keep(match: Match, view: Any, legal: Any, pick: random.Random) -> tuple[Any, Any] | None:
        return (view, legal) if match.boneyard_size and pick.random() < 0.08 else None

    return kept_decisions(n, seed, "ismcts:60", keep)


def _reference(job: tuple[int, Any, Any, int, dict[str, float]]) -> dict[int, float]:
    i, view, _, iterations, settings = job
    bot = _expert(random.Random(i), settings, iterations=iterations)
    bot.choose(view)
    return {k: c.reward / c.visits for k, c in bot.last_root.children.items()}


def _pick(job: tuple[int, Any, Any, dict[str, float], float | None, int, int]) -> int:
    i, view, _, settings, seconds, iterations, rep = job
    bot = _expert(random.Random(f"{i}:{rep}"), settings, seconds=seconds, iterations=iterations)
    return class_of(bot.choose(view))


def _regret(args: argparse.Namespace, settings: dict[str, float]) -> None:
    """Each pick's loss against a long paired search over the same values (issue 12)."""
    positions = _positions(args.regret, args.seed)
    seconds = None if args.iterations else args.seconds
    iterations = args.iterations or 10**9
    with Pool(args.workers) as pool:
        refs = pool.map(
            _reference,
            [(i, v, legal, args.reference, settings) for i, (v, legal) in enumerate(positions)],
        )
        jobs = [
            (i, v, legal, settings, seconds, iterations, rep)
            for rep in range(3)
            for i, (v, legal) in enumerate(positions)
        ]
        picks = pool.map(_pick, jobs)
    losses = [
        max(refs[i].values()) - refs[i].get(k, min(refs[i].values()))
        for (i, *_), k in zip(jobs, picks, strict=True)
    ]
    n = len(losses)
    mean = sum(losses) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in losses) / (n - 1) / n)
    same = sum(x < 1e-12 for x in losses) / n
    print(
        f"equity ({', '.join(f'{k}={v}' for k, v in settings.items()) or 'defaults'}): "
        f"{100 * mean:.3f} ± {100 * se:.3f} points of match-winning chance given away a "
        f"decision, the reference's move at {100 * same:.1f}% ({n} picks)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.02, help="thinking time a move")
    parser.add_argument(
        "--iterations", type=int, default=None,
        help="iterations a move for both bots instead of --seconds (no time limit)",
    )  # fmt: skip
    parser.add_argument(
        "--equity-iterations", type=int, default=None,
        help="equity's iterations a move, if not --iterations' (for equal time: it iterates "
        "faster than ismcts)",
    )  # fmt: skip
    parser.add_argument("--pairs", type=int, default=200, help="seeds, each played both ways")
    parser.add_argument("--seed", type=int, default=1000, help="the first seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE",
        help="an ExpertBot setting: " + ", ".join(SETTINGS),
    )  # fmt: skip
    parser.add_argument("--no-solve", action="store_true", help="never solve exactly")
    parser.add_argument(
        "--rollout", choices=("greedy", "lookahead"), default="greedy",
        help="the expert's rollout policy (see the module)",
    )  # fmt: skip
    parser.add_argument(
        "--table", metavar="FILE.npz", default=None,
        help="the match equity table the expert values a round's end by (default: the shipped)",
    )  # fmt: skip
    parser.add_argument(
        "--value", metavar="FILE.npz", default=None,
        help="a learned value of positions (benchmarks/value_net.py) in place of rollouts",
    )  # fmt: skip
    parser.add_argument(
        "--value-share", type=float, default=1.0, metavar="W",
        help="with --value: a leaf is worth W times the learned value and 1-W times a rollout's",
    )  # fmt: skip
    parser.add_argument(
        "--regret", type=int, default=0, metavar="N",
        help="instead of matches: N positions, each pick against a long paired search",
    )  # fmt: skip
    parser.add_argument("--reference", type=int, default=6000, help="--regret's iterations")
    args = parser.parse_args()
    settings: dict[str, float] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        if name not in SETTINGS:
            parser.error(f"--set {item}: the settings are {', '.join(SETTINGS)}")
        try:
            settings[name] = int(value) if name in INTEGERS else float(value)
        except ValueError:
            parser.error(f"--set {item}: {value!r} is not a number")
    if args.regret:
        _regret(args, settings)
        return 0
    seconds = None if args.iterations else args.seconds
    iterations = args.iterations or 10**9
    equity_iterations = args.equity_iterations or iterations
    jobs = [
        (
            args.seed + i,
            swap,
            seconds,
            iterations,
            equity_iterations,
            settings,
            args.no_solve,
            args.rollout == "lookahead",
            args.table,
            args.value,
            args.value_share,
        )
        for i in range(args.pairs)
        for swap in (False, True)
    ]
    started = time.monotonic()
    with Pool(args.workers) as pool:
        results = list(pool.imap_unordered(_match, jobs, chunksize=2))
    wins = sum(r[0] for r in results)
    ms = [
        1000 * sum(r[k] for r in results) / max(1, sum(r[k + 1] for r in results)) for k in (1, 3)
    ]
    n = len(jobs)
    p = wins / n
    half = 196 * math.sqrt(p * (1 - p) / n)
    label = ", ".join(f"{k}={v}" for k, v in settings.items()) or "defaults"
    label += ", no exact solve" if args.no_solve else ""
    label += ", lookahead rollouts" if args.rollout == "lookahead" else ""
    label += f", table {args.table}" if args.table else ""
    label += f", value {args.value} (share {args.value_share})" if args.value else ""
    budget = f"{args.iterations} iterations" if args.iterations else f"{args.seconds} s"
    if args.equity_iterations:
        budget = f"{args.equity_iterations} (equity) / {budget}"
    budget += " a move"
    print(
        f"equity ({label}) vs ismcts at {budget}: {wins}/{n} = "
        f"{100 * p:.1f}% ± {half:.1f} ({time.monotonic() - started:.0f} s; "
        f"{ms[0]:.1f} ms a move for equity, {ms[1]:.1f} for ismcts)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
