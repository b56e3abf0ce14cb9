"""The engine a match plays on: the Python engine (`exact61.core.engine`), the reference that
defines every rule, or its native twin (`exact61.core._native`, the Rust crate in `native/`),
built where a Rust toolchain was at install time and held equal to the reference action by
action (`tests/core/test_lockstep.py`).

Both are modules of the same functions on positions (`Engine`): a position reads as a list of
`engine.POSITION_FIELDS`, whatever engine made it. `current()` is the engine new matches play on:
the native one where it is built, unless `use("python")` (the top-level `exact61` package reads
the switch `EXACT61_ENGINE=python|native` from the environment once, at import).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

from exact61.core import engine as python_engine
from exact61.core.settlement import Event

Position = Any
"""A round as an engine has it: the Python engine's list, or the native engine's object; both
read as the list of `engine.POSITION_FIELDS`."""


class Engine(Protocol):
    """What an engine offers: a round's positions and the functions that play them, each as
    `exact61.core.engine` documents it. `ENGINE` names it (`python`, `native`)."""

    ENGINE: str

    def start(
        self,
        hands: Sequence[Sequence[int]],
        boneyard: Sequence[int],
        opener: int,
        scores: Sequence[int],
        *,
        book: bool = True,
    ) -> Position: ...

    def resume(
        self,
        hands: Sequence[Sequence[int]],
        placements: Sequence[int],
        boneyard: Sequence[int],
        to_act: int,
        opener: int,
        scores: Sequence[int],
        pending: int = -1,
        *,
        book: bool = True,
    ) -> Position: ...

    def redeal(
        self, position: Position, hands: Sequence[Sequence[int]], boneyard: Sequence[int]
    ) -> Position: ...

    def copy(self, position: Position) -> Position: ...

    def clone(self, position: Position) -> Position: ...

    def legal_moves(self, position: Position) -> list[int]: ...

    def distinct_moves(self, position: Position) -> list[int]: ...

    def playable(self, position: Position) -> int: ...

    def credit_of(self, position: Position, move: int) -> int: ...

    def play(self, position: Position, move: int) -> tuple[Event, ...]: ...

    def arrange_draw(self, position: Position, tile: int) -> None: ...

    def hand_of(self, position: Position, seat: int) -> int: ...

    def hand_pips(self, position: Position) -> tuple[int, ...]: ...

    def won_by(self, position: Position) -> int | None: ...

    def search_key(self, position: Position) -> tuple[object, ...]: ...


PYTHON: Engine = cast(Engine, python_engine)


def _native() -> Engine | None:
    try:
        from exact61.core import _native  # the extension module, where it was built
    except ImportError:
        return None
    return cast(Engine, _native)


NATIVE: Engine | None = _native()
NAMES = ("python", "native")
_current: list[Engine] = [NATIVE or PYTHON]


class EngineError(ValueError):
    """An engine that cannot be had. `problem`: "unknown" (no engine of that name), "not built"
    (the native one, where no Rust toolchain built it) or "stale" (the native one, built before
    its sources last changed); `name`, as asked. The message is English; the command line says
    it in the player's language from the parts."""

    def __init__(self, name: str, problem: str) -> None:
        self.name, self.problem = name, problem
        reasons = {
            "unknown": f"no engine {name!r}: choose from {', '.join(NAMES)}",
            "not built": "the native engine is not built here: install exact61 with a Rust "
            "toolchain (cargo) on the PATH",
            "stale": "the native engine was built before its sources last changed: build it "
            "again (pip install -e .)",
        }
        super().__init__(reasons[problem])


_refused: list[EngineError] = []


def named(name: str) -> Engine:
    """The engine called `name` (`python` or `native`); EngineError for another name, or for
    `native` where it was not built."""
    if name == "python":
        return PYTHON
    if name == "native":
        if NATIVE is None:
            raise EngineError(name, "not built")
        return NATIVE
    raise EngineError(name, "unknown")


def use(name: str) -> Engine:
    """Make `name` the engine new matches play on (`named`'s names, or `auto`: the native one
    where it is built); return it."""
    chosen = (NATIVE or PYTHON) if name in ("", "auto") else named(name)
    _current[0] = chosen
    return chosen


def refuse(error: EngineError) -> None:
    """Keep the engine the switch asked for and could not have, for the command line to say
    (`refused`); new matches play on the Python engine, or the native one where `error` is not
    about it."""
    _refused[:] = [error]
    _current[0] = PYTHON if error.problem == "stale" else (NATIVE or PYTHON)


def refused() -> EngineError | None:
    """The engine the switch asked for and could not have, if any (`refuse`)."""
    return _refused[0] if _refused else None


def current() -> Engine:
    """The engine new matches play on."""
    return _current[0]


__all__ = [
    "NAMES",
    "NATIVE",
    "PYTHON",
    "Engine",
    "EngineError",
    "Position",
    "current",
    "named",
    "refuse",
    "refused",
    "use",
]
