"""The `exact61` Typer application: shared options, errors and progress bars."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import re
import shlex
import shutil
import signal
import sys
import textwrap
import threading
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Annotated
from urllib.parse import unquote, urlparse

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text
from typer.core import TyperArgument, TyperGroup, TyperOption

from exact61 import __version__, i18n
from exact61.bots import MAX_ITERATIONS, BotSpecError, check_bot_spec
from exact61.core import engines
from exact61.i18n import N_, _, ngettext, number

app = typer.Typer(
    name="exact61",
    help=N_("Exact 61 Five Up: play, serve games online, simulate and analyse matches."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Help as plain text: an option's name and what one types stand together on the left, its
    # words wrap beside them at any width (Rich's boxed tables cut long option names at 80
    # columns), and a screen reader or a pipe gets no box-drawing characters.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
err_console = Console(stderr=True, highlight=False)


class CliError(Exception):
    """An error to report on one line with exit status `code`."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def choose_language(lang: str | None) -> str:
    """The language of a command that takes `--lang` (else the locale's), taken at once: what it
    says from here on, its errors included, is in that language. An unknown `--lang` is said in
    the locale's (exit 2)."""
    language = (lang or i18n.language_from_environment()).strip().lower()
    if language not in i18n.LANGUAGES:
        i18n.use(i18n.language_from_environment())
        raise CliError(
            _("unknown language {language}; choose from {choices}").format(
                language=repr(lang), choices=", ".join(i18n.LANGUAGES)
            )
        )
    i18n.use(language)
    return language


def _language_option(value: str | None) -> str | None:
    choose_language(value)  # before any other option is read, so their errors are said in it
    return value


# --lang of the commands that speak a person's language: eager, so the language is chosen first.
LanguageOption = Annotated[
    str | None,
    typer.Option(
        metavar="LANG",
        is_eager=True,
        callback=_language_option,
        help=N_("Language: en, de, pl or ru (default: from the locale)."),
    ),
]


# The optional extras a command may need, and the modules they bring (pyproject.toml's lists).
EXTRAS = {
    "tournament": ("scipy", "matplotlib", "openskill"),
    "server": (
        "starlette",
        "uvicorn",
        "websockets",
        "sqlalchemy",
        "alembic",
        "psycopg",
        "orjson",
        "uvloop",
    ),
}


def install_command(extra: str) -> str:
    """The command that adds the optional extra `extra` to this installation: the pip of the
    Python that runs exact61, from the folder it was installed from (its `direct_url.json`, PEP
    610: a clone is not on the package index), editable if it was, else from the index."""
    source, editable = "exact61", False
    try:
        found = importlib.metadata.distribution("exact61").read_text("direct_url.json")
        direct = json.loads(found) if found else None
    except (importlib.metadata.PackageNotFoundError, ValueError):
        direct = None
    if isinstance(direct, dict) and str(direct.get("url", "")).startswith("file://"):
        folder = unquote(urlparse(direct["url"]).path)
        if Path(folder, "pyproject.toml").is_file():  # still there to install from
            source = folder
            editable = bool((direct.get("dir_info") or {}).get("editable"))
    package = shlex.quote(f"{source}[{extra}]")
    return f"{shlex.quote(sys.executable)} -m pip install {'-e ' if editable else ''}{package}"


def missing_extra(extra: str, command: str) -> CliError:
    """The one line that says `command` needs the optional extra `extra`, what it brings and how
    to install it (exit 2: the command cannot be run as installed, and nothing was done)."""
    return CliError(
        _("{command} needs the {extra} extra ({modules}): {install}").format(
            command=command,
            extra=extra,
            modules=", ".join(EXTRAS[extra]),
            install=install_command(extra),
        )
    )


def require_extra(extra: str, command: str, *modules: str) -> None:
    """Import `modules` (default: every one of the optional extra `extra`) before any work; if one
    is missing, say so (`missing_extra`)."""
    for module in modules or EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            raise missing_extra(extra, command) from None


