"""`exact61 simulate`, `replay` and `show`: making, checking and reading match records."""

from __future__ import annotations

import shutil
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Annotated

import typer
from rich.console import Console

from exact61.bots import BotSpecError, check_bot_players
from exact61.cli.app import (
    CliError,
    LanguageOption,
    app,
    bot_error,
    bot_spec,
    cannot_write,
    check_out,
    err_console,
    interrupted_after,
    progress_bar,
    say,
    whole_steps,
)
from exact61.cli.backend_opts import Address, BackendName, BackendOption, Workers, backend_for
from exact61.cli.records_io import (
    RecordFileError,
    UnreadableFileError,
    file_name,
    iter_record_texts,
    match_text,
    record_error,
    resume_records,
)
from exact61.core import (
    Match,
    RecordError,
    parse_record,
    replay,
)
from exact61.core.settlement import partner_of, side_count
from exact61.i18n import N_, _, ngettext, number, percent, positive_number
from exact61.render.picture import draw
from exact61.simulation.runs import is_match_of_run, simulate_lines
from exact61.simulation.summary import Summary

FLUSH_SECONDS = 0.5  # how long finished matches may wait in memory before reaching --out


@app.command(
    help=N_(
        "Play whole matches between bots and write every match record as it is played.\n\n"
        "Records come in match order on any backend and workers: the same seed, the same file; "
        "the summary is in the language of --lang, the records the same in every language."
    )
)
def simulate(
    players: Annotated[int, typer.Option(min=2, max=4, help=N_("Players: 2, 3 or 4 (R2)."))] = 2,
    matches: Annotated[int, typer.Option(min=1, help=N_("How many matches to play."))] = 100,
    seed: Annotated[int, typer.Option(help=N_("Seed: the same seed gives the same matches."))] = 0,
    bot: Annotated[
        str,
        typer.Option(
            metavar="NAME",
            callback=bot_spec,
            help=N_(  # {bots}, {levels}: as the program has them (usage.HELP_FIELDS)
                "The bot playing every seat: {bots} (or a level: {levels}); ismcts:N or expert:N "
                "sets its iterations a move, pimc:N its deals a move, ismcts@0.05s its seconds a "
                "move; learned:FILE plays a trained policy."
            ),
        ),
    ] = "random",
    out: Annotated[
        Path,
        typer.Option(help=N_("Where to write the records (JSON Lines); '-' for standard output.")),
    ] = Path("matches.jsonl"),
    force: Annotated[bool, typer.Option(help=N_("Overwrite --out if it exists."))] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help=N_(
                "Go on with a run that was stopped: keep the matches --out holds (made with the "
                "same --players, --seed and --bot) and play the rest."
            ),
        ),
    ] = False,
    workers: Workers = None,
    backend: BackendOption = BackendName.process,
    address: Address = None,
    lang: LanguageOption = None,
) -> None:
    try:
        check_bot_players(bot, players)  # a learned policy plays the player count it learned
    except BotSpecError as err:
        raise CliError(bot_error(err)) from None
    to_stdout = str(out) == "-"
    if resume and to_stdout:
        raise CliError(_("--resume goes on with a file, not with standard output (--out -)"))
    if resume and force:
        raise CliError(
            _("--resume keeps what --out holds and --force would overwrite it: choose one")
        )
    if not to_stdout:
        check_out(out, force or resume)
    report = Console(stderr=to_stdout, highlight=False, soft_wrap=True)
    summary = Summary()
    bots = [bot] * players
    start = 0
    if resume:
        start = resume_records(
            out,
            matches,
            lambda i, record: is_match_of_run(record, i, players, seed, bots),
            lambda _i, record: summary.add(record),
            "--players, --seed, --bot",
        )
    if start:
        report.print(
            ngettext(
                "Resuming after {done} of {total} match.",
                "Resuming after {done} of {total} matches.",
                matches,
            ).format(done=number(start), total=number(matches))
        )
    started = time.perf_counter()
    interrupted = False
    stdout = sys.stdout  # taken before the backend opens: meanwhile sys.stdout is stderr
    try:
        sink: IO[str]
        with (
            backend_for(backend, workers, address, matches - start) as runner,
            nullcontext(stdout)
            if to_stdout
            else out.open("a" if resume else "w", buffering=1 << 20) as sink,
            progress_bar(err_console) as progress,
            whole_steps() as whole_step,
        ):
            task = progress.add_task(_("simulating"), total=matches, completed=start)
            done = simulate_lines(
                players, matches, seed, bots, runner, lambda n: progress.advance(task, n), start
            )
            flushed = time.monotonic()
            for text, totals in done:
                with whole_step:  # a stopped run keeps and counts every finished match
                    sink.write(text + "\n")
                    summary.add_totals(totals)
                # Flushed twice a second, not after every match, whose write a run would feel
                # (a stopped or failed run still flushes on closing; a killed one loses at most
                # that).
                if (now := time.monotonic()) - flushed >= FLUSH_SECONDS:
                    sink.flush()
                    flushed = now
    except KeyboardInterrupt:
        interrupted = True
    except BrokenPipeError:
        raise
    except OSError as err:
        raise cannot_write(out, err) from None
    elapsed = time.perf_counter() - started
    _print_summary(report, summary, players, elapsed, summary.matches - start if start else None)
    where = _("standard output") if to_stdout else str(out)
    report.print(_("Records: {path}").format(path=where))
    if interrupted:
        report.print(interrupted_after(summary.matches, matches))
        raise typer.Exit(130)


