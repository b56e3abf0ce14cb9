"""The `exact61` command line: the entry point, with one-line errors instead of tracebacks.

Each command lives in its own module; importing them registers them on the application.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

# Importing a command's module registers it; --help lists them in this order.
from exact61.cli import (  # noqa: F401
    play_cmd,
    puzzle_cmd,
    records_cmds,
    rules_cmd,
    serve_cmd,
    tournament_cmd,
)

# isort: split
import typer.main
from typer.core import TyperGroup
from typer.exceptions import TyperException

from exact61.cli import analyze_cmd, export_cmd, learn_cmd  # noqa: F401  (listed after the others)
from exact61.cli.app import ENGINE_NAMES, CliError, app, tidy_help
from exact61.cli.usage import help_language, speak_help, usage_error
from exact61.core import Exact61Error, engines
from exact61.i18n import _


class ReaderGone(Exception):
    """Standard output's reader went away (`| head`): a command's broken pipe, carried past
    click, which would end the command with status 1 itself."""


def _reader_may_go(callback: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(callback)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return callback(*args, **kwargs)
        except BrokenPipeError:
            raise ReaderGone from None

    return wrapped


def say_engine_refused(group: TyperGroup, args: Sequence[str]) -> None:
    """One line, in the command's language as its help chooses it (`exact61 ARGS`: --lang
    wherever it stands, else the locale's; `serve` English), when the engine asked for cannot
    be had (`engines.refused`): one EXACT61_ENGINE names, or the native one by default where it
    is older than its sources. The command goes on, on the engine that plays instead."""
    refusal = engines.refused()
    if refusal is None:
        return
    named = group.commands.get(args[0]) if args else None
    help_language(named or group, args)
    playing = _(ENGINE_NAMES[engines.current().ENGINE])
    if refusal.problem == "stale":  # asked for by no switch: the default, in a source checkout
        line = _(
            "the native engine is older than its sources (pip install -e . again); "
            "playing on the {engine}"
        ).format(engine=playing)
    else:
        reasons = {
            "unknown": _("no engine of that name (python or native)"),
            "not built": _("the native engine is not built here (install exact61 with cargo)"),
        }
        line = _("EXACT61_ENGINE={name}: {reason}; playing on the {engine}").format(
            name=refusal.name, reason=reasons[refusal.problem], engine=playing
        )
    print("exact61: " + line, file=sys.stderr)


def run() -> None:
    """Entry point: one-line errors and non-zero exits instead of tracebacks (docs/commands.md
    gives the exit statuses). What is said here is in the command's language: `play`, `rules`,
    `analyze`, `simulate`, `tournament`, `replay`, `show` and `equity` choose it before reading
    their other options (`--lang`, else the locale's), their usage errors included
    (`usage_error`) and their help (`speak_help`; `exact61 -h`: the locale's); `serve`, for
    whoever hosts, speaks English, click's words for a usage error and its help too."""
    try:
        # Not standalone: a usage error comes back here to be said on one line, like the
        # project's own errors, instead of Typer's usage text and framed box.
        command = typer.main.get_command(app)
        assert isinstance(command, TyperGroup)
        say_engine_refused(command, sys.argv[1:])
        tidy_help(command)
        speak_help(command)  # -h in the command's language, as the rest of what it says
        for each in command.commands.values():
            if each.callback is not None:
                each.callback = _reader_may_go(each.callback)
        code = command(standalone_mode=False, prog_name="exact61")
    except TyperException as err:  # Typer's (click's) usage errors: a bad option, exit 2
        if type(err).__name__ == "NoArgsIsHelpError":  # `exact61` alone: the list of commands
            print(err.format_message(), file=sys.stderr)
            sys.exit(err.exit_code)
        try:
            said = usage_error(err, sys.argv[1:])
        except Exception:  # taking click's error apart failed: click's own words, still one line
            said = f"exact61: {err.format_message()}"
        print(said, file=sys.stderr)
        sys.exit(err.exit_code)
    except ReaderGone:  # stop quietly: nothing more can be said to the reader
        with contextlib.suppress(OSError, ValueError):  # flushing at exit would fail again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
    except CliError as err:
        print(f"exact61: {err}", file=sys.stderr)
        sys.exit(err.code)
    except (Exact61Error, OSError) as err:
        print(f"exact61: {err}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as err:  # a bug: say so on one line, traceback only on request
        if os.environ.get("EXACT61_DEBUG"):
            raise
        print(
            "exact61: "
            + _("internal error: {error} (set EXACT61_DEBUG=1 for the traceback)").format(
                error=f"{type(err).__name__}: {err}"
            ),
            file=sys.stderr,
        )
        sys.exit(70)
    else:
        if isinstance(code, int) and code:  # typer.Exit(code) from a command
            sys.exit(code)
