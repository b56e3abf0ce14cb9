"""Rematch (issue 23): once a match is over, a seat asks for the next game; it is made once,
with the same seats, names and language and a new seed, and every seat's token is the same, so
each person's link works for the next game; everyone in the old game, spectators too, is told
its id, and so is anyone who connects to the old game later."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.server.kit import Client, database_url, play_game, server_in_thread
from tests.server.test_protocol import tokens

pytestmark = pytest.mark.server


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_rematch_keeps_the_seats_names_and_links(kind: str, tmp_path: Path) -> None:
    with server_in_thread(database_url(kind, tmp_path), tmp_path) as server:
        game = server.create(["human", "bot:greedy", "human"], names=["Ana", None, "Bo"], lang="de")
        watcher = await Client.connect(server, game["game"], None)
        await watcher.wait(lambda f: f.get("type") == "state")
        clients = await play_game(server, game, stop_after=3)
        await clients[0].send({"type": "rematch"})
        early = await clients[0].wait(lambda f: f.get("type") == "error")
        assert early["code"] == "playing"  # not before the match is over (R30)
        await watcher.send({"type": "rematch"})
        refused = await watcher.wait(lambda f: f.get("type") == "error")
        assert refused["code"] == "not_your_turn"  # a spectator asks for nothing
        await play_game(server, game, clients=clients)
        for seat in (0, 2):  # both ask, the second before the first's answer is heard
            await clients[seat].send({"type": "rematch"})
        told = {
            id(c): (await c.wait(lambda f: f.get("type") == "rematch"))["game"]
            for c in (*clients.values(), watcher)
        }
        (new,) = set(told.values())  # one next game, the same for everyone
        assert new != game["game"]
        summary = httpx.get(f"{server.url}/api/games/{new}").json()
        assert summary["seq"] >= 0 and summary["status"] == "playing"
        assert summary["lang"] == "de" and summary["open"] is False
        assert [(s["kind"], s["name"]) for s in summary["seats"]] == [
            ("human", "Ana"),
            ("bot:greedy", None),
            ("human", "Bo"),
        ]
        dealt = httpx.get(f"{server.url}/api/games/{game['game']}/record").json()["rounds"][0]
        for seat, token in tokens(game).items():  # the old links' tokens open the new game
            person = await Client.connect(server, new, token)
            state = await person.wait(lambda f: f.get("type") == "state")
            assert state["you"] == seat and "hand" in state
            # a new seed: the next game's first deal is not the old one's (the same seed
            # would deal the same hands; another deals them alike once in over a million)
            assert sorted(map(tuple, state["hand"])) != sorted(map(tuple, dealt["hands"][seat]))
            await person.close()
        late = await Client.connect(server, game["game"], None)
        heard = await late.wait(lambda f: f.get("type") == "rematch")
        assert heard["game"] == new
        for client in (*clients.values(), watcher, late):
            await client.close()
