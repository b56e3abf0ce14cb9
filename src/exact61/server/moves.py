"""The moves a server makes itself in a game: the one game loop of its rooms.

What comes next is the table's to say (`Table.waiting_for`): a draw or a pass R10 forces (a
person's too: nobody may refuse it) is played after `forced_delay` seconds, in which every
client's `state` announces it (`forced`); a bot's move, or the stand-in's for a person out of
time while someone is there to see it, is thought out in the process pool after `bot_delay`
seconds, so that one game's search never holds up another game's frames. Each move is applied
only if the game is still where it was when it was asked for: a person may have acted
meanwhile (an old page that sends its forced action itself, a person back from being away) or
another server may have. With several servers on one database, the one that made the last
move makes the next; the others stand by for `BOT_GRACE` in case it is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Protocol

from exact61.core import Action
from exact61.server.clock import BOT_GRACE
from exact61.server.protocol import GameError
from exact61.server.thinkers import Thinkers
from exact61.table import BotRequest, Table, Waiting

log = logging.getLogger("exact61.server")


class MovingGame(Protocol):
    """What the server's moves read of their game (a `Room`)."""

    table: Table
    lock: asyncio.Lock
    thinkers: Thinkers
    bot_delay: float
    forced_delay: float
    moved_here: bool  # this server applied the last action (so it makes the next move)
    owner: str
    expired: bool
    stand_in: str
    away: frozenset[int]

    @property
    def id(self) -> str: ...

    def connected(self) -> list[bool]: ...

    async def apply_own(self, action: Action) -> None:
        """Apply, store and tell an action of the server's own (the lock is held); GameError
        if it is refused or cannot be stored."""

    def kick_bots(self) -> None: ...


@dataclass(frozen=True)
class ServerMove:
    """A move the server makes itself at `seq` for `seat`, after `pause` seconds: the `forced`
    action (R10), or the choice of the bot `request` asks."""

    seq: int
    seat: int
    pause: float
    forced: Action | None = None
    request: BotRequest | None = None


@dataclass(eq=False)
class ServerMoves:
    """The moves the server makes in `game`: one task at a time, while it has one to make."""

    game: MovingGame
    _task: asyncio.Task[None] | None = None
    _nudge: asyncio.Event = field(default_factory=asyncio.Event)  # the game may have moved

    def waits_for(self) -> Waiting | None:
        """What the table waits for, when the server is the one to make it: an action R10
        leaves no choice about, a bot's move, or the stand-in's for a person out of time while
        someone is there to see it; None otherwise."""
        game = self.game
        if game.expired:
            return None
        waiting = game.table.waiting_for()
        if waiting is Waiting.FORCED or waiting is Waiting.BOT:
            return waiting
        if waiting is Waiting.PERSON and game.table.to_act in game.away and any(game.connected()):
            return waiting
        return None

    def next_move(self) -> ServerMove | None:
        """The move the server makes next (None: a person's, or nobody's); the lock is held."""
        waiting = self.waits_for()
        if waiting is None:
            return None
        game, table = self.game, self.game.table
        seat = table.to_act
        assert seat is not None
        if waiting is Waiting.FORCED:
            return ServerMove(table.seq, seat, game.forced_delay, forced=table.forced())
        if waiting is Waiting.BOT:
            return ServerMove(table.seq, seat, game.bot_delay, request=table.bot_request())
        request = table.stand_in_request(game.stand_in)
        return ServerMove(table.seq, seat, game.bot_delay, request=request)

    @property
    def busy(self) -> bool:
        """A move is being made, or waited for."""
        return self._task is not None and not self._task.done()

    def kick(self) -> None:
        """Make the server's moves while it has one to make (a task standing by for another
        server's move looks again)."""
        self._nudge.set()
        if not self.busy and self.waits_for() is not None:
            self._task = asyncio.get_running_loop().create_task(self._run())
            self._task.add_done_callback(self._ended)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _ended(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:  # never leave a move unmade: try again in a while
            log.error("game %s: the bots stopped: %r; again in 5 s", self.game.id, error)
            asyncio.get_running_loop().call_later(5, self.game.kick_bots)

    async def _run(self) -> None:
        """The moves, one at a time (`next_move`): each after its pause, a bot's thought out in
        the pool, applied only if the game is still where it was."""
        game = self.game
        wait = 1.0
        while True:
            async with game.lock:
                if self.waits_for() is None:
                    return
                seq, here = game.table.seq, game.moved_here
                self._nudge.clear()
            if not here:
                # Another server made the last move, so it makes this one; stand by in case
                # that server is gone (or until this server moves something itself).
                pause = max(game.bot_delay, game.forced_delay)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._nudge.wait(), BOT_GRACE + pause)
                if game.table.seq != seq or game.moved_here:
                    continue
            async with game.lock:
                move = self.next_move()
                if move is None or move.seq != seq:
                    continue
            if move.pause:
                await asyncio.sleep(move.pause)
            action = move.forced if move.request is None else await self._think(move)
            assert action is not None
            async with game.lock:
                # the game moved on meanwhile (a person, another server), or the person is back
                if game.table.seq != seq or self.waits_for() is None:
                    continue
                try:
                    await game.apply_own(action)
                    wait = 1.0
                except GameError as err:
                    log.info("game %s: the server's move not applied: %s", game.id, err.message)
                    if err.code == "unavailable":  # the database: try again, less and less often
                        await asyncio.sleep(wait)
                        wait = min(2 * wait, 30.0)

    async def _think(self, move: ServerMove) -> Action:
        """The choice of the bot (or stand-in) of `move`, thought out in the game's owner's
        turn, its thinking counted for the seat (`Table.thought`)."""
        assert move.request is not None
        game = self.game
        started = time.perf_counter()
        action = await game.thinkers.decide(move.request, game.owner or game.id)
        game.table.thought(move.seat, time.perf_counter() - started)
        return action
