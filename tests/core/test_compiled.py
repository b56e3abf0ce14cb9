"""The compiled build (setup.py): what it compiles exists, and a test run told to expect it
(EXACT61_EXPECT_COMPILED=1, as .ci/run does) really runs compiled code. The compiled build passes
the same tests as the pure one: .ci/run runs those of the modules it compiles against it."""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compiled_paths() -> list[str]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "COMPILED":
            return list(ast.literal_eval(node.value))
    raise AssertionError("setup.py names no COMPILED modules")


def module_name(path: str) -> str:
    return path.removeprefix("src/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def test_the_compiled_modules_are_the_packages_own() -> None:
    paths = compiled_paths()
    assert "src/exact61/core/engine.py" in paths
    for path in paths:
        assert (ROOT / path).is_file(), path


@pytest.mark.skipif(
    not os.environ.get("EXACT61_EXPECT_COMPILED"), reason="a run of the compiled build only"
)
def test_the_compiled_build_runs_compiled_modules() -> None:
    for path in compiled_paths():
        module = importlib.import_module(module_name(path))
        assert module.__file__ is not None and module.__file__.endswith(".so"), module.__file__
