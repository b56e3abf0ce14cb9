"""A game's turn clock: a person has the game's `clock` seconds for each move they choose, and
when they run out the game's stand-in bot plays for them (the seat is *away*) until they say
they are back. No clock runs for a draw or a pass R10 forces (the server plays those), nor while
nobody is connected: a game everyone has left waits for them.

The clock belongs to its room (`rooms.Room`), which it reads through `ClockedGame`: what the
table waits for, who is away or connected, and the room's lock, under which the time running out
is applied like any other change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from exact61.server.store import Unavailable
from exact61.table import Table, Waiting

log = logging.getLogger("exact61.server")

BOT_GRACE = 3.0  # seconds a server waits for another's move before making it itself
ROUND_START = 15.0  # more seconds on the clock for a round's first move: the settlement is read


class ClockedGame(Protocol):
    """What a turn clock reads of its game (a `Room`)."""

    table: Table
    lock: asyncio.Lock
    clock: int | None  # seconds a person has for a move (None: no turn clock)
    stand_in: str
    away: frozenset[int]
    expired: bool
    moved_here: bool

    @property
    def id(self) -> str: ...

    def connected(self) -> list[bool]: ...

    async def time_ran_out(self, seat: int) -> None:
        """`seat`'s time ran out (the lock is held): mark it away and tell the clients;
        `Unavailable` if that cannot be stored."""

    def kick_bots(self) -> None: ...


@dataclass(eq=False)
class TurnClock:
    """The turn clock of `game`: when the person to act runs out of time (`deadline`)."""

    game: ClockedGame
    deadline: float | None = None  # when the person to act runs out of time (monotonic)
    _task: asyncio.Task[None] | None = None
    _tick: asyncio.Event = field(default_factory=asyncio.Event)  # the clock may have changed

    def runs(self) -> bool:
        """A person is to choose (not a forced action, which the server plays), is not away,
        and someone is there."""
        game = self.game
        return (
            game.clock is not None
            and not game.expired
            and game.table.waiting_for() is Waiting.PERSON
            and game.table.to_act not in game.away
            and any(game.connected())
        )

    def restart(self) -> None:
        """The person to act has the clock's whole time from now (none if nobody's runs)."""
        seconds = self.game.clock
        if seconds is None or not self.runs():
            self.deadline = None
        else:
            rounds = self.game.table.match.rounds
            fresh = len(rounds) > 1 and not rounds[-1].steps  # a round just dealt
            self.deadline = time.monotonic() + seconds + (ROUND_START if fresh else 0.0)
            if self._task is None or self._task.done():
                self._task = asyncio.get_running_loop().create_task(self._watch())
                self._task.add_done_callback(self._ended)
        self._tick.set()

    def presence(self) -> None:
        """Someone came or everyone left: the clock stops while no seat is connected, and
        starts afresh when one is (a reconnection of one of several keeps it as it was)."""
        if not self.runs():
            self.deadline = None
            self._tick.set()
        elif self.deadline is None:
            self.restart()

    def look_again(self) -> None:
        """Something changed that may move the deadline, or let a server standing by act."""
        self._tick.set()

    def stop(self) -> None:
        self.deadline = None
        if self._task is not None:
            self._task.cancel()

    def _ended(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("game %s: the turn clock stopped: %r", self.game.id, error)

    async def _watch(self) -> None:
        """When the person to act runs out of time, mark the seat away: the stand-in plays
        for it from then on. A server that did not make the last move waits `BOT_GRACE`
        longer (the one that did runs the clock)."""
        game = self.game
        wait = 1.0
        while True:
            self._tick.clear()
            deadline, seq = self.deadline, game.table.seq
            if deadline is None:
                return
            left = deadline + (0.0 if game.moved_here else BOT_GRACE) - time.monotonic()
            if left > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._tick.wait(), left)
                continue
            async with game.lock:
                seat = game.table.to_act
                if game.table.seq != seq or self.deadline != deadline or seat is None:
                    continue
                try:
                    await game.time_ran_out(seat)
                except Unavailable as err:
                    log.warning("game %s: cannot mark seat %s away: %s", game.id, seat, err)
                else:
                    break
            await asyncio.sleep(wait)  # the database: try again, less and less often
            wait = min(2 * wait, 30.0)
        game.kick_bots()

    def json(self) -> dict[str, Any] | None:
        """The turn clock as `state.clock` tells it (None: the game has none)."""
        game = self.game
        if game.clock is None:
            return None
        running = self.deadline is not None
        left = None
        if self.deadline is not None:
            left = max(0, round((self.deadline - time.monotonic()) * 1000))
        return {
            "seconds": game.clock,
            "seat": game.table.to_act if running else None,
            "left_ms": left,
            "stand_in": game.stand_in,
        }
