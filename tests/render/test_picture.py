"""The layout picture: snapshots of every position in the rule documents and of large layouts,
and over random layouts: nothing overlaps, every tile and every free attach point is drawn."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact61 import Action, AttachPoint, Layout, Match, Phase, Tile, TileEnd
from exact61.render.geometry import drawing
from exact61.render.picture import GRID, draw

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"


def layout_of(case: dict[str, Any]) -> Layout:
    layout = Layout()
    for p in case["placements"]:
        at = None if p["at"] is None else AttachPoint(Tile(*p["at"][0]), p["at"][1])
        layout.place(Tile(*p["tile"]), at)
    return layout


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE or not path.exists():
        if not UPDATE and os.environ.get("CI"):
            pytest.fail(f"missing snapshot {path.name}")
        path.write_text(text + "\n")
    assert text + "\n" == path.read_text(), f"picture of {name} changed"


def assert_well_drawn(layout: Layout) -> None:
    board = drawing(layout, GRID)
    boxes = board.boxes()
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not a.overlaps(b), "overlap"
    assert sorted(t.tile for t in board.tiles) == sorted(layout.tiles)
    assert {p for _, p in board.points} == {p for p, _ in layout.free_points()}
    picture = draw(layout)
    assert set(picture.markers) == {p for p, _ in layout.free_points()}
    text = picture.text()
    for tile in layout.tiles:  # each tile's two pips are on the picture, in its own cells
        pips = sorted(
            c.char for row in picture.rows for c in row if c.tile == tile and c.char.isdigit()
        )
        assert pips == sorted([str(tile.low), str(tile.high)]), tile
    assert "∘" in text  # a layout always has free attach points: its ends


@pytest.mark.parametrize("index", range(11))
def test_conformance_positions(seed_positions: list[dict[str, Any]], index: int) -> None:
    case = seed_positions[index]
    layout = layout_of(case)
    assert_well_drawn(layout)
    check_snapshot(case["name"], draw(layout).text())


def crowding(legal: Sequence[Action]) -> list[Action]:
    """The placements that crowd a layout: a double (a spinner, R12), or a tile on a side arm
    (R13), where branches come to meet."""
    return [
        a
        for a in legal
        if getattr(a, "at", None) is not None
        and (a.tile.is_double or a.at.end in (TileEnd.ARM_A, TileEnd.ARM_B))
    ]


def random_layouts(seed: int, players: int, arms: bool = False) -> list[Layout]:
    """Every layout of a seeded round, one after each action; with `arms`, doubles and side arms
    preferred (`crowding`: layouts whose branches would meet)."""
    rng = random.Random(seed)
    match = Match(players)
    match.deal_next_round(rng)
    layouts = []
    while match.phase is Phase.PLAY:
        legal = match.legal_actions()
        crowded = crowding(legal)
        match.apply(rng.choice(crowded if arms and crowded else legal))
        layouts.append(match.layout)
    return layouts


def big_layout(seed: int, doubles_wanted: int) -> Layout:
    """A layout from a seeded game where every placement prefers doubles and arms."""
    rng = random.Random(seed)
    best = Layout()
    for _ in range(200):
        match = Match(2)
        match.deal_next_round(rng)
        while match.phase is Phase.PLAY:
            legal = match.legal_actions()
            match.apply(rng.choice(crowding(legal) or legal))
        layout = match.layout
        if len(layout.spinners()) >= doubles_wanted:
            return layout
        if len(layout.spinners()) > len(best.spinners()):
            best = layout
    return best


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_large_layouts_with_many_spinners(seed: int) -> None:
    layout = big_layout(seed, 5)
    assert len(layout.spinners()) >= 4 and len(layout) >= 15
    assert_well_drawn(layout)
    check_snapshot(f"large-{seed}", draw(layout).text())


def test_every_double_with_opened_arms() -> None:
    """All seven doubles as spinners, each with both arms opened, on one table."""
    layout = Layout()
    place = layout.place
    P = AttachPoint
    place(Tile(3, 3), None)
    place(Tile(3, 4), P(Tile(3, 3), "lineA"))
    place(Tile(3, 5), P(Tile(3, 3), "lineB"))
    place(Tile(3, 6), P(Tile(3, 3), "armA"))
    place(Tile(2, 3), P(Tile(3, 3), "armB"))
    place(Tile(4, 4), P(Tile(3, 4), "high"))
    place(Tile(4, 5), P(Tile(4, 4), "lineB"))
    place(Tile(1, 4), P(Tile(4, 4), "armA"))
    place(Tile(4, 6), P(Tile(4, 4), "armB"))
    place(Tile(6, 6), P(Tile(3, 6), "high"))
    place(Tile(5, 6), P(Tile(6, 6), "lineB"))
    place(Tile(0, 6), P(Tile(6, 6), "armA"))
    place(Tile(1, 6), P(Tile(6, 6), "armB"))
    place(Tile(2, 2), P(Tile(2, 3), "low"))
    place(Tile(2, 5), P(Tile(2, 2), "lineB"))
    place(Tile(0, 2), P(Tile(2, 2), "armA"))
    place(Tile(1, 2), P(Tile(2, 2), "armB"))
    place(Tile(5, 5), P(Tile(4, 5), "high"))
    place(Tile(0, 5), P(Tile(5, 5), "lineB"))
    place(Tile(1, 5), P(Tile(5, 5), "armA"))
    place(Tile(1, 1), P(Tile(1, 5), "low"))
    place(Tile(1, 3), P(Tile(1, 1), "lineB"))
    place(Tile(0, 1), P(Tile(1, 1), "armA"))
    place(Tile(0, 0), P(Tile(0, 1), "low"))
    place(Tile(0, 3), P(Tile(0, 0), "lineB"))
    place(Tile(0, 4), P(Tile(0, 0), "armA"))
    assert len(layout.spinners()) == 7
    assert_well_drawn(layout)
    check_snapshot("all-spinners", draw(layout).text())


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_random_layouts_never_overlap(seed: int, players: int) -> None:
    for layout in random_layouts(seed, players):
        assert_well_drawn(layout)


def test_choices_are_lettered_and_the_last_tile_marked() -> None:
    layout = Layout()
    layout.place(Tile(1, 4), None)
    layout.place(Tile(4, 4), AttachPoint(Tile(1, 4), "high"))
    picture = draw(layout, {AttachPoint(Tile(4, 4), "lineB"): "a"})
    styles = {cell.style for row in picture.rows for cell in row}
    assert {"last", "choice", "marker", "scored"} <= styles
    assert "a" in picture.text()
