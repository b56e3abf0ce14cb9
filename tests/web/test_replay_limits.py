"""Records posted for the replay viewer cost seconds of work each (issue 23): each address has
its quota (`rate_limited` past it, others unaffected), the work runs in the bots' processes
rather than the server's own, and at most a few run at once, a request waiting its turn for a
while and then told `busy`."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, ClassVar

import httpx
import pytest

from exact61.core import match_to_record
from exact61.server.app import Limits
from exact61.server.quota import Busy, Expensive
from exact61.server.run import Connections
from exact61.server.web import replay_answer
from tests.helpers import played_match
from tests.server.kit import Server, database_url, server_in_thread

pytestmark = pytest.mark.server

QUOTA = 3  # replays a minute per address here


class CountingPool(ProcessPoolExecutor):
    """The bots' real pool, noting the name of every function sent to it."""

    sent: ClassVar[list[str]] = []  # every pool made here: the server makes one

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.sent.append(fn.__name__)
        return super().submit(fn, *args, **kwargs)


def counting_pool() -> ProcessPoolExecutor:
    return CountingPool(1, mp_context=multiprocessing.get_context("spawn"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("replays")
    limits = Limits(rate=1e6, burst=1e6, games_per_minute=1e6, replays_per_minute=QUOTA)
    with server_in_thread(
        database_url("sqlite", folder),
        folder,
        limits=limits,
        bot_pool=counting_pool,
        connections=Connections(forwarded_allow_ips=("127.0.0.1",)),
    ) as running:
        yield running


def post(server: Server, record: dict[str, Any], address: str) -> httpx.Response:
    headers = {"x-forwarded-for": address}
    return httpx.post(f"{server.url}/api/replays", json=record, headers=headers, timeout=60)


def test_each_address_has_its_quota_and_the_work_runs_in_the_bots_processes(
    server: Server,
) -> None:
    record = match_to_record(played_match(2, 5, ["greedy", "greedy"]), seed=5)
    answers = [post(server, record, "203.0.113.9") for _ in range(QUOTA + 1)]
    assert [a.status_code for a in answers] == [200] * QUOTA + [429]
    assert answers[-1].json()["error"] == "rate_limited"
    assert answers[0].json()["positions"]  # the answer itself, worked out in the pool
    assert post(server, record, "203.0.113.10").status_code == 200  # another address
    assert CountingPool.sent.count("replay_answer") == QUOTA + 1
    bad = post(server, {"format": "other"}, "203.0.113.11")  # errors come back as they were
    assert bad.status_code == 422 and bad.json()["error"] == "bad_record"


async def test_expensive_work_waits_its_turn_then_is_busy() -> None:
    """At most `at_once` at a time: a request waits for a place, and one still without a place
    after `wait` seconds is refused (Busy), while the work under way finishes."""
    release = asyncio.Event()

    async def run(work: Callable[..., Any], *args: Any, owner: str) -> Any:
        await release.wait()
        return work(*args)

    expensive = Expensive(run, per_minute=60, at_once=1, wait=0.2)
    first = asyncio.ensure_future(expensive(replay_answer, b"[]", False))
    await asyncio.sleep(0.05)
    with pytest.raises(Busy):
        await expensive(replay_answer, b"[]", False)
    release.set()
    assert (await first)[:2] == (422, "bad_record")
    assert (await expensive(replay_answer, b"[]", False))[0] == 422  # the place is free again
