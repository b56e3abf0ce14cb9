"""The online protocol's rules at a real server: reconnecting, stale and repeated actions, two
clients on one seat, wrong tokens, malformed and oversized frames, rate and idle limits, a client
that stops reading, bad HTTP bodies, the lobby, tokens kept out of logs, and bots thinking off
the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import socket
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exact61 import replay
from exact61.server.app import Limits
from exact61.server.connection import RESYNC_BURST
from exact61.server.quota import Listings
from tests.server.kit import Client, Server, database_url, play_game, server_in_thread

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("server")
    with server_in_thread(database_url("sqlite", folder), folder) as running:
        yield running


def tokens(game: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in game["seats"] if "token" in s}


async def two_people(server: Server) -> tuple[dict[str, Any], dict[int, Client]]:
    game = server.create(["human", "human"])
    clients = {s: await Client.connect(server, game["game"], t) for s, t in tokens(game).items()}
    for client in clients.values():
        await client.wait(lambda f: f.get("type") == "state")
    return game, clients


async def act(client: Client, state: dict[str, Any], k: int = 0) -> None:
    await client.send({"type": "act", "seq": state["seq"], "action": state["legal"][k]})


async def error(client: Client, code: str) -> dict[str, Any]:
    return await client.wait(lambda f: f.get("type") == "error" and f["code"] == code)


async def choosing(client: Client, seq: int) -> dict[str, Any]:
    """The first state from `seq` on in which the seat to act chooses: the server plays the
    forced draws and passes (R10) before it."""
    return await client.wait(
        lambda f: f.get("type") == "state" and f["seq"] >= seq and f["forced"] is None
    )


async def play_some(clients: dict[int, Client], moves: int) -> dict[str, Any]:
    """Play `moves` chosen actions (first legal each time; the forced ones are the server's);
    return the last state, in which a person is to choose."""
    any_client = next(iter(clients.values()))
    state = await choosing(any_client, any_client.state["seq"])
    for _ in range(moves):
        seat = state["to_act"]
        mine = await clients[seat].wait_seq(state["seq"])
        await act(clients[seat], mine)
        state = await choosing(any_client, state["seq"] + 1)
    return state


async def test_reconnect_with_since_gets_what_it_missed(server: Server) -> None:
    game, clients = await two_people(server)
    await play_some(clients, 3)
    gone = clients[1]
    seen = (await gone.wait_seq(3))["seq"]
    await gone.close()
    state = await play_some(
        {0: clients[0], 1: await Client.connect(server, game["game"], tokens(game)[1])}, 4
    )
    back = await Client.connect(server, game["game"], tokens(game)[1], since=seen)
    resumed = await back.wait(lambda f: f.get("type") == "state")
    assert resumed["seq"] == state["seq"] and resumed["you"] == 1
    missed = sorted({e["seq"] for e in resumed["last"] if e.get("type") == "action"})
    assert missed == list(range(seen + 1, state["seq"] + 1))


async def test_the_last_state_shows_what_each_seat_and_the_boneyard_hold(server: Server) -> None:
    """Once the match is over the table still shows every seat's tile count and the boneyard
    as the last round left them (they read 0 before: issue 24)."""
    game = server.create(["human", "bot:greedy"], lang="pl")
    clients = await play_game(server, game)
    final = clients[0].state
    assert final["winner"] is not None and final["status"] == "over"
    record = httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
    last = record["rounds"][-1]
    draws = sum(a["type"] == "draw" for a in last["actions"])
    assert final["boneyard"] == len(last["boneyard"]) - draws
    plays = [sum(a["type"] == "play" and a["seat"] == s for a in last["actions"]) for s in (0, 1)]
    held = [len(last["hands"][s]) + sum(a["type"] == "draw" and a["seat"] == s for a in
            last["actions"]) - plays[s] for s in (0, 1)]  # fmt: skip
    assert final["hand_sizes"] == held and sum(held) > 0
    for client in clients.values():
        await client.close()


async def test_stale_and_repeated_actions_change_nothing(server: Server) -> None:
    game, clients = await two_people(server)
    state = clients[0].state
    seat = state["to_act"]
    mover = clients[seat]
    mine = await mover.wait_seq(state["seq"])
    await act(mover, mine)
    await act(mover, mine)  # the same act twice: the second is stale
    await error(mover, "stale")
    after = await choosing(mover, state["seq"] + 1)  # after the draws R10 forces, if any
    summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
    assert summary["seq"] == after["seq"]
    told = [e for f in mover.states for e in f["last"] if e["type"] == "action"]
    assert [e["seq"] for e in told if e["seat"] == seat] == [state["seq"] + 1]  # applied once
    assert all(e["action"]["type"] != "play" for e in told if e["seat"] != seat)


async def test_two_clients_on_one_seat_both_hear_and_one_act_counts(server: Server) -> None:
    game, clients = await two_people(server)
    seat = clients[0].state["to_act"]
    twin = await Client.connect(server, game["game"], tokens(game)[seat])
    state = await twin.wait(lambda f: f.get("type") == "state")
    await act(clients[seat], state)
    await act(twin, state)  # the twin acts on the same state: too late
    await error(twin, "stale")
    for client in (clients[seat], twin):
        assert (await client.wait_seq(state["seq"] + 1))["seq"] == state["seq"] + 1
    after = await choosing(twin, state["seq"] + 1)  # after the draws R10 forces, if any
    assert httpx.get(f"{server.url}/api/games/{game['game']}").json()["seq"] == after["seq"]
    told = [e for f in twin.states for e in f["last"] if e["type"] == "action"]
    assert [e["seq"] for e in told if e["seat"] == seat] == [state["seq"] + 1]  # one counts


async def test_wrong_tokens_turns_and_actions_are_refused(server: Server) -> None:
    game, clients = await two_people(server)
    other, _ = await two_people(server)
    for token in ("not-a-token", tokens(other)[0]):  # made up, or another game's
        stranger = await Client.connect(server, game["game"], token)
        await error(stranger, "bad_token")
    state = clients[0].state
    idle = 1 - state["to_act"]
    await clients[idle].send({"type": "act", "seq": state["seq"], "action": {"type": "pass"}})
    await error(clients[idle], "not_your_turn")
    mover = clients[state["to_act"]]
    await mover.send(
        {
            "type": "act",
            "seq": state["seq"],
            "action": {"type": "play", "tile": [0, 0], "at": [[6, 6], "armA"]},
        }
    )
    assert "R" in (await error(mover, "illegal"))["message"]  # names the rule
    watcher = await Client.connect(server, game["game"], None)
    watched = await watcher.wait(lambda f: f.get("type") == "state")
    assert watched["you"] is None and "hand" not in watched and "legal" not in watched
    await watcher.send({"type": "act", "seq": state["seq"], "action": {"type": "pass"}})
    await error(watcher, "not_your_turn")
    # a spectator saying hello again with a token that is for no seat is told so, as at first
    states = len(watcher.states)
    await watcher.send({"type": "hello", "token": "not-a-token", "since": state["seq"]})
    await error(watcher, "bad_token")
    assert len(watcher.states) == states
    assert httpx.get(f"{server.url}/api/games/{game['game']}").json()["seq"] == state["seq"]


frames = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
        ),
        max_leaves=20,
    ).map(json.dumps),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["act", "hello", "hint", "ping", "nonsense"]),
            "seq": st.integers(-5, 10**12) | st.text(max_size=5) | st.none(),
            "action": st.dictionaries(
                st.sampled_from(["type", "tile", "at"]),
                st.sampled_from(
                    ["play", "draw", "pass", [1, 2], [[6, 6], "armA"], [7, 9], None, 3]
                ),
            ),
            "token": st.text(max_size=10) | st.none(),
        }
    ).map(json.dumps),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(junk=st.lists(frames, min_size=1, max_size=6))
def test_malformed_frames_never_change_the_game_nor_stop_the_server(
    server: Server, junk: list[str]
) -> None:
    async def run() -> None:
        game, clients = await two_people(server)
        state = clients[0].state
        for text in junk:
            await clients[state["to_act"]].send(text)
        await clients[0].send({"type": "ping"})
        await clients[0].wait(lambda f: f.get("type") == "pong")
        summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
        assert summary["seq"] == state["seq"]  # nothing applied (no junk frame has the seq right)
        mover = clients[state["to_act"]]
        if not mover.closed:  # the server still plays a good frame
            await act(mover, await mover.wait_seq(state["seq"]))
            await mover.wait_seq(state["seq"] + 1)
        for client in clients.values():
            await client.close()

    asyncio.run(run())


async def test_oversized_frames_are_refused(server: Server) -> None:
    game, clients = await two_people(server)
    await clients[0].send(json.dumps({"type": "ping", "pad": "x" * 20_000}))
    assert "at most" in (await error(clients[0], "bad_message"))["message"]
    await clients[0].send("y" * 200_000)  # past the transport's cap: the connection is closed
    with pytest.raises(AssertionError, match="closed"):
        await clients[0].wait(lambda f: False, timeout=10)
    summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
    assert summary["seq"] == 0 and summary["status"] == "playing"


async def test_rate_and_idle_limits(tmp_path: Path) -> None:
    limits = Limits(rate=1, burst=3, hello_seconds=0.5, idle_seconds=2, games_per_minute=2)
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path, limits=limits) as server:
        game, clients = await two_people(server)
        for _ in range(8):
            await clients[0].send({"type": "ping"})
        await error(clients[0], "rate_limited")
        silent = await Client.connect(server, game["game"], tokens(game)[1])
        await silent.wait(lambda f: f.get("type") == "state")
        with pytest.raises(AssertionError, match="closed"):  # idle past 2 s: closed
            await silent.wait(lambda f: False, timeout=10)
        raw = await websockets.connect(server.ws(game["game"]))  # never says hello
        await asyncio.wait_for(raw.wait_closed(), 10)
        server.create(["human", "human"])  # two games a minute, both at once: the third waits
        third = httpx.post(f"{server.url}/api/games", json={"players": 2, "seats": ["human"] * 2})
        assert third.status_code == 429 and third.json()["error"] == "rate_limited"
        # when to ask again (RFC 9110): two a minute, so the next token is under 30 s away
        assert 1 <= int(third.headers["Retry-After"]) <= 30


async def test_a_connection_asks_for_the_whole_state_again_only_so_often(tmp_path: Path) -> None:
    """A `hello` after the first sends the whole state again (from seq 0, the longest frame
    there is): a few at once, then one every two seconds (30 a minute); past that the client
    is told `rate_limited` and sent no state, while its other frames are still answered."""
    limits = Limits(rate=1e6, burst=1e6, games_per_minute=1e6, resyncs_per_minute=30)
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path, limits=limits) as server:
        game, clients = await two_people(server)
        client = clients[0]
        states = len(client.states)
        for _ in range(RESYNC_BURST + 2):
            await client.send({"type": "hello", "token": tokens(game)[0], "since": 0})
        await client.send({"type": "ping"})
        await client.wait(lambda f: f.get("type") == "pong")
        refused = [f for f in client.frames if f.get("code") == "rate_limited"]
        assert len(refused) == 2 and len(client.states) == states + RESYNC_BURST
        await asyncio.sleep(2.1)  # one more is due
        before = len(client.frames)
        await client.send({"type": "hello", "token": tokens(game)[0], "since": 0})
        await client.wait(lambda f: f.get("type") == "state", after=before)


async def test_hints_are_bounded_per_address(tmp_path: Path) -> None:
    """A hint is a search in the bots' processes: one address gets `hints_per_minute` (as many
    at once), over all its connections, then `rate_limited` and no search."""
    limits = Limits(rate=1e6, burst=1e6, games_per_minute=1e6, hints_per_minute=3)
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path, limits=limits) as server:
        _game, clients = await two_people(server)
        seat = clients[0].state["to_act"]
        mine = await clients[seat].wait_seq(clients[0].state["seq"])
        for _ in range(4):
            await clients[seat].send({"type": "hint", "seq": mine["seq"]})
        await clients[seat].send({"type": "ping"})
        await clients[seat].wait(lambda f: f.get("type") == "pong")
        await clients[seat].wait(lambda f: f.get("code") == "rate_limited")
        answered = [f for f in clients[seat].frames if f.get("type") == "hint"]
        refused = [f for f in clients[seat].frames if f.get("code") == "rate_limited"]
        assert len(answered) == 3 and len(refused) == 1
        other = clients[1 - seat]  # another connection from the same address: the same quota
        await other.send({"type": "hint", "seq": mine["seq"]})
        await other.wait(lambda f: f.get("code") == "rate_limited")


async def test_whole_states_are_bounded_per_address(tmp_path: Path) -> None:
    """Every hello is answered with the whole state, a connection's first too: one address
    gets `states_per_minute` of them (as many at once) over all its connections, so connecting,
    asking from seq 0 and closing in a loop is bounded as asking again on one connection is.
    Past it a first hello is told `rate_limited` and the connection closes; a later one gets
    `rate_limited` and no state, and the connection stays."""
    limits = Limits(rate=1e6, burst=1e6, games_per_minute=1e6, states_per_minute=4)
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path, limits=limits) as server:
        game, clients = await two_people(server)  # two states
        await clients[0].send({"type": "hello", "token": tokens(game)[0], "since": 0})
        await clients[0].wait(lambda f: f.get("type") == "state", after=len(clients[0].frames))
        watcher = await Client.connect(server, game["game"], None, since=0)  # the fourth
        await watcher.wait(lambda f: f.get("type") == "state")
        late = await Client.connect(server, game["game"], tokens(game)[1], since=0)
        assert (await error(late, "rate_limited"))["message"]
        assert not late.states
        for _ in range(100):
            if late.closed:
                break
            await asyncio.sleep(0.05)
        assert late.closed
        # this connection has asked no state again: the address's bound refuses it
        before = len(clients[1].states)
        await clients[1].send({"type": "hello", "token": tokens(game)[1], "since": 0})
        await error(clients[1], "rate_limited")
        await clients[1].send({"type": "ping"})
        await clients[1].wait(lambda f: f.get("type") == "pong")
        assert len(clients[1].states) == before


async def test_a_long_last_is_the_whole_log_at_every_seq(server: Server) -> None:
    """A hello from seq 0 late in a game gets every action in `last`, in order: the same for
    every connection that asks at one seq (it is made once), and the next action's after a
    move (what was made for the seq before is not sent again)."""
    game, clients = await two_people(server)
    state = await play_some(clients, 40)

    async def whole_log() -> list[dict[str, Any]]:
        client = await Client.connect(server, game["game"], tokens(game)[0], since=0)
        last = (await client.wait(lambda f: f.get("type") == "state"))["last"]
        await client.close()
        assert isinstance(last, list)
        return last

    first, second = await whole_log(), await whole_log()
    assert first == second
    seqs = [entry["seq"] for entry in first if entry["type"] == "action"]
    assert seqs == list(range(1, state["seq"] + 1))
    state = await play_some(clients, 1)
    seqs = [entry["seq"] for entry in await whole_log() if entry["type"] == "action"]
    assert seqs == list(range(1, state["seq"] + 1))


@pytest.mark.parametrize(
    "body, status",
    [
        ("not json", 422),
        ("[]", 422),
        ('{"players": 5, "seats": []}', 422),
        ('{"players": 2, "seats": ["human"]}', 422),
        ('{"players": 2, "seats": ["human", "robot"]}', 422),
        ('{"players": 2, "seats": ["human", "bot:nobody"]}', 422),
        ('{"players": 2, "seats": ["human", "bot:ismcts:0"]}', 422),
        ('{"players": "2", "seats": ["human", "human"]}', 422),
        ('{"players": 2, "seats": ["human", "human"], "lang": "xx"}', 422),
        ('{"players": 2, "seats": ["human", "human"], "name": "' + "n" * 200 + '"}', 422),
        ('{"players": 2, "seats": ["human", "human"], "name": "a\\u0000b"}', 422),
        ('{"players": 2, "seats": ["bot:greedy", "bot:random"]}', 422),  # nobody to play
        ('{"players": 2, "seats": ["human", "bot:ismcts:99999"]}', 422),  # past this server's cap
        ('{"players": 2, "seats": ["human", "bot:equity:99999"]}', 422),  # the expert's too
        ('{"players": 2, "seats": ["human", "bot:expert:99999"]}', 422),  # by its level
        ('{"players": 2, "seats": ["human", "bot:ismcts@5s"]}', 422),  # and a time budget
        ('{"players": 2, "seats": ["human", "bot:pimc:101"]}', 422),  # pimc's deals, fewer
        ('{"players": 2, "seats": ["human", "human"], "open": true, "mine": 3}', 422),
    ],
)
def test_bad_bodies_get_a_message_never_a_500(server: Server, body: str, status: int) -> None:
    answer = httpx.post(
        f"{server.url}/api/games", content=body, headers={"content-type": "application/json"}
    )
    assert answer.status_code == status, answer.text
    assert answer.json()["message"]


def test_a_server_caps_pimc_by_its_deals(server: Server) -> None:
    """pimc solves every deal it samples: a server takes a hundred deals a move (about a
    second at most, docs/bots.md), not the iterations' cap of the tree searches."""
    assert server.create(["human", "bot:pimc:100"])["game"]
    body = {"players": 2, "seats": ["human", "bot:pimc:5000"]}
    answer = httpx.post(f"{server.url}/api/games", json=body)
    assert answer.status_code == 422
    assert answer.json()["message"] == "this server gives a bot at most 100 deals a move"


