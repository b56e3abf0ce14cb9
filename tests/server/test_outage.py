"""The database goes away mid-game and comes back (issue 23): meanwhile every request is
answered `unavailable` (a 503, an `error` frame), never a traceback, and the server goes on by
itself once the database is back: the refused action is made again, new connections get in,
and the match is played to its end. PostgreSQL in a cluster of the test's own (Debian's
`pg_createcluster`, as `pg_virtualenv` makes one), stopped and started under a running
`exact61 serve`."""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.server import cluster
from tests.server.kit import IN_CI, Client, ServerProcess, play_game

pytestmark = [pytest.mark.server, pytest.mark.slow]


@contextlib.contextmanager
def own_cluster() -> Iterator[tuple[str, Callable[[bool], None]]]:
    """A new PostgreSQL cluster on a free port, trusting local connections; yields its URL and
    a function that stops (`False`) or starts (`True`) it; dropped afterwards."""
    if shutil.which("pg_createcluster") is None:
        message = "no pg_createcluster (Debian's postgresql-common)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    with cluster.own_cluster("outage") as made:
        yield made


async def test_the_database_stops_and_starts_under_a_game(tmp_path: Path) -> None:
    with own_cluster() as (url, switch):
        process = ServerProcess(url, tmp_path)
        server = process.start()
        try:
            game = server.create(["human", "human"])
            clients = await play_game(server, game, stop_after=6)
            switch(False)
            lobby = httpx.get(f"{server.url}/api/games", timeout=30)
            assert lobby.status_code == 503 and lobby.json()["error"] == "unavailable"
            made = httpx.post(
                f"{server.url}/api/games", json={"players": 2, "seats": ["human"] * 2}
            )
            assert made.status_code == 503 and made.json()["error"] == "unavailable"
            state = max((c.state for c in clients.values()), key=lambda s: s["seq"])
            mover = clients[state["to_act"]]
            mine = await mover.wait_seq(state["seq"])  # it may come a moment after the other's
            before = len(mover.frames)
            act = {"type": "act", "seq": state["seq"], "action": mine["legal"][0]}
            await mover.send(act)
            refused = await mover.wait(lambda f: f.get("type") == "error", after=before)
            assert refused["code"] == "unavailable"
            seat = next(s for s in game["seats"] if s["seat"] == state["to_act"])
            newcomer = await Client.connect(server, game["game"], seat["token"])
            told = await newcomer.wait(lambda f: f.get("type") in ("error", "state"))
            assert told["type"] == "error" and told["code"] == "unavailable"
            switch(True)
            deadline = time.monotonic() + 60
            while httpx.get(f"{server.url}/api/games", timeout=30).status_code != 200:
                assert time.monotonic() < deadline, "the server did not recover"
                time.sleep(0.5)
            for client in clients.values():  # the refused action was never applied
                assert client.state["seq"] == state["seq"]
            back = await Client.connect(server, game["game"], seat["token"])
            await back.wait(lambda f: f.get("type") == "state")
            await play_game(server, game, clients=clients)  # to the end of the match
            final = httpx.get(f"{server.url}/api/games/{game['game']}").json()
            assert final["status"] == "over"
            for client in [*clients.values(), newcomer, back]:
                await client.close()
        finally:
            process.stop()
        log = process.log.read_text()
        assert "Traceback" not in log and "Exception in ASGI application" not in log, log[-3000:]
        assert "Task exception was never retrieved" not in log
        assert "the database is unavailable" in log  # said, in one line each
