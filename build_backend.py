"""The build backend: setuptools', asking for mypy too when EXACT61_COMPILE=1 asks for the
compiled build (`setup.py`), so that a pure-Python build needs nothing more."""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (the backend's hooks, unchanged)

MYPYC = "mypy>=1.10"


def _extra() -> list[str]:
    return [MYPYC] if os.environ.get("EXACT61_COMPILE", "") not in ("", "0") else []


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_wheel(config_settings), *_extra()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_editable(config_settings), *_extra()]
