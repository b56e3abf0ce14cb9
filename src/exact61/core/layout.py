"""The layout: the tiles on the table as a tree of spinners, with its attach points named (R9,
R12-R15).

A `Layout` answers, after any sequence of placements: the free attach points, the scored
contributions, the end sum and the credit. What a placement does is the engine's
(`engine.place`); the layout keeps the placements in order and names what they did.

A layout a match hands out (its own, or a seat view's) is read-only: `copy()` it to place tiles.
"""

from __future__ import annotations

from collections.abc import Iterable

from exact61.core import engine
from exact61.core.engine import MOVE_STRIDE, OPENING, PLACEMENTS, VALUE_POINTS, bits, credit_for
from exact61.core.errors import IllegalMoveError
from exact61.core.points import ALL_POINTS, POINT_INDEX, POINT_KIND, AttachPoint, Kind, TileEnd
from exact61.core.tiles import ALL_TILES, IS_DOUBLE, TILE_INDEX, Tile

__all__ = ["AttachPoint", "Layout", "TileEnd", "credit_for"]


class Layout:
    """The tiles on the table, their joins, free attach points and scored ends."""

    __slots__ = ("_end_sum", "_free", "_moves", "_open", "_read_only", "_tiles")

    def __init__(
        self,
        *,
        moves: Iterable[int] = (),
        free: int = 0,
        end_sum: int = 0,
        open_values: int = 0,
        read_only: bool = False,
    ) -> None:
        """An empty layout; with `moves` (the engine's placements so far) and what they left, a
        layout as the engine has it (`Match.layout`, a seat view's)."""
        self._moves = list(moves)  # the placements in order, as the engine's moves
        self._tiles = 0  # the tiles on the table, as a mask
        for move in self._moves:
            self._tiles |= 1 << move // MOVE_STRIDE
        self._free = free  # the free attach points, as a mask
        self._end_sum = end_sum
        self._open = open_values  # the values some free attach point accepts, as a mask
        self._read_only = read_only

    @classmethod
    def from_plays(cls, plays: Iterable[tuple[Tile, AttachPoint | None]]) -> Layout:
        """Build a layout by placing each `(tile, at)` in turn, checking every placement."""
        layout = cls()
        for tile, at in plays:
            layout.place(tile, at)
        return layout

    def copy(self) -> Layout:
        """A copy to place tiles on."""
        return Layout(
            moves=self._moves, free=self._free, end_sum=self._end_sum, open_values=self._open
        )

    # ---- placing -------------------------------------------------------------------------

    def place(self, tile: Tile, at: AttachPoint | None) -> int:
        """Place `tile` at `at` (None for the opening tile) and return the credit (R15)."""
        if self._read_only:
            raise TypeError("this layout is read-only (a match's or a view's): copy() it first")
        move = self.check_placement(tile, at)
        self._free, self._end_sum, self._open = engine.place(
            self._free, self._end_sum, self._open, move
        )
        self._moves.append(move)
        self._tiles |= 1 << TILE_INDEX[tile]
        return credit_for(self._end_sum)

    def check_placement(self, tile: Tile, at: AttachPoint | None) -> int:
        """Raise IllegalMoveError, naming the rule, unless `tile` may be placed at `at`; return
        the placement as the engine's move."""
        t = TILE_INDEX[tile]
        if self._tiles >> t & 1:
            raise IllegalMoveError("R1", f"{tile} is already on the table")
        if at is None:
            if self._moves:
                raise IllegalMoveError(
                    "R9", f"the layout is already open: {tile} must attach to a free attach point"
                )
            return t * MOVE_STRIDE + OPENING
        if not self._moves:
            raise IllegalMoveError(
                "R7", "the layout is empty: the opening tile attaches to nothing"
            )
        if not self._tiles >> TILE_INDEX[at.tile] & 1:
            raise IllegalMoveError("R13", f"{at.tile} is not on the table")
        p = POINT_INDEX[at]
        if not self._free >> p & 1:
            if POINT_KIND[p] == Kind.ARM and not self._both_lines_joined(at.tile):
                raise IllegalMoveError(
                    "R13",
                    f"the side arms of spinner {at.tile} open only after both its line sides "
                    "are joined",
                )
            raise IllegalMoveError("R13", f"{at} is already joined")
        move = t * MOVE_STRIDE + p
        if PLACEMENTS[move] is None:
            raise IllegalMoveError("R9", f"{tile} has no half matching {at} ({at.value})")
        return move

    def _both_lines_joined(self, double: Tile) -> bool:
        """R13: whether both line sides of spinner `double` (on the table) are joined."""
        lines = (AttachPoint(double, TileEnd.LINE_A), AttachPoint(double, TileEnd.LINE_B))
        return not any(self._free >> POINT_INDEX[line] & 1 for line in lines)

    def credit_after(self, tile: Tile, at: AttachPoint | None) -> int:
        """The credit placing `tile` at `at` would give (R15), leaving the layout unchanged."""
        move = self.check_placement(tile, at)
        _, end_sum, _ = engine.place(self._free, self._end_sum, self._open, move)
        return credit_for(end_sum)

    # ---- questions -----------------------------------------------------------------------

    @property
    def is_empty(self) -> bool:
        return not self._moves

    def __len__(self) -> int:
        return len(self._moves)

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and bool(self._tiles >> TILE_INDEX[tile] & 1)

    @property
    def tiles(self) -> list[Tile]:
        """The tiles on the table, in the order they were placed."""
        return [ALL_TILES[move // MOVE_STRIDE] for move in self._moves]

    @property
    def last_placed(self) -> Tile | None:
        return ALL_TILES[self._moves[-1] // MOVE_STRIDE] if self._moves else None

    @property
    def moves(self) -> tuple[int, ...]:
        """The placements in order, as the engine's moves."""
        return tuple(self._moves)

    @property
    def free_mask(self) -> int:
        """The free attach points as the engine's mask (bit p: `ALL_POINTS[p]`)."""
        return self._free

    def placements(self) -> list[tuple[Tile, AttachPoint | None]]:
        """Every placement as `(tile, at)` in order; `from_plays` rebuilds the layout from it."""
        out: list[tuple[Tile, AttachPoint | None]] = []
        for move in self._moves:
            t, p = divmod(move, MOVE_STRIDE)
            out.append((ALL_TILES[t], None if p == OPENING else ALL_POINTS[p]))
        return out

    def spinners(self) -> list[Tile]:
        """R12: every double on the table is a spinner (canonical order)."""
        return [ALL_TILES[t] for t in bits(self._tiles) if IS_DOUBLE[t]]

    def joins(self) -> list[tuple[AttachPoint, AttachPoint]]:
        """Each join as (host attach point, placed tile's joined end), in placement order."""
        out = []
        for move in self._moves:
            t, p = divmod(move, MOVE_STRIDE)
            joined = PLACEMENTS[move].joined  # type: ignore[union-attr]
            if joined is not None:
                out.append((ALL_POINTS[p], AttachPoint(ALL_TILES[t], joined)))
        return out

    def free_points(self) -> list[tuple[AttachPoint, int]]:
        """Free attach points with the value each accepts, in canonical order (R13)."""
        return [(ALL_POINTS[p], ALL_POINTS[p].value) for p in bits(self._free)]

    def is_free(self, point: AttachPoint) -> bool:
        return bool(self._free >> POINT_INDEX[point] & 1)

    def points_for(self, tile: Tile) -> list[AttachPoint]:
        """The free attach points `tile` could be placed at (canonical order)."""
        if not self._moves:
            return []
        t = TILE_INDEX[tile]
        accepts = VALUE_POINTS[tile.low] | VALUE_POINTS[tile.high]
        return [
            ALL_POINTS[p] for p in bits(self._free & accepts) if PLACEMENTS[t * MOVE_STRIDE + p]
        ]

    def accepts(self, value: int) -> bool:
        """Whether some free attach point accepts pip value `value`."""
        return bool(self._open >> value & 1)

    @property
    def open_values(self) -> int:
        """Bit mask of the pip values some free attach point accepts (bit v for value v)."""
        return self._open

    def contributions(self) -> list[tuple[Tile, int]]:
        """R14: the scored contributions, canonical order (by tile, high before low)."""
        return [(ALL_TILES[t], n) for t, n in engine.scored_contributions(self._free, self._tiles)]

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
        return self.moves == other.moves

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        plays = ", ".join(f"({t!r}, {at!r})" for t, at in self.placements())
        return f"Layout.from_plays([{plays}])"
