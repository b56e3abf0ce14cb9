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
    for _, _, message, _, _ in extract_from_dir(SOURCE, keywords=KEYWORDS):
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
    from exact61.terminal import words

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


# ---- plural forms ------------------------------------------------------------------------

# The gettext rules for each language (GNU gettext's manual, "Plural forms"), written out
# independently of the catalogs' headers: which form a count takes.
PLURAL_RULES = {
    "de": (2, lambda n: 0 if n == 1 else 1),
    "pl": (3, lambda n: 0 if n == 1 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2),
    "ru": (
        3,
        lambda n: (
            0
            if n % 10 == 1 and n % 100 != 11
            else 1
            if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14
            else 2
        ),
    ),
}
COUNTS = [0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112, 122, 305]


@pytest.mark.parametrize("lang", ["de", "pl", "ru"])
def test_plural_forms_header_and_every_plural_message(lang: str) -> None:
    catalog = read_po((i18n.LOCALE_DIR / f"{lang}.po").open("rb"), locale=lang)
    header = dict(catalog.mime_headers)["Plural-Forms"]
    forms, rule = PLURAL_RULES[lang]
    assert f"nplurals={forms};" in header.replace(" ", "")
    assert catalog.num_plurals == forms
    plurals = [m for m in catalog if m.id and not isinstance(m.id, str)]
    assert len(plurals) >= 5
    translations = i18n.translations(lang)
    for message in plurals:
        assert len(message.string) == forms, message.id
        for n in COUNTS:  # the compiled catalog picks the form the language's rule names
            expected = message.string[rule(n)]
            assert translations.ngettext(message.id[0], message.id[1], n) == expected


def test_counts_read_right_in_every_language() -> None:
    from exact61.terminal import words

    expected = {
        "en": ["1 pip", "2 pips", "5 pips", "1 tile", "2 tiles"],
        "de": ["1 Auge", "2 Augen", "5 Augen", "1 Stein", "2 Steine"],
        "pl": ["1 oczko", "2 oczka", "5 oczek", "1 klocek", "2 klocki"],
        "ru": [
            "1 (сумма значений)",
            "2 (сумма значений)",
            "5 (сумма значений)",
            "1 кость",
            "2 кости",
        ],
    }
    try:
        for lang, texts in expected.items():
            i18n.use(lang)
            got = [words.pips_text(n) for n in (1, 2, 5)] + [words.tiles_left(n) for n in (1, 2)]
            assert got == texts, lang
        i18n.use("pl")
        assert [words.tiles_left(n) for n in (5, 12, 22, 25)] == [
            "5 klocków",
            "12 klocków",
            "22 klocki",
            "25 klocków",
        ]
    finally:
        i18n.use("en")


# ---- the rules texts --------------------------------------------------------------------

RULE_NUMBERS = [f"R{n}" for n in [*range(1, 24), 30, 31]]
# Words of the original rule documents (the Polish, Russian and German ones)
# that the rules texts must use, so a player meets the documents' terms.
DOCUMENT_TERMS = {
    "de": [
        "Talon",
        "Anlegestelle",
        "Spinner",
        "Rohpunkte",
        "Anzeigepunkte",
        "Linienseite",
        "Seitenarm",
        "Gutschrift",
        "Eröffner",
        "gesperrt",
        "Doppelsechs",
        "Strich",
    ],
    "pl": [
        "stos dobierania",
        "miejsce dołożenia",
        "rozgałęziając",
        "punktów surowych",
        "wyświetlan",
        "strony łańcucha",
        "ramion",
        "przyznanie",
        "otwierając",
        "zablokowan",
        "oczek",
    ],
    "ru": [
        "базар",
        "разветвляющ",
        "исходных",
        "отображаем",
        "стороны линии",
        "ветв",
        "начислени",
        "начинающ",
        "заблокирован",
        "жеребьёвк",
        "дубль-шесть",
    ],
}


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_rules_text_has_every_rule_and_the_same_numbers(lang: str) -> None:
    paragraphs = i18n.rule_paragraphs(lang)
    assert list(paragraphs) == RULE_NUMBERS
    english = i18n.rule_paragraphs("en")
    for rule, text in paragraphs.items():  # every figure and rule reference of the English
        assert sorted(re.findall(r"\d+", text)) == sorted(re.findall(r"\d+", english[rule])), (
            lang,
            rule,
        )
    assert "2 (10)" in i18n.rules_text(lang).split("**R1**")[0]  # how scores read, first
    for term in DOCUMENT_TERMS.get(lang, []):
        assert term in i18n.rules_text(lang), (lang, term)


def test_every_rule_a_message_cites_has_words_and_a_text() -> None:
    from exact61.terminal import words

    cited = {
        rule
        for message in source_messages()
        for text in ([message] if isinstance(message, str) else message)
        for rule in re.findall(r"\bR\d+\b", text)
    }
    assert cited and cited <= set(RULE_NUMBERS)
    assert set(words.RULES) == set(RULE_NUMBERS)  # each rule in a few words, for messages
