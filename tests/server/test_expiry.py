"""Games nobody moves in are closed for good (issue 23: abandoned games never expired): after
`expire_after` seconds without a move a game is `expired`, its connections are told so and
closed, it leaves the lobby, refuses new connections and seats, and its record can be had; a
game being played is never closed."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import httpx
import pytest

from exact61 import replay
from exact61.server.hub import Hub
from exact61.server.store import Database
from exact61.server.thinkers import Thinkers
from tests.server.kit import Client, database_url, server_in_thread
from tests.server.test_protocol import tokens

pytestmark = pytest.mark.server

EXPIRE = 1.5  # seconds without a move here


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_game_nobody_moves_in_expires_and_one_in_play_does_not(
    kind: str, tmp_path: Path
) -> None:
    with server_in_thread(database_url(kind, tmp_path), tmp_path, expire_after=EXPIRE) as server:
        left = server.create(["human", "human"], open=True, mine=0)
        played = server.create(["human", "human"])
        lobby = httpx.get(f"{server.url}/api/games").json()["games"]
        assert [g["game"] for g in lobby] == [left["game"]]
        watcher = await Client.connect(server, left["game"], None)
        await watcher.wait(lambda f: f.get("type") == "state")
        players = {
            s: await Client.connect(server, played["game"], t) for s, t in tokens(played).items()
        }
        for client in players.values():
            await client.wait(lambda f: f.get("type") == "state")
        # keep one game moving, a move every half second, while the other waits
        for _ in range(int(3 * EXPIRE / 0.5)):
            state = max((c.state for c in players.values()), key=lambda s: s["seq"])
            if state["status"] != "playing":
                break
            mover = players[state["to_act"]]
            await mover.wait_seq(state["seq"])
            act = {"type": "act", "seq": state["seq"], "action": mover.state["legal"][0]}
            await mover.send(act)
            await asyncio.sleep(0.5)
        told = await watcher.wait(lambda f: f.get("type") == "error", timeout=10)
        assert told["code"] == "expired"
        for _ in range(100):
            if watcher.closed:
                break
            await asyncio.sleep(0.05)
        assert watcher.closed
        assert not any(c.closed for c in players.values())  # the game in play goes on
        summary = httpx.get(f"{server.url}/api/games/{left['game']}").json()
        assert summary["status"] == "expired"
        assert httpx.get(f"{server.url}/api/games/{played['game']}").json()["status"] == "playing"
        assert httpx.get(f"{server.url}/api/games").json()["games"] == []  # left the lobby
        seat = httpx.post(f"{server.url}/api/games/{left['game']}/seats/1")
        assert seat.status_code == 409 and seat.json()["error"] == "expired"
        late = await Client.connect(server, left["game"], tokens(left)[0])
        refused = await late.wait(lambda f: f.get("type") in ("state", "error"))
        assert refused["code"] == "expired"
        record = httpx.get(f"{server.url}/api/games/{left['game']}/record")
        assert record.status_code == 200
        replay(record.json())  # it verifies
        for client in [*players.values(), watcher, late]:
            await client.close()


@pytest.mark.parametrize("days", [1e6, 1e300, math.inf])
async def test_a_time_longer_than_dates_reach_closes_no_game(days: float, tmp_path: Path) -> None:
    """`serve --expire-after 1000000` (or inf, for "never") was taken, and a minute later the
    sweep that closes old games failed on a date before the year 1, and with it the letting go
    of idle rooms, for as long as the server ran: no game is that old, so none is closed."""
    store = Database.open(database_url("sqlite", tmp_path), tmp_path)
    hub = Hub(store, Thinkers(None))
    try:
        made, _tokens = await hub.create(2, ["human", "human"], "en")
        assert await hub.expire_untouched(days * 86_400) == 0
        assert not made.expired
    finally:
        await store.close()
