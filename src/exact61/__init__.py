"""Exact 61 Five Up: rules engine, match records, bots and command line.

The names here are the pure rules core (`exact61.core`); bots, rendering and the command line
live in their own subpackages and import the core, never the reverse.
"""

import os as _os
from pathlib import Path as _Path

from exact61.core import *  # noqa: F403
from exact61.core import __all__ as _core_all
from exact61.core import engines as _engines

# The one switch between the engines (docs/architecture.md): EXACT61_ENGINE=python plays every
# match on the Python engine, =native on the native one; unset, the native one where it is built.
# An engine that cannot be had is kept for the command line to say, in the player's language.
_asked = _os.environ.get("EXACT61_ENGINE", "auto").strip().lower()
try:
    _engines.use(_asked)
except _engines.EngineError as _err:
    _engines.refuse(_err)


def _stale_native() -> bool:
    """In a source checkout, whether the native module (an editable install's) was built before
    a source of the crate beside it last changed (its Rust files, or its manifest and lock file:
    a dependency or a build setting): a `git pull` without a rebuild."""
    if _engines.NATIVE is None:
        return False
    built = _Path(str(getattr(_engines.NATIVE, "__file__", "")))
    crate = _Path(__file__).resolve().parents[2] / "native"
    if not built.is_file() or not (crate / "src").is_dir():
        return False
    inputs = [*(crate / "src").glob("*.rs"), crate / "Cargo.toml", crate / "Cargo.lock"]
    newest = max((p.stat().st_mtime for p in inputs if p.is_file()), default=0.0)
    return newest > built.stat().st_mtime


if _engines.current() is _engines.NATIVE and _asked in ("", "auto") and _stale_native():
    _engines.refuse(_engines.EngineError("native", "stale"))

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
