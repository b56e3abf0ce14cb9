"""The Learn page's guided match on a real server (issue 43, item 1): a game made with `guided`
has the tour's seats and seed (`exact61.learn.guided`), is over once its table says so
(after `guided.ROUNDS` rounds, as the terminal ends it), stays over when rebuilt from the
database, and its hint says why, in the language asked for, as every game's does (to the
asker alone); and the rematch of a guided game is an ordinary one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from exact61 import i18n
from exact61.learn import guided, hints
from exact61.learn.lesson import on_board
from exact61.server.hub import GUIDED_SEATS
from exact61.table import Table
from tests.server.kit import Client, Server, database_url, server_in_thread

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("guided")
    with server_in_thread(database_url("sqlite", folder), folder) as running:
        yield running


def guided_game(server: Server, lang: str = "en") -> dict[str, Any]:
    return server.create(GUIDED_SEATS, guided=True, lang=lang)


async def turn(client: Client, floor: int) -> dict[str, Any]:
    """The first state from `floor` on in which the person is to act, or nobody is (between
    rounds, or over). The person's draws and passes are the server's to play (R10): sent too,
    one could come back as an error frame after the next question."""
    return await client.wait(
        lambda f: (
            f.get("type") == "state"
            and f["seq"] >= floor
            and (f["to_act"] is None or (f["to_act"] == 0 and f["forced"] is None))
        ),
        timeout=60,
    )


async def my_choice(client: Client) -> dict[str, Any]:
    """The first state in which the person has a choice to make (their only placements made)."""
    floor = 0
    while True:
        state = await turn(client, floor)
        if state["to_act"] == 0:
            if len(state["legal"]) > 1:
                return state
            await client.send({"type": "act", "seq": state["seq"], "action": state["legal"][0]})
        floor = state["seq"] + 1


def test_a_guided_game_has_the_tours_seats_and_seed(server: Server) -> None:
    assert GUIDED_SEATS == ["human", "bot:easy"]
    offered = httpx.get(f"{server.url}/api/learn/en").json()["guided"]  # what the page makes
    assert offered == {"seats": GUIDED_SEATS, "rounds": guided.ROUNDS}
    game = server.create(offered["seats"], guided=True)
    assert server.hub is not None
    room = server.hub.rooms[game["game"]]
    assert (room.table.seed, room.guided) == (guided.SEED, True)
    assert httpx.get(f"{server.url}/api/games/{game['game']}").json()["guided"] is True
    answer = httpx.post(
        f"{server.url}/api/games",
        json={"players": 2, "seats": ["human", "bot:expert"], "guided": True},
    )
    assert answer.status_code == 422 and answer.json()["error"] == "bad_request"
    plain = server.create(["human", "bot:easy"])
    assert server.hub.rooms[plain["game"]].guided is False
    assert httpx.get(f"{server.url}/api/games/{plain['game']}").json()["guided"] is False


async def test_the_hint_of_a_guided_game_says_why_in_the_language_asked(server: Server) -> None:
    game = guided_game(server, lang="pl")
    token = game["seats"][0]["token"]
    client = await Client.connect(server, game["game"], token)
    state = await my_choice(client)
    assert state["guided"] == {"rounds": guided.ROUNDS}
    assert server.hub is not None
    room = server.hub.rooms[game["game"]]
    request = room.table.hint_request(0)
    expected = hints.explain(request.view, request.source)  # the one definition, seeded
    for lang in ("de", None):  # asked in German; else the game's language (Polish)
        before = len(client.frames)
        ask: dict[str, Any] = {"type": "hint", "seq": state["seq"]}
        if lang is not None:
            ask["lang"] = lang
        await client.send(ask)
        hint = await client.wait(lambda f: f.get("type") in ("hint", "error"), after=before)
        assert hint["type"] == "hint", hint
        assert hint["action"] in state["legal"]
        with i18n.speaking(lang or "pl"):
            layout = room.table.match.layout
            assert hint["why"] == [on_board(said, layout).text() for said in expected.why]
        assert len(hint["why"]) > 1  # the move and at least one reason
    assert hint["why"][0].startswith("Ekspert")  # Polish: "Ekspert gra ..."
    await client.close()

    plain = server.create(["human", "bot:easy"])
    other = await Client.connect(server, plain["game"], plain["seats"][0]["token"])
    first = await my_choice(other)
    assert "guided" not in first
    before = len(other.frames)
    watcher = await Client.connect(server, plain["game"], None)  # a spectator hears no hint
    await other.send({"type": "hint", "seq": first["seq"], "lang": "de"})
    hint = await other.wait(lambda f: f.get("type") in ("hint", "error"), after=before)
    assert set(hint) == {"type", "seq", "action", "credit", "rejects", "why"}  # says why too
    # in German, as asked: the reasons explain gives (the deal is the server's: its first line
    # may be "Der Experte spielt ..." or, with places that play alike, "Jeder deiner Züge ...")
    room = server.hub.rooms[plain["game"]]
    request = room.table.hint_request(0)
    expected = hints.explain(request.view, request.source)
    with i18n.speaking("de"):
        layout = room.table.match.layout
        assert hint["why"] == [on_board(said, layout).text() for said in expected.why]
    assert hint["why"][0].startswith(("Der Experte spielt ", "Jeder deiner Züge ")), hint["why"]
    await other.send({"type": "ping"})
    await other.wait(lambda f: f.get("type") == "pong", after=before)
    assert not [f for f in watcher.frames if f.get("type") == "hint"]
    await other.close()
    await watcher.close()


async def test_the_reasons_name_tiles_as_the_board_draws_them(server: Server) -> None:
    """A tile the page's board draws turned (`render.geometry.tile_names`: `[5|3]` for the tile
    `[3|5]`) is named so in the hint's reasons, as the terminal's guided match names it."""
    game = guided_game(server, lang="en")
    client = await Client.connect(server, game["game"], game["seats"][0]["token"])
    assert server.hub is not None
    room = server.hub.rooms[game["game"]]
    floor = 0
    while True:
        state = await turn(client, floor)
        assert state["status"] != "over", "no reason named a turned tile in the whole match"
        if state["to_act"] is None:
            floor = state["seq"] + 1
            continue
        request = room.table.hint_request(0)
        layout = room.table.match.layout
        expected = hints.explain(request.view, request.source)
        drawn = [on_board(said, layout).text() for said in expected.why]
        if len(state["legal"]) > 1 and drawn != [said.text() for said in expected.why]:
            break
        await client.send({"type": "act", "seq": state["seq"], "action": state["legal"][0]})
        floor = state["seq"] + 1
    before = len(client.frames)
    await client.send({"type": "hint", "seq": state["seq"]})
    hint = await client.wait(lambda f: f.get("type") in ("hint", "error"), after=before)
    assert hint["type"] == "hint" and hint["why"] == drawn
    await client.close()


async def test_a_guided_game_is_over_after_its_rounds(server: Server) -> None:
    game = guided_game(server)
    game_id, token = game["game"], game["seats"][0]["token"]
    client = await Client.connect(server, game_id, token)
    floor = 0
    while True:
        state = await turn(client, floor)
        if state["status"] == "over":
            break
        if state["to_act"] == 0:
            await client.send({"type": "act", "seq": state["seq"], "action": state["legal"][0]})
        floor = state["seq"] + 1
    # over as its table says: its last round settled, no winner (nobody reached 61)
    assert state["round"] == guided.ROUNDS - 1 and state["winner"] is None
    assert state["round_end"]["round"] == guided.ROUNDS - 1
    assert state["to_act"] is None and "legal" not in state
    for ask in ({"type": "hint", "seq": state["seq"]}, {"type": "act", "seq": state["seq"],
                "action": {"type": "pass"}}):  # fmt: skip
        before = len(client.frames)
        await client.send(ask)
        refused = await client.wait(lambda f: f.get("type") in ("hint", "error"), after=before)
        assert refused == {"type": "error", "code": "over", "message": "the match is over (R30)"}
    await client.close()
    summary = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert summary["status"] == "over" and summary["winner"] is None
    record = httpx.get(f"{server.url}/api/games/{game_id}/record").json()
    assert len(record["rounds"]) == guided.ROUNDS
    assert Table.from_record(record, rounds=guided.ROUNDS).is_over
    assert server.store is not None and server.hub is not None
    row = await server.store.game(game_id)
    assert row is not None and (row.status, row.guided) == ("over", True)
    # rebuilt from the database, the game is as it was: no next round dealt
    server.hub.forget(server.hub.rooms[game_id])
    again = await Client.connect(server, game_id, token)
    rebuilt = await again.wait(lambda f: f.get("type") == "state")
    assert (rebuilt["status"], rebuilt["round"], rebuilt["seq"]) == (
        "over",
        guided.ROUNDS - 1,
        state["seq"],
    )
    room = server.hub.rooms[game_id]
    assert room.guided and len(room.table.match.rounds) == guided.ROUNDS
    # "Play a whole match": the rematch of a guided game is an ordinary game, the same seats
    await again.send({"type": "rematch"})
    rematch = await again.wait(lambda f: f.get("type") == "rematch")
    made = httpx.get(f"{server.url}/api/games/{rematch['game']}").json()
    assert (made["guided"], made["status"]) == (False, "playing")
    assert [s["kind"] for s in made["seats"]] == GUIDED_SEATS
    await again.close()
