"""`exact61 tournament`: seat-rotated matches between bots, with statistics and plots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from exact61.bots import BotSpecError, check_bot_players, check_bot_spec
from exact61.cli.app import (
    CliError,
    LanguageOption,
    app,
    bot_error,
    cannot_write,
    check_out,
    err_console,
    interrupted_after,
    progress_bar,
    require_extra,
    whole_steps,
)
from exact61.cli.backend_opts import Address, BackendName, BackendOption, Workers, backend_for
from exact61.core import (
    dumps,
)
from exact61.i18n import _, ngettext, number, percent


@app.command()
def tournament(
    bots: Annotated[
        str,
        typer.Option(metavar="NAME,NAME,...", help="Comma-separated bots, as for simulate --bot."),
    ] = "greedy,heuristic,ismcts",
    players: Annotated[int, typer.Option(min=2, max=4, help="Players: 2, 3 or 4 (R2).")] = 2,
    matches: Annotated[int, typer.Option(min=1, help="How many matches in all.")] = 60,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same results.")] = 0,
    workers: Workers = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Where to write the match records (default: matches.jsonl in --report, else a "
            "new file in your data directory's tournaments folder)."
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="A folder (made if missing) for summary.csv, summary.json, matches.jsonl and "
            "plots.",
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Overwrite existing output files.")] = False,
    backend: BackendOption = BackendName.process,
    address: Address = None,
    lang: LanguageOption = None,
) -> None:
    """Play seat-rotated matches between bots and report how each did.

    The table and what is said are in the language of --lang; the records, summary.csv,
    summary.json and the plots are the same in every language."""
    import csv
    import json

    from exact61.tournament.runner import run as run_games
    from exact61.tournament.schedule import schedule

    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        for name in names:
            check_bot_spec(name)
            check_bot_players(name, players)
    except BotSpecError as err:
        raise CliError(bot_error(err)) from None
    try:
        games = schedule(names, players, matches, seed)
    except ValueError:  # the one thing `seatings` refuses, said in the command's language
        raise CliError(_("a tournament needs at least two different bots")) from None
    if report is not None and report.exists() and not report.is_dir():
        raise CliError(
            _(
                "--report {report}: is a file, not a folder: give --report a folder for the "
                "summary, the plots and the records"
            ).format(report=report)
        )
    require_extra("tournament", "tournament")  # statistics and plots: before any match is played
    from exact61.tournament.plots import write_plots
    from exact61.tournament.stats import Standings, ranked

    if out is not None:
        records = out
    elif report is not None:
        records = report / "matches.jsonl"
    else:  # a new file in the data folder, claimed for this run alone
        try:
            records = _new_records_path(seed)
        except OSError as err:
            raise CliError(
                _("cannot write the records: {reason}").format(reason=err.strerror or err), code=1
            ) from None
    if out is not None or report is not None:
        check_out(records, force)
    if report is not None:
        try:
            report.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise cannot_write(report, err) from None
    try:
        records.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise cannot_write(records.parent, err) from None
    standings = Standings(players)
    interrupted = False
    try:
        with (
            backend_for(backend, workers, address) as runner,
            records.open("w") as sink,
            progress_bar(err_console) as progress,
            whole_steps() as whole_step,
        ):
            task = progress.add_task(_("playing"), total=len(games))
            done = run_games(games, on_done=lambda n: progress.advance(task, n), backend=runner)
            for result in done:
                with whole_step:  # a stopped run keeps and counts every finished match
                    sink.write(dumps(result.record) + "\n")
                    sink.flush()
                    standings.add(result)
    except KeyboardInterrupt:
        interrupted = True
    except OSError as err:
        raise cannot_write(records, err) from None
    table = standings.table()
    played = len(standings.lengths)
    view = Table(
        title=_("{matches}, {players}, seed {seed}").format(
            matches=ngettext("{n} match", "{n} matches", played).format(n=number(played)),
            players=ngettext("{n} player", "{n} players", players).format(n=number(players)),
            seed=seed,
        )
    )
    view.add_column(_("bot"), justify="left", overflow="fold")  # a long name wraps, whole
    for column in (
        _("matches"),
        _("wins"),
        _("win rate"),
        _("{share} interval").format(share=percent(0.95)),
        _("rating"),
        _("points/round"),
        _("rejected"),
        _("ms/move"),
    ):
        view.add_column(column, justify="right")
    for name in ranked(table):
        row = table[name]
        low, high = row["ci95"]
        view.add_row(
            name,
            number(row["matches"]),
            number(row["wins"]),
            percent(row["win_rate"], 1),
            f"{percent(low, 1)}-{percent(high, 1)}",
            number(row["rating"], 2),
            number(row["points_per_round"], 2),
            percent(row["rejected_rate"], 1),
            number(row["ms_per_move"], 1),
        )
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=120)  # piped: room for every column
    console.print(view)
    pairs = standings.head_to_head()
    order = ranked(table)
    if len(order) > 2:  # with two bots the table above says it all
        console.print(_("Head to head: each row's win rate in its matches with each column's bot"))
        console.print(_head_to_head(order, pairs))
    print(_("Records: {path}").format(path=records))
    if report is not None and table:
        (report / "summary.json").write_text(
            json.dumps(
                {
                    "players": players,
                    "seed": seed,
                    "matches": len(standings.lengths),
                    "bots": table,
                    "head_to_head": {
                        bot: {other: pairs[bot][other] for other in order if other in pairs[bot]}
                        for bot in order
                        if bot in pairs
                    },
                },
                indent=2,
            )
            + "\n"
        )
        with (report / "summary.csv").open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(
                [
                    "bot",
                    "matches",
                    "wins",
                    "win_rate",
                    "ci95_low",
                    "ci95_high",
                    "rating",
                    "points_per_round",
                    "rejected_rate",
                    "ms_per_move",
                ]
            )
            for name, row in table.items():
                writer.writerow(
                    [
                        name,
                        row["matches"],
                        row["wins"],
                        f"{row['win_rate']:.4f}",
                        f"{row['ci95'][0]:.4f}",
                        f"{row['ci95'][1]:.4f}",
                        row["rating"],
                        f"{row['points_per_round']:.4f}",
                        f"{row['rejected_rate']:.4f}",
                        f"{row['ms_per_move']:.3f}",
                    ]
                )
        plots = write_plots(standings, table, report)
        files = [report / "summary.csv", report / "summary.json", *plots]
        print(_("Report: {files}").format(files=", ".join(map(str, files))))
    if interrupted:
        print(interrupted_after(played, len(games)))
        raise typer.Exit(130)


def _new_records_path(seed: int) -> Path:
    """A file no other run uses, created empty for this one:
    `<data dir>/tournaments/<time>-seed<seed>.jsonl` (or `...-2.jsonl`, ...)."""
    import time

    from exact61.table.files import claim_new_file, games_dir

    folder = games_dir().parent / "tournaments"
    folder.mkdir(parents=True, exist_ok=True)
    return claim_new_file(folder / f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}.jsonl")


def _head_to_head(order: list[str], pairs: dict[str, dict[str, dict[str, Any]]]) -> Table:
    """Each bot's win rate in the matches it played with each other bot, best bots first."""
    view = Table()
    view.add_column("", justify="left", overflow="fold")
    for bot in order:
        view.add_column(bot, justify="right", overflow="fold")
    for bot in order:
        met = pairs.get(bot, {})
        view.add_row(
            bot,
            *(percent(met[other]["win_rate"], 1) if other in met else "–" for other in order),
        )
    return view
