"""The backends batches run on: `process` (a pool of worker processes on this machine) and `ray`
(a Ray cluster, a local one unless an address is given)."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, cast

from exact61.scale.ordered import Backend, play_batch

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


def _start_worker(started: multiprocessing.SimpleQueue[int]) -> None:
    # Ctrl+C reaches every process of the terminal's group: the parent alone handles it (it
    # keeps what is finished and stops the workers), so workers print no traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    started.put(os.getpid())  # so that the parent can end this process (ProcessBackend.close)


class ProcessBackend:
    """`workers` processes of this machine (concurrent.futures)."""

    batch_seconds = 0.1  # a batch costs a few hundred microseconds of pickling and queueing

    def __init__(self, workers: int) -> None:
        self.slots = workers
        context = multiprocessing.get_context()
        self._started: multiprocessing.SimpleQueue[int] = context.SimpleQueue()
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(self._started,),
        )

    def submit(self, play: Callable[[Any], Any], jobs: Sequence[Any]) -> Hashable:
        return self._pool.submit(play_batch, play, jobs)

    def wait(self, tickets: Sequence[Hashable]) -> Sequence[Hashable]:
        done, _ = wait(cast("list[Future[Any]]", tickets), return_when=FIRST_COMPLETED)
        return list(done)

    def result(self, ticket: Hashable) -> tuple[list[Any], float]:
        return cast("Future[tuple[list[Any], float]]", ticket).result()

    def cancel(self, tickets: Sequence[Hashable]) -> None:
        for ticket in tickets:
            cast("Future[Any]", ticket).cancel()

    def close(self, abandon: bool = False) -> None:
        """Shut the pool down; `abandon`: without waiting for the batches still running (a long
        match of a strong bot can take minutes), by ending the worker processes."""
        if abandon:
            workers = set()
            while not self._started.empty():
                workers.add(self._started.get())
            for process in multiprocessing.active_children():  # alive, and started here
                if process.pid in workers:
                    process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._started.close()


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
