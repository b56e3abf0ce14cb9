"""The message bus between server processes sharing one PostgreSQL database.

PostgreSQL's own LISTEN/NOTIFY: a server that writes actions notifies `game:seq` in the same
transaction, so a notice is sent exactly when the actions are committed (never before, never
for a write that failed), and every server listening hears it and reads the actions from the
database. No second service to run, secure or keep in step with the database. A seat's new
name is told the same way (`game:names`, sent when it is committed): every server holding the
game reads its names again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable

import psycopg
from sqlalchemy.engine import make_url

from exact61.server.schema import first_line

CHANNEL = "exact61_actions"
log = logging.getLogger("exact61.server")


NAMES = "names"  # a notice's tail when a seat's name changed (not an action)
REMATCH = "rematch"  # a notice's tail when a finished game's next one was made


def notice(game_id: str, seq: int) -> str:
    return f"{game_id}:{seq}"


def names_notice(game_id: str) -> str:
    return f"{game_id}:{NAMES}"


def rematch_notice(game_id: str) -> str:
    return f"{game_id}:{REMATCH}"


def parse_notice(payload: str) -> tuple[str, int | str] | None:
    """(game, seq) of an action's notice, (game, NAMES) of a names notice, (game, REMATCH) of a
    rematch's; None otherwise."""
    game_id, _, tail = payload.rpartition(":")
    if not game_id:
        return None
    if tail in (NAMES, REMATCH):
        return game_id, tail
    return (game_id, int(tail)) if tail.isdecimal() else None


class Listener:
    """Hears every server's notices on a connection of its own, in a thread, and hands each to
    `heard(game, seq)` (a names notice to `renamed(game)`, a rematch's to `rematched(game)`) on
    the event loop; `reconnected()` after any gap, when notices may have been missed."""

    def __init__(
        self,
        url: str,
        loop: asyncio.AbstractEventLoop,
        heard: Callable[[str, int], None],
        reconnected: Callable[[], None],
        renamed: Callable[[str], None] = lambda game_id: None,
        rematched: Callable[[str], None] = lambda game_id: None,
    ) -> None:
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.loop, self.heard, self.reconnected = loop, heard, reconnected
        self.renamed, self.rematched = renamed, rematched
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
                            elif isinstance(tail, int):
                                self.loop.call_soon_threadsafe(self.heard, game_id, tail)
            except psycopg.Error as err:
                log.warning("message bus: %s; listening again in 1 s", first_line(err))
                with contextlib.suppress(Exception):
                    time.sleep(1)
