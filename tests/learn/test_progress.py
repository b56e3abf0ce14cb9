"""A learner's progress, kept in the data directory (`exact61.learn.progress`): one small JSON
file a part of `learn`, written whole, never overwritten when it cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exact61.learn.progress import FORMAT, ProgressError, ProgressFile, learn_dir


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_progress_lives_in_the_data_directory(data_dir: Path) -> None:
    assert learn_dir() == data_dir / "learn"
    assert ProgressFile("tour").path == data_dir / "learn" / "tour.json"


def test_what_is_kept_is_read_back_and_nothing_before() -> None:
    store = ProgressFile("tour")
    assert store.load() == {}
    store.save({"step": "a/b", "results": {"a/b": "first"}})
    assert store.load() == {"step": "a/b", "results": {"a/b": "first"}}
    assert json.loads(store.path.read_text())["format"] == FORMAT
    assert not list(store.path.parent.glob("*.part"))  # nothing left half-written


def test_each_part_keeps_its_own_file() -> None:
    tour, puzzles = ProgressFile("tour"), ProgressFile("puzzles")
    tour.save({"step": "x"})
    puzzles.save({"streak": 3})
    tour.clear()
    assert tour.load() == {} and puzzles.load() == {"streak": 3}


@pytest.mark.parametrize(
    ("text", "reason"),
    [("{not json", "not JSON"), ('{"step": 1}', "not progress"), ("[]", "not progress")],
)
def test_a_file_that_is_no_progress_is_said_and_left_alone(text: str, reason: str) -> None:
    store = ProgressFile("tour")
    store.path.parent.mkdir(parents=True)
    store.path.write_text(text)
    with pytest.raises(ProgressError) as caught:
        store.load()
    assert reason in caught.value.reason and caught.value.path == store.path
    assert store.path.read_text() == text
