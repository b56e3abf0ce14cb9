"""`exact61 serve` with real clients: whole games over WebSockets on a loopback port, on SQLite
and on PostgreSQL; the record they download verifies."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from server_kit import database_url, play_game, server_in_thread

from exact61 import replay

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
