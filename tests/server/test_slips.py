"""Slips of the online protocol at a real server: the first action of a game missing from `last`,
a hint asked once the match is over, and a `hello` that wrote to the database though it changed
nothing there."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from tests.server.kit import Client, Server, database_url, play_game, server_in_thread
from tests.server.test_protocol import play_some, tokens

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("slips")
    with server_in_thread(database_url("sqlite", folder), folder) as running:
        yield running


def action_seqs(state: dict[str, Any]) -> list[int]:
    """The seq of each `action` entry in a state's `last`, in order."""
    return [e["seq"] for e in state["last"] if e["type"] == "action"]


async def test_clients_that_joined_at_seq_0_are_told_the_first_action(server: Server) -> None:
    """online-protocol.md, `WebSocket /ws/games/{game}`: `last` holds "the actions and events
    since the previous state". A client that said hello at seq 0, with no `since` or with
    `since: 0` (as the web page does), has seen no action, so the state after the first action
    carries that action; so does a hello with `since: 0` made later, followed by every other
    action. A first hello without `since` gets an empty `last` (the state says it all)."""
    game = server.create(["human", "human"])
    seats = tokens(game)
    clients = {
        0: await Client.connect(server, game["game"], seats[0]),
        1: await Client.connect(server, game["game"], seats[1], since=0),
    }
    watcher = await Client.connect(server, game["game"], None)
    for client in (*clients.values(), watcher):
        first = await client.wait(lambda f: f.get("type") == "state")
        assert (first["seq"], first["last"]) == (0, [])
    mover = clients[0].state["to_act"]
    played = (await play_some(clients, 3))["seq"]  # and the draws R10 forced, if any
    for client in (*clients.values(), watcher):
        await client.wait_seq(played)
        after_first = await client.wait_seq(1)
        assert after_first["seq"] == 1 and action_seqs(after_first) == [1]
        assert next(e for e in after_first["last"] if e["type"] == "action")["seat"] == mover
        assert [action_seqs(s) for s in client.states] == [[]] + [
            [seq] for seq in range(1, played + 1)
        ]
    late = await Client.connect(server, game["game"], seats[1], since=0)
    resumed = await late.wait(lambda f: f.get("type") == "state")
    assert resumed["seq"] == played and action_seqs(resumed) == list(range(1, played + 1))
    cold = await Client.connect(server, game["game"], None)  # no `since`: no log
    assert (await cold.wait(lambda f: f.get("type") == "state"))["last"] == []
    for client in (*clients.values(), watcher, late, cold):
        await client.close()


async def test_a_hint_after_the_match_is_over_says_so(server: Server) -> None:
    """docs/formats/index.md, the online protocol's extensions: a hint is the strongest bot's
    move for the seat to act. Once the match is over (R30) nobody is to act: the answer is the
    `error` frame that an `act` then gets, code `over`, never a turn of "seat None"."""
    game = server.create(["human", "human"])
    clients = await play_game(server, game)
    for seat, client in clients.items():
        final = await client.wait(lambda f: f.get("type") == "state" and f["status"] == "over")
        assert final["to_act"] is None and final["winner"] is not None
        before = len(client.frames)
        await client.send({"type": "hint", "seq": final["seq"]})
        answer = await client.wait(lambda f: f.get("type") in ("hint", "error"), after=before)
        assert answer == {"type": "error", "code": "over", "message": "the match is over (R30)"}
        before = len(client.frames)
        await client.send({"type": "act", "seq": final["seq"], "action": {"type": "pass"}})
        refused = await client.wait(lambda f: f.get("type") == "error", after=before)
        assert refused == answer, seat  # the same refusal as an action's
    for client in clients.values():
        await client.close()


@contextlib.contextmanager
def writes_to(engine: sa.Engine) -> Iterator[list[str]]:
    """Every INSERT, UPDATE or DELETE the engine sends while the block runs (from any thread:
    the store writes in its own), as SQL text."""
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


async def test_a_hello_that_changes_nothing_writes_nothing(server: Server) -> None:
    """docs/formats/index.md, the lobby: it gives away only a seat "nobody has used yet", so
    the first connection with a seat's token is stored (one UPDATE of that seat's row). Any
    other hello, whether again with that token, with a token already used, a spectator's, or
    a second hello on the same connection, changes nothing in the database and so sends it
    no INSERT, UPDATE or DELETE. Counted on the engine itself, around each hello until its
    `state` frame arrives: the server writes what a hello writes before it answers."""
    assert server.store is not None
    game = server.create(["human", "human"], open=True, mine=0)
    game_id, seats = game["game"], tokens(game)

    def free_in_lobby() -> list[int]:
        lobby = httpx.get(f"{server.url}/api/games").json()["games"]
        return [seat for g in lobby if g["game"] == game_id for seat in g["free"]]

    assert free_in_lobby() == [1]
    with writes_to(server.store.engine) as writes:
        first = await Client.connect(server, game_id, seats[1])
        await first.wait(lambda f: f.get("type") == "state")
        assert len(writes) == 1 and writes[0].lstrip().startswith("UPDATE seat_tokens")
        assert free_in_lobby() == []  # that first connection was stored
        writes.clear()
        again = await Client.connect(server, game_id, seats[1])
        maker = await Client.connect(server, game_id, seats[0])
        watcher = await Client.connect(server, game_id, None)
        for client in (again, maker, watcher):
            await client.wait(lambda f: f.get("type") == "state")
        before = len(again.frames)
        await again.send({"type": "hello", "token": seats[1], "since": 0})
        await again.wait(lambda f: f.get("type") == "state", after=before)
        assert writes == []
    for client in (first, again, maker, watcher):
        await client.close()
