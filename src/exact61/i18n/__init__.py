"""Languages for everything a person reads: English, German, Polish, Russian (gettext + Babel).

The catalogs are the `.po` files in `locale/`, compiled in memory on first use, so there is no
build step and no binary file in the repository. `use(lang)` picks the language for the process;
`_` and `ngettext` translate with it. `speaking(lang)` picks one for a block of code only, in
its own thread or task (a server answering each person in their language), leaving the
process's as it is. The core never translates: its errors name rules in English
(`R10: ...`), and `rule_text` gives each rule's words in the chosen language.

Numbers a person reads are written as the language writes them (Babel's CLDR data): `number`
(`7,5`), `percent` (`51,7 %`), and `quantity` for a number with its unit in the form that number
takes. gettext chooses plural forms for whole numbers only; a number shown with decimals takes a
form of its own in Polish and Russian (`7,5 punktu`, `6,8 пункта`: CLDR's "other", which no
whole number reaches), so `quantity` asks for it explicitly, as the message whose id is the
English plural (`{n} percentage points`, translated `{n} punktu procentowego`).
"""

from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

LANGUAGES = ("en", "de", "pl", "ru")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "pl": "polski", "ru": "русский"}
LOCALE_DIR = Path(__file__).parent / "locale"
RULES_DIR = Path(__file__).parent / "rules"  # the rules R1-R31 for players, one file a language

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
# The language of a block (`speaking`), in this thread or task only: (code, catalog), else None.
_speaking: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar(
    "exact61_speaking", default=None
)


def N_(message: str) -> str:  # gettext convention: mark now, translate later
    return message


# The attach points' ends by their names in records and frames (`TileEnd`'s values), as the
# terminal, the web page and the analysis all name them (R13).
END_NAMES = {
    "low": N_("low end"),
    "high": N_("high end"),
    "lineA": N_("line side A"),
    "lineB": N_("line side B"),
    "armA": N_("side arm A"),
    "armB": N_("side arm B"),
}


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog for `lang` ("en" is the source language: messages stand as written)."""
    if lang == "en":
        return gettext.NullTranslations()
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")
    with (LOCALE_DIR / f"{lang}.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def rules_text(lang: str) -> str:
    """The rules R1-R31 in `lang` (Markdown): what `exact61 rules` prints and the game shows."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")
    return (RULES_DIR / f"{lang}.md").read_text(encoding="utf-8")


def plain_text(markdown: str) -> str:
    """The rules' Markdown as plain text: headings underlined (= for the title, - for a
    section), no ** around the rule numbers, no backticks around examples."""
    lines = []
    for line in markdown.splitlines():
        heading = re.match(r"(#+) +(.*)", line)
        if heading:
            title = heading.group(2).strip()
            lines += [title, ("=" if len(heading.group(1)) == 1 else "-") * len(title)]
        else:
            lines.append(re.sub(r"\*\*(.+?)\*\*|`(.+?)`", lambda m: m.group(1) or m.group(2), line))
    return "\n".join(lines) + "\n"


def rule_paragraphs(lang: str) -> dict[str, str]:
    """Each rule's paragraph by its number (`R13`), from `rules_text`."""
    out: dict[str, str] = {}
    for block in rules_text(lang).split("\n\n"):
        match = re.match(r"\*\*(R\d+)\*\*", block.strip())
        if match:
            out[match.group(1)] = block.strip()
    return out


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the terminal's locale asks for (LC_ALL, LC_MESSAGES, LANG), else English."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for value in env.get(key, "").split(":"):
            code = value.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
    return "en"


def use(lang: str) -> None:
    """Translate from now on into `lang`."""
    global _current, _language
    _current = translations(lang)
    _language = lang


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Translate into `lang` inside the block, in this thread or task only: the process's
    language (`use`) stays, and blocks in other threads speak their own, with no lock."""
    token = _speaking.set((lang, translations(lang)))
    try:
        yield
    finally:
        _speaking.reset(token)


def language() -> str:
    block = _speaking.get()
    return _language if block is None else block[0]


def _catalog() -> gettext.NullTranslations:
    block = _speaking.get()
    return _current if block is None else block[1]


def _(message: str) -> str:
    return _catalog().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog().ngettext(singular, plural, n)


def _rounded(value: float, digits: int) -> Decimal:
    """`value` rounded to `digits` decimals as it will be shown."""
    return Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)


def number(value: float, digits: int = 0) -> str:
    """`7,5`, `1 234`: a number with `digits` decimals as the current language writes it."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    shown = _rounded(value, digits)
    return format_decimal(shown if shown else abs(shown), format=pattern, locale=language())


def positive_number(value: float, digits: int = 0) -> str:
    """`number`, but a positive value too small to show at `digits` decimals reads `<0,1`,
    not `0,0` (a time, a standard error: small, never nothing)."""
    least = 10.0**-digits
    if value > 0 and _rounded(value, digits) == 0:
        return "<" + number(least, digits)
    return number(value, digits)


def percent(share: float, digits: int = 0) -> str:
    """`51,7 %` (German, Russian), `51,7%` (Polish), `51.7%`: a share of 1 as a percentage with
    `digits` decimals, in the current language's own percent pattern."""
    pattern = Locale.parse(language()).percent_formats[None].pattern
    decimals = "." + "0" * digits if digits else ""
    pattern = re.sub(r"0(?=[^0-9#,.]*$)", "0" + decimals, pattern, count=1)
    return format_percent(_rounded(100 * share, digits) / 100, format=pattern, locale=language())


def quantity(singular: str, plural: str, value: float, digits: int = 0) -> str:
    """`{n} points` with `n` the number as `number` writes it, in the form it takes as shown:
    a whole number by the catalog's plural rule (`ngettext`), a number shown with decimals by
    the message `plural` (`7,5 punktu procentowego`)."""
    shown = _rounded(value, digits)
    text = _catalog().gettext(plural) if digits else ngettext(singular, plural, int(shown))
    return text.format(n=number(value, digits))
