"""Helpers the tests share: tiles written either way round, scripted deals, the boneyard of a
position set up by hand, the test data, a command started as from a terminal."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from exact61 import ALL_TILES, Deal, Tile
from exact61.core import engines
from exact61.core.engines import Engine

DATA = Path(__file__).parent / "data"
# Every position drawn in the rule documents (../shared/conformance/seed_positions.json), as the
# package ships it for the guided tour: the tests read the same copy.
SEED_POSITIONS = (
    Path(__file__).parents[1] / "src" / "exact61" / "learn" / "data" / "seed_positions.json"
)


def T(a: int, b: int) -> Tile:
    return Tile(min(a, b), max(a, b))


def make_deal(
    hands: list[list[tuple[int, int]]], boneyard: list[tuple[int, int]] | None = None
) -> Deal:
    """A deal with the given hands; the boneyard is `boneyard` first, then every other tile."""
    hand_tiles = [tuple(T(*t) for t in hand) for hand in hands]
    front = [T(*t) for t in (boneyard or [])]
    used = {t for hand in hand_tiles for t in hand} | set(front)
    rest = [t for t in ALL_TILES if t not in used]
    return Deal(tuple(hand_tiles), tuple(front + rest))


def rest_of_set(*groups: Iterable[Tile]) -> list[Tile]:
    """Every tile of the set (R1) in none of `groups`, in the set's order: the boneyard of a
    position set up by hand from its layout's and hands' tiles."""
    used = {t for group in groups for t in group}
    return [t for t in ALL_TILES if t not in used]


def as_in_a_terminal() -> None:
    """`preexec_fn` for a command a test interrupts with Ctrl+C: SIGINT at its default, as a
    shell starts a command in the foreground. A suite started in the background (`cmd &` in a
    script, `nohup`) has SIGINT ignored, every command it starts inherits that, and the program
    rightly keeps it so (`cli.app.whole_steps`): Ctrl+C would then change nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Result(NamedTuple):
    """What `exact61 ARGS` did, as the `cli` fixture runs it: exit status, stdout, stderr."""

    code: int
    out: str
    err: str


Cli = Callable[..., Result]


def native_engine() -> Engine:
    """The native engine; the test skips where it is not built, and fails under CI, which
    builds it (`.ci/run`)."""
    import os

    import pytest

    if engines.NATIVE is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("CI builds the native engine, but it is not importable", pytrace=False)
        pytest.skip("the native engine is not built here (no cargo at install time)")
    return engines.NATIVE


def played_match(players: int, seed: int, bots: list[str]) -> Any:
    """A match of `bots` from `seed` played to its end, as `exact61 simulate` plays it."""
    from exact61.simulation.driver import bot_table

    table = bot_table(players, seed, bots)
    table.play_out()
    return table.match


def played_record(players: int, seed: int, bots: list[str]) -> dict[str, Any]:
    """The record of a match of `bots` from `seed`, as `exact61 simulate` plays and writes it."""
    from exact61.simulation.driver import bot_table

    table = bot_table(players, seed, bots)
    table.play_out()
    return table.record()