def check_out(
    path: Path, force: bool, option: str = "--out", example: str = "matches.jsonl"
) -> None:
    """Refuse an `option` (--out) that is a folder, or a file that exists without --force
    (exit 2); `example` names a file for the folder's message."""
    if path.is_dir():
        raise CliError(
            _("{path} is a folder: give {option} a file name, e.g. {example}").format(
                path=path, option=option, example=path / example
            )
        )
    if path.exists() and not force:
        raise CliError(
            _("{path} exists; use --force to overwrite it or choose another {option}").format(
                path=path, option=option
            )
        )


def check_progress_folder(folder: Path) -> None:
    """Refuse (exit 1) a folder a learner's progress cannot be kept in, before the tour or a
    puzzle starts rather than when its first answer cannot be kept."""
    from exact61.table.files import check_writable

    try:
        check_writable(folder)
    except OSError as err:
        raise CliError(
            _(
                "cannot keep your progress in {folder}: {reason} (set EXACT61_DATA_DIR to "
                "another folder)"
            ).format(folder=folder, reason=err.strerror or str(err)),
            code=1,
        ) from None


def cannot_write(path: Path, err: OSError) -> CliError:
    """A file or folder the command could not write (exit 1), with the system's reason."""
    return CliError(
        _("{path}: cannot write: {reason}").format(path=path, reason=err.strerror or err), code=1
    )


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


def interrupted_after(done: int, total: int) -> str:
    """`Interrupted after 3 of 100 matches.`: what `simulate` and `tournament` say on Ctrl+C."""
    return ngettext(
        "Interrupted after {done} of {total} match.",
        "Interrupted after {done} of {total} matches.",
        total,
    ).format(done=number(done), total=number(total))


class DoneOfAll(ProgressColumn):
    """`1.000/100.000` as the current language writes numbers (rich's own column would write
    `1000/100000` in every language)."""

    def render(self, task: Task) -> Text:
        total = "?" if task.total is None else number(task.total)
        return Text(f"{number(task.completed)}/{total}", style="progress.download")


def progress_bar(console: Console) -> Progress:
    """A progress bar on `console` (shown on a terminal only), its words in the current
    language."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DoneOfAll(),
        TimeElapsedColumn(),
        TextColumn(_("ETA")),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    )


def fit(text: str, width: int) -> str:
    """`text` with each line longer than `width` broken at spaces, its continuation indented two
    columns past the line's own indent, so no word is cut where a terminal would wrap it."""
    lines = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))] + "  "
        lines.append(
            textwrap.fill(
                line,
                width,
                subsequent_indent=indent if len(indent) < width // 2 else "",
                break_on_hyphens=False,
            )
        )
    return "\n".join(lines)


def say(text: str) -> None:
    """Print `text` as a command's report: on a terminal, fitted to its width (`fit`); to a file
    or a pipe, as it is."""
    if sys.stdout.isatty():
        text = fit(text, shutil.get_terminal_size().columns)
    print(text)


# The engine every match plays on (`exact61.core.engines`), as --version names it.
ENGINE_NAMES = {"native": N_("native engine, Rust"), "python": N_("Python engine")}


def _version(value: bool) -> None:
    if value:
        i18n.use(i18n.language_from_environment())
        engine = _(ENGINE_NAMES[engines.current().ENGINE])
        print(_("exact61 {version} ({engine})").format(version=__version__, engine=engine))
        raise typer.Exit()


def bot_spec(value: str) -> str:
    try:
        return check_bot_spec(value)
    except BotSpecError as err:
        raise typer.BadParameter(bot_error(err)) from None


