"""`exact61 tournament`: seat-rotated matches between bots, with statistics and plots."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.measure import Measurement
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
from exact61.cli.records_io import resume_records
from exact61.core import (
    dumps,
)
from exact61.i18n import N_, _, ngettext, number, percent

if TYPE_CHECKING:
    from exact61.tournament.schedule import Game, ScheduleError


def resumable(game: Game, record: dict[str, Any], path: Path) -> bool:
    """Whether `record` is the tournament's match `game`, for `--resume`. A record of this very
    match written before records carried each seat's `decisions` (which the table's time a move
    is made of) cannot be resumed: said so, not blamed on the options."""
    from exact61.tournament.runner import is_result_of

    if is_result_of(game, record):
        return True
    if "decisions" not in record and is_result_of(
        game, {**record, "decisions": record.get("think_ms")}
    ):
        raise CliError(
            _(
                "--resume: {path} was written by an earlier version of exact61, whose records "
                "do not give each seat's decisions: start again with --force, or give another --out"
            ).format(path=path)
        )
    return False


@app.command(
    help=N_(
        "Play seat-rotated matches between bots and report how each did.\n\n"
        "The table and what is said are in the language of --lang; the records, summary.csv, "
        "summary.json and the plots are the same in every language."
    )
)
def tournament(
    bots: Annotated[
        str,
        typer.Option(
            metavar="NAME,NAME,...", help=N_("Comma-separated bots, as for simulate --bot.")
        ),
    ] = "greedy,heuristic,ismcts",
    players: Annotated[int, typer.Option(min=2, max=4, help=N_("Players: 2, 3 or 4 (R2)."))] = 2,
    matches: Annotated[int, typer.Option(min=1, help=N_("How many matches in all."))] = 60,
    seed: Annotated[int, typer.Option(help=N_("Seed: the same seed gives the same results."))] = 0,
    workers: Workers = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help=N_(
                "Where to write the match records (default: matches.jsonl in --report, else a "
                "new file in your data directory's tournaments folder)."
            )
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help=N_(
                "A folder (made if missing) for summary.csv, summary.json, matches.jsonl and plots."
            ),
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help=N_("Overwrite existing output files."))] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help=N_(
                "Go on with a tournament that was stopped: keep the matches its records hold "
                "(--out or --report, made with the same --bots, --players and --seed) and play "
                "the rest, up to --matches."
            ),
        ),
    ] = False,
    backend: BackendOption = BackendName.process,
    address: Address = None,
    lang: LanguageOption = None,
) -> None:
    import csv
    import json

    from exact61.tournament.runner import run as run_games
    from exact61.tournament.schedule import ScheduleError, check_entrants, schedule

    names = [b.strip() for b in bots.split(",")]  # an empty name is a typo, told as play tells it
    try:
        for name in names:
            check_bot_spec(name)
            check_bot_players(name, players)
    except BotSpecError as err:
        raise CliError(bot_error(err)) from None
    try:
        check_entrants(names)
        games = schedule(names, players, matches, seed)
    except ScheduleError as err:
        raise CliError(_schedule_error(err)) from None
    if report is not None and report.exists() and not report.is_dir():
        raise CliError(
            _(
                "--report {report}: is a file, not a folder: give --report a folder for the "
                "summary, the plots and the records"
            ).format(report=report)
        )
    if resume and force:
        raise CliError(
            _("--resume keeps what --out holds and --force would overwrite it: choose one")
        )
    if resume and out is None and report is None:
        raise CliError(
            _("--resume goes on with the records of --out or --report: give the one it wrote")
        )
    require_extra("tournament", "tournament")  # statistics and plots: before any match is played
    from exact61.tournament.runner import Result
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
        check_out(records, force or resume)
    if report is not None:
        try:
            report.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise cannot_write(report, err) from None
    if out is None:  # the data folder's, made when first needed; an --out's folder must be there
        try:
            records.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise cannot_write(records.parent, err) from None
    standings = Standings(players)
    start = 0
    if resume:
        start = resume_records(
            records,
            len(games),
            lambda i, record: resumable(games[i], record, records),
            lambda i, record: standings.add(Result.of_record(games[i], record)),
            "--bots, --players, --seed",
        )
    if start:
        print(
            ngettext(
                "Resuming after {done} of {total} match.",
                "Resuming after {done} of {total} matches.",
                len(games),
            ).format(done=number(start), total=number(len(games)))
        )
    interrupted = False
    try:
        with (
            backend_for(backend, workers, address, len(games) - start) as runner,
            records.open("a" if resume else "w") as sink,
            progress_bar(err_console) as progress,
            whole_steps() as whole_step,
        ):
            task = progress.add_task(_("playing"), total=len(games), completed=start)
            done = run_games(
                games[start:], on_done=lambda n: progress.advance(task, n), backend=runner
            )
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
    title = _("{matches}, {players}, seed {seed}").format(
        matches=ngettext("{n} match", "{n} matches", played).format(n=number(played)),
        players=ngettext("{n} player", "{n} players", players).format(n=number(players)),
        seed=seed,
    )
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=120)  # piped: room for every column
    pairs = standings.head_to_head()
    order = ranked(table)
    if played:  # stopped before any match ended: no table of nothing
        print_standings(console, table, title)
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
        from exact61.tournament.plots import write_plots  # matplotlib: only for a report

        plots = write_plots(standings, table, report)
        files = [report / "summary.csv", report / "summary.json", *plots]
        print(_("Report: {files}").format(files=", ".join(map(str, files))))
    if interrupted:
        print(interrupted_after(played, len(games)))
        raise typer.Exit(130)


def _schedule_error(err: ScheduleError) -> str:
    """A schedule's error in the current language, from its parts (`ScheduleError`)."""
    if err.problem == "same bot" and err.first == err.second:
        return _("--bots names {bot} twice: name each bot once").format(bot=err.first)
    if err.problem == "same bot":
        return _("--bots: {first} and {second} are the same bot: name each bot once").format(
            first=err.first, second=err.second
        )
    if err.problem == "too few matches":
        return _(
            "--matches {matches} is too few to seat every bot: give --matches {needed} or more "
            "(--matches {cycle} seats each bot in each seat once)"
        ).format(matches=number(err.matches), needed=number(err.needed), cycle=number(err.cycle))
    return _("a tournament needs at least two different bots")


