"""The optional compiled build: with EXACT61_COMPILE=1, mypyc compiles the rules engine to a C
extension beside its source (docs/figures/speed.md, "The compiled build"). It needs mypy in the
build's environment: `pip install mypy "setuptools>=70.1"`, then `EXACT61_COMPILE=1 pip install
--no-build-isolation .`. Without it, the package is pure Python, as `pyproject.toml` describes."""

from __future__ import annotations

import os

from setuptools import __version__ as setuptools_version
from setuptools import setup

# The modules compiled: the engine alone (the speed page says why).
COMPILED = ["src/exact61/core/engine.py"]


def compiling() -> bool:
    return os.environ.get("EXACT61_COMPILE", "") not in ("", "0")


if compiling():
    NEEDS = (
        "EXACT61_COMPILE=1 needs mypy and setuptools 70.1 or later in the build's environment: "
        'pip install mypy "setuptools>=70.1", then pip install --no-build-isolation .'
    )
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(NEEDS) from None
    # Older setuptools build a wheel only with the `wheel` package beside them.
    if tuple(map(int, setuptools_version.split(".")[:2])) < (70, 1):
        raise SystemExit(NEEDS)

    # Its own build folder: a later pure build must not pick up the compiled modules.
    setup(
        ext_modules=mypycify(COMPILED, opt_level="3", target_dir="build/compiled/c"),
        options={"build": {"build_base": "build/compiled"}},
    )
else:
    setup()
