"""Every message a player reads exists in English, German, Polish and Russian.

The messages are extracted from today's source (as `pybabel extract` does), so a new message
without a translation in any language fails here, as does a translation whose placeholders
differ from the English.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from exact61 import i18n

SOURCE = Path(i18n.__file__).parents[1]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def source_messages() -> set[str | tuple[str, str]]:
    found: set[str | tuple[str, str]] = set()
    for folder in ("play", "tui", "i18n"):
        for _, _, message, _, _ in extract_from_dir(SOURCE / folder, keywords=KEYWORDS):
            found.add(message if isinstance(message, str) else tuple(message[:2]))
    return found


def fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w*)\}", text))


def test_the_source_has_messages() -> None:
    assert len(source_messages()) > 80


@pytest.mark.parametrize("lang", ["de", "pl", "ru"])
def test_every_message_is_translated(lang: str) -> None:
    catalog = read_po((i18n.LOCALE_DIR / f"{lang}.po").open("rb"), locale=lang)
    translated = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in catalog if m.id}
    missing = source_messages() - set(translated)
    assert not missing, f"{lang}: no translation for {sorted(map(str, missing))}"
    for key, message in translated.items():
        assert not message.fuzzy, (lang, key)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert strings and all(strings), (lang, key)
        english = key if isinstance(key, str) else key[1]
        for text in strings:
            assert fields(text) == fields(english), (lang, key, text)
    if lang in ("pl", "ru"):
        plural = translated[("{n} tile", "{n} tiles")]
        assert len(plural.string) == 3  # one, few, many


def test_switching_language_translates() -> None:
    from exact61.play import words

    try:
        for lang, word in (
            ("de", "Platz 1"),
            ("pl", "Miejsce 1"),
            ("ru", "Место 1"),
            ("en", "Seat 1"),
        ):
            i18n.use(lang)
            assert words.seat_name(1) == word
        i18n.use("ru")
        assert [words.tiles_left(n) for n in (1, 3, 5, 21)] == [
            "1 кость",
            "3 кости",
            "5 костей",
            "21 кость",
        ]
        i18n.use("pl")
        assert words.rule_text("R13").startswith("R13: boczne ramiona")
    finally:
        i18n.use("en")


def test_language_from_the_locale() -> None:
    assert i18n.language_from_environment({"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.language_from_environment({"LC_ALL": "ru_RU.UTF-8", "LANG": "de_DE"}) == "ru"
    assert i18n.language_from_environment({"LANG": "fr_FR.UTF-8"}) == "en"
    assert i18n.language_from_environment({}) == "en"
    with pytest.raises(ValueError):
        i18n.translations("xx")
