"""The `exact61` Typer application: shared options, errors and progress bars."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from exact61 import __version__
from exact61.bots import check_bot_spec

app = typer.Typer(
    name="exact61",
    help="Exact 61 Five Up: play, serve games online, simulate and analyse matches.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
err_console = Console(stderr=True, highlight=False)


class CliError(Exception):
    """An error to report on one line with exit status `code`."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@contextmanager
def whole_step() -> Iterator[None]:
    """Hold Ctrl+C back until the block is done, so that a match written is a match counted.

    A SIGINT that arrives meanwhile stays pending and raises KeyboardInterrupt as the block
    ends. Where signals cannot be masked (Windows, other threads) the block runs as it is."""
    if (
        not hasattr(signal, "pthread_sigmask")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def progress_bar(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    )


def _version(value: bool) -> None:
    if value:
        print(f"exact61 {__version__}")
        raise typer.Exit()


def bot_spec(value: str) -> str:
    try:
        return check_bot_spec(value)
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None


@app.callback()
def main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """Exact 61 Five Up: the rules are in shared/rules/SPEC.md (R1-R31)."""