def _print_summary(
    console: Console, s: Summary, players: int, elapsed: float, played: int | None = None
) -> None:
    """The run's matches in figures; `played`: of them, how many this run played, in `elapsed`
    (a resumed run: the time is not the file's)."""
    sides = side_count(players)
    figures = {
        "matches": ngettext("{n} match", "{n} matches", s.matches).format(n=number(s.matches)),
        "rounds": ngettext("{n} round", "{n} rounds", s.rounds).format(n=number(s.rounds)),
        "per_match": number(s.rounds_per_match, 1),
        "actions": ngettext("{n} action", "{n} actions", s.actions).format(n=number(s.actions)),
    }
    seconds = positive_number(elapsed, 1)
    if played is None:
        console.print(
            _("{matches}, {rounds} ({per_match} per match), {actions} in {seconds} s").format(
                **figures, seconds=seconds
            )
        )
    else:
        console.print(_("{matches}, {rounds} ({per_match} per match), {actions}").format(**figures))
        console.print(
            ngettext(
                "This run played {n} of them, in {seconds} s.",
                "This run played {n} of them, in {seconds} s.",
                played,
            ).format(n=number(played), seconds=seconds)
        )
    wins = ", ".join(
        _("side {side} ({seats}) {wins} ({share})").format(
            side=i,
            seats=(
                _("seats {a}+{b}").format(a=i, b=partner_of(players, i))
                if players == 4
                else _("seat {seat}").format(seat=i)
            ),
            wins=number(s.wins[i]),
            share=percent(s.wins[i] / max(s.matches, 1), 1),
        )
        for i in range(sides)
    )
    console.print(_("Wins: {wins}").format(wins=wins))
    console.print(
        _("Round ends: domino {domino}, blocked {block}, target reached mid-round {target}").format(
            domino=number(s.ends["domino"]),
            block=number(s.ends["block"]),
            target=number(s.ends["target"]),
        )
    )
    console.print(_("Rejected overshoots (R4): {n}").format(n=number(s.rejected)))


@app.command(
    name="replay",
    help=N_(
        "Verify match records by replaying every action under the rules.\n\n"
        "A record that does not replay is said on standard output and counted as failed; a file "
        "that cannot be read at all is said on standard error. Exit 1 for either. What it says "
        "is in the language of --lang; the reasons the rules engine gives name their rule in "
        "English."
    ),
)
def replay_cmd(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE",
            help=N_("Match record files (.json or .jsonl; - for standard input)."),
        ),
    ],
    lang: LanguageOption = None,
) -> None:
    verified = unfinished = failed = unread = 0
    with progress_bar(err_console) as progress:
        task = progress.add_task(_("verifying"), total=None)
        for path in files:
            try:
                for index, text in iter_record_texts(path):
                    try:
                        match = replay(text)
                    except RecordError as err:
                        failed += 1
                        print(record_error(path, err, index))
                    else:
                        verified += 1
                        unfinished += not match.is_over
                    progress.advance(task)
            except UnreadableFileError as err:  # said as analyze and show say it; on to the next
                unread += 1
                print(f"exact61: {err}", file=sys.stderr)
            except RecordFileError as err:  # read, but holds no record
                failed += 1
                print(str(err))
    said = ngettext("{n} match verified", "{n} matches verified", verified).format(
        n=number(verified)
    )
    if unfinished:
        n = number(unfinished)
        said += " (" + ngettext("{n} unfinished", "{n} unfinished", unfinished).format(n=n) + ")"
    if failed:
        said += ", " + ngettext("{n} failed", "{n} failed", failed).format(n=number(failed))
    if unread:
        said += "; " + ngettext("{n} file not read", "{n} files not read", unread).format(
            n=number(unread)
        )
    print(said)
    if failed or unread or not verified:
        raise typer.Exit(1)


