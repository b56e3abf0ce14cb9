"""`exact61 analyze`: post-game analysis of a recorded match; `exact61 equity`: the match equity
table's entry for some scores."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from exact61.cli.app import (
    CliError,
    LanguageOption,
    app,
    choose_language,
    err_console,
    progress_bar,
    require_extra,
    say,
)
from exact61.cli.records_io import file_name, match_text, record_error
from exact61.core import RecordError, parse_record
from exact61.core.settlement import side_count
from exact61.i18n import N_, _, ngettext, number, percent, positive_number


@app.command(
    help=N_(
        "Post-game analysis: each decision's move against the best, by match equity.\n\n"
        "For each decision of a seat: the move played, the best move and the chance to win the "
        "match each leaves, by the expert's own search (the hints'), with four times its budget; "
        "classed by the chance given away (inaccuracy from 2 percentage points, mistake from 5, "
        "blunder from 10), only when the loss passes the threshold by two standard errors; a "
        "summary per seat; where the match was decided. Rounds are counted from 1 and actions "
        "from 0, as `exact61 show --round/--action` takes them."
    )
)
def analyze(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help=N_("A match record file (.json or .jsonl; - for standard input)."),
        ),
    ],
    match: Annotated[int, typer.Option("--match", min=0, help=N_("Match index, from 0."))] = 0,
    seat: Annotated[
        list[int] | None,
        typer.Option(
            "--seat", min=0, max=3, help=N_("Analyse this seat's decisions (repeatable).")
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("Print the analysis as JSON."))
    ] = False,
    iterations: Annotated[
        int,
        typer.Option(
            min=100,
            max=100_000,
            help=N_("The expert's search per decision, in iterations (its hints use 1,000)."),
        ),
    ] = 4000,
    seed: Annotated[int, typer.Option(help=N_("Seed of the searches."))] = 0,
    lang: LanguageOption = None,
) -> None:
    from exact61.analysis.analyze import analyze_match
    from exact61.analysis.report import report, title_line

    choose_language(lang)
    text = match_text(file, match)
    try:
        record = parse_record(text)
    except RecordError as err:
        raise CliError(record_error(file, err, match), code=1) from None
    seats = sorted(set(seat)) if seat else None
    for s in seats or ():
        if s >= record.players:
            seats_there = (
                _("seats 0 and 1")
                if record.players == 2
                else _("seats 0 to {last}").format(last=record.players - 1)
            )
            raise CliError(
                ngettext(
                    "--seat {seat}: the match has {n} player ({seats})",
                    "--seat {seat}: the match has {n} players ({seats})",
                    record.players,
                ).format(seat=s, n=record.players, seats=seats_there)
            )
    try:
        with progress_bar(err_console) as bar:
            task = bar.add_task(_("analysing"), total=None)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = analyze_match(
                record,
                match_index=match,
                seats=seats,
                iterations=iterations,
                seed=seed,
                progress=advance,
            )
    except RecordError as err:
        raise CliError(record_error(file, err, match), code=1) from None
    if as_json:
        print(json.dumps({"file": str(file), **result.to_json()}, indent=1))
        return
    console = Console(highlight=False)
    if not console.is_terminal:  # a file or a pipe: 80 columns, no padding after a line's end
        console = Console(highlight=False, width=80)
        with console.capture() as captured:
            console.print(report(result, f"{file_name(file)}: {title_line(result)}"))
        sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))
        return
    console.print(report(result, f"{file_name(file)}: {title_line(result)}"))


# Negative scores (R19, 4 players) are arguments, not options: `exact61 equity -5 40 --players 4`.
@app.command(
    context_settings={"ignore_unknown_options": True},
    help=N_(
        "Match equity: each side's chance to win the match from these scores.\n\n"
        "At the start of a round, for each opener (R8) and for an opener drawn by lot. What it "
        "says is in the language of --lang; the heat maps are labelled in English, as every "
        "plot is."
    ),
)
def equity(
    scores: Annotated[
        list[int],
        typer.Argument(
            metavar="SCORE", help=N_("Display scores, side 0 first (three at 3 players).")
        ),
    ],
    players: Annotated[int, typer.Option(min=2, max=4, help=N_("Players: 2, 3 or 4 (R2)."))] = 2,
    plot: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE.png|DIR",
            help=N_(
                "Also draw the whole table, for 2, 3 and 4 players, as heat maps: all in one "
                "FILE.png, or one PNG file a player count in the folder DIR."
            ),
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force/--no-force", help=N_("Overwrite the --plot files if they exist.")),
    ] = False,
    lang: LanguageOption = None,
) -> None:
    from exact61.search.equity import default_table, plot_heatmaps

    sides = side_count(players)
    if len(scores) != sides:
        raise CliError(
            _("{players} players make {sides} sides: give {sides} scores, not {n}").format(
                players=players, sides=sides, n=len(scores)
            )
        )
    table = default_table()
    low = table.low[players]
    for s in scores:
        if s > 61:
            raise CliError(_("a score of {score}: display scores go up to 61 (R3)").format(score=s))
        if s < 0 and players != 4:
            raise CliError(
                _("a score of {score}: only 4-player scores go below 0 (R19)").format(score=s)
            )
    if scores.count(61) > 1:
        raise CliError(_("two sides at 61: the first to reach exactly 61 wins the match (R30)"))
    if plot is not None:  # before anything is printed
        _check_plot(plot, force)
        require_extra("tournament", "equity --plot", "matplotlib")
    raw = [5 * s for s in scores]
    names = [  # as simulate names them: a side of partners at 4 players, else a seat
        _("side {side}").format(side=i) + " (" + _("seats {a}+{b}").format(a=i, b=i + 2) + ")"
        if players == 4
        else _("seat {seat}").format(seat=i)
        for i in range(sides)
    ]
    shown = (", " if min(scores) < 0 else "-").join(map(str, scores))  # -5, 40: not a sum
    say(
        ngettext(
            "Match equity, {n} player, scores {scores} (display):",
            "Match equity, {n} players, scores {scores} (display):",
            players,
        ).format(n=players, scores=shown)
    )
    if min(scores) < low:
        say("  " + _("(scores below {low} count as {low}: the table's floor, R19)").format(low=low))
    if 61 in scores:  # nothing left to estimate
        won = names[scores.index(61)]
        won = won[:1].upper() + won[1:]  # it begins the sentence
        say("  " + _("{side} has won the match: it reached exactly 61 (R30).").format(side=won))
        return
    openers = [(_("seat {seat} opens").format(seat=s), s) for s in range(players)]
    if players == 4:
        openers = [(_("side {side} opens").format(side=s), s) for s in (0, 1)]
    rows = [*openers, (_("opener by lot"), None)]
    width = max(len(label) for label, _opener in rows)
    for label, opener in rows:
        values = table.win_probabilities(players, raw, opener)
        shares = ", ".join(f"{n} {percent(v, 1)}" for n, v in zip(names, values, strict=True))
        error = ""
        if opener is not None:
            error = (
                f"  (±{positive_number(100 * table.standard_error(players, scores, opener), 1)})"
            )
        say(f"  {label:>{width}}: {shares}{error}")
    meta = table.meta
    rounds = meta["rounds"][str(players)]
    say(
        ngettext(
            "From a Markov chain over {n} round of {bot} self-play (built {built}); ± is one "
            "standard error.",
            "From a Markov chain over {n} rounds of {bot} self-play (built {built}); ± is one "
            "standard error.",
            rounds,
        ).format(n=number(rounds), bot=meta["bot"], built=meta["built"])
    )
    if plot is not None:
        try:
            for path in plot_heatmaps(plot, table):
                print(_("Heat map: {path}").format(path=path))
        except OSError as err:
            raise CliError(f"{plot}: {err.strerror or err}", code=1) from None


def _check_plot(plot: Path, force: bool) -> None:
    """Refuse a --plot whose folder (or the folder it would be made in) is missing or is a
    file (exit 1), or whose pictures exist without --force (exit 2), before anything is
    computed or made."""
    parent = plot.absolute().parent
    if not parent.is_dir():
        said = (
            _("--plot {plot}: the folder {folder} is a file")
            if parent.exists()
            else _("--plot {plot}: the folder {folder} does not exist")
        )
        raise CliError(said.format(plot=plot, folder=parent), code=1)
    if plot.exists() and not plot.is_dir() and plot.suffix.lower() != ".png":
        raise CliError(
            _("--plot {plot}: is a file; give a folder or a file name ending in .png").format(
                plot=plot
            )
        )
    if force:
        return
    if plot.is_dir():
        there = [plot / f"equity-{players}p.png" for players in (2, 3, 4)]
        taken = [path for path in there if path.exists()]
    else:
        taken = [plot] if plot.exists() else []
    if taken:
        raise CliError(
            ngettext(
                "--plot: {files} exists; use --force to overwrite it or choose another --plot",
                "--plot: {files} exist; use --force to overwrite them or choose another --plot",
                len(taken),
            ).format(files=", ".join(map(str, taken)))
        )
