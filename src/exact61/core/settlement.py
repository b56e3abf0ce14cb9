"""Sides, scoring events and round settlement (R2-R4, R16-R23).

Everything here is a pure function of seat numbers and hand pip sums, so the settlement rules can
be tested and shown (on a settlement screen, say) apart from the match that uses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, overload

TARGET_RAW = 305  # R3: exactly 61 display points
RAW_PER_DISPLAY = 5


def side_count(players: int) -> int:
    """R2: with 4 players two partnerships; otherwise every seat is its own side."""
    return 2 if players == 4 else players


def side_of(players: int, seat: int) -> int:
    """R2: the side a seat scores for (partners sit opposite: seats 0 and 2, 1 and 3)."""
    return seat % 2 if players == 4 else seat


def seats_of(players: int, side: int) -> tuple[int, ...]:
    """R2: the seats that score for `side` (two partners at 4 players, else one seat)."""
    return (side, side + 2) if players == 4 else (side,)


def partner_of(players: int, seat: int) -> int | None:
    return (seat + 2) % 4 if players == 4 else None


def opponents_of(players: int, seat: int) -> tuple[int, ...]:
    """The seats on other sides than `seat`'s."""
    return _OPPONENTS[players][seat]


_OPPONENTS = {
    n: [tuple(s for s in range(n) if side_of(n, s) != side_of(n, seat)) for seat in range(n)]
    for n in (2, 3, 4)
}


def round5(pips: int) -> int:
    """R17: round to the nearest multiple of 5; remainders 1, 2 go down, 3, 4 go up."""
    if pips < 0:
        raise ValueError("R17: only pip sums (never negative) are rounded")
    return (pips + 2) // 5 * 5


def display(raw: int) -> int:
    """R3: 5 raw points are 1 display point (raw scores are always multiples of 5)."""
    return raw // RAW_PER_DISPLAY


TARGET_DISPLAY = display(TARGET_RAW)  # R3: 61


class _Points(Protocol):
    """Points, one number or many at once (numpy arrays of scores and credits)."""

    def __add__(self, other: Any, /) -> Any: ...


# R4 and R30 are decided here, for the engine and for everything that reasons about an award
# before making it (bots, searches, features): a number, or numpy arrays element by element.
@overload
def accepts(score: int, raw: int) -> bool: ...
@overload
def accepts(score: _Points, raw: _Points) -> Any: ...
def accepts(score: Any, raw: Any) -> Any:
    """R4: a scoring event is rejected whole when it would take the side above 305 raw."""
    return score + raw <= TARGET_RAW


@overload
def kept(score: int, raw: int) -> int: ...
@overload
def kept(score: _Points, raw: _Points) -> Any: ...
def kept(score: Any, raw: Any) -> Any:
    """R4: what an award adds to a side at `score`: all of it, or nothing when it would pass
    305 raw (for arrays, numpy's `where`)."""
    if isinstance(score, int) and isinstance(raw, int):
        return raw if score + raw <= TARGET_RAW else 0
    return raw * accepts(score, raw)


@overload
def lands(score: int, raw: int) -> bool: ...
@overload
def lands(score: _Points, raw: _Points) -> Any: ...
def lands(score: Any, raw: Any) -> Any:
    """R30: whether an award takes a side at `score` to exactly 305 raw: the match is won."""
    return score + raw == TARGET_RAW


@dataclass(frozen=True, slots=True)
class _ScoringEvent:
    """What every scoring event has, its first fields: the seat whose credit it is, its side,
    the raw points and whether R4 accepted them. `kind` names the event."""

    kind: ClassVar[str]
    seat: int
    side: int
    raw: int
    accepted: bool


@dataclass(frozen=True, slots=True)
class PlayEvent(_ScoringEvent):
    """R16: the credit of an ordinary placement."""

    kind: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class DominoEvent(_ScoringEvent):
    """R19: the last placement, the opponents' pips and the partner deduction as one event."""

    kind: ClassVar[str] = "domino"
    play_raw: int
    opponents_raw: int
    partner_raw: int
    opponents_pips: int = 0
    partner_pips: int = 0


@dataclass(frozen=True, slots=True)
class BlockEvent(_ScoringEvent):
    """R21-R22: one hand's credit in a blocked round's settlement."""

    kind: ClassVar[str] = "block"
    pips: int = 0
    difference: int = 0


Event = PlayEvent | DominoEvent | BlockEvent


@dataclass(frozen=True, slots=True)
class DominoParts:
    play_raw: int
    opponents_pips: int
    opponents_raw: int
    partner_pips: int
    partner_raw: int

    @property
    def net(self) -> int:
        return domino_net(self.play_raw, self.opponents_raw, self.partner_raw)


def domino_net(play_raw: int, opponents_raw: int, partner_raw: int) -> int:
    """R19: the domino event's credit, the partner's rounded pips taken off."""
    return play_raw + opponents_raw - partner_raw


def domino_parts(players: int, seat: int, hand_pips: tuple[int, ...], play_raw: int) -> DominoParts:
    """R19: opponents' pips added together then rounded once; the partner's rounded on its own."""
    return DominoParts(play_raw, *domino_pips(players, seat, hand_pips))


def domino_pips(players: int, seat: int, hand_pips: tuple[int, ...]) -> tuple[int, int, int, int]:
    """`domino_parts` but the play's credit, as plain numbers (the engine settles a round with
    them, building no object): the opponents' pips and raw, the partner's pips and raw."""
    opponents = sum([hand_pips[o] for o in _OPPONENTS[players][seat]])
    partner = partner_of(players, seat)
    if partner is None:
        return opponents, round5(opponents), 0, 0
    return opponents, round5(opponents), hand_pips[partner], round5(hand_pips[partner])


@dataclass(frozen=True, slots=True)
class BlockCredit:
    """One hand's line in a blocked round's settlement (R21)."""

    seat: int
    pips: int
    difference: int  # sum over heavier opponent hands of (their pips - these pips)
    raw: int  # round5(difference)


def block_order(players: int, opener: int, hand_pips: tuple[int, ...]) -> list[int]:
    """R22: lightest hand first; equal sums clockwise from the round's opener."""
    return sorted(range(players), key=lambda s: (hand_pips[s], (s - opener) % players))


def block_credits(players: int, opener: int, hand_pips: tuple[int, ...]) -> list[BlockCredit]:
    """R20-R22: every hand's credit, in the order the events are processed."""
    out = []
    for seat in block_order(players, opener, hand_pips):
        own = hand_pips[seat]
        difference = sum(
            hand_pips[o] - own for o in opponents_of(players, seat) if hand_pips[o] > own
        )
        out.append(BlockCredit(seat, own, difference, round5(difference)))
    return out


def block_winner(players: int, hand_pips: tuple[int, ...]) -> int | None:
    """R23: the side of the lightest single hand, or None when opposing sides share it."""
    lightest = min(hand_pips)
    sides = {side_of(players, s) for s in range(players) if hand_pips[s] == lightest}
    return sides.pop() if len(sides) == 1 else None


def tally_marks(raw: int) -> tuple[int, int]:
    """R31: the paper tally of a raw score as (big X groups of 10 display points, strokes)."""
    groups, strokes = divmod(abs(raw) // RAW_PER_DISPLAY, 10)
    return groups, strokes
