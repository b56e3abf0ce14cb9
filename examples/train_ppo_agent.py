"""Train a masked PPO policy on the batched `Exact61-v0` (2 players), save it for `learned:FILE`.

    pip install -e ".[examples]"             # torch 2.13.0 (its CPU build: docs/research.md), ...
    python examples/train_ppo_agent.py --minutes 30 --seed 1 --out ppo_agent.npz
    exact61 tournament --bots learned:ppo_agent.npz,greedy --players 2 --matches 400 --seed 1
    exact61 play --seats human,learned:ppo_agent.npz

The policy reads the 751-number observation and scores each of the 450 actions; illegal
actions' logits are minus infinity (the environment's action mask), so it only ever samples a
legal action. Its network is `exact61.bots.learned`'s format 1: hidden layers, a head per
action, and for each action its credit, landing exactly on 61, a rejected credit and its tile's
pips, weighted by the state (see that module). A separate value network (not saved) is the
critic. PPO (clipped, GAE) on games played by `--workers` processes, each holding batched
environments against the project's bots and against earlier snapshots of the policy itself
(self-play, through `learned:SNAPSHOT`, the bot that plays the saved file). The reward is the
match's (+1 for reaching exactly 61, -1 for the other side), with potential-based shaping by
the match equity table (`exact61 equity`: the own side's chance to win from the scores), which
leaves the best policy unchanged and tells each round's worth at once.

It trains for `--minutes` of wall-clock time (a progress bar shows the running win rate against
each opponent), then writes `--out`: a plain `.npz` of float32 weights and a JSON header that
numpy alone plays (`exact61.bots.learned`). `--eval-matches` more matches against `greedy`,
played by that numpy bot, end the run. torch is imported here only.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import math
import multiprocessing as mp
import os
import random
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from exact61.bots.learned import (
    ACTION_PIPS,
    BASE_FEATURES,
    CREDIT_SCALE,
    FEATURES,
    forward,
    policy_from_arrays,
    policy_header,
    reply_threats,
)
from exact61.bots.observation import ACTION_COUNT, OBSERVATION_SIZE, OBSERVATION_SLICES
from exact61.core import TARGET_RAW

PLAYERS = 2
CREDITS = OBSERVATION_SLICES["credits"]
SCORES = OBSERVATION_SLICES["scores"].start  # own side first, then the other


# ---- the games: worker processes, each with batched environments ------------------------------


def threats(envs: list[Any]) -> np.ndarray:
    """The `threat` feature of every game of `envs` where the agent now stands (one row of 450
    a game, in the order of the games' observations)."""
    rows = []
    for env in envs:
        for game in env.games:
            match = game.match
            if match.to_act == game.seat:
                rows.append(reply_threats(match.view(game.seat), match.legal_actions()))
            else:  # an episode that ended and was not started again: nothing to choose
                rows.append(np.zeros(ACTION_COUNT, np.float32))
    return np.stack(rows)


def worker(conn: Any, groups: list[tuple[str, int]], seed: int, threat: bool) -> None:
    """Play the games of `groups` ((opponent, games), each a batched Exact61-v0) with the
    policy last sent, sampling its actions (numpy), a rollout of T steps per request; with
    `threat`, each step's threat feature too."""
    from exact61.research.vector import Exact61VectorEnv

    def make(spec: str, n: int) -> Any:
        # the threat feature reads each game's match: the Python games, not the native ones
        return Exact61VectorEnv(
            n, PLAYERS, opponents=spec, autoreset_mode="SameStep", native=not threat
        )

    rng = np.random.default_rng(seed)
    table = equity_potential()
    envs = [make(spec, n) for spec, n in groups]
    labels = [label(spec) for spec, _ in groups]
    starts = [env.reset(seed=seed * 1000 + k) for k, env in enumerate(envs)]
    obs = np.concatenate([o for o, _ in starts])
    mask = np.concatenate([i["action_mask"] for _, i in starts]) != 0
    policy = None
    while True:
        command, arg = conn.recv()
        if command == "policy":
            policy = policy_from_arrays(arg)
        elif command == "opponent":  # a group's games start again against another opponent
            k, spec, game_seed = arg
            envs[k].close()
            envs[k] = make(spec, groups[k][1])
            labels[k] = label(spec)
            envs[k].reset(seed=game_seed)
            obs = np.concatenate([env.observations for env in envs])
            mask = np.concatenate([env.masks for env in envs]) != 0
        elif command == "rollout":
            assert policy is not None
            steps, shaping = arg
            n = len(obs)
            out = {
                "obs": np.zeros((steps, n, OBSERVATION_SIZE), np.float32),
                "mask": np.zeros((steps, n, ACTION_COUNT), np.bool_),
                "act": np.zeros((steps, n), np.int64),
                "logp": np.zeros((steps, n), np.float32),
                "rew": np.zeros((steps, n), np.float32),
                "done": np.zeros((steps, n), np.float32),
            }
            if threat:
                out["threat"] = np.zeros((steps, n, ACTION_COUNT), np.float32)
            results: list[tuple[str, float]] = []
            for t in range(steps):
                now = threats(envs) if threat else None
                logits = forward(policy, obs, mask, now).astype(np.float64)
                # a sample of the masked softmax (Gumbel-max), and its log-probability
                choice = np.argmax(logits + rng.gumbel(size=logits.shape), axis=1)
                top = logits.max(axis=1, keepdims=True)
                norm = top[:, 0] + np.log(np.exp(logits - top).sum(axis=1))
                out["obs"][t], out["mask"][t], out["act"][t] = obs, mask, choice
                if now is not None:
                    out["threat"][t] = now
                out["logp"][t] = logits[np.arange(n), choice] - norm
                before = potentials(obs, table)
                parts, at = [], 0
                for env, size in zip(envs, (e.num_envs for e in envs), strict=True):
                    parts.append(env.step(choice[at : at + size]))
                    at += size
                obs = np.concatenate([q[0] for q in parts])
                mask = np.concatenate([q[4]["action_mask"] for q in parts]) != 0
                reward = np.concatenate([q[1] for q in parts])
                done = np.concatenate([q[2] | q[3] for q in parts])
                after = np.where(done, 0.0, potentials(obs, table))
                out["rew"][t] = reward + shaping * (after - before)
                out["done"][t] = done
                at = 0
                for k, env in enumerate(envs):
                    for i in np.flatnonzero(done[at : at + env.num_envs]):
                        results.append((labels[k], float(reward[at + i] > 0)))
                    at += env.num_envs
            out["last_obs"] = obs.copy()
            conn.send((out, results))
        else:
            conn.close()
            return


def label(spec: str) -> str:
    return "self" if spec.startswith("learned:") else spec


class Games:
    """The workers: each plays its groups of games; a rollout is asked of all at once."""

    def __init__(self, layout: list[list[tuple[str, int]]], seed: int, threat: bool) -> None:
        context = mp.get_context("spawn")
        self.layout = layout
        self.conns = []
        self.procs = []
        for w, groups in enumerate(layout):
            parent, child = context.Pipe()
            proc = context.Process(
                target=worker, args=(child, groups, seed * 100 + w, threat), daemon=True
            )
            proc.start()
            self.conns.append(parent)
            self.procs.append(proc)

    def send_policy(self, arrays: dict[str, Any]) -> None:
        for conn in self.conns:
            conn.send(("policy", arrays))

    def set_opponent(self, worker_index: int, group: int, spec: str, seed: int) -> None:
        self.conns[worker_index].send(("opponent", (group, spec, seed)))
        self.layout[worker_index][group] = (spec, self.layout[worker_index][group][1])

    def ask(self, steps: int, shaping: float) -> None:
        for conn in self.conns:
            conn.send(("rollout", (steps, shaping)))

    def collect(self) -> tuple[dict[str, np.ndarray], list[tuple[str, float]]]:
        parts = [conn.recv() for conn in self.conns]
        axis = {"last_obs": 0}
        batch = {
            key: np.concatenate([p[0][key] for p in parts], axis=axis.get(key, 1))
            for key in parts[0][0]
        }
        return batch, [r for p in parts for r in p[1]]

    def close(self) -> None:
        for conn in self.conns:
            conn.send(("close", None))
        for proc in self.procs:
            proc.join(timeout=5)


# ---- the shaping: the own side's match equity from the scores --------------------------------


def equity_potential() -> np.ndarray:
    """2 x (own side's chance to win) - 1 for each pair of display scores (62 x 62)."""
    from exact61.search.equity import default_table

    table = default_table()
    out = np.zeros((62, 62), np.float32)
    for own in range(62):
        for other in range(62):
            if own == 61 or other == 61:
                out[own, other] = 1.0 if own == 61 else -1.0
            else:
                p = table.win_probabilities(PLAYERS, [5 * own, 5 * other], None)[0]
                out[own, other] = 2.0 * p - 1.0
    return out


def potentials(obs: np.ndarray, table: np.ndarray) -> np.ndarray:
    display = np.clip(np.rint(obs[:, SCORES : SCORES + 2] * TARGET_RAW) // 5, 0, 61).astype(int)
    return table[display[:, 0], display[:, 1]]


# ---- the network (format 1 of exact61.bots.learned) -----------------------------------------


def build(hidden: list[int], features: tuple[str, ...]) -> tuple[Any, Any]:
    import torch
    from torch import nn

    class Actor(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            sizes = [OBSERVATION_SIZE, *hidden]
            self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))
            self.policy = nn.Linear(sizes[-1], ACTION_COUNT)
            self.features = nn.Linear(sizes[-1], len(features))
            nn.init.orthogonal_(self.policy.weight, 0.01)
            nn.init.zeros_(self.policy.bias)
            nn.init.orthogonal_(self.features.weight, 0.01)
            # A start near greedy: credit good, exact 61 better, passing bad (and, read, the next
            # seat's expected reply as bad as the credit is good).
            start = [10.0, 10.0, -10.0, 1.0, -10.0][: len(features)]
            with torch.no_grad():
                self.features.bias.copy_(torch.tensor(start))
            self.register_buffer("pips", torch.from_numpy(ACTION_PIPS.copy()))

        def phi(self, x: Any, threat: Any) -> Any:
            credits = torch.round(x[:, CREDITS] * TARGET_RAW)
            own = torch.round(x[:, SCORES] * TARGET_RAW)[:, None]
            scored = credits > 0
            total = own + credits
            pips = self.pips.expand_as(credits)
            rows = [
                credits / CREDIT_SCALE,
                (scored & (total == TARGET_RAW)).float(),
                (scored & (total > TARGET_RAW)).float(),
                pips,
            ]
            if threat is not None:
                rows.append(threat)
            return torch.stack(rows, dim=1)

        def forward(self, x: Any, threat: Any = None) -> Any:
            phi = self.phi(x, threat)
            h = x
            for layer in self.hidden:
                h = torch.relu(layer(h))
            per_feature = self.features(h)
            return self.policy(h) + torch.einsum("bf,bfa->ba", per_feature, phi)

    critic = nn.Sequential(
        nn.Linear(OBSERVATION_SIZE, hidden[0]),
        nn.ReLU(),
        nn.Linear(hidden[0], hidden[-1]),
        nn.ReLU(),
        nn.Linear(hidden[-1], 1),
    )
    return Actor(), critic


def policy_arrays(actor: Any, hidden: list[int], extra: dict[str, Any]) -> dict[str, Any]:
    """The arrays of a policy file: the header (JSON) and the actor's weights, float32."""
    features = FEATURES if actor.features.out_features == len(FEATURES) else BASE_FEATURES
    header = policy_header(hidden, PLAYERS, "relu", features, **extra)
    arrays: dict[str, Any] = {"header": np.array(json.dumps(header))}
    for k, layer in enumerate(actor.hidden):
        arrays[f"hidden.{k}.weight"] = layer.weight.detach().numpy().astype(np.float32)
        arrays[f"hidden.{k}.bias"] = layer.bias.detach().numpy().astype(np.float32)
    for name in ("policy", "features"):
        layer = getattr(actor, name)
        arrays[f"{name}.weight"] = layer.weight.detach().numpy().astype(np.float32)
        arrays[f"{name}.bias"] = layer.bias.detach().numpy().astype(np.float32)
    return arrays


def save(path: Path, arrays: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".part.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


# ---- evaluation with numpy alone --------------------------------------------------------------


def wilson(wins: int, n: int) -> tuple[float, float]:
    z = 1.959963984540054
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def evaluate(arrays: dict[str, Any], matches: int, seed: int, opponent: str) -> int:
    """Matches won by the saved policy (numpy, argmax) against `opponent`: each of the batched
    games plays its share of the matches one after another, so no match is left out for
    taking long."""
    from exact61.research.vector import Exact61VectorEnv

    policy = policy_from_arrays(arrays)
    n = min(matches, 50)
    quota = np.array([matches // n + (i < matches % n) for i in range(n)])
    env = Exact61VectorEnv(
        n, PLAYERS, opponents=opponent, autoreset_mode="SameStep", native=not policy.reads_threat
    )
    obs, info = env.reset(seed=seed)
    played = np.zeros(n, int)
    wins = 0
    while (played < quota).any():
        threat = threats([env]) if policy.reads_threat else None
        actions = forward(policy, obs, info["action_mask"], threat).argmax(axis=1)
        obs, reward, term, trunc, info = env.step(actions)
        counted = (term | trunc) & (played < quota)
        wins += int((reward[counted] > 0).sum())
        played += term | trunc
    env.close()
    return wins


# ---- PPO --------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="wall-clock training time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("ppo_agent.npz"))
    parser.add_argument("--workers", type=int, default=2, help="processes playing the games")
    parser.add_argument("--games", type=int, default=64, help="games per worker")
    parser.add_argument("--steps", type=int, default=64, help="steps per game per update")
    parser.add_argument("--hidden", default="128,128", help="hidden layer sizes")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatch", type=int, default=1024)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.003)
    parser.add_argument("--shaping", type=float, default=1.0, help="weight of the equity shaping")
    parser.add_argument(
        "--mix",
        default="greedy:5,heuristic:1,random:1,self:1",
        help="opponents and their shares of each worker's games; self: snapshots of the policy",
    )
    parser.add_argument("--snapshot-every", type=float, default=2.0, help="minutes")
    parser.add_argument("--eval-matches", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1, help="torch threads for the updates")
    parser.add_argument(
        "--no-threat",
        dest="threat",
        action="store_false",
        help="leave out the threat feature (the next seat's expected reply to each placement)",
    )
    args = parser.parse_args()
    if importlib.util.find_spec("torch") is None:
        raise SystemExit(
            "train_ppo_agent.py needs PyTorch, which the examples extra installs: see "
            "docs/research.md, A learned agent"
        )

    import torch
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    hidden = [int(n) for n in args.hidden.split(",")]
    actor, critic = build(hidden, FEATURES if args.threat else BASE_FEATURES)
    optimiser = torch.optim.Adam([*actor.parameters(), *critic.parameters()], lr=args.lr, eps=1e-5)

    snapshots_dir = Path(tempfile.mkdtemp(prefix="exact61-ppo-"))
    snapshots: list[Path] = []

    def snapshot() -> str:
        path = snapshots_dir / f"snapshot-{len(snapshots)}.npz"
        save(path, policy_arrays(actor, hidden, {"snapshot": len(snapshots)}))
        snapshots.append(path)
        return f"learned:{path}"

    first = snapshot()
    shares = [(name, float(w)) for name, _, w in (s.partition(":") for s in args.mix.split(","))]
    total_share = sum(w for _, w in shares)
    layout: list[list[tuple[str, int]]] = []
    for _ in range(args.workers):
        groups = []
        for name, w in shares:
            n = max(1, round(args.games * w / total_share))
            groups.append((first if name == "self" else name, n))
        layout.append(groups)
    # One thread for the workers' linear algebra (they inherit this): with the cores shared by
    # the processes, more threads only wait on each other.
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    games = Games(layout, args.seed, args.threat)

    results: dict[str, deque[float]] = {}
    started = time.monotonic()
    deadline = started + args.minutes * 60
    last_snapshot = started
    updates = steps_done = episodes = 0
    printed = 0.0
    params = [*actor.parameters(), *critic.parameters()]

    def train(batch: dict[str, np.ndarray]) -> None:
        """One PPO update on a rollout (played by the policy one update older: the ratio is
        taken against the log-probabilities it sampled with)."""
        steps, n = batch["act"].shape
        with torch.no_grad():
            values = critic(torch.from_numpy(batch["obs"].reshape(-1, OBSERVATION_SIZE)))
            values = values.reshape(steps, n).numpy()
            next_val = critic(torch.from_numpy(batch["last_obs"])).squeeze(1).numpy()
        adv = np.zeros((steps, n), np.float32)
        last = np.zeros(n, np.float32)
        for t in reversed(range(steps)):  # GAE, bootstrapped where each game stands
            nonterminal = 1.0 - batch["done"][t]
            nv = next_val if t == steps - 1 else values[t + 1]
            delta = batch["rew"][t] + args.gamma * nv * nonterminal - values[t]
            last = delta + args.gamma * args.lam * nonterminal * last
            adv[t] = last
        ret = adv + values
        frac = max(0.0, 1.0 - (time.monotonic() - started) / (args.minutes * 60))
        for group in optimiser.param_groups:  # the rate decays with the time left
            group["lr"] = args.lr * max(frac, 0.05)
        x = torch.from_numpy(batch["obs"].reshape(-1, OBSERVATION_SIZE))
        m = torch.from_numpy(batch["mask"].reshape(-1, ACTION_COUNT))
        acts = torch.from_numpy(batch["act"].reshape(-1))
        threat = (
            torch.from_numpy(batch["threat"].reshape(-1, ACTION_COUNT)) if args.threat else None
        )
        old_logp = torch.from_numpy(batch["logp"].reshape(-1))
        advs = torch.from_numpy(adv.reshape(-1))
        rets = torch.from_numpy(ret.reshape(-1))
        size = x.shape[0]
        for _ in range(args.epochs):
            order = torch.randperm(size)
            for k in range(0, size, args.minibatch):
                idx = order[k : k + args.minibatch]
                logits = actor(x[idx], None if threat is None else threat[idx])
                logits = logits.masked_fill(~m[idx], -1e9)
                dist = torch.distributions.Categorical(logits=logits, validate_args=False)
                logp = dist.log_prob(acts[idx])
                ratio = torch.exp(logp - old_logp[idx])
                adv_b = advs[idx]
                adv_b = (adv_b - adv_b.mean()) / (adv_b.std() + 1e-8)
                surrogate = torch.min(
                    ratio * adv_b, torch.clamp(ratio, 1 - args.clip, 1 + args.clip) * adv_b
                )
                value = critic(x[idx]).squeeze(1)
                loss = (
                    -surrogate.mean()
                    + 0.5 * ((value - rets[idx]) ** 2).mean()
                    - args.entropy * dist.entropy().mean()
                )
                optimiser.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, 0.5)
                optimiser.step()

    console = Console()
    progress = Progress(
        TextColumn("[bold]PPO[/]"),
        BarColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[status]}"),
        console=console,
        disable=not console.is_terminal,  # a log gets the lines below, not a bar cut to width
    )
    with progress:
        task = progress.add_task("train", total=args.minutes * 60, status="starting")
        # The workers play the next rollout while this process learns from the last one.
        games.send_policy(policy_arrays(actor, hidden, {}))
        games.ask(args.steps, args.shaping)
        while True:
            waited = time.monotonic()
            batch, finished = games.collect()
            now = time.monotonic()
            waited = now - waited
            more = now < deadline
            if more:
                games.send_policy(policy_arrays(actor, hidden, {}))
                if now - last_snapshot >= args.snapshot_every * 60:  # a newer self to play
                    last_snapshot = now
                    snapshot()
                    for w, groups in enumerate(games.layout):
                        for g, (spec, _) in enumerate(groups):
                            if spec.startswith("learned:"):
                                pick = rng.choice(snapshots[-5:])
                                games.set_opponent(w, g, f"learned:{pick}", rng.randrange(2**31))
                    save(args.out, policy_arrays(actor, hidden, {"minutes": (now - started) / 60}))
                games.ask(args.steps, args.shaping)
            for name, won in finished:
                results.setdefault(name, deque(maxlen=1000)).append(won)
            episodes += len(finished)
            steps_done += batch["act"].size
            learning = time.monotonic()
            train(batch)
            learning = time.monotonic() - learning
            updates += 1
            rates = "  ".join(
                f"{name} {np.mean(r):.0%}" for name, r in sorted(results.items()) if r
            )
            status = (
                f"{updates} updates, {steps_done:,} steps, {episodes:,} matches  {rates}"
                f"  (waited {waited:.1f} s for games, learned {learning:.1f} s)"
            )
            elapsed = time.monotonic() - started
            progress.update(task, completed=min(elapsed, args.minutes * 60), status=status)
            if not progress.console.is_terminal and elapsed - printed >= 60:  # a log, not a bar
                printed = elapsed
                progress.console.print(f"{elapsed / 60:5.1f} min: {status}", soft_wrap=True)
            if not more:
                break
    games.close()
    minutes = (time.monotonic() - started) / 60
    info = {
        "minutes": round(minutes, 1),
        "updates": updates,
        "steps": steps_done,
        "matches": episodes,
        "seed": args.seed,
        "mix": args.mix,
    }
    arrays = policy_arrays(actor, hidden, info)
    # The file must play as the network trained: numpy's forward pass against torch's.
    probe = batch["obs"].reshape(-1, OBSERVATION_SIZE)[:256]
    probe_threat = batch["threat"].reshape(-1, ACTION_COUNT)[:256] if args.threat else None
    with torch.no_grad():
        want = actor(
            torch.from_numpy(probe),
            None if probe_threat is None else torch.from_numpy(probe_threat),
        ).numpy()
    got = forward(policy_from_arrays(arrays), probe, threat=probe_threat)
    assert np.allclose(want, got, atol=1e-3), "numpy and torch disagree"
    save(args.out, arrays)
    print(
        f"trained {minutes:.1f} min: {updates} updates, {steps_done:,} steps, {episodes:,} matches"
    )
    print(f"saved {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")
    if args.eval_matches:
        wins = evaluate(arrays, args.eval_matches, 10_000_000 + args.seed, "greedy")
        low, high = wilson(wins, args.eval_matches)
        print(
            f"against greedy, {args.eval_matches} new matches (numpy, argmax): "
            f"{wins / args.eval_matches:.1%} ({low:.1%}-{high:.1%}), {wins} of {args.eval_matches}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
