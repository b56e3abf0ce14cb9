"""The `exact61` Typer application: shared options, errors and progress bars."""

from __future__ import annotations

import importlib
import re
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
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
from typer.core import TyperGroup, TyperOption

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


# The optional extras a command may need, and the modules they bring (pyproject.toml's lists).
EXTRAS = {"tournament": ("scipy", "matplotlib", "openskill")}


def require_extra(extra: str, command: str, *modules: str) -> None:
    """Import `modules` (default: every one of the optional extra `extra`) before any work; if one
    is missing, say on one line which extra to install (exit 2: the command cannot be run as
    installed, and nothing was done)."""
    for module in modules or EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            raise CliError(
                f"{command} needs the {extra} extra ({', '.join(EXTRAS[extra])}): "
                f"pip install 'exact61[{extra}]'"
            ) from None


def check_out(path: Path, force: bool) -> None:
    """Refuse an --out that is a folder, or a file that exists without --force (exit 2)."""
    if path.is_dir():
        raise CliError(f"{path} is a folder: give --out a file name, e.g. {path / 'matches.jsonl'}")
    if path.exists() and not force:
        raise CliError(f"{path} exists; use --force to overwrite it or choose another --out")


class WholeStep:
    """`with step:` around writing a match and counting it: a Ctrl+C meanwhile waits for the
    block's end, so that a match written is a match counted (see `whole_steps`)."""

    __slots__ = ("caught", "inside")

    def __init__(self) -> None:
        self.inside = self.caught = False

    def __enter__(self) -> None:
        self.inside = True

    def __exit__(self, *_: object) -> None:
        self.inside = False
        if self.caught:
            self.caught = False
            raise KeyboardInterrupt

    def handle(self, _signum: int, _frame: FrameType | None) -> None:
        if self.inside:
            self.caught = True
        else:
            raise KeyboardInterrupt


@contextmanager
def whole_steps() -> Iterator[WholeStep]:
    """Ctrl+C as usual (KeyboardInterrupt) while this lasts, except inside the `WholeStep` it
    gives, where it waits for the step's end. A Python handler, which runs in the main thread
    whichever thread the kernel hands the signal to (a progress bar's, a worker pool's): masking
    the signal in the main thread would not hold it back. Elsewhere, or where Ctrl+C is ignored,
    steps are plain blocks."""
    step = WholeStep()
    before = signal.getsignal(signal.SIGINT)
    # Outside the main thread no handler can be set; an ignored or foreign one is left be.
    if threading.current_thread() is not threading.main_thread() or (
        before is not signal.default_int_handler
    ):
        yield step
        return
    signal.signal(signal.SIGINT, step.handle)
    try:
        yield step
    finally:
        signal.signal(signal.SIGINT, before)


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
    """Exact 61 Five Up: the rules R1-R31 are printed by `exact61 rules` (docs/rules/)."""


def tidy_help(group: TyperGroup) -> None:
    """Help as a person reads it, for every command of `group` (as Typer built them):
    flags show no type (`--plain`, not `--plain <bool>`; `--help` too), and a docstring's
    paragraphs wrap to the screen instead of breaking where the source's lines do."""
    names = (group.context_settings or {}).get("help_option_names", ["--help"])
    for command in (group, *group.commands.values()):
        # click makes a command's help option once and keeps it: the one every --help shows
        option = command.get_help_option(typer.Context(command, help_option_names=names))
        if option is not None:
            option.metavar = ""
        for param in command.params:
            if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
                param.metavar = ""
    for command in group.commands.values():
        if command.help:
            command.help = "\n\n".join(
                re.sub(r"\s*\n\s*", " ", paragraph.strip())
                for paragraph in command.help.split("\n\n")
            )
