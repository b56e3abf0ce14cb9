"""The server's database on SQLite: its writes are made on the event loop, in batches, and its
write-ahead log is copied into the database by a thread of its own, never by a commit."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from exact61.server import store as store_module
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


async def test_commits_never_checkpoint_and_a_thread_keeps_the_log_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "CHECKPOINT_SECONDS", 0.05)
    store = Database.open(database_url("sqlite", tmp_path), tmp_path)
    try:
        with store.engine.connect() as db:
            assert db.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        await store.create(_game("g"), {})
        wal = tmp_path / "games.sqlite3-wal"
        page = 4096
        sizes = []
        for seq in range(1, 201):  # 200 commits: each adds pages to the log until it restarts
            await store.append("g", _action(seq))
            sizes.append(wal.stat().st_size)
            await asyncio.sleep(0.005)
        assert max(sizes) < 100 * page  # without checkpoints it would hold every commit's pages
        assert len(await store.actions_of("g")) == 200
    finally:
        await store.close()
    with sa.create_engine(database_url("sqlite", tmp_path)).connect() as db:
        assert db.exec_driver_sql("SELECT count(*) FROM actions").scalar() == 200
