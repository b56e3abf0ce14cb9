"""The bots' process pool: processes that think for the server's bots and hints, and end with
the server however it ends (a `kill -9` leaves no worker behind)."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK_SECONDS = 0.5


def bot_pool(workers: int) -> ProcessPoolExecutor:
    """`workers` processes, started by spawn (a fork of a process with an event loop and
    threads is not safe), each watching the server that started it."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )


def exit_with_parent(parent: int) -> None:
    """In a worker: end this process once `parent` is gone. A server stopped in order shuts
    its pool down; one killed cannot, and its workers would wait for work forever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)  # no cleanup to run: the work it did is the dead server's

    threading.Thread(target=watch, name="exact61-parent-watch", daemon=True).start()
