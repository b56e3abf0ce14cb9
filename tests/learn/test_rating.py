"""The puzzle rating (Glicko-2, by the glicko2 package) and the streak, and the file they are
kept in."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from glicko2 import Player

from exact61.learn.progress import ProgressError, ProgressFile
from exact61.learn.rating import (
    LEVEL_RATINGS,
    PUZZLE_RD,
    START,
    PuzzleProgress,
    load,
    progress_store,
    rated,
    save,
)


def test_the_library_rates_as_glickmans_paper() -> None:
    """The worked example of Glickman's "Example of the Glicko-2 system": 1500 (deviation 200)
    beats 1400 (30), loses to 1550 (100) and to 1700 (300): 1464.06, deviation 151.52."""
    player = Player(1500, 200, 0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert player.rating == pytest.approx(1464.06, abs=0.01)
    assert player.rd == pytest.approx(151.52, abs=0.01)


def test_solving_raises_the_rating_and_the_streak_and_failing_ends_it() -> None:
    start = PuzzleProgress()
    one = start.after("a", 2, solved=True)
    two = one.after("b", 3, solved=True)
    assert start.rating < one.rating < two.rating
    assert one.deviation < start.deviation
    assert (two.streak, two.best_streak, two.solved) == (2, 2, ("a", "b"))
    missed = two.after("c", 1, solved=False)
    assert missed.rating < two.rating
    assert (missed.streak, missed.best_streak, missed.tried) == (0, 2, ("a", "b", "c"))
    assert missed.history == (("a", True), ("b", True), ("c", False))


def test_the_deviation_never_grows_past_a_new_learners() -> None:
    """Near the scale's end a learner far above the puzzles who solves one gets a deviation a
    little past 350 from the formulas; the web page's next answer with it was refused. It is
    capped at a new learner's, as Glicko does."""
    player = Player(3900, 350, 0.06)
    player.update_player([LEVEL_RATINGS[3]], [PUZZLE_RD], [1])
    assert player.rd > START[1]  # the formulas alone
    assert rated((3900, 350, 0.06), 3, True)[1] == START[1]


def test_a_harder_puzzle_solved_is_worth_more() -> None:
    assert LEVEL_RATINGS[1] < LEVEL_RATINGS[2] < LEVEL_RATINGS[3]
    start = PuzzleProgress()
    assert start.after("x", 3, True).rating > start.after("x", 1, True).rating


def test_the_daily_puzzle_solved_is_dated() -> None:
    day = datetime.date(2026, 12, 5)
    assert PuzzleProgress().after("d", 1, True, day).daily_solved == "2026-12-05"
    assert PuzzleProgress().after("d", 1, False, day).daily_solved is None


def test_progress_is_kept_in_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path))
    store = progress_store()
    assert store.path.parent == tmp_path / "learn"  # beside the guided tour's
    assert load(store) == PuzzleProgress()
    progress = PuzzleProgress().after("a", 2, True).after("b", 1, False)
    save(store, progress)
    assert load(store) == progress
    assert [p.name for p in store.path.parent.iterdir()] == [store.path.name]  # no temporary


@pytest.mark.parametrize(
    ("kept", "reason"),
    [
        (b"{not json", "not JSON"),
        (b"\xff\xfe", "not text"),
        (b'{"format": "x"}', "not progress"),
        (b"null", "not progress"),
        (b'{"format": "exact61-progress/1", "rating": "high"}', "not puzzle progress"),
    ],
)
def test_a_damaged_progress_file_is_refused_and_left_be(
    tmp_path: Path, kept: bytes, reason: str
) -> None:
    store = ProgressFile("puzzles", tmp_path)
    store.path.write_bytes(kept)
    with pytest.raises(ProgressError) as refused:
        load(store)
    assert refused.value.reason.startswith(reason)
    assert store.path.read_bytes() == kept


def _kept(**changed: object) -> dict[str, object]:
    """A learner's progress as its file keeps it, with `changed` fields."""
    data = PuzzleProgress(streak=2, best_streak=3, solved=("a",), tried=("a", "b")).to_json()
    return {**data, "history": [["a", True], ["b", False]], **changed}


@pytest.mark.parametrize(
    "changed",
    [
        {"rating": float("nan")},  # JSON's NaN, which Python's reader takes
        {"deviation": float("inf")},
        {"rating": 10**400},  # a whole number no float holds
        {"volatility": True},
        {"rating": "1500"},
        {"streak": -1},
        {"best_streak": 2.5},
        {"solved": "abc"},  # read as the ids a, b and c
        {"tried": [1, 2]},
        {"daily_solved": 5},
        {"daily_solved": "yesterday"},
        {"history": {"ab": 1}},  # read as the attempt ("a", "b")
        {"history": [["a", "yes"]]},
    ],
)
def test_progress_that_is_json_but_not_a_learners_is_refused(
    tmp_path: Path, changed: dict[str, object]
) -> None:
    """A file damaged inside its JSON was read into nonsense (ids a, b, c from "abc") or a
    rating of NaN, which failed in the middle of `exact61 puzzle` as an internal error: it is
    refused whole, as a file that is not JSON is, and left as it is."""
    import json

    store = ProgressFile("puzzles", tmp_path)
    store.save(_kept())  # the same file, undamaged, is read
    assert load(store) == PuzzleProgress(
        streak=2,
        best_streak=3,
        solved=("a",),
        tried=("a", "b"),
        history=(("a", True), ("b", False)),
    )
    text = json.dumps({"format": "exact61-progress/1", **_kept(**changed)})
    store.path.write_text(text)
    with pytest.raises(ProgressError) as refused:
        load(store)
    assert refused.value.reason == "not puzzle progress"
    assert store.path.read_text() == text