def test_http_errors(server: Server) -> None:
    assert httpx.get(f"{server.url}/api/games/nosuchgame").status_code == 404
    assert httpx.get(f"{server.url}/api/games/nosuchgame/record").status_code == 404
    assert httpx.get(f"{server.url}/api/nothing-here").status_code == 404
    for odd in ("a%00b", "x" * 40, "semi;colon"):  # no game id looks like these: 404 at once
        assert httpx.get(f"{server.url}/api/games/{odd}").status_code == 404
    huge = httpx.post(f"{server.url}/api/games", content=b"{" + b" " * 100_000 + b"}")
    assert huge.status_code == 413
    game = server.create(["human", "bot:greedy"])
    assert httpx.get(f"{server.url}/api/games/{game['game']}/record").status_code == 409


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=12),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(["players", "seats", "lang", "open", "name", "x"]),
                inner,
                max_size=5,
            )
        ),
        max_leaves=15,
    )
)
def test_fuzzed_bodies_never_get_a_500(server: Server, body: Any) -> None:
    answer = httpx.post(f"{server.url}/api/games", json=body)
    assert answer.status_code in (201, 422), answer.text


def test_one_address_cannot_fill_the_lobby(tmp_path: Path) -> None:
    """The lobby lists the 50 newest open games, and one address could make 30 a minute: it
    pushed everyone else's off the list. An address may have 3 waiting (here 2) at once; a
    game whose seats are all taken, or an unlisted one, does not count."""
    limits = Limits(games_per_minute=1e6, open_games_per_address=2)
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path, limits=limits) as server:
        url = f"{server.url}/api/games"
        first, _second = (server.create(["human", "human"], open=True) for _ in range(2))
        third = httpx.post(url, json={"players": 2, "seats": ["human", "human"], "open": True})
        assert third.status_code == 429 and third.json()["error"] == "too_many_open", third.text
        assert server.create(["human", "human"])["game"]  # unlisted: as many as it likes
        listed = {g["game"] for g in httpx.get(url).json()["games"]}
        assert len(listed) == 2 and first["game"] in listed
        # someone takes the last free seat of the first: it leaves the lobby, one more may come
        assert httpx.post(f"{url}/{first['game']}/seats/1").status_code == 201
        assert server.create(["human", "human"], open=True)["game"]
        again = httpx.post(url, json={"players": 2, "seats": ["human", "human"], "open": True})
        assert again.status_code == 429


