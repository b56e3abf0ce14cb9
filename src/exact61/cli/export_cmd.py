"""`exact61 export`: the records of every match finished on a game server, from its database."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Annotated

import typer
from rich.console import Console

from exact61.cli.app import (
    CliError,
    LanguageOption,
    app,
    cannot_write,
    check_out,
    err_console,
    interrupted_after,
    progress_bar,
    require_extra,
    whole_steps,
)
from exact61.core import RecordError
from exact61.i18n import N_, _, ngettext, number


@app.command(
    name="export",
    help=N_(
        "Write the record of every match finished on a game server, from its database.\n\n"
        "One record a line (JSON Lines), the first finished first, each as the server gives it "
        "when the match is over and checked by replaying it: for exact61 replay, analyze, show "
        "and the web page's replay. The Learn page's guided matches are left out. The database "
        "is only read, so its server may go on serving."
    ),
)
def export(
    db: Annotated[
        str | None,
        typer.Option(
            metavar="FILE|URL",
            help=N_(
                "The server's database, as exact61 serve --db takes it (default: the SQLite file "
                "in your data directory)."
            ),
        ),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(help=N_("Where to write the records (JSON Lines); '-' for standard output.")),
    ] = Path("games.jsonl"),
    force: Annotated[bool, typer.Option(help=N_("Overwrite --out if it exists."))] = False,
    lang: LanguageOption = None,
) -> None:
    require_extra("server", "export", "sqlalchemy", "alembic")  # what reading its database takes
    from exact61.server.archive import Archive, CannotReadDatabase
    from exact61.table.files import games_dir

    to_stdout = str(out) == "-"
    if not to_stdout:
        check_out(out, force, example="games.jsonl")
    try:
        archive = Archive(db, games_dir().parent)
    except ValueError as err:
        raise CliError(f"--db: {err}", code=2) from None
    except CannotReadDatabase as err:
        raise CliError(_("cannot export: {why}").format(why=err), code=1) from None
    report = Console(stderr=to_stdout, highlight=False, soft_wrap=True)
    stdout = sys.stdout
    game_ids: list[str] = []
    written = 0
    broken: list[str] = []  # a game that does not replay is said and left out; the rest go on
    try:
        game_ids = archive.finished()
        sink: IO[str]
        with (
            nullcontext(stdout) if to_stdout else out.open("w", encoding="utf-8") as sink,
            progress_bar(err_console) as progress,
            whole_steps() as whole_step,
        ):
            task = progress.add_task(_("exporting"), total=len(game_ids))
            for game_id in game_ids:
                try:
                    text = archive.record(game_id)
                except RecordError as err:
                    broken.append(str(err))
                    text = None
                if text is not None:
                    with whole_step:  # a stopped export keeps every record written whole
                        sink.write(text + "\n")
                        written += 1
                progress.advance(task)
    except KeyboardInterrupt:
        report.print(interrupted_after(written, len(game_ids)))
        raise typer.Exit(130) from None
    except CannotReadDatabase as err:
        raise CliError(_("cannot export: {why}").format(why=err), code=1) from None
    except BrokenPipeError:
        raise
    except OSError as err:
        raise cannot_write(out, err) from None
    finally:
        archive.close()
    if to_stdout:  # its own words: Polish declines "standard output" here
        said = ngettext(
            "{n} finished match from {db} written to standard output",
            "{n} finished matches from {db} written to standard output",
            written,
        )
    else:
        said = ngettext(
            "{n} finished match from {db} written to {out}",
            "{n} finished matches from {db} written to {out}",
            written,
        )
    report.print(said.format(n=number(written), db=archive.shown, out=out))
    for why in broken:
        print("exact61: " + _("not exported: {why}").format(why=why), file=sys.stderr)
    if broken:
        raise typer.Exit(1)
