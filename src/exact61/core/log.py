"""What happened in a round: its actions (`Step`), its scoring events and how it ended.

A round's log keeps each action as one int, its code, as the engine writes it (`engine.DRAWN_TILE`):
`RoundLog.step_codes` as they happened (a draw names its tile), `RoundLog.public_codes` as every
seat saw them (a draw names none, R5), and each seat's draws apart (`RoundLog.draws`), so a
seat's view can share the public codes and its own draws. `steps` and `public` read the codes as
`Step`s; every step exists once, made at import, so logging one makes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, overload

from exact61.core.actions import DRAW, Action
from exact61.core.deal import Deal
from exact61.core.engine import ACTIONS, DRAWN_TILE, STEP_COUNT
from exact61.core.engine import DRAW as DRAW_MOVE
from exact61.core.settlement import Event
from exact61.core.tiles import ALL_TILES, Tile


class Step(NamedTuple):
    """One action as it happened; `drawn` is the tile a draw took (hidden from other seats)."""

    seat: int
    action: Action
    drawn: Tile | None = None


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """How a round ended: `domino`, `block` or `target` (R18-R23, R30).

    `hands` and `pips` are the hands revealed at settlement (None when the match ended mid-round
    on an ordinary placement, unsettled). `winner` is the round winner's side: the domino maker's,
    the lightest hand's after a block (None for a tie, R23), the match winner's on `target`.
    """

    kind: str
    seat: int | None
    winner: int | None
    hands: tuple[tuple[Tile, ...], ...] | None = None
    pips: tuple[int, ...] | None = None


# ---- step codes -------------------------------------------------------------------------------

SEATS = 4  # the most seats (R2): a code keeps the seat in its low two bits


def _steps() -> tuple[Step | None, ...]:
    table: list[Step | None] = []
    for code in range(STEP_COUNT):
        move, seat = divmod(code, SEATS)
        if move >= DRAWN_TILE:
            table.append(Step(seat, DRAW, ALL_TILES[move - DRAWN_TILE]))
        else:
            action = ACTIONS[move]
            table.append(None if action is None else Step(seat, action))
    return tuple(table)


STEPS = _steps()  # by code: the step it logs


PLACED = DRAW_MOVE * SEATS  # the codes below are placements


def is_placement(code: int) -> bool:
    return code < PLACED


def is_draw(code: int) -> bool:
    move = code // SEATS
    return move == DRAW_MOVE or move >= DRAWN_TILE


def move_of(code: int) -> int:
    """The engine move a code logs."""
    move = code // SEATS
    return DRAW_MOVE if move >= DRAWN_TILE else move


class StepList(Sequence[Step]):
    """A round's codes read as steps (`RoundLog.steps`, `RoundLog.public`); read-only."""

    __slots__ = ("_codes",)

    def __init__(self, codes: Sequence[int]) -> None:
        self._codes = codes

    def __len__(self) -> int:
        return len(self._codes)

    @overload
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...
    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        if isinstance(index, slice):
            return [_step(code) for code in self._codes[index]]
        return _step(self._codes[index])

    def __iter__(self) -> Iterator[Step]:
        return map(_step, self._codes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (StepList, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # it grows with its round

    def __repr__(self) -> str:
        return f"StepList({list(self)!r})"


def _step(code: int) -> Step:
    step = STEPS[code]
    assert step is not None, f"no step has code {code}"
    return step


class RoundLog:
    """Everything that happened in one round, in order.

    `deal` is None for a round set up mid-way with `Match.from_position` (search, puzzles);
    `start_hands` then gives the hands it started with. The engine fills the code lists,
    `draws` and `events` of the round in play; everyone else only reads them.
    """

    __slots__ = (
        "deal",
        "draws",
        "earlier_placements",
        "end",
        "events",
        "opener",
        "public_codes",
        "start_hands",
        "step_codes",
    )

    def __init__(
        self,
        deal: Deal | None,
        opener: int,
        *,
        step_codes: list[int],
        public_codes: list[int],
        draws: list[list[int]],
        events: list[Event],
        start_hands: tuple[tuple[int, ...], ...] | None = None,
        earlier_placements: tuple[int, ...] = (),
    ) -> None:
        """A round's log on the lists the engine fills (its position's `engine.Book`); a round
        set up mid-way gives the hands it starts with and the placements (engine moves) made
        before."""
        self.deal = deal
        self.opener = opener
        self.step_codes = step_codes
        self.public_codes = public_codes
        self.draws = draws
        self.events = events
        self.end: RoundEnd | None = None
        self.start_hands = start_hands
        self.earlier_placements = earlier_placements

    @property
    def placements(self) -> list[int]:
        """The round's placements so far, as engine moves (a round set up mid-way: those made
        before it too)."""
        return [*self.earlier_placements, *(move_of(c) for c in self.public_codes if c < PLACED)]

    @property
    def players(self) -> int:
        return len(self.draws)

    @property
    def start_sizes(self) -> tuple[int, ...] | None:
        """The hand sizes a round set up mid-way started with (None for a dealt round)."""
        return None if self.start_hands is None else tuple(map(len, self.start_hands))

    def start_hand(self, seat: int) -> tuple[int, ...]:
        """The tiles `seat` started the round with, as tile indices, in the order received."""
        if self.deal is not None:
            return self.deal.hand_indices(seat)
        assert self.start_hands is not None
        return self.start_hands[seat]

    @property
    def steps(self) -> StepList:
        """The round's actions as they happened (a draw names the tile it took)."""
        return StepList(self.step_codes)

    @property
    def public(self) -> StepList:
        """The round's actions as every seat saw them (a draw names no tile, R5)."""
        return StepList(self.public_codes)

    def sharing(
        self,
        step_codes: list[int],
        public_codes: list[int],
        draws: list[list[int]],
        events: list[Event],
    ) -> RoundLog:
        """This log, on other lists (copies of its own, to grow apart from them)."""
        new = RoundLog(
            self.deal,
            self.opener,
            step_codes=step_codes,
            public_codes=public_codes,
            draws=draws,
            events=events,
            start_hands=self.start_hands,
            earlier_placements=self.earlier_placements,
        )
        new.end = self.end
        return new

    def __repr__(self) -> str:
        return (
            f"RoundLog(deal={self.deal!r}, opener={self.opener}, steps={list(self.steps)!r}, "
            f"events={self.events!r}, end={self.end!r})"
        )


__all__ = [
    "STEPS",
    "RoundEnd",
    "RoundLog",
    "Step",
    "StepList",
    "is_draw",
    "is_placement",
    "move_of",
]