async def test_requests_at_once_from_one_address_do_not_pass_the_lobby_cap(
    tmp_path: Path,
) -> None:
    """Each request asked the store which of its address's games still wait, then made its
    game, then counted it: requests sent at once all asked before any was counted, and one
    address put as many open games in the lobby as it sent requests. A game is counted from
    the moment its making is allowed now."""
    limits = Limits(games_per_minute=1e6, open_games_per_address=2)
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path, limits=limits) as server:
        body = {"players": 2, "seats": ["human", "human"], "open": True}
        async with httpx.AsyncClient(base_url=server.url) as client:
            answers = await asyncio.gather(
                *(client.post("/api/games", json=body) for _ in range(8))
            )
        assert sorted(a.status_code for a in answers) == [201, 201] + [429] * 6
        assert len(httpx.get(f"{server.url}/api/games").json()["games"]) == 2


def test_a_game_being_made_counts_and_a_failed_one_frees_its_place() -> None:
    """`Listings` as two requests from one address interleave: the second is refused while
    the first's game is being made, a game listed after the store was asked stays counted, and
    a making that failed gives its place back."""
    listings = Listings(1)
    assert listings.reserve("a", [], set())  # the first: its game is being made
    assert not listings.reserve("a", [], set())  # the second, at once
    asked = listings.of("a")  # a third asks the store now: about no game yet
    listings.settle("a", "g1")
    assert not listings.reserve("a", asked, set())  # g1 was made since: it counts
    assert listings.reserve("a", listings.of("a"), set())  # g1 left the lobby: room again
    listings.settle("a", None)  # but that making failed
    assert listings.reserve("a", listings.of("a"), set())
    assert listings.reserve("b", [], set())  # another address has its own


