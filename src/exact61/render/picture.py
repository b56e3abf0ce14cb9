"""The layout as a picture on a character grid, like the tiles on the table (R12, R13).

The line of play runs across; every double lies crosswise, its side arms running up and down
(a double on a vertical arm lies across it, its arms running left and right). Each chain is laid
out on its own and then placed: where a branch would run into something already drawn, the line
is stretched with connector cells instead, so however large the layout, nothing overlaps.

Tiles across a line read `[1|4]`; tiles along a vertical line are a 3x3 box, one pip above the
other. Free attach points are marker cells just past the end they belong to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from exact61.core import AttachPoint, Layout, Tile, TileEnd


@dataclass(frozen=True)
class Box:
    top: int
    left: int
    bottom: int
    right: int

    def overlaps(self, other: Box) -> bool:
        return not (
            self.right < other.left
            or other.right < self.left
            or self.bottom < other.top
            or other.bottom < self.top
        )

    def moved(self, dr: int, dc: int) -> Box:
        return Box(self.top + dr, self.left + dc, self.bottom + dr, self.right + dc)

    def union(self, other: Box) -> Box:
        return Box(
            min(self.top, other.top),
            min(self.left, other.left),
            max(self.bottom, other.bottom),
            max(self.right, other.right),
        )


@dataclass(frozen=True)
class PlacedTile:
    """A tile at (row, col): across ('h', 1x5, `[first|second]`) or along ('v', 3x3, first on
    top). `first_end`/`second_end` name the halves' ends (None for a double)."""

    row: int
    col: int
    orient: str
    tile: Tile
    first: int
    second: int
    first_end: TileEnd | None
    second_end: TileEnd | None

    @property
    def box(self) -> Box:
        if self.orient == "h":
            return Box(self.row, self.col, self.row, self.col + 4)
        return Box(self.row, self.col, self.row + 2, self.col + 2)


@dataclass
class Drawing:
    tiles: list[PlacedTile] = field(default_factory=list)
    markers: list[tuple[int, int, AttachPoint]] = field(default_factory=list)
    connectors: list[tuple[int, int, str]] = field(default_factory=list)

    def boxes(self) -> list[Box]:
        out = [t.box for t in self.tiles]
        out += [Box(r, c, r, c) for r, c, _ in self.markers]
        out += [Box(r, c, r, c) for r, c, _ in self.connectors]
        return out

    def bbox(self) -> Box | None:
        boxes = self.boxes()
        if not boxes:
            return None
        box = boxes[0]
        for other in boxes[1:]:
            box = box.union(other)
        return box

    def add(self, other: Drawing, dr: int, dc: int) -> None:
        for t in other.tiles:
            self.tiles.append(
                PlacedTile(
                    t.row + dr,
                    t.col + dc,
                    t.orient,
                    t.tile,
                    t.first,
                    t.second,
                    t.first_end,
                    t.second_end,
                )
            )
        self.markers += [(r + dr, c + dc, p) for r, c, p in other.markers]
        self.connectors += [(r + dr, c + dc, ch) for r, c, ch in other.connectors]

    def mirrored_across(self) -> Drawing:
        """Left-right mirror (a chain running east becomes one running west)."""
        out = Drawing()
        for t in self.tiles:
            width = 5 if t.orient == "h" else 3
            if t.orient == "h":
                out.tiles.append(
                    PlacedTile(
                        t.row,
                        -t.col - width + 1,
                        "h",
                        t.tile,
                        t.second,
                        t.first,
                        t.second_end,
                        t.first_end,
                    )
                )
            else:
                out.tiles.append(
                    PlacedTile(
                        t.row,
                        -t.col - width + 1,
                        "v",
                        t.tile,
                        t.first,
                        t.second,
                        t.first_end,
                        t.second_end,
                    )
                )
        out.markers = [(r, -c, p) for r, c, p in self.markers]
        out.connectors = [(r, -c, ch) for r, c, ch in self.connectors]
        return out

    def mirrored_along(self) -> Drawing:
        """Up-down mirror (a chain running south becomes one running north)."""
        out = Drawing()
        for t in self.tiles:
            height = 1 if t.orient == "h" else 3
            if t.orient == "v":
                out.tiles.append(
                    PlacedTile(
                        -t.row - height + 1,
                        t.col,
                        "v",
                        t.tile,
                        t.second,
                        t.first,
                        t.second_end,
                        t.first_end,
                    )
                )
            else:
                out.tiles.append(
                    PlacedTile(
                        -t.row - height + 1,
                        t.col,
                        "h",
                        t.tile,
                        t.first,
                        t.second,
                        t.first_end,
                        t.second_end,
                    )
                )
        out.markers = [(-r, c, p) for r, c, p in self.markers]
        out.connectors = [(-r, c, ch) for r, c, ch in self.connectors]
        return out


