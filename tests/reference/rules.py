"""The rules of Exact 61 Five Up, again, from the rule texts (docs/rules, R1-R31) alone.

Plain and slow on purpose: every question (what is free, what scores, who may do what) is
answered from scratch from the state, the way the rules text words it, so that a reader can
check each function against its rule. Only the value types of `exact61` are used, to speak the
engine's language (tiles, attach points, actions, deals); nothing here calls the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from exact61 import DRAW, PASS, AttachPoint, Deal, Draw, Pass, Play, Tile, TileEnd

Action = Play | Draw | Pass

TARGET_RAW = 305  # R3: exactly 61 display points
HAND_SIZE = 5  # R5
LINE_SIDES = (TileEnd.LINE_A, TileEnd.LINE_B)  # R13
ARMS = (TileEnd.ARM_A, TileEnd.ARM_B)  # R13

# What the phases are called (the engine's `Phase` values are the same words).
BETWEEN_ROUNDS = "deal"
PLAYING = "play"
OVER = "over"


class IllegalAction(ValueError):
    """An action the rules do not allow now; `rule` names the rule it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


# --- Sides (R2) and rounding (R17) ------------------------------------------------------------


def side_of(players: int, seat: int) -> int:
    """R2: with 4 players seats 0 and 2 are side 0, seats 1 and 3 side 1; otherwise a seat is
    its own side."""
    return seat % 2 if players == 4 else seat


def side_count(players: int) -> int:
    """R2: two partnerships at 4 players, else one side a seat."""
    return 2 if players == 4 else players


def partner_of(players: int, seat: int) -> int | None:
    """R2: the seat opposite at 4 players; nobody otherwise."""
    return (seat + 2) % 4 if players == 4 else None


def opponents_of(players: int, seat: int) -> list[int]:
    """R2: every seat of another side."""
    return [s for s in range(players) if side_of(players, s) != side_of(players, seat)]


def round_to_five(pips: int) -> int:
    """R17: to the nearest multiple of 5; remainders 1 and 2 round down, 3 and 4 round up."""
    remainder = pips % 5
    if remainder in (1, 2):
        return pips - remainder
    if remainder in (3, 4):
        return pips + 5 - remainder
    return pips


def pips_of(tiles: Sequence[Tile]) -> int:
    """A hand's remaining pip sum (R19-R21)."""
    return sum(tile.low + tile.high for tile in tiles)


# --- The layout (R9, R12-R15) -----------------------------------------------------------------


def value_of(point: AttachPoint) -> int:
    """R9: the pip value a tile must show to attach at `point` (a double's every point shows
    its one pip value)."""
    return point.tile.low if point.end == TileEnd.LOW else point.tile.high


def shows(tile: Tile, value: int) -> bool:
    """Whether one half of `tile` has `value` pips (R9)."""
    return value in (tile.low, tile.high)


