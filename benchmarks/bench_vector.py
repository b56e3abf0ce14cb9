"""Agent steps per second through the research interfaces, the batched environment beside the
others, on one core.

    pip install -e ".[research]"
    python benchmarks/bench_vector.py                  # about 3 minutes
    python benchmarks/bench_vector.py --seconds 1 --repeats 1   # a quick look
    python benchmarks/bench_vector.py --profile        # where the batched environment's time goes
    python benchmarks/bench_vector.py --batched-only --num-envs 256   # its row alone

Every interface plays 2-player matches (players and opponents as given, `greedy` by default)
with a uniformly random legal action from the mask it gives, and every step hands over an
observation and a mask:
- `Exact61-v0` batched (`gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`) at
  each `--num-envs`: one agent step is one game's step. It plays natively (the native core's
  `VectorGames`, one call a step) where the native engine is in use and the opponents are bots it
  plays (`random`, `greedy`, `heuristic`), else in Python; the first lines printed say which
  (`EXACT61_ENGINE=python` measures the Python implementation);
- the Python implementation's games without observations or masks (`AgentGame.act`): the core
  and the bots alone, what no interface stepping games one by one in Python can pass;
- `Exact61-v0` alone, and in Gymnasium's own `SyncVectorEnv` (`vectorization_mode="sync"`);
- PettingZoo's AEC environment: `last()` (observation and mask) then `step()`, every seat;
- OpenSpiel's `python_exact61`: `observation_tensor` and `legal_actions` at each decision,
  chance outcomes sampled (one step is one decision of any seat).
Rates are per second of CPU time of the process, taken inside the interface's calls only (the
random choice of an action is the agent's, and left out), so other load on a shared machine
disturbs them little. Each figure is the best of `--repeats` runs of `--seconds`; the spread
printed is worst to best. Prints a Markdown table for docs/research.md.
"""

from __future__ import annotations

import argparse
import cProfile
import math
import platform
import pstats
import random
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import gymnasium
import numpy as np
import pyspiel

import exact61.research.gymnasium  # noqa: F401 - registers Exact61-v0
import exact61.research.openspiel as eo
from exact61.core import engines
from exact61.research import encoding
from exact61.research.gymnasium import AgentGame
from exact61.research.pettingzoo import env as pettingzoo_env

Clock = Callable[[], float]
CPU: Clock = time.process_time


def vector_run(num_envs: int, players: int, opponents: str, seconds: float) -> float:
    envs = gymnasium.make_vec(
        "Exact61-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        players=players,
        opponents=opponents,
    )
    return _batched(envs, seconds)


def sync_run(num_envs: int, players: int, opponents: str, seconds: float) -> float:
    envs = gymnasium.make_vec(
        "Exact61-v0",
        num_envs=num_envs,
        vectorization_mode="sync",
        players=players,
        opponents=opponents,
    )
    return _batched(envs, seconds)


def _batched(envs: gymnasium.vector.VectorEnv, seconds: float) -> float:
    rng = np.random.default_rng(0)
    inside = CPU()
    _, infos = envs.reset(seed=0)
    inside = CPU() - inside
    steps = 0
    while inside < seconds:
        mask = infos["action_mask"]
        actions = np.argmax(mask * rng.random(mask.shape, dtype=np.float32), axis=1)
        started = CPU()
        _, _, _, _, infos = envs.step(actions)
        inside += CPU() - started
        steps += envs.num_envs
    envs.close()
    return steps / inside


def games_run(num_envs: int, players: int, opponents: str, seconds: float) -> float:
    """The batched environment's games without observations or masks: the core and the bots
    only (`AgentGame`), the ceiling of any interface on the one engine."""
    games = [
        AgentGame(players, 0, [opponents] * (players - 1), False, 100, True)
        for _ in range(num_envs)
    ]
    rng = random.Random(0)
    inside = CPU()
    for i, game in enumerate(games):
        game.start(i)
    inside = CPU() - inside
    steps = 0
    episodes = num_envs
    while inside < seconds:
        # a random legal action, chosen as the others choose theirs: outside the time
        actions = []
        for game in games:
            legal = game.match.legal_actions()
            actions.append(encoding.action_id(legal[int(rng.random() * len(legal))]))
        started = CPU()
        for game, action in zip(games, actions, strict=True):
            _, terminated, truncated = game.act(action)
            if terminated or truncated:
                game.start(episodes)
                episodes += 1
        inside += CPU() - started
        steps += num_envs
    return steps / inside


def single_run(players: int, opponents: str, seconds: float) -> float:
    env = gymnasium.make("Exact61-v0", players=players, opponents=opponents)
    rng = random.Random(0)
    inside = CPU()
    _, info = env.reset(seed=0)
    inside = CPU() - inside
    steps = 0
    episode = 0
    while inside < seconds:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        started = CPU()
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            episode += 1
            _, info = env.reset(seed=episode)
        inside += CPU() - started
        steps += 1
    return steps / inside


def pettingzoo_run(players: int, seconds: float) -> float:
    env = pettingzoo_env(players=players)
    rng = random.Random(0)
    inside = CPU()
    env.reset(seed=0)
    inside = CPU() - inside
    steps = 0
    episode = 0
    while inside < seconds:
        started = CPU()
        observation, _, terminated, truncated, _ = env.last()
        inside += CPU() - started
        action = (
            None
            if terminated or truncated
            else rng.choice(np.flatnonzero(observation["action_mask"]))
        )
        started = CPU()
        env.step(action)
        if not env.agents:
            episode += 1
            env.reset(seed=episode)
        inside += CPU() - started
        steps += 1
    return steps / inside


