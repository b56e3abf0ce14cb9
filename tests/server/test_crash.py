"""`kill -9` of the server in the middle of games loses no action any client has seen: the
server is started again on the same database, the players reconnect with their seat links and
finish; on SQLite and on PostgreSQL. And it leaves no process of its own behind."""

from __future__ import annotations

import time
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


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (Linux: from /proc), zombies left out."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended while we looked
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
async def test_a_killed_servers_bot_processes_end_with_it(tmp_path: Path) -> None:
    """The bots think in worker processes (and multiprocessing keeps a resource tracker): after
    `kill -9` of the server, none of them lives on."""
    process = ServerProcess(database_url("sqlite", tmp_path), tmp_path, bot_workers=2)
    server = process.start()
    try:
        game = server.create(["human", "bot:heuristic"])
        await play_game(server, game, stop_after=12)  # the bot has thought in the pool
        assert process.process is not None
        helpers = children(process.process.pid)
        assert len(helpers) >= 2, helpers  # a worker at least, and the resource tracker
        process.kill()
        deadline = time.monotonic() + 15
        while left := {pid for pid in helpers if alive(pid)}:
            assert time.monotonic() < deadline, f"left behind: {left}"
            time.sleep(0.1)
    finally:
        process.stop()
