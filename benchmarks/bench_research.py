"""The research interfaces measured: OpenSpiel's ISMCTS against the project's, and PettingZoo's
performance benchmark.

    pip install -e ".[research]"
    python benchmarks/bench_research.py                    # about 15 minutes
    python benchmarks/bench_research.py --matches 10 --seconds 0.05   # a quick look
    python benchmarks/bench_research.py --opponent random --skip-pettingzoo  # a baseline

1. Search, like for like: 2-player matches of `python_exact61` between OpenSpiel's own Python
   `ISMCTSBot` (random rollouts, resampling through `resample_from_infostate`) and the project's
   `ismcts`, each given the same wall-clock time per move (forced moves ask neither). Seats
   alternate; match i's deals come from seed i. Prints each bot's win rate with a 95% Wilson
   interval and its search iterations per second. Every match's record is replayed.
2. PettingZoo's `performance_benchmark` (random legal actions for 5 seconds) on
   `exact61.research.pettingzoo.env` for 2, 3 and 4 players: turns and cycles per second.

Prints Markdown tables for docs/figures/.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import platform
import random
import re
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import performance_benchmark
from scipy.stats import binomtest

from exact61.bots.ismcts import ISMCTSBot as ProjectISMCTS
from exact61.core import replay
from exact61.research import openspiel as eo
from exact61.research import openspiel_bots as ob
from exact61.research.pettingzoo import env as pettingzoo_env


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's `ISMCTSBot` searching for a fixed time instead of a fixed number of
    simulations: its own `run_search` loop with a clock (and the same final policy). It runs at
    least two simulations, as its final policy needs: the first only expands the root."""

    def __init__(self, *args: Any, seconds: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.iterations = 0
        self.searching = 0.0

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        started = time.perf_counter()
        deadline = started + self.seconds
        self._root_node = self.create_new_node(state)
        n = 0
        while n < 2 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            n += 1
        self.iterations += n
        self.searching += time.perf_counter() - started
        return list(self.get_final_policy(state, self._root_node))


class TimedProjectBot(ob.ProjectBot):
    """A project bot for OpenSpiel: `ismcts` with a time budget per move (counting its
    iterations), or any other bot by name (`random`, `greedy`, ...) as it is."""

    def __init__(self, name: str, seconds: float, seed: int) -> None:
        rng = random.Random(seed)
        self.search = None
        if name == "ismcts":
            self.search = ProjectISMCTS(rng, iterations=10**9, seconds=seconds)
        super().__init__(self.search or name, seed)
        self.iterations = 0
        self.searching = 0.0

    def step(self, state: Any) -> int:
        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        started = time.perf_counter()
        action = super().step(state)
        self.searching += time.perf_counter() - started
        if self.search is not None:
            self.iterations += self.search.last_iterations
        return action


def wilson(wins: int, n: int) -> str:
    ci = binomtest(wins, n).proportion_ci(method="wilson")
    return f"{wins / n:.1%} ({ci.low:.1%}–{ci.high:.1%}), {wins} of {n}"


def search_match_up(matches: int, seconds: float, seed: int, opponent: str) -> None:
    game = pyspiel.load_game(eo.GAME_NAME, {"players": 2})
    wins = {"openspiel": 0, "exact61": 0}
    iterations = {"openspiel": 0, "exact61": 0}
    searching = {"openspiel": 0.0, "exact61": 0.0}
    for i in range(matches):
        random_state = np.random.RandomState(seed + i)
        theirs = TimedISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state),
            2.0,
            1,
            random_state=random_state,
            seconds=seconds,
        )
        theirs.set_resampler(ob.resampler(seed + i))
        ours = TimedProjectBot(opponent, seconds, seed + i)
        seats = {"openspiel": i % 2, "exact61": 1 - i % 2}
        bots: list[Any] = [None, None]
        bots[seats["openspiel"]] = theirs
        bots[seats["exact61"]] = ours
        state = ob.play(game, bots, seed + i)
        replay(eo.to_record(state, seed=seed + i))  # raises unless the record verifies
        returns = state.returns()
        for name, bot in (("openspiel", theirs), ("exact61", ours)):
            wins[name] += returns[seats[name]] > 0
            iterations[name] += bot.iterations
            searching[name] += bot.searching
        print(f"  match {i + 1}/{matches}: {wins}", flush=True)
    print()
    print(f"{matches} two-player matches, {seconds * 1000:.0f} ms of search per move:")
    print()
    print("| bot | win rate (95% interval) | search iterations/s |")
    print("|---|---|---:|")
    labels = {
        "openspiel": "OpenSpiel `ISMCTSBot` (Python, random rollouts) on `python_exact61`",
        "exact61": f"exact61 `{opponent}`",
    }
    for name in ("openspiel", "exact61"):
        rate = f"{iterations[name] / searching[name]:,.0f}" if iterations[name] else "-"
        print(f"| {labels[name]} | {wilson(wins[name], matches)} | {rate} |")


def pettingzoo_figures() -> None:
    print()
    print("| players | PettingZoo performance_benchmark: turns/s | cycles/s |")
    print("|---|---:|---:|")
    for players in (2, 3, 4):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            performance_benchmark(pettingzoo_env(players=players))
        text = out.getvalue()
        turns = re.search(r"([\d.]+) turns per second", text)
        cycles = re.search(r"([\d.]+) cycles per second", text)
        assert turns and cycles, text
        print(f"| {players} | {float(turns.group(1)):,.0f} | {float(cycles.group(1)):,.0f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.1, help="search time per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--opponent", default="ismcts", help="the project's bot to face (ismcts gets --seconds)"
    )
    parser.add_argument("--skip-search", action="store_true")
    parser.add_argument("--skip-pettingzoo", action="store_true")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, one process")
    if not args.skip_search:
        search_match_up(args.matches, args.seconds, args.seed, args.opponent)
    if not args.skip_pettingzoo:
        pettingzoo_figures()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
