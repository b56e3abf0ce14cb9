"""The command line's edges, run in this process through the real entry point (`main.run`):
exit statuses by the one rule of docs/commands.md, errors in the player's language, the help
as a person reads it. Fast: no subprocess (tests/cli/test_cli.py runs the command as a user
would)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from exact61 import i18n


@dataclass
class Result:
    code: int
    out: str
    err: str


Cli = Callable[..., Result]


@pytest.fixture
def cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Cli]:
    """`cli(*args)`: exact61 ARGS, its exit status and what it printed. The environment asks
    for English unless a test sets LANG; each test starts and ends in English."""
    from exact61.cli.main import run

    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.delenv("EXACT61_DEBUG", raising=False)

    def call(*args: str | Path) -> Result:
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["exact61", *map(str, args)])
        code = 0
        try:
            run()
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        finally:
            captured = capsys.readouterr()
            i18n.use("en")
        return Result(code, captured.out, captured.err)

    i18n.use("en")
    yield call
    i18n.use("en")


# ---- exit statuses ------------------------------------------------------------------------


def test_a_missing_extra_is_a_command_that_cannot_run_as_installed(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # exit 2, as --backend ray without Ray is: install the extra or choose otherwise
    monkeypatch.setitem(sys.modules, "scipy", None)
    out = tmp_path / "m.jsonl"
    result = cli("tournament", "--bots", "random,greedy", "--out", out)
    assert result.code == 2, result.err
    assert result.err == (
        "exact61: tournament needs the tournament extra (scipy, matplotlib, openskill): "
        "pip install 'exact61[tournament]'\n"
    )
    assert not out.exists()


def test_the_server_without_its_extra_exits_2(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "exact61.server.run", None)
    result = cli("serve")
    assert result.code == 2
    assert result.err.startswith("exact61: the server needs its extra: pip install")


def test_an_output_in_the_way_is_2_and_a_file_that_cannot_be_read_is_1(
    cli: Cli, tmp_path: Path
) -> None:
    existing = tmp_path / "m.jsonl"
    existing.write_text("keep me\n")
    refused = cli("simulate", "--matches", "1", "--out", existing)
    assert refused.code == 2 and "--force" in refused.err
    assert existing.read_text() == "keep me\n"
    absent = tmp_path / "absent.jsonl"
    for command in ("show", "analyze"):
        unread = cli(command, absent)
        assert unread.code == 1 and unread.err == f"exact61: {absent}: no such file\n"


def test_an_unknown_name_exits_2(cli: Cli, tmp_path: Path) -> None:
    assert cli("rules", "R99", "--lang", "en").code == 2
    assert cli("play", "--seats", "human,foo", "--plain").code == 2
    assert cli("simulate", "--bot", "nobody").code == 2


@pytest.fixture
def broken_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """`exact61 rules` with a bug in it: printing the rules raises."""
    from exact61.cli import rules_cmd

    def broken(text: str) -> str:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(rules_cmd, "plain_text", broken)


def test_an_internal_error_is_one_line_and_exit_70(cli: Cli, broken_rules: None) -> None:
    result = cli("rules", "--lang", "en")
    assert result.code == 70
    assert result.err == (
        "exact61: internal error: ZeroDivisionError: a bug "
        "(set EXACT61_DEBUG=1 for the traceback)\n"
    )


def test_ctrl_c_exits_130(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from exact61.cli import rules_cmd

    def stopped(text: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(rules_cmd, "plain_text", stopped)
    result = cli("rules", "--lang", "en")
    assert result.code == 130 and result.err == ""


# ---- the player's commands speak the player's language ------------------------------------

UNKNOWN_BOT = {
    "en": "exact61: unknown bot 'foo'; choose from human, random, greedy,",
    "de": "exact61: unbekannter Bot 'foo'; zur Wahl stehen human, random, greedy,",
    "pl": "exact61: nieznany bot 'foo'; do wyboru: human, random, greedy,",
    "ru": "exact61: неизвестный бот 'foo'; выберите из: human, random, greedy,",
}
SEAT_COUNT = {  # 1 seat for 2 players, 3 seats for 4: the plural forms differ
    "en": ("--seats names 1 seat for 2 players", "--seats names 3 seats for 4 players"),
    "de": ("--seats nennt 1 Platz für 2 Spieler", "--seats nennt 3 Plätze für 4 Spieler"),
    "pl": ("--seats podaje 1 miejsce dla 2 graczy", "--seats podaje 3 miejsca dla 4 graczy"),
    "ru": ("--seats называет 1 место для 2 игроков", "--seats называет 3 места для 4 игроков"),
}
NO_RULE = {
    "en": ("no rule R99; the rules are R1, R2,", "no rules R99, R0; the rules are R1, R2,"),
    "de": ("keine Regel R99; die Regeln sind R1, R2,", "keine Regeln R99, R0; die Regeln sind"),
    "pl": ("nie ma zasady R99; zasady to R1, R2,", "nie ma zasad R99, R0; zasady to R1, R2,"),
    "ru": ("нет правила R99; правила: R1, R2,", "нет правил R99, R0; правила: R1, R2,"),
}
NO_FILE = {
    "en": "no such file",
    "de": "Datei nicht gefunden",
    "pl": "nie ma takiego pliku",
    "ru": "файл не найден",
}


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_play_says_a_bad_seat_in_the_players_language(cli: Cli, lang: str) -> None:
    result = cli("play", "--lang", lang, "--seats", "human,foo", "--plain")
    assert result.code == 2 and result.err.startswith(UNKNOWN_BOT[lang]), result.err
    assert result.err.count("\n") == 1 and result.out == ""
    one, three = SEAT_COUNT[lang]
    assert cli("play", "--lang", lang, "--seats", "human", "--plain").err == f"exact61: {one}\n"
    four = cli("play", "--lang", lang, "--players", "4", "--seats", "human,easy,human", "--plain")
    assert four.code == 2 and four.err == f"exact61: {three}\n"


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_rules_says_an_unknown_rule_in_the_players_language(cli: Cli, lang: str) -> None:
    one, two = NO_RULE[lang]
    result = cli("rules", "--lang", lang, "R99")
    assert result.code == 2 and result.err.startswith(f"exact61: {one}"), result.err
    assert result.err.endswith(", R30, R31\n") and result.out == ""
    assert cli("rules", "R99", "0", "--lang", lang).err.startswith(f"exact61: {two}")


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_analyze_says_a_missing_file_in_the_players_language(
    cli: Cli, lang: str, tmp_path: Path
) -> None:
    absent = tmp_path / "absent.jsonl"
    result = cli("analyze", "--lang", lang, absent)
    assert result.code == 1 and result.err == f"exact61: {absent}: {NO_FILE[lang]}\n"


def test_the_language_comes_from_the_locale_without_lang(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert cli("rules", "R99").err.startswith("exact61: nie ma zasady R99;")
    # the commands for researchers and hosts speak English whatever the locale
    assert cli("show", "absent.jsonl").err == "exact61: absent.jsonl: no such file\n"


def test_an_unknown_language_is_said_in_the_locales(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = cli("play", "--lang", "xx")
    assert result.code == 2
    assert result.err == "exact61: unknown language 'xx'; choose from en, de, pl, ru\n"
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert cli("rules", "--lang", "xx").err == (
        "exact61: неизвестный язык 'xx'; выберите из: en, de, pl, ru\n"
    )


def test_the_language_is_chosen_before_the_other_options_are_read(cli: Cli) -> None:
    # --lang after the bad option: the usage error's pointer to the help is in it all the same;
    # click's own words stay English
    result = cli("play", "--players", "5", "--lang", "de")
    assert result.code == 2
    assert result.err.startswith("exact61 play: Invalid value for '--players'")
    assert result.err.endswith(" (exact61 play -h zeigt die Hilfe)\n")
    english = cli("simulate", "--players", "5")
    assert english.err.endswith(" (exact61 simulate -h for help)\n")


def test_analyze_says_a_seat_the_match_does_not_have_and_an_index_it_lacks(
    cli: Cli, tmp_path: Path
) -> None:
    record = tmp_path / "m.jsonl"
    assert cli("simulate", "--matches", "2", "--bot", "greedy", "--out", record).code == 0
    seat = cli("analyze", record, "--seat", "3", "--lang", "ru")
    assert seat.code == 2
    assert seat.err == "exact61: --seat 3: в матче 2 игрока (места 0 и 1)\n"
    index = cli("analyze", record, "--match", "5", "--lang", "pl")
    assert index.code == 2
    assert index.err == f"exact61: {record}: nie ma meczu 5: plik zawiera 2 mecze\n"
    assert cli("show", record, "--match", "5").err == (
        f"exact61: {record}: no match 5: the file holds 2 matches\n"
    )


def test_an_internal_error_is_said_in_the_players_language(cli: Cli, broken_rules: None) -> None:
    assert cli("rules", "--lang", "de").err == (
        "exact61: interner Fehler: ZeroDivisionError: a bug "
        "(mit EXACT61_DEBUG=1 wird der Traceback gezeigt)\n"
    )


@pytest.mark.parametrize(
    "spec",
    [
        "foo",
        "Foo:5",
        "greedy:5",
        "ismcts@0s",
        "expert:abc",
        "ismcts:0",
        "pimc:abc",
        "pimc:0",
        "learned:",
        "learned:x",
    ],
)
def test_a_bad_bot_in_english_is_said_as_the_bots_say_it(spec: str) -> None:
    # The command line says a bot's error from its parts; in English, word for word as the bots
    # (simulate, tournament and the server say theirs).
    from exact61.bots import BotSpecError
    from exact61.cli.app import bot_error
    from exact61.table import check_seat

    with pytest.raises(BotSpecError) as caught:
        check_seat(spec)
    assert bot_error(caught.value) == str(caught.value)
    try:
        i18n.use("de")
        assert bot_error(caught.value) != str(caught.value)
        assert repr(caught.value.spec) in bot_error(caught.value)
    finally:
        i18n.use("en")


# What a budget NAME:N counts, in each language: the tree searches run N iterations a move,
# pimc samples N deals a move.
BUDGET_WORDS = {
    "en": ("100,000 iterations a move", "100,000 deals a move", "of iterations", "of deals"),
    "de": (
        "100.000 Iterationen pro Zug",
        "100.000 Verteilungen pro Zug",
        "von Iterationen",
        "von Verteilungen",
    ),
    "pl": (
        "100\u00a0000 iteracji na ruch",
        "100\u00a0000 rozdań na ruch",
        "liczbą iteracji",
        "liczbą rozdań",
    ),
    "ru": (
        "100\u00a0000 итераций на ход",
        "100\u00a0000 раздач на ход",
        "число итераций",
        "число раздач",
    ),
}


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_a_bad_budget_names_what_the_bot_counts(cli: Cli, lang: str) -> None:
    iterations, deals, not_iterations, not_deals = BUDGET_WORDS[lang]
    for spec, words in [
        ("ismcts:0", iterations),
        ("expert:100001", iterations),
        ("pimc:0", deals),
        ("ismcts:abc", not_iterations),
        ("pimc:abc", not_deals),
    ]:
        result = cli("play", "--lang", lang, "--seats", f"human,{spec}", "--plain")
        assert result.code == 2 and words in result.err, (spec, result.err)
        assert (deals in result.err or not_deals in result.err) == spec.startswith("pimc")
    simulate = cli("simulate", "--bot", "pimc:0")
    assert simulate.code == 2 and BUDGET_WORDS["en"][1] in simulate.err, simulate.err


# ---- help as a person reads it ----------------------------------------------------------

COMMANDS = ["play", "simulate", "replay", "show", "rules", "serve", "tournament", "analyze"]


@pytest.mark.parametrize("command", [*COMMANDS, "equity"])
def test_help_at_80_columns_shows_every_option_whole_and_what_to_type(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    import typer.main
    from typer.core import TyperGroup, TyperOption

    from exact61.cli.main import app

    monkeypatch.setenv("COLUMNS", "80")
    result = cli(command, "--help")
    assert result.code == 0 and result.out.startswith(f"Usage: exact61 {command} ")
    lines = result.out.splitlines()
    assert max(map(len, lines)) <= 80 and "…" not in result.out
    assert not re.search(r"<\w[^>]*>", result.out), result.out  # no <int range>, <list[int]>
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    for param in group.commands[command].params:
        for name in param.opts if isinstance(param, TyperOption) else ():
            assert re.search(rf"(^|[ ,/]){re.escape(name)}( |,|$)", result.out, re.M), name


def test_help_names_what_one_types(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    shown = {
        "tournament": ["--bots NAME,NAME,...", "--players N", "--out FILE", "--report DIR"],
        "simulate": ["--bot NAME", "--backend process|ray", "--address HOST:PORT"],
        "analyze": ["--seat N", "--lang LANG", "FILE  A match record file"],
        "play": ["--seats NAME,NAME,...", "--lang LANG"],
        "serve": ["--connections-per-address N", "--db FILE|URL", "--head-timeout SECONDS"],
    }
    for command, options in shown.items():
        text = cli(command, "-h").out
        for option in options:
            assert option in text, (command, option)


def test_the_list_of_commands_gives_each_summary_whole(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    listed = " ".join(cli("--help").out.split("Commands:")[1].split())
    assert "..." not in listed  # a summary cut short ends in "..."
    assert "play whole matches between bots and write every match record as it is played." in (
        listed.lower()
    )
