"""Fixtures every layer's tests share (helpers to import live in `tests.helpers`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers import DATA


@pytest.fixture(scope="session")
def seed_positions() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((DATA / "seed_positions.json").read_text())["cases"]
    return cases


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that run the server or drive a browser are slow: `pytest -m "not slow"` leaves them
    out (the fast suite), the full suite runs them."""
    for item in items:
        serves = "server" in getattr(item, "fixturenames", ())
        if serves or item.get_closest_marker("server") or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)
