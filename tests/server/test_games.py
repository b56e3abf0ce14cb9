"""`exact61 serve` with real clients: whole games over WebSockets on a loopback port, on SQLite
and on PostgreSQL; the record they download verifies."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from exact61 import replay
from tests.server.kit import database_url, play_game, server_in_thread

pytestmark = pytest.mark.server


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request.param, tmp_path)


@pytest.mark.parametrize(
    "seats",
    [
        ["human", "human"],
        ["human", "bot:greedy", "human"],
        ["human", "bot:ismcts:20", "human", "bot:random"],
    ],
)
async def test_whole_games_to_the_end_and_the_record_verifies(
    db: str, tmp_path: Path, seats: list[str]
) -> None:
    with server_in_thread(db, tmp_path) as server:
        game = server.create(seats)
        assert sorted(s["seat"] for s in game["seats"] if "token" in s) == [
            i for i, k in enumerate(seats) if k == "human"
        ]
        early = httpx.get(f"{server.url}/api/games/{game['game']}/record")
        assert early.status_code == 409
        clients = await play_game(server, game)
        record = httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
        match = replay(record)
        actions = sum(len(r["actions"]) for r in record["rounds"])
        for client in clients.values():  # every person is told the end
            final = await client.wait_seq(actions)
            assert final["seq"] == actions and final["status"] == "over"
            assert match.is_over and final["winner"] == match.winner
            assert final["scores"] == list(match.scores)
        summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
        assert summary["status"] == "over" and summary["scores"] == list(match.scores)
        for client in clients.values():
            await client.close()


async def test_the_heap_keeper_freezes_what_lived_and_still_frees_cycles() -> None:
    """exact61 serve freezes long-lived objects so a full collection never stalls every game
    (docs/figures/load.md), and thaws them now and then so cyclic garbage is still freed."""
    import gc
    import weakref

    from exact61.server.app import HeapPolicy, _keep_heap_still

    class Node:
        me: object

    gc.unfreeze()
    try:
        keeper = asyncio.get_running_loop().create_task(
            _keep_heap_still(HeapPolicy(freeze_seconds=0.02, collect_seconds=1e9))
        )
        await asyncio.sleep(0.1)
        assert gc.get_freeze_count() > 0  # what lived is out of the collector's scans
        node = Node()
        node.me = node  # a cycle: only the collector frees it
        gone = weakref.ref(node)
        del node
        await asyncio.sleep(0.1)  # frozen with the rest
        gc.collect()
        assert gone() is not None  # a frozen cycle outlives a collection...
        keeper.cancel()
        keeper = asyncio.get_running_loop().create_task(
            _keep_heap_still(HeapPolicy(freeze_seconds=0.02, collect_seconds=0.04))
        )
        await asyncio.sleep(0.2)
        assert gone() is None  # ...until the keeper thaws everything and collects
        keeper.cancel()
    finally:
        gc.unfreeze()
