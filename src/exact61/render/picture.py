"""The layout as a picture on a character grid, like the tiles on the table (R12, R13).

Where each tile, free attach point and stretch of line goes is the board's one geometry
(`render.geometry.drawing`), here in the grid's units (`GRID`); this module paints it. Tiles
across a line read `[1|4]`; tiles along a vertical line are a 3x3 box, one pip above the other.
Free attach points are marker cells just past the end they belong to; a stretch of line is a
run of `─` or `│`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from exact61.core import AttachPoint, Layout, Tile
from exact61.render.geometry import Run, Scale, Size, drawing, scored_halves

# A cell a unit: a tile across is `[1|4]`, five cells on the line's row; a tile along a
# vertical line a 3x3 box, its middle column on the line; a double across its line the same.
GRID = Scale(
    line=Size(1, 0, 1),
    across=Run(tile=Size(5, 0, 1), double=Size(3, -1, 2)),
    down=Run(tile=Size(3, -1, 2), double=Size(1, -2, 3)),
)


@dataclass(frozen=True)
class Cell:
    char: str
    style: str = ""  # "", "tile", "scored", "last", "marker", "choice", "line"
    tile: Tile | None = None
    point: AttachPoint | None = None


@dataclass(frozen=True)
class Picture:
    """The drawing on a grid: `rows` of cells, and where each free attach point's marker is."""

    rows: tuple[tuple[Cell, ...], ...]
    markers: Mapping[AttachPoint, tuple[int, int]]

    def text(self) -> str:
        return "\n".join("".join(c.char for c in row).rstrip() for row in self.rows)

    @property
    def width(self) -> int:
        return max((len(r) for r in self.rows), default=0)


def draw(layout: Layout, choices: Mapping[AttachPoint, str] | None = None) -> Picture:
    """Draw `layout`. `choices` labels free attach points (with a letter, say); the others show
    a small circle. The tile placed last is styled "last"; scored halves "scored" (R14)."""
    board = drawing(layout, GRID)
    box = board.bbox()
    if box is None:
        return Picture((), {})
    grid = [[Cell(" ") for _ in range(box.x1 - box.x0)] for _ in range(box.y1 - box.y0)]
    last = layout.last_placed
    scored = scored_halves(layout)

    def put(row: int, col: int, cell: Cell) -> None:
        grid[row - box.y0][col - box.x0] = cell

    for t in board.tiles:
        base = "last" if t.tile == last else "tile"
        first, second = (
            Cell(str(value), "scored" if is_scored and base != "last" else base, t.tile)
            for value, is_scored in zip((t.first, t.second), scored(t), strict=True)
        )
        edge = [Cell(char, base, t.tile) for char in "[|]╭╮├─┤╰╯"]
        if t.across:  # [1|4]
            rows = [[edge[0], first, edge[1], second, edge[2]]]
        else:  # one pip above the other
            rows = [[edge[3], first, edge[4]], edge[5:8], [edge[8], second, edge[9]]]
        for r, cells in enumerate(rows):
            for c, cell in enumerate(cells):
                put(t.box.y0 + r, t.box.x0 + c, cell)
    for link in board.links:
        char = "─" if link.across else "│"
        b = link.box
        for row in range(b.y0, b.y1):
            for col in range(b.x0, b.x1):
                put(row, col, Cell(char, "line"))
    markers: dict[AttachPoint, tuple[int, int]] = {}
    for b, point in board.points:
        label = (choices or {}).get(point)
        put(
            b.y0,
            b.x0,
            Cell(label, "choice", point=point) if label else Cell("∘", "marker", point=point),
        )
        markers[point] = (b.y0 - box.y0, b.x0 - box.x0)
    return Picture(tuple(tuple(row) for row in grid), markers)
