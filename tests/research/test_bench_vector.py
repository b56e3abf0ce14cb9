"""benchmarks/bench_vector.py --profile: where the batched environment's time goes."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

from exact61.core import engines

BENCH = Path(__file__).parents[2] / "benchmarks" / "bench_vector.py"


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_vector", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_profile_names_the_native_core_and_the_benchmarks_own_time() -> None:
    """The native core's step is a builtin to cProfile (its file is "~"): the profile had put
    it under "numpy and builtins", and the benchmark's own random actions under "other", so
    the two biggest rows of a native profile said nothing."""
    module_of = bench().module_of
    native = "<method 'step' of 'exact61.core._native.VectorGames' objects>"
    assert module_of("~", native) == "exact61.core._native (the native core)"
    assert module_of(str(BENCH), "vector_run") == "the benchmark (the agent's random legal actions)"
    assert module_of("~", "<built-in method builtins.len>") == "numpy and builtins"
    assert module_of("/venv/site-packages/numpy/_core/fromnumeric.py", "argmax") == (
        "numpy and builtins"
    )
    assert module_of("/venv/site-packages/exact61/research/vector.py", "step") == (
        "exact61.research.vector"
    )
    assert module_of("/venv/site-packages/gymnasium/core.py", "reset") == "gymnasium"


@pytest.mark.skipif(engines.current().ENGINE != "native", reason="the native engine is not built")
def test_a_native_profile_shows_the_native_core(capsys: pytest.CaptureFixture[str]) -> None:
    bench().profile(16, 2, "greedy", 0.2)
    table = capsys.readouterr().out
    assert "| `exact61.core._native (the native core)` |" in table


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--repeats", "0"], "--repeats: a whole number of at least 1, not '0'"),
        (["--seconds", "-1"], "--seconds: a number of seconds above 0, not '-1'"),
        (["--seconds", "nan"], "--seconds: a number of seconds above 0, not 'nan'"),
        (["--seconds", "inf"], "--seconds: a number of seconds above 0, not 'inf'"),
    ],
)
def test_runs_that_measure_nothing_are_refused_naming_the_option(
    given: list[str], said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--repeats 0 ended in "ValueError: max() arg is an empty sequence" after the header,
    --seconds -1 or nan printed 0 steps a second as a measurement, and inf never ended."""
    monkeypatch.setattr("sys.argv", ["bench_vector.py", "--batched-only", *given])
    with pytest.raises(SystemExit) as ended:
        bench().main()
    assert ended.value.code == 2
    assert said in capsys.readouterr().err