def bot_error(err: BotSpecError) -> str:
    """A bot spec's error in the current language, from its parts (the bots speak English)."""
    spec, name, choices = repr(err.spec), repr(err.name), ", ".join(err.choices)
    if err.problem == "unknown" and err.name == err.spec.lower():
        return _("unknown bot {name}; choose from {choices}").format(name=name, choices=choices)
    if err.problem == "unknown":
        return _("unknown bot {name} in {spec}; choose from {choices}").format(
            name=name, spec=spec, choices=choices
        )
    if err.problem == "no budget":
        return _(
            "bad bot {spec}: only {bots} and {last} take a budget "
            "(NAME:ITERATIONS or NAME@SECONDSs)"
        ).format(spec=spec, bots=", ".join(err.choices[:-1]), last=err.choices[-1])
    if err.problem == "seconds":
        return _(
            "bad bot {spec}: a time budget is NAME@SECONDSs, more than 0 and at most 60 "
            "seconds, e.g. ismcts@0.05s"
        ).format(spec=spec)
    if err.problem == "not whole":  # the unit as the bot counts it (BUDGET_UNITS)
        not_whole = (
            _("bad bot {spec}: {budget} is not a whole number of deals")
            if err.unit == "deals"
            else _("bad bot {spec}: {budget} is not a whole number of iterations")
        )
        return not_whole.format(spec=spec, budget=repr(err.detail))
    if err.problem == "iterations":
        too_many = (
            _("bad bot {spec}: the budget is 1 to {most} deals a move")
            if err.unit == "deals"
            else _("bad bot {spec}: the budget is 1 to {most} iterations a move")
        )
        return too_many.format(spec=spec, most=number(MAX_ITERATIONS))
    if err.problem == "players":  # 2 to 4 players: one form of the word in every language
        trained, players = err.players
        return _(
            "bad bot {spec}: {file} is a policy for {trained} players, not {players} (--players)"
        ).format(spec=spec, file=err.detail, trained=trained, players=players)
    if err.problem == "no file":
        return _("bad bot {spec}: learned:FILE names a policy file").format(spec=spec)
    return _("bad bot {spec}: {reason}").format(spec=spec, reason=err.detail or err)


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help=N_("Print the version.")),
    ] = False,
) -> None:
    """Exact 61 Five Up: the rules R1-R31 are printed by `exact61 rules` (docs/rules/)."""


# What a person types for an option that names no metavar of its own, by its type: `--seed N`,
# not `--seed <int>`.
METAVARS = {int: "N", float: "NUMBER", str: "TEXT", Path: "FILE"}


def tidy_help(group: TyperGroup) -> None:
    """Help as a person reads it, for every command of `group` (as Typer built them), at any
    width:
    flags show no type (`--plain`, not `--plain <bool>`; `--help` too), an option shows what
    one types (`--players N`, `--bots NAME,NAME,...`: its metavar, else one by its type, not
    `<int range>` or `<list[int]>`), an argument its name (`FILE`), a docstring's paragraphs
    wrap to the screen instead of breaking where the source's lines do, and the list of
    commands gives each one's summary whole."""
    names = (group.context_settings or {}).get("help_option_names", ["--help"])
    for command in (group, *group.commands.values()):
        # click makes a command's help option once and keeps it: the one every --help shows
        option = command.get_help_option(typer.Context(command, help_option_names=names))
        if option is not None:
            option.metavar = ""
        for param in command.params:
            if isinstance(param, TyperOption) and param.metavar is None:
                param.metavar = "" if param.is_flag else _metavar(param)
            elif isinstance(param, TyperArgument):
                param.metavar = param.metavar or param.name.upper()
                setattr(param, "display_type_rich", _no_type)  # noqa: B010  (the name says it)
    for command in group.commands.values():
        if command.help:
            command.help = "\n\n".join(
                re.sub(r"\s*\n\s*", " ", paragraph.strip())
                for paragraph in command.help.split("\n\n")
            )
            # the list of commands gives each one's first sentence whole, wrapped, not cut
            command.short_help = command.short_help or command.help.split("\n\n")[0]


def _metavar(option: TyperOption) -> str:
    kind = option.type_descriptor
    if kind.is_choice and kind.choices:
        return "|".join(str(getattr(c, "value", c)) for c in kind.choices)
    annotation = kind.annotation
    if kind.is_list:
        (annotation,) = typing.get_args(annotation)
    return METAVARS.get(annotation, "VALUE")


def _no_type(ctx: typer.Context) -> None:
    return None