def openspiel_run(players: int, seconds: float) -> float:
    game = pyspiel.load_game(eo.GAME_NAME, {"players": players})
    rng = random.Random(0)
    inside = CPU()
    state = game.new_initial_state()
    inside = CPU() - inside
    steps = 0
    while inside < seconds:
        started = CPU()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        if state.is_terminal():
            state = game.new_initial_state()
            inside += CPU() - started
            continue
        state.observation_tensor(state.current_player())
        legal = state.legal_actions()
        inside += CPU() - started
        action = legal[int(rng.random() * len(legal))]
        started = CPU()
        state.apply_action(action)
        inside += CPU() - started
        steps += 1
    return steps / inside


def best_of(repeats: int, run: Callable[[], float]) -> tuple[float, float]:
    rates = [run() for _ in range(repeats)]
    return max(rates), min(rates)


def module_of(path: str, name: str) -> str:
    """Where a function of cProfile's stats (its file and name) belongs: an exact61 module, the
    native core (a method of its extension, which cProfile files under "~" with the builtins),
    this benchmark (the agent's random choice), gymnasium, numpy and builtins, or other."""
    if "/exact61/" in path:
        return "exact61." + path.split("/exact61/", 1)[1].removesuffix(".py").replace("/", ".")
    if path == "~" and "exact61.core._native" in name:
        return "exact61.core._native (the native core)"
    if Path(path).resolve() == Path(__file__).resolve():
        return "the benchmark (the agent's random legal actions)"
    if "gymnasium" in path:
        return "gymnasium"
    if "numpy" in path or path == "~":
        return "numpy and builtins"
    return "other"


def profile(num_envs: int, players: int, opponents: str, seconds: float) -> None:
    """The batched environment's time by where it is spent (own time of each function, grouped
    by module)."""
    profiler = cProfile.Profile()
    profiler.enable()
    vector_run(num_envs, players, opponents, seconds)
    profiler.disable()
    stats = pstats.Stats(profiler)
    by_module: dict[str, float] = defaultdict(float)
    total = 0.0
    for (path, _, name), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        where = module_of(path, name)
        by_module[where] += own
        total += own
    print()
    print(f"Where the time goes, N = {num_envs}, {players} players, {opponents} (cProfile):")
    print()
    print("| module | share of the time |")
    print("|---|---:|")
    for where, own in sorted(by_module.items(), key=lambda kv: -kv[1]):
        if own / total >= 0.01:
            print(f"| `{where}` | {own / total:.0%} |")


def at_least_one(text: str) -> int:
    """--repeats: 0 measured nothing and failed in `max` after the table's header."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return number


def seconds_above_zero(text: str) -> float:
    """--seconds: a run of 0 seconds or less (or nan) measured 0 steps a second, and inf never
    ended."""
    try:
        number = float(text)
    except ValueError:
        number = 0.0
    if not 0 < number < math.inf:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, not {text!r}")
    return number


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="greedy")
    parser.add_argument("--num-envs", type=int, nargs="+", default=[1, 16, 256])
    parser.add_argument("--seconds", type=seconds_above_zero, default=5.0, help="CPU seconds a run")
    parser.add_argument("--repeats", type=at_least_one, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--batched-only", action="store_true", help="only the batched environment's rows"
    )
    args = parser.parse_args()
    players, opponents, seconds = args.players, args.opponents, args.seconds
    if args.profile:
        profile(max(args.num_envs), players, opponents, seconds)
        return 0
    print(f"Python {platform.python_version()} on {platform.machine()}, one process")
    probe = gymnasium.make_vec(
        "Exact61-v0",
        num_envs=1,
        vectorization_mode="vector_entry_point",
        players=players,
        opponents=opponents,
    )
    how = "natively" if probe.unwrapped.plays_natively else "in Python"
    print(f"engine {engines.current().ENGINE}; the batched environment plays {how}")
    print()
    print(f"{players} players, opponents {opponents}, random legal actions; best of {args.repeats}")
    print()
    print("| interface | agent steps/s (CPU) | spread |")
    print("|---|---:|---:|")
    rows: list[tuple[str, Callable[[], float]]] = [
        (
            f"`Exact61-v0` batched, N = {n}",
            lambda n=n: vector_run(n, players, opponents, seconds),  # type: ignore[misc]
        )
        for n in args.num_envs
    ]
    big = max(args.num_envs)
    rows += (
        []
        if args.batched_only
        else [
            (
                f"`AgentGame`s alone, N = {big}: the core and the bots, nothing observed",
                lambda: games_run(big, players, opponents, seconds),
            ),
            ("`Exact61-v0` alone", lambda: single_run(players, opponents, seconds)),
            (
                "`Exact61-v0` in `SyncVectorEnv`, N = 16",
                lambda: sync_run(16, players, opponents, seconds),
            ),
            ("PettingZoo AEC (every seat)", lambda: pettingzoo_run(players, seconds)),
            ("OpenSpiel `python_exact61` (every seat)", lambda: openspiel_run(players, seconds)),
        ]
    )
    for label, run in rows:
        best, worst = best_of(args.repeats, run)
        print(f"| {label} | {best:,.0f} | {worst:,.0f}–{best:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
