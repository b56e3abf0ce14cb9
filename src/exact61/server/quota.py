"""How much one address may ask of the server: token buckets per address, and a bound on the
requests that cost seconds of work (replays), which run in the bots' processes, not the server's
own, so that no client can slow moves in other games."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

_T = TypeVar("_T")


class Bucket:
    """A token bucket: `rate` a second, `burst` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class Quotas:
    """A bucket per address: `per_minute` a minute, as many at once. Past `most` addresses it
    starts afresh (each bucket then full again) rather than grow without end."""

    def __init__(self, per_minute: float, most: int = 10_000) -> None:
        self.per_minute, self.most = per_minute, most
        self.buckets: dict[str, Bucket] = {}

    def take(self, address: str) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.most:
                self.buckets.clear()
            bucket = self.buckets[address] = Bucket(self.per_minute / 60, self.per_minute)
        return bucket.take()


class Busy(Exception):
    """Every place for expensive work stayed taken for as long as a request may wait."""


class Expensive:
    """Work a request may ask for that costs seconds of CPU: each address its quota, at most
    `at_once` at a time, run by `run` (in another process); a request waits `wait` seconds at
    most for its turn (then Busy)."""

    def __init__(
        self,
        run: Callable[..., Awaitable[Any]],
        *,
        per_minute: float,
        at_once: int,
        wait: float = 20.0,
    ) -> None:
        self.run, self.quotas, self.wait = run, Quotas(per_minute), wait
        self.places = asyncio.Semaphore(at_once)

    async def __call__(self, work: Callable[..., _T], *args: Any) -> _T:
        try:
            async with asyncio.timeout(self.wait):
                await self.places.acquire()
        except TimeoutError:
            raise Busy from None
        try:
            result: _T = await self.run(work, *args)
            return result
        finally:
            self.places.release()
