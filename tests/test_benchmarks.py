"""A benchmark runs after the install its docstring names: every package it imports when it
starts is one that install brings (the base dependencies and the extras named in its
`pip install -e ".[...]"` line, which docs/figures/ copies beside the figures)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent
BENCHMARKS = ROOT / "benchmarks"
INSTALL = re.compile(r"""pip install -e ["']\.\[([a-z,]+)\]["']""")
# An import's name where it is not the distribution's.
DISTRIBUTION = {"pyspiel": "open_spiel", "yaml": "pyyaml"}


def requirement_name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("-", "_")


def installed_by(extras: list[str]) -> set[str]:
    """The distributions `pip install -e ".[extras]"` brings, the base dependencies included."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional = project["optional-dependencies"]
    names = {requirement_name(r) for r in project["dependencies"]}
    todo = list(extras)
    while todo:
        for requirement in optional[todo.pop()]:
            if requirement.startswith("exact61["):  # an extra made of others: test, examples
                todo += requirement.removeprefix("exact61[").split("]")[0].split(",")
            else:
                names.add(requirement_name(requirement))
    return names


def imported_at_start(path: Path) -> set[str]:
    """The top-level names a script imports when it starts (not those inside its functions)."""
    names: set[str] = set()
    todo: list[ast.AST] = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            todo += ast.iter_child_nodes(node)
        elif isinstance(node, ast.ExceptHandler):
            todo += node.body
    return names


def test_each_benchmark_imports_only_what_its_install_line_brings() -> None:
    own = {path.stem for path in BENCHMARKS.glob("*.py")} | {"exact61", "tests", "__future__"}
    checked = 0
    for path in sorted(BENCHMARKS.glob("*.py")):
        line = INSTALL.search(ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "")
        if line is None:
            continue
        brought = installed_by(line.group(1).split(","))
        outside = {
            name
            for name in imported_at_start(path) - own - set(sys.stdlib_module_names)
            if DISTRIBUTION.get(name, name).lower() not in brought
        }
        assert not outside, f"{path.name}: {line.group(0)} does not install {sorted(outside)}"
        checked += 1
    assert checked >= 5
