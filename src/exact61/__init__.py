"""Exact 61 Five Up: rules engine, match records, bots and command line.

The names here are the pure rules core (`exact61.core`); bots, rendering and the command line
live in their own subpackages and import the core, never the reverse.
"""

from exact61.core import *  # noqa: F403
from exact61.core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
