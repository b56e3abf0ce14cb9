"""`exact61 puzzle`: solve proved puzzles (line by line), export the set, or make a new one."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from exact61.cli.app import (
    CliError,
    LanguageOption,
    app,
    cannot_write,
    check_out,
    check_progress_folder,
    choose_language,
    err_console,
    progress_bar,
)
from exact61.i18n import N_, _, ngettext, number


@app.command(
    help=N_(
        "Puzzles from real matches, each proved by the solver: a goal for the seat to move "
        "(win the match, win the round, or save the match) and one move that reaches it "
        "against every defence.\n\n"
        "Without options, plays puzzles in full screen (--plain: line by line), your streak "
        "and puzzle rating kept; "
        "--daily plays the puzzle of the day. --export writes the set as JSON lines; --make "
        "makes a new set from seeded bot matches."
    )
)
def puzzle(
    plain: Annotated[
        bool,
        typer.Option(
            "--plain",
            help=N_("Line by line instead of full screen (also when not in a terminal)."),
        ),
    ] = False,
    daily: Annotated[bool, typer.Option("--daily", help=N_("Only the puzzle of the day."))] = False,
    level: Annotated[
        int | None,
        typer.Option(min=1, max=3, help=N_("Only puzzles of this level (1 to 3).")),
    ] = None,
    puzzle_id: Annotated[
        str | None, typer.Option("--id", metavar="ID", help=N_("Play this puzzle."))
    ] = None,
    export: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help=N_(
                "Write every puzzle as JSON lines (id, level, goal, record, round, action, "
                "seat, solution, refutations) to FILE (- for standard output)."
            ),
        ),
    ] = None,
    make: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            min=1,
            help=N_("Make a set of at least N puzzles from bot matches (needs --out)."),
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help=N_("With --make: the first bot match's seed."))] = 0,
    out: Annotated[
        Path | None,
        typer.Option(metavar="FOLDER", help=N_("With --make: the folder to write the set to.")),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help=N_("Overwrite the --export file."))
    ] = False,
    lang: LanguageOption = None,
) -> None:
    language = choose_language(lang)
    refuse_unused(
        make=make is not None,
        export=export is not None,
        playing={"--daily": daily, "--id": puzzle_id is not None, "--level": level is not None},
        plain=plain,
        out=out is not None,
        seed=seed != 0,
        force=force,
    )
    if make is not None:
        make_set(make, seed, out)
        return
    if export is not None:
        export_set(export, force)
        return
    from exact61.learn.progress import ProgressError
    from exact61.learn.puzzles import shipped
    from exact61.learn.rating import progress_store
    from exact61.terminal.puzzle_plain import play_puzzles

    if daily and puzzle_id is not None:
        raise CliError(_("--daily and --id each choose the puzzle: give one of them"))
    if puzzle_id is not None and puzzle_id not in {p.id for p in shipped().puzzles}:
        raise CliError(
            _("no puzzle {id}; exact61 puzzle --export - lists them").format(id=puzzle_id)
        )
    folder = progress_store().path.parent
    check_progress_folder(folder)
    try:
        if plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
            code = play_puzzles(language, daily=daily, level=level, puzzle_id=puzzle_id)
        else:
            from exact61.terminal.puzzle_app import PuzzleApp
            from exact61.terminal.puzzle_plain import PuzzleRun

            run = PuzzleRun(shipped(), daily=daily, level=level, puzzle_id=puzzle_id)
            PuzzleApp(run).run()
            code = 0
    except ProgressError as err:
        raise CliError(
            _(
                "cannot read your progress {path}: {reason}; it is left as it is (move it away "
                "to start afresh)"
            ).format(path=err.path, reason=err.reason),
            code=1,
        ) from None
    if code:
        raise typer.Exit(code)


def refuse_unused(
    *,
    make: bool,
    export: bool,
    playing: dict[str, bool],
    plain: bool,
    out: bool,
    seed: bool,
    force: bool,
) -> None:
    """The command does one of three things (play, `--export`, `--make`): an option given that
    the one asked for does not use is a usage error, never quietly left undone."""
    if make and export:
        raise CliError(_("--make and --export each say what to do: give one of them"))
    mode = "--make" if make else "--export" if export else None
    if mode is not None:
        for option, given in (*playing.items(), ("--plain", plain)):
            if given:
                raise CliError(
                    _("{option} is for playing puzzles: {mode} does not use it").format(
                        option=option, mode=mode
                    )
                )
    for option, given, owner, owned in (
        ("--out", out, "--make", make),
        ("--seed", seed, "--make", make),
        ("--force", force, "--export", export),
    ):
        if given and not owned:
            raise CliError(
                _("{option} goes with {mode}: give {mode} too").format(option=option, mode=owner)
            )


def make_set(count: int, seed: int, out: Path | None) -> None:
    """`--make N --seed S --out FOLDER`."""
    from exact61.learn.puzzles import make_puzzles

    if out is None:
        raise CliError(_("--make needs --out FOLDER, where the set is written"))
    if out.exists() and not out.is_dir():
        raise CliError(_("{path} is not a folder").format(path=out))
    started = time.monotonic()
    with progress_bar(err_console) as bar:
        task = bar.add_task(_("making puzzles"), total=count)

        def advance(found: int) -> None:
            bar.update(task, completed=min(found, count))

        made = make_puzzles(count, seed, progress=advance)
    try:
        made.write(out)
    except OSError as err:
        raise cannot_write(out, err) from None
    err_console.print(
        ngettext(
            "{n} puzzle from {matches} matches in {seconds} s, written to {path}",
            "{n} puzzles from {matches} matches in {seconds} s, written to {path}",
            len(made.puzzles),
        ).format(
            n=number(len(made.puzzles)),
            matches=number(len(made.records)),
            seconds=number(round(time.monotonic() - started)),
            path=out,
        )
    )


def export_set(path: Path, force: bool) -> None:
    """`--export FILE`: one puzzle a line, with its match record."""
    from exact61.learn.puzzles import shipped

    to_stdout = str(path) == "-"
    if not to_stdout:  # a refusal first, without the second it takes to read every puzzle
        check_out(path, force, "--export", "puzzles.jsonl")
    puzzles = shipped()
    lines = "".join(
        json.dumps(puzzles.export_line(p), separators=(",", ":")) + "\n" for p in puzzles.puzzles
    )
    if to_stdout:
        typer.echo(lines, nl=False)
        return
    try:
        path.write_text(lines)
    except OSError as err:
        raise cannot_write(path, err) from None