@app.command(
    help=N_(
        "Print the position after one action of a recorded match.\n\n"
        "Exit 1 for a file that cannot be read or does not replay, 2 for an index it does not "
        "have. What it says is in the language of --lang; the reasons the rules engine gives "
        "name their rule in English."
    )
)
def show(
    file: Annotated[
        Path,
        typer.Argument(help=N_("A match record file (.json or .jsonl; - for standard input).")),
    ],
    match: Annotated[int, typer.Option("--match", min=0, help=N_("Match index, from 0."))] = 0,
    round_: Annotated[
        int | None,
        typer.Option(
            "--round",
            min=1,
            help=N_("Round number, from 1 as the game counts (default: last)."),
        ),
    ] = None,
    action: Annotated[
        int | None,
        typer.Option(
            "--action", min=0, help=N_("Action index in the round, from 0 (default: last).")
        ),
    ] = None,
    picture: Annotated[
        bool, typer.Option(help=N_("Draw the layout above the facts, as the rule documents do."))
    ] = True,
    lang: LanguageOption = None,
) -> None:
    from exact61.terminal.layout_words import position_facts, step_line  # the game's own words

    text = match_text(file, match)
    try:
        record = parse_record(text)
    except RecordError as err:
        raise CliError(record_error(file, err, match), code=1) from None
    rounds = len(record.rounds)
    if not rounds:  # the file is what is wrong, not the command line
        raise CliError(
            _("{path}: match {match} holds no round: nothing to show").format(
                path=file_name(file), match=match
            ),
            code=1,
        )
    # Rounds are numbered from 1, as the game says "Round 1"; the record counts from 0.
    r = rounds - 1 if round_ is None else round_ - 1
    if not 0 <= r < rounds:
        raise CliError(
            ngettext(
                "{path}: match {match} has no round {round} (it has {n} round)",
                "{path}: match {match} has no round {round} (it has {n} rounds)",
                rounds,
            ).format(path=file_name(file), match=match, round=r + 1, n=number(rounds))
        )
    actions = len(record.rounds[r].actions)
    a = actions - 1 if action is None else action  # -1 for a round dealt but not yet played
    if not (0 <= a < actions or a == -1):
        raise CliError(
            ngettext(
                "{path}: match {match}, round {round} has no action {action} (it has {n} action)",
                "{path}: match {match}, round {round} has no action {action} (it has {n} actions)",
                actions,
            ).format(path=file_name(file), match=match, round=r + 1, action=a, n=number(actions))
        )
    try:
        position: Match = replay(record, stop_after=(r, a))
    except RecordError as err:
        raise CliError(record_error(file, err, match), code=1) from None
    if a == -1:
        say(
            _("Match {match}, round {round}: dealt, nobody has acted yet").format(
                match=match, round=r + 1
            )
        )
    else:
        say(
            _("Match {match}, round {round}, action {action}: {what}").format(
                match=match, round=r + 1, action=a, what=step_line(position, r, a)
            )
        )
    if picture:
        drawn = draw(position.layout).text()
        wide = max(map(len, drawn.splitlines()), default=0)
        columns = shutil.get_terminal_size().columns
        if sys.stdout.isatty() and wide > columns:  # a wrapped picture cuts tiles in two
            say(
                _(
                    "(The layout's picture is {wide} columns wide and the terminal {columns}: "
                    "widen the terminal, or pipe the output to a file or less -S.)"
                ).format(wide=number(wide), columns=number(columns))
            )
        else:
            print(drawn)  # a picture: never re-wrapped
    say("\n".join(position_facts(position)))
