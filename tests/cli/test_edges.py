"""The command line's edges, run in this process through the real entry point (`main.run`):
exit statuses by the one rule of docs/commands.md, errors in the player's language, the help
as a person reads it. Fast: no subprocess (tests/cli/test_cli.py runs the command as a user
would)."""

from __future__ import annotations

import io
import json
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import pytest
import typer
import typer.main
from typer.exceptions import TyperException

from exact61 import i18n
from exact61.cli.app import LanguageOption, install_command
from exact61.cli.records_io import STDIN, UnreadableFileError
from exact61.scale import backends
from tests.helpers import Cli, played_record

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
        f"{install_command('tournament')}\n"
    )
    assert not out.exists()


class _Installed:
    """A distribution whose `direct_url.json` (PEP 610) is `direct`."""

    def __init__(self, direct: dict[str, object] | None) -> None:
        self.direct = direct

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return None if self.direct is None else json.dumps(self.direct)


def test_the_install_command_names_the_folder_exact61_was_installed_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a clone is not on the package index: the extra comes from where exact61 came from, with the
    # pip of the Python that runs it
    import importlib.metadata

    python = shlex.quote(sys.executable)
    clone = tmp_path / "exact 61"  # a space: the command quotes it
    clone.mkdir()
    (clone / "pyproject.toml").write_text("[project]\n")
    url = clone.as_uri()
    cases: list[tuple[dict[str, object] | None, str]] = [
        (None, f"{python} -m pip install 'exact61[scale]'"),  # from the index (or a wheel)
        ({"url": url, "dir_info": {}}, f"{python} -m pip install '{clone}[scale]'"),
        (
            {"url": url, "dir_info": {"editable": True}},
            f"{python} -m pip install -e '{clone}[scale]'",
        ),
        # the folder is gone: the index is all there is
        (
            {"url": (tmp_path / "gone").as_uri(), "dir_info": {}},
            f"{python} -m pip install 'exact61[scale]'",
        ),
        (
            {"url": "https://example.org/exact61.whl", "archive_info": {}},
            f"{python} -m pip install 'exact61[scale]'",
        ),
    ]
    for direct, expected in cases:
        monkeypatch.setattr(
            importlib.metadata, "distribution", lambda _name, d=direct: _Installed(d)
        )
        assert install_command("scale") == expected, direct

    def missing(name: str) -> object:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    assert install_command("server") == f"{python} -m pip install 'exact61[server]'"


