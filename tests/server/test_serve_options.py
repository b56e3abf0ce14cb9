"""`exact61 serve`'s limits reach the server: each option, read from the command line, is the
limit the app is made with (docs/hosting.md, "Open to the internet")."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

import exact61.server.run as server_run
from exact61.server.app import Limits
from exact61.server.quota import MIN_STATES_PER_MINUTE, Bucket, Quotas
from tests.server.kit import free_port


def limits_of(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str) -> Limits:
    from exact61.cli.main import run

    made: list[Limits] = []

    def create_app(store: Any, **options: Any) -> Any:  # in place of the app: stop there
        asyncio.run(store.close())
        made.append(options["limits"])
        raise SystemExit(0)

    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(server_run, "create_app", create_app)
    # a free port: serve checks that it can listen before it makes the app, and a server of the
    # developer's own may hold the default
    port = str(free_port())
    argv = ["exact61", "serve", "--port", port, "--bot-workers", "0", *args]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as done:
        run()
    assert done.value.code == 0 and len(made) == 1
    return made[0]


def test_the_states_an_address_may_ask_for_follow_its_connections_unless_given(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    default = limits_of(monkeypatch, tmp_path)
    assert default.states_per_minute is None
    assert default.states_quota() == max(MIN_STATES_PER_MINUTE, 2.0 * 64)
    many = limits_of(monkeypatch, tmp_path, "--connections-per-address", "500")
    assert many.sockets_per_address == 500 and many.states_quota() == 1000.0
    given = limits_of(
        monkeypatch, tmp_path, "--connections-per-address", "500", "--states-per-minute", "30"
    )
    assert given.states_per_minute == 30.0 and given.states_quota() == 30.0


def test_every_limit_option_is_the_limit_the_app_is_made_with(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    limits = limits_of(
        monkeypatch,
        tmp_path,
        "--frame-rate",
        "7",
        "--games-per-minute",
        "11",
        "--replays-per-minute",
        "2.5",
        "--hints-per-minute",
        "200",
        "--spectators-per-address",
        "12",
    )
    assert (limits.rate, limits.burst) == (7.0, 21.0)
    assert limits.games_per_minute == 11.0 and limits.replays_per_minute == 2.5
    assert limits.hints_per_minute == 200.0 and limits.spectators_per_address == 12
    default = limits_of(monkeypatch, tmp_path)
    assert (default.hints_per_minute, default.spectators_per_address) == (60.0, 4)


@pytest.mark.parametrize("per_minute", [0.1, 0.5, 1.0])
def test_a_rate_below_one_a_minute_still_lets_one_request_through(per_minute: float) -> None:
    """`--games-per-minute 0.5` (and the other per-minute limits, down to their 0.1) means one
    now and the next in two minutes, not none ever: a bucket holds at least one token."""
    quotas = Quotas(per_minute)
    assert quotas.take("192.0.2.1") and not quotas.take("192.0.2.1")
    assert quotas.take("192.0.2.2")  # each address its own
    frames = Bucket(rate=0.1, burst=0.3)  # --frame-rate 0.1: three times as many at once
    assert frames.take() and not frames.take()
