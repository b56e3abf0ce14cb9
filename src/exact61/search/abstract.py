"""The layout as the rules score it: free attach points by value and kind (R13, R14).

What a placement does to the rest of a round depends only on the tile, the value of the attach
point and its kind: a free end of a non-double (it scores its pips), a line side of a double (the
double counts 2 x pip until both are joined) or a side arm (counts nothing until used). There is
one double per value, so line sides and arms of a value belong to the same spinner. Placements
with the same key are the same move: `armA` and `armB` of a spinner with both arms free, the two
line sides of an opening double, two free ends showing the same value.
"""

from __future__ import annotations

from collections.abc import Iterable

from exact61.core import Action, Draw, Play, Tile, TileEnd
from exact61.core.tiles import TILE_INDEX

END, LINE, ARM = 0, 1, 2  # kinds of attach point
KIND_OF_END = {
    TileEnd.LOW: END,
    TileEnd.HIGH: END,
    TileEnd.LINE_A: LINE,
    TileEnd.LINE_B: LINE,
    TileEnd.ARM_A: ARM,
    TileEnd.ARM_B: ARM,
}
OPENING = -1  # the kind of a round's first placement (R7)

_KEYS: dict[Action, int] = {}


def placement_key(action: Action) -> int:
    """A small int naming the move `action` makes: equal for equivalent placements.

    tile index * 64 + value * 4 + kind (OPENING: kind 3); a draw is -1 and a pass -2.
    """
    key = _KEYS.get(action)
    if key is None:
        if isinstance(action, Play):
            t = TILE_INDEX[action.tile]
            at = action.at
            key = t * 64 + 3 if at is None else t * 64 + at.value * 4 + KIND_OF_END[at.end]
        else:
            key = -1 if isinstance(action, Draw) else -2
        _KEYS[action] = key
    return key


def index_mask(indices: Iterable[int]) -> int:
    """Tiles given by index (`TILE_INDEX`) as the bit mask the solver's hands are."""
    mask = 0
    for t in indices:
        mask |= 1 << t
    return mask


def tile_mask(tiles: Iterable[Tile]) -> int:
    """Tiles as the bit mask the solver's hands are."""
    return index_mask(TILE_INDEX[t] for t in tiles)
