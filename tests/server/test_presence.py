"""Who is connected, shared between the servers of one database (`exact61.server.presence`),
without a database: the notices a server sends (what changed here at once, all of it again each
heartbeat and after the bus was down), and what it makes of the others' (merged with its own,
forgotten when a server's word runs out, its clients told when what they see changes). The
servers themselves, on PostgreSQL, are in test_nodes.py."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from exact61.server.bus import NAMES, REMATCH, Presence, parse_notice, presence_notice
from exact61.server.presence import SharedPresence


def test_presence_notices_are_short_and_read_back() -> None:
    payload = presence_notice("g4Me_x-1", Presence("0a1b2c3d", 0b101, 30.0))
    assert payload == "g4Me_x-1:presence:0a1b2c3d:5:30000"
    assert parse_notice(payload) == ("g4Me_x-1", Presence("0a1b2c3d", 5, 30.0))
    assert parse_notice("g:12") == ("g", 12)  # the other notices read as before
    assert parse_notice("g:names") == ("g", NAMES)
    assert parse_notice("g:rematch") == ("g", REMATCH)
    for bad in ("g:presence:n:x:1", "g:presence::1:1", ":presence:n:1:1", "g:presence:n:1"):
        assert parse_notice(bad) is None


@dataclass(eq=False)
class FakeRoom:
    """What `SharedPresence` reads of a room: its seats here, and who its clients see."""

    id: str
    presence: SharedPresence
    here: int = 0
    told: list[list[bool]] = field(default_factory=list)  # presence frames, as sent

    def seats_here(self) -> int:
        return self.here

    def connected(self) -> list[bool]:
        seats = self.here | self.presence.elsewhere(self.id)
        return [bool(seats >> s & 1) for s in range(4)]

    async def presence_elsewhere(self) -> None:
        self.told.append(self.connected())


async def until(condition: Callable[[], bool], timeout: float = 10) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.01)


class Bus:
    """The notices sent, each batch a list; `fail` batches refused first (the database down)."""

    def __init__(self) -> None:
        self.sent: list[list[str]] = []
        self.fail = 0

    async def send(self, payloads: Sequence[str]) -> None:
        if self.fail:
            self.fail -= 1
            raise OSError("the database is down")
        self.sent.append(list(payloads))

    def flat(self) -> list[str]:
        return [p for batch in self.sent for p in batch]


def node_of(presence: SharedPresence, rooms: dict[str, Any], game: str) -> FakeRoom:
    room = FakeRoom(game, presence)
    rooms[game] = room
    return room


async def test_a_change_here_is_told_at_once_and_again_every_heartbeat() -> None:
    rooms: dict[str, Any] = {}
    presence = SharedPresence(rooms, heartbeat=0.2)
    bus = Bus()
    presence.start(bus.send)
    try:
        room = node_of(presence, rooms, "g1")
        room.here = 0b01
        presence.changed(room)  # type: ignore[arg-type]
        me = presence.node
        await until(lambda: f"g1:presence:{me}:1:600" in bus.flat())
        room.here = 0
        presence.changed(room)  # type: ignore[arg-type]
        await until(lambda: bus.flat()[-1] == f"g1:presence:{me}:0:600")
        count = len(bus.flat())
        presence.changed(room)  # nothing changed: nothing is told
        room.here = 0b10
        presence.changed(room)  # type: ignore[arg-type]
        await until(lambda: bus.flat().count(f"g1:presence:{me}:2:600") >= 3)  # heartbeats
        assert f"g1:presence:{me}:0:600" not in bus.flat()[count:]  # nobody: not told again
    finally:
        await presence.close()
    assert bus.flat()[-1] == f"g1:presence:{me}:0:600"  # closing: nobody is here any more


async def test_what_could_not_be_sent_or_was_missed_is_told_again() -> None:
    rooms: dict[str, Any] = {}
    presence = SharedPresence(rooms, heartbeat=600)  # no heartbeat in this test
    bus = Bus()
    bus.fail = 1
    presence.start(bus.send)
    try:
        room = node_of(presence, rooms, "g1")
        room.here = 0b100
        presence.changed(room)  # type: ignore[arg-type]
        notice = f"g1:presence:{presence.node}:4:1800000"
        await until(lambda: notice in bus.flat())  # refused once, sent once it could be
        presence.reconnected()  # the bus was down: the others may have missed it
        await until(lambda: bus.flat().count(notice) == 2)
    finally:
        await presence.close()


async def test_the_others_word_is_merged_and_forgotten_when_it_runs_out() -> None:
    rooms: dict[str, Any] = {}
    presence = SharedPresence(rooms, heartbeat=0.05)
    presence.start(Bus().send)
    try:
        room = node_of(presence, rooms, "g1")
        room.here = 0b01
        presence.heard("g1", Presence(presence.node, 0b10, 60))  # its own notice: not another's
        assert presence.elsewhere("g1") == 0
        presence.heard("g1", Presence("other", 0b10, 60))
        presence.heard("g1", Presence("third", 0b1000, 0.3))
        assert presence.elsewhere("g1") == 0b1010
        await until(lambda: len(room.told) == 3)
        assert room.told[-1] == [True, True, False, False]  # "third" stopped telling
        presence.heard("g1", Presence("other", 0b10, 60))  # the same again: nobody is told
        presence.heard("g1", Presence("other", 0, 60))  # its seat left: told at once
        assert presence.elsewhere("g1") == 0
        await until(lambda: len(room.told) == 4)
        assert room.told[-1] == [True, False, False, False]
        presence.heard("g2", Presence("other", 0b1, 0.1))  # a game not held here: kept a while
        assert presence.elsewhere("g2") == 1
        await until(lambda: presence.elsewhere("g2") == 0)
    finally:
        await presence.close()
