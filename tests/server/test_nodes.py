"""Several `exact61 serve` processes share one PostgreSQL database: the clients of one game may
be connected to different servers; each action is applied once whichever server receives it (the
database's key on the game's sequence number); every server's clients hear of it through
PostgreSQL's LISTEN/NOTIFY. One server is killed with SIGKILL mid-game; its people reconnect to
the other and finish; the record verifies and no action is lost or doubled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from exact61 import replay
from tests.server.kit import Client, ServerProcess, fresh_postgres_database, play_game

pytestmark = pytest.mark.server


async def test_two_servers_one_game_one_killed(tmp_path: Path) -> None:
    db = fresh_postgres_database()
    one, two = ServerProcess(db, tmp_path), ServerProcess(db, tmp_path)
    one.launch()  # both at once on a new database: they migrate it one after the other
    two.launch()
    a, b = one.wait_up(), two.wait_up()
    try:
        game = a.create(["human", "human", "human", "bot:greedy"])
        where = {0: a, 1: b, 2: a}  # the people of one game on two servers
        clients = await play_game(where, game, stop_after=40)
        seen = {seat: max(s["seq"] for s in c.states) for seat, c in clients.items()}
        assert min(seen.values()) >= 40 or max(seen.values()) >= 40
        one.kill()  # the server of seats 0 and 2 dies
        for seat in (0, 2):
            token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
            clients[seat] = await Client.connect(b, game["game"], token, since=seen[seat])
        clients = await play_game(b, game, clients=clients)
        record = httpx.get(f"{b.url}/api/games/{game['game']}/record").json()
        match = replay(record)  # no action lost, none doubled: the record replays whole
        assert match.is_over
        actions = [x for r in record["rounds"] for x in r["actions"]]
        told: dict[int, dict[str, object]] = {}
        for client in clients.values():
            for state in client.states:
                for entry in state["last"]:
                    if entry.get("type") == "action":
                        told.setdefault(entry["seq"], entry)
        assert told and max(told) == len(actions)
        for seq, entry in told.items():  # what anyone was told is what the record holds
            recorded = actions[seq - 1]
            assert (recorded["seat"], recorded["type"]) == (entry["seat"], entry["action"]["type"])  # type: ignore[index]
        summary = httpx.get(f"{b.url}/api/games/{game['game']}").json()
        assert summary["seq"] == len(actions) and summary["status"] == "over"
        for client in clients.values():
            await client.close()
    finally:
        one.stop()
        two.stop()


async def test_a_seat_given_by_the_lobby_on_one_server_counts_on_the_other(tmp_path: Path) -> None:
    db = fresh_postgres_database()
    one, two = ServerProcess(db, tmp_path), ServerProcess(db, tmp_path)
    a, b = one.start(), two.start()
    try:
        game = a.create(["human", "human"], open=True)
        old = next(s["token"] for s in game["seats"] if s["seat"] == 1)
        early = await Client.connect(b, game["game"], None)  # server b holds the game too
        await early.wait(lambda f: f.get("type") == "state")
        taken = httpx.post(f"{a.url}/api/games/{game['game']}/seats/1", json={"name": "Bo"})
        assert taken.status_code == 201
        told = await early.wait(lambda f: f.get("type") == "presence" and f["names"][1])
        assert told["names"] == [None, "Bo"]  # the name given on server a, heard on b
        stale = await Client.connect(b, game["game"], old)
        await stale.wait(lambda f: f.get("type") == "error" and f["code"] == "bad_token")
        fresh = await Client.connect(b, game["game"], taken.json()["token"])
        assert (await fresh.wait(lambda f: f.get("type") == "state"))["you"] == 1
        for client in (early, stale, fresh):
            await client.close()
    finally:
        one.stop()
        two.stop()


async def test_a_name_given_on_one_server_reaches_the_clients_of_the_other(
    tmp_path: Path,
) -> None:
    db = fresh_postgres_database()
    one, two = ServerProcess(db, tmp_path), ServerProcess(db, tmp_path)
    a, b = one.start(), two.start()
    try:
        game = a.create(["human", "human"])
        token = {s["seat"]: s["token"] for s in game["seats"]}
        there = await Client.connect(b, game["game"], token[0])  # seat 0 on server b
        watcher = await Client.connect(b, game["game"], None)
        here = await Client.connect(a, game["game"], token[1])  # seat 1 on server a
        for client in (there, watcher, here):
            await client.wait(lambda f: f.get("type") == "state")
        await here.send({"type": "name", "name": "Ada"})
        for client in (there, watcher):
            told = await client.wait(lambda f: f.get("type") == "presence" and f["names"][1])
            assert told["names"] == [None, "Ada"]
        summary = httpx.get(f"{b.url}/api/games/{game['game']}").json()
        assert [s["name"] for s in summary["seats"]] == [None, "Ada"]
        for client in (there, watcher, here):
            await client.close()
    finally:
        one.stop()
        two.stop()


async def test_a_rematch_made_on_one_server_reaches_the_clients_of_the_other(
    tmp_path: Path,
) -> None:
    """The rematch frame goes to every client of the finished game (docs/formats/index.md),
    those connected to another server too: its spectators had no other way to hear of the next
    game, and one connecting there later was told of none while that server held the game."""
    db = fresh_postgres_database()
    one, two = ServerProcess(db, tmp_path), ServerProcess(db, tmp_path)
    a, b = one.start(), two.start()
    try:
        game = a.create(["human", "human"])
        where = {0: a, 1: b}
        clients = await play_game(where, game)  # to the end of the match
        watcher = await Client.connect(b, game["game"], None)  # server b holds the game
        await watcher.wait(lambda f: f.get("type") == "state")
        await clients[0].send({"type": "rematch"})  # asked on server a
        made = (await clients[0].wait(lambda f: f.get("type") == "rematch"))["game"]
        for client in (clients[1], watcher):  # the clients of server b hear of it
            told = await client.wait(lambda f: f.get("type") == "rematch")
            assert told["game"] == made
        late = await Client.connect(b, game["game"], None)
        heard = await late.wait(lambda f: f.get("type") == "rematch")
        assert heard["game"] == made
        for client in (*clients.values(), watcher, late):
            await client.close()
    finally:
        one.stop()
        two.stop()


def seats_connected(frame: dict[str, Any]) -> list[bool] | None:
    """Who a `state` or `presence` frame says is connected (None for other frames)."""
    if frame.get("type") == "presence":
        return list(frame["connected"])
    if frame.get("type") == "state":
        return [seat["connected"] for seat in frame["seats"]]
    return None


async def test_who_is_connected_is_shared_between_the_servers(tmp_path: Path) -> None:
    """Seat 0 on server a, seat 1 on server b: every client, on either server, hears that both
    are connected (a person on the other server showed as offline), and so does one connecting
    later, and the game's summary on either server."""
    db = fresh_postgres_database()
    one, two = ServerProcess(db, tmp_path), ServerProcess(db, tmp_path)
    one.launch()
    two.launch()
    a, b = one.wait_up(), two.wait_up()
    try:
        game = a.create(["human", "human"])
        token = {s["seat"]: s["token"] for s in game["seats"]}
        here = await Client.connect(a, game["game"], token[0])
        there = await Client.connect(b, game["game"], token[1])
        both = [True, True]
        for client in (here, there):
            await client.wait(lambda f: seats_connected(f) == both)
        late = await Client.connect(a, game["game"], None)  # a watcher on server a
        await late.wait(lambda f: seats_connected(f) == both)
        for server in (a, b):
            summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
            assert [s["connected"] for s in summary["seats"]] == both
        for client in (here, there, late):
            await client.close()
    finally:
        one.stop()
        two.stop()


