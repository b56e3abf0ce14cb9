"""The command line's edges, run in this process through the real entry point (`main.run`):
exit statuses by the one rule of docs/commands.md, errors in the player's language, the help
as a person reads it. Fast: no subprocess (tests/cli/test_cli.py runs the command as a user
would)."""

from __future__ import annotations

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


def test_an_internal_error_is_one_line_and_exit_70(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exact61.cli import rules_cmd

    def broken(text: str) -> str:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(rules_cmd, "plain_text", broken)
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