class Table:
    """The tiles on the table: which attach points are free and which line sides are joined.

    The free attach points are a dict from point to the value it accepts (R13). Every double
    placed is a spinner (R12); `joined_line_sides[double]` is the set of its line sides joined,
    which decides when its arms open (R13) and whether it scores (R14).
    """

    def __init__(self) -> None:
        self.placements: list[tuple[Tile, AttachPoint | None]] = []
        self.free: dict[AttachPoint, int] = {}
        self.joined_line_sides: dict[Tile, set[TileEnd]] = {}
        self.joins: list[tuple[AttachPoint, AttachPoint]] = []

    @property
    def is_empty(self) -> bool:
        return not self.placements

    def tiles(self) -> list[Tile]:
        return [tile for tile, _ in self.placements]

    def points_for(self, tile: Tile) -> list[AttachPoint]:
        """R9, R13: every free attach point whose value `tile` shows."""
        return [point for point, value in self.free.items() if shows(tile, value)]

    def place(self, tile: Tile, at: AttachPoint | None) -> None:
        """Put `tile` on the table: the opening tile when `at` is None (R7), otherwise joined to
        the free point `at` by a half of the same value (R9, R13)."""
        if tile in self.tiles():
            raise IllegalAction("R1", f"{tile} is already on the table")
        if at is None:
            if not self.is_empty:
                raise IllegalAction("R9", "only the first tile of a round is placed without a join")
            self.placements.append((tile, None))
            if tile.is_double:
                self.joined_line_sides[tile] = set()
                for side in LINE_SIDES:  # R13: the opening double's free points
                    self.free[AttachPoint(tile, side)] = tile.low
            else:
                self.free[AttachPoint(tile, TileEnd.LOW)] = tile.low
                self.free[AttachPoint(tile, TileEnd.HIGH)] = tile.high
            return
        if at not in self.free:
            raise IllegalAction("R13", f"{at} is not a free attach point")
        value = self.free[at]
        if not shows(tile, value):
            raise IllegalAction("R9", f"{tile} has no half of {value} to join {at}")
        self.placements.append((tile, at))
        del self.free[at]
        host = at.tile
        if host.is_double and at.end in LINE_SIDES:
            self.joined_line_sides[host].add(at.end)
            if self.joined_line_sides[host] == set(LINE_SIDES):  # R13: now the arms open
                for arm in ARMS:
                    self.free[AttachPoint(host, arm)] = host.low
        if tile.is_double:
            # R13: a double placed on the layout joins by lineA; lineB is free.
            self.joined_line_sides[tile] = {TileEnd.LINE_A}
            self.free[AttachPoint(tile, TileEnd.LINE_B)] = tile.low
            self.joins.append((at, AttachPoint(tile, TileEnd.LINE_A)))
        else:
            joined = TileEnd.LOW if tile.low == value else TileEnd.HIGH
            other = TileEnd.HIGH if joined == TileEnd.LOW else TileEnd.LOW
            self.free[AttachPoint(tile, other)] = value_of(AttachPoint(tile, other))
            self.joins.append((at, AttachPoint(tile, joined)))

    def contributions(self) -> list[tuple[Tile, int]]:
        """R14: each free end of a non-double tile counts its pips (zeros too); each double with
        at most one line side joined counts 2 x pip; an interior double and any arm count
        nothing themselves (an opened arm counts through the free end at its tip)."""
        scored = [
            (point.tile, value) for point, value in self.free.items() if not point.tile.is_double
        ]
        for tile, joined in self.joined_line_sides.items():
            if len(joined) <= 1:
                scored.append((tile, 2 * tile.low))
        return scored

    @property
    def end_sum(self) -> int:
        """R15: the sum of all scored contributions."""
        return sum(value for _, value in self.contributions())

    @property
    def credit(self) -> int:
        """R15: the end sum when it is a positive multiple of 5, else nothing."""
        total = self.end_sum
        return total if total > 0 and total % 5 == 0 else 0

    def spinners(self) -> list[Tile]:
        """R12: every double on the table."""
        return [tile for tile in self.tiles() if tile.is_double]


# --- Scoring events and round ends ------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """One target-checked scoring event (R4): a placement credit (`play`, R16), a domino
    settlement (`domino`, R19) or one blocked hand's credit (`block`, R22)."""

    kind: str
    seat: int
    side: int
    raw: int
    accepted: bool
    play_raw: int = 0
    opponents_raw: int = 0
    partner_raw: int = 0
    opponents_pips: int = 0
    partner_pips: int = 0
    pips: int = 0
    difference: int = 0


@dataclass(frozen=True)
class RoundResult:
    """How a round ended (R18-R23, R30): `domino`, `block`, or `target` when an ordinary
    placement reached 305 and the round ended unsettled. `winner` is the round winner's side
    (None for a tie after a block, R23); on `target` the match winner's. `hands` and `pips` are
    the hands revealed at settlement (None on `target`)."""

    kind: str
    seat: int | None
    winner: int | None
    hands: tuple[tuple[Tile, ...], ...] | None = None
    pips: tuple[int, ...] | None = None


@dataclass
class Round:
    """One round in play: the hands, the boneyard in draw order, the table, the seat to act and
    the drawn tile that seat must place at once (R10)."""

    opener: int
    hands: list[list[Tile]]
    boneyard: list[Tile]
    table: Table = field(default_factory=Table)
    to_act: int | None = None
    must_place: Tile | None = None
    result: RoundResult | None = None


