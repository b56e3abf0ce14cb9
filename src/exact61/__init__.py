"""Exact 61 Five Up: rules engine, match records, bots and command line.

The names here are the pure rules core (`exact61.core`); bots, rendering and the command line
live in their own subpackages and import the core, never the reverse.
"""

import os as _os

from exact61.core import *  # noqa: F403
from exact61.core import __all__ as _core_all
from exact61.core import engines as _engines

# The one switch between the engines (docs/architecture.md): EXACT61_ENGINE=python plays every
# match on the Python engine, =native on the native one (an error where it is not built);
# unset, the native one where it is built.
_asked = _os.environ.get("EXACT61_ENGINE", "auto").strip().lower()
try:
    _engines.use(_asked)
except ValueError as _err:  # a misspelt switch should not stop the game: one line says so
    import sys as _sys

    _engine = _engines.current().ENGINE
    print(f"exact61: EXACT61_ENGINE={_asked}: {_err}; using the {_engine} engine", file=_sys.stderr)

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
