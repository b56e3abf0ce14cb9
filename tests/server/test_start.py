"""A server starts without rebuilding any stored game (issue 23): each game is rebuilt when
first asked for, so a start costs the same however many games the database holds, and a game
whose bot was to act when the last server stopped goes on once somebody connects."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.server.kit import Client, database_url, server_in_thread
from tests.server.test_protocol import tokens

pytestmark = pytest.mark.server


async def test_a_start_rebuilds_no_game_and_the_first_connection_does(tmp_path: Path) -> None:
    db = database_url("sqlite", tmp_path)
    # bots (and forced actions) wait a minute here, so that a bot is to act when it stops
    with server_in_thread(db, tmp_path, bot_delay=60, forced_delay=60) as server:
        game = server.create(["human", "bot:greedy"])
        person = await Client.connect(server, game["game"], tokens(game)[0])
        state = await person.wait(lambda f: f.get("type") == "state")
        if state["to_act"] == 0:  # the person opens: then the bot is to act
            await person.send({"type": "act", "seq": state["seq"], "action": state["legal"][0]})
            state = await person.wait_seq(state["seq"] + 1)
        await person.close()
        seq = state["seq"]
        assert state["to_act"] == 1, "the bot is to act as the server stops"
    with server_in_thread(db, tmp_path) as server:
        assert server.hub is not None and server.hub.rooms == {}  # started: nothing rebuilt
        summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
        assert summary["seq"] == seq
        person = await Client.connect(server, game["game"], tokens(game)[0])
        moved = await person.wait(lambda f: f.get("type") == "state" and f["seq"] > seq)
        assert game["game"] in server.hub.rooms  # rebuilt when asked for, and its bot moved on
        assert moved["seq"] > seq
        await person.close()
