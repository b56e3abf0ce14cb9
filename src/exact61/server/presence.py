"""Who is connected to a game, across the servers sharing one PostgreSQL database.

Each server knows its own connections (`Room.clients`); the others' it hears on the bus
(`bus.Presence`). A server tells the others the seats connected to it for a game when they
change here (a seat connects, its last connection goes), and tells them again every `heartbeat`
seconds for each game it has seats connected to. Its word holds `HOLD` heartbeats: a server that
stops telling (killed, its network gone) is forgotten when its word runs out; one whose seat
leaves says so at once. A seat is connected if this server or any other says so
(`Room.connected`), and when what another server says changes what a game's clients would be
told, they are told (a `presence` frame), as when a seat connects here.

On SQLite (one server, no bus) nothing is sent and nothing heard: only this server's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any

from exact61.server.bus import Presence, presence_notice
from exact61.server.rooms import Room, spawn

log = logging.getLogger("exact61.server")

HEARTBEAT = 10.0  # seconds between a server's telling again who is connected to it
HOLD = 3  # heartbeats a server's word holds: missed that many, it is forgotten
RETRY = 1.0  # seconds before telling again what could not be sent

Send = Callable[[Sequence[str]], Awaitable[None]]


class SharedPresence:
    """This server's part in who is connected: what it told the others of its own seats, and
    what they told it of theirs (per game, per server: the seats and when that runs out)."""

    def __init__(self, rooms: Mapping[str, Room], heartbeat: float = HEARTBEAT) -> None:
        self.rooms = rooms  # the hub's rooms (the same mapping, as it changes)
        self.node = secrets.token_hex(4)  # this server, as long as its process runs
        self.heartbeat = heartbeat
        self.send: Send | None = None  # the bus's, once it is on (`start`)
        self._remote: dict[str, dict[str, tuple[int, float]]] = {}  # game: node: (seats, until)
        self._told: dict[str, int] = {}  # game: the seats last told the others (none: 0)
        self._changed: set[str] = set()  # games whose seats here may differ from those told
        self._again: set[str] = set()  # games to tell again, even unchanged
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # ---- what the rooms ask ----------------------------------------------------------------

    def elsewhere(self, game_id: str) -> int:
        """The seats (a bit each) other servers say are connected to the game, by what they
        said last: one whose word ran out is let go by the heartbeat, which tells the clients."""
        seats = 0
        for told, _until in self._remote.get(game_id, {}).values():
            seats |= told
        return seats

    def changed(self, room: Room) -> None:
        """The seats connected here to `room`'s game may have changed: the others are told
        (soon, in one batch with any other game's)."""
        if self.send is not None:
            self._changed.add(room.id)
            self._wake.set()

    # ---- what the others say -------------------------------------------------------------

    def heard(self, game_id: str, presence: Presence) -> None:
        """The bus: another server says which seats are connected to it for `game_id`."""
        if presence.node == self.node:  # this server's own notice
            return
        room = self.rooms.get(game_id)
        before = room.connected() if room is not None else None
        nodes = self._remote.setdefault(game_id, {})
        if presence.seats:
            nodes[presence.node] = (presence.seats, time.monotonic() + presence.ttl)
        else:
            nodes.pop(presence.node, None)
        if not nodes:
            del self._remote[game_id]
        self._tell_if_changed(room, before)

    def _expire(self) -> None:
        """Forget what another server said once its word runs out (it stopped telling)."""
        now = time.monotonic()
        for game_id in list(self._remote):
            nodes = self._remote[game_id]
            gone = [node for node, (_seats, until) in nodes.items() if until <= now]
            if not gone:
                continue
            room = self.rooms.get(game_id)
            before = room.connected() if room is not None else None
            for node in gone:
                del nodes[node]
            if not nodes:
                del self._remote[game_id]
            self._tell_if_changed(room, before)

    def _tell_if_changed(self, room: Room | None, before: list[bool] | None) -> None:
        if room is not None and room.connected() != before:
            self._spawn(room.presence_elsewhere())

    def reconnected(self) -> None:
        """The bus was down a while: what this server said may not have reached the others
        (nor what they said, this server: their next heartbeats tell it again), so it says it
        all again."""
        self._again |= set(self._told) | {g for g, room in self.rooms.items() if room.seats_here()}
        self._wake.set()

    # ---- telling the others --------------------------------------------------------------

    def start(self, send: Send) -> None:
        """The bus is on: tell the others through `send` from now on."""
        self.send = send
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """The server stops: the others are told that nobody is connected to it any more (if
        the database answers at once; otherwise they forget it when its word runs out)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.send is not None and self._told:
            gone = [self._notice(game_id, 0) for game_id in self._told]
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.send(gone), 5)
        self._told.clear()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        beat = loop.time() + self.heartbeat
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.0, beat - loop.time()))
            self._wake.clear()
            if loop.time() >= beat:
                beat = loop.time() + self.heartbeat
                self._again |= {game_id for game_id, seats in self._told.items() if seats}
                self._expire()
            if not await self._tell():
                await asyncio.sleep(RETRY)
                self._wake.set()

    async def _tell(self) -> bool:
        """Send what changed here, and what is to be told again; False if it could not be
        sent (it is tried again)."""
        changed, again = self._changed, self._again
        self._changed, self._again = set(), set()
        payloads: list[str] = []
        told: dict[str, int] = {}
        for game_id in sorted(changed | again):
            room = self.rooms.get(game_id)
            seats = room.seats_here() if room is not None else 0
            if game_id in again or seats != self._told.get(game_id, 0):
                payloads.append(self._notice(game_id, seats))
                told[game_id] = seats
        if not payloads or self.send is None:
            return True
        try:
            await self.send(payloads)
        except Exception as err:  # the database: told again when it answers
            log.warning("cannot tell the other servers who is connected here: %s", err)
            self._again |= set(told)
            return False
        for game_id, seats in told.items():
            if seats:
                self._told[game_id] = seats
            else:
                self._told.pop(game_id, None)
        return True

    def _notice(self, game_id: str, seats: int) -> str:
        return presence_notice(game_id, Presence(self.node, seats, HOLD * self.heartbeat))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        spawn(self._tasks, work)
