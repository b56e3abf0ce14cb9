"""A program that only makes an environment hears of an `EXACT61_ENGINE` that could not be had
(the command line says it in one line; a research script would otherwise never know which engine
it measured)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

MAKE_EACH = """
import warnings
warnings.simplefilter("always")
import gymnasium
import exact61.research.gymnasium
from exact61.research.pettingzoo import env
from exact61.research.openspiel import Exact61Game
with warnings.catch_warnings(record=True) as heard:
    gymnasium.make("Exact61-v0")
    gymnasium.make_vec("Exact61-v0", num_envs=2, vectorization_mode="vector_entry_point")
    env()
    Exact61Game()
for warning in heard:
    if warning.category is RuntimeWarning:
        print(warning.message)
"""


@pytest.mark.parametrize(("asked", "heard"), [("pyhton", 4), ("python", 0)])
def test_an_engine_that_cannot_be_had_is_warned_of_by_every_environment(
    asked: str, heard: int
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", MAKE_EACH],
        env={**os.environ, "EXACT61_ENGINE": asked},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    assert len(said) == heard, done.stdout
    for line in said:
        assert line.startswith("EXACT61_ENGINE=pyhton: no engine 'pyhton': choose from python, ")
        assert line.endswith(" engine")
