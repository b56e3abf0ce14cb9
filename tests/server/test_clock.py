"""The turn clock (issue 23): a person has the game's `clock` seconds for each move; when they
run out, the game's stand-in bot plays for the seat (`away`) until its person says `back` or
acts. The clock runs only while some seat is connected, the stand-in's moves are stored like
any other, and who is away survives a restart of the server.

The protocol takes at least 10 s a move; the tests shorten a made game's clock on the server
(`Room.clock`) before anyone connects, so that a timeout takes a second, not ten."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.kit import Client, Server, database_url, server_in_thread
from tests.server.test_protocol import tokens

pytestmark = pytest.mark.server


def clocked_game(server: Server, seconds: float, **extra: Any) -> dict[str, Any]:
    """A person (seat 0) against the greedy bot, the person's clock shortened to `seconds`."""
    game = server.create(["human", "bot:greedy"], clock=10, **extra)
    assert server.hub is not None
    room = server.hub.rooms[game["game"]]
    assert room.clock == 10 and room.timer.deadline is None  # nobody is there yet: no clock runs
    room.clock = seconds  # type: ignore[assignment]
    return game


def summary(server: Server, game: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{server.url}/api/games/{game['game']}").json()
    return answer


def my_turn(frame: dict[str, Any]) -> bool:
    """A state in which the person chooses (no clock runs for a draw or pass R10 forces: the
    server plays it)."""
    return (
        frame.get("type") == "state"
        and frame["to_act"] == 0
        and "legal" in frame
        and frame["forced"] is None
    )


def away(frame: dict[str, Any]) -> bool:
    return frame.get("type") == "state" and frame["seats"][0]["away"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_out_of_time_the_stand_in_plays_until_the_person_is_back(
    kind: str, tmp_path: Path
) -> None:
    db = database_url(kind, tmp_path)
    with server_in_thread(db, tmp_path) as server:
        game = clocked_game(server, 1.0)
        person = await Client.connect(server, game["game"], tokens(game)[0])
        watcher = await Client.connect(server, game["game"], None)
        first = await person.wait(my_turn)
        clock = first["clock"]
        assert clock["seconds"] == 1 and clock["seat"] == 0 and clock["stand_in"] == "heuristic"
        assert 0 < clock["left_ms"] <= 1000
        assert not first["seats"][0]["away"]
        # Nobody moves: the time runs out, the seat is away, and the stand-in plays it.
        gone = await watcher.wait(away, timeout=10)
        assert gone["clock"]["seat"] is None  # nobody's time runs while the stand-in plays
        played = await watcher.wait(
            lambda f: (
                f.get("type") == "state"
                and any(e["type"] == "action" and e["seat"] == 0 for e in f["last"])
            ),
            timeout=20,
        )
        assert played["seq"] > first["seq"]
        assert summary(server, game)["seats"][0]["away"] is True
        await person.wait(lambda f: f.get("type") == "state" and f["seq"] > first["seq"] + 2)
        # Back: the stand-in stops, and the person's own clock runs on their next turn.
        await person.send({"type": "back"})
        returned = await person.wait(
            lambda f: f.get("type") == "state" and not f["seats"][0]["away"], timeout=10
        )
        mine = await person.wait(my_turn, after=person.frames.index(returned))
        assert mine["clock"]["seat"] == 0 and not mine["seats"][0]["away"]
        await person.send({"type": "act", "seq": mine["seq"], "action": mine["legal"][0]})
        acted = await person.wait(lambda f: f.get("type") == "state" and f["seq"] > mine["seq"])
        assert acted["last"][0]["seat"] == 0
        assert summary(server, game)["seats"][0]["away"] is False
        for client in (person, watcher):
            await client.close()


async def test_away_is_stored_and_an_action_from_the_seat_brings_it_back(tmp_path: Path) -> None:
    db = database_url("sqlite", tmp_path)
    # the bots wait a while before they move: time for the person to act first
    with server_in_thread(db, tmp_path, bot_delay=1.5) as server:
        game = clocked_game(server, 1.0, stand_in="bot:greedy")  # as a seat names it, too
        person = await Client.connect(server, game["game"], tokens(game)[0])
        await person.wait(away, timeout=10)
        await person.close()
    with server_in_thread(db, tmp_path, bot_delay=1.5) as server:  # the server was restarted
        seats = summary(server, game)["seats"]
        assert seats[0]["away"] is True and summary(server, game)["stand_in"] == "greedy"
        person = await Client.connect(server, game["game"], tokens(game)[0])
        state = await person.wait(my_turn, timeout=20)
        assert state["seats"][0]["away"] and state["clock"]["seat"] is None
        # the person acts before the stand-in does: that action is theirs, and they are back
        await person.send({"type": "act", "seq": state["seq"], "action": state["legal"][-1]})
        after = await person.wait(lambda f: f.get("type") == "state" and f["seq"] > state["seq"])
        assert not after["seats"][0]["away"]
        assert after["last"][0]["action"]["type"] == state["legal"][-1]["type"]
        await person.close()


async def test_back_while_the_stand_in_thinks_keeps_the_move_for_the_person(
    tmp_path: Path,
) -> None:
    """A `back` that comes while the stand-in waits out the bot delay or thinks: its move is
    dropped, and the person makes their own."""
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path, bot_delay=1.0) as server:
        game = clocked_game(server, 1.0)
        person = await Client.connect(server, game["game"], tokens(game)[0])
        state = await person.wait(lambda f: away(f) and my_turn(f), timeout=30)
        seen = len(person.frames)  # the frames before it are not the answer to `back`
        await person.send({"type": "back"})
        returned = await person.wait(
            lambda f: f.get("type") == "state" and not f["seats"][0]["away"],
            timeout=10,
            after=seen,
        )
        assert returned["seq"] == state["seq"]
        await asyncio.sleep(1.5)  # past the bot delay: the stand-in's move would be in by now
        assert person.states[-1]["seq"] == state["seq"], person.states[-1]["last"]
        await person.send({"type": "act", "seq": state["seq"], "action": state["legal"][0]})
        acted = await person.wait(lambda f: f.get("type") == "state" and f["seq"] > state["seq"])
        assert acted["last"][0]["seat"] == 0
        await person.close()


async def test_the_clock_stops_while_nobody_is_there(tmp_path: Path) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        game = clocked_game(server, 1.0)
        person = await Client.connect(server, game["game"], tokens(game)[0])
        state = await person.wait(my_turn)
        await person.close()
        await asyncio.sleep(2.5)  # past the person's time, with nobody connected
        seen = summary(server, game)
        assert seen["seq"] == state["seq"] and seen["seats"][0]["away"] is False
        person = await Client.connect(server, game["game"], tokens(game)[0])
        again = await person.wait(my_turn)
        assert again["seq"] == state["seq"] and 0 < again["clock"]["left_ms"] <= 1000
        await person.wait(away, timeout=10)  # and with someone there it runs out again
        await person.close()


async def test_a_game_without_a_clock_tells_none_and_waits(tmp_path: Path) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        game = server.create(["human", "bot:greedy"])
        person = await Client.connect(server, game["game"], tokens(game)[0])
        state = await person.wait(my_turn)
        assert state["clock"] is None and summary(server, game)["clock"] is None
        await person.send({"type": "back"})  # not away: nothing changes
        await person.send({"type": "ping"})
        await person.wait(lambda f: f.get("type") == "pong")
        assert person.states[-1]["seq"] == state["seq"]
        await person.close()


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"clock": 5}, "greater than or equal to 10"),
        ({"clock": 3601}, "less than or equal to 3600"),
        ({"clock": 30.5}, "integer"),
        ({"clock": 30, "stand_in": "nobody"}, "unknown bot"),
        ({"clock": 30, "stand_in": "ismcts:50000"}, "at most 5,000 iterations a move"),
        ({"clock": 30, "stand_in": "pimc:50000"}, "at most 100 deals a move"),
        ({"clock": 30, "stand_in": "pimc:101"}, "at most 100 deals a move"),
        ({"clock": 30, "stand_in": "learned:/etc/passwd"}, "not a policy file"),
        ({"seats": ["human", "bot:learned:/etc/passwd"]}, "not a policy file"),
        ({"seats": ["human", "bot:LEARNED:/nonexistent"]}, "not a policy file"),
    ],
)
def test_bad_clocks_and_stand_ins_are_refused(
    extra: dict[str, Any], words: str, tmp_path: Path
) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        body = {"players": 2, "seats": ["human", "bot:greedy"], **extra}
        answer = httpx.post(f"{server.url}/api/games", json=body)
        assert answer.status_code == 422 and words in answer.json()["message"], answer.text
        assert "learned:FILE" not in answer.json()["message"]  # no choice a server refuses
