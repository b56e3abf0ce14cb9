"""The floors of the code stay clean: the core imports nothing above it, every package imports
only the floors below it, and there is no cycle (docs/architecture.md, which lists the same)."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "src" / "exact61"

# What each package may import from the project (the top-level `exact61` re-exports the core
# and carries the version; `__main__` only starts the command line).
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "i18n": set(),
    "scale": set(),  # running jobs in order on a pool or a cluster: knows nothing of the game
    "search": {"core"},  # the solver, the equity table, sampled deals, each move's value
    "bots": {"core", "search"},
    "analysis": {"core", "search", "bots", "render", "i18n"},  # the expert judges; tiles as drawn
    "render": {"core"},
    "table": {"core", "bots"},
    "simulation": {"core", "bots", "table", "scale"},
    "tournament": {"core", "bots", "table", "simulation", "scale"},
    "terminal": {"core", "bots", "table", "render", "i18n", "analysis", "learn"},
    "server": {"core", "bots", "table", "render", "i18n", "learn", "scale"},  # workers' end
    "research": {"core", "bots", "search", "render", "table"},
    "learn": {"core", "search", "bots", "analysis", "table", "render", "i18n"},  # tour, puzzles
    "cli": {
        "core",
        "search",
        "bots",
        "analysis",
        "table",
        "render",
        "i18n",
        "terminal",
        "simulation",
        "tournament",
        "server",
        "scale",
        "learn",
    },
}
TOP = {"__init__": {"core"}, "__main__": {"cli"}}


def project_imports() -> dict[str, set[str]]:
    """Per package (or top-level module), the project's packages it imports."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        owner = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == "exact61":  # from exact61 import i18n, __version__, Tile
                    modules = [f"exact61.{a.name}" for a in node.names]
                else:
                    modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            for module in modules:
                parts = module.split(".")
                if parts[0] != "exact61" or len(parts) < 2:
                    continue
                target = parts[1] if (PACKAGE / parts[1]).is_dir() else "__init__"
                if target != owner:
                    found[owner].add(target)
    return found


def test_every_package_imports_only_the_floors_below_it() -> None:
    imports = project_imports()
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= set(ALLOWED), f"a new package needs its floor: {packages - set(ALLOWED)}"
    for owner, targets in imports.items():
        allowed = ALLOWED.get(owner, TOP.get(owner, set())) | {"__init__"} - {owner}
        if owner == "core":
            allowed = set()
        assert targets <= allowed, f"{owner} imports {sorted(targets - allowed)} from above"


def test_no_cycles_between_packages() -> None:
    imports = project_imports()
    graph = {k: {t for t in v if t in ALLOWED} for k, v in imports.items() if k in ALLOWED}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert not [p for p in graph if reaches(p, p, {p})]


def test_the_architecture_page_lists_these_imports() -> None:
    rows = re.findall(
        r"^\| `(\w+)` \|.*\| (.+) \|$",
        (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    listed = {package: set(re.findall(r"`(\w+)`", imports)) for package, imports in rows}
    assert listed == ALLOWED