def blocked_hand_credits(
    players: int, opener: int, hand_pips: Sequence[int]
) -> list[tuple[int, int, int]]:
    """R20-R22: `(seat, difference, credit)` of every hand, in the order the events are made:
    lightest hand first, equal sums clockwise from the opener. A hand's difference sums, over
    every opponent hand heavier than it, how much heavier; partners are never compared."""
    order = sorted(range(players), key=lambda s: (hand_pips[s], (s - opener) % players))
    credits = []
    for seat in order:
        difference = sum(
            hand_pips[other] - hand_pips[seat]
            for other in opponents_of(players, seat)
            if hand_pips[other] > hand_pips[seat]
        )
        credits.append((seat, difference, round_to_five(difference)))
    return credits


def blocked_round_winner(players: int, hand_pips: Sequence[int]) -> int | None:
    """R23: the side of the lightest single hand; None when opposing sides share it."""
    lightest = min(hand_pips)
    sides = {side_of(players, s) for s in range(players) if hand_pips[s] == lightest}
    return sides.pop() if len(sides) == 1 else None


# --- A match (R2-R30) -------------------------------------------------------------------------


class ReferenceMatch:
    """A whole match: raw scores per side, the round in play, who opens next, the winner."""

    def __init__(self, players: int, scores: Sequence[int] | None = None) -> None:
        if players not in (2, 3, 4):
            raise IllegalAction("R2", f"2, 3 or 4 players, not {players}")
        self.players = players
        self.scores = list(scores) if scores is not None else [0] * side_count(players)
        self.phase = BETWEEN_ROUNDS
        self.winner: int | None = None
        self.required_opener: int | None = None  # R6: the first round's opener is a lot
        self.rounds: list[Round] = []

    @classmethod
    def from_position(
        cls,
        players: int,
        placements: Sequence[tuple[Tile, AttachPoint | None]],
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        to_act: int,
        opener: int,
        scores: Sequence[int] | None = None,
    ) -> ReferenceMatch:
        """A match in the middle of a round: the table as placed, every hand, the boneyard in
        draw order and the seat to act."""
        match = cls(players, scores)
        current = Round(opener, [list(h) for h in hands], list(boneyard), to_act=to_act)
        for tile, at in placements:
            current.table.place(tile, at)
        match.rounds.append(current)
        match.phase = PLAYING
        return match

    @property
    def round(self) -> Round:
        return self.rounds[-1]

    @property
    def to_act(self) -> int | None:
        return self.round.to_act if self.phase == PLAYING else None

    def start_round(self, deal: Deal, opener: int) -> None:
        """R5-R8: deal the round; after a domino its maker must open (R8), else any seat the
        lot chose."""
        if self.phase != BETWEEN_ROUNDS:
            raise IllegalAction("R5", "a round is dealt only between rounds")
        if self.required_opener is not None and opener != self.required_opener:
            raise IllegalAction("R8", f"seat {self.required_opener} made domino and opens")
        hands = [list(hand) for hand in deal.hands]
        self.rounds.append(Round(opener, hands, list(deal.boneyard), to_act=opener))
        self.phase = PLAYING

    def can_place(self, seat: int) -> bool:
        """R10, R11: whether `seat` holds a tile some free attach point accepts."""
        table = self.round.table
        return table.is_empty or any(table.points_for(tile) for tile in self.round.hands[seat])

    def is_blocked(self) -> bool:
        """R11: the boneyard is empty and no player holds a legal placement."""
        return not self.round.boneyard and not any(
            self.can_place(seat) for seat in range(self.players)
        )

    def legal_actions(self) -> list[Action]:
        """R7, R9, R10, R13: the opener may open with any tile; later every tile in hand at every
        free point it matches; after a playable draw only that tile; a draw only without a
        placement; a pass only without a placement and with an empty boneyard."""
        if self.phase != PLAYING:
            return []
        current = self.round
        seat = current.to_act
        assert seat is not None
        table = current.table
        if table.is_empty:
            return [Play(tile, None) for tile in current.hands[seat]]
        tiles = [current.must_place] if current.must_place is not None else current.hands[seat]
        placements: list[Action] = [
            Play(tile, point) for tile in tiles for point in table.points_for(tile)
        ]
        if placements:
            return placements
        return [DRAW] if current.boneyard else [PASS]

    def apply(self, action: Action) -> list[Event]:
        """Take `action` for the seat to act and return the scoring events it made, in order."""
        if action not in self.legal_actions():
            raise IllegalAction("R10", f"{action} is not a legal action now")
        current = self.round
        seat = current.to_act
        assert seat is not None
        if isinstance(action, Draw):
            tile = current.boneyard.pop(0)  # R5: one at a time, in draw order
            current.hands[seat].append(tile)
            if current.table.points_for(tile):  # R10: a playable draw is placed at once
                current.must_place = tile
            return []
        if isinstance(action, Pass):
            if self.is_blocked():  # R11: checked after every pass
                return self.settle_blocked_round()
            current.to_act = (seat + 1) % self.players
            return []
        current.hands[seat].remove(action.tile)
        current.must_place = None
        current.table.place(action.tile, action.at)
        credit = current.table.credit  # R15
        if not current.hands[seat]:
            return self.settle_domino(seat, credit)
        events = []
        if credit:
            event = self.score("play", seat, credit)  # R16
            events.append(event)
            if self.phase == OVER:  # R30: the round ends here, unsettled
                current.result = RoundResult("target", seat, self.winner)
                current.to_act = None
                return events
        if self.is_blocked():  # R11: checked after every placement
            return events + self.settle_blocked_round()
        current.to_act = (seat + 1) % self.players
        return events

    def score(self, kind: str, seat: int, raw: int, **parts: int) -> Event:
        """R4, R30: apply `raw` to the seat's side unless it would pass 305; reaching exactly
        305 wins the match at once. A negative net is always applied (R19, settled)."""
        side = side_of(self.players, seat)
        accepted = self.scores[side] + raw <= TARGET_RAW
        if accepted:
            self.scores[side] += raw
            if self.scores[side] == TARGET_RAW:
                self.phase = OVER
                self.winner = side
        return Event(kind, seat, side, raw, accepted, **parts)

    def revealed(self) -> tuple[tuple[tuple[Tile, ...], ...], tuple[int, ...]]:
        """R18, R20: every hand as it stands, and its pip sum."""
        hands = tuple(tuple(hand) for hand in self.round.hands)
        return hands, tuple(pips_of(hand) for hand in hands)

    def end_round(self, result: RoundResult, next_opener: int | None) -> None:
        self.round.result = result
        self.round.to_act = None
        self.required_opener = next_opener
        if self.phase != OVER:
            self.phase = BETWEEN_ROUNDS

    def settle_domino(self, seat: int, play_raw: int) -> list[Event]:
        """R18, R19: one event: the last placement's credit, plus the opponents' pips summed
        then rounded, minus (at 4 players) the partner's pips rounded on their own. Recorded
        even when its net is 0. The domino maker opens the next round (R8)."""
        hands, pips = self.revealed()
        opponents_pips = sum(pips[s] for s in opponents_of(self.players, seat))
        partner = partner_of(self.players, seat)
        partner_pips = pips[partner] if partner is not None else 0
        opponents_raw = round_to_five(opponents_pips)
        partner_raw = round_to_five(partner_pips)
        event = self.score(
            "domino",
            seat,
            play_raw + opponents_raw - partner_raw,
            play_raw=play_raw,
            opponents_raw=opponents_raw,
            partner_raw=partner_raw,
            opponents_pips=opponents_pips,
            partner_pips=partner_pips,
        )
        side = side_of(self.players, seat)
        self.end_round(RoundResult("domino", seat, side, hands, pips), next_opener=seat)
        return [event]

    def settle_blocked_round(self) -> list[Event]:
        """R20-R23: one event per hand with a positive credit, lightest first, equal sums
        clockwise from the opener; the first accepted event reaching 305 ends the match and
        the rest are not applied. The next opener is drawn by lot (R8)."""
        hands, pips = self.revealed()
        events = []
        for seat, difference, credit in blocked_hand_credits(self.players, self.round.opener, pips):
            if credit <= 0:
                continue
            events.append(self.score("block", seat, credit, pips=pips[seat], difference=difference))
            if self.phase == OVER:
                break
        winner = blocked_round_winner(self.players, pips)
        self.end_round(RoundResult("block", None, winner, hands, pips), next_opener=None)
        return events
