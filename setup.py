"""How the package is built: its modules as they are, or those a game and a search step through
compiled by Cython from the same sources, unchanged, to C extensions (docs/figures/speed.md,
"The compiled build"). The sources stay plain Python: Cython is told to ignore their type
annotations, so the compiled modules behave exactly as the pure ones and pass the same tests.

EXACT61_COMPILE decides:
- unset: a wheel (`pip install .`, `python -m build`) compiles them when it can and keeps the
  pure modules when it cannot (no C compiler); an editable install (`pip install -e .`) stays
  pure, so that a change to the sources takes effect at once;
- 1: compile, and fail when that is impossible;
- 0: pure Python.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

# The modules compiled: the rules, the game loop and the random bot (what `simulate` runs), and
# the searches (what the strong bots, the hints and the analysis run).
COMPILED = [
    "src/exact61/core/actions.py",
    "src/exact61/core/deal.py",
    "src/exact61/core/engine.py",
    "src/exact61/core/layout.py",
    "src/exact61/core/log.py",
    "src/exact61/core/match.py",
    "src/exact61/core/points.py",
    "src/exact61/core/records.py",
    "src/exact61/core/settlement.py",
    "src/exact61/core/tiles.py",
    "src/exact61/core/views.py",
    "src/exact61/table/__init__.py",
    "src/exact61/bots/simple.py",
    "src/exact61/bots/ismcts.py",
    "src/exact61/bots/pimc.py",
    "src/exact61/bots/expert.py",
    "src/exact61/search/equity.py",
    "src/exact61/search/evaluate.py",
    "src/exact61/search/sampler.py",
    "src/exact61/search/solver.py",
]
DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,  # an annotation is not a check: behave as the pure module does
    "binding": True,  # functions keep their signatures and docstrings
}


def mode() -> str:
    """'pure', 'try' (compile if possible) or 'must' (compile or fail), from EXACT61_COMPILE."""
    asked = os.environ.get("EXACT61_COMPILE", "")
    if asked == "0" or (asked == "" and "editable_wheel" in sys.argv):
        return "pure"
    return "must" if asked == "1" else "try"


def extensions(required: bool) -> list[object]:
    """The compiled modules' extensions; none when Cython is missing and not `required`."""
    try:
        from Cython.Build import cythonize
    except ImportError:
        if required:
            raise SystemExit(
                "EXACT61_COMPILE=1 needs Cython in the build's environment (pip installs it for "
                "a build in isolation; with --no-build-isolation: pip install 'cython>=3.1')"
            ) from None
        return []
    found = cythonize(
        COMPILED,
        build_dir="build/cython",  # the generated C stays out of the sources
        compiler_directives=DIRECTIVES,
        quiet=True,
    )
    for extension in found:
        extension.optional = not required  # no C compiler: the pure module, with a warning
        if sys.platform != "win32":
            extension.extra_compile_args.append("-g0")  # no debug symbols: a fifth of the size
    return list(found)


chosen = mode()
if chosen == "pure":
    setup()
else:
    setup(
        ext_modules=extensions(chosen == "must"),
        options={"build_ext": {"parallel": os.cpu_count() or 1}},
    )
