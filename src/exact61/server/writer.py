"""The server's writes to its database: in order, the actions in batches (group commit), made
on the event loop (SQLite) or in a writer thread (PostgreSQL); see `Writer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from queue import Empty, SimpleQueue
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from exact61.server.bus import notice, notify
from exact61.server.schema import (
    UNREACHABLE,
    ActionRow,
    Conflict,
    Totals,
    Unavailable,
    actions,
    first_line,
    games,
    now,
)

_T = TypeVar("_T")
log = logging.getLogger(__name__)
CHECKPOINT_SECONDS = 1.0  # SQLite: how often the write-ahead log is copied into the database


@dataclass(frozen=True)
class _Write:
    """One action to write, and how to tell its coroutine it is stored."""

    game: str
    row: ActionRow
    totals: Totals | None
    done: asyncio.Future[None]


@dataclass(frozen=True)
class _Job:
    """Any other write (a new game, a seat taken): run alone, in order with the actions."""

    work: Callable[[sa.Connection], Any]
    done: asyncio.Future[Any]


_Outcome = tuple[asyncio.Future[Any], Any, BaseException | None]


def _settle_all(outcomes: list[_Outcome]) -> None:
    for future, result, error in outcomes:
        if future.done():  # its caller was cancelled
            continue
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)


# Built once: statements made afresh for every action cost more than the writing itself.
_INSERT_ACTION = actions.insert()
_UPDATE_TOTALS = (
    games.update()
    .where(games.c.id == sa.bindparam("game"))
    .values(
        seq=sa.bindparam("seq"),
        status=sa.bindparam("status"),
        scores=sa.bindparam("scores"),
        winner=sa.bindparam("winner"),
        updated_at=sa.bindparam("updated_at"),
    )
)


class Writer:
    """The database's writes, for the event loop: every write in order, the actions in
    batches (one transaction for every action waiting, from any games); a caller returns only
    once its own write is committed.

    Where the writes are made depends on the database. PostgreSQL's answer comes over the
    network, so its writes are made in a writer thread, one hop there per batch (far less than
    an async driver's hop per statement). SQLite's commit is a local write of a few pages,
    shorter than a hop: its writes are made on the event loop itself, every write asked for in
    one turn of the loop stored together at the start of the next. A writer thread would have
    to take the interpreter's lock from the busy loop for each step of each batch, and the
    waits for it were most of a move's time at load (docs/figures/load.md). What a commit would
    otherwise do now and then, copy the write-ahead log into the database and sync it to disk,
    a thread of its own does every `CHECKPOINT_SECONDS`, where it stops nobody.
    """

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self._queue: SimpleQueue[_Write | _Job | None] = SimpleQueue()
        self._writer: threading.Thread | None = None
        self._on_loop = engine.dialect.name == "sqlite"
        self._waiting: list[_Write | _Job] = []  # on the loop: asked for in this turn
        self._checkpointer: threading.Thread | None = None
        self._closing = threading.Event()

    async def action(self, game_id: str, row: ActionRow, totals: Totals | None) -> None:
        """Write one action, and the game's new totals when they changed; return once it is
        committed. Raise Conflict if its sequence number is taken."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._submit(_Write(game_id, row, totals, done))
        await done

    async def job(self, work: Callable[[sa.Connection], _T]) -> _T:
        """Run `work` in a transaction of its own, in order with the actions."""
        done: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._submit(_Job(work, done))
        return await done

    def _submit(self, item: _Write | _Job) -> None:
        if self._on_loop:
            if self._checkpointer is None:
                self._checkpointer = threading.Thread(
                    target=self._checkpoint_often, name="exact61-db-checkpoint", daemon=True
                )
                self._checkpointer.start()
            if not self._waiting:
                asyncio.get_running_loop().call_soon(self._store_waiting)
            self._waiting.append(item)
            return
        if self._writer is None:
            writer = threading.Thread(target=self._drain, name="exact61-db-write", daemon=True)
            self._writer = writer
            writer.start()
        self._queue.put(item)

    def _checkpoint_often(self) -> None:
        """(SQLite) Copy what the write-ahead log holds into the database, every
        `CHECKPOINT_SECONDS` until closed, without waiting for readers or writers (PASSIVE)."""
        while not self._closing.wait(CHECKPOINT_SECONDS):
            try:
                with self.engine.connect() as db:
                    db.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except sa.exc.SQLAlchemyError as err:  # the next one tries again
                log.warning("database checkpoint: %s", first_line(err))

    def _store_waiting(self) -> None:
        """On the loop (SQLite): store every write asked for since the last turn."""
        items, self._waiting = self._waiting, []
        _settle_all(self._store(items))

    def _store(self, items: Sequence[_Write | _Job | None]) -> list[_Outcome]:
        """Make the writes in order, the actions between two other writes in one transaction."""
        outcomes: list[_Outcome] = []
        actions_: list[_Write] = []
        for item in items:
            if isinstance(item, _Write):
                actions_.append(item)
                continue
            if actions_:
                outcomes += self._commit_actions(actions_)
                actions_ = []
            if isinstance(item, _Job):
                outcomes.append(self._run_job(item))
        if actions_:
            outcomes += self._commit_actions(actions_)
        return outcomes

    def _drain(self) -> None:
        """The writer thread (PostgreSQL): take everything waiting, store it (`_store`), and
        tell the event loop once per batch. It starts the next batch as soon as one is stored,
        without waiting for the event loop to come round (a hop through the loop per batch made
        every action wait for a whole turn of a busy loop, twice)."""
        queue = self._queue
        while True:
            items = [queue.get()]
            while True:
                try:
                    items.append(queue.get_nowait())
                except Empty:
                    break
            stop = None in items
            outcomes = self._store(items)
            by_loop: dict[asyncio.AbstractEventLoop, list[_Outcome]] = {}
            for outcome in outcomes:
                by_loop.setdefault(outcome[0].get_loop(), []).append(outcome)
            for loop, some in by_loop.items():
                with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                    loop.call_soon_threadsafe(_settle_all, some)
            if stop:
                return

    def _run_job(self, job: _Job) -> _Outcome:
        try:
            with self.engine.begin() as db:
                return job.done, job.work(db), None
        except UNREACHABLE as err:
            return job.done, None, Unavailable(first_line(err))
        except Exception as err:
            return job.done, None, err

    def _commit_actions(self, batch: list[_Write]) -> list[_Outcome]:
        try:
            with self.engine.begin() as db:
                _commit(db, batch)
        except IntegrityError:  # some action's seq is taken: find which, one by one
            outcomes: list[_Outcome] = []
            for write in batch:
                try:
                    with self.engine.begin() as db:
                        _commit(db, [write])
                except IntegrityError:
                    taken = f"game {write.game}: action {write.row.seq} is already taken"
                    outcomes.append((write.done, None, Conflict(taken)))
                except Exception as err:
                    outcomes.append((write.done, None, err))
                else:
                    outcomes.append((write.done, None, None))
            return outcomes
        except Exception as err:
            return [(write.done, None, err) for write in batch]
        return [(write.done, None, None) for write in batch]

    async def close(self) -> None:
        """Finish every write already asked for, then let the threads go."""
        if self._waiting:
            self._store_waiting()
        self._closing.set()
        if self._checkpointer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._checkpointer.join)
            self._checkpointer = None
        if self._writer is not None:
            self._queue.put(None)
            await asyncio.get_running_loop().run_in_executor(None, self._writer.join)
            self._writer = None


def _commit(db: sa.Connection, batch: list[_Write]) -> None:
    at = now()
    db.execute(
        _INSERT_ACTION,
        [
            {
                "game_id": w.game,
                "seq": w.row.seq,
                "round": w.row.round,
                "seat": w.row.seat,
                "action": w.row.action,
                "drawn": w.row.drawn,
                "created_at": at,
            }
            for w in batch
        ],
    )
    changed = [
        {
            "game": w.game,
            "seq": w.row.seq,
            "status": w.totals.status,
            "scores": list(w.totals.scores),
            "winner": w.totals.winner,
            "updated_at": at,
        }
        for w in batch
        if w.totals is not None
    ]
    if changed:
        db.execute(_UPDATE_TOTALS, changed)
    if db.dialect.name == "postgresql":  # the bus: sent on commit, to every server listening
        last: dict[str, int] = {}
        for w in batch:
            last[w.game] = max(last.get(w.game, 0), w.row.seq)
        notify(db, [notice(g, seq) for g, seq in last.items()])
