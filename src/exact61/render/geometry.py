"""The layout as a drawing in the plane, as the rule documents draw it (R12, R13): where each
tile, each free attach point and each stretch of line goes, for the web page's SVG.

Units: a tile's short side is 2, its long side 4, so every position is a whole number. The line
of play runs across; every double lies crosswise, its side arms running up and down (a double
on a vertical arm lies across it, its arms running left and right). A free attach point is a
2 x 2 cell just past the end it belongs to. As in `picture.py` (the terminal's character grid),
each chain is laid out on its own and then placed: where a branch would run into something
already drawn, the line is stretched (a `Link` bridges the gap), so nothing ever overlaps.

Pure: imports the core only. The server sends `picture_json` with each state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from exact61.core import AttachPoint, Layout, Tile, TileEnd
from exact61.core.points import ALL_POINTS

SHORT, LONG = 2, 4  # a tile's sides
CELL = 2  # an attach point's cell
_FAR = 10**6  # beyond any layout: "everything behind a chain's start"
# Every attach point there is, built once: drawing a layout names many of them.
_POINT: dict[tuple[Tile, TileEnd], AttachPoint] = {(p.tile, p.end): p for p in ALL_POINTS}


class Box(NamedTuple):
    """A rectangle [x0, x1) x [y0, y1): boxes that only touch do not overlap."""

    x0: int
    y0: int
    x1: int
    y1: int

    def overlaps(self, other: Box) -> bool:
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def moved(self, dx: int, dy: int) -> Box:
        return Box(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    def mirrored_x(self) -> Box:
        return Box(-self.x1, self.y0, -self.x0, self.y1)

    def mirrored_y(self) -> Box:
        return Box(self.x0, -self.y1, self.x1, -self.y0)


@dataclass(frozen=True)
class TileShape:
    """A tile on the drawing. `first` is the pip value of its left half (a tile lying across)
    or top half (a tile standing up), `second` the other; `first_end`/`second_end` name those
    halves' ends (None for a double, whose halves are alike)."""

    tile: Tile
    box: Box
    first: int
    second: int
    first_end: TileEnd | None
    second_end: TileEnd | None

    @property
    def across(self) -> bool:
        """Lying across (long side left to right)."""
        return self.box.x1 - self.box.x0 > self.box.y1 - self.box.y0

    def swapped(self, box: Box) -> TileShape:
        return TileShape(self.tile, box, self.second, self.first, self.second_end, self.first_end)

    def at(self, box: Box) -> TileShape:
        return TileShape(self.tile, box, self.first, self.second, self.first_end, self.second_end)


@dataclass(frozen=True)
class Link:
    """A stretch of line between a tile and the chain that continues it (a segment)."""

    x1: int
    y1: int
    x2: int
    y2: int

    @property
    def box(self) -> Box:
        """The room the stretch takes: as wide as a tile across it."""
        if self.y1 == self.y2:
            return Box(min(self.x1, self.x2), self.y1 - 1, max(self.x1, self.x2), self.y1 + 1)
        return Box(self.x1 - 1, min(self.y1, self.y2), self.x1 + 1, max(self.y1, self.y2))

    def moved(self, dx: int, dy: int) -> Link:
        return Link(self.x1 + dx, self.y1 + dy, self.x2 + dx, self.y2 + dy)


@dataclass
class Drawing:
    tiles: list[TileShape] = field(default_factory=list)
    points: list[tuple[Box, AttachPoint]] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)

    def boxes(self) -> list[Box]:
        return (
            [t.box for t in self.tiles] + [b for b, _ in self.points] + [k.box for k in self.links]
        )

    def bbox(self) -> Box | None:
        boxes = self.boxes()
        if not boxes:
            return None
        return Box(
            min(b.x0 for b in boxes),
            min(b.y0 for b in boxes),
            max(b.x1 for b in boxes),
            max(b.y1 for b in boxes),
        )

    def add(self, other: Drawing, dx: int, dy: int) -> None:
        self.tiles += [t.at(t.box.moved(dx, dy)) for t in other.tiles]
        self.points += [(b.moved(dx, dy), p) for b, p in other.points]
        self.links += [k.moved(dx, dy) for k in other.links]

    def mirrored_x(self) -> Drawing:
        """Left-right mirror: a chain running east becomes one running west (the halves of a
        tile lying across change places)."""
        out = Drawing()
        for t in self.tiles:
            box = t.box.mirrored_x()
            out.tiles.append(t.swapped(box) if t.across else t.at(box))
        out.points = [(b.mirrored_x(), p) for b, p in self.points]
        out.links = [Link(-k.x1, k.y1, -k.x2, k.y2) for k in self.links]
        return out

    def mirrored_y(self) -> Drawing:
        """Up-down mirror: a chain running south becomes one running north."""
        out = Drawing()
        for t in self.tiles:
            box = t.box.mirrored_y()
            out.tiles.append(t.at(box) if t.across else t.swapped(box))
        out.points = [(b.mirrored_y(), p) for b, p in self.points]
        out.links = [Link(k.x1, -k.y1, k.x2, -k.y2) for k in self.links]
        return out


