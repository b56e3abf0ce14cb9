"""`exact61 puzzle`, line by line, headless: the puzzle shown as its seat may see it, a right and
a wrong answer (the refuting defence played out), the streak and rating kept, the daily puzzle."""

from __future__ import annotations

import datetime
import io
import json
import re
import time
from functools import cache
from pathlib import Path

import pytest

from exact61.core.engine import choices
from exact61.learn.puzzles import (
    Puzzle,
    PuzzleSet,
    bot_match,
    daily_date,
    is_solution,
    match_at,
    puzzles_in,
    refutation_of,
)
from exact61.learn.rating import progress_store
from exact61.terminal import puzzle_plain
from exact61.terminal.puzzle_plain import play_puzzles


@cache
def small_set() -> PuzzleSet:
    """The puzzles of two seeded bot matches known to have some (59 and 65)."""
    records = (bot_match(59), bot_match(65))
    found = [p for i, r in enumerate(records) for p in puzzles_in(r, f"s{i}", i)]
    return PuzzleSet(tuple(found), records)


@pytest.fixture
def puzzles(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> PuzzleSet:
    monkeypatch.setattr(puzzle_plain, "shipped", small_set)
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path))
    return small_set()


def answers(puzzles: PuzzleSet, puzzle: Puzzle) -> tuple[int, int]:
    """The number of the right choice and of a wrong one, as the choices are listed."""
    match = match_at(puzzles, puzzle)
    listed = list(choices(match.view(puzzle.seat).legal_actions).values())
    right = next(i for i, a in enumerate(listed, 1) if is_solution(puzzle, a))
    wrong = next(i for i, a in enumerate(listed, 1) if not is_solution(puzzle, a))
    return right, wrong


def play(text: str, **options: object) -> str:
    out = io.StringIO()
    code = play_puzzles("en", inp=io.StringIO(text), out=out, **options)  # type: ignore[arg-type]
    assert code == 0
    return out.getvalue()


def kept() -> dict[str, object]:
    data: dict[str, object] = json.loads(progress_store().path.read_text())
    return data


def test_the_right_answer_is_told_and_counted(puzzles: PuzzleSet) -> None:
    puzzle = puzzles.puzzles[0]
    right, _wrong = answers(puzzles, puzzle)
    said = play(f"{right}\n", puzzle_id=puzzle.id)
    assert f"Puzzle {puzzle.id}, level {puzzle.level}." in said
    assert "Right:" in said and "Not this one" not in said
    assert kept()["streak"] == 1 and kept()["solved"] == [puzzle.id]
    assert kept()["rating"] > 1500  # type: ignore[operator]


def test_a_wrong_answer_is_shown_its_refutation(puzzles: PuzzleSet) -> None:
    puzzle = puzzles.puzzles[0]
    _right, wrong = answers(puzzles, puzzle)
    said = play(f"x\n{wrong}\n", puzzle_id=puzzle.id)
    assert "Please type a number from 1 to" in said
    assert "Not this one:" in said and "The move that reaches the goal:" in said
    defence = said.split("The defence that refutes it:")[1].split("The move that reaches")[0]
    steps = [line for line in defence.splitlines() if re.match(r"  \d+\. (You|Seat 1): ", line)]
    match = match_at(puzzles, puzzle)
    chosen = list(choices(match.view(puzzle.seat).legal_actions).values())[wrong - 1]
    assert len(steps) == len(refutation_of(puzzle, chosen) or ())
    assert "Scores:" in defence
    assert kept()["streak"] == 0 and kept()["tried"] == [puzzle.id]
    assert kept()["rating"] < 1500  # type: ignore[operator]


def test_only_what_the_seat_may_know_is_shown(puzzles: PuzzleSet) -> None:
    """The opponent's tiles are not listed before the answer (R5: hands stay hidden), though
    the seat could work them out: the boneyard is empty."""
    puzzle = puzzles.puzzles[0]
    match = match_at(puzzles, puzzle)
    said = play("q\n", puzzle_id=puzzle.id)
    hidden = match.hand(1 - puzzle.seat)
    assert hidden and not any(str(t) in said for t in hidden)
    assert all(str(t) in said for t in match.hand(puzzle.seat))
    assert "The boneyard is empty" in said
    # the opponent by its seat, not by the bot of the match the puzzle came from: the puzzle is
    # proved against every defence
    other = 1 - puzzle.seat
    assert f"Others: Seat {other}: {len(hidden)} tile" in said, said
    assert "heuristic" not in said and "greedy" not in said
    assert not progress_store().path.exists()  # quitting is no attempt


def test_the_daily_puzzle_is_the_dates(puzzles: PuzzleSet) -> None:
    day = datetime.date(2026, 12, 5)
    said = play("q\n", daily=True, today=day)
    assert "The puzzle of 2026-12-05." in said
    assert f"Puzzle {puzzles.daily(day).id}," in said
    assert puzzles.daily(day) == puzzles.daily(datetime.date(2026, 12, 5))
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(d) for d in range(30)]
    assert len({puzzles.daily(d).id for d in days}) > 1


def test_the_daily_puzzle_is_of_the_utc_date_on_every_surface(
    puzzles: PuzzleSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The daily puzzle's date is today's in UTC (`daily_date`), as the site's: a clock 14
    hours ahead of UTC (Kiritimati), or 10 behind (Honolulu), still gives the UTC date."""
    ahead = datetime.timezone(datetime.timedelta(hours=14))
    behind = datetime.timezone(datetime.timedelta(hours=-10))
    assert daily_date(datetime.datetime(2026, 12, 6, 5, 0, tzinfo=ahead)) == datetime.date(
        2026, 12, 5
    )
    assert daily_date(datetime.datetime(2026, 12, 5, 20, 0, tzinfo=behind)) == datetime.date(
        2026, 12, 6
    )
    for zone in ("Pacific/Kiritimati", "Pacific/Honolulu"):
        monkeypatch.setenv("TZ", zone)
        time.tzset()
        try:
            utc = datetime.datetime.now(datetime.UTC).date()
            run = puzzle_plain.PuzzleRun(puzzles, daily=True)
            assert daily_date() == utc and run.day in (utc, daily_date())  # midnight between
        finally:
            monkeypatch.delenv("TZ")
            time.tzset()


def test_puzzles_follow_one_another_until_the_player_stops(puzzles: PuzzleSet) -> None:
    first = puzzle_plain.next_puzzle(puzzles, puzzle_plain.load(progress_store()), 1)
    right, _ = answers(puzzles, first)
    said = play(f"{right}\ny\nq\n", level=1)
    assert said.count("Puzzle s") == 2
    assert kept()["tried"] == [first.id]