async def test_the_lobby_lists_open_games_and_gives_free_seats(server: Server) -> None:
    game = server.create(["human", "human", "bot:greedy"], open=True, name="Friday game")
    private = server.create(["human", "human"])
    listed = {g["game"]: g for g in httpx.get(f"{server.url}/api/games").json()["games"]}
    assert game["game"] in listed and private["game"] not in listed
    # the maker's seat (the first person's, unless "mine" says) is not offered
    assert listed[game["game"]]["free"] == [1] and listed[game["game"]]["name"] == "Friday game"
    assert httpx.post(f"{server.url}/api/games/{game['game']}/seats/0").status_code == 409
    taken = httpx.post(f"{server.url}/api/games/{game['game']}/seats/1")
    assert taken.status_code == 201
    token = taken.json()["token"]
    again = httpx.post(f"{server.url}/api/games/{game['game']}/seats/1")
    assert again.status_code == 409
    assert (
        httpx.post(f"{server.url}/api/games/{game['game']}/seats/2").status_code == 422
    )  # a bot's
    assert httpx.post(f"{server.url}/api/games/{private['game']}/seats/0").status_code == 403
    joined = await Client.connect(server, game["game"], token)
    assert (await joined.wait(lambda f: f.get("type") == "state"))["you"] == 1
    old = await Client.connect(server, game["game"], tokens(game)[1])  # the replaced token
    await error(old, "bad_token")
    creator = await Client.connect(server, game["game"], tokens(game)[0])
    await creator.wait(lambda f: f.get("type") == "state")
    listed = {g["game"]: g for g in httpx.get(f"{server.url}/api/games").json()["games"]}
    assert game["game"] not in listed  # no free seat left


