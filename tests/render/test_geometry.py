"""The layout drawn in the plane for the web page (exact61.render.geometry): for every position
in the rule documents, large layouts and random ones, each tile is drawn once, nothing overlaps,
every free attach point is marked next to the end it belongs to, and every placed tile touches
the tile it joins (or a stretch of line bridges them) with the matching halves facing (R9, R13).
Every double lies crosswise (R12); its line sides are its long edges, its side arms its short
ones."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact61 import AttachPoint, Layout, Tile, TileEnd
from exact61.render.geometry import picture_json, tile_names
from exact61.render.picture import draw
from tests.render.test_picture import big_layout, layout_of, random_layouts

Box = tuple[int, int, int, int]  # x0, y0, x1, y1


def box_of(item: dict[str, Any]) -> Box:
    return item["x"], item["y"], item["x"] + item["w"], item["y"] + item["h"]


def point_box(point: dict[str, Any]) -> Box:
    return point["x"] - 1, point["y"] - 1, point["x"] + 1, point["y"] + 1


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def side_touched(a: Box, b: Box) -> str | None:
    """The side of `a` that `b` touches along a stretch of positive length, or None."""
    x_shared = min(a[2], b[2]) - max(a[0], b[0]) > 0
    y_shared = min(a[3], b[3]) - max(a[1], b[1]) > 0
    if y_shared and a[2] == b[0]:
        return "right"
    if y_shared and b[2] == a[0]:
        return "left"
    if x_shared and a[3] == b[1]:
        return "bottom"
    if x_shared and b[3] == a[1]:
        return "top"
    return None


def on_side(x: int, y: int, box: Box) -> str | None:
    """The side of `box` the point (x, y) lies on, or None."""
    x0, y0, x1, y1 = box
    if y0 <= y <= y1 and x in (x0, x1):
        return "left" if x == x0 else "right"
    if x0 <= x <= x1 and y in (y0, y1):
        return "top" if y == y0 else "bottom"
    return None


def joined_side(a: Box, b: Box, links: list[list[int]]) -> str | None:
    """The side of `a` that `b` touches, directly or through a stretch of line."""
    side = side_touched(a, b)
    if side is not None:
        return side
    for x1, y1, x2, y2 in links:
        for (ax, ay), (bx, by) in (((x1, y1), (x2, y2)), ((x2, y2), (x1, y1))):
            if on_side(bx, by, b) is not None and on_side(ax, ay, a) is not None:
                return on_side(ax, ay, a)
    return None


def halves(tile: dict[str, Any]) -> list[tuple[Box, int]]:
    x0, y0, x1, y1 = box_of(tile)
    if tile["w"] > tile["h"]:  # across: `a` on the left
        mid = (x0 + x1) // 2
        return [((x0, y0, mid, y1), tile["a"]), ((mid, y0, x1, y1), tile["b"])]
    mid = (y0 + y1) // 2  # standing: `a` on top
    return [((x0, y0, x1, mid), tile["a"]), ((x0, mid, x1, y1), tile["b"])]


def long_sides(tile: dict[str, Any]) -> set[str]:
    return {"left", "right"} if tile["h"] > tile["w"] else {"top", "bottom"}


def facing_value(tile: dict[str, Any], other: Box, links: list[list[int]]) -> set[int]:
    """The pips of the halves of `tile` that `other` touches (directly or by a link)."""
    return {v for box, v in halves(tile) if joined_side(box, other, links) is not None}


def assert_well_drawn(layout: Layout) -> dict[str, Any]:
    picture = picture_json(layout)
    tiles = {tuple(t["tile"]): t for t in picture["tiles"]}
    # each tile once, in the order played
    assert [tuple(t["tile"]) for t in picture["tiles"]] == [(t.low, t.high) for t in layout.tiles]
    for t in picture["tiles"]:
        assert sorted([t["a"], t["b"]]) == t["tile"]  # its own two pips
        assert sorted([t["w"], t["h"]]) == [2, 4]  # a domino's shape
    links = picture["links"]
    # nothing overlaps, and everything is inside the picture
    boxes = [box_of(t) for t in picture["tiles"]] + [point_box(p) for p in picture["points"]]
    for a, b in combinations(boxes, 2):
        assert not overlap(a, b), (a, b)
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 < x1 <= picture["w"] and 0 <= y0 < y1 <= picture["h"]
    # every free attach point marked once, next to the end it belongs to
    marked = [(tuple(p["at"][0]), p["at"][1]) for p in picture["points"]]
    free = [((p.tile.low, p.tile.high), p.end.value) for p, _ in layout.free_points()]
    assert sorted(marked) == sorted(free)
    for p in picture["points"]:
        host = tiles[tuple(p["at"][0])]
        assert p["value"] == AttachPoint(Tile(*p["at"][0]), p["at"][1]).value
        side = side_touched(box_of(host), point_box(p))
        assert side is not None, p
        if host["a"] == host["b"]:  # a spinner: line sides on its long edges, arms on short
            is_arm = p["at"][1] in ("armA", "armB")
            assert (side in long_sides(host)) != is_arm, (p, side)
        else:  # the free end's half faces its marker
            assert facing_value(host, point_box(p), links) == {p["value"]}
    # every join: the placed tile touches its host, the matching halves facing
    for host_point, joined in layout.joins():
        host = tiles[(host_point.tile.low, host_point.tile.high)]
        placed = tiles[(joined.tile.low, joined.tile.high)]
        side = joined_side(box_of(host), box_of(placed), links)
        assert side is not None, (host_point, joined)
        assert facing_value(placed, box_of(host), links) == {host_point.value}
        if host["a"] == host["b"]:
            is_arm = host_point.end in (TileEnd.ARM_A, TileEnd.ARM_B)
            assert (side in long_sides(host)) != is_arm, (host_point, side)
        else:
            assert facing_value(host, box_of(placed), links) == {host_point.value}
        if placed["a"] == placed["b"]:  # a double joins by a line side: crosswise (R12)
            assert joined_side(box_of(placed), box_of(host), links) in long_sides(placed)
    # scored ends (R14) and the tile placed last
    scored = sorted(
        v
        for t in picture["tiles"]
        for v, s in zip((t["a"], t["b"]), t["scored"], strict=True)
        if s and t["a"] != t["b"]
    )
    assert scored == sorted(v for t, v in layout.contributions() if not t.is_double)
    doubles = {tuple(t["tile"]) for t in picture["tiles"] if t["a"] == t["b"] and all(t["scored"])}
    assert doubles == {(t.low, t.high) for t, _ in layout.contributions() if t.is_double}
    assert [t["tile"] for t in picture["tiles"] if t["last"]] == [
        [layout.last_placed.low, layout.last_placed.high]  # type: ignore[union-attr]
    ]
    return picture


@pytest.mark.parametrize("index", range(11))
def test_conformance_positions(seed_positions: list[dict[str, Any]], index: int) -> None:
    case = seed_positions[index]
    picture = assert_well_drawn(layout_of(case))
    assert len(picture["points"]) == len(case["free"])


def test_the_empty_layout_is_an_empty_picture() -> None:
    assert picture_json(Layout()) == {"w": 0, "h": 0, "tiles": [], "points": [], "links": []}


def test_an_opening_double_is_crosswise_with_its_line_sides_free() -> None:
    layout = Layout()
    layout.place(Tile(2, 2), None)
    picture = assert_well_drawn(layout)
    (tile,) = picture["tiles"]
    assert tile["h"] > tile["w"] and tile["scored"] == [True, True]  # R14: counts 4
    assert sorted(p["at"][1] for p in picture["points"]) == ["lineA", "lineB"]
    assert {p["y"] for p in picture["points"]} == {tile["y"] + tile["h"] // 2}  # on the line


def test_a_crowded_arm_stretches_the_line() -> None:
    """Two spinners side by side on the line, each with arms whose own spinners reach towards
    each other: the second is pushed along, with a stretch of line between (a Link)."""
    layout = Layout()
    P, place = AttachPoint, layout.place
    place(Tile(3, 3), None)
    place(Tile(3, 4), P(Tile(3, 3), "lineB"))
    place(Tile(1, 3), P(Tile(3, 3), "lineA"))
    place(Tile(3, 5), P(Tile(3, 3), "armA"))
    place(Tile(5, 5), P(Tile(3, 5), "high"))
    place(Tile(5, 6), P(Tile(5, 5), "lineB"))
    place(Tile(4, 4), P(Tile(3, 4), "high"))
    place(Tile(4, 6), P(Tile(4, 4), "lineB"))
    place(Tile(2, 4), P(Tile(4, 4), "armA"))
    place(Tile(2, 2), P(Tile(2, 4), "low"))
    place(Tile(2, 6), P(Tile(2, 2), "lineB"))
    place(Tile(2, 5), P(Tile(5, 5), "armB"))
    place(Tile(0, 2), P(Tile(2, 2), "armA"))
    picture = assert_well_drawn(layout)
    assert picture["links"], "the branches would have met: the line is stretched"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_large_layouts(seed: int) -> None:
    assert_well_drawn(big_layout(seed, 5))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_random_layouts(seed: int, players: int) -> None:
    for layout in random_layouts(seed, players):
        assert_well_drawn(layout)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_placed_tile_is_named_as_the_board_draws_it(seed: int) -> None:
    """`tile_names`: a tile lying across reads as the terminal's picture shows it, left to
    right (`[4|3]` where its 4 faces left); a tile standing on an arm, from the arm outward
    (its joined half first, as `layout_structure` reads an arm)."""
    layout = big_layout(seed, 5)
    names = tile_names(layout)
    assert set(names) == set(layout.tiles)
    shown = draw(layout).text()
    joined = {end.tile: end.end for _host, end in layout.joins()}
    flipped = 0
    for tile, name in names.items():
        first, second = int(name[1]), int(name[3])
        assert {first, second} == {tile.low, tile.high}, (tile, name)
        if tile.is_double:
            continue
        if name in shown:  # lying across: the very cells of the picture
            flipped += name != str(tile)
        else:  # standing: its joined half first
            end = joined[tile]
            assert first == (tile.low if end is TileEnd.LOW else tile.high), (tile, name)
    assert flipped  # some tile lies with its high half to the left, and is named so
    # the web page's picture carries the same names, for the words beside its board
    assert {Tile(*t["tile"]): t["name"] for t in picture_json(layout)["tiles"]} == names
