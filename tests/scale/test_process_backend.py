"""The process pool (`ProcessBackend`): results in job order, a job's error raised again in the
parent, a dead worker as BrokenProcessPool, and a pool that ends whenever it is told to, even
with workers in the middle of sending a result larger than a pipe holds."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from exact61.scale import ProcessBackend, run_in_order
from exact61.scale.backends import WorkerTraceback

LARGE = 4_000_000  # bytes a result: far more than a pipe holds, so its sending takes a while


def _square(n: int) -> int:
    return n * n


def _large(n: int) -> bytes:
    return bytes([n % 256]) * LARGE


def _fails_at_7(n: int) -> int:
    if n == 7:
        raise ValueError(f"job {n} cannot be played")
    return n


class _Unpicklable(Exception):
    def __init__(self, a: int, b: int) -> None:  # pickling calls it with one argument
        super().__init__(f"{a} {b}")


def _fails_unpicklably(n: int) -> int:
    raise _Unpicklable(n, n)


def _pid(_: int) -> int:
    time.sleep(0.05)
    return os.getpid()


def _ends(action: Callable[[], None], seconds: float = 60) -> bool:
    """Whether `action` returns within `seconds` (a guard against a hang, not a speed bound)."""
    worker = threading.Thread(target=action, daemon=True)
    worker.start()
    worker.join(seconds)
    return not worker.is_alive()


def test_results_come_back_in_job_order_as_in_this_process() -> None:
    pool = ProcessBackend(2)
    try:
        assert list(run_in_order(_square, range(2_000), pool)) == [n * n for n in range(2_000)]
    finally:
        pool.close()


def test_a_jobs_error_is_raised_again_with_the_workers_traceback() -> None:
    pool = ProcessBackend(2)
    try:
        with pytest.raises(ValueError, match="job 7 cannot be played") as raised:
            list(run_in_order(_fails_at_7, range(20), pool))
        assert isinstance(raised.value.__cause__, WorkerTraceback)
        assert "_fails_at_7" in str(raised.value.__cause__)
    finally:
        assert _ends(pool.close)


def test_an_error_that_does_not_pickle_is_said_as_a_runtime_error() -> None:
    pool = ProcessBackend(1)
    try:
        with pytest.raises(RuntimeError, match="_Unpicklable: 3 3"):
            list(run_in_order(_fails_unpicklably, [3], pool))
    finally:
        assert _ends(pool.close)


@pytest.mark.parametrize("taken", [1, 3, 6])
def test_abandoning_ends_workers_in_the_middle_of_sending_a_result(taken: int) -> None:
    # With the queue all workers shared (ProcessPoolExecutor), a worker ended halfway through a
    # result left its lock taken and half a message in it: shutting down waited forever.
    pool = ProcessBackend(2)
    results = run_in_order(_large, range(10_000), pool)
    for _ in range(taken):
        next(results)
    results.close()  # as an interrupt leaves the loop: the batches out are cancelled
    assert _ends(lambda: pool.close(abandon=True))


def test_closing_after_leaving_early_waits_for_the_batches_running() -> None:
    pool = ProcessBackend(2)
    results = run_in_order(_large, range(10_000), pool)
    next(results)
    results.close()  # their results are never read: the workers must not wait to send them
    assert _ends(pool.close)


def test_a_dead_worker_breaks_the_pool() -> None:
    pool = ProcessBackend(2)
    try:
        results = run_in_order(_pid, range(1_000), pool)
        os.kill(next(results), signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            list(results)
        with pytest.raises(BrokenProcessPool):
            pool.submit(_square, [1])
    finally:
        assert _ends(pool.close)


def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    """`kill -9` of a command running --workers 2 left its workers waiting for ever (each held
    the parent's end of its own pipe, so no EOF came), holding a pipe's --out - open."""
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time\n"
            "from exact61.scale import ProcessBackend\n"
            "backend = ProcessBackend(2)\n"
            "print(*[w.process.pid for w in backend._workers], flush=True)\n"
            "time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdout is not None
    workers = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(workers) == 2
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        for pid in workers:  # reaped by init; a zombie of ours would be reaped here
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        time.sleep(0.1)
    alive = [pid for pid in workers if Path(f"/proc/{pid}").exists() and _running(pid)]
    assert not alive


def _running(pid: int) -> bool:
    """Whether `pid` is a process still running (not a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False
