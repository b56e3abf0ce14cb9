"""`exact61 learn`: the guided tour, full-screen or line by line, resumed where it was left."""

from __future__ import annotations

import shlex
import sys
from typing import Annotated

import typer

from exact61.cli.app import (
    CliError,
    LanguageOption,
    app,
    check_progress_folder,
    choose_language,
)
from exact61.i18n import N_

MATCH_FILE = "tour-match.json"  # the guided match's record, beside the tour's progress


def again_command(language: str | None, plain: bool) -> str:
    """The command that goes on with the tour as this one was typed: the options given
    (`--lang`, `--plain`) but `--restart`, which would start it afresh."""
    line = ["exact61", "learn"]
    if language is not None:
        line += ["--lang", language]
    if plain:
        line.append("--plain")
    return shlex.join(line)


@app.command(
    help=N_(
        "Learn the game: a guided tour of the rule book's positions, then a short match "
        "against a bot whose hints say why.\n\nEach step asks a question and answers it with "
        "the rules behind it; the tour goes on where you left it."
    )
)
def learn(
    lang: LanguageOption = None,
    plain: Annotated[
        bool, typer.Option("--plain", help=N_("Line by line, for screen readers, pipes, scripts."))
    ] = False,
    restart: Annotated[
        bool,
        typer.Option(
            "--restart", help=N_("Start the tour again from the first lesson, forgetting progress.")
        ),
    ] = False,
) -> None:
    from exact61.core import RecordError
    from exact61.i18n import _
    from exact61.learn.progress import ProgressError, ProgressFile, reason_of
    from exact61.learn.tour import TourState
    from exact61.terminal.session import GameSession, guided_session

    language = choose_language(lang)
    again = again_command(language if lang is not None else None, plain)
    store = ProgressFile("tour")
    folder = store.path.parent
    match_path = folder / MATCH_FILE
    check_progress_folder(folder)
    if restart:
        try:
            store.clear()
            match_path.unlink(missing_ok=True)
        except (ProgressError, OSError) as err:
            path, reason = (
                (err.path, err.reason)
                if isinstance(err, ProgressError)
                else (match_path, reason_of(match_path, err))
            )
            raise CliError(
                _("cannot start the tour again: {path}: {reason}").format(path=path, reason=reason),
                code=1,
            ) from None
    try:
        state = TourState.from_json(store.load())
    except (ProgressError, ValueError) as err:
        reason = err.reason if isinstance(err, ProgressError) else str(err)
        raise CliError(
            _(
                "cannot read your progress {path}: {reason}; it is left as it is (exact61 learn "
                "--restart starts the tour again)"
            ).format(path=store.path, reason=reason),
            code=1,
        ) from None
    if state.stage == "done":  # the tour again, from its start
        state = TourState()
        match_path.unlink(missing_ok=True)

    def match() -> GameSession:
        try:
            return guided_session(match_path, language)
        except (RecordError, OSError, ValueError, KeyError) as err:
            raise CliError(
                _(
                    "cannot resume the guided match {path}: {reason}; it is left as it is "
                    "(exact61 learn --restart starts the tour again)"
                ).format(path=match_path, reason=err),
                code=1,
            ) from None

    if plain or not sys.stdin.isatty() or not sys.stdout.isatty():
        from exact61.terminal.learn_plain import PlainTour

        raise typer.Exit(PlainTour(state, store, sys.stdin, sys.stdout, match, again).run())
    from exact61.terminal.learn_app import GuidedGameApp, TourApp

    if state.stage == "lessons" and TourApp(state, store, again).run() != "match":
        return
    GuidedGameApp(match(), state, store, again=again).run()
