"""The `exact61` Typer application: shared options, errors and progress bars."""

from __future__ import annotations

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
