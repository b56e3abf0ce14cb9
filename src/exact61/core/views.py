"""What one seat may know (R5: hands stay hidden until the round is settled).

A `SeatView` is built from a `Match` and holds no reference to it: its own hand, the layout,
scores, the boneyard's size, every seat's hand size, and the round's public history, in which
another seat's draw shows only that a tile was drawn. Bots and interfaces play a seat from this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from exact61.core.actions import Action, Draw, Pass, Play
from exact61.core.layout import Layout
from exact61.core.match import Match, Phase, RoundEnd
from exact61.core.settlement import Event, side_count, side_of
from exact61.core.tiles import Tile


class PublicStep(NamedTuple):
    """One action as a seat saw it. `drawn` is set only for the viewing seat's own draws."""

    seat: int
    kind: str  # "play", "draw" or "pass"
    play: Play | None = None
    drawn: Tile | None = None


@dataclass(frozen=True)
class SeatView:
    """Everything seat `seat` may know at this moment, and nothing more."""

    seat: int
    players: int
    hand: tuple[Tile, ...]
    layout: Layout
    scores: tuple[int, ...]
    boneyard_size: int
    hand_sizes: tuple[int, ...]
    to_act: int | None
    round_index: int
    opener: int | None
    pending_draw: Tile | None
    history: tuple[PublicStep, ...]
    events: tuple[Event, ...]
    legal_actions: tuple[Action, ...]
    round_end: RoundEnd | None = None  # the last round's settlement, hands revealed (R18-R23)

    @property
    def side(self) -> int:
        return side_of(self.players, self.seat)

    @property
    def sides(self) -> int:
        return side_count(self.players)

    def draw_counts(self) -> tuple[int, ...]:
        """How many tiles each seat has drawn this round."""
        counts = [0] * self.players
        for step in self.history:
            if step.kind == "draw":
                counts[step.seat] += 1
        return tuple(counts)


def _public_step(seat: int, step_seat: int, action: Action, drawn: Tile | None) -> PublicStep:
    if isinstance(action, Play):
        return PublicStep(step_seat, "play", action)
    if isinstance(action, Draw):
        return PublicStep(step_seat, "draw", None, drawn if step_seat == seat else None)
    assert isinstance(action, Pass)
    return PublicStep(step_seat, "pass")


def view_of(match: Match, seat: int) -> SeatView:
    """The view of `seat` (0-based) of the match as it stands."""
    if not 0 <= seat < match.players:
        raise ValueError(f"R2: no seat {seat} among {match.players} players")
    rounds = match.rounds
    log = rounds[-1] if rounds else None
    in_play = match.phase is Phase.PLAY
    history: Sequence[PublicStep] = ()
    events: Sequence[Event] = ()
    if log is not None:
        history = [_public_step(seat, s.seat, s.action, s.drawn) for s in log.steps]
        events = log.events
    to_act = match.to_act
    mine = in_play and to_act == seat
    return SeatView(
        seat=seat,
        players=match.players,
        hand=match.hand(seat) if in_play else (),
        layout=match.layout if log is not None else Layout(),
        scores=match.scores,
        boneyard_size=match.boneyard_size if in_play else 0,
        hand_sizes=match.hand_sizes() if in_play else (0,) * match.players,
        to_act=to_act,
        round_index=len(rounds) - 1,
        opener=None if log is None else log.opener,
        pending_draw=match.pending_draw if mine else None,
        history=tuple(history),
        events=tuple(events),
        legal_actions=tuple(match.legal_actions()) if mine else (),
        round_end=None if log is None else log.end,
    )
