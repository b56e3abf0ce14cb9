"""The bots' process pool: processes that think for the server's bots and hints, and end with
the server however it ends (a `kill -9` leaves no worker behind)."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from exact61.scale.parent import exit_with_parent


def bot_pool(workers: int) -> ProcessPoolExecutor:
    """`workers` processes, started by spawn (a fork of a process with an event loop and
    threads is not safe), each watching the server that started it."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )
