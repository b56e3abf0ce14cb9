"""The optional compiled build: with EXACT61_COMPILE=1, mypyc compiles the rules engine's hot
modules to C extensions beside their sources (docs/figures/speed.md, "The compiled build").
Without it, the package is pure Python, as `pyproject.toml` alone describes it."""

from __future__ import annotations

import os

from setuptools import setup

# The modules compiled: the engine (see the speed page for why no more).
COMPILED = ["src/exact61/core/engine.py"]


def compiling() -> bool:
    return os.environ.get("EXACT61_COMPILE", "") not in ("", "0")


if compiling():
    from mypyc.build import mypycify

    # Its own build folder: a later pure build must not pick up the compiled modules.
    setup(
        ext_modules=mypycify(COMPILED, opt_level="3", target_dir="build/compiled/c"),
        options={"build": {"build_base": "build/compiled"}},
    )
else:
    setup()
