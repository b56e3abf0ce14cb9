"""The actions a seat can take (R7-R10): place a tile, draw from the boneyard, or pass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from exact61.core.points import AttachPoint
from exact61.core.tiles import Tile


class Play(NamedTuple):
    """Place `tile` at `at`; `at` is None for the opening tile of a round (R7, R9)."""

    tile: Tile
    at: AttachPoint | None

    def __str__(self) -> str:
        return f"{self.tile} opens" if self.at is None else f"{self.tile} at {self.at}"

    def __repr__(self) -> str:
        return f"Play({self.tile!r}, {self.at!r})"


@dataclass(frozen=True)  # no slots: CPython 3.11 then raises TypeError on assignment
class Draw:
    """Draw the boneyard's next tile; allowed only without a legal placement (R10)."""

    def __str__(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return "Draw()"


@dataclass(frozen=True)
class Pass:
    """Pass; allowed only with an empty boneyard and no legal placement (R10)."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


Action = Play | Draw | Pass

DRAW = Draw()
PASS = Pass()
