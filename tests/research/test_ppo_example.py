"""examples/train_ppo_agent.py end to end, tiny: it trains, saves a policy file that numpy plays
(`learned:FILE`) and evaluates it. Needs torch (the `examples` extra); skipped without it."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from exact61.bots import check_bot_players, check_bot_spec
from exact61.bots.learned import BASE_FEATURES, FEATURES, load_policy

# Looked up, not imported: importing torch would cost every collection of the suite seconds.
needs_torch = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("torch", "gymnasium")),
    reason="needs the examples extra (torch, gymnasium)",
)

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_ppo_agent.py"


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed")
def test_without_torch_the_example_says_what_it_needs_in_one_line() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--minutes", "0.01"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "train_ppo_agent.py needs PyTorch, which the examples extra installs: see "
        "docs/research.md, A learned agent"
    ]


@needs_torch
@pytest.mark.slow
@pytest.mark.parametrize("threat", [True, False])
def test_the_example_trains_and_saves_a_policy_numpy_plays(tmp_path: Path, threat: bool) -> None:
    """By default the policy reads the threat feature; `--no-threat` leaves it out."""
    out = tmp_path / "agent.npz"
    result = subprocess.run(
        [
            sys.executable,
            str(EXAMPLE),
            "--minutes",
            "0.02",
            "--workers",
            "1",
            "--games",
            "8",
            "--steps",
            "8",
            "--minibatch",
            "32",
            "--hidden",
            "16,8",
            "--eval-matches",
            "2",
            "--out",
            str(out),
            *([] if threat else ["--no-threat"]),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "against greedy, 2 new matches" in result.stdout
    policy = load_policy(out)
    assert policy.header["hidden"] == [16, 8] and policy.header["updates"] >= 1
    assert [w.shape for w, _ in policy.hidden] == [(16, 751), (8, 16)]
    assert policy.reads_threat is threat
    assert policy.header["features"] == list(FEATURES if threat else BASE_FEATURES)
    with np.load(out, allow_pickle=False) as data:  # plain arrays, no pickles
        assert json.loads(str(data["header"]))["format"] == "exact61-policy"
    check_bot_players(check_bot_spec(f"learned:{out}"), 2)
