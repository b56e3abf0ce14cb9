"""The layout as a drawing in the plane, as the rule documents draw it (R12, R13): where each
tile, each free attach point and each stretch of line goes. The one board geometry: the web
page's SVG (`picture_json`, sent with each state) and the terminal's character grid
(`render.picture`, which paints this drawing in its own units) are both drawn from it.

The line of play runs across; every double lies crosswise, its side arms running up and down
(a double on a vertical arm lies across it, its arms running left and right). A free attach
point is a cell just past the end it belongs to. Each chain is laid out on its own and then
placed: where a branch would run into something already drawn, the line is stretched (a `Link`
bridges the gap), so nothing ever overlaps. Which end of a tile the chain runs on from is the
core's (`free_end`, R13).

A `Scale` gives the room each piece takes: in the plane (`PLANE`) a tile's short side is 2 and
its long side 4, so every position is a whole number; the terminal's grid has its own.

Pure: imports the core only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from exact61.core import ALL_POINTS, AttachPoint, Layout, Tile, TileEnd, free_end

SHORT, LONG = 2, 4  # a tile's sides in the plane
CELL = 2  # an attach point's cell in the plane
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

    def mirrored_x(self, about: int) -> Box:
        """Left-right mirror, x to `about - x`."""
        return Box(about - self.x1, self.y0, about - self.x0, self.y1)

    def mirrored_y(self, about: int) -> Box:
        """Up-down mirror, y to `about - y`."""
        return Box(self.x0, about - self.y1, self.x1, about - self.y0)


class Size(NamedTuple):
    """The room a piece takes on a chain: `length` along it, and the band [lo, hi) across it,
    measured from the chain's axis."""

    length: int
    lo: int
    hi: int


class Run(NamedTuple):
    """The room tiles take on a chain of one direction: a non-double lies along the chain, a
    double across it (R12)."""

    tile: Size
    double: Size


@dataclass(frozen=True)
class Scale:
    """The units of one drawing of the layout: `line`, a free attach point's cell (a stretch of
    line takes its band across); `across`, the tiles on a chain running east; `down`, those on a
    chain running south. West and north are their mirrors, about the middle of the line's band;
    a double's side arms leave from its middle."""

    line: Size
    across: Run
    down: Run

    @property
    def mirror(self) -> int:
        """Mirroring takes x to `mirror - x`: the line's band onto itself."""
        return self.line.lo + self.line.hi


