"""`exact61 play`: the game, full-screen or line by line."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from exact61.bots import BotSpecError, check_bot_players
from exact61.cli.app import CliError, LanguageOption, app, bot_error, choose_language
from exact61.core import RecordError
from exact61.i18n import N_


@app.command(help=N_("Play Exact 61 Five Up in the terminal."))
def play(
    ctx: typer.Context,
    players: Annotated[int, typer.Option(min=2, max=4, help=N_("Players: 2, 3 or 4 (R2)."))] = 2,
    seats: Annotated[
        str | None,
        typer.Option(
            metavar="NAME,NAME,...",
            help=N_(  # {levels}, {bots}: as the program has them (usage.HELP_FIELDS)
                "Who sits where, e.g. human,medium,human,easy (seats 0 and 2 are partners at 4 "
                "players): human, a level ({levels}) or a bot ({bots}); without --players, as "
                "many players as seats named. Default: you, then the strongest bot."
            ),
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help=N_("Seed for the deals (default: random)."))
    ] = None,
    lang: LanguageOption = None,
    target_tally: Annotated[
        bool, typer.Option("--target-tally", help=N_("Show scores as the paper tally too (R31)."))
    ] = False,
    plain: Annotated[
        bool, typer.Option("--plain", help=N_("Line by line, for screen readers, pipes, scripts."))
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help=N_("Continue the last unfinished game."))
    ] = False,
) -> None:
    from exact61 import i18n
    from exact61.i18n import _
    from exact61.table.files import NOT_A_RECORD, UnreadableSaveError, check_writable
    from exact61.terminal.session import (
        GameSession,
        SeatCountError,
        games_dir,
        last_unfinished,
        parse_seats,
    )

    language = choose_language(lang)
    folder = games_dir()
    try:  # before the game starts, not when its first move cannot be saved
        check_writable(folder)
    except OSError as err:
        raise CliError(
            _(
                "cannot save games in {folder}: {reason} (set EXACT61_DATA_DIR to another folder)"
            ).format(folder=folder, reason=err.strerror or str(err)),
            code=1,
        ) from None
    given: list[str] = []
    if resume:
        given = [
            f"--{name}"
            for name in ("seed", "players", "seats")
            if getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"
        ]
        try:
            path = last_unfinished(skip_unreadable=False)
        except UnreadableSaveError as err:
            raise CliError(
                _(
                    "cannot read the saved game {path}: {reason}; it is left as it is "
                    "(move it out of that folder to resume an older game)"
                ).format(
                    path=err.path,
                    reason=_("not a saved game (not a JSON record)")
                    if err.reason == NOT_A_RECORD
                    else err.reason,
                ),
                code=1,
            ) from None
        if path is None:
            raise CliError(_("no unfinished game to resume (exact61 play starts one)"))
        try:
            session = GameSession.resume(path)
        except (RecordError, OSError, ValueError, KeyError) as err:
            raise CliError(
                _("{path}: cannot resume: {reason}").format(path=path, reason=err), code=1
            ) from None
        if lang is None:
            language = session.lang if session.lang in i18n.LANGUAGES else language
    else:
        if seats and getattr(ctx.get_parameter_source("players"), "name", None) != "COMMANDLINE":
            named = len(seats.split(","))  # --seats names every player: --players may go unsaid
            players = named if 2 <= named <= 4 else players
        try:
            seat_names = parse_seats(seats, players)
            for name in seat_names:  # a learned policy plays the player count it learned
                check_bot_players(name, players)
        except BotSpecError as err:
            raise CliError(bot_error(err)) from None
        except SeatCountError as err:
            raise CliError(
                i18n.ngettext(
                    "--seats names {n} seat for {players} players",
                    "--seats names {n} seats for {players} players",
                    err.named,
                ).format(n=err.named, players=err.players)
            ) from None
        session = GameSession(players, seat_names, seed, lang=language)
    session.lang = language
    i18n.use(language)
    notes = []
    if resume and given:
        notes.append(
            i18n.ngettext(  # one form in English; the verb agrees with the count in others
                "--resume continues the saved game as it was: ignoring {options}",
                "--resume continues the saved game as it was: ignoring {options}",
                len(given),
            ).format(options=", ".join(given))
        )
    if plain or not sys.stdin.isatty() or not sys.stdout.isatty():
        from exact61.terminal.plain import run_plain

        for note in notes:  # one line each, as the errors are, however it is read
            print(f"exact61: {note}", file=sys.stderr)
        raise typer.Exit(run_plain(session, sys.stdin, sys.stdout, target_tally))
    from exact61.terminal.app import GameApp

    # Said inside the full screen: printed before it, it was hidden underneath at once.
    GameApp(session, tally=target_tally, notes=notes).run()
