"""Tiles of the double-six set (R1).

`Tile` is an immutable value type; the 28 tiles of the set exist once each in `ALL_TILES`, and
`Tile(a, b)` checks the pips. Tiles are written low pip first, as in the rule documents: `[1|4]`.

The engine works on small integer indices internally (a tile's index is its place in
`ALL_TILES`); the tables here map between both forms.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from exact61.core.errors import RuleError

MAX_PIP = 6


class _TileFields(NamedTuple):
    low: int
    high: int


class Tile(_TileFields):
    """One tile `[low|high]` with `0 <= low <= high <= 6` (R1)."""

    __slots__ = ()

    def __new__(cls, low: int, high: int) -> Tile:
        if type(low) is not int or type(high) is not int:
            raise RuleError("R1", f"tile pips must be whole numbers, not {low!r} and {high!r}")
        if not 0 <= low <= high <= MAX_PIP:
            raise RuleError(
                "R1", f"no tile [{low}|{high}] in a double-six set (write it low pip first)"
            )
        return super().__new__(cls, low, high)

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def ordinal(self) -> int:
        """The tile's place in `ALL_TILES`."""
        return TILE_INDEX[self]

    def __str__(self) -> str:
        return f"[{self.low}|{self.high}]"

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"


ALL_TILES: tuple[Tile, ...] = tuple(
    Tile(low, high) for low in range(MAX_PIP + 1) for high in range(low, MAX_PIP + 1)
)
TILE_INDEX: dict[Tile, int] = {t: i for i, t in enumerate(ALL_TILES)}
TILE_COUNT = len(ALL_TILES)
# Flat tables for the engine's hot paths, by tile index.
LOW: tuple[int, ...] = tuple(t.low for t in ALL_TILES)
HIGH: tuple[int, ...] = tuple(t.high for t in ALL_TILES)
PIPS: tuple[int, ...] = tuple(t.low + t.high for t in ALL_TILES)
IS_DOUBLE: tuple[bool, ...] = tuple(t.low == t.high for t in ALL_TILES)
# The values a tile shows, low first (one for a double).
VALUES: tuple[tuple[int, ...], ...] = tuple(
    (t.low,) if t.low == t.high else (t.low, t.high) for t in ALL_TILES
)
# Bit v is set when the tile shows pip value v.
VALUE_MASK: tuple[int, ...] = tuple((1 << t.low) | (1 << t.high) for t in ALL_TILES)


def tile_from(value: object) -> Tile:
    """A tile from `[low, high]` (a list or tuple of two ints), or the tile itself."""
    if isinstance(value, Tile):
        return value
    if isinstance(value, (list, tuple)) and len(value) == 2:
        low, high = value
        return Tile(low, high)
    raise RuleError("R1", f"a tile is written [low, high], not {value!r}")


def pip_sum(tiles: Iterable[Tile]) -> int:
    """Total pips of some tiles (a hand's remaining pip sum, R19-R21)."""
    return sum(t.low + t.high for t in tiles)
