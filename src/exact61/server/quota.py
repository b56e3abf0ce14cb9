"""How much one address may ask of the server: token buckets per address; a bound on the
requests that cost seconds of work (replays), which run in the bots' processes, not the server's
own, so that no client can slow moves in other games; and the bots' processes shared in turn
between addresses (`Turns`), so that no client's games make another's bots wait."""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import math
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the limits' defaults are read without the server extra: stdlib only
    from starlette.requests import HTTPConnection

_T = TypeVar("_T")


class Bucket:
    """A token bucket: `rate` a second, `burst` at once, and at least one at once (a burst
    below one would refuse every request, however slow the rate)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, max(1.0, burst)
        self.level, self.at = self.burst, time.monotonic()

    def tokens(self, now: float) -> float:
        """The tokens in the bucket at `now` (a `time.monotonic()`): its level, refilled."""
        return min(self.burst, self.level + (now - self.at) * self.rate)

    def take(self) -> bool:
        now = time.monotonic()
        self.level, self.at = self.tokens(now), now
        if self.level < 1:
            return False
        self.level -= 1
        return True

    def wait(self) -> float:
        """Seconds until `take` would give a token (0 when it would now)."""
        return max(0.0, (1 - self.tokens(time.monotonic())) / self.rate)


def client_key(connection: HTTPConnection) -> str:
    """What the limits per address count a request's or a socket's client as: an IPv4 address;
    for IPv6, its /64 (one host holds all of its 2^64 addresses: SLAAC, privacy addresses), and
    an IPv4 address reached over IPv6 (`::ffff:a.b.c.d`) as that IPv4 address. Anything else
    as it is; no client known, `?`."""
    if connection.client is None:
        return "?"
    host = connection.client.host
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Quotas:
    """A bucket per address: `per_minute` a minute, as many at once. Past `most` addresses the
    buckets that are full again go (they are as new ones), then the fullest: forgetting a
    bucket hands its client a full one, so the fewest tokens are given back, and an emptied
    bucket outlasts every one with tokens left, however long its client waits. Only where every
    bucket kept is empty (`most` addresses, each exhausted at once) does one go, the least
    recently used: memory stays bounded, and a client must then outnumber `most` addresses of
    exhausted clients to be given its quota back."""

    def __init__(self, per_minute: float, most: int = 10_000) -> None:
        # two at the least: one bucket cannot keep an emptied client's and make room for a
        # newcomer, and forgetting it handed the client a full quota at its next request
        self.per_minute, self.most = per_minute, max(2, most)
        self.buckets: dict[str, Bucket] = {}  # the least recently used first (for ties)

    def take(self, address: str) -> bool:
        bucket = self.buckets.pop(address, None)
        if bucket is None:
            if len(self.buckets) >= self.most:
                self._make_room()
            bucket = Bucket(self.per_minute / 60, self.per_minute)
        self.buckets[address] = bucket  # the most recently used now
        return bucket.take()

    def _make_room(self) -> None:
        """Forget the full buckets, and if that is not a tenth of them, the fullest too (of
        those with as many whole tokens, the least recently used)."""
        now = time.monotonic()
        levels = {a: b.tokens(now) for a, b in self.buckets.items()}
        for address, bucket in list(self.buckets.items()):
            if levels[address] >= bucket.burst:
                del self.buckets[address]
        excess = len(self.buckets) - (self.most - max(1, self.most // 10))
        # by the requests each may make now (whole tokens); stable, so ties stay LRU-first
        fullest = sorted(self.buckets, key=lambda a: -math.floor(levels[a]))
        for address in fullest[: max(0, excess)]:
            del self.buckets[address]

    def retry_after(self, address: str) -> dict[str, str]:
        """The `Retry-After` header of a 429 for `address` (RFC 9110): whole seconds until its
        next token."""
        bucket = self.buckets.get(address)
        seconds = 0.0 if bucket is None else bucket.wait()
        return {"Retry-After": str(max(1, math.ceil(seconds)))}


class Listings:
    """The games each address has waiting in the lobby, so that no one address fills the list
    everyone sees (`Limits.open_games_per_address`). In memory only, as every limit here (the
    server keeps no address on disk): a restart, or another server on the same database,
    counts afresh. Past `most` addresses the least recently seen go.

    A game is counted from the moment its making is allowed (`reserve`) to the one it is made
    or fails (`settle`): requests from one address at once each wait for the store between the
    two, and counting only the games made let every one of them through."""

    def __init__(self, per_address: int, most: int = 10_000) -> None:
        self.per_address, self.most = per_address, max(1, most)
        self.games: dict[str, list[str]] = {}  # the least recently seen address first
        self.making: collections.Counter[str] = collections.Counter()  # reserved, not settled

    def of(self, address: str) -> list[str]:
        """The games `address` listed that may still wait in the lobby."""
        return list(self.games.get(address, ()))

    def reserve(self, address: str, asked: Collection[str], waiting: Collection[str]) -> bool:
        """Keep of `address`'s games those still `waiting` (open, playing, a seat free: the
        store says which of those it was `asked` about; one listed since it was asked stays);
        whether it may list one more, those being made counted. If so, the one more is being
        made until `settle`."""
        kept = [g for g in self.games.pop(address, ()) if g in waiting or g not in asked]
        if kept:
            self.games[address] = kept
        if len(kept) + self.making[address] >= self.per_address:
            return False
        self.making[address] += 1
        return True

    def settle(self, address: str, game: str | None) -> None:
        """A game `reserve` allowed is made (`game`, now waiting in the lobby) or failed (None)."""
        self.making[address] -= 1
        if self.making[address] <= 0:
            del self.making[address]
        if game is None:
            return
        kept = self.games.pop(address, [])
        if not kept and len(self.games) >= self.most:
            del self.games[next(iter(self.games))]
        self.games[address] = [*kept, game]


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

    async def __call__(self, work: Callable[..., _T], *args: Any, owner: str = "") -> _T:
        try:
            async with asyncio.timeout(self.wait):
                await self.places.acquire()
        except TimeoutError:
            raise Busy from None
        try:
            result: _T = await self.run(work, *args, owner=owner)
            return result
        finally:
            self.places.release()


class Turns:
    """Places for work shared fairly between owners (the addresses the work is for): at most
    `places` at once, at most `per_owner` of them held by one owner, and a place that frees goes
    to the next owner in turn that has work waiting (round-robin, each owner's own work in the
    order asked). An owner with many games therefore waits for itself, never makes another wait
    for more than the work already under way."""

    def __init__(self, places: int, per_owner: int | None = None) -> None:
        self.places = max(1, places)
        self.per_owner = max(1, per_owner if per_owner is not None else self.places // 2)
        self.running: dict[str, int] = {}
        self.waiting: dict[str, collections.deque[asyncio.Future[None]]] = {}  # in turn order

    def _free_for(self, owner: str) -> bool:
        return (
            sum(self.running.values()) < self.places and self.running.get(owner, 0) < self.per_owner
        )

    async def take(self, owner: str) -> None:
        """Wait for a place for `owner`; `give_back` it when done."""
        if owner not in self.waiting and self._free_for(owner):
            self.running[owner] = self.running.get(owner, 0) + 1
            return
        turn = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(owner, collections.deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # the place came as it was cancelled
                self.give_back(owner)
            else:
                self._forget(owner, turn)
            raise

    def give_back(self, owner: str) -> None:
        left = self.running[owner] - 1
        if left:
            self.running[owner] = left
        else:
            del self.running[owner]
        queue = self.waiting.pop(owner, None)
        if queue is not None:
            self.waiting[owner] = queue  # just served: the others first
        self._hand_on()

    def _forget(self, owner: str, turn: asyncio.Future[None]) -> None:
        queue = self.waiting.get(owner)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self.waiting[owner]

    def _hand_on(self) -> None:
        """Give free places to the owners next in turn that may take one."""
        for owner in list(self.waiting):
            if not self._free_for(owner):
                continue
            queue = self.waiting.pop(owner)
            while queue and queue[0].cancelled():  # given up while waiting
                queue.popleft()
            if not queue:
                continue
            turn = queue.popleft()
            if queue:
                self.waiting[owner] = queue  # to the back of the round
            self.running[owner] = self.running.get(owner, 0) + 1
            turn.set_result(None)


MIN_STATES_PER_MINUTE = 120.0  # whole states per address a minute, however few connections


@dataclass(frozen=True)
class Limits:
    """How much a connection may ask of the server."""

    hello_seconds: float = 10.0  # to say who it is
    idle_seconds: float = 900.0  # without a frame from the client, then closed
    rate: float = 20.0  # frames per second, sustained (exact61 serve --frame-rate)
    burst: float = 60.0  # frames at once
    games_per_minute: float = 30.0  # new games one address may make (as many again at once)
    queue: int = 256  # frames waiting to go out before a stalled client is dropped
    sockets_per_address: int = 64  # WebSocket connections one address may hold, all games
    replays_per_minute: float = 6.0  # records one address may post for replay (as many at once)
    replays_at_once: int = 2  # replays worked out at a time, for everyone
    resyncs_per_minute: float = 30.0  # hellos after the first, per connection (a few at once)
    hints_per_minute: float = 60.0  # hints one address may ask for (as many at once)
    spectators_per_address: int = 4  # spectators of one game from one address
    open_games_per_address: int = 3  # games one address may have waiting in the lobby
    # Whole states one address may ask for (every hello, a connection's first too), as many at
    # once; None: twice the connections it may hold, so every tab it has open may reload.
    states_per_minute: float | None = None

    def states_quota(self) -> float:
        if self.states_per_minute is not None:
            return self.states_per_minute
        return max(MIN_STATES_PER_MINUTE, 2.0 * self.sockets_per_address)
