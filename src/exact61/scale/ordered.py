"""Playing jobs on a backend and handing the results back in job order, memory flat."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Hashable, Sequence
from typing import Any, Protocol, TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")

MAX_BATCH = 10_000


class Backend(Protocol):
    """Where batches run: `submit` starts `play_batch(play, jobs)` somewhere and returns a
    ticket; `wait` blocks until at least one of the tickets is done and returns the done ones."""

    slots: int  # batches that run at once
    batch_seconds: float  # how long a batch should take, so its own cost is a small share

    def submit(self, play: Callable[[Any], Any], jobs: Sequence[Any]) -> Hashable: ...

    def wait(self, tickets: Sequence[Hashable]) -> Sequence[Hashable]: ...

    def result(self, ticket: Hashable) -> tuple[list[Any], float]: ...

    def cancel(self, tickets: Sequence[Hashable]) -> None: ...


def play_batch(play: Callable[[T], R], jobs: Sequence[T]) -> tuple[list[R], float]:
    """What a worker runs: every job of a batch in order, and the seconds the batch took."""
    started = time.perf_counter()
    results = [play(job) for job in jobs]
    return results, time.perf_counter() - started


class _BatchSize:
    """Batches of about `seconds` each, from the seconds per job seen so far; the first ones
    hold one job, and the last ones stay small enough to be shared among the slots."""

    def __init__(self, seconds: float, slots: int) -> None:
        self.seconds = seconds
        self.slots = slots
        self.per_job: float | None = None

    def observe(self, jobs: int, seconds: float) -> None:
        if jobs:
            rate = seconds / jobs
            self.per_job = rate if self.per_job is None else 0.7 * self.per_job + 0.3 * rate

    def next(self, remaining: int) -> int:
        if self.per_job is None:
            return 1
        size = int(self.seconds / max(self.per_job, 1e-7))
        return max(1, min(size, remaining // (2 * self.slots), MAX_BATCH))


def run_in_order(
    play: Callable[[T], R],
    jobs: Sequence[T],
    backend: Backend | None = None,
    on_done: Callable[[int], None] | None = None,
) -> Generator[R, None, None]:
    """Yield `play(job)` for every job, in job order, as soon as each is next in line.

    With no backend, in this process, one job at a time. Otherwise the jobs go out in batches,
    at most two per slot submitted or waiting to be yielded, so memory stays flat however many
    jobs there are. Each batch is submitted once and its ticket taken out when its result comes:
    a ticket reported done twice (a backend that retried the batch) is yielded once, and nothing
    is yielded before every job ahead of it. `on_done(n)` is told as each batch of `n` jobs
    finishes. Leaving the loop early (an interrupt, an error) cancels the batches still out.
    """
    if backend is None:
        for job in jobs:
            result = play(job)
            if on_done:
                on_done(1)
            yield result
        return
    size = _BatchSize(backend.batch_seconds, backend.slots)
    window = 2 * backend.slots
    pending: dict[Hashable, tuple[int, int]] = {}  # ticket -> its batch's first job, size
    ready: dict[int, list[R]] = {}  # first job -> the batch's results, not yet yielded
    submitted = 0  # jobs before this one were submitted
    yielded = 0  # jobs before this one were yielded
    try:
        while yielded < len(jobs):
            while submitted < len(jobs) and len(pending) + len(ready) < window:
                n = size.next(len(jobs) - submitted)
                ticket = backend.submit(play, jobs[submitted : submitted + n])
                pending[ticket] = (submitted, n)
                submitted += n
            for ticket in backend.wait(list(pending)):
                out = pending.pop(ticket, None)
                if out is None:  # reported twice
                    continue
                first, n = out
                results, seconds = backend.result(ticket)
                if len(results) != n:
                    raise RuntimeError(f"a batch of {n} jobs came back with {len(results)}")
                size.observe(len(results), seconds)
                ready[first] = cast("list[R]", results)
                if on_done:
                    on_done(len(results))
            while yielded in ready:
                batch = ready.pop(yielded)
                yielded += len(batch)
                yield from batch
    finally:
        if pending:
            backend.cancel(list(pending))
