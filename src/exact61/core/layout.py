"""The layout: the tiles on the table as a tree of spinners (R9, R12-R15).

Every tile on the table has named ends (`TileEnd`). A non-double has `low` and `high`; a double
has two line sides `lineA`, `lineB` and two side arms `armA`, `armB` (R13). An `AttachPoint` is
one end of one tile on the table. The layout answers, after any sequence of placements: the free
attach points, the scored contributions, the end sum and the credit.

Internally a tile is its index in `ALL_TILES` and an attach point is `tile_index * 6 + end_rank`,
so the engine's inner loop touches only small ints and prebuilt objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple

from exact61.core.errors import IllegalMoveError, RuleError
from exact61.core.tiles import (
    ALL_TILES,
    HIGH,
    IS_DOUBLE,
    LOW,
    MAX_PIP,
    PIPS,
    TILE_INDEX,
    VALUE_MASK,
    Tile,
)


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

    @property
    def rank(self) -> int:
        return _END_RANK[self]


_ENDS: tuple[TileEnd, ...] = tuple(TileEnd)
_END_RANK: dict[TileEnd, int] = {e: i for i, e in enumerate(_ENDS)}
_NON_DOUBLE_ENDS = frozenset({TileEnd.HIGH, TileEnd.LOW})
_LINE_SIDES = frozenset({TileEnd.LINE_A, TileEnd.LINE_B})
_ARMS = frozenset({TileEnd.ARM_A, TileEnd.ARM_B})

# Point kinds: a non-double's end scores its pips; a line side belongs to a double that counts
# 2 x pip until both line sides are joined; an arm counts nothing itself (R14).
_END, _LINE, _ARM = 0, 1, 2


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
        if tile.is_double == (end in _NON_DOUBLE_ENDS):
            kind = "a double" if tile.is_double else "a non-double"
            raise RuleError("R13", f"{tile} is {kind} and has no end {end.value}")
        return super().__new__(cls, tile, end)

    @property
    def value(self) -> int:
        """The pip value a tile must show to attach here."""
        return self.tile.low if self.end is TileEnd.LOW else self.tile.high

    @property
    def ordinal(self) -> int:
        return TILE_INDEX[self.tile] * 6 + _END_RANK[self.end]

    def __str__(self) -> str:
        return f"{self.tile} {self.end.value}"

    def __repr__(self) -> str:
        return f"AttachPoint({self.tile!r}, TileEnd.{self.end.name})"


def _build_points() -> tuple[AttachPoint | None, ...]:
    points: list[AttachPoint | None] = []
    for tile in ALL_TILES:
        for end in _ENDS:
            valid = tile.is_double != (end in _NON_DOUBLE_ENDS)
            points.append(AttachPoint(tile, end) if valid else None)
    return tuple(points)


# Tables by point index.
POINTS: tuple[AttachPoint | None, ...] = _build_points()
POINT_VALUE: tuple[int, ...] = tuple(-1 if p is None else p.value for p in POINTS)
POINT_KIND: tuple[int, ...] = tuple(
    -1
    if p is None
    else _END
    if p.end in _NON_DOUBLE_ENDS
    else _LINE
    if p.end in _LINE_SIDES
    else _ARM
    for p in POINTS
)
_LOW_RANK, _HIGH_RANK = _END_RANK[TileEnd.LOW], _END_RANK[TileEnd.HIGH]
_LINE_A, _LINE_B = _END_RANK[TileEnd.LINE_A], _END_RANK[TileEnd.LINE_B]
_ARM_A, _ARM_B = _END_RANK[TileEnd.ARM_A], _END_RANK[TileEnd.ARM_B]


def _build_joins() -> tuple[tuple[int, int, int] | None, ...]:
    """For tile t attached at a point of value v (index t * 7 + v): the end of t that joins,
    the point that becomes free, and the scored contribution it adds (R13, R14)."""
    joins: list[tuple[int, int, int] | None] = []
    for t in range(len(ALL_TILES)):
        for v in range(MAX_PIP + 1):
            if IS_DOUBLE[t]:
                # A double joins by lineA; lineB is free and the double counts both halves.
                joins.append((_LINE_A, t * 6 + _LINE_B, 2 * v) if v == LOW[t] else None)
            elif v == LOW[t]:
                joins.append((_LOW_RANK, t * 6 + _HIGH_RANK, HIGH[t]))
            elif v == HIGH[t]:
                joins.append((_HIGH_RANK, t * 6 + _LOW_RANK, LOW[t]))
            else:
                joins.append(None)
    return tuple(joins)


JOINS = _build_joins()


_POINT_COUNT = len(POINTS)


class _Join(NamedTuple):
    """Everything placing tile t at free point p changes, worked out once (R13, R14)."""

    tile: int  # t
    point: int  # p
    value: int  # the value p accepts
    keep_open: int  # the open-values mask with v's bit cleared, to AND in if p was v's last
    line: bool  # p is a double's line side (R13: its second join opens the arms)
    host: int  # the tile p belongs to
    new_point: int  # the end of t that becomes free
    new_bit: int  # the value bit that end accepts
    delta: int  # the end sum's change (the joined end stops scoring, t's free end scores)
    lines: int  # t's line-side count once placed: 1 for a double, 0 otherwise
    placed: tuple[int, int, int]  # the layout's record of it


def _build_placements() -> tuple[_Join | None, ...]:
    """By t * point count + p: the join of tile t at point p, None where it cannot attach."""
    table: list[_Join | None] = []
    for t in range(len(ALL_TILES)):
        for p in range(_POINT_COUNT):
            v = POINT_VALUE[p]
            join = JOINS[t * 7 + v] if v >= 0 and p // 6 != t else None
            if join is None:
                table.append(None)
                continue
            joined, new_point, add = join
            kind = POINT_KIND[p]
            delta = add - v if kind == _END else add
            table.append(
                _Join(
                    t,
                    p,
                    v,
                    ~(1 << v),
                    kind == _LINE,
                    p // 6,
                    new_point,
                    1 << POINT_VALUE[new_point],
                    delta,
                    1 if IS_DOUBLE[t] else 0,
                    (t, p, joined),
                )
            )
    return tuple(table)


_PLACEMENTS = _build_placements()


def credit_for(end_sum: int) -> int:
    """R15: a positive multiple of 5 credits that many raw points; any other sum credits 0."""
    return end_sum if end_sum > 0 and end_sum % 5 == 0 else 0


class Layout:
    """The tiles on the table, their joins, free attach points and scored ends."""

    __slots__ = ("_end_sum", "_free", "_frozen", "_lines", "_open", "_owned", "_placed")

    def __init__(self) -> None:
        # Free attach points by the value they accept, in the order they became free.
        self._free: list[dict[int, None]] = [{}, {}, {}, {}, {}, {}, {}]  # pips 0..MAX_PIP
        # Per tile index: -1 off the table; for doubles the number of joined line sides.
        self._lines: list[int] = [-1] * len(ALL_TILES)
        # (tile index, host point index or -1 for the opening, joined end rank or -1).
        self._placed: list[tuple[int, int, int]] = []
        self._end_sum = 0
        self._open = 0  # bit v set while some free attach point accepts value v
        # Set once the layout is shared read-only (a match's, handed to a view or a copy of
        # the match): nobody may place on it; the match itself copies before its next placement.
        self._frozen = False
        # A match's own layout: only the match places on it (through the rules), never a caller.
        self._owned = False

    @classmethod
    def owned(cls) -> Layout:
        """An empty layout for a match: `place` refuses it to anyone but the match."""
        layout = cls()
        layout._owned = True
        return layout

    @classmethod
    def from_plays(cls, plays: Iterable[tuple[Tile, AttachPoint | None]]) -> Layout:
        """Build a layout by placing each `(tile, at)` in turn, checking every placement."""
        layout = cls()
        for tile, at in plays:
            layout.place(tile, at)
        return layout

    def copy(self) -> Layout:
        new = Layout.__new__(Layout)
        new._free = [d.copy() for d in self._free]
        new._lines = self._lines.copy()
        new._placed = self._placed.copy()
        new._end_sum = self._end_sum
        new._open = self._open
        new._frozen = new._owned = False
        return new

    # ---- placing -------------------------------------------------------------------------

    def place(self, tile: Tile, at: AttachPoint | None) -> int:
        """Place `tile` at `at` (None for the opening tile) and return the credit (R15)."""
        if self._frozen or self._owned:
            raise TypeError("this layout is a match's, shared read-only: copy() it to place tiles")
        t = self.check_placement(tile, at)
        return self._place(t, -1 if at is None else at.ordinal)

    def check_placement(self, tile: Tile, at: AttachPoint | None) -> int:
        """Raise IllegalMoveError unless `tile` may be placed at `at`; return the tile index."""
        t = TILE_INDEX[tile]
        if self._lines[t] >= 0:
            raise IllegalMoveError("R1", f"{tile} is already on the table")
        if at is None:
            if self._placed:
                raise IllegalMoveError(
                    "R9", f"the layout is already open: {tile} must attach to a free attach point"
                )
            return t
        if not self._placed:
            raise IllegalMoveError(
                "R7", "the layout is empty: the opening tile attaches to nothing"
            )
        host = TILE_INDEX[at.tile]
        if self._lines[host] < 0:
            raise IllegalMoveError("R13", f"{at.tile} is not on the table")
        p = at.ordinal
        if p not in self._free[POINT_VALUE[p]]:
            if POINT_KIND[p] == _ARM and self._lines[host] < 2:
                raise IllegalMoveError(
                    "R13",
                    f"the side arms of spinner {at.tile} open only after both its line sides "
                    "are joined",
                )
            raise IllegalMoveError("R13", f"{at} is already joined")
        if JOINS[t * 7 + at.value] is None:
            raise IllegalMoveError("R9", f"{tile} has no half matching {at} ({at.value})")
        return t

    def _place(self, t: int, p: int) -> int:
        """Place tile index `t` at point index `p` (-1: opening) without checks; return credit."""
        if p < 0:
            free = self._free
            lines = self._lines
            b = t * 6
            if IS_DOUBLE[t]:
                v = LOW[t]
                free[v][b + _LINE_A] = None
                free[v][b + _LINE_B] = None
                lines[t] = 0
                s = 2 * v  # R14: a lone opening double counts both halves
            else:
                free[HIGH[t]][b + _HIGH_RANK] = None
                free[LOW[t]][b + _LOW_RANK] = None
                lines[t] = 0
                s = PIPS[t]
            self._open = VALUE_MASK[t]
            self._placed.append((t, -1, -1))
            self._end_sum = s
            return s if s % 5 == 0 else 0
        join = _PLACEMENTS[t * _POINT_COUNT + p]
        assert join is not None
        return self._join(join)

    def _join(self, join: _Join) -> int:
        """`_place` of a tile joining the layout, its join looked up already; return credit."""
        t, p, v, keep_open, line, host, new_point, new_bit, s, placed_lines, placed = join
        free = self._free
        lines = self._lines
        d = free[v]
        del d[p]
        open_ = self._open
        if not d:
            open_ &= keep_open
        if line:
            n = lines[host] + 1
            lines[host] = n
            if n == 2:  # R13/R14: interior now; counts nothing, arms open
                s -= 2 * v
                b = host * 6
                d[b + _ARM_A] = None
                d[b + _ARM_B] = None
                open_ |= 1 << v
        s += self._end_sum
        free[POINT_VALUE[new_point]][new_point] = None
        self._open = open_ | new_bit
        lines[t] = placed_lines
        self._placed.append(placed)
        self._end_sum = s
        return s if s % 5 == 0 else 0

    def _credit_after(self, t: int, p: int) -> int:
        """The credit `_place(t, p)` would give, without placing."""
        if p < 0:
            s = 2 * LOW[t] if IS_DOUBLE[t] else PIPS[t]
        else:
            join = _PLACEMENTS[t * _POINT_COUNT + p]
            assert join is not None
            s = self._end_sum + join.delta
            if join.line and self._lines[join.host] == 1:  # the second line side: interior
                s -= 2 * join.value
        return s if s > 0 and s % 5 == 0 else 0

    def credit_after(self, tile: Tile, at: AttachPoint | None) -> int:
        """The credit placing `tile` at `at` would give (R15), leaving the layout unchanged."""
        t = self.check_placement(tile, at)
        return self._credit_after(t, -1 if at is None else at.ordinal)

    # ---- questions -----------------------------------------------------------------------

    @property
    def is_empty(self) -> bool:
        return not self._placed

    def __len__(self) -> int:
        return len(self._placed)

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and self._lines[TILE_INDEX[tile]] >= 0

    @property
    def tiles(self) -> list[Tile]:
        """The tiles on the table, in the order they were placed."""
        return [ALL_TILES[t] for t, _, _ in self._placed]

    @property
    def last_placed(self) -> Tile | None:
        return ALL_TILES[self._placed[-1][0]] if self._placed else None

    def placements(self) -> list[tuple[Tile, AttachPoint | None]]:
        """Every placement as `(tile, at)` in order; `from_plays` rebuilds the layout from it."""
        return [(ALL_TILES[t], None if p < 0 else POINTS[p]) for t, p, _ in self._placed]

    def spinners(self) -> list[Tile]:
        """R12: every double on the table is a spinner (canonical order)."""
        return [ALL_TILES[t] for t in range(len(ALL_TILES)) if IS_DOUBLE[t] and self._lines[t] >= 0]

    def joins(self) -> list[tuple[AttachPoint, AttachPoint]]:
        """Each join as (host attach point, placed tile's joined end), in placement order."""
        out: list[tuple[AttachPoint, AttachPoint]] = []
        for t, p, joined in self._placed:
            if p >= 0:
                host, end = POINTS[p], POINTS[t * 6 + joined]
                assert host is not None and end is not None
                out.append((host, end))
        return out

    def free_points(self) -> list[tuple[AttachPoint, int]]:
        """Free attach points with the value each accepts, in canonical order (R13)."""
        indices = sorted(p for d in self._free for p in d)
        return [(_point(p), POINT_VALUE[p]) for p in indices]

    def is_free(self, point: AttachPoint) -> bool:
        return point.ordinal in self._free[point.value]

    def points_for(self, tile: Tile) -> list[AttachPoint]:
        """The free attach points `tile` could be placed at (canonical order)."""
        if not self._placed:
            return []
        t = TILE_INDEX[tile]
        values = {LOW[t], HIGH[t]}
        return [_point(p) for p in sorted(p for v in values for p in self._free[v])]

    def accepts(self, value: int) -> bool:
        """Whether some free attach point accepts pip value `value`."""
        return bool(self._free[value])

    @property
    def open_values(self) -> int:
        """Bit mask of the pip values some free attach point accepts (bit v for value v)."""
        return self._open

    def contributions(self) -> list[tuple[Tile, int]]:
        """R14: the scored contributions, canonical order (by tile, high before low)."""
        out: list[tuple[Tile, int]] = []
        for t in sorted(t for t, _, _ in self._placed):
            tile = ALL_TILES[t]
            if IS_DOUBLE[t]:
                if self._lines[t] <= 1:
                    out.append((tile, 2 * tile.low))
                continue
            for rank, value in ((_HIGH_RANK, tile.high), (_LOW_RANK, tile.low)):
                if t * 6 + rank in self._free[value]:
                    out.append((tile, value))
        return out

    @property
    def end_sum(self) -> int:
        """R15: the sum of all scored contributions."""
        return self._end_sum

    @property
    def credit(self) -> int:
        """R15: the credit the last placement earned (the end sum if a positive multiple of 5)."""
        return credit_for(self._end_sum)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self._placed == other._placed

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        plays = ", ".join(f"({t!r}, {at!r})" for t, at in self.placements())
        return f"Layout.from_plays([{plays}])"


def _point(p: int) -> AttachPoint:
    point = POINTS[p]
    assert point is not None
    return point
