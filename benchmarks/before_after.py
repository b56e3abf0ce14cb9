"""The speed benchmarks of two versions on the same machine in one run: an earlier commit and the
working tree, taking turns.

    python benchmarks/before_after.py --before 0a11a66          # a quarter of an hour
    python benchmarks/before_after.py --before v0.1.0 --only solver --repeats 3

Each version runs its own copy of each benchmark (`bench_selfplay.py`, `bench_solver.py`,
`bench_search.py`) from a temporary git worktree of `--before` and from this checkout, with that
version's `src/` first on the import path; `exact61 simulate`, which `bench_selfplay.py` starts as
a child process, inherits it. The versions alternate (before, after, before, ...) so that drift in
the machine's speed falls on both, and each figure is the best of `--repeats` runs. Prints each
benchmark's Markdown table per version, then one table of the headline figures side by side.
The benchmarks measure both engines, the Python one and the native one, where a version has
both (a figure names its engine); a version from before the native core has the Python one
only. A version's native core is the one built in its tree (`pip install -e .` there, or this
checkout's, which a worktree of another commit does not have: its native figures are then
missing). Needs git and the `bench` extra (`dominoes`, the peer of `bench_selfplay.py`).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Bench:
    script: str
    args: tuple[str, ...]
    # (figure, regex on the output): the first group of the first match, a number with commas
    figures: tuple[tuple[str, str], ...]


SIMULATE = r"\| `exact61 simulate`[^|]*\|"  # the start of a row of bench_selfplay's table
ENGINE = r"\| (?:{engine} \| )?"  # a row's engine: named in today's tables, not before them


def rows(figure: str, pattern: str) -> tuple[tuple[str, str], ...]:
    """A figure on each engine: `pattern`'s `{engine}` names the engine's column (a version
    from before the native core has none: its rows are the Python engine's)."""
    return (
        (f"{figure} (python)", pattern.replace("{engine}", ENGINE.format(engine="python"))),
        (f"{figure} (native)", pattern.replace("{engine}", r"\| native \| ")),
    )


BENCHES = {
    "selfplay": Bench(
        "bench_selfplay.py",
        ("--seconds", "2", "--matches", "4000", "--repeats", "1"),
        tuple(
            row
            for n in (2, 3, 4)
            for row in rows(
                f"simulate {n} players, actions/s", rf"{SIMULATE} {n} {{engine}}([\d,]+)"
            )
        ),
    ),
    "solver": Bench(
        "bench_solver.py",
        ("--positions", "40", "--cap", "300000"),
        rows("solver nodes/s, every move's value", r"\| every move's value {engine}([\d,]+)")
        + rows("solver nodes/s, best move", r"\| best move {engine}([\d,]+)"),
    ),
    "search": Bench(
        "bench_search.py",
        ("--positions", "10"),
        tuple(
            row
            for n in (2, 3, 4)
            for row in rows(
                f"ISMCTS iterations/s, {n} players",
                rf"\| {n} \| [\d,]+ \| (?:ismcts )?{{engine}}([\d,]+) \|",
            )
        )
        + tuple((f"sampler deals/s, {n} players", rf"\| {n} \| ([\d,]+) \|") for n in (2, 3, 4)),
    ),
}


@dataclass
class Runs:
    outputs: list[str] = field(default_factory=list)
    best: dict[str, float] = field(default_factory=dict)


def run_bench(tree: Path, bench: Bench, package: Path | None = None) -> str:
    """One run of a benchmark script of `tree`, importing exact61 from `package` (a folder
    holding it; default: the tree's `src`)."""
    env = {**os.environ, "PYTHONPATH": str(package or tree / "src")}
    script = tree / "benchmarks" / bench.script
    done = subprocess.run(
        [sys.executable, str(script), *bench.args],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{script} failed:\n{done.stderr.strip()[-2000:]}")
    return done.stdout


def read_figures(bench: Bench, output: str) -> dict[str, float]:
    found = {}
    for name, pattern in bench.figures:
        match = re.search(pattern, output)
        if match:
            found[name] = float(match.group(1).replace(",", ""))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the earlier commit (any git ref)")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each version (best kept)")
    parser.add_argument("--only", choices=sorted(BENCHES), action="append", help="one benchmark")
    args = parser.parse_args()
    names = args.only or list(BENCHES)
    with tempfile.TemporaryDirectory(prefix="exact61-before-") as folder:
        before = Path(folder) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(before), args.before],
            check=True,
            capture_output=True,
        )
        try:
            trees = {"before": before, "after": ROOT}
            packages: dict[str, Path | None] = {"before": None, "after": None}
            results: dict[str, dict[str, Runs]] = {}
            for name in names:
                bench = BENCHES[name]
                results[name] = {version: Runs() for version in trees}
                for turn in range(args.repeats):
                    for version, tree in trees.items():
                        print(f"{name}: {version} ({turn + 1} of {args.repeats})", file=sys.stderr)
                        output = run_bench(tree, bench, packages[version])
                        runs = results[name][version]
                        runs.outputs.append(output)
                        for figure, value in read_figures(bench, output).items():
                            runs.best[figure] = max(value, runs.best.get(figure, value))
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)],
                check=False,
                capture_output=True,
            )
    versions = list(trees)
    for name in names:
        for version in versions:
            print(f"\n### {name}, {version} (last run)\n")
            print(results[name][version].outputs[-1].strip())
    print(f"\n### Side by side: {args.before} and this checkout, best of {args.repeats}\n")
    later = versions[1:]
    print(
        "| figure | "
        + " | ".join(versions)
        + " | "
        + " | ".join(f"{v} / before" for v in later)
        + " |"
    )
    print("|---|" + "---:|" * (len(versions) + len(later)))
    for name in names:
        best = {version: results[name][version].best for version in versions}
        for figure, _ in BENCHES[name].figures:
            if all(figure in best[version] for version in versions):
                values = [best[version][figure] for version in versions]
                shown = " | ".join(_figure(v) for v in values)
                ratios = " | ".join(f"{v / values[0]:.2f}" for v in values[1:])
                print(f"| {figure} | {shown} | {ratios} |")
    return 0


def _figure(value: float) -> str:
    """A rate as a whole number with thousands separators, a ratio (below 100) to 2 places."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.2f}"


if __name__ == "__main__":
    sys.exit(main())
