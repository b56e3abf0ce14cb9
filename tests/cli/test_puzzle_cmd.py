"""`exact61 puzzle` at the command line: help, --export's lines, --make, and one-line errors."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from exact61.core.records import replay_steps
from exact61.learn.puzzles import action_from_json, shipped
from tests.helpers import Cli

REQUIRED = {"id", "level", "goal", "record", "round", "action", "seat", "solution"}


def test_help_names_every_option(cli: Cli) -> None:
    done = cli("puzzle", "-h")
    assert done.code == 0
    for option in ("--export", "--make", "--seed", "--out", "--daily", "--level", "--plain"):
        assert option in done.out


def test_export_writes_every_puzzle_with_its_record(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "puzzles.jsonl"
    assert cli("puzzle", "--export", path).code == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == len(shipped().puzzles) >= 500
    assert all(line.keys() >= REQUIRED for line in lines)
    first = lines[0]
    assert first["record"]["format"] == "exact61-match/1"
    moment = next(
        s
        for s in replay_steps(first["record"])
        if (s.round, s.action + 1) == (first["round"], first["action"])
    )
    assert moment.match.to_act == first["seat"] == first["solution"]["seat"]
    assert action_from_json(first["solution"]) in moment.match.legal_actions()
    again = cli("puzzle", "--export", path)
    assert again.code == 2 and "--force" in again.err and again.err.count("\n") == 1


def test_make_writes_a_set(cli: Cli, tmp_path: Path) -> None:
    """Seed 59's match has a puzzle: --make 1 plays that one match."""
    done = cli("puzzle", "--make", "1", "--seed", "59", "--out", tmp_path / "set")
    assert done.code == 0, done.err
    assert "1 puzzle from 1 matches" in done.err
    assert len((tmp_path / "set" / "puzzles.jsonl").read_text().splitlines()) == 1


def test_make_needs_a_folder(cli: Cli) -> None:
    done = cli("puzzle", "--make", "5")
    assert done.code == 2
    assert done.err == "exact61: --make needs --out FOLDER, where the set is written\n"


def test_an_unknown_puzzle_is_one_line(cli: Cli) -> None:
    done = cli("puzzle", "--id", "nothing-0-0")
    assert done.code == 2
    assert done.err.startswith("exact61: no puzzle nothing-0-0;") and done.err.count("\n") == 1


def test_a_damaged_progress_file_is_one_line(cli: Cli, tmp_path: Path) -> None:
    learn = tmp_path / "data" / "learn"
    learn.mkdir(parents=True)
    (learn / "puzzles.json").write_bytes(b"\xff[1, 2")
    done = cli("puzzle", "--daily")
    assert done.code == 1
    assert "cannot read your progress" in done.err and done.err.count("\n") == 1
    assert (learn / "puzzles.json").read_bytes() == b"\xff[1, 2"  # left as it is


def test_progress_damaged_inside_its_json_is_one_line_in_the_persons_language(
    cli: Cli, tmp_path: Path
) -> None:
    """A rating of NaN (JSON as Python writes it) failed mid-puzzle as an internal error, and
    the reasons a progress file is refused were English in every language."""
    learn = tmp_path / "data" / "learn"
    learn.mkdir(parents=True)
    kept = b'{"format": "exact61-progress/1", "rating": NaN, "deviation": 350, "volatility": 0.06'
    kept += b', "streak": 0, "best_streak": 0, "solved": [], "tried": []}'
    (learn / "puzzles.json").write_bytes(kept)
    done = cli("puzzle", "--daily", "--lang", "pl")
    assert done.code == 1 and done.err.count("\n") == 1
    assert "nie można odczytać" in done.err and "to nie są postępy w zadaniach" in done.err
    assert (learn / "puzzles.json").read_bytes() == kept


def test_the_daily_puzzle_and_a_puzzle_by_id_are_refused_together(cli: Cli) -> None:
    done = cli("puzzle", "--daily", "--id", "s59-0-32")
    assert done.code == 2 and "--daily and --id" in done.err and done.err.count("\n") == 1


def test_an_export_file_that_exists_names_export(cli: Cli, tmp_path: Path) -> None:
    there = tmp_path / "p.jsonl"
    there.write_text("")
    done = cli("puzzle", "--export", there)
    assert done.code == 2 and "choose another --export" in done.err
    done = cli("puzzle", "--export", tmp_path, "--force")
    assert done.code == 2 and "give --export a file name" in done.err


def test_the_daily_puzzle_in_german(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    done = cli("puzzle", "--daily", "--lang", "de")
    assert done.code == 0, done.err
    assert "Aufgabe " in done.out and "Deine Hand:" in done.out


def test_a_data_folder_that_cannot_be_written_is_said_before_a_puzzle(
    cli: Cli, tmp_path: Path
) -> None:
    """The streak and rating of a puzzle solved would be lost: it is said before the puzzle,
    in one line, and nothing is asked."""
    (tmp_path / "data").write_text("a file where the data folder should be")
    done = cli("puzzle", "--daily", "--plain")
    assert done.code == 1 and done.out == ""
    assert (
        done.err.startswith("exact61: cannot keep your progress in") and done.err.count("\n") == 1
    )


def test_an_option_the_chosen_part_does_not_use_is_refused(cli: Cli, tmp_path: Path) -> None:
    """`--make` wrote a set and quietly left `--export` undone, `--export - --level 1` wrote
    every level, and `--out` without `--make` played puzzles: an option the part asked for
    does not use is one line, in the person's language, and nothing is done."""
    made, exported = tmp_path / "set", tmp_path / "p.jsonl"
    done = cli("puzzle", "--make", "1", "--seed", "59", "--out", made, "--export", exported)
    assert (done.code, done.out) == (2, "")
    assert done.err == "exact61: --make and --export each say what to do: give one of them\n"
    assert not made.exists() and not exported.exists()
    done = cli("puzzle", "--export", "-", "--level", "1")
    assert (done.code, done.out) == (2, "")
    assert done.err == "exact61: --level is for playing puzzles: --export does not use it\n"
    done = cli("puzzle", "--make", "1", "--out", made, "--daily")
    assert done.code == 2 and "--daily is for playing puzzles: --make" in done.err
    assert not made.exists()
    done = cli("puzzle", "--out", made)
    assert (done.code, done.out) == (2, "")
    assert done.err == "exact61: --out goes with --make: give --make too\n"
    done = cli("puzzle", "--daily", "--seed", "3", "--lang", "de")
    assert (done.code, done.out) == (2, "")
    assert done.err == "exact61: --seed gehört zu --make: gib auch --make an\n"
    done = cli("puzzle", "--daily", "--force", "--lang", "pl")
    assert (done.code, done.out) == (2, "")
    assert done.err == "exact61: --force działa tylko z --export: podaj też --export\n"