async def test_tokens_never_reach_the_logs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.INFO, logger="sqlalchemy.engine")  # every statement, with its values
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        game, clients = await two_people(server)
        await play_some(clients, 5)
        await Client.connect(server, game["game"], "a-wrong-token-to-log-maybe")
        httpx.post(f"{server.url}/api/games", content="{bad")
    # Everything the server side logged at any level (the test's own client logs what it sends)
    logged = "\n".join(
        r.getMessage() for r in caplog.records if not r.name.startswith("websockets.client")
    )
    assert "INSERT INTO seat_tokens" in logged  # even the database's statements are here
    assert all(t not in logged for t in tokens(game).values())
    assert "a-wrong-token-to-log-maybe" not in logged


async def test_a_bots_long_search_does_not_hold_up_other_games(tmp_path: Path) -> None:
    def pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))

    # A search of 8 s a move, by the clock on either engine: one of 100,000 iterations took the
    # native engine a few tenths of a second, less than a loaded machine took to play the
    # other game's moves.
    folder = tmp_path
    with server_in_thread(database_url("sqlite", folder), folder, bot_pool=pool) as server:
        assert server.hub is not None
        server.hub.max_seconds = 8.0  # this server lets a bot think that long
        # Only a real choice is searched (a forced draw is played at once), so take a game the
        # bot opens: any of its five tiles may open (R7). The lot picks the opener (R6): at
        # most a few games.
        for _ in range(40):
            slow = server.create(["human", "bot:ismcts@8s"])
            person = await Client.connect(server, slow["game"], tokens(slow)[0])
            state = await person.wait(lambda f: f.get("type") == "state")
            if state["to_act"] == 1:
                break
        assert state["to_act"] == 1 and state["seq"] == 0
        _, clients = await two_people(server)
        await play_some(clients, 6)  # meanwhile another game plays on, frame after frame
        thinking = httpx.get(f"{server.url}/api/games/{slow['game']}").json()
        assert thinking["seq"] == state["seq"], "the other game waited for the search"


