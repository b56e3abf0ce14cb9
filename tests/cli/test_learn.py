"""`exact61 learn` at the command line: the tour line by line through a pipe, resumed where it
was left, started again with --restart, in the language asked for, and a one-line message (and
the file left alone) when the progress cannot be read or kept."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from exact61.learn.tour import steps
from tests.helpers import Cli

STEPS = steps()
Typed = Callable[[str], None]


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch) -> Typed:
    """`typed(text)`: what the learner types next, on stdin (not a terminal: line by line)."""

    def give(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))

    return give


def progress(tmp_path: Path) -> Path:
    return tmp_path / "data" / "learn" / "tour.json"


def test_the_tour_goes_line_by_line_through_a_pipe_and_resumes(
    cli: Cli, typed: Typed, tmp_path: Path
) -> None:
    first = STEPS[0].question.right[0] + 1
    typed(f"{first}\n\nq\n")
    result = cli("learn")
    assert result.code == 0, result
    assert "Lesson 1 of 6: The opening and what scores, step 1 of 3" in result.out
    assert "✓ Right." in result.out and result.err == ""
    kept = json.loads(progress(tmp_path).read_text())
    assert kept["format"] == "exact61-progress/1" and kept["step"] == STEPS[1].id
    typed("q\n")
    again = cli("learn", "--plain")
    assert again.out.lstrip().startswith("Lesson 1 of 6: The opening and what scores, step 2 of 3")


def test_leaving_says_the_command_as_typed_to_go_on(cli: Cli, typed: Typed) -> None:
    """The hint to go on repeats the options given (the language, --plain), not --restart."""
    typed("q\n")
    result = cli("learn", "--plain", "--restart", "--lang", "DE")
    assert result.out.rstrip().endswith(
        "Dein Fortschritt ist gespeichert. Weiter mit: exact61 learn --lang de --plain"
    )
    typed("q\n")
    result = cli("learn")
    assert result.out.rstrip().endswith("Go on with: exact61 learn")


def test_restart_forgets_the_progress(cli: Cli, typed: Typed, tmp_path: Path) -> None:
    progress(tmp_path).parent.mkdir(parents=True)
    progress(tmp_path).write_text(
        json.dumps({"format": "exact61-progress/1", "step": STEPS[5].id, "stage": "lessons"})
    )
    typed("q\n")
    result = cli("learn", "--plain", "--restart")
    assert "step 1 of 3" in result.out.splitlines()[1]


def test_a_finished_tour_starts_again(cli: Cli, typed: Typed, tmp_path: Path) -> None:
    progress(tmp_path).parent.mkdir(parents=True)
    progress(tmp_path).write_text(
        json.dumps({"format": "exact61-progress/1", "step": STEPS[-1].id, "stage": "done"})
    )
    typed("q\n")
    result = cli("learn", "--plain")
    assert "Lesson 1 of 6" in result.out


def test_the_tour_speaks_the_language_asked_for(cli: Cli, typed: Typed) -> None:
    typed("q\n")
    result = cli("learn", "--plain", "--lang", "pl")
    assert "Lekcja 1 z 6: Otwarcie i co punktuje, krok 1 z 3" in result.out
    assert "Ile daje otwarcie?" in result.out


@pytest.mark.parametrize(
    ("text", "reason"),
    [("{not json", "not JSON"), ('{"format": "exact61-progress/1", "stage": "x"}', "stage")],
)
def test_progress_that_cannot_be_read_is_said_on_one_line_and_left(
    cli: Cli, typed: Typed, tmp_path: Path, text: str, reason: str
) -> None:
    progress(tmp_path).parent.mkdir(parents=True)
    progress(tmp_path).write_text(text)
    typed("1\n")
    result = cli("learn", "--plain")
    assert result.code == 1 and result.out == ""
    assert result.err.startswith("exact61: cannot read your progress ")
    assert reason in result.err and "exact61 learn --restart" in result.err
    assert result.err.count("\n") == 1
    assert progress(tmp_path).read_text() == text  # never overwritten unasked


def test_a_data_directory_that_cannot_be_written_is_said_on_one_line(
    cli: Cli, typed: Typed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("EXACT61_DATA_DIR", str(blocked))
    typed("1\n")
    result = cli("learn", "--plain")
    assert result.code == 1 and result.out == ""
    assert result.err.startswith("exact61: cannot keep your progress in ")
    assert "EXACT61_DATA_DIR" in result.err and result.err.count("\n") == 1


def test_a_guided_match_that_does_not_resume_is_said_on_one_line_and_left(
    cli: Cli, typed: Typed, tmp_path: Path
) -> None:
    progress(tmp_path).parent.mkdir(parents=True)
    progress(tmp_path).write_text(
        json.dumps({"format": "exact61-progress/1", "step": STEPS[-1].id, "stage": "match"})
    )
    match = progress(tmp_path).parent / "tour-match.json"
    match.write_text("{oops")
    typed("q\n")
    result = cli("learn", "--plain")
    assert result.code == 1 and result.out == ""
    assert result.err.startswith(f"exact61: cannot resume the guided match {match}: ")
    assert "exact61 learn --restart" in result.err and result.err.count("\n") == 1
    assert match.read_text() == "{oops"
    typed("q\n")
    again = cli("learn", "--plain", "--restart")  # the way past it
    assert again.code == 0 and "Lesson 1 of 6" in again.out and not match.exists()


def test_progress_that_is_a_folder_is_said_on_one_line_and_left(
    cli: Cli, typed: Typed, tmp_path: Path
) -> None:
    """A folder where the progress file goes: reading it said the system's `Is a directory`,
    and `--restart`, the way out it named, failed with `[Errno 21] Is a directory`."""
    progress(tmp_path).mkdir(parents=True)
    typed("q\n")
    result = cli("learn", "--plain", "--lang", "de")
    assert result.code == 1 and result.out == "" and result.err.count("\n") == 1
    assert result.err.startswith("exact61: dein Fortschritt ")
    assert "ist ein Ordner" in result.err and "Errno" not in result.err
    typed("q\n")
    again = cli("learn", "--plain", "--restart", "--lang", "de")
    assert again.code == 1 and again.out == "" and again.err.count("\n") == 1
    assert again.err.startswith(f"exact61: die Tour kann nicht neu beginnen: {progress(tmp_path)}")
    assert "ist ein Ordner" in again.err and "Errno" not in again.err
    assert progress(tmp_path).is_dir()  # a folder is nobody's progress to remove
