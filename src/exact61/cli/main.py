"""The `exact61` command line: simulate matches, verify records, show positions."""

from __future__ import annotations

import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Annotated

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
from exact61.bots import BOTS, LEVELS, check_bot_spec
from exact61.cli.records_io import RecordFileError, iter_record_texts
from exact61.core import (
    Exact61Error,
    Match,
    RecordError,
    dumps,
    parse_record,
    replay,
)
from exact61.render.picture import draw
from exact61.render.text import describe_step, position_text
from exact61.simulation.driver import match_seed, simulated_record
from exact61.simulation.summary import Summary

app = typer.Typer(
    name="exact61",
    help="Exact 61 Five Up: play, simulate matches, verify match records, show positions.",
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


def _progress(console: Console) -> Progress:
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


def _bot_name(value: str) -> str:
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


@app.command()
def simulate(
    players: Annotated[int, typer.Option(min=2, max=4, help="Players: 2, 3 or 4 (R2).")] = 2,
    matches: Annotated[int, typer.Option(min=1, help="How many matches to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same matches.")] = 0,
    bot: Annotated[
        str,
        typer.Option(
            callback=_bot_name,
            help=f"The bot playing every seat: {', '.join(BOTS)} (or a level: "
            f"{', '.join(LEVELS)}); ismcts:N sets its iterations per move.",
        ),
    ] = "random",
    out: Annotated[
        Path,
        typer.Option(help="Where to write the records (JSON Lines); '-' for standard output."),
    ] = Path("matches.jsonl"),
    force: Annotated[bool, typer.Option(help="Overwrite --out if it exists.")] = False,
) -> None:
    """Play whole matches between bots and write every match record as it is played."""
    to_stdout = str(out) == "-"
    if not to_stdout and out.exists() and not force:
        raise CliError(f"{out} exists; use --force to overwrite it or choose another --out")
    report = Console(stderr=to_stdout, highlight=False, soft_wrap=True)
    summary = Summary()
    started = time.perf_counter()
    interrupted = False
    try:
        sink: IO[str]
        with (
            nullcontext(sys.stdout) if to_stdout else out.open("w") as sink,
            _progress(err_console) as progress,
        ):
            task = progress.add_task("simulating", total=matches)
            for i in range(matches):
                record = simulated_record(players, match_seed(seed, i), [bot] * players)
                sink.write(dumps(record) + "\n")
                sink.flush()  # a stopped run keeps every finished match
                summary.add(record)
                progress.advance(task)
    except KeyboardInterrupt:
        interrupted = True
    except BrokenPipeError:
        raise
    except OSError as err:
        raise CliError(f"{out}: {err.strerror or err}") from None
    elapsed = time.perf_counter() - started
    _print_summary(report, summary, players, elapsed)
    report.print(f"Records: {'standard output' if to_stdout else out}")
    if interrupted:
        report.print(f"Interrupted after {summary.matches} of {matches} matches.")
        raise typer.Exit(130)


def _print_summary(console: Console, s: Summary, players: int, elapsed: float) -> None:
    sides = 2 if players == 4 else players
    console.print(
        f"{s.matches:,} matches, {s.rounds:,} rounds ({s.rounds_per_match:.1f} per match), "
        f"{s.actions:,} actions in {elapsed:.1f} s"
    )
    names = ["seats 0+2", "seats 1+3"] if players == 4 else [f"seat {i}" for i in range(sides)]
    wins = ", ".join(
        f"side {i} ({names[i]}) {s.wins[i]:,} ({100 * s.wins[i] / max(s.matches, 1):.1f}%)"
        for i in range(sides)
    )
    console.print(f"Wins: {wins}")
    console.print(
        f"Round ends: domino {s.ends['domino']:,}, blocked {s.ends['block']:,}, "
        f"target reached mid-round {s.ends['target']:,}"
    )
    console.print(f"Rejected overshoots (R4): {s.rejected:,}")


@app.command(name="replay")
def replay_cmd(
    files: Annotated[list[Path], typer.Argument(help="Match record files (.json or .jsonl).")],
) -> None:
    """Verify match records by replaying every action under the rules."""
    verified = unfinished = failed = 0
    with _progress(err_console) as progress:
        task = progress.add_task("verifying", total=None)
        for path in files:
            try:
                for index, text in iter_record_texts(path):
                    try:
                        match = replay(text)
                    except RecordError as err:
                        failed += 1
                        print(f"{path}: {err.located(match=index)}")
                    else:
                        verified += 1
                        unfinished += not match.is_over
                    progress.advance(task)
            except RecordFileError as err:
                failed += 1
                print(str(err))
    note = f" ({unfinished} unfinished)" if unfinished else ""
    print(f"{verified} matches verified{note}" + (f", {failed} failed" if failed else ""))
    if failed:
        raise typer.Exit(1)


@app.command()
def show(
    file: Annotated[Path, typer.Argument(help="A match record file (.json or .jsonl).")],
    match: Annotated[int, typer.Option("--match", min=0, help="Match index, from 0.")] = 0,
    round_: Annotated[
        int | None, typer.Option("--round", min=0, help="Round index, from 0 (default: last).")
    ] = None,
    action: Annotated[
        int | None,
        typer.Option("--action", min=0, help="Action index in the round, from 0 (default: last)."),
    ] = None,
    picture: Annotated[
        bool, typer.Option(help="Draw the layout above the facts, as the rule documents do.")
    ] = True,
) -> None:
    """Print the position after one action of a recorded match."""
    text = None
    try:
        for index, candidate in iter_record_texts(file):
            if index == match:
                text = candidate
                break
    except RecordFileError as err:
        raise CliError(str(err)) from None
    if text is None:
        raise CliError(f"{file}: no match {match}")
    try:
        record = parse_record(text)
        r = len(record.rounds) - 1 if round_ is None else round_
        if r < 0:
            raise CliError(f"{file}: match {match} has no rounds")
        a = action
        if a is None:  # the round's last action (an unknown round is reported by replay)
            a = len(record.rounds[r].actions) - 1 if r < len(record.rounds) else 0
        if a < 0:
            raise CliError(f"{file}: match {match}, round {r} has no actions")
        position: Match = replay(record, stop_after=(r, a))
    except RecordError as err:
        raise CliError(f"{file}: {err.located(match=match)}", code=1) from None
    print(f"Match {match}, round {r}, action {a}: {describe_step(position, r, a)}")
    if picture:
        print(draw(position.layout).text())
    print(position_text(position))


@app.command()
def tournament(
    bots: Annotated[
        str, typer.Option(help="Comma-separated bots, as for simulate --bot.")
    ] = "greedy,heuristic,ismcts",
    players: Annotated[int, typer.Option(min=2, max=4, help="Players: 2, 3 or 4 (R2).")] = 2,
    matches: Annotated[int, typer.Option(min=1, help="How many matches in all.")] = 60,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same results.")] = 0,
    workers: Annotated[
        int, typer.Option(min=1, help="Worker processes (results do not depend on it).")
    ] = 1,
    out: Annotated[
        Path | None,
        typer.Option(help="Where to write the match records (default tournament.jsonl)."),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(help="Folder for summary.csv, summary.json, matches.jsonl and plots."),
    ] = None,
    force: Annotated[bool, typer.Option(help="Overwrite existing output files.")] = False,
) -> None:
    """Play seat-rotated matches between bots and report how each did."""
    import csv
    import json

    from rich.table import Table

    from exact61.tournament.runner import run as run_games
    from exact61.tournament.schedule import schedule
    from exact61.tournament.stats import Standings

    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        for name in names:
            check_bot_spec(name)
        games = schedule(names, players, matches, seed)
    except ValueError as err:
        raise CliError(str(err)) from None
    records = out or (report / "matches.jsonl" if report else Path("tournament.jsonl"))
    if records.exists() and not force:
        raise CliError(f"{records} exists; use --force to overwrite it or choose another --out")
    if report is not None:
        try:
            report.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CliError(f"{report}: {err.strerror or err}") from None
    standings = Standings(players)
    interrupted = False
    try:
        with records.open("w") as sink, _progress(err_console) as progress:
            task = progress.add_task("playing", total=len(games))
            for result in run_games(games, workers, lambda: progress.advance(task)):
                sink.write(dumps(result.record) + "\n")
                sink.flush()
                standings.add(result)
    except KeyboardInterrupt:
        interrupted = True
    except OSError as err:
        raise CliError(f"{records}: {err.strerror or err}") from None
    table = standings.table()
    view = Table(title=f"{len(standings.lengths)} matches, {players} players, seed {seed}")
    for column in (
        "bot",
        "matches",
        "wins",
        "win rate",
        "95% interval",
        "rating",
        "points/round",
        "rejected",
        "ms/move",
    ):
        view.add_column(column, justify="left" if column == "bot" else "right")
    for name, row in sorted(table.items(), key=lambda kv: -kv[1]["rating"]):
        low, high = row["ci95"]
        view.add_row(
            name,
            str(row["matches"]),
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{low:.1%}-{high:.1%}",
            f"{row['rating']:.2f}",
            f"{row['points_per_round']:.2f}",
            f"{row['rejected_rate']:.1%}",
            f"{row['ms_per_move']:.1f}",
        )
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=120)  # piped: room for every column
    console.print(view)
    print(f"Records: {records}")
    if report is not None and table:
        from exact61.tournament.plots import write_plots

        (report / "summary.json").write_text(
            json.dumps(
                {
                    "players": players,
                    "seed": seed,
                    "matches": len(standings.lengths),
                    "bots": table,
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
        print(
            f"Report: {report / 'summary.csv'}, {report / 'summary.json'}, "
            + ", ".join(str(p) for p in plots)
        )
    if interrupted:
        print(f"Interrupted after {len(standings.lengths)} of {len(games)} matches.")
        raise typer.Exit(130)


@app.command()
def play(
    players: Annotated[int, typer.Option(min=2, max=4, help="Players: 2, 3 or 4 (R2).")] = 2,
    seats: Annotated[
        str | None,
        typer.Option(
            help="Who sits where, e.g. human,greedy,human,random (seats 0 and 2 are "
            "partners at 4 players). Default: you, then the strongest bot."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deals (default: random).")] = None,
    lang: Annotated[
        str | None, typer.Option(help="Language: en, de, pl or ru (default: from the locale).")
    ] = None,
    target_tally: Annotated[
        bool, typer.Option("--target-tally", help="Show scores as the paper tally too (R31).")
    ] = False,
    plain: Annotated[
        bool, typer.Option("--plain", help="Line by line, for screen readers, pipes, scripts.")
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the last unfinished game.")
    ] = False,
) -> None:
    """Play Exact 61 Five Up in the terminal."""
    from exact61 import i18n
    from exact61.play.session import GameSession, last_unfinished, parse_seats

    language = lang or i18n.language_from_environment()
    if language not in i18n.LANGUAGES:
        raise CliError(f"unknown language {language!r}; choose from {', '.join(i18n.LANGUAGES)}")
    if resume:
        path = last_unfinished()
        if path is None:
            raise CliError("no unfinished game to resume")
        try:
            session = GameSession.resume(path)
        except (RecordError, OSError, ValueError, KeyError) as err:
            raise CliError(f"{path}: cannot resume: {err}", code=1) from None
        if lang is None:
            language = session.lang if session.lang in i18n.LANGUAGES else language
    else:
        try:
            seat_names = parse_seats(seats, players)
        except ValueError as err:
            raise CliError(str(err)) from None
        session = GameSession(players, seat_names, seed, lang=language)
    session.lang = language
    i18n.use(language)
    if plain or not sys.stdin.isatty() or not sys.stdout.isatty():
        from exact61.play.plain import run_plain

        raise typer.Exit(run_plain(session, sys.stdin, sys.stdout, target_tally))
    from exact61.tui.app import GameApp

    GameApp(session, tally=target_tally).run()


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
