"""The backends batches run on: `process` (a pool of worker processes on this machine) and `ray`
(a Ray cluster, a local one unless an address is given)."""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import pickle
import signal
import traceback
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from multiprocessing.process import BaseProcess
from typing import Any, cast

from exact61.scale.ordered import Backend, play_batch
from exact61.scale.parent import exit_with_parent

BACKENDS = ("process", "ray")


class BackendError(Exception):
    """A backend that cannot be used: a one-line message (English) and the exit code it calls
    for. A front end that speaks its user's language says it from the parts: `problem`
    (`unknown`: no such backend; `address`: an address without Ray; `install`: Ray is not
    installed; `unreachable`: no cluster at `address`, or none started on this machine when
    `address` is empty; `retries`: a batch that failed on Ray `retries` times), and `reason`,
    what the system or Ray said."""

    def __init__(
        self,
        message: str,
        code: int = 1,
        problem: str = "",
        *,
        address: str = "",
        reason: str = "",
        retries: int = 0,
    ) -> None:
        super().__init__(message)
        self.code, self.problem = code, problem
        self.address, self.reason, self.retries = address, reason, retries


class WorkerTraceback(Exception):
    """The traceback, as text, of an error raised in a worker process: the cause of the error
    `ProcessBackend.result` raises again in the parent."""


def _serve(connection: Connection, parent: int) -> None:
    """A worker process: batches in, `play_batch`'s results out, on its own pipe, until told to
    stop (None), or its parent's end closes, or its parent is gone."""
    # Ctrl+C reaches every process of the terminal's group: the parent alone handles it (it
    # keeps what is finished and ends the workers), so workers print no traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)
    while True:
        try:
            message = connection.recv()
        except EOFError:
            return
        if message is None:
            return
        play, jobs = message
        try:
            outcome: tuple[bool, Any] = (True, play_batch(play, jobs))
        except Exception as error:  # said in the parent, where result() raises it again
            outcome = (False, (_portable(error), traceback.format_exc()))
        connection.send(outcome)


def _portable(error: Exception) -> Exception:
    """`error` if it survives pickling, else a RuntimeError that says what it was."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


@dataclass
class _Worker:
    process: BaseProcess
    connection: Connection  # the parent's end of the worker's own pipe
    ticket: int | None = None  # the batch it plays


class ProcessBackend:
    """`workers` processes of this machine, each with a pipe of its own, so that a worker ended
    in the middle of sending a result (Ctrl+C, `kill -9`, out of memory) breaks only its own
    pipe. A queue shared by all workers (ProcessPoolExecutor's) is left locked, with half a
    message in it, and the parent waits for the rest forever."""

    batch_seconds = 0.1  # a batch costs a few hundred microseconds of pickling and queueing

    def __init__(self, workers: int) -> None:
        self.slots = workers
        context = multiprocessing.get_context()
        self._workers: list[_Worker] = []
        for _ in range(workers):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, os.getpid()), daemon=True)
            process.start()
            theirs.close()  # the worker's end lives in the worker alone: its death is an EOF
            self._workers.append(_Worker(process, mine))
        self._queued: deque[tuple[int, Callable[[Any], Any], Sequence[Any]]] = deque()
        self._outcomes: dict[int, tuple[bool, Any]] = {}
        self._tickets = itertools.count()
        self._broken: BrokenProcessPool | None = None

    def submit(self, play: Callable[[Any], Any], jobs: Sequence[Any]) -> Hashable:
        if self._broken is not None:
            raise self._broken
        ticket = next(self._tickets)
        self._queued.append((ticket, play, jobs))
        self._hand_out()
        return ticket

    def wait(self, tickets: Sequence[Hashable]) -> Sequence[Hashable]:
        while not (done := [ticket for ticket in tickets if ticket in self._outcomes]):
            busy = {
                worker.connection: worker for worker in self._workers if worker.ticket is not None
            }
            if not busy:
                raise ValueError("none of these batches is running or queued")
            for connection in connection_wait(list(busy)):
                self._take(busy[cast("Connection", connection)])
            self._hand_out()
        return done

    def result(self, ticket: Hashable) -> tuple[list[Any], float]:
        ok, value = self._outcomes.pop(cast("int", ticket))
        if ok:
            return cast("tuple[list[Any], float]", value)
        if isinstance(value, BaseException):
            raise value
        error, text = value
        raise error from WorkerTraceback(text)

    def cancel(self, tickets: Sequence[Hashable]) -> None:
        """Drop the batches not yet handed to a worker; those running finish, unread."""
        dropped = set(tickets)
        self._queued = deque(batch for batch in self._queued if batch[0] not in dropped)

    def close(self, abandon: bool = False) -> None:
        """End the workers: once their batches are played, or with `abandon` at once, without
        waiting for the batches still running (a long match of a strong bot can take minutes)."""
        self._queued.clear()
        for worker in self._workers:
            if abandon:
                worker.process.terminate()
            elif worker.ticket is not None:
                self._take(worker)  # read, or its worker would wait to send it forever
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.connection.send(None)
            worker.process.join()
            worker.connection.close()
            worker.process.close()
        self._workers = []

    def _hand_out(self) -> None:
        if self._broken is not None:
            return
        for worker in self._workers:
            if not self._queued:
                return
            if worker.ticket is None:
                ticket, play, jobs = self._queued.popleft()
                worker.ticket = ticket
                with contextlib.suppress(OSError):  # a dead worker: its pipe says so to wait()
                    worker.connection.send((play, jobs))

    def _take(self, worker: _Worker) -> None:
        """The outcome of `worker`'s batch, now that its pipe has something to read. A worker
        that died breaks the pool, as it does ProcessPoolExecutor: its batch and every queued
        one fail with BrokenProcessPool, and so does every later submit."""
        assert worker.ticket is not None
        try:
            self._outcomes[worker.ticket] = worker.connection.recv()
        except (EOFError, OSError):
            self._broken = BrokenProcessPool("a worker process died (out of memory, or killed)")
            self._outcomes[worker.ticket] = (False, self._broken)
            for ticket, _, _ in self._queued:
                self._outcomes[ticket] = (False, self._broken)
            self._queued.clear()
        worker.ticket = None


@contextmanager
def open_backend(
    name: str = "process", workers: int | None = None, address: str | None = None
) -> Iterator[Backend | None]:
    """The backend to play on, closed afterwards; None means in this process, one job at a time
    (`process` with one worker: no pool, no pickling). `workers` is the number of processes, or
    for `ray` the batches run at once (default: every CPU of the cluster; a local cluster is
    started with that many). Raises BackendError (code 2 for a bad choice of options)."""
    if name not in BACKENDS:
        raise BackendError(
            f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}", 2, "unknown"
        )
    if name == "process":
        if address is not None:
            raise BackendError("--address is for --backend ray", 2, "address")
        if (workers or 1) <= 1:
            yield None
            return
        pool = ProcessBackend(workers or 1)
        try:
            yield pool
        except BaseException:
            pool.close(abandon=True)
            raise
        pool.close()
        return
    from exact61.scale.ray_backend import RayBackend

    cluster = RayBackend(workers, address)
    try:
        yield cluster
    finally:
        cluster.close()