async def test_a_failed_write_changes_nothing_and_the_game_goes_on(tmp_path: Path) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        assert server.store is not None
        store = server.store
        real = store.append
        # The first write of the person's placement fails, and the first of the bot's actions.
        # (The person's draws and passes are the server's to play, R10: were one of them the
        # first to fail, the person would have nothing to be told, as a deal that opens with
        # the person drawing did once.)
        failures = {0: 1, 1: 1}

        async def flaky(game_id: str, row: Any, **kwargs: Any) -> None:
            chosen = row.seat == 1 or row.action["type"] == "play"
            if chosen and failures[row.seat]:
                failures[row.seat] -= 1
                raise OSError("the disk is full")
            await real(game_id, row, **kwargs)

        store.append = flaky  # type: ignore[method-assign]
        game = server.create(["human", "bot:greedy"])
        person = await Client.connect(server, game["game"], tokens(game)[0])
        state = await person.wait(
            lambda f: f.get("type") == "state" and f["to_act"] == 0 and f["forced"] is None, 30
        )
        await act(person, state)  # a write fails: the person is told, nothing changed
        await error(person, "unavailable")
        summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
        assert summary["seq"] == state["seq"]
        asked = len(person.frames)
        await person.send({"type": "hello", "token": tokens(game)[0]})
        again = await person.wait(lambda f: f.get("type") == "state", after=asked)
        assert again["seq"] == state["seq"]  # nobody is shown the action that was not kept
        clients = await play_game(server, game, clients={0: person})
        record = httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
        assert replay(record).is_over
        assert failures == {0: 0, 1: 0}  # the bot's failed write was tried again: it moved on
        for client in clients.values():
            await client.close()


