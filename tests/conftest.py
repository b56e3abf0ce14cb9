"""Fixtures every layer's tests share (helpers to import live in `tests.helpers`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from exact61 import i18n
from tests.helpers import SEED_POSITIONS, Cli, Result

# No time limit on an example: speed is measured by benchmarks, not asserted by tests, and
# Hypothesis's default (200 ms) failed examples on a machine busy with other work.
settings.register_profile("exact61", deadline=None)
settings.load_profile("exact61")


@pytest.fixture(scope="session")
def seed_positions() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(SEED_POSITIONS.read_text())["cases"]
    return cases


@pytest.fixture
def cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Cli]:
    """`cli(*args)`: exact61 ARGS, its exit status and what it printed. The environment asks
    for English unless a test sets LANG; each test starts and ends in English."""
    from exact61.cli.main import run

    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.delenv("EXACT61_DEBUG", raising=False)

    def call(*args: str | Path) -> Result:
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["exact61", *map(str, args)])
        code = 0
        try:
            run()
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        finally:
            captured = capsys.readouterr()
            i18n.use("en")
        return Result(code, captured.out, captured.err)

    i18n.use("en")
    yield call
    i18n.use("en")


def pytest_report_header() -> str:
    """Which engine the tests play on, at the head of every run: a native module older than its
    sources, or none built, hands the suite to the Python engine without a failure."""
    from exact61.core import engines

    playing = f"exact61 engine: {engines.current().ENGINE}"
    refused = engines.refused()
    return playing if refused is None else f"{playing} ({refused.name} refused: {refused})"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that run the server or drive a browser are slow: `pytest -m "not slow"` leaves them
    out (the fast suite), the full suite runs them."""
    for item in items:
        serves = "server" in getattr(item, "fixturenames", ())
        if serves or item.get_closest_marker("server") or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)
