"""A plain (non-editable) install must hold every file the program reads at run time: build the
wheel from a clean copy of the sources and compare it with the source tree. (`.ci/run` also
installs that wheel in a clean venv and plays a bots-only match in every language from it.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
SRC = ROOT / "src" / "exact61"


@pytest.mark.slow
def test_the_wheel_holds_every_data_file(tmp_path: Path) -> None:
    # A clean copy: no egg-info left by an earlier build may stand in for the package data.
    clean = tmp_path / "clean"
    shutil.copytree(
        ROOT / "src",
        clean / "src",
        # built here, not sources: an egg-info, bytecode, the native core an editable install built
        ignore=shutil.ignore_patterns("*.egg-info", "__pycache__", "_native*.so"),
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, clean / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(clean)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr[-2500:]
    (wheel,) = tmp_path.glob("exact61-*.whl")
    inside = set(zipfile.ZipFile(wheel).namelist())
    wanted = {
        "exact61/" + path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and not path.match("_native*.so")
    }
    missing = sorted(wanted - inside)
    assert not missing, f"not in the wheel (add them to package-data): {missing}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("value", "path", "said"),
    [
        ("true", None, "EXACT61_COMPILE is 0 (pure) or 1 (native), not 'true'"),
        ("1", "no cargo", "EXACT61_COMPILE=1 builds the native core, which needs a Rust toolchain"),
    ],
)
def test_a_build_that_cannot_be_as_asked_says_why_in_one_line(
    tmp_path: Path, value: str, path: str | None, said: str
) -> None:
    env = {**os.environ, "EXACT61_COMPILE": value}
    if path is not None:  # no cargo: the PATH without Rust's folder
        keep = [
            p for p in env["PATH"].split(os.pathsep) if ".cargo" not in p and ".rustup" not in p
        ]
        env["PATH"] = os.pathsep.join(keep)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert built.returncode != 0
    assert f"exact61: {said}" in built.stdout + built.stderr
