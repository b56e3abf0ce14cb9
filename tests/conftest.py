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
