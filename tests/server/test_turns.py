"""The bots' processes shared in turn between addresses (issue 23): `Turns` hands each place that
frees to the next owner with work waiting, one owner holding at most its share, so that one
client's sixty games wait for each other and never make another client's bot wait for them.
Orders are asserted, not times."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from exact61.server.frames import Frame
from exact61.server.hub import Hub
from exact61.server.quota import Turns
from exact61.server.rooms import Client
from exact61.server.store import Database
from exact61.server.thinkers import Thinkers
from tests.server.kit import database_url

Started = tuple[list[str], list[asyncio.Event], list[asyncio.Future[None]]]


async def started_in_order(turns: Turns, asks: list[str]) -> Started:
    """Each owner in `asks` asks for a place, in that order; each holds it until its event is
    set. Returns the list of owners as their work started (it grows), the events and the
    tasks."""
    started: list[str] = []
    releases = [asyncio.Event() for _ in asks]

    async def work(owner: str, release: asyncio.Event) -> None:
        await turns.take(owner)
        started.append(owner)
        try:
            await release.wait()
        finally:
            turns.give_back(owner)

    tasks = []
    for owner, release in zip(asks, releases, strict=True):
        tasks.append(asyncio.ensure_future(work(owner, release)))
        await asyncio.sleep(0)  # asked in this order
    await asyncio.sleep(0)
    return started, releases, tasks


async def test_a_place_that_frees_goes_round_the_owners() -> None:
    """One place: A asked five times before B and C asked once; after A's first, B and C come
    before A's second, and A's others follow."""
    turns = Turns(1)
    started, releases, tasks = await started_in_order(turns, ["A"] * 5 + ["B", "C"])
    assert started == ["A"]
    for index in (0, 5, 6, 1, 2, 3):
        releases[index].set()
        await asyncio.sleep(0.01)
    assert started == ["A", "B", "C", "A", "A", "A", "A"]
    releases[4].set()
    await asyncio.gather(*tasks)


async def test_one_owner_never_holds_every_place() -> None:
    """Two places, one owner's share is one: B's work starts at once beside A's first, however
    many A asked for first; with nobody else waiting, A's queue goes on one at a time."""
    turns = Turns(2)
    started, releases, tasks = await started_in_order(turns, ["A"] * 4 + ["B"])
    assert started == ["A", "B"]
    releases[4].set()  # B is done: the place waits for a third owner, A keeps to its share
    await asyncio.sleep(0.01)
    assert started == ["A", "B"] and turns.running == {"A": 1}
    releases[0].set()
    await asyncio.sleep(0.01)
    assert started == ["A", "B", "A"]
    for release in releases:
        release.set()
    await asyncio.gather(*tasks)


async def test_work_given_up_while_waiting_keeps_no_place() -> None:
    turns = Turns(1)
    await turns.take("A")
    waiting = asyncio.ensure_future(turns.take("B"))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    turns.give_back("A")
    assert turns.running == {} and turns.waiting == {}
    await asyncio.wait_for(turns.take("C"), 1)  # the place is free
    assert turns.running == {"C": 1}


async def test_the_bots_processes_are_shared_in_turn() -> None:
    """Through `Thinkers` and a real pool of two workers: a client whose games asked for six
    searches first holds one worker; another client's search starts on the other at once."""
    gates = [threading.Event() for _ in range(7)]
    started: list[int] = []

    def search(index: int) -> int:
        started.append(index)
        gates[index].wait(30)
        return index

    thinkers = Thinkers(lambda: ThreadPoolExecutor(2), workers=2)
    busy = [asyncio.ensure_future(thinkers.work(search, i, owner="203.0.113.1")) for i in range(6)]
    await asyncio.sleep(0.05)
    other = asyncio.ensure_future(thinkers.work(search, 6, owner="198.51.100.2"))
    for _ in range(200):
        if len(started) == 2:
            break
        await asyncio.sleep(0.01)
    assert started == [0, 6]
    for gate in gates:
        gate.set()
    assert await other == 6 and await asyncio.gather(*busy) == list(range(6))
    thinkers.shutdown()


async def test_a_game_rebuilt_from_the_database_takes_the_turns_of_its_first_seat(
    tmp_path: Path,
) -> None:
    """The server keeps no address on disk: a game loaded again (after a restart, or let go
    when idle) is owned by the address of the first person to take a seat in it here, so one
    client's games, reconnected from one address, share that address's turns again instead of
    each taking turns of its own."""
    store = Database.open(database_url("sqlite", tmp_path), tmp_path)
    hub = Hub(store, Thinkers(None))
    sent: list[Frame] = []

    async def send(frame: Frame) -> None:
        sent.append(frame)

    try:
        made, _tokens = await hub.create(2, ["human", "bot:random"], "en", owner="203.0.113.7")
        assert made.owner == "203.0.113.7"
        hub.forget(made)
        again = await hub.room(made.id)
        assert again is not None and again is not made
        assert again.owner == ""  # nobody known yet: until someone sits, its own turns
        await again.join(Client(None, send, address="198.51.100.1"), None)  # a spectator
        assert again.owner == ""
        await again.join(Client(0, send, address="203.0.113.7"), None)
        assert again.owner == "203.0.113.7"
        await again.join(Client(0, send, address="198.51.100.2"), None)  # the seat's 2nd tab
        assert again.owner == "203.0.113.7"
    finally:
        await store.close()
