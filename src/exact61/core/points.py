"""Attach points: the named ends of the tiles on the table (R13).

A non-double on the table has two ends, `low` and `high`. A double is a spinner (R12): two line
sides, `lineA` and `lineB`, and two side arms, `armA` and `armB`, which open only once both line
sides are joined (R13). An `AttachPoint` names one end of one tile: `[1|4] low`, `[4|4] armA`.

The 70 attach points of the set exist once each in `ALL_POINTS`, in canonical order (by tile,
then high, low, lineA, lineB, armA, armB); a point's `ordinal` is its place there, as a tile's is
in `ALL_TILES`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from exact61.core.errors import RuleError
from exact61.core.tiles import ALL_TILES, TILE_INDEX, Tile


class TileEnd(StrEnum):
    """A named end of a tile on the table; the record format calls it the attach point's side.

    Declared in canonical order: high before low, then lineA, lineB, armA, armB.
    """

    HIGH = "high"
    LOW = "low"
    LINE_A = "lineA"
    LINE_B = "lineB"
    ARM_A = "armA"
    ARM_B = "armB"


NON_DOUBLE_ENDS = (TileEnd.HIGH, TileEnd.LOW)
DOUBLE_ENDS = (TileEnd.LINE_A, TileEnd.LINE_B, TileEnd.ARM_A, TileEnd.ARM_B)


class Kind:
    """The three kinds of attach point, by what they score (R14): a non-double's free end
    scores its pips; a line side belongs to a double that counts twice its pip until both line
    sides are joined; a side arm counts nothing itself."""

    END = 0
    LINE = 1
    ARM = 2


KIND_OF_END = {
    TileEnd.HIGH: Kind.END,
    TileEnd.LOW: Kind.END,
    TileEnd.LINE_A: Kind.LINE,
    TileEnd.LINE_B: Kind.LINE,
    TileEnd.ARM_A: Kind.ARM,
    TileEnd.ARM_B: Kind.ARM,
}


class _AttachPointFields(NamedTuple):
    tile: Tile
    end: TileEnd


class AttachPoint(_AttachPointFields):
    """One end of one tile on the table: `[1|4] low`, `[4|4] armA` (R13)."""

    __slots__ = ()

    def __new__(cls, tile: Tile, end: TileEnd | str) -> AttachPoint:
        if not isinstance(tile, Tile):
            raise RuleError("R13", f"an attach point names a tile, not {tile!r}")
        try:
            end = TileEnd(end)
        except ValueError:
            raise RuleError(
                "R13", f"{end!r} is not an attach point (low, high, lineA, lineB, armA, armB)"
            ) from None
        if tile.is_double == (end in NON_DOUBLE_ENDS):
            kind = "a double" if tile.is_double else "a non-double"
            raise RuleError("R13", f"{tile} is {kind} and has no end {end.value}")
        return super().__new__(cls, tile, end)

    @property
    def value(self) -> int:
        """The pip value a tile must show to attach here."""
        return self.tile.low if self.end is TileEnd.LOW else self.tile.high

    @property
    def kind(self) -> int:
        """What the point scores (`Kind`)."""
        return KIND_OF_END[self.end]

    @property
    def ordinal(self) -> int:
        """The point's place in `ALL_POINTS`."""
        return POINT_INDEX[self]

    def __str__(self) -> str:
        return f"{self.tile} {self.end.value}"

    def __repr__(self) -> str:
        return f"AttachPoint({self.tile!r}, TileEnd.{self.end.name})"


ALL_POINTS: tuple[AttachPoint, ...] = tuple(
    AttachPoint(tile, end)
    for tile in ALL_TILES
    for end in (DOUBLE_ENDS if tile.is_double else NON_DOUBLE_ENDS)
)
POINT_INDEX: dict[AttachPoint, int] = {p: i for i, p in enumerate(ALL_POINTS)}
POINT_COUNT = len(ALL_POINTS)
# By point index: the tile it belongs to (its index), the value it accepts and its kind.
POINT_TILE: tuple[int, ...] = tuple(TILE_INDEX[p.tile] for p in ALL_POINTS)
POINT_VALUE: tuple[int, ...] = tuple(p.value for p in ALL_POINTS)
POINT_KIND: tuple[int, ...] = tuple(p.kind for p in ALL_POINTS)


# R13: the end left free when a tile joins by the other (a double joins by lineA), and for
# every point a tile may join by, worked out once (drawing a layout asks for many).
_FREE_OF = {TileEnd.LOW: TileEnd.HIGH, TileEnd.HIGH: TileEnd.LOW, TileEnd.LINE_A: TileEnd.LINE_B}
_FREE_END = {p: AttachPoint(p.tile, _FREE_OF[p.end]) for p in ALL_POINTS if p.end in _FREE_OF}


def free_end(joined: AttachPoint) -> AttachPoint:
    """R13: the end of a placed tile that stays free, given the end it joined by, where the line
    runs on: a non-double's other end (the one that matched is joined, the other is free); a
    double joins by `lineA`, and its line runs on from `lineB` (its side arms branch off)."""
    free = _FREE_END.get(joined)
    if free is None:
        raise RuleError("R13", f"a placed double joins by lineA, never by {joined.end.value}")
    return free


def point_of(tile: Tile, end: TileEnd) -> int:
    """The index of `tile`'s end `end` (which it must have)."""
    return POINT_INDEX[AttachPoint(tile, end)]
