"""Where a move's time goes inside the server, for the load benchmark only.

With `EXACT61_TIMINGS=FILE` in its environment, the server notes for each person's action when
its frame was received, when it was stored, when every recipient's frame was queued and when
the last of them was written to its connection, and how late the event loop runs a callback
that is due; it writes them to FILE as JSON when it stops. The times are CLOCK_MONOTONIC
(`time.monotonic`), which the benchmark's clients on the same machine read too, so that a
move's round trip splits into the clients' part and the server's. Without the variable nothing
is noted and nothing here runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from contextvars import ContextVar
from pathlib import Path

_received: ContextVar[float | None] = ContextVar("received", default=None)
MOST = 2_000_000  # moves noted at most: the benchmark runs for minutes, not days
LAG_STEP = 0.01  # seconds between the loop's probes


class Timings:
    """The notes of one server process; `dump` writes them to `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # (game, seq) -> [received, stored, queued, written]
        self.moves: dict[tuple[str, int], list[float]] = {}
        self.frames: dict[int, tuple[str, int]] = {}  # id of a frame's text on its way out
        self.lags: list[tuple[float, float]] = []

    @classmethod
    def from_environment(cls) -> Timings | None:
        path = os.environ.get("EXACT61_TIMINGS")
        return cls(Path(path)) if path else None

    def received(self) -> None:
        """A client's frame has just been received (noted for the task handling it)."""
        _received.set(time.monotonic())

    def stored(self, game: str, seq: int) -> None:
        """The action `seq` of `game`, from the frame this task received, is committed."""
        received = _received.get()
        if received is not None and len(self.moves) < MOST:
            self.moves[game, seq] = [received, time.monotonic(), 0.0, 0.0]

    def sending(self, game: str, seq: int, text: str) -> None:
        """`text`, a frame telling of action `seq`, is put on a connection's way out."""
        move = self.moves.get((game, seq))
        if move is not None and not move[3]:
            move[2] = time.monotonic()
            self.frames[id(text)] = (game, seq)

    def written(self, text: str) -> None:
        """`text` has been handed to its connection's transport."""
        key = self.frames.pop(id(text), None)
        if key is not None:
            self.moves[key][3] = time.monotonic()

    async def probe_loop(self) -> None:
        """Note how late the event loop wakes a task that sleeps `LAG_STEP` (its queue)."""
        while True:
            due = time.monotonic() + LAG_STEP
            await asyncio.sleep(LAG_STEP)
            now = time.monotonic()
            if len(self.lags) < MOST:
                self.lags.append((now, now - due))

    def dump(self) -> None:
        moves = [[game, seq, *times] for (game, seq), times in self.moves.items()]
        self.path.write_text(json.dumps({"moves": moves, "lags": self.lags}))


TIMINGS = Timings.from_environment()
