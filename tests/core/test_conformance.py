"""Every position drawn in the rule documents (shared/conformance/seed_positions.json, copied to
src/exact61/learn/data, where the guided tour reads it too): after its placements the layout
must report exactly the free attach points, scored contributions, end sum and credit the
documents print (R9, R12-R15)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from exact61 import AttachPoint, Layout, Tile, TileEnd
from tests.helpers import SEED_POSITIONS


def _point(data: list[Any]) -> AttachPoint:
    return AttachPoint(Tile(*data[0]), TileEnd(data[1]))


def _layout(case: dict[str, Any]) -> Layout:
    layout = Layout()
    for placement in case["placements"]:
        at = None if placement["at"] is None else _point(placement["at"])
        layout.place(Tile(*placement["tile"]), at)
    return layout


def test_every_case_is_loaded(seed_positions: list[dict[str, Any]]) -> None:
    names = {case["name"] for case in seed_positions}
    assert len(names) == len(seed_positions) == 11


@pytest.mark.parametrize("index", range(11))
def test_conformance_position(seed_positions: list[dict[str, Any]], index: int) -> None:
    case = seed_positions[index]
    layout = _layout(case)
    free = [[[p.tile.low, p.tile.high], p.end.value, value] for p, value in layout.free_points()]
    assert free == case["free"], case["name"]
    contributions = [[[t.low, t.high], value] for t, value in layout.contributions()]
    assert contributions == case["contributions"], case["name"]
    assert layout.end_sum == case["end_sum"] == sum(v for _, v in layout.contributions())
    assert layout.credit == case["credit_raw"], case["name"]
    assert [[t.low, t.high] for t in layout.spinners()] == case["spinners"]
    joins = [
        [[[h.tile.low, h.tile.high], h.end.value], [[j.tile.low, j.tile.high], j.end.value]]
        for h, j in layout.joins()
    ]
    assert joins == case["joins"], case["name"]


@pytest.mark.parametrize("index", range(11))
def test_conformance_credit_matches_credit_after(
    seed_positions: list[dict[str, Any]], index: int
) -> None:
    """Predicting the last placement's credit without placing agrees with placing it."""
    case = seed_positions[index]
    *before, last = case["placements"]
    layout = _layout({"placements": before})
    at = None if last["at"] is None else _point(last["at"])
    predicted = layout.credit_after(Tile(*last["tile"]), at)
    assert predicted == case["credit_raw"]
    assert len(layout) == len(before)  # unchanged by the prediction


def test_test_data_is_the_shared_conformance_file() -> None:
    """The project tests without ../shared; where it is beside the checkout, the copy the package
    ships (for the guided tour, and read by the tests) must match."""
    shared = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "seed_positions.json"
    if not shared.exists():
        pytest.skip("../shared is not beside this checkout")
    ours = SEED_POSITIONS
    assert json.loads(ours.read_text()) == json.loads(shared.read_text())