def test_the_server_without_its_extra_exits_2(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Said as export and tournament say it: the extra and what it brings, not the one module
    the server's code happened to import first (h11, which no one installs by name)."""
    monkeypatch.setitem(sys.modules, "exact61.server.run", None)
    result = cli("serve")
    assert result.code == 2
    assert result.err == (
        "exact61: serve needs the server extra (starlette, uvicorn, websockets, sqlalchemy, "
        f"alembic, psycopg, orjson, uvloop): {install_command('server')}\n"
    )


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
        assert unread.code == 1 and unread.err == f"exact61: cannot read {absent}: no such file\n"


def test_show_of_a_match_with_no_round_blames_the_file_with_exit_1(
    cli: Cli, tmp_path: Path
) -> None:
    record = tmp_path / "dealt-nothing.json"
    record.write_text(
        '{"format":"exact61-match/1","players":2,"rounds":[],"scores":[0,0],"winner":null}'
    )
    shown = cli("show", record)
    assert shown.code == 1
    assert shown.err == f"exact61: {record}: match 0 holds no round: nothing to show\n"
    assert cli("show", record, "--round", "1").code == 1


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


def test_a_reader_that_goes_away_ends_the_command_quietly_with_141(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`exact61 rules | head`: click would end a command whose pipe broke with status 1."""
    from exact61.cli import rules_cmd

    def gone(text: str) -> str:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(rules_cmd, "plain_text", gone)
    result = cli("rules", "--lang", "en")
    assert result.code == 141 and result.err == ""


def test_show_a_saved_game_nobody_has_moved_in(cli: Cli, tmp_path: Path) -> None:
    """A game saved right after its deal, the person to open: its round has no action yet."""
    from exact61.table import Table

    table = next(
        t
        for seed in range(20)
        if (t := Table(2, ["human", "greedy"], seed)).deal() is None and t.match.to_act == 0
    )
    saved = tmp_path / "game.json"
    saved.write_text(table.record_text())
    result = cli("show", saved)
    assert result.code == 0, result.err
    assert result.out.startswith("Match 0, round 1: dealt, nobody has acted yet\n")
    hand = " ".join(str(tile) for tile in table.match.hand(0))
    assert hand in result.out  # the position: the dealt hands
    assert cli("show", saved, "--action", "0").code == 2  # an action it does not have


@pytest.mark.parametrize(
    "lang, where",
    [
        ("en", "match 0, round 1, action 0"),
        ("de", "Partie 0, Runde 1, Aktion 0"),
        ("pl", "mecz 0, runda 1, akcja 0"),
        ("ru", "матч 0, раунд 1, действие 0"),
    ],
)
def test_analyze_says_where_a_record_goes_wrong_in_the_players_language(
    cli: Cli, tmp_path: Path, lang: str, where: str
) -> None:
    record = played_record(2, 1, ["random", "random"])
    first = record["rounds"][0]["actions"][0]
    first["seat"] = 1 - first["seat"]  # the other seat acts out of turn (R2)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    result = cli("analyze", bad, "--lang", lang)
    assert result.code == 1
    assert result.err.startswith(f"exact61: {bad}: {where}: R2: seat "), result.err


@pytest.mark.parametrize(
    "lang, object_, players, json_",
    [
        ("en", "a record is a JSON object", "field players may not be 5", "JSON (at character"),
        ("de", "ein JSON-Objekt", "Feld players darf nicht 5 sein", "JSON (bei Zeichen"),
        ("pl", "obiektem JSON", "pole players nie może mieć wartości 5", "JSON (przy znaku"),
        ("ru", "объект JSON", "поле players не может иметь значение 5", "JSON (символ"),
    ],
)
def test_replay_says_what_is_wrong_with_a_records_form_in_the_players_language(
    cli: Cli, tmp_path: Path, lang: str, object_: str, players: str, json_: str
) -> None:
    record = played_record(2, 1, ["random", "random"])
    bad = tmp_path / "bad.jsonl"
    lines = ["[1]", json.dumps({**record, "players": 5}), "{nope"]
    lines.append(json.dumps({k: v for k, v in record.items() if k != "winner"}))
    bad.write_text("\n".join(lines) + "\n")
    said = cli("replay", bad, "--lang", lang).out.splitlines()
    assert len(said) == 5 and [line.split(": ")[0] for line in said[:4]] == [str(bad)] * 4
    assert object_ in said[0] and said[1].endswith(players) and json_ in said[2]
    assert "winner" in said[3]
    assert not any("Input should" in line or "Field required" in line for line in said)
    # where in its line: a JSON Lines record is one line, whose end is no part of it ("{nope"
    # once read as line 2, column 0 of a record at the file's third line)
    assert said[2].endswith(f"{json_} 2)"), said[2]


def test_a_record_over_many_lines_says_the_line_and_column(cli: Cli, tmp_path: Path) -> None:
    record = played_record(2, 1, ["random", "random"])
    bad = tmp_path / "bad.json"
    text = json.dumps(record, indent=1)
    bad.write_text(text[: text.index('"rounds"')] + "]")
    line = text[: text.index('"rounds"')].count("\n") + 1
    assert line > 1
    said = cli("replay", bad).out.splitlines()[0]
    assert said.startswith(f"{bad}: match 0: not valid JSON (line {line}, column "), said


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "a tournament needs at least two different bots"),
        ("de", "ein Turnier braucht mindestens zwei verschiedene Bots"),
    ],
)
def test_a_tournament_of_one_bot_is_refused(cli: Cli, lang: str, said: str, tmp_path: Path) -> None:
    result = cli("tournament", "--bots", "greedy", "--lang", lang)
    assert (result.code, result.err) == (2, f"exact61: {said}\n")
    # one bot by two names is said as such, not as too few bots (it said only that)
    twice = cli("tournament", "--bots", "greedy,Greedy")
    assert twice.err == "exact61: --bots: greedy and Greedy are the same bot: name each bot once\n"
    same = cli("tournament", "--bots", "greedy,greedy")
    assert same.err == "exact61: --bots names greedy twice: name each bot once\n"
    # a name left out between commas is a typo, said as play says it, not a bot fewer
    gap = cli("tournament", "--bots", "greedy,,heuristic", "--out", tmp_path / "never.jsonl")
    assert (gap.code, gap.err.split(";")[0]) == (2, "exact61: unknown bot ''")
    assert not (tmp_path / "never.jsonl").exists()


def test_play_takes_the_number_of_players_from_the_seats_named(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the end of input at once: saved
    result = cli("play", "--plain", "--seats", "human,greedy,random", "--seed", "1")
    assert result.code == 0, result.err
    assert result.out.startswith("Exact 61 Five Up: 3 players.")
    told = cli("play", "--plain", "--players", "2", "--seats", "human,greedy,random")
    assert told.code == 2 and "--seats names 3 seats for 2 players" in told.err  # said: kept


@pytest.mark.slow  # six whole matches
def test_a_tournament_of_three_bots_shows_them_head_to_head(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    result = cli("tournament", "--bots", "random,greedy,heuristic", "--matches", "6",
                 "--lang", "pl", "--out", out)  # fmt: skip
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    heading = lines.index(
        "Bezpośrednie starcia: odsetek wygranych wiersza w meczach z botem z kolumny"
    )
    rows = [line for line in lines[heading:] if line.startswith("│")]
    assert len(rows) == 3 and all(row.count("–") == 1 for row in rows)  # none meets itself
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 6


def test_exact61_alone_lists_the_commands(cli: Cli) -> None:
    result = cli()
    assert result.code == 2 and result.err.startswith("Usage: exact61 ")
    for command in ("play", "rules", "serve", "simulate", "replay", "analyze", "tournament"):
        assert re.search(rf"^\s+{command}\s", result.err, re.MULTILINE), command


def test_a_usage_error_that_cannot_be_taken_apart_is_still_one_line(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import exact61.cli.main

    def broken(err: Exception, argv: list[str]) -> str:
        raise ValueError("a click whose errors changed shape")

    monkeypatch.setattr(exact61.cli.main, "usage_error", broken)
    result = cli("simulate", "--players", "9")
    assert result.code == 2
    assert result.err.startswith("exact61: ") and result.err.count("\n") == 1, result.err
    assert "--players" in result.err and "Traceback" not in result.err


POLICY_FOR_OTHERS = {
    "en": "is a policy for 2 players, not 3 (--players)",
    "de": "ist eine Policy für 2 Spieler, nicht für 3 (--players)",
    "pl": "to polityka dla 2 graczy, nie dla 3 (--players)",
    "ru": "— политика для 2 игроков, а не для 3 (--players)",  # noqa: RUF001
}


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_a_policy_for_other_players_is_said_in_the_players_language(cli: Cli, lang: str) -> None:
    policy = Path(__file__).parents[2] / "examples" / "ppo_agent.npz"  # trained for 2 players
    result = cli("simulate", "--lang", lang, "--players", "3", "--bot", f"learned:{policy}")
    assert result.code == 2
    assert f"{policy} {POLICY_FOR_OTHERS[lang]}" in result.err, result.err
    assert result.err.count("\n") == 1


def test_a_stale_native_engine_is_said_without_a_switch_nobody_set(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a source checkout whose crate changed since its build: the default is refused, and the
    # line said "EXACT61_ENGINE=native: ..." though no EXACT61_ENGINE was set
    from exact61.core import engines

    monkeypatch.setattr(engines, "_refused", [])
    monkeypatch.setattr(engines, "_current", [engines.current()])
    engines.refuse(engines.EngineError("native", "stale"))
    monkeypatch.setenv("LANGUAGE", "de")
    result = cli("--version")
    assert result.code == 0 and result.out.startswith("exact61 ")
    assert result.err == (
        "exact61: die native Engine ist älter als ihre Quellen (noch einmal pip install -e .); "
        "es spielt die Python-Engine\n"
    )


def test_an_engine_refused_is_said_in_the_language_of_the_commands_lang(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `exact61 rules R1 --lang de` with a misspelt EXACT61_ENGINE said the line in English, the
    # locale's, while the command spoke German; `serve`, for whoever hosts, speaks English
    from exact61.core import engines

    monkeypatch.setattr(engines, "_refused", [])
    monkeypatch.setattr(engines, "_current", [engines.current()])
    engines.refuse(engines.EngineError("fast", "unknown"))
    result = cli("rules", "R1", "--lang", "de")
    assert result.code == 0 and result.out.startswith("R1 ")
    assert result.err.startswith("exact61: EXACT61_ENGINE=fast: keine Engine dieses Namens")
    assert result.err.count("\n") == 1
    monkeypatch.setenv("LANGUAGE", "pl")
    result = cli("--version")
    assert result.err.startswith("exact61: EXACT61_ENGINE=fast: nie ma silnika o tej nazwie")
    result = cli("serve", "--port", "99999")
    assert result.err.startswith("exact61: EXACT61_ENGINE=fast: no engine of that name")


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
CANNOT_READ = {  # a missing file, and a folder given for a file
    "en": ("cannot read {}: no such file", "cannot read {}: is a folder, not a record file"),
    "de": (
        "{} kann nicht gelesen werden: Datei nicht gefunden",
        "{} kann nicht gelesen werden: es ist ein Ordner, keine Aufzeichnungsdatei",
    ),
    "pl": (
        "nie można odczytać {}: nie ma takiego pliku",
        "nie można odczytać {}: to folder, a nie plik zapisu meczu",
    ),
    "ru": (
        "не удаётся прочитать {}: файл не найден",
        "не удаётся прочитать {}: это папка, а не файл записи матча",  # noqa: RUF001
    ),
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


def test_rules_prints_a_rule_named_twice_once(cli: Cli) -> None:
    once = cli("rules", "R13", "R2")
    again = cli("rules", "R13", "13", "r13", "R2", "2")
    assert again.code == 0 and again.out == once.out
    assert once.out.count("R13") >= 1 and once.out.index("R13") < once.out.index("R2")


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_a_file_that_cannot_be_read_is_said_alike_by_replay_analyze_and_show(
    cli: Cli, lang: str, tmp_path: Path
) -> None:
    # replay said "cannot read X: no such file", analyze and show "X: no such file"
    absent = tmp_path / "absent.jsonl"
    folder = tmp_path / "folder"
    folder.mkdir()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(played_record(2, 1, ["random", "random"])))
    missing, not_a_file = (f"exact61: {said}\n" for said in CANNOT_READ[lang])
    for command in ("analyze", "show"):  # these stop at the file, exit 1
        for path, said in ((absent, missing), (folder, not_a_file)):
            result = cli(command, "--lang", lang, path)
            assert (result.code, result.err, result.out) == (1, said.format(path), ""), result
    # replay says each on its own line and goes on to the next file: the good one verifies
    replayed = cli("replay", "--lang", lang, absent, good, folder)
    assert replayed.code == 1
    assert replayed.err == missing.format(absent) + not_a_file.format(folder), replayed.err
    verified = cli("replay", "--lang", lang, good).out
    assert replayed.out.startswith(verified.rstrip("\n") + "; "), (replayed.out, verified)
    if lang == "en":
        assert replayed.out == "1 match verified; 2 files not read\n"


def test_the_language_comes_from_the_locale_without_lang(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert cli("rules", "R99").err.startswith("exact61: nie ma zasady R99;")
    assert (
        cli("show", "absent.jsonl").err
        == "exact61: nie można odczytać absent.jsonl: nie ma takiego pliku\n"
    )
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    missing = cli("equity")  # a usage error too
    assert (
        missing.err
        == "exact61 equity: Argument 'SCORE' fehlt (exact61 equity -h zeigt die Hilfe)\n"
    )


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
    # --lang after the bad option: the usage error is said in it all the same, though click's
    # parser finds an unknown option before it reads any option, --lang included
    result = cli("play", "--bogus", "--lang", "de")
    assert result.code == 2
    assert (
        result.err == "exact61 play: Unbekannte Option: --bogus (exact61 play -h zeigt die Hilfe)\n"
    )
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


# ---- usage errors in the player's language ----------------------------------------------

# Each bad command line of a command that speaks the player's language (LANG stands for --lang and
# the language, before the bad part or after it), and what it says in each
# language: click's parts (an option, its bounds and choices, the words given) in our sentences.
USAGE_ERRORS: list[tuple[tuple[str, ...], dict[str, str]]] = [
    (
        ("analyze", "--lang", "LANG", "--top", "3", "x"),  # --lang before the unknown option
        {
            "en": "No such option: --top",
            "de": "Unbekannte Option: --top",
            "pl": "Nieznana opcja: --top",
            "ru": "Неизвестный параметр: --top",
        },
    ),
    (
        ("simulate", "--match", "3", "LANG"),  # one option it may be
        {
            "en": "No such option: --match; did you mean --matches?",
            "de": "Unbekannte Option: --match; meintest du --matches?",
            "pl": "Nieznana opcja: --match; czy chodziło o --matches?",
            "ru": "Неизвестный параметр: --match; возможно, вы имели в виду --matches?",
        },
    ),
    (
        ("analyze", "x", "--matc", "1", "LANG"),  # two it may be, --lang after them
        {
            "en": "No such option: --matc; did you mean one of --match, --seat?",
            "de": "Unbekannte Option: --matc; meintest du eine von --match, --seat?",
            "pl": "Nieznana opcja: --matc; czy chodziło o jedną z: --match, --seat?",
            "ru": "Неизвестный параметр: --matc; возможно, вы имели в виду один из: --match, "
            "--seat?",
        },
    ),
    (
        ("analyze", "LANG"),
        {
            "en": "Missing argument 'FILE'",
            "de": "Argument 'FILE' fehlt",
            "pl": "Brak argumentu 'FILE'",
            "ru": "Аргумент 'FILE' не указан",
        },
    ),
    (
        ("simulate", "LANG", "--players"),  # click's parser, with no command's context
        {
            "en": "Option '--players' needs a value",
            "de": "Option '--players' braucht einen Wert",
            "pl": "Opcja '--players' wymaga wartości",
            "ru": "Параметру '--players' нужно значение",
        },
    ),
    (
        ("play", "--plain=yes", "LANG"),
        {
            "en": "Option '--plain' takes no value",
            "de": "Option '--plain' erwartet keinen Wert",
            "pl": "Opcja '--plain' nie przyjmuje wartości",
            "ru": "Параметр '--plain' не принимает значения",
        },
    ),
    (
        ("play", "--players", "5", "LANG"),
        {
            "en": "Invalid value for '--players': must be between 2 and 4",
            "de": "Ungültiger Wert für '--players': muss zwischen 2 und 4 liegen",
            "pl": "Nieprawidłowa wartość '--players': musi wynosić od 2 do 4",
            "ru": "Недопустимое значение '--players': должно быть от 2 до 4",
        },
    ),
    (
        ("analyze", "x", "--iterations", "99", "LANG"),  # the bounds as the language writes them
        {
            "en": "Invalid value for '--iterations': must be between 100 and 100,000",
            "de": "Ungültiger Wert für '--iterations': muss zwischen 100 und 100.000 liegen",
            "pl": "Nieprawidłowa wartość '--iterations': musi wynosić od 100 do 100\u00a0000",
            "ru": "Недопустимое значение '--iterations': должно быть от 100 до 100\u00a0000",
        },
    ),
    (
        ("analyze", "x", "--seat", "1", "--seat", "4", "LANG"),  # a repeated option's second value
        {
            "en": "Invalid value for '--seat': must be between 0 and 3",
            "de": "Ungültiger Wert für '--seat': muss zwischen 0 und 3 liegen",
            "pl": "Nieprawidłowa wartość '--seat': musi wynosić od 0 do 3",
            "ru": "Недопустимое значение '--seat': должно быть от 0 до 3",
        },
    ),
    (
        ("simulate", "--workers", "0", "LANG"),
        {
            "en": "Invalid value for '--workers': must be at least 1",
            "de": "Ungültiger Wert für '--workers': muss mindestens 1 sein",
            "pl": "Nieprawidłowa wartość '--workers': musi wynosić co najmniej 1",
            "ru": "Недопустимое значение '--workers': должно быть не меньше 1",
        },
    ),
    (
        ("play", "--seed", "x", "LANG"),
        {
            "en": "Invalid value for '--seed': 'x' is not a whole number",
            "de": "Ungültiger Wert für '--seed': 'x' ist keine ganze Zahl",
            "pl": "Nieprawidłowa wartość '--seed': 'x' nie jest liczbą całkowitą",
            "ru": "Недопустимое значение '--seed': 'x' — не целое число",
        },
    ),
    (
        ("tournament", "--backend", "spark", "LANG"),
        {
            "en": "Invalid value for '--backend': 'spark' is not one of 'process', 'ray'",
            "de": "Ungültiger Wert für '--backend': 'spark' steht nicht zur Wahl; möglich sind "
            "'process', 'ray'",
            "pl": "Nieprawidłowa wartość '--backend': 'spark' nie jest na liście; do wyboru: "
            "'process', 'ray'",
            "ru": "Недопустимое значение '--backend': 'spark' нет в списке; выберите из: "
            "'process', 'ray'",
        },
    ),
    (
        ("simulate", "--bot", "ismcts:0", "LANG"),  # the callback's reason, in the language
        {
            "en": "Invalid value for '--bot': bad bot 'ismcts:0': the budget is 1 to 100,000 "
            "iterations a move",
            "de": "Ungültiger Wert für '--bot': ungültiger Bot 'ismcts:0': das Budget ist 1 bis "
            "100.000 Iterationen pro Zug",
            "pl": "Nieprawidłowa wartość '--bot': nieprawidłowy bot 'ismcts:0': budżet to od 1 "
            "do 100\u00a0000 iteracji na ruch",
            "ru": "Недопустимое значение '--bot': неверно задан бот 'ismcts:0': бюджет — от 1 до "
            "100\u00a0000 итераций на ход",
        },
    ),
    (
        ("play", "extra", "LANG"),
        {
            "en": "Got an unexpected extra argument: extra",
            "de": "Unerwartetes zusätzliches Argument: extra",
            "pl": "Nieoczekiwany dodatkowy argument: extra",
            "ru": "Лишний аргумент: extra",
        },
    ),
    (
        ("play", "a b", "LANG"),  # one argument, a space in it
        {
            "en": "Got an unexpected extra argument: a b",
            "de": "Unerwartetes zusätzliches Argument: a b",
            "pl": "Nieoczekiwany dodatkowy argument: a b",
            "ru": "Лишний аргумент: a b",
        },
    ),
    (
        ("analyze", "a", "b", "c", "LANG"),
        {
            "en": "Got unexpected extra arguments: b c",
            "de": "Unerwartete zusätzliche Argumente: b c",
            "pl": "Nieoczekiwane dodatkowe argumenty: b c",
            "ru": "Лишние аргументы: b c",
        },
    ),
]
HELP_HINT = {
    "en": "(exact61 {command} -h for help)",
    "de": "(exact61 {command} -h zeigt die Hilfe)",
    "pl": "(pomoc: exact61 {command} -h)",
    "ru": "(справка: exact61 {command} -h)",
}
# click's English words, none of which a usage error in another language may say
CLICK_WORDS = re.compile(
    r"Invalid value|No such option|Missing|did you mean|unexpected|Input should|is not|must be|"
    r"value|requires|for help",
    re.IGNORECASE,
)


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
@pytest.mark.parametrize(
    ("args", "said"), USAGE_ERRORS, ids=[" ".join(args) for args, _ in USAGE_ERRORS]
)
def test_a_usage_error_is_said_wholly_in_the_players_language(
    cli: Cli, args: tuple[str, ...], said: dict[str, str], lang: str
) -> None:
    command = args[0]
    given = [part for arg in args for part in (("--lang", lang) if arg == "LANG" else (arg,))]
    result = cli(*given)
    hint = HELP_HINT[lang].format(command=command)
    assert (result.code, result.out) == (2, "")
    assert result.err == f"exact61 {command}: {said[lang]} {hint}\n"
    if lang != "en":
        assert not CLICK_WORDS.search(result.err), result.err


def test_a_usage_error_takes_the_locales_language_without_lang(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert cli("play", "--bogus").err == (
        "exact61 play: Неизвестный параметр: --bogus (справка: exact61 play -h)\n"
    )
    # an unknown --lang: the locale's, as for the command's other errors
    assert cli("rules", "--lang", "xx", "--bogus").err == (
        "exact61 rules: Неизвестный параметр: --bogus (справка: exact61 rules -h)\n"
    )
    # the last --lang given, as click takes it
    assert cli("simulate", "--lang", "pl", "--lang=de", "--players", "1").err == (
        "exact61 simulate: Ungültiger Wert für '--players': muss zwischen 2 und 4 liegen "
        "(exact61 simulate -h zeigt die Hilfe)\n"
    )


def test_the_commands_that_speak_english_say_clicks_usage_errors_as_before(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    for args, said in [
        (
            ("serve", "--bogus"),
            "exact61 serve: No such option: --bogus (Possible options: --host) "
            "(exact61 serve -h for help)",
        ),
        (
            ("serve", "--port", "70000"),
            "exact61 serve: Invalid value for '--port': Input should be less than or equal to "
            "65535 (exact61 serve -h for help)",
        ),
        (
            ("serve", "--port"),
            "exact61: Option '--port' requires an argument. (exact61 -h for help)",
        ),
    ]:
        result = cli(*args)
        assert (result.code, result.err) == (2, said + "\n"), args


@pytest.mark.parametrize(
    ("lang", "command", "option"),
    [
        ("de", "Unbekannter Befehl: frobnicate", "Unbekannte Option: --lang"),
        ("ru", "Нет такой команды: frobnicate", "Неизвестный параметр: --lang"),
    ],
)
def test_exact61_itself_says_its_usage_errors_in_the_locales_language(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, lang: str, command: str, option: str
) -> None:
    """Before any command there is no --lang: the locale's language, as `exact61 -h` lists the
    commands in it (these were click's English)."""
    monkeypatch.setenv("LANG", f"{lang}_{lang.upper()}.UTF-8")
    unknown = cli("frobnicate")
    assert unknown.code == 2 and unknown.err.startswith(f"exact61: {command} ("), unknown.err
    misplaced = cli("--lang", "de", "simulate")  # --lang belongs after the command
    assert misplaced.code == 2 and misplaced.err.startswith(f"exact61: {option} ("), misplaced.err


def test_a_usage_error_says_a_bound_with_its_decimals_and_a_missing_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # no command of exact61 has a bound with decimals, only an upper bound or a required option
    from exact61.cli.usage import usage_error

    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    tiny = typer.Typer()

    @tiny.command()
    def share(
        part: Annotated[float, typer.Option(max=0.25)],
        least: Annotated[float, typer.Option(min=1.5)] = 2.0,
        lang: LanguageOption = None,
    ) -> None:
        """A command that takes --lang, as the player's do."""

    @tiny.command()
    def other() -> None:
        """A second command, so that `share` is a command of a group."""

    def said(*args: str) -> str:
        with pytest.raises(TyperException) as caught:
            typer.main.get_command(tiny)(list(args), standalone_mode=False, prog_name="exact61")
        try:
            return usage_error(caught.value, args)
        finally:
            i18n.use("en")

    assert said("share", "--lang", "de", "--part", "0.5") == (
        "exact61 share: Ungültiger Wert für '--part': darf höchstens 0,25 sein "
        "(exact61 share -h zeigt die Hilfe)"
    )
    assert said("share", "--part", "0.5", "--lang", "ru") == (
        "exact61 share: Недопустимое значение '--part': должно быть не больше 0,25 "
        "(справка: exact61 share -h)"
    )
    assert said("share", "--part", "0.5") == (
        "exact61 share: Invalid value for '--part': must be at most 0.25 "
        "(exact61 share -h for help)"
    )
    assert said("share", "--lang", "pl", "--part", "0.1", "--least", "1") == (
        "exact61 share: Nieprawidłowa wartość '--least': musi wynosić co najmniej 1,5 "
        "(pomoc: exact61 share -h)"
    )
    assert said("share", "--lang", "pl") == (
        "exact61 share: Brak opcji '--part' (pomoc: exact61 share -h)"
    )
    assert said("share", "--lang", "de", "--part", "abc") == (
        "exact61 share: Ungültiger Wert für '--part': 'abc' ist keine Zahl "
        "(exact61 share -h zeigt die Hilfe)"
    )


# ---- simulate and tournament in the person's language -----------------------------------

# How German and Russian write numbers, apart from exact61.i18n: the thousands separator, the
# decimal comma, and the percent sign after a no-break space.
NUMBERS = {"de": (".", ",", "\u00a0%"), "ru": ("\u00a0", ",", "\u00a0%")}
SIMULATE_WORDS = {
    "de": {
        "match": ("Partie", "Partien"),
        "round": ("Runde", "Runden"),
        "action": ("Aktion", "Aktionen"),
        "summary": "{matches}, {rounds} ({per_match} pro Partie), {actions} in ",
        "seconds": " s",
        "wins": "Siege: ",
        "side": "Seite {side} (Platz {side}) {wins} ({share})",
        "ends": "Rundenende: Domino {domino}, gesperrt {block}, "
        "Ziel mitten in der Runde erreicht {target}",
        "rejected": "Verworfene Gutschriften über 61 (R4): {n}",
        "records": "Aufzeichnungen: {path}",
        "progress": ("Simulation", "noch"),
    },
    "ru": {
        "match": ("матч", "матча", "матчей"),
        "round": ("раунд", "раунда", "раундов"),
        "action": ("действие", "действия", "действий"),
        "summary": "{matches}, {rounds} ({per_match} на матч), {actions} за ",
        "seconds": " \u0441",  # Cyrillic
        "wins": "Победы: ",
        "side": "сторона {side} (место {side}) {wins} ({share})",
        "ends": (
            "Итоги раундов: выход {domino}, блок {block}, цель достигнута посреди раунда {target}"
        ),
        "rejected": "Отклонённые начисления выше 61 (R4): {n}",
        "records": "Записи матчей: {path}",
        "progress": ("симуляция", "осталось"),
    },
}


def written(lang: str, value: float, digits: int = 0) -> str:
    """`value` as `lang` writes it, from Python's own formatting."""
    thousands, comma, _ = NUMBERS[lang]
    return f"{value:,.{digits}f}".replace(",", "\0").replace(".", comma).replace("\0", thousands)


def written_share(lang: str, share: float, digits: int = 1) -> str:
    return written(lang, 100 * share, digits) + NUMBERS[lang][2]


def counted(lang: str, n: int, forms: tuple[str, ...]) -> str:
    from tests.i18n.test_i18n import PLURAL_RULES

    return f"{written(lang, n)} {forms[PLURAL_RULES[lang][1](n)]}"


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """The progress bars of simulate and tournament, drawn as on a terminal, into a string."""
    from rich.console import Console

    from exact61.cli import records_cmds, tournament_cmd

    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=200)
    monkeypatch.setattr(records_cmds, "err_console", console)
    monkeypatch.setattr(tournament_cmd, "err_console", console)
    return screen


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_simulate_says_its_summary_in_the_language_asked_for(
    cli: Cli, lang: str, tmp_path: Path, terminal: io.StringIO
) -> None:
    out = tmp_path / "m.jsonl"
    result = cli("simulate", "--lang", lang, "--players", "3", "--matches", "4", "--out", out)
    assert result.code == 0, result.err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    rounds = [r for record in records for r in record["rounds"]]
    actions = sum(len(r["actions"]) for r in rounds)
    assert len(records) == 4 and actions >= 1000  # so that the thousands separator shows
    words = SIMULATE_WORDS[lang]
    summary, wins, ends, rejected, where = result.out.splitlines()
    assert summary.startswith(
        words["summary"].format(
            matches=counted(lang, 4, words["match"]),
            rounds=counted(lang, len(rounds), words["round"]),
            per_match=written(lang, len(rounds) / 4, 1),
            actions=counted(lang, actions, words["action"]),
        )
    ), summary
    assert summary.endswith(words["seconds"]), summary
    assert re.fullmatch(r".* <?\d+,\d", summary.removesuffix(words["seconds"])), summary
    won = [sum(record["winner"] == side for record in records) for side in range(3)]
    assert wins == words["wins"] + ", ".join(
        words["side"].format(side=side, wins=n, share=written_share(lang, n / 4))
        for side, n in enumerate(won)
    )
    kinds = [r["end"]["kind"] for r in rounds if r.get("end")]
    counts = {kind: written(lang, kinds.count(kind)) for kind in ("domino", "block", "target")}
    assert ends == words["ends"].format(**counts)
    overshoots = sum(not event["accepted"] for r in rounds for event in r["events"])
    assert overshoots and rejected == words["rejected"].format(n=written(lang, overshoots))
    assert where == words["records"].format(path=out)
    label, eta = words["progress"]
    bar = terminal.getvalue()
    assert f"{label} " in bar and f" {eta} " in bar and "4/4" in bar
    said = "\n".join([summary, wins, ends, rejected, bar])
    for english in ["match", "round", "action", "Wins", "side", "seat", "Rejected", "simulating"]:
        assert english not in said, english
    assert "ETA" not in bar and "Records" not in where


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_the_progress_bar_counts_as_the_language_writes_numbers(lang: str) -> None:
    from rich.console import Console

    from exact61.cli.app import DoneOfAll, progress_bar

    i18n.use(lang)
    try:
        bar = progress_bar(Console(file=io.StringIO(), force_terminal=True))
        task = bar.add_task("", total=100_000, completed=1_234)
        [column] = [c for c in bar.columns if isinstance(c, DoneOfAll)]
        shown = column.render(bar.tasks[task]).plain
    finally:
        i18n.use("en")
    assert shown == f"{written(lang, 1_234)}/{written(lang, 100_000)}"


@pytest.mark.parametrize("players", [2, 4])
def test_simulate_writes_the_same_records_in_every_language(
    cli: Cli, players: int, tmp_path: Path
) -> None:
    records, wins = [], []
    for lang in i18n.LANGUAGES:
        out = tmp_path / f"{lang}.jsonl"
        options = ("--players", players, "--matches", "3", "--seed", "5", "--bot", "greedy")
        result = cli("simulate", "--lang", lang, *options, "--out", out)
        assert result.code == 0, result.err
        records.append(out.read_bytes())
        wins.append(result.out.splitlines()[1])
    assert records[0].count(b"\n") == 3 and all(r == records[0] for r in records)
    partners = ["seats 0+2", "Plätze 0+2", "miejsca 0+2", "места 0+2"]
    assert [p in line for p, line in zip(partners, wins, strict=True)] == [players == 4] * 4
    assert len(set(wins)) == len(wins)  # each language its own line


TOURNAMENT_WORDS = {
    "de": {
        "title": "4 Partien, 2 Spieler, Seed 3",
        "columns": [
            "Bot",
            "Partien",
            "Siege",
            "Siegquote",
            "Intervall 95\u00a0%",
            "Wertung",
            "Punkte/Runde",
            "verworfen",
            "ms/Zug",
        ],
        "records": "Aufzeichnungen: ",
        "report": "Bericht: ",
        "progress": ("Spielen", "noch"),
    },
    "ru": {
        "title": "4 матча, 2 игрока, зерно 3",
        "columns": [
            "бот",
            "матчи",
            "победы",
            "доля побед",
            "интервал 95\u00a0%",
            "рейтинг",
            "очки/раунд",
            "отклонено",
            "мс/ход",
        ],
        "records": "Записи матчей: ",
        "report": "Отчёт: ",
        "progress": ("игра", "осталось"),
    },
}
PLOTS = ["win_rates.png", "score_progression.png", "match_lengths.png"]
CSV_JSON = ["summary.csv", "summary.json"]


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_tournament_says_its_table_in_the_language_asked_for(
    cli: Cli, lang: str, tmp_path: Path, terminal: io.StringIO
) -> None:
    report = tmp_path / "report"
    options = ("--bots", "random,greedy", "--matches", "4", "--seed", "3", "--report", report)
    result = cli("tournament", "--lang", lang, *options)
    assert result.code == 0, result.err
    words = TOURNAMENT_WORDS[lang]
    lines = result.out.splitlines()
    assert lines[0].strip() == words["title"]
    header = next(line for line in lines if line.startswith("┃"))
    assert [cell.strip() for cell in header.split("┃")[1:-1]] == words["columns"]
    cells = {
        row[0]: row[1:]
        for row in ([c.strip() for c in line.split("│")[1:-1]] for line in lines)
        if row
    }
    bots = json.loads((report / "summary.json").read_text())["bots"]
    assert set(cells) == set(bots) == {"random", "greedy"}
    for name, row in bots.items():
        low, high = row["ci95"]
        assert cells[name] == [
            written(lang, row["matches"]),
            written(lang, row["wins"]),
            written_share(lang, row["win_rate"], 0),
            f"{written(lang, 100 * low)}–{written_share(lang, high, 0)}",  # one sign, an en dash
            written(lang, row["rating"], 2),
            written(lang, row["points_per_round"], 2),
            written_share(lang, row["rejected_rate"]),
            written(lang, row["ms_per_move"], 1),
        ], name
    assert lines[-2:] == [
        words["records"] + str(report / "matches.jsonl"),
        words["report"] + ", ".join(str(report / name) for name in [*CSV_JSON, *PLOTS]),
    ]
    label, eta = words["progress"]
    bar = terminal.getvalue()
    assert f"{label} " in bar and f" {eta} " in bar and "4/4" in bar
    said = "\n".join([*lines[:-2], bar])
    for english in ["matches", "players", "seed", "win rate", "interval", "rating", "playing"]:
        assert english not in said, english
    assert "ETA" not in bar and not any(line.startswith(("Records", "Report")) for line in lines)


def test_tournament_writes_the_same_files_in_every_language(cli: Cli, tmp_path: Path) -> None:
    options = ("--bots", "random,greedy", "--matches", "2", "--seed", "4")
    for lang in ("en", "ru"):
        assert cli("tournament", *options, "--lang", lang, "--report", tmp_path / lang).code == 0

    def timeless(lang: str) -> tuple[object, ...]:
        """What the run wrote, but the bots' thinking times, which no two runs share."""
        report = tmp_path / lang
        records = [json.loads(line) for line in (report / "matches.jsonl").read_text().splitlines()]
        for record in records:
            assert record.pop("think_ms")
        summary = json.loads((report / "summary.json").read_text())
        for row in summary["bots"].values():
            row.pop("ms_per_move")
        table = [line.split(",")[:-1] for line in (report / "summary.csv").read_text().splitlines()]
        return records, summary, table, sorted(path.name for path in report.iterdir())

    english, russian = timeless("en"), timeless("ru")
    assert english == russian
    assert len(english[0]) == 2 and english[3] == sorted(["matches.jsonl", *CSV_JSON, *PLOTS])
    assert (
        (tmp_path / "ru" / "summary.csv")
        .read_text()
        .startswith(
            "bot,matches,wins,win_rate,ci95_low,ci95_high,rating,points_per_round,rejected_rate,"
            "ms_per_move\n"
        )
    )


def test_simulate_and_tournament_say_their_errors_in_the_language_asked_for(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "m.jsonl"
    for command in (("simulate",), ("tournament", "--bots", "random,greedy")):
        unknown = cli(*command, "--lang", "xx", "--out", out)
        assert unknown.code == 2 and unknown.out == "" and not out.exists()
        assert unknown.err == "exact61: unknown language 'xx'; choose from en, de, pl, ru\n"
    kept = tmp_path / "kept.jsonl"
    kept.write_text("keep me\n")
    for args, code, said in [
        (
            ("simulate", "--out", kept, "--lang", "de"),
            2,
            f"{kept} existiert bereits; überschreibe es mit --force oder wähle ein anderes --out",
        ),
        (
            ("tournament", "--bots", "random", "--lang", "ru"),
            2,
            "для турнира нужны хотя бы два разных бота",
        ),
        (
            ("tournament", "--bots", "random,greedy", "--report", kept, "--lang", "pl"),
            2,
            f"--report {kept}: to plik, a nie folder: podaj w --report folder na podsumowanie, "
            "wykresy i zapisy meczów",
        ),
        (
            ("simulate", "--address", "127.0.0.1:1", "--out", out, "--lang", "ru"),
            2,
            "--address относится только к --backend ray",
        ),
    ]:
        result = cli(*args)
        assert (result.code, result.err) == (code, f"exact61: {said}\n"), args
    assert kept.read_text() == "keep me\n" and not out.exists()
    # --lang after a bad option: the error is said in it all the same
    bot = cli("tournament", "--bots", "random,nobody", "--lang", "de")
    assert bot.code == 2 and bot.err.startswith("exact61: unbekannter Bot 'nobody'; zur Wahl")
    late = cli("simulate", "--bot", "nobody", "--lang", "ru")
    assert late.code == 2 and "неизвестный бот 'nobody'" in late.err
    assert late.err.endswith(" (справка: exact61 simulate -h)\n") and late.err.count("\n") == 1
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")  # without --lang: the locale's
    assert cli("tournament", "--bots", "random").err == (
        "exact61: для турнира нужны хотя бы два разных бота\n"
    )
    assert cli("simulate", "--lang", "xx").err == (
        "exact61: неизвестный язык 'xx'; выберите из: en, de, pl, ru\n"
    )


def test_a_backends_error_in_english_is_said_as_the_backend_says_it() -> None:
    # simulate and tournament say a backend's error from its parts; in English word for word
    from exact61.cli.backend_opts import backend_error
    from exact61.scale import BackendError, open_backend
    from exact61.scale.ray_backend import check_reachable

    errors = []
    for fail in (
        lambda: open_backend("process", address="auto").__enter__(),
        lambda: check_reachable("127.0.0.1:1", 5.0),  # no one listens on port 1
    ):
        with pytest.raises(BackendError) as caught:
            fail()
        errors.append(caught.value)
    assert [backend_error(err) for err in errors] == [str(err) for err in errors]
    try:
        i18n.use("ru")
        said = [backend_error(err) for err in errors]
    finally:
        i18n.use("en")
    assert said[0] == "--address относится только к --backend ray"
    assert said[1].startswith("не удаётся подключиться к кластеру Ray по адресу 127.0.0.1:1: ")
    assert said[1].endswith(errors[1].reason) and errors[1].reason  # the system's words kept


def test_an_interrupted_run_says_its_counts_in_the_languages_forms() -> None:
    from exact61.cli.app import interrupted_after

    assert interrupted_after(1234, 100_000) == "Interrupted after 1,234 of 100,000 matches."
    assert interrupted_after(0, 1) == "Interrupted after 0 of 1 match."
    try:
        i18n.use("de")
        assert interrupted_after(1234, 100_000) == "Abgebrochen nach 1.234 von 100.000 Partien."
        i18n.use("ru")  # "из" takes the genitive: 1 and 21 матча, else матчей
        assert [interrupted_after(0, n) for n in (1, 4, 11, 21, 1000)] == [
            "Прервано после 0 из 1 матча.",
            "Прервано после 0 из 4 матчей.",
            "Прервано после 0 из 11 матчей.",
            "Прервано после 0 из 21 матча.",
            "Прервано после 0 из 1\u00a0000 матчей.",
        ]
        i18n.use("pl")
        assert [interrupted_after(2, n) for n in (1, 3, 22, 25)] == [
            "Przerwano po 2 z 1 meczu.",
            "Przerwano po 2 z 3 meczów.",
            "Przerwano po 2 z 22 meczów.",
            "Przerwano po 2 z 25 meczów.",
        ]
    finally:
        i18n.use("en")


# ---- help as a person reads it ----------------------------------------------------------

COMMANDS = [
    "play",
    "simulate",
    "replay",
    "show",
    "rules",
    "serve",
    "tournament",
    "analyze",
    "learn",
]


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


# ---- help in the person's language --------------------------------------------------------

# The commands that take --lang, and the words of their help screens that are click's, as each
# language says them: "Usage:", a section's title and the help option's help.
LANG_COMMANDS = [
    "play",
    "rules",
    "analyze",
    "simulate",
    "tournament",
    "replay",
    "show",
    "equity",
    "learn",
    "export",
]
HELP_WORDS = {
    "de": ("Aufruf:", "Optionen:", "Diese Hilfe zeigen und beenden."),
    "pl": ("Użycie:", "Opcje:", "Pokaż tę pomoc i zakończ."),
    "ru": ("Использование:", "Параметры:", "Показать эту справку и выйти."),
}
LANG_HELP = {  # --lang's own help
    "de": "Sprache: en, de, pl oder ru (Standard: aus dem Gebietsschema).",
    "pl": "Język: en, de, pl lub ru (domyślnie: z ustawień regionalnych).",
    "ru": "Язык: en, de, pl или ru (по умолчанию: из локали).",
}


def flat(text: str) -> str:
    """TEXT without its spaces and line breaks: the same words however the help wraps them."""
    return "".join(text.split())


def english_help() -> dict[str, str]:
    """Each command's description as its help says it in English (`exact61` itself: "")."""
    from typer.core import TyperGroup

    from exact61.cli.app import tidy_help
    from exact61.cli.main import app

    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    tidy_help(group)
    return {"": group.help or ""} | {n: c.help or "" for n, c in group.commands.items()}


def assert_help_in(lang: str, out: str, command: str) -> None:
    usage, options, help_option = HELP_WORDS[lang]
    assert out.startswith(f"{usage} exact61 {command} "), out
    assert f"\n{options}\n" in out and help_option in out
    assert "--lang LANG" in out and flat(LANG_HELP[lang]) in flat(out)  # the name as typed
    english = english_help()[command]
    description = i18n.translations(lang).gettext(english)
    assert description != english and flat(description) in flat(out)
    assert not re.search(r"Usage|Options|Arguments|Show this|default:|required", out), out


@pytest.mark.parametrize("command", LANG_COMMANDS)
def test_help_speaks_the_language_of_lang_wherever_it_stands(cli: Cli, command: str) -> None:
    # click shows the help at once: a --lang after -h is read from the command line first
    for args, lang in [
        ((command, "--help", "--lang", "de"), "de"),
        ((command, "--lang", "de", "-h"), "de"),
        ((command, "-h", "--lang=pl"), "pl"),
        ((command, "--lang", "de", "--lang", "ru", "--help"), "ru"),  # the last, as click takes
    ]:
        result = cli(*args)
        assert (result.code, result.err) == (0, ""), args
        assert_help_in(lang, result.out, command)


@pytest.mark.parametrize("command", LANG_COMMANDS)
def test_help_speaks_the_locales_language_without_lang(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    result = cli(command, "-h")
    assert result.code == 0
    assert_help_in("ru", result.out, command)


def test_the_facts_after_an_options_help_are_said_in_the_language(cli: Cli) -> None:
    analyze = flat(cli("analyze", "-h", "--lang", "de").out)
    assert flat("Standardeingabe).  [erforderlich]") in analyze  # an argument's
    assert flat("Nummer der Partie, ab 0.  [Standard: 0; x>=0]") in analyze
    equity = flat(cli("equity", "-h", "--lang", "pl").out)
    assert flat("Gracze: 2, 3 lub 4 (R2).  [domyślnie: 2; 2<=x<=4]") in equity
    assert flat("[domyślnie: no-force]") in equity  # a value stays as typed
    assert "\nArgumenty:\n" in cli("rules", "-h", "--lang", "pl").out
    # simulate --bot names the bots as the program has them
    bot = flat(cli("simulate", "-h", "--lang", "ru").out)
    assert flat("Бот на каждом месте: random, greedy, heuristic, ismcts, expert, pimc") in bot


def test_the_list_of_commands_speaks_the_locales_language(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    polish = i18n.translations("pl").gettext
    for result in (cli("--help"), cli("-h")):
        assert result.code == 0 and result.out.startswith("Użycie: exact61 [OPTIONS] COMMAND")
        description, listed = result.out.split("\nPolecenia:\n")
        assert flat(polish(english_help()[""])) in flat(description)
        assert "Pokaż tę pomoc i zakończ." in description
        for name, english in english_help().items():  # every command whole, serve's too
            if name:
                summary = polish(english).split("\n\n")[0]
                assert summary != english.split("\n\n")[0]
                assert flat(f"{name} {summary}") in flat(listed), (name, listed)
    assert "\nPolecenia:\n" in cli().err  # `exact61` alone says the list too
    # serve's own help stays English, for whoever hosts, as its usage errors do
    serve = cli("serve", "-h").out
    assert serve.startswith("Usage: exact61 serve ") and "Show this message and exit." in serve


def test_help_with_an_unknown_lang_speaks_the_locales_language(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    result = cli("simulate", "--help", "--lang", "xx")
    assert (result.code, result.err) == (0, "")
    assert result.out.startswith("Aufruf: exact61 simulate ")
    # a --lang before -h is read first (click reads the eager options in their order): its
    # error, on one line, in the locale's language
    refused = cli("simulate", "--lang", "xx", "--help")
    assert (refused.code, refused.out) == (2, "")
    assert refused.err == "exact61: unbekannte Sprache 'xx'; zur Wahl stehen en, de, pl, ru\n"


@pytest.mark.parametrize("command", ["", *LANG_COMMANDS])
def test_help_fits_80_columns_in_every_language(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    from typer.core import TyperGroup, TyperOption

    from exact61.cli.main import app

    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    shown = group.commands[command] if command else group
    monkeypatch.setenv("COLUMNS", "80")
    for lang in i18n.LANGUAGES:
        monkeypatch.setenv("LANG", f"{lang}.UTF-8")  # `exact61` itself takes no --lang
        result = cli(*[command, "-h"] if command else ["-h"])
        usage = i18n.translations(lang).gettext("Usage:")
        assert result.code == 0 and result.out.startswith(f"{usage} exact61"), (lang, result)
        assert max(map(len, result.out.splitlines())) <= 80, (lang, result.out)
        for param in shown.params:  # every option, by its name as typed
            for name in param.opts if isinstance(param, TyperOption) else ():
                assert re.search(rf"(^|[ ,/]){re.escape(name)}( |,|$)", result.out, re.M), name


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "cannot read standard input: refused"),
        ("pl", "nie można odczytać standardowego wejścia: refused"),
        ("ru", "не удаётся прочитать стандартный ввод: refused"),
    ],
)
def test_standard_input_that_cannot_be_read_is_named_in_the_sentences_case(
    lang: str, said: str
) -> None:
    # "cannot read {path}" would put Polish's nominative "standardowe wejście" after odczytać
    with i18n.speaking(lang):
        assert str(UnreadableFileError(STDIN, "refused")) == said


def test_an_out_in_a_folder_that_is_not_there_is_refused_alike(cli: Cli, tmp_path: Path) -> None:
    """`simulate` refused it and `tournament` made the folder; now both say they cannot write."""
    for command in (
        ("simulate", "--matches", "2"),
        ("tournament", "--bots", "greedy,random", "--matches", "2"),
    ):
        out = tmp_path / "nowhere" / "records.jsonl"
        result = cli(*command, "--out", out)
        assert result.code == 1, result.err
        assert result.err == f"exact61: {out}: cannot write: No such file or directory\n"
        assert not out.parent.exists()


def test_a_tournament_stopped_before_any_match_ends_shows_no_empty_table(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Ctrl+C before the first match ends: what was asked, the records' file and how far it
    got, and no table of no matches (it printed one, headed 0 matches)."""
    import exact61.tournament.runner as runner

    def stopped(*args: object, **kwargs: object) -> Iterator[object]:
        raise KeyboardInterrupt
        yield  # a generator, as the runner's results are

    monkeypatch.setattr(runner, "run", stopped)
    out = tmp_path / "t.jsonl"
    result = cli("tournament", "--bots", "greedy,random,heuristic", "--matches", "6", "--out", out)
    assert result.code == 130
    assert result.out.splitlines() == [f"Records: {out}", "Interrupted after 0 of 6 matches."]


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_more_workers_than_matches_start_no_more_processes_than_matches(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, command: str
) -> None:
    """`--matches 2 --workers 100000` (a slip of the keyboard) started a hundred thousand
    processes, one after the other, for two matches: until the machine ran out of processes or
    open files. A worker without a match to play is started no more."""
    started: list[int] = []

    class Counted(backends.ProcessBackend):
        def __init__(self, workers: int) -> None:
            started.append(workers)
            super().__init__(min(workers, 2))  # the count asked for is counted, not started

    monkeypatch.setattr(backends, "ProcessBackend", Counted)
    out = tmp_path / "m.jsonl"
    chosen = ["--bot", "random"] if command == "simulate" else ["--bots", "random,greedy"]
    done = cli(command, *chosen, "--matches", "2", "--workers", "100000", "--out", out)
    assert done.code == 0, done.err
    assert started == [2]
    assert len(out.read_text().splitlines()) == 2