async def test_a_seat_leaving_another_server_is_heard_at_once(tmp_path: Path) -> None:
    """Seat 1's person closes their connection to server b: server a's clients hear it at once,
    long before b's word would run out (its heartbeat here is two minutes, so its word would
    hold six)."""
    db = fresh_postgres_database()
    one = ServerProcess(db, tmp_path, heartbeat=120)
    two = ServerProcess(db, tmp_path, heartbeat=120)
    one.launch()
    two.launch()
    a, b = one.wait_up(), two.wait_up()
    try:
        game = a.create(["human", "human"])
        token = {s["seat"]: s["token"] for s in game["seats"]}
        here = await Client.connect(a, game["game"], token[0])
        there = await Client.connect(b, game["game"], token[1])
        await here.wait(lambda f: seats_connected(f) == [True, True])
        after = len(here.frames)
        await there.close()
        await here.wait(lambda f: seats_connected(f) == [True, False], after=after)
        again = await Client.connect(b, game["game"], token[1])  # and back
        await here.wait(lambda f: seats_connected(f) == [True, True], after=after)
        for client in (here, again):
            await client.close()
    finally:
        one.stop()
        two.stop()


async def test_a_killed_server_s_seats_are_forgotten_when_its_word_runs_out(
    tmp_path: Path,
) -> None:
    """Server b is killed (SIGKILL: it says nothing more): once three of its heartbeats pass
    without word from it, server a's clients hear that seat 1, which was connected to b, is
    not connected any more, and a's summary says so."""
    db = fresh_postgres_database()
    one = ServerProcess(db, tmp_path, heartbeat=1.0)
    two = ServerProcess(db, tmp_path, heartbeat=1.0)
    one.launch()
    two.launch()
    a, b = one.wait_up(), two.wait_up()
    try:
        game = a.create(["human", "human", "human"])
        token = {s["seat"]: s["token"] for s in game["seats"]}
        here = await Client.connect(a, game["game"], token[0])
        watcher = await Client.connect(a, game["game"], None)
        there = await Client.connect(b, game["game"], token[1])
        for client in (here, watcher):
            await client.wait(lambda f: seats_connected(f) == [True, True, False])
        marks = [(client, len(client.frames)) for client in (here, watcher)]
        two.kill()
        for client, after in marks:
            await client.wait(lambda f: seats_connected(f) == [True, False, False], after=after)
        summary = httpx.get(f"{a.url}/api/games/{game['game']}").json()
        assert [s["connected"] for s in summary["seats"]] == [True, False, False]
        for client in (here, watcher, there):
            await client.close()
    finally:
        one.stop()
        two.stop()
