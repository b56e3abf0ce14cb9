"""Fixtures the terminal's tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from exact61 import i18n


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The test's own data folder (EXACT61_DATA_DIR: saved games, the tour's progress), the
    test started and ended in English. A module that saves or reads there uses it for every
    test: `pytestmark = pytest.mark.usefixtures("data_dir")`."""
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path / "data"))
    i18n.use("en")
    yield tmp_path / "data"
    i18n.use("en")
