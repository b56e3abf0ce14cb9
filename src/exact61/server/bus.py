"""The message bus between server processes sharing one PostgreSQL database.

PostgreSQL's own LISTEN/NOTIFY: a server that writes actions notifies `game:seq` in the same
transaction, so a notice is sent exactly when the actions are committed (never before, never
for a write that failed), and every server listening hears it and reads the actions from the
database. No second service to run, secure or keep in step with the database. A seat's new
name is told the same way (`game:names`, sent when it is committed): every server holding the
game reads its names again.

Who is connected is told the same way, but with nothing written: each server sends, for a game
whose connected seats changed here, a presence notice (`game:presence:node:mask:ttl`: its own id,
the seats connected to it, and how long that holds), and sends it again every heartbeat, so a
server that died (killed, its network gone) is forgotten once its word runs out (`presence`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import psycopg
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from exact61.server.schema import first_line

CHANNEL = "exact61_actions"
log = logging.getLogger("exact61.server")


NAMES = "names"  # a notice's tail when a seat's name changed (not an action)
REMATCH = "rematch"  # a notice's tail when a finished game's next one was made
PRESENCE = "presence"  # a presence notice's second part: `game:presence:node:mask:ttl`


class Presence(NamedTuple):
    """What a presence notice says: server `node` has `seats` (a bit per seat) connected to
    the game, and holds to it for `ttl` seconds unless it says otherwise."""

    node: str
    seats: int
    ttl: float


def notice(game_id: str, seq: int) -> str:
    return f"{game_id}:{seq}"


def names_notice(game_id: str) -> str:
    return f"{game_id}:{NAMES}"


def rematch_notice(game_id: str) -> str:
    return f"{game_id}:{REMATCH}"


def presence_notice(game_id: str, presence: Presence) -> str:
    ttl = max(1, round(presence.ttl * 1000))
    return f"{game_id}:{PRESENCE}:{presence.node}:{presence.seats}:{ttl}"


def parse_notice(payload: str) -> tuple[str, int | str | Presence] | None:
    """(game, seq) of an action's notice, (game, NAMES) of a names notice, (game, REMATCH) of a
    rematch's, (game, Presence) of a presence notice; None otherwise."""
    parts = payload.split(":")  # a game's id has no colon (`hub.GAME_ID`)
    if len(parts) == 5 and parts[1] == PRESENCE:
        game_id, _, node, seats, ttl = parts
        if game_id and node and seats.isdecimal() and ttl.isdecimal() and len(seats) < 4:
            return game_id, Presence(node, int(seats), int(ttl) / 1000)
        return None
    if len(parts) != 2 or not parts[0]:
        return None
    game_id, tail = parts
    if tail in (NAMES, REMATCH):
        return game_id, tail
    return (game_id, int(tail)) if tail.isdecimal() else None


class Listener:
    """Hears every server's notices on a connection of its own, in a thread, and hands each to
    `heard(game, seq)` (a names notice to `renamed(game)`, a rematch's to `rematched(game)`, a
    presence notice to `present(game, presence)`) on the event loop; `reconnected()` after any
    gap, when notices may have been missed."""

    def __init__(
        self,
        url: str,
        loop: asyncio.AbstractEventLoop,
        heard: Callable[[str, int], None],
        reconnected: Callable[[], None],
        renamed: Callable[[str], None] = lambda game_id: None,
        rematched: Callable[[str], None] = lambda game_id: None,
        present: Callable[[str, Presence], None] = lambda game_id, presence: None,
    ) -> None:
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.loop, self.heard, self.reconnected = loop, heard, reconnected
        self.renamed, self.rematched, self.present = renamed, rematched, present
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="exact61-bus", daemon=True)
        self.ready = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    if not first:
                        self.loop.call_soon_threadsafe(self.reconnected)
                    first = False
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            parsed = parse_notice(note.payload)
                            if parsed is None:
                                continue
                            game_id, tail = parsed
                            if tail == NAMES:
                                self.loop.call_soon_threadsafe(self.renamed, game_id)
                            elif tail == REMATCH:
                                self.loop.call_soon_threadsafe(self.rematched, game_id)
                            elif isinstance(tail, Presence):
                                self.loop.call_soon_threadsafe(self.present, game_id, tail)
                            elif isinstance(tail, int):
                                self.loop.call_soon_threadsafe(self.heard, game_id, tail)
            except psycopg.Error as err:
                log.warning("message bus: %s; listening again in 1 s", first_line(err))
                with contextlib.suppress(Exception):
                    time.sleep(1)


def notify(db: sa.Connection, payloads: Sequence[str]) -> None:
    """Send `payloads` on the bus in `db`'s transaction (PostgreSQL's `pg_notify`: delivered to
    every server listening when it commits, never for a transaction that fails)."""
    db.execute(
        sa.text("SELECT pg_notify(:channel, :payload)"),
        [{"channel": CHANNEL, "payload": payload} for payload in payloads],
    )


class Announcer:
    """Sends this server's presence notices (`presence_notice`), each batch in a short
    transaction of its own (`pg_notify`, delivered on commit) on a connection of the database's
    pool, in one thread.

    Not in the writer's transactions: presence writes nothing, and should not wait behind a
    batch of actions nor add to the writer's work. Not on the listener's connection: that one
    waits for notices in its own thread. One thread, so this server's notices leave in the order
    they were made: a seat's connection then its leaving never reach another server swapped."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="exact61-presence")

    async def send(self, payloads: Sequence[str]) -> None:
        """Send the notices, committed together (an error of the database's if it is not)."""

        def work() -> None:
            with self.engine.begin() as db:
                notify(db, payloads)

        await asyncio.get_running_loop().run_in_executor(self._thread, work)

    def close(self) -> None:
        self._thread.shutdown(wait=False)
