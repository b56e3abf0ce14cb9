"""What R10 leaves nobody a choice about, a draw from the boneyard or a pass, the server plays
itself, a person's too: the `state` frame says it is coming (`forced`), the person's client sends
nothing, and the record is the one a `Table` stepped alone makes. An old page that still sends the
forced action has it accepted once; the same frame again gets `stale`, the game going on."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest

from exact61.core.records import action_json
from exact61.table import HUMAN, Table, Waiting
from tests.server.kit import Client, database_url, play_game, server_in_thread

pytestmark = pytest.mark.server

# Three people playing each state's first legal action: in round 1 seat 2 draws twice from seq 5
# (R10: no tile fits, the boneyard has some) and a seat passes at seq 26 (nothing fits, none
# left).
SEED = 296
PEOPLE = [HUMAN] * 3


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next game the server makes takes `SEED` (the server runs in this process)."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)


def solo_record() -> dict[str, Any]:
    """The match a `Table` plays alone from `SEED`: each person the first legal action, the
    forced ones stepped (`Table.step`)."""
    table = Table(len(PEOPLE), PEOPLE, SEED)
    while (waiting := table.waiting_for()) is not Waiting.OVER:
        if waiting is Waiting.PERSON:
            table.apply(table.match.legal_actions()[0])
        else:
            table.step()
    return table.record()


def forced_states(client: Client) -> dict[int, dict[str, Any]]:
    """The states `client` was sent that announced a forced action, by seq."""
    return {s["seq"]: s for s in client.states if s["forced"] is not None}


def actions_told(client: Client) -> dict[int, dict[str, Any]]:
    """Every action entry `client` was told of, by seq."""
    return {e["seq"]: e for s in client.states for e in s["last"] if e["type"] == "action"}


async def test_the_server_plays_a_persons_forced_draw_and_pass(
    seeded: None, tmp_path: Path
) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        game = server.create(["human"] * 3, clock=600)
        watcher = await Client.connect(server, game["game"], None)
        clients = await play_game(server, game)  # sends only the placements a person chooses
        record = httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
        assert record == solo_record()  # the same actions, the same record
        actions = [a for r in record["rounds"] for a in r["actions"]]
        final = await watcher.wait_seq(len(actions))
        assert final["status"] == "over" and final["forced"] is None
        announced = forced_states(watcher)
        kinds = {state["forced"]["type"] for state in announced.values()}
        assert kinds == {"draw", "pass"}, "the seed no longer has a person's draw and pass"
        told = actions_told(watcher)
        for seq, state in announced.items():
            # what was announced is what followed, for that seat: the one legal action
            assert told[seq + 1]["seat"] == state["to_act"]
            assert told[seq + 1]["action"]["type"] == state["forced"]["type"]
            assert actions[seq]["type"] == state["forced"]["type"]
            mine = next(s for s in clients[state["to_act"]].states if s["seq"] == seq)
            assert mine["legal"] == [state["forced"]] and mine["forced"] == state["forced"]
            assert state["clock"]["seat"] is None  # no clock runs for what nobody chooses
        # every other state a person was to act in offered a choice the person made
        chosen = [s for s in watcher.states if s["status"] == "playing" and s["forced"] is None]
        assert all(told[s["seq"] + 1]["seat"] == s["to_act"] for s in chosen)
        # and the person's clock ran (from the first action: every seat is connected by then)
        assert all(s["clock"]["seat"] == s["to_act"] for s in chosen if s["seq"] > 0)
        for client in [watcher, *clients.values()]:
            errors = [f for f in client.frames if f["type"] == "error"]
            assert errors == []  # nobody sent a forced action: nothing stale
            await client.close()


async def test_an_old_page_that_sends_a_forced_action_has_it_once(
    seeded: None, tmp_path: Path
) -> None:
    """The server waits its pause before a forced action; a client that sends it meanwhile has
    it applied once, and the same frame again is refused `stale`; the server plays no second
    one, and the game goes on as a `Table` alone plays it."""
    db = database_url("sqlite", tmp_path)
    with server_in_thread(db, tmp_path, forced_delay=2.0) as server:
        game = server.create(["human"] * 3)
        clients = await play_game(server, game, until=lambda s: s["forced"] is not None)
        state = next(c.state for c in clients.values() if c.state["forced"] is not None)
        seat, seq, forced = state["to_act"], state["seq"], state["forced"]
        assert (seat, seq, forced) == (2, 5, {"type": "draw"})
        mover = clients[seat]
        assert (await mover.wait_seq(seq))["legal"] == [forced]
        frame = {"type": "act", "seq": seq, "action": forced}
        await mover.send(frame)  # an old page sends the draw at once
        after = await mover.wait_seq(seq + 1)
        assert after["last"][0]["seat"] == seat and after["last"][0]["action"]["type"] == "draw"
        await mover.send(frame)  # and again
        refused = await mover.wait(lambda f: f.get("type") == "error")
        assert refused["code"] == "stale"
        # seat 2 draws again (the server, after its pause), then has a tile to place: its choice
        placing = await mover.wait(lambda f: f.get("type") == "state" and f["seq"] == seq + 2)
        assert placing["forced"] is None and placing["pending_draw"] is not None
        await asyncio.sleep(2.5)  # past the pause: no move of the server's is left to come
        assert max(s["seq"] for s in mover.states) == seq + 2
        clients = await play_game(server, game, clients=clients, stop_after=seq + 6)
        solo = [a for r in solo_record()["rounds"] for a in r["actions"]]
        told = {seq: e for c in clients.values() for seq, e in actions_told(c).items()}
        assert sorted(told) == list(range(1, len(told) + 1))
        for number, entry in told.items():  # the game as a table alone plays it
            assert (entry["seat"], entry["action"]["type"]) == (
                solo[number - 1]["seat"],
                solo[number - 1]["type"],
            )
        errors = [f for c in clients.values() for f in c.frames if f["type"] == "error"]
        assert errors == [refused]  # the duplicate's only
        for client in clients.values():
            await client.close()


def test_the_frame_announces_the_forced_action_to_everyone() -> None:
    """`state.forced` is in the part of the frame everyone is sent: the action only, no tile."""
    from exact61.server.frames import public_state

    table = Table(len(PEOPLE), PEOPLE, SEED)
    table.deal()
    while table.waiting_for() is not Waiting.FORCED:
        table.apply(table.match.legal_actions()[0])
    forced = table.forced()
    assert forced is not None
    assert public_state(table)["forced"] == action_json(forced) == {"type": "draw"}
    while table.waiting_for() is Waiting.FORCED:
        table.step()
    assert public_state(table)["forced"] is None  # a tile drawn that fits: its seat places it
