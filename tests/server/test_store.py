"""The server's database on SQLite: its writes are made on the event loop, in batches, and its
write-ahead log is copied into the database by a thread of its own, never by a commit."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from exact61.server import writer as writer_module
from exact61.server.store import ActionRow, Database, GameRow
from tests.server.kit import database_url


def _game(game_id: str) -> GameRow:
    return GameRow(game_id, 2, ["human", "human"], "en", 7, "", False, "playing", 0, [0, 0], None)


def _action(seq: int) -> ActionRow:
    return ActionRow(seq, 0, seq % 2, {"type": "pass"}, None)


async def test_writes_asked_for_in_one_turn_are_one_transaction_made_on_the_loop(
    tmp_path: Path,
) -> None:
    store = Database.open(database_url("sqlite", tmp_path), tmp_path)
    commits: list[str] = []

    def committed(_conn: sa.Connection) -> None:
        commits.append(threading.current_thread().name)

    try:
        await store.create(_game("g"), {})
        sa.event.listen(store.engine, "commit", committed)
        await asyncio.gather(*(store.append("g", _action(seq)) for seq in range(1, 11)))
        assert commits == [threading.main_thread().name]  # ten actions, one commit, here
        assert [row.seq for row in await store.actions_of("g")] == list(range(1, 11))
    finally:
        await store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_the_lobby_keeps_its_places_for_games_with_a_free_seat(
    tmp_path: Path, kind: str
) -> None:
    """The lobby took its 50 newest open games, then left out those with every seat taken:
    full games, however many, took the places of older ones still waiting for a player."""
    store = Database.open(database_url(kind, tmp_path), tmp_path)
    try:
        for name in ("waiting", "full"):  # the full one newer
            row = dataclasses.replace(_game(name), open=True)
            await store.create(row, {0: f"{name}0", 1: f"{name}1"}, taken={0})
            await asyncio.sleep(0.01)  # created_at apart
        assert await store.take_free_seat("full", 1, "new", None)
        listed = await store.open_games(limit=1)
        assert [(row.id, free) for row, free in listed] == [("waiting", [1])]
    finally:
        await store.close()


async def _longest_log(folder: Path, commits: int) -> int:
    """The size the write-ahead log's file reaches over `commits` commits, one at a time."""
    store = Database.open(database_url("sqlite", folder), folder)
    try:
        with store.engine.connect() as db:
            assert db.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        await store.create(_game("g"), {})
        wal = folder / "games.sqlite3-wal"
        longest = 0
        for seq in range(1, commits + 1):
            await store.append("g", _action(seq))
            longest = max(longest, wal.stat().st_size)
            await asyncio.sleep(0.005)
        assert len(await store.actions_of("g")) == commits
    finally:
        await store.close()
    with sa.create_engine(database_url("sqlite", folder)).connect() as db:
        assert db.exec_driver_sql("SELECT count(*) FROM actions").scalar() == commits
    return longest


@pytest.mark.slow  # waits on the checkpoint thread's seconds
async def test_commits_never_checkpoint_and_a_thread_keeps_the_log_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer_module, "CHECKPOINT_SECONDS", 3600.0)  # none in the test's time
    (tmp_path / "none").mkdir()
    unchecked = await _longest_log(tmp_path / "none", 200)
    monkeypatch.setattr(writer_module, "CHECKPOINT_SECONDS", 0.05)
    (tmp_path / "often").mkdir()
    checked = await _longest_log(tmp_path / "often", 200)
    # No commit checkpoints, so without the thread the log holds every commit's pages; with
    # it, the log starts over again and again (by a wide margin even on a busy machine).
    assert checked < unchecked / 2, (checked, unchecked)
