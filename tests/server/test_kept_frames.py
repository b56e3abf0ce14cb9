"""A room keeps what its frames are made of (the layout's part of the state, each update's log
entries) from one frame to the next: every frame it sends is the one made afresh from the table,
for every seat and a spectator, also after a write that failed put the table back."""

from __future__ import annotations

import json
import random
from typing import Any

from exact61 import Phase, Play
from exact61.server.frames import Frame, last_entries, personal_state, public_state
from exact61.server.protocol import GameError
from exact61.server.rooms import Client, Room
from exact61.server.store import ActionRow, GameRow, Totals
from exact61.server.thinkers import Thinkers
from exact61.table import Table, Update


class Store:
    """Stores nothing, and refuses the writes it is told to (`fail`)."""

    def __init__(self) -> None:
        self.fail = False

    async def append(self, game_id: str, row: ActionRow, *, totals: Totals | None = None) -> None:
        if self.fail:
            self.fail = False
            raise OSError("the disk is full")

    async def actions_of(self, game_id: str, after: int = 0) -> list[ActionRow]:
        return []  # what a failed write left: nothing


def fresh(room: Room, recipient: int | None, updates: list[Update]) -> dict[str, Any]:
    table = room.table
    return {
        **personal_state(table, recipient, last_entries(table, updates, recipient)),
        **public_state(table, connected=room.connected(), away=room.away, clock=room.timer.json()),
    }


async def test_every_frame_of_a_room_is_the_one_made_afresh() -> None:
    for seed in range(4):
        table = Table(2, ["human", "human"], seed)
        table.deal()
        row = GameRow("g", 2, ["human", "human"], "en", seed, "", False, "playing", 0, [0, 0], None)
        store = Store()
        room = Room(row, table, store, Thinkers(None))  # type: ignore[arg-type]
        inboxes: dict[int | None, list[Frame]] = {0: [], 1: [], None: []}
        for recipient, inbox in inboxes.items():

            async def send(frame: Frame, inbox: list[Frame] = inbox) -> None:
                inbox.append(frame)

            await room.join(Client(recipient, send), None)
        rng = random.Random(seed)
        failed = compared = 0
        while not table.match.is_over and compared < 300:
            legal = table.match.legal_actions()
            seat, action = table.to_act, legal[rng.randrange(len(legal))]
            assert seat is not None
            if isinstance(action, Play) and len(legal) > 1 and rng.random() < 0.2:
                store.fail = True  # the write fails: the table goes back, another tile follows
                try:
                    await room.act(seat, table.seq, action)
                except GameError as err:
                    assert err.code == "unavailable"
                failed += 1
                action = next(a for a in legal if a != action)
            await room.act(seat, table.seq, action)
            update = room.updates[-1]
            for recipient, inbox in inboxes.items():
                states = [f for f in inbox if isinstance(f, str)]
                assert json.loads(states[-1]) == fresh(room, recipient, [update]), update
                compared += 1
            if table.match.phase is Phase.DEAL:  # the room deals at once: never seen here
                raise AssertionError("the room left a round undealt")
            if table.seq % 7 == 0:  # someone comes back, having seen the state 5 actions ago
                late: list[Frame] = []

                async def keep(frame: Frame, late: list[Frame] = late) -> None:
                    late.append(frame)

                comer = Client(0, keep)
                await room.join(comer, table.seq - 5)
                await room.leave(comer)
                states = [f for f in late if isinstance(f, str)]
                assert json.loads(states[0]) == fresh(room, 0, room.updates[-5:])
                compared += 1
        assert failed and compared > 100