# The plane: a tile 4 x 2, an attach point's cell 2 x 2, the axis of a chain between its cells.
_ALONG = Size(LONG, -SHORT // 2, SHORT // 2)
_CROSSWISE = Size(SHORT, -LONG // 2, LONG // 2)
PLANE = Scale(
    line=Size(CELL, -CELL // 2, CELL // 2),
    across=Run(_ALONG, _CROSSWISE),
    down=Run(_ALONG, _CROSSWISE),
)


@dataclass(frozen=True)
class TileShape:
    """A tile on the drawing, lying `across` (long side left to right) or standing. `first` is
    the pip value of its left half (a tile lying across) or top half (a tile standing up),
    `second` the other; `first_end`/`second_end` name those halves' ends (None for a double,
    whose halves are alike)."""

    tile: Tile
    box: Box
    across: bool
    first: int
    second: int
    first_end: TileEnd | None
    second_end: TileEnd | None

    def swapped(self, box: Box) -> TileShape:
        return TileShape(
            self.tile, box, self.across, self.second, self.first, self.second_end, self.first_end
        )

    def at(self, box: Box) -> TileShape:
        return TileShape(
            self.tile, box, self.across, self.first, self.second, self.first_end, self.second_end
        )


@dataclass(frozen=True)
class Link:
    """A stretch of line between a tile and the chain that continues it: a segment from
    (x1, y1) to (x2, y2), running away from the opening tile, and the band [lo, hi) it takes
    across (a tile's width in the plane). Along, its ends are edges; across, y1 (or x1) is the
    axis of its chain."""

    x1: int
    y1: int
    x2: int
    y2: int
    lo: int
    hi: int

    @property
    def across(self) -> bool:
        """Running left to right."""
        return self.y1 == self.y2

    @property
    def box(self) -> Box:
        """The room the stretch takes."""
        if self.across:
            return Box(
                min(self.x1, self.x2), self.y1 + self.lo, max(self.x1, self.x2), self.y1 + self.hi
            )
        return Box(
            self.x1 + self.lo, min(self.y1, self.y2), self.x1 + self.hi, max(self.y1, self.y2)
        )

    def moved(self, dx: int, dy: int) -> Link:
        return Link(self.x1 + dx, self.y1 + dy, self.x2 + dx, self.y2 + dy, self.lo, self.hi)

    def mirrored_x(self, about: int) -> Link:
        # The band is symmetric about the middle of the line's band: an axis maps to -x.
        if self.across:
            return Link(about - self.x1, self.y1, about - self.x2, self.y2, self.lo, self.hi)
        return Link(-self.x1, self.y1, -self.x2, self.y2, self.lo, self.hi)

    def mirrored_y(self, about: int) -> Link:
        if self.across:
            return Link(self.x1, -self.y1, self.x2, -self.y2, self.lo, self.hi)
        return Link(self.x1, about - self.y1, self.x2, about - self.y2, self.lo, self.hi)


@dataclass
class Drawing:
    """Tiles, free attach points (each a cell) and stretches of line, in one `Scale`'s units."""

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

    def mirrored_x(self, about: int) -> Drawing:
        """Left-right mirror, x to `about - x`: a chain running east becomes one running west
        (the halves of a tile lying across change places)."""
        out = Drawing()
        for t in self.tiles:
            box = t.box.mirrored_x(about)
            out.tiles.append(t.swapped(box) if t.across else t.at(box))
        out.points = [(b.mirrored_x(about), p) for b, p in self.points]
        out.links = [k.mirrored_x(about) for k in self.links]
        return out

    def mirrored_y(self, about: int) -> Drawing:
        """Up-down mirror, y to `about - y`: a chain running south becomes one running north."""
        out = Drawing()
        for t in self.tiles:
            box = t.box.mirrored_y(about)
            out.tiles.append(t.at(box) if t.across else t.swapped(box))
        out.points = [(b.mirrored_y(about), p) for b, p in self.points]
        out.links = [k.mirrored_y(about) for k in self.links]
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


def _oriented(box: Box, down: bool) -> Box:
    """A box given as on a chain running east (x along it, y across), on a chain running east
    or, `down`, south (y along it, x across)."""
    return Box(box.y0, box.x0, box.y1, box.x1) if down else box


def _span(size: Size, at: int, down: bool) -> Box:
    """The box of a piece of `size` at `at` along a chain running east (or, `down`, south)."""
    return _oriented(Box(at, size.lo, at + size.length, size.hi), down)


def _offset(along: int, across: int, down: bool) -> tuple[int, int]:
    """(dx, dy) of a move `along` and `across` a chain running east (or, `down`, south)."""
    return (across, along) if down else (along, across)


class _Builder:
    def __init__(self, layout: Layout, scale: Scale) -> None:
        self.layout = layout
        self.scale = scale
        self.attached: dict[AttachPoint, AttachPoint] = dict(layout.joins())

    def chain(self, point: AttachPoint, down: bool, back: bool = False) -> Drawing:
        """The chain growing from `point` east (or, `down`, south; `back`: west, or north). Its
        axis is y = 0 (x = 0), it starts at 0, and nothing of it reaches behind its start: a
        double whose arms would is pushed on."""
        if back:
            drawing = self.chain(point, down)
            if down:
                return drawing.mirrored_y(self.scale.mirror)
            return drawing.mirrored_x(self.scale.mirror)
        d = Drawing()
        occupied = [_oriented(Box(-_FAR, -_FAR, 0, _FAR), down)]
        at = 0
        while (joined := self.attached.get(point)) is not None:
            free = free_end(joined)
            at = self.place(d, occupied, joined, free, at, down)
            point = free
        if self.layout.is_free(point):
            d.points.append((_span(self.scale.line, at, down), point))
        return d

    def place(
        self,
        d: Drawing,
        occupied: list[Box],
        joined: AttachPoint,
        free: AttachPoint,
        at: int,
        down: bool,
    ) -> int:
        """Draw the tile that joins by `joined` (its line running on from `free`) at `at` along
        a chain running east (or, `down`, south), a double with its side arms, pushed on if
        they need room; return where the chain runs on."""
        run = self.scale.down if down else self.scale.across
        tile = joined.tile
        if not tile.is_double:  # along the chain: the joined half first
            box = _span(run.tile, at, down)
            d.tiles.append(
                TileShape(tile, box, not down, joined.value, free.value, joined.end, free.end)
            )
            occupied.append(box)
            return at + run.tile.length
        size, mirror = run.double, self.scale.mirror
        middle = at + (size.length - mirror) // 2  # where the side arms' axis runs
        arms = [  # across the chain, armA behind it (up or left), armB ahead
            (self.chain(_POINT[tile, TileEnd.ARM_A], not down, back=True), size.lo - mirror),
            (self.chain(_POINT[tile, TileEnd.ARM_B], not down), size.hi),
        ]
        step = (0, 1) if down else (1, 0)
        placed = [(arm, arm.bbox(), _offset(middle, off, down)) for arm, off in arms]
        shift = _clear_shift(
            occupied,
            [(None if box is None else box.moved(dx, dy), *step) for _, box, (dx, dy) in placed],
        )
        if shift:
            link = self._link(at, at + shift, down)
            d.links.append(link)
            occupied.append(link.box)
            at += shift
        box = _span(size, at, down)
        d.tiles.append(TileShape(tile, box, down, tile.low, tile.low, None, None))
        occupied.append(box)
        for arm, arm_box, (dx, dy) in placed:
            dx, dy = dx + shift * step[0], dy + shift * step[1]
            d.add(arm, dx, dy)
            if arm_box is not None:
                occupied.append(arm_box.moved(dx, dy))
        return at + size.length

    def _link(self, start: int, end: int, down: bool) -> Link:
        """A stretch of line from `start` to `end` along a chain's axis."""
        line = self.scale.line
        return Link(*_offset(start, 0, down), *_offset(end, 0, down), line.lo, line.hi)

    def whole(self) -> Drawing:
        """The opening tile at the origin, the line of play running left and right from it."""
        d = Drawing()
        placements = self.layout.placements()
        if not placements:
            return d
        first = placements[0][0]
        left_end, right_end = (
            (TileEnd.LINE_A, TileEnd.LINE_B) if first.is_double else (TileEnd.LOW, TileEnd.HIGH)
        )
        occupied: list[Box] = []
        left, right = _POINT[first, left_end], _POINT[first, right_end]
        right_edge = self.place(d, occupied, left, right, 0, down=False)
        mirror = self.scale.mirror
        for point, edge, step in ((left, 0, -1), (right, right_edge, 1)):
            chain = self.chain(point, down=False, back=step < 0)
            # A chain drawn west reaches up to x = mirror: moved to end at the tile's edge.
            origin = edge - mirror if step < 0 else edge
            box = chain.bbox()
            shift = _clear_shift(
                occupied, [(None if box is None else box.moved(origin, 0), step, 0)]
            )
            if shift:
                link = self._link(edge, edge + step * shift, down=False)
                d.links.append(link)
                occupied.append(link.box)
            d.add(chain, origin + step * shift, 0)
            if box is not None:
                occupied.append(box.moved(origin + step * shift, 0))
        return d


def drawing(layout: Layout, scale: Scale = PLANE) -> Drawing:
    """The layout drawn in `scale`'s units: tiles, free attach points and stretches of line,
    around the opening tile at the origin."""
    return _Builder(layout, scale).whole()


def scored_halves(layout: Layout) -> Callable[[TileShape], tuple[bool, bool]]:
    """Which halves of a tile on `layout`'s drawing, (first, second), are scored ends (R14): a
    non-double's free end; both halves of a double with at most one line side joined."""
    doubles = {t for t, _ in layout.contributions() if t.is_double}

    def scored(shape: TileShape) -> tuple[bool, bool]:
        tile = shape.tile
        if shape.first_end is None or shape.second_end is None:
            return tile in doubles, tile in doubles
        free = layout.is_free
        return free(_POINT[tile, shape.first_end]), free(_POINT[tile, shape.second_end])

    return scored


def tile_names(layout: Layout) -> dict[Tile, str]:
    """Each tile of the layout named as the board draws it (the page's and the terminal's
    picture, both drawn from `drawing`), for the words beside a board, that a placed tile reads
    as it is seen: lying across, its halves left to right (`[4|3]`); standing up on a spinner's
    arm, from the half joined to the arm outward, as the layout's sentences read an arm
    (`terminal.layout_words.layout_structure`)."""
    return _names(layout, drawing(layout))


def _names(layout: Layout, d: Drawing) -> dict[Tile, str]:
    joined = {end.tile: end.end for _host, end in layout.joins()}
    names = {}
    for t in d.tiles:
        first, second = t.first, t.second
        if not t.across and t.tile in joined and t.second_end is joined[t.tile]:
            first, second = second, first
        names[t.tile] = f"[{first}|{second}]"
    return names


def picture_json(layout: Layout) -> dict[str, Any]:
    """The drawing as the web page takes it, moved so that its corner is (0, 0):

    `{"w", "h", "tiles": [{"tile", "name", "x", "y", "w", "h", "a", "b", "scored": [a?, b?],
    "last"}], "points": [{"at", "value", "x", "y"}], "links": [[x1, y1, x2, y2]]}`; `name` is
    the tile as the board draws it (`tile_names`: the words beside the board name it so), `a`
    and `b` are the pips of the left (or top) and right (or bottom) halves, `scored` says which
    of them are scored ends (R14), `last` marks the tile placed last, `x`, `y` of a point are
    its centre.
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
    scored = scored_halves(layout)

    order = {tile: i for i, tile in enumerate(layout.tiles)}
    names = _names(layout, d)
    tiles = []
    for t in sorted(d.tiles, key=lambda t: order[t.tile]):
        b = t.box.moved(dx, dy)
        tiles.append(
            {
                "tile": [t.tile.low, t.tile.high],
                "name": names[t.tile],
                "x": b.x0,
                "y": b.y0,
                "w": b.x1 - b.x0,
                "h": b.y1 - b.y0,
                "a": t.first,
                "b": t.second,
                "scored": list(scored(t)),
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
