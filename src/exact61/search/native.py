"""The native core's searches from Python: a seat's view as they read it, and a bot's random
source handed over and back, so that a bot searching natively draws exactly what it would have
drawn searching in Python and makes the same choice (`tests/bots/test_native_searches.py`).

A bot searches natively when the native engine is in use (`exact61.core.engines`); the Python
searches stay the reference, and play wherever the native core is not built.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import ModuleType

from exact61.core import SeatView, engines
from exact61.core.tiles import TILE_INDEX
from exact61.search.sampler import Knowledge


def native_core() -> ModuleType | None:
    """The native module when the native engine is in use, else None (search in Python)."""
    if engines.current().ENGINE != "native":
        return None
    from exact61.core import _native

    return _native


@dataclass(frozen=True)
class Seen:
    """What a seat sees of the round in play, as the native searches read it: its own tiles in
    the order received, the layout's placements (engine moves), the seat to act and the drawn
    tile it must place (R10), the scores, and what the view reveals of the hidden tiles
    (`Knowledge`: the unseen tiles, each hidden slot's forbidden values)."""

    players: int
    seat: int
    own: tuple[int, ...]
    placements: tuple[int, ...]
    to_act: int
    opener: int
    scores: tuple[int, ...]
    pending: int
    pool: tuple[int, ...]
    order: tuple[tuple[int, int], ...]


def seen(view: SeatView, knowledge: Knowledge) -> Seen:
    """What `view`'s seat sees, for a native search (its seat must be to act)."""
    assert view.to_act is not None and view.opener is not None
    return Seen(
        view.players,
        view.seat,
        tuple(TILE_INDEX[t] for t in view.hand),
        view.layout.moves,
        view.to_act,
        view.opener,
        view.scores,
        -1 if view.pending_draw is None else TILE_INDEX[view.pending_draw],
        knowledge.pool,
        knowledge.order,
    )


def state_of(rng: random.Random) -> list[int]:
    """The source's state as the native searches take it: `getstate()`'s 625 words."""
    return list(rng.getstate()[1])


def restore(rng: random.Random, words: list[int]) -> None:
    """The source as the native search left it: what it drew is drawn."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(words), gauss))
