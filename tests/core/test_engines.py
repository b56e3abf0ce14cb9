"""The switch between the engines (`exact61.core.engines`): one variable, EXACT61_ENGINE, read
once when `exact61` is imported; a match plays on the engine chosen, or on one it is given."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from exact61.core import Match, engines
from exact61.core.engine import BOOK
from tests.helpers import native_engine


def test_the_engine_in_use_is_the_one_the_switch_names() -> None:
    asked = os.environ.get("EXACT61_ENGINE", "auto")
    expected = (engines.NATIVE or engines.PYTHON) if asked == "auto" else engines.named(asked)
    assert engines.current() is expected
    assert Match(2)._engine is expected  # noqa: SLF001 - which engine a match holds


def test_engines_are_named_and_a_wrong_name_is_refused() -> None:
    assert engines.named("python") is engines.PYTHON
    assert engines.PYTHON.ENGINE == "python"
    with pytest.raises(engines.EngineError, match="no engine 'rust': choose from python, native"):
        engines.named("rust")


def test_a_match_plays_on_the_engine_it_is_given() -> None:
    native = native_engine()
    assert native.ENGINE == "native"
    seen = []
    for engine in (engines.PYTHON, native):
        match = Match(3, engine=engine)
        match.deal_next_round(random.Random(5))
        position = match.position()
        assert isinstance(position, list) == (engine is engines.PYTHON)
        seen.append(list(position)[:BOOK])  # either engine's position reads as the list
        assert match.copy().legal_actions() == match.legal_actions()
    assert seen[0] == seen[1]


def test_a_wrong_switch_is_kept_and_the_default_plays() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import exact61.core.engines as e; print(e.current().ENGINE, e.refused().problem)",
        ],
        env={**os.environ, "EXACT61_ENGINE": "fast"},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0 and run.stderr == ""  # a library says nothing: the CLI does
    assert run.stdout.split() == [(engines.NATIVE or engines.PYTHON).ENGINE, "unknown"]


@pytest.mark.slow
def test_the_command_line_says_a_wrong_switch_in_one_line_in_the_players_language() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "exact61", "--version"],
        env={**os.environ, "EXACT61_ENGINE": "fast", "LANGUAGE": "de"},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0 and run.stdout.startswith("exact61 ")
    assert run.stderr.startswith("exact61: EXACT61_ENGINE=fast: keine Engine dieses Namens")
    assert run.stderr.count("\n") == 1
