"""Where the server's bots, stand-ins and hints think: a process pool shared in turn between
the addresses that asked (`Turns`), or the server itself when it has no pool."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from exact61.core import Action
from exact61.server.quota import Turns
from exact61.table import BotRequest, decide

log = logging.getLogger("exact61.server")

_T = TypeVar("_T")


class Thinkers:
    """Where bots and hints think: a process pool of `workers` processes, made again if one
    dies (and the thinking done here meanwhile), or in the server itself when there is no pool.
    The processes are shared in turn between owners (`Turns`: the address that made a game,
    or that asked for a hint or a replay), one owner holding at most half of them."""

    def __init__(self, make_pool: Callable[[], Executor] | None, workers: int = 2) -> None:
        self._make = make_pool
        self._pool = make_pool() if make_pool else None
        self.turns = Turns(workers)

    async def decide(self, request: BotRequest, owner: str = "") -> Action:
        if len(request.legal) == 1 or self._pool is None:
            return decide(request)
        return await self.work(decide, request, owner=owner)

    async def work(self, task: Callable[..., _T], *args: Any, owner: str = "") -> _T:
        """`task(*args)` in the pool, when `owner`'s turn comes (without a pool, in a thread of
        the server: tests and `--bot-workers 0`); `task` and its arguments must pickle."""
        if self._pool is None:
            return await run_in_threadpool(task, *args)
        await self.turns.take(owner)
        try:
            return await self._run(task, *args)
        finally:
            self.turns.give_back(owner)

    async def _run(self, task: Callable[..., _T], *args: Any) -> _T:
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, task, *args)
        except BrokenProcessPool:
            log.warning("a bot process died; starting the pool again")
            assert self._make is not None
            with contextlib.suppress(Exception):
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._make()
            return task(*args)  # this once, here

    def shutdown(self) -> None:
        if self._pool is not None:
            # wait: a pool left running leaks its semaphores (a warning at exit); a search
            # under way ends within its budget, the queued ones are cancelled
            self._pool.shutdown(wait=True, cancel_futures=True)