def print_standings(console: Console, table: dict[str, dict[str, Any]], title: str) -> None:
    """The standings, best first (`stats.ranked`): one table if it fits `console`'s width, else
    two, the results (matches, wins, win rate and its interval, rating) and then how each bot
    played (points a round, credits rejected, time a move). A bot's name is never cut, a number
    never wrapped; win rates in whole percents but for thousands of matches (`_share_digits`)."""
    from exact61.tournament.stats import ranked

    order = ranked(table)
    rows = [table[name] for name in order]
    digits = _share_digits([r["ci95"] for r in rows])
    results = [
        (_("matches"), [number(r["matches"]) for r in rows]),
        (_("wins"), [number(r["wins"]) for r in rows]),
        (_("win rate"), [percent(r["win_rate"], digits) for r in rows]),
        (
            _("{share} interval").format(share=percent(0.95)),
            [percent_range(r["ci95"][0], r["ci95"][1], digits) for r in rows],
        ),
        (_("rating"), [number(r["rating"], 2) for r in rows]),
    ]
    play = [
        (_("points/round"), [number(r["points_per_round"], 2) for r in rows]),
        (_("rejected"), [percent(r["rejected_rate"], 1) for r in rows]),
        (_("ms/move"), [number(r["ms_per_move"], 1) for r in rows]),
    ]
    whole = _standings_table(order, results + play, title)
    unbounded = console.options.update_width(10_000)  # the width it takes, not what is left
    if Measurement.get(console, unbounded, whole).maximum <= console.width:
        console.print(whole)
        return
    console.print(_standings_table(order, results, title))
    console.print(_standings_table(order, play, None))


def _standings_table(
    order: list[str], columns: list[tuple[str, list[str]]], title: str | None
) -> Table:
    """The bots of `order` down the side, `columns` (header, a cell per bot) across."""
    view = Table(title=title)
    view.add_column(_("bot"), justify="left", overflow="fold")  # a long name wraps, whole
    for header, _cells in columns:
        view.add_column(header, justify="right", no_wrap=True)
    for i, name in enumerate(order):
        view.add_row(name, *(cells[i] for _header, cells in columns))
    return view


def percent_range(low: float, high: float, digits: int = 0) -> str:
    """`15–85 %`: two shares of 1 as a range of percentages, the percent sign written once, as
    the current language writes a percentage (`percent`)."""
    shown = percent(high, digits)
    figure = number(100 * high, digits)
    if figure not in shown:
        return f"{percent(low, digits)}–{shown}"
    return shown.replace(figure, f"{number(100 * low, digits)}–{figure}", 1)


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
    digits = _share_digits([cell["ci95"] for met in pairs.values() for cell in met.values()])
    view = Table()
    view.add_column("", justify="left", overflow="fold")
    for bot in order:
        view.add_column(bot, justify="right", overflow="fold")
    for bot in order:
        met = pairs.get(bot, {})
        view.add_row(
            bot,
            *(percent(met[o]["win_rate"], digits) if o in met else "–" for o in order),
        )
    return view


def _share_digits(intervals: list[list[float]]) -> int:
    """The decimals to show win rates with: none, unless every 95% interval is narrower than 4
    percentage points (thousands of matches), when a tenth of a point still means something."""
    return 1 if intervals and all(high - low < 0.04 for low, high in intervals) else 0
