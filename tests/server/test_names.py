"""A display name per seat (issue 23: seats were "Seat 1"): given when the game is made or a
seat is taken from the lobby, 1 to 24 characters of any script, kept as plain text, shown to
every client (state, presence, the game's summary), kept across a restart, and written in the
record's `names`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from exact61 import replay
from exact61.table import MAX_NAME, Table, check_name
from tests.server.kit import Client, database_url, play_game, server_in_thread
from tests.server.test_protocol import tokens

pytestmark = pytest.mark.server

NAMES = ["Łucja", "李小龍", "Ёжик <b>&amp;</b>"]  # any script; markup is only text


def seat_names(frame: dict[str, Any]) -> list[str | None]:
    return [s["name"] for s in frame["seats"]]


async def test_names_are_shown_to_everyone_kept_and_recorded(tmp_path: Path) -> None:
    db = database_url("sqlite", tmp_path)
    with server_in_thread(db, tmp_path) as server:
        game = server.create(["human", "human", "bot:greedy"], names=[" Łucja ", "李小龍", None])
        watcher = await Client.connect(server, game["game"], None)
        state = await watcher.wait(lambda f: f.get("type") == "state")
        assert seat_names(state) == ["Łucja", "李小龍", None]  # spaces around a name go
        summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
        assert seat_names(summary) == ["Łucja", "李小龍", None]
        clients = await play_game(server, game)
        record = httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
        assert record["names"] == ["Łucja", "李小龍", None]
        replay(record)
        assert Table.from_record(record).names == ["Łucja", "李小龍", None]
        for client in [*clients.values(), watcher]:
            await client.close()
    with server_in_thread(db, tmp_path) as server:  # rebuilt from the database
        summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
        assert seat_names(summary) == ["Łucja", "李小龍", None]


async def test_a_seat_taken_from_the_lobby_brings_its_name(tmp_path: Path) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        game = server.create(["human", "human"], open=True, mine=0, names=[NAMES[0], None])
        maker = await Client.connect(server, game["game"], tokens(game)[0])
        await maker.wait(lambda f: f.get("type") == "state")
        url = f"{server.url}/api/games/{game['game']}/seats/1"
        for bad in ("", "   ", "x" * (MAX_NAME + 1), "a\u0000b", "a\nb", "a\u202eb", 7):
            refused = httpx.post(url, json={"name": bad})
            assert refused.status_code == 422, bad
        taken = httpx.post(url, json={"name": NAMES[2]})
        assert taken.status_code == 201
        told = await maker.wait(lambda f: f.get("type") == "presence" and f["names"][1])
        assert told["names"] == [NAMES[0], NAMES[2]]  # as given: markup is never interpreted
        other = await Client.connect(server, game["game"], taken.json()["token"])
        state = await other.wait(lambda f: f.get("type") == "state")
        assert seat_names(state) == [NAMES[0], NAMES[2]]
        for client in (maker, other):
            await client.close()


@pytest.mark.parametrize(
    "names",
    [
        ["Ana"],  # one per seat
        ["Ana", "Bo", "Cy"],
        ["Ana", "Bot"],  # seat 1 is a bot's
        ["x" * (MAX_NAME + 1), None],
        ["", None],
        ["\u0007", None],
    ],
)
def test_bad_names_when_making_a_game_are_a_422(tmp_path: Path, names: list[Any]) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        body = {"players": 2, "seats": ["human", "bot:random"], "names": names}
        answer = httpx.post(f"{server.url}/api/games", json=body)
        assert answer.status_code == 422 and "names" in answer.json()["message"]


def test_a_games_name_in_the_lobby_follows_the_rules_of_a_persons(tmp_path: Path) -> None:
    """A game's name is shown to everyone in the lobby, and it refused only C0 controls: a
    right-to-left override (U+202E) turned the rest of a listing around, a line separator
    broke it, a zero-width space made two games look alike. It is now kept as a person's name
    is (NFC, trimmed, no control or format character, no line break), 60 characters at most;
    blank is no name."""
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        url = f"{server.url}/api/games"
        for bad in ("\u202egnp.exe", "Friday\u2028game", "a\u200bb", "ne\x85l", "\ue000"):
            body = {"players": 2, "seats": ["human", "human"], "open": True, "name": bad}
            answer = httpx.post(url, json=body)
            assert answer.status_code == 422, bad
            assert answer.json()["message"].startswith("name: "), answer.json()
        for given, kept in (("  Fri\u0065\u0301day  ", "Fri\u00e9day"), ("   ", ""), ("", "")):
            game = server.create(["human", "human"], open=True, name=given)
            summary = httpx.get(f"{url}/{game['game']}").json()
            assert summary["name"] == kept, given
        too_long = {"players": 2, "seats": ["human", "human"], "name": "x" * 61}
        assert httpx.post(url, json=too_long).status_code == 422
        assert server.create(["human", "human"], name="é" * 60)["game"]


def test_a_name_is_any_script_up_to_24_characters() -> None:
    assert check_name("\u0065\u0301") == "\u00e9"  # kept composed (NFC): one character
    assert check_name("é" * MAX_NAME) == "é" * MAX_NAME
    assert check_name("🂡 Trzy Szóstki") == "🂡 Trzy Szóstki"
    for bad in ("", " ", "é" * (MAX_NAME + 1), "\u200bx", "line\u2028break"):
        with pytest.raises(ValueError):
            check_name(bad)


# ---- a seat names itself at the table: the `name` frame ----------------------------------------


def presence_with(names: list[str | None]) -> Any:
    return lambda f: f.get("type") == "presence" and f["names"] == names


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_seat_names_itself_at_the_table_and_everyone_is_told(
    kind: str, tmp_path: Path
) -> None:
    db = database_url(kind, tmp_path)
    with server_in_thread(db, tmp_path) as server:
        game = server.create(["human", "human", "bot:greedy"])
        seats = {s: await Client.connect(server, game["game"], t) for s, t in tokens(game).items()}
        watcher = await Client.connect(server, game["game"], None)
        for client in (*seats.values(), watcher):
            await client.wait(lambda f: f.get("type") == "state")
        await seats[1].send({"type": "name", "name": " Łucja "})
        for client in (*seats.values(), watcher):  # the other seat, a spectator, and itself
            await client.wait(presence_with([None, "Łucja", None]))
        summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
        assert seat_names(summary) == [None, "Łucja", None]
        await seats[1].send({"type": "name", "name": NAMES[2]})  # changed, at any time
        await seats[0].wait(presence_with([None, NAMES[2], None]))
        seen = len(seats[1].frames)
        await seats[1].send({"type": "name", "name": NAMES[2]})  # the same again: told only
        await seats[1].wait(presence_with([None, NAMES[2], None]), after=seen)
        for client in (*seats.values(), watcher):
            await client.close()
    with server_in_thread(db, tmp_path) as server:  # stored: a new server reads it
        summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
        assert seat_names(summary) == [None, NAMES[2], None]
        again = await Client.connect(server, game["game"], tokens(game)[0])
        state = await again.wait(lambda f: f.get("type") == "state")
        assert seat_names(state) == [None, NAMES[2], None]
        await again.close()


async def test_a_spectator_or_a_bad_name_changes_nothing(tmp_path: Path) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        game = server.create(["human", "human"], names=["Ana", None])
        seat = await Client.connect(server, game["game"], tokens(game)[1])
        watcher = await Client.connect(server, game["game"], None)
        for client in (seat, watcher):
            await client.wait(lambda f: f.get("type") == "state")
        await watcher.send({"type": "name", "name": "Eve"})
        refused = await watcher.wait(lambda f: f.get("type") == "error")
        assert refused["code"] == "not_a_seat"
        bad: list[Any] = ["", "   ", "x" * (MAX_NAME + 1), "a\u0000b", "a\nb", "a\u202eb", 7, None]
        for name in bad:
            seen = len(seat.frames)
            await seat.send({"type": "name", "name": name})
            error = await seat.wait(lambda f: f.get("type") == "error", after=seen)
            assert error["code"] == "bad_message" and error["message"].startswith("name"), name
        await seat.send({"type": "name"})
        error = await seat.wait(lambda f: f.get("type") == "error" and "name" in f["message"])
        assert error["code"] == "bad_message"
        await seat.send({"type": "ping"})  # every frame before it is answered by now
        await seat.wait(lambda f: f.get("type") == "pong")
        told = [f["names"] for f in seat.frames + watcher.frames if f.get("type") == "presence"]
        assert all(names == ["Ana", None] for names in told), told
        summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
        assert seat_names(summary) == ["Ana", None]
        for client in (seat, watcher):
            await client.close()


async def test_a_name_given_at_the_table_goes_on_to_the_rematch(tmp_path: Path) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        game = server.create(["human", "bot:greedy"])
        clients = await play_game(server, game, stop_after=2)
        await clients[0].send({"type": "name", "name": "Ada"})
        await clients[0].wait(presence_with(["Ada", None]))
        await play_game(server, game, clients=clients)
        seen = len(clients[0].frames)
        await clients[0].send({"type": "name", "name": "Later"})
        over = await clients[0].wait(lambda f: f.get("type") == "error", after=seen)
        assert over["code"] == "over"  # a finished match's names stay as its record has them
        record = httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
        assert record["names"] == ["Ada", None]
        await clients[0].send({"type": "rematch"})
        new = (await clients[0].wait(lambda f: f.get("type") == "rematch"))["game"]
        summary = httpx.get(f"{server.url}/api/games/{new}").json()
        assert seat_names(summary) == ["Ada", None]
        await clients[0].close()
