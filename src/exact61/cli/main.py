"""The `exact61` command line: the entry point, with one-line errors instead of tracebacks.

Each command lives in its own module; importing them registers them on the application.
"""

from __future__ import annotations

import os
import sys

# Importing a command's module registers it; --help lists them in this order.
from exact61.cli import (  # noqa: F401
    play_cmd,
    records_cmds,
    rules_cmd,
    serve_cmd,
    tournament_cmd,
)

# isort: split
from exact61.cli import analyze_cmd  # noqa: F401  (listed after the others)
from exact61.cli.app import CliError, app
from exact61.core import Exact61Error


def run() -> None:
    """Entry point: one-line errors and non-zero exits instead of tracebacks."""
    try:
        app()  # usage errors: Typer prints the usage and exits 2
    except CliError as err:
        print(f"exact61: {err}", file=sys.stderr)
        sys.exit(err.code)
    except (Exact61Error, OSError) as err:
        print(f"exact61: {err}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
    except Exception as err:  # a bug: say so on one line, traceback only on request
        if os.environ.get("EXACT61_DEBUG"):
            raise
        print(
            f"exact61: internal error: {type(err).__name__}: {err} "
            "(set EXACT61_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        sys.exit(70)
