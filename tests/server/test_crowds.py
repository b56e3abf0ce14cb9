"""Crowds at one game (issue 23): spectators have their own places, per game and per address,
so no crowd of watchers (the game's id is in every watch link) keeps its players out; a seat
always gets in, its oldest connections giving way; and one address holds a bounded number of
connections over all games. Many addresses come from one machine through a trusted proxy's
`X-Forwarded-For`, as they would through nginx."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from exact61.server.app import Limits
from exact61.server.rooms import MAX_SEAT_CONNECTIONS, MAX_SPECTATORS
from exact61.server.run import Connections
from tests.server.kit import Client, Server, database_url, server_in_thread
from tests.server.test_protocol import tokens

pytestmark = pytest.mark.server

MAX_SPECTATORS_PER_ADDRESS = Limits().spectators_per_address  # exact61 serve's default

PER_ADDRESS = 60  # WebSocket connections one address may hold in these tests


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("crowds")
    limits = Limits(
        rate=1e6,
        burst=1e6,
        games_per_minute=1e6,
        sockets_per_address=PER_ADDRESS,
        states_per_minute=1e6,  # the retries below are about the connection cap, not this bound
    )
    trusted = Connections(forwarded_allow_ips=("127.0.0.1",))
    with server_in_thread(
        database_url("sqlite", folder), folder, limits=limits, connections=trusted
    ) as running:
        yield running


async def watch(server: Server, game: str, address: str) -> Client:
    return await Client.connect(server, game, None, headers={"x-forwarded-for": address})


async def closes(client: Client, seconds: float = 5) -> bool:
    """Whether the server closes the client's connection within `seconds`."""
    for _ in range(int(seconds / 0.05)):
        if client.closed:
            return True
        await asyncio.sleep(0.05)
    return client.closed


async def first_answer(client: Client) -> dict[str, object]:
    """The first `state` or `error` the client got."""
    return await client.wait(lambda f: f.get("type") in ("state", "error"))


async def test_a_crowd_of_spectators_never_keeps_the_players_out(server: Server) -> None:
    """The game's spectator places fill from many addresses, each address its share; past
    either cap a spectator is told `full` and the connection closes. Both players still get
    in, act, and every spectator sees their move."""
    game = server.create(["human", "human"])
    game_id, seats = game["game"], tokens(game)
    addresses = [f"203.0.113.{i}" for i in range(MAX_SPECTATORS // MAX_SPECTATORS_PER_ADDRESS)]
    crowd = [await watch(server, game_id, a) for a in addresses for _ in range(4)]
    assert len(crowd) == MAX_SPECTATORS
    for client in crowd:
        assert (await first_answer(client))["type"] == "state"
    late = await watch(server, game_id, "198.51.100.7")  # a new address, but no place left
    answer = await first_answer(late)
    assert answer["code"] == "full" and str(MAX_SPECTATORS) in str(answer["message"])
    assert await closes(late)
    await crowd[0].close()  # a place frees: still not a fifth for the same address
    again = [
        await watch(server, game_id, addresses[1]),
        await watch(server, game_id, "198.51.100.8"),
    ]
    refused, taken = [await first_answer(c) for c in again]
    assert refused["code"] == "full" and "one address" in str(refused["message"])
    assert taken["type"] == "state"
    players = {s: await Client.connect(server, game_id, t) for s, t in seats.items()}
    for client in players.values():
        assert (await first_answer(client))["type"] == "state"
    state = players[0].state
    mover = players[state["to_act"]]
    await mover.send({"type": "act", "seq": state["seq"], "action": mover.state["legal"][0]})
    for client in [*crowd[1:], again[1], *players.values()]:
        await client.wait_seq(1)
    for client in [*crowd[1:], *again, late, *players.values()]:
        await client.close()


async def test_a_seat_always_gets_in_and_its_oldest_connection_gives_way(server: Server) -> None:
    """A seat's connections past its cap push out its oldest, which is told `replaced` before
    it closes; the newest plays on."""
    game = server.create(["human", "human"])
    game_id, seats = game["game"], tokens(game)
    tabs = [await Client.connect(server, game_id, seats[0]) for _ in range(MAX_SEAT_CONNECTIONS)]
    for tab in tabs:
        assert (await first_answer(tab))["type"] == "state"
    newest = await Client.connect(server, game_id, seats[0])
    assert (await first_answer(newest))["type"] == "state"
    told = await tabs[0].wait(lambda f: f.get("type") == "error")
    assert told["code"] == "replaced"
    assert await closes(tabs[0])
    assert not any(t.closed for t in tabs[1:]) and not newest.closed
    other = await Client.connect(server, game_id, seats[1])
    await first_answer(other)
    state = newest.state
    mover = newest if state["to_act"] == 0 else other
    await mover.send({"type": "act", "seq": state["seq"], "action": mover.state["legal"][0]})
    await newest.wait_seq(1)
    for client in [*tabs[1:], newest, other]:
        await client.close()


async def test_one_address_holds_a_bounded_number_of_connections(server: Server) -> None:
    """Over all games: past the cap a connection is told `too_many` and closed; once one of its
    connections ends, the address may connect again."""
    games = [server.create(["human", "human"])["game"] for _ in range(PER_ADDRESS // 4 + 1)]
    address = "192.0.2.44"
    held = [await watch(server, games[i // 4], address) for i in range(PER_ADDRESS)]
    for client in held:
        assert (await first_answer(client))["type"] == "state"
    headers = {"x-forwarded-for": address}
    async with websockets.connect(server.ws(games[-1]), additional_headers=headers) as over:
        answer = json.loads(await over.recv())  # told before a hello is read
        assert answer["type"] == "error" and answer["code"] == "too_many"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await over.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    await held[0].close()
    retry: Client | None = None
    for _ in range(100):  # the server counts the close as soon as it sees it
        # Until it has, the server may close a retry before its hello is even sent.
        with contextlib.suppress(websockets.ConnectionClosed, AssertionError):
            retry = await watch(server, games[-1], address)
            if (await first_answer(retry))["type"] == "state":
                break
        if retry is not None:
            await retry.close()
            retry = None
        await asyncio.sleep(0.05)
    if retry is None:
        raise AssertionError("the address could not connect again")
    for client in [*held[1:], retry]:
        await client.close()


async def test_a_club_behind_one_address_may_be_given_more_spectators(tmp_path: Path) -> None:
    """`--spectators-per-address` (a club's room behind one address): six watch from one
    address where four would be the default, and the seventh is told the limit it passed."""
    limits = Limits(states_per_minute=1e6, spectators_per_address=6)
    trusted = Connections(forwarded_allow_ips=("127.0.0.1",))
    with server_in_thread(
        database_url("sqlite", tmp_path), tmp_path, limits=limits, connections=trusted
    ) as club:
        game_id = club.create(["human", "human"])["game"]
        room = [await watch(club, game_id, "192.0.2.61") for _ in range(6)]
        for client in room:
            assert (await first_answer(client))["type"] == "state"
        seventh = await watch(club, game_id, "192.0.2.61")
        answer = await first_answer(seventh)
        assert answer["code"] == "full" and "at most 6 spectators" in str(answer["message"])
        for client in [*room, seventh]:
            await client.close()
