"""Value types (R1, R13): immutable, hashable, compared by value, readable, rebuilt by repr."""

from __future__ import annotations

import dataclasses

import pytest

from exact61 import (
    ALL_TILES,
    DRAW,
    PASS,
    AttachPoint,
    Draw,
    Layout,
    Pass,
    Play,
    Tile,
    TileEnd,
)
from exact61.core.points import ALL_POINTS

NAMESPACE = {
    "Tile": Tile,
    "AttachPoint": AttachPoint,
    "TileEnd": TileEnd,
    "Play": Play,
    "Draw": Draw,
    "Pass": Pass,
    "Layout": Layout,
}


def test_repr_rebuilds_every_value() -> None:
    points = list(ALL_POINTS)
    assert len(points) == 21 * 2 + 7 * 4  # non-doubles: low, high; doubles: 2 lines, 2 arms
    values = [*ALL_TILES, *points, Play(Tile(1, 4), None), Play(Tile(1, 2), points[0]), DRAW, PASS]
    for value in values:
        rebuilt = eval(repr(value), NAMESPACE)
        assert rebuilt == value and hash(rebuilt) == hash(value) and type(rebuilt) is type(value)


def test_readable_str() -> None:
    assert str(Tile(0, 5)) == "[0|5]"
    assert str(AttachPoint(Tile(4, 4), "armB")) == "[4|4] armB"
    assert str(Play(Tile(3, 4), AttachPoint(Tile(4, 4), "lineB"))) == "[3|4] at [4|4] lineB"
    assert str(Play(Tile(1, 4), None)) == "[1|4] opens"
    assert (str(DRAW), str(PASS)) == ("draw", "pass")


def test_immutable_and_compared_by_value() -> None:
    tile = Tile(2, 5)
    with pytest.raises(AttributeError):
        tile.low = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        DRAW.x = 1  # type: ignore[attr-defined]
    assert Play(Tile(2, 5), None) == Play(Tile(2, 5), None)
    assert Draw() == DRAW and Pass() == PASS and DRAW != PASS
    assert len({Tile(2, 5), Tile(2, 5), Tile(5, 5)}) == 2


def test_layout_repr_rebuilds_the_layout() -> None:
    layout = Layout()
    layout.place(Tile(1, 4), None)
    layout.place(Tile(4, 4), AttachPoint(Tile(1, 4), "high"))
    layout.place(Tile(3, 4), AttachPoint(Tile(4, 4), "lineB"))
    assert eval(repr(layout), NAMESPACE) == layout
