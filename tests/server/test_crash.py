"""`kill -9` of the server in the middle of games loses no action any client has seen: the
server is started again on the same database, the players reconnect with their seat links and
finish; on SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from exact61 import replay
from tests.server.kit import Client, ServerProcess, database_url, play_game

pytestmark = pytest.mark.server


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_killed_server_restarts_and_the_games_go_on(kind: str, tmp_path: Path) -> None:
    db = database_url(kind, tmp_path)
    process = ServerProcess(db, tmp_path)
    server = process.start()
    try:
        people = server.create(["human", "human"])
        mixed = server.create(["human", "bot:greedy", "human", "bot:random"])
        first = await play_game(server, people, stop_after=25)
        second = await play_game(server, mixed, stop_after=30)
        seen = {
            game["game"]: max(s["seq"] for c in clients.values() for s in c.states)
            for game, clients in ((people, first), (mixed, second))
        }
        process.kill()  # SIGKILL: no shutdown of any kind
        for clients in (first, second):
            for client in clients.values():
                with pytest.raises(AssertionError, match="closed"):
                    await client.wait(lambda f: False, timeout=10)
        server = process.start()  # the same database and port
        for game, was in ((people, first), (mixed, second)):
            summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
            assert summary["seq"] >= seen[game["game"]]  # nothing any client saw is lost
            for seat, old in was.items():  # the seat links still work, from where they were
                token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
                back = await Client.connect(server, game["game"], token, since=old.state["seq"])
                state = await back.wait(lambda f: f.get("type") == "state")
                assert state["seq"] == summary["seq"] and state["you"] == seat
                await back.close()
            clients = await play_game(server, game)  # and the game is finished
            record = httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
            match = replay(record)
            assert match.is_over
            kept = [a for r in record["rounds"] for a in r["actions"]]
            before = [e for c in was.values() for s in c.states for e in s["last"]]
            for entry in before:  # every action a client was told of is in the record
                if entry.get("type") == "action":
                    recorded = kept[entry["seq"] - 1]
                    assert recorded["seat"] == entry["seat"]
                    assert recorded["type"] == entry["action"]["type"]
                    if entry["action"]["type"] == "play":
                        assert recorded["tile"] == entry["action"]["tile"]
                        assert recorded["at"] == entry["action"]["at"]
            for client in clients.values():
                await client.close()
    finally:
        process.stop()
