"""Languages for everything a person reads: English, German, Polish, Russian (gettext + Babel).

The catalogs are the `.po` files in `locale/`, compiled in memory on first use, so there is no
build step and no binary file in the repository. `use(lang)` picks the language for the process;
`_` and `ngettext` translate with it. The core never translates: its errors name rules in English
(`R10: ...`), and `rule_text` gives each rule's words in the chosen language.
"""

from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("en", "de", "pl", "ru")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "pl": "polski", "ru": "русский"}
LOCALE_DIR = Path(__file__).parent / "locale"
RULES_DIR = Path(__file__).parent / "rules"  # the rules R1-R31 for players, one file a language

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


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


def language() -> str:
    return _language


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)
