"""examples/train_linear_agent.py, tiny: it trains and measures without a word on stderr."""

from __future__ import annotations

import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

# The example runs in a process of its own: this one only needs to know that its packages are
# installed (importing cma to learn it cost every test process a second of its collection).
pytestmark = pytest.mark.skipif(
    not all(find_spec(name) for name in ("cma", "gymnasium", "scipy")),
    reason="the example needs cma, gymnasium and scipy",
)

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_linear_agent.py"


def test_the_example_runs_quietly_without_matplotlib() -> None:
    """The research extra installs no matplotlib, and cma warned about it on import: the first
    line a newcomer saw was 'UserWarning: Could not import matplotlib.pyplot'."""
    run = (
        "import runpy, sys\n"
        "sys.modules['matplotlib'] = sys.modules['matplotlib.pyplot'] = None  # not installed\n"
        f"sys.argv = [{str(EXAMPLE)!r}, '--generations', '1', '--matches', '1',"
        " '--eval-matches', '2']\n"
        f"runpy.run_path({str(EXAMPLE)!r}, run_name='__main__')\n"
    )
    result = subprocess.run(
        [sys.executable, "-W", "default", "-c", run],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "generation  1: best mean reward vs greedy" in result.stdout
    assert "trained   vs greedy" in result.stdout