async def test_a_client_that_stops_reading_is_dropped_not_waited_for(tmp_path: Path) -> None:
    """A spectator whose connection stops taking frames must not have frames kept for it for
    ever: once `Limits.queue` frames wait for it, the server closes it (1013, try again later),
    and the game goes on for everyone else."""
    limits = Limits(rate=1e6, burst=1e6, games_per_minute=1e6, queue=4)
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path, limits=limits) as server:
        game = server.create(["human", "human"])
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fills after a few frames
        stalled = await websockets.connect(server.ws(game["game"]), sock=sock, max_queue=1)
        await stalled.send(json.dumps({"type": "hello"}))
        clients = await play_game(server, game, stop_after=40)
        # Each hello with `since: 0` asks for the whole log again: far more than the socket's
        # buffers hold, while the spectator reads nothing.
        with contextlib.suppress(websockets.ConnectionClosed):
            for _ in range(3000):
                await stalled.send(json.dumps({"type": "hello", "since": 0}))
        seen: list[dict[str, Any]] = []
        with contextlib.suppress(websockets.ConnectionClosed):
            async with asyncio.timeout(20):
                async for text in stalled:  # now read what was sent before the close
                    seen.append(json.loads(text))
        assert stalled.close_code == 1013, stalled.close_code
        assert seen and len(seen) < 3000
        assert not clients[0].closed and not clients[1].closed
        for client in clients.values():
            await client.close()
        again = await play_game(server, game)  # the people play on to the end
        assert again[0].state["winner"] is not None