_FAR = 10**6  # beyond any layout: "everything behind a chain's start"


class _Builder:
    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.attached: dict[AttachPoint, tuple[Tile, TileEnd]] = {}
        for host, joined in layout.joins():
            self.attached[host] = (joined.tile, joined.end)

    def _marker(self, drawing: Drawing, row: int, col: int, point: AttachPoint) -> None:
        if self.layout.is_free(point):
            drawing.markers.append((row, col, point))

    def _place_clear(
        self, occupied: list[Box], parts: list[tuple[Drawing, int, int]], along_row: bool
    ) -> int:
        """How far to push a double and its arms along the line so they touch nothing."""
        shift = 0
        while True:
            clash = False
            for drawing, dr, dc in parts:
                box = drawing.bbox()
                if box is None:
                    continue
                box = box.moved(dr, dc + shift) if along_row else box.moved(dr + shift, dc)
                if any(box.overlaps(o) for o in occupied):
                    clash = True
                    break
            if not clash:
                return shift
            shift += 1

    def east(self, point: AttachPoint) -> Drawing:
        """The chain growing from `point` towards the right; the first cell is (0, 0).

        Nothing of it reaches left of column 0 (behind its start): a double whose arms would
        is pushed further along, so a parent can rely on a chain staying on its own side.
        """
        d = Drawing()
        occupied: list[Box] = [Box(-_FAR, -_FAR, _FAR, -1)]
        x = 0
        while True:
            found = self.attached.get(point)
            if found is None:
                self._marker(d, 0, x, point)
                return d
            tile, joined = found
            if not tile.is_double:
                free = TileEnd.HIGH if joined is TileEnd.LOW else TileEnd.LOW
                placed = PlacedTile(
                    0,
                    x,
                    "h",
                    tile,
                    point.value,
                    tile.high if free is TileEnd.HIGH else tile.low,
                    joined,
                    free,
                )
                d.tiles.append(placed)
                occupied.append(placed.box)
                x += 5
                point = AttachPoint(tile, free)
                continue
            up = self.north(AttachPoint(tile, TileEnd.ARM_A))
            down = self.south(AttachPoint(tile, TileEnd.ARM_B))
            shift = self._place_clear(occupied, [(up, -2, x + 1), (down, 2, x + 1)], True)
            for i in range(shift):
                d.connectors.append((0, x + i, "─"))
            x += shift
            placed = PlacedTile(-1, x, "v", tile, tile.low, tile.low, None, None)
            d.tiles.append(placed)
            occupied.append(placed.box)
            for part, dr in ((up, -2), (down, 2)):
                d.add(part, dr, x + 1)
                box = part.bbox()
                if box is not None:
                    occupied.append(box.moved(dr, x + 1))
            x += 3
            point = AttachPoint(tile, TileEnd.LINE_B)

    def west(self, point: AttachPoint) -> Drawing:
        return self.east(point).mirrored_across()

    def south(self, point: AttachPoint) -> Drawing:
        """The chain growing from `point` downwards; the axis is column 0, first row 0.

        Nothing of it reaches above row 0 (behind its start), as for `east`.
        """
        d = Drawing()
        occupied: list[Box] = [Box(-_FAR, -_FAR, -1, _FAR)]
        y = 0
        while True:
            found = self.attached.get(point)
            if found is None:
                self._marker(d, y, 0, point)
                return d
            tile, joined = found
            if not tile.is_double:
                free = TileEnd.HIGH if joined is TileEnd.LOW else TileEnd.LOW
                placed = PlacedTile(
                    y,
                    -1,
                    "v",
                    tile,
                    point.value,
                    tile.high if free is TileEnd.HIGH else tile.low,
                    joined,
                    free,
                )
                d.tiles.append(placed)
                occupied.append(placed.box)
                y += 3
                point = AttachPoint(tile, free)
                continue
            left = self.west(AttachPoint(tile, TileEnd.ARM_A))
            right = self.east(AttachPoint(tile, TileEnd.ARM_B))
            shift = self._place_clear(occupied, [(left, y, -3), (right, y, 3)], False)
            for i in range(shift):
                d.connectors.append((y + i, 0, "│"))
            y += shift
            placed = PlacedTile(y, -2, "h", tile, tile.low, tile.low, None, None)
            d.tiles.append(placed)
            occupied.append(placed.box)
            for part, dc in ((left, -3), (right, 3)):
                d.add(part, y, dc)
                box = part.bbox()
                if box is not None:
                    occupied.append(box.moved(y, dc))
            y += 1
            point = AttachPoint(tile, TileEnd.LINE_B)

    def north(self, point: AttachPoint) -> Drawing:
        return self.south(point).mirrored_along()

    def whole(self) -> Drawing:
        d = Drawing()
        placements = self.layout.placements()
        if not placements:
            return d
        first = placements[0][0]
        occupied: list[Box] = []
        if first.is_double:
            centre = PlacedTile(-1, 0, "v", first, first.low, first.low, None, None)
            d.tiles.append(centre)
            occupied.append(centre.box)
            for part, dr in (
                (self.north(AttachPoint(first, TileEnd.ARM_A)), -2),
                (self.south(AttachPoint(first, TileEnd.ARM_B)), 2),
            ):
                d.add(part, dr, 1)
                box = part.bbox()
                if box is not None:
                    occupied.append(box.moved(dr, 1))
            left_start, right_start = -1, 3
            left_point = AttachPoint(first, TileEnd.LINE_A)
            right_point = AttachPoint(first, TileEnd.LINE_B)
        else:
            centre = PlacedTile(0, 0, "h", first, first.low, first.high, TileEnd.LOW, TileEnd.HIGH)
            d.tiles.append(centre)
            occupied.append(centre.box)
            left_start, right_start = -1, 5
            left_point = AttachPoint(first, TileEnd.LOW)
            right_point = AttachPoint(first, TileEnd.HIGH)
        for chain, start, step, char in (
            (self.west(left_point), left_start, -1, "─"),
            (self.east(right_point), right_start, 1, "─"),
        ):
            shift = 0
            box = chain.bbox()
            while box is not None and any(
                box.moved(0, start + step * shift).overlaps(o) for o in occupied
            ):
                shift += 1
            for i in range(shift):
                d.connectors.append((0, start + step * i, char))
            d.add(chain, 0, start + step * shift)
            if box is not None:
                occupied.append(box.moved(0, start + step * shift))
        return d


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
    drawing = _Builder(layout).whole()
    box = drawing.bbox()
    if box is None:
        return Picture((), {})
    height, width = box.bottom - box.top + 1, box.right - box.left + 1
    grid = [[Cell(" ") for _ in range(width)] for _ in range(height)]
    last = layout.last_placed
    scored_doubles = {t for t, _ in layout.contributions() if t.is_double}

    def put(row: int, col: int, cell: Cell) -> None:
        grid[row - box.top][col - box.left] = cell

    for t in drawing.tiles:
        base = "last" if t.tile == last else "tile"

        def half(value: int, end: TileEnd | None, tile: Tile = t.tile, base: str = base) -> Cell:
            scored = (
                tile in scored_doubles if end is None else layout.is_free(AttachPoint(tile, end))
            )
            return Cell(str(value), "scored" if scored and base != "last" else base, tile)

        if t.orient == "h":
            put(t.row, t.col, Cell("[", base, t.tile))
            put(t.row, t.col + 1, half(t.first, t.first_end))
            put(t.row, t.col + 2, Cell("|", base, t.tile))
            put(t.row, t.col + 3, half(t.second, t.second_end))
            put(t.row, t.col + 4, Cell("]", base, t.tile))
        else:
            put(t.row, t.col, Cell("╭", base, t.tile))
            put(t.row, t.col + 1, half(t.first, t.first_end))
            put(t.row, t.col + 2, Cell("╮", base, t.tile))
            put(t.row + 1, t.col, Cell("├", base, t.tile))
            put(t.row + 1, t.col + 1, Cell("─", base, t.tile))
            put(t.row + 1, t.col + 2, Cell("┤", base, t.tile))
            put(t.row + 2, t.col, Cell("╰", base, t.tile))
            put(t.row + 2, t.col + 1, half(t.second, t.second_end))
            put(t.row + 2, t.col + 2, Cell("╯", base, t.tile))
    for r, c, ch in drawing.connectors:
        put(r, c, Cell(ch, "line"))
    markers: dict[AttachPoint, tuple[int, int]] = {}
    for r, c, point in drawing.markers:
        label = (choices or {}).get(point)
        put(r, c, Cell(label, "choice", point=point) if label else Cell("∘", "marker", point=point))
        markers[point] = (r - box.top, c - box.left)
    return Picture(tuple(tuple(row) for row in grid), markers)
