"""`exact61 rules`: the rules R1-R31 in the player's language, whole or by number."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from exact61.cli.app import CliError, LanguageOption, app, choose_language
from exact61.i18n import N_, plain_text


@app.command(
    help=N_("Print the rules of Exact 61 Five Up (R1-R31), as the game's messages cite them.")
)
def rules(
    numbers: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="RULE",
            help=N_("Only these rules, e.g. R13 R19 (default: all of them)."),
            show_default=False,
        ),
    ] = None,
    lang: LanguageOption = None,
) -> None:
    from exact61 import i18n

    language = choose_language(lang)
    if numbers:
        paragraphs = i18n.rule_paragraphs(language)
        wanted = [n.strip().upper() for n in numbers]
        wanted = list(dict.fromkeys(n if n.startswith("R") else f"R{n}" for n in wanted))
        unknown = [n for n in wanted if n not in paragraphs]
        if unknown:
            raise CliError(
                i18n.ngettext(
                    "no rule {rules}; the rules are {known}",
                    "no rules {rules}; the rules are {known}",
                    len(unknown),
                ).format(rules=", ".join(unknown), known=", ".join(paragraphs))
            )
        text = "\n\n".join(paragraphs[n] for n in wanted) + "\n"
    else:
        text = i18n.rules_text(language)
    if sys.stdout.isatty():  # Markdown as a terminal shows it; plain text through pipes
        from rich.console import Console
        from rich.markdown import Markdown

        console = Console()
        shown = Markdown(text)
        lines = len(console.render_lines(shown, pad=False))
        if lines < console.height:
            console.print(shown)
        else:  # the whole rule book is some hundred lines: paged ($PAGER, else less), not lost
            # less shows the styles (R) and leaves the text on the screen when it quits (X), as
            # git sets it where the person has not
            os.environ.setdefault("LESS", "FRX")
            with console.pager(styles=True):
                console.print(shown)
    else:
        sys.stdout.write(plain_text(text))