def _clear_shift(occupied: Sequence[Box], parts: Sequence[tuple[Box | None, int, int]]) -> int:
    """How far (along x when the step is (1, 0), along y for (0, 1)) to push `parts`, given as
    (bounding box, step x, step y), until none of them touches anything in `occupied`."""
    shift = 0
    while any(
        box is not None and any(box.moved(sx * shift, sy * shift).overlaps(o) for o in occupied)
        for box, sx, sy in parts
    ):
        shift += 1
    return shift


class _Builder:
    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.attached: dict[AttachPoint, tuple[Tile, TileEnd]] = {
            host: (joined.tile, joined.end) for host, joined in layout.joins()
        }

    def _point(self, d: Drawing, box: Box, point: AttachPoint) -> None:
        if self.layout.is_free(point):
            d.points.append((box, point))

    def east(self, point: AttachPoint) -> Drawing:
        """The chain growing from `point` to the right: its axis is y = 0, it starts at x = 0,
        and nothing of it reaches left of x = 0 (a double whose arms would is pushed on)."""
        d = Drawing()
        occupied: list[Box] = [Box(-_FAR, -_FAR, 0, _FAR)]
        x = 0
        while True:
            found = self.attached.get(point)
            if found is None:
                self._point(d, Box(x, -1, x + CELL, 1), point)
                return d
            tile, joined = found
            if not tile.is_double:
                free = TileEnd.HIGH if joined is TileEnd.LOW else TileEnd.LOW
                value = tile.high if free is TileEnd.HIGH else tile.low
                shape = TileShape(tile, Box(x, -1, x + LONG, 1), point.value, value, joined, free)
                d.tiles.append(shape)
                occupied.append(shape.box)
                x += LONG
                point = _POINT[tile, free]
                continue
            up = self.north(_POINT[tile, TileEnd.ARM_A])
            down = self.south(_POINT[tile, TileEnd.ARM_B])
            up_box, down_box = up.bbox(), down.bbox()
            shift = _clear_shift(
                occupied,
                [
                    (None if up_box is None else up_box.moved(x + 1, -LONG // 2), 1, 0),
                    (None if down_box is None else down_box.moved(x + 1, LONG // 2), 1, 0),
                ],
            )
            if shift:
                link = Link(x, 0, x + shift, 0)
                d.links.append(link)
                occupied.append(link.box)
                x += shift
            shape = TileShape(tile, Box(x, -2, x + SHORT, 2), tile.low, tile.low, None, None)
            d.tiles.append(shape)
            occupied.append(shape.box)
            for part, box, dy in ((up, up_box, -2), (down, down_box, 2)):
                d.add(part, x + 1, dy)
                if box is not None:
                    occupied.append(box.moved(x + 1, dy))
            x += SHORT
            point = _POINT[tile, TileEnd.LINE_B]

    def west(self, point: AttachPoint) -> Drawing:
        return self.east(point).mirrored_x()

    def south(self, point: AttachPoint) -> Drawing:
        """The chain growing from `point` downwards: its axis is x = 0, it starts at y = 0,
        and nothing of it reaches above y = 0."""
        d = Drawing()
        occupied: list[Box] = [Box(-_FAR, -_FAR, _FAR, 0)]
        y = 0
        while True:
            found = self.attached.get(point)
            if found is None:
                self._point(d, Box(-1, y, 1, y + CELL), point)
                return d
            tile, joined = found
            if not tile.is_double:
                free = TileEnd.HIGH if joined is TileEnd.LOW else TileEnd.LOW
                value = tile.high if free is TileEnd.HIGH else tile.low
                shape = TileShape(tile, Box(-1, y, 1, y + LONG), point.value, value, joined, free)
                d.tiles.append(shape)
                occupied.append(shape.box)
                y += LONG
                point = _POINT[tile, free]
                continue
            left = self.west(_POINT[tile, TileEnd.ARM_A])
            right = self.east(_POINT[tile, TileEnd.ARM_B])
            left_box, right_box = left.bbox(), right.bbox()
            shift = _clear_shift(
                occupied,
                [
                    (None if left_box is None else left_box.moved(-2, y + 1), 0, 1),
                    (None if right_box is None else right_box.moved(2, y + 1), 0, 1),
                ],
            )
            if shift:
                link = Link(0, y, 0, y + shift)
                d.links.append(link)
                occupied.append(link.box)
                y += shift
            shape = TileShape(tile, Box(-2, y, 2, y + SHORT), tile.low, tile.low, None, None)
            d.tiles.append(shape)
            occupied.append(shape.box)
            for part, box, dx in ((left, left_box, -2), (right, right_box, 2)):
                d.add(part, dx, y + 1)
                if box is not None:
                    occupied.append(box.moved(dx, y + 1))
            y += SHORT
            point = _POINT[tile, TileEnd.LINE_B]

    def north(self, point: AttachPoint) -> Drawing:
        return self.south(point).mirrored_y()

    def whole(self) -> Drawing:
        d = Drawing()
        placements = self.layout.placements()
        if not placements:
            return d
        first = placements[0][0]
        occupied: list[Box] = []
        if first.is_double:
            centre = TileShape(first, Box(0, -2, SHORT, 2), first.low, first.low, None, None)
            d.tiles.append(centre)
            occupied.append(centre.box)
            for part, dy in (
                (self.north(AttachPoint(first, TileEnd.ARM_A)), -2),
                (self.south(AttachPoint(first, TileEnd.ARM_B)), 2),
            ):
                d.add(part, 1, dy)
                box = part.bbox()
                if box is not None:
                    occupied.append(box.moved(1, dy))
            left_start, right_start = 0, SHORT
            left = AttachPoint(first, TileEnd.LINE_A)
            right = AttachPoint(first, TileEnd.LINE_B)
        else:
            centre = TileShape(
                first, Box(0, -1, LONG, 1), first.low, first.high, TileEnd.LOW, TileEnd.HIGH
            )
            d.tiles.append(centre)
            occupied.append(centre.box)
            left_start, right_start = 0, LONG
            left, right = AttachPoint(first, TileEnd.LOW), AttachPoint(first, TileEnd.HIGH)
        for chain, start, step in (
            (self.west(left), left_start, -1),
            (self.east(right), right_start, 1),
        ):
            box = chain.bbox()
            shift = _clear_shift(
                occupied, [(None if box is None else box.moved(start, 0), step, 0)]
            )
            if shift:
                link = Link(start, 0, start + step * shift, 0)
                d.links.append(link)
                occupied.append(link.box)
            d.add(chain, start + step * shift, 0)
            if box is not None:
                occupied.append(box.moved(start + step * shift, 0))
        return d


def drawing(layout: Layout) -> Drawing:
    """The layout drawn: tiles, free attach points and stretches of line, around the opening
    tile at the origin."""
    return _Builder(layout).whole()


def tile_names(layout: Layout) -> dict[Tile, str]:
    """Each tile of the layout named as the board draws it (here and in `picture.py`, which
    agree), for the words beside a board, that a placed tile reads as it is seen: lying across,
    its halves left to right (`[4|3]`); standing up on a spinner's arm, from the half joined to
    the arm outward, as the layout's sentences read an arm (`terminal.words.layout_structure`)."""
    joined = {end.tile: end.end for _host, end in layout.joins()}
    names = {}
    for t in drawing(layout).tiles:
        first, second = t.first, t.second
        if not t.across and t.tile in joined and t.second_end is joined[t.tile]:
            first, second = second, first
        names[t.tile] = f"[{first}|{second}]"
    return names


def picture_json(layout: Layout) -> dict[str, Any]:
    """The drawing as the web page takes it, moved so that its corner is (0, 0):

    `{"w", "h", "tiles": [{"tile", "x", "y", "w", "h", "a", "b", "scored": [a?, b?], "last"}],
    "points": [{"at", "value", "x", "y"}], "links": [[x1, y1, x2, y2]]}`; `a` and `b` are the
    pips of the left (or top) and right (or bottom) halves, `scored` says which of them are
    scored ends (R14), `last` marks the tile placed last, `x`, `y` of a point are its centre.
    """
    return _picture_of(tuple(layout.placements()))


@lru_cache(maxsize=512)
def _picture_of(placements: tuple[tuple[Tile, AttachPoint | None], ...]) -> dict[str, Any]:
    # Every recipient of a state gets the same picture: built once per position.
    layout = Layout.from_plays(placements)
    d = drawing(layout)
    box = d.bbox()
    if box is None:
        return {"w": 0, "h": 0, "tiles": [], "points": [], "links": []}
    dx, dy = -box.x0, -box.y0
    last = layout.last_placed
    scored_doubles = {t for t, _ in layout.contributions() if t.is_double}

    def scored(shape: TileShape, end: TileEnd | None) -> bool:
        if end is None:
            return shape.tile in scored_doubles
        return layout.is_free(_POINT[shape.tile, end])

    order = {tile: i for i, tile in enumerate(layout.tiles)}
    tiles = []
    for t in sorted(d.tiles, key=lambda t: order[t.tile]):
        b = t.box.moved(dx, dy)
        tiles.append(
            {
                "tile": [t.tile.low, t.tile.high],
                "x": b.x0,
                "y": b.y0,
                "w": b.x1 - b.x0,
                "h": b.y1 - b.y0,
                "a": t.first,
                "b": t.second,
                "scored": [scored(t, t.first_end), scored(t, t.second_end)],
                "last": t.tile == last,
            }
        )
    points = []
    for b, p in d.points:
        b = b.moved(dx, dy)
        points.append(
            {
                "at": [[p.tile.low, p.tile.high], p.end.value],
                "value": p.value,
                "x": (b.x0 + b.x1) // 2,
                "y": (b.y0 + b.y1) // 2,
            }
        )
    links = [[k.x1 + dx, k.y1 + dy, k.x2 + dx, k.y2 + dy] for k in d.links]
    return {
        "w": box.x1 - box.x0,
        "h": box.y1 - box.y0,
        "tiles": tiles,
        "points": points,
        "links": links,
    }
