"""No frame tells anyone a tile they may not see (R5): over whole games, every state frame for
every seat and for spectators, with its log entries, is checked against the full truth."""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact61 import Phase, replay
from exact61.server.frames import (
    encode_frame,
    last_entries,
    public_state,
    state_frame,
    state_text,
)
from exact61.table import Table
from tests.server.frame_checks import leaks
from tests.server.kit import Client, database_url, play_game, server_in_thread


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), players=st.sampled_from([2, 3, 4]))
def test_every_frame_of_a_whole_game_hides_what_it_must(seed: int, players: int) -> None:
    table = Table(players, ["human"] * players, seed)
    table.deal()
    rng = random.Random(seed)
    recipients = [*range(players), None]
    checked = 0
    while not table.match.is_over:
        legal = table.match.legal_actions()
        update = table.apply(legal[rng.randrange(len(legal))])
        if table.match.phase is Phase.DEAL:
            table.deal()
        shared_text = encode_frame(public_state(table))  # as the server sends: encoded once
        for recipient in recipients:
            last = last_entries(table, [update], recipient)
            frame = state_frame(table, recipient, last)
            assert not leaks(frame, recipient, table.match), (recipient, update)
            # what goes on the wire is that very frame, the shared part joined to the own part
            assert json.loads(state_text(table, recipient, last, shared_text)) == frame
            checked += 1
    assert checked > 50


def test_the_checker_finds_a_leak() -> None:
    table = Table(2, ["human", "human"], 4)
    table.deal()
    while table.forced() is None:  # play until someone must draw
        table.apply(table.match.legal_actions()[0])
    update = table.apply(table.forced())  # type: ignore[arg-type]
    drawer = update.seat
    other = 1 - drawer
    honest = state_frame(table, other, last_entries(table, [update], other))
    assert not leaks(honest, other, table.match)
    told = state_frame(table, other, last_entries(table, [update], drawer))  # the drawer's log
    assert any("drawn tile" in leak for leak in leaks(told, other, table.match))
    peeked = state_frame(table, drawer, [])
    peeked["layout"].append({"tile": list(table.match.hand(other)[0]), "at": None})
    assert any("in the state itself" in leak for leak in leaks(peeked, drawer, table.match))
    spectator = state_frame(table, None, [])
    assert not leaks(spectator, None, table.match) and "hand" not in spectator


@pytest.mark.server
@pytest.mark.server
async def test_frames_over_real_sockets_hide_what_they_must(tmp_path: Path) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        game = server.create(["human", "bot:greedy", "human", "bot:random"])
        watcher = await Client.connect(server, game["game"], None)
        clients = await play_game(server, game)
        record = httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
        total = sum(len(r["actions"]) for r in record["rounds"])
        await watcher.wait_seq(total)
        truth = _truth_by_seq(record)
        checked = 0
        for recipient, client in [*clients.items(), (None, watcher)]:
            for frame in client.states:
                assert frame["you"] == recipient
                assert not leaks(frame, recipient, truth[frame["seq"]]), frame["seq"]
                checked += 1
        assert checked > total  # every state was checked, for three recipients
        for client in [*clients.values(), watcher]:
            await client.close()


def _truth_by_seq(record: dict[str, object]) -> dict[int, object]:
    """The full match after each action (and the deal that followed it), from the record."""
    full = replay(record)  # type: ignore[arg-type]
    table = Table(full.players, ["human"] * full.players, record["seed"])  # type: ignore[arg-type]
    table.deal()
    truth = {0: table.match.copy()}
    actions = [s.action for log in full.rounds for s in log.steps]
    for action in actions:
        table.apply(action)
        if table.match.phase is Phase.DEAL:
            table.deal()
        truth[table.seq] = table.match.copy()
    return truth
