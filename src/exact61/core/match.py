"""A whole match: rounds, turns, legal actions, scoring events and settlement (R2-R30).

`Match` is the full state, seen from the table: every hand and the boneyard's order. Chance is an
explicit step: between rounds the match waits for `start_round(deal, opener)`, whose deal and lot
come from outside (`random_deal`, `draw_lot` with a seeded `random.Random`), so a match replays
from its log. Seats act through `legal_actions()` and `apply(action)`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, overload

from exact61.core.actions import DRAW, PASS, Action, Draw, Pass, Play
from exact61.core.errors import IllegalMoveError, RuleError
from exact61.core.layout import (
    _PLACEMENTS,
    _POINT_COUNT,
    JOINS,
    POINT_VALUE,
    POINTS,
    AttachPoint,
    Layout,
    _Join,
)
from exact61.core.settlement import (
    TARGET_RAW,
    BlockEvent,
    DominoEvent,
    Event,
    PlayEvent,
    block_credits,
    block_winner,
    domino_net,
    domino_pips,
    side_count,
    side_of,
)
from exact61.core.tiles import (
    ALL_TILES,
    HIGH,
    LOW,
    PIPS,
    TILE_COUNT,
    TILE_INDEX,
    VALUE_MASK,
    Tile,
)

HAND_SIZE = 5  # R5
PLAYER_COUNTS = (2, 3, 4)  # R2


def _build_play_table() -> tuple[Play | None, ...]:
    """Every possible placement, built once: index point * TILE_COUNT + tile."""
    table: list[Play | None] = []
    for p, point in enumerate(POINTS):
        for t, tile in enumerate(ALL_TILES):
            fits = point is not None and point.tile != tile and JOINS[t * 7 + POINT_VALUE[p]]
            table.append(Play(tile, point) if fits else None)
    return tuple(table)


_PLAYS = _build_play_table()
# Per tile index, its placement at each point index (None where it does not fit).
_PLAYS_OF = tuple(_PLAYS[t::TILE_COUNT] for t in range(TILE_COUNT))
_OPENINGS = tuple(Play(tile, None) for tile in ALL_TILES)
# Every Play object the engine hands out (and so records): writers may key on their identity.
ENGINE_PLAYS: tuple[Play, ...] = (*(p for p in _PLAYS if p is not None), *_OPENINGS)


class Deal:
    """R5: five tiles to each seat, the rest in the boneyard in the order they will be drawn.

    Immutable. `Deal(hands, boneyard)` checks that every tile is dealt exactly once.
    """

    __slots__ = ("_boneyard", "_hands", "_order", "_players")

    def __init__(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> None:
        players = len(hands)
        if players not in PLAYER_COUNTS:
            raise RuleError("R2", f"a deal is for 2, 3 or 4 players, not {players}")
        for seat, hand in enumerate(hands):
            if len(hand) != HAND_SIZE:
                raise RuleError("R5", f"seat {seat} is dealt {len(hand)} tiles, not {HAND_SIZE}")
        tiles = [t for hand in hands for t in hand] + list(boneyard)
        for t in tiles:
            if not isinstance(t, Tile):
                raise RuleError("R1", f"{t!r} is not a tile")
        if len(tiles) != TILE_COUNT or len(set(tiles)) != TILE_COUNT:
            raise RuleError("R5", "hands and boneyard must hold each of the 28 tiles exactly once")
        self._players = players
        self._order = [TILE_INDEX[t] for t in tiles]
        self._hands: tuple[tuple[Tile, ...], ...] | None = tuple(tuple(h) for h in hands)
        self._boneyard: tuple[Tile, ...] | None = tuple(boneyard)

    @classmethod
    def _shuffled(cls, order: list[int], players: int) -> Deal:
        """A deal straight from a permutation of tile indices (nothing to check)."""
        deal = cls.__new__(cls)
        deal._players = players
        deal._order = order
        deal._hands = deal._boneyard = None  # built when first asked for
        return deal

    @property
    def players(self) -> int:
        return self._players

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's five tiles, in seat order."""
        if self._hands is None:
            tiles = [ALL_TILES[i] for i in self._order]
            self._hands = tuple(
                tuple(tiles[i : i + HAND_SIZE])
                for i in range(0, HAND_SIZE * self._players, HAND_SIZE)
            )
        return self._hands

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The undealt tiles, first to be drawn first."""
        if self._boneyard is None:
            self._boneyard = tuple(ALL_TILES[i] for i in self._order[HAND_SIZE * self._players :])
        return self._boneyard

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self._players == other._players and self._order == other._order

    def __hash__(self) -> int:
        return hash((self._players, tuple(self._order)))

    def __repr__(self) -> str:
        return f"Deal(hands={self.hands!r}, boneyard={self.boneyard!r})"


def random_deal(rng: random.Random, players: int) -> Deal:
    """R5: shuffle all 28 tiles with `rng` and deal five to each seat."""
    if players not in PLAYER_COUNTS:
        raise RuleError("R2", f"Exact 61 Five Up is for 2, 3 or 4 players, not {players}")
    # Sorting by random keys: a uniform shuffle (the keys drawn in C, no Python frame per key).
    keys = list(map(_RANDOM, repeat(rng, TILE_COUNT)))
    return Deal._shuffled(sorted(_TILE_RANGE, key=keys.__getitem__), players)


_RANDOM = random.Random.random
_TILE_RANGE = range(TILE_COUNT)


def draw_lot(rng: random.Random, players: int) -> int:
    """R6/R8: a neutral lot, uniform over all seats (a tie redrawn among the tied is uniform)."""
    return rng.randrange(players)


def round_chance(rng: random.Random, players: int) -> tuple[int, Deal]:
    """One round's draws from `rng`, in order: the lot (R6/R8), then the deal (R5). Always the
    same share of `rng`, so skipping k rounds replays a seed's later deals exactly."""
    lot = draw_lot(rng, players)
    return lot, random_deal(rng, players)


class Phase(StrEnum):
    DEAL = "deal"  # waiting for the chance step: the next round's deal and opener
    PLAY = "play"  # a seat is to act
    OVER = "over"  # a side reached exactly 305 (R30)


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


_T = TypeVar("_T")


class Growing(Sequence[_T]):
    """A read-only window on a list that only grows (a round's logs): seat views share one
    instead of copying the list, and cannot change it."""

    __slots__ = ("_items",)

    def __init__(self, items: list[_T]) -> None:
        self._items = items

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> _T: ...
    @overload
    def __getitem__(self, index: slice) -> list[_T]: ...
    def __getitem__(self, index: int | slice) -> _T | list[_T]:
        return self._items[index]  # a slice is a new list: the window stays read-only

    def __iter__(self) -> Iterator[_T]:
        return iter(self._items)

    def __repr__(self) -> str:
        return f"Growing({self._items!r})"


@dataclass(slots=True)
class RoundLog:
    """Everything that happened in one round, in order.

    `deal` is None for a round set up mid-way with `Match.from_position` (search, puzzles).
    `public` is `steps` as every seat saw them: a draw there names no tile (R5), and
    `own_draws[seat]` lists `(step index, tile)` of that seat's own draws. Both only grow, so a
    seat's view shares them instead of copying the round (see `views`).
    """

    deal: Deal | None
    opener: int
    steps: list[Step] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    end: RoundEnd | None = None
    public: list[Step] = field(default_factory=list)
    own_draws: list[list[tuple[int, Tile]]] = field(default_factory=list)
    start_sizes: tuple[int, ...] | None = None  # hand sizes at the start, if not 5 each
    # Read-only windows on `public`, `own_draws` and `events`, for the seats' views.
    shown: tuple[Growing[Step], tuple[Growing[tuple[int, Tile]], ...], Growing[Event]] = field(
        init=False, repr=False, compare=False
    )
    # Per seat, what its views show all round (built by `views` at the seat's first view).
    view_bases: list[tuple[Any, ...] | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._share()

    def _share(self) -> None:
        """The read-only windows the seats' views share, and their per-seat cache."""
        self.shown = (
            Growing(self.public),
            tuple(map(Growing, self.own_draws)),
            Growing(self.events),
        )
        self.view_bases = [None] * len(self.own_draws)

    @classmethod
    def _new_round(cls, deal: Deal, opener: int, players: int) -> RoundLog:
        """A dealt round's empty log, as `RoundLog(deal, opener, own_draws=[[]...])` builds it,
        without the dataclass's defaults machinery (this runs once a round in self-play)."""
        log = _new_object(cls)
        log.deal = deal
        log.opener = opener
        events: list[Event] = []
        public: list[Step] = []
        own: list[list[tuple[int, Tile]]] = [[] for _ in range(players)]
        log.steps = []
        log.events = events
        log.end = None
        log.public = public
        log.own_draws = own
        log.start_sizes = None
        log._share()
        return log


_new_object = object.__new__


# R5: each seat's five tiles as slices of a deal's order.
_HAND_SLICES = {
    n: tuple(slice(i, i + HAND_SIZE) for i in range(0, HAND_SIZE * n, HAND_SIZE))
    for n in PLAYER_COUNTS
}
_NO_EVENTS: tuple[Event, ...] = ()
_PLAY, _DEAL, _OVER = Phase.PLAY, Phase.DEAL, Phase.OVER  # module constants: no enum lookup
_SEATS = range(max(PLAYER_COUNTS))
# Every step the engine can log exists once, built here: applying an action creates no object,
# and writers may key a step's text on its identity (`ENGINE_STEPS`).
# The engine's own Play objects are unique, so their identity finds (tile, point) indices, the
# play's step per seat and its join (None for an opening tile) fast.
_PLAY_INDICES: dict[int, tuple[int, int, tuple[Step, ...], _Join | None]] = {
    id(play): (
        i % TILE_COUNT,
        i // TILE_COUNT,
        tuple(Step(s, play) for s in _SEATS),
        _PLACEMENTS[i % TILE_COUNT * _POINT_COUNT + i // TILE_COUNT],
    )
    for i, play in enumerate(_PLAYS)
    if play
}
_PLAY_INDICES.update(
    {
        id(play): (t, -1, tuple(Step(s, play) for s in _SEATS), None)
        for t, play in enumerate(_OPENINGS)
    }
)

_DRAW_STEPS = tuple(tuple(Step(s, DRAW, tile) for tile in ALL_TILES) for s in _SEATS)
_PASS_STEPS = tuple(Step(s, PASS) for s in _SEATS)
# A draw as the other seats see it (R5: the tile stays hidden), one per seat.
_HIDDEN_DRAWS = tuple(Step(seat, DRAW, None) for seat in _SEATS)
# R14: each tile on the table scores at most its own pips (a free end, both ends of the opening
# tile, a double's two halves), so no end sum, hence no credit, exceeds all the tiles' pips.
MAX_END_SUM = sum(PIPS)
# Every ordinary placement's event likewise (R16), by seat, side, raw // 5 and acceptance.
_PLAY_EVENTS = tuple(
    tuple(
        tuple(
            (PlayEvent(seat, side, raw, False), PlayEvent(seat, side, raw, True))
            for raw in range(0, MAX_END_SUM + 1, 5)
        )
        for side in _SEATS
    )
    for seat in _SEATS
)
ENGINE_EVENTS: tuple[PlayEvent, ...] = tuple(
    event for by_side in _PLAY_EVENTS for by_raw in by_side for pair in by_raw for event in pair
)
ENGINE_STEPS: tuple[Step, ...] = (
    *(step for _, _, steps, _ in _PLAY_INDICES.values() for step in steps),
    *(step for steps in _DRAW_STEPS for step in steps),
    *_PASS_STEPS,
)


class Match:
    """The full state of a match of Exact 61 Five Up for 2, 3 or 4 players."""

    __slots__ = (
        "_bone",
        "_bone_pos",
        "_hands",
        "_layout",
        "_legal",
        "_log",
        "_own_draws",
        "_pending",
        "_phase",
        "_players",
        "_public",
        "_required_opener",
        "_rounds",
        "_scores",
        "_scores_tuple",
        "_steps",
        "_to_act",
        "_winner",
    )

    def __init__(self, players: int, *, scores: Sequence[int] | None = None) -> None:
        """A new match; `scores` starts the sides from given raw scores (puzzles, analysis)."""
        if players not in PLAYER_COUNTS:
            raise RuleError("R2", f"Exact 61 Five Up is for 2, 3 or 4 players, not {players}")
        self._players = players
        self._scores = [0] * side_count(players)
        if scores is not None:
            if len(scores) != len(self._scores):
                raise RuleError("R2", f"{players} players make {len(self._scores)} sides")
            for raw in scores:
                if type(raw) is not int or raw % 5 or raw >= TARGET_RAW:
                    raise RuleError(
                        "R3", f"a starting raw score is a multiple of 5 below 305, not {raw!r}"
                    )
            self._scores = list(scores)
        self._scores_tuple: tuple[int, ...] | None = None  # `scores`, kept until they change
        self._rounds: list[RoundLog] = []
        self._phase = _DEAL
        self._winner: int | None = None
        self._required_opener: int | None = None  # None: next opener by lot (R6, R8)
        self._hands: list[list[int]] = []
        self._bone: list[int] = []
        self._bone_pos = 0
        self._layout = Layout.owned()
        self._to_act: int | None = None
        self._pending = -1  # a drawn tile that must be placed at once (R10), or -1
        self._legal: list[Action] | None = None
        self._log: RoundLog | None = None
        self._steps: list[Step] = []  # the current round's log.steps
        self._public: list[Step] = []  # and log.public
        self._own_draws: list[list[tuple[int, Tile]]] = []  # and log.own_draws

    # ---- the chance step -----------------------------------------------------------------

    def start_round(self, deal: Deal, opener: int) -> None:
        """Start the next round with `deal`; `opener` must obey R6/R8."""
        if self._phase is _OVER:
            raise RuleError("R30", "the match is over")
        if self._phase is _PLAY:
            raise RuleError("R5", "a round is still in play")
        if deal.players != self._players:
            raise RuleError("R2", f"the deal is for {deal.players} players, not {self._players}")
        if type(opener) is not int or not 0 <= opener < self._players:
            raise RuleError("R2", f"no seat {opener!r} among {self._players} players")
        if self._required_opener is not None and opener != self._required_opener:
            raise RuleError(
                "R8", f"seat {self._required_opener} made domino and opens the next round"
            )
        order = deal._order
        self._hands = list(map(order.__getitem__, _HAND_SLICES[self._players]))
        self._bone = order[HAND_SIZE * self._players :]
        self._bone_pos = 0
        self._layout = Layout.owned()
        self._to_act = opener
        self._pending = -1
        self._legal = None
        log = self._log = RoundLog._new_round(deal, opener, self._players)
        self._steps = log.steps
        self._public = log.public
        self._own_draws = log.own_draws
        self._rounds.append(log)
        self._phase = _PLAY

    def deal_next_round(self, rng: random.Random) -> None:
        """Draw the lot (used only if R8 asks for one), then shuffle and deal, all from `rng`.

        The lot is always drawn, so every round takes the same share of `rng`: with one seed,
        round k gets the same deal whoever plays, which makes seat-swapped matches comparable.
        """
        lot, deal = round_chance(rng, self._players)
        opener = lot if self._required_opener is None else self._required_opener
        self.start_round(deal, opener)

    def arrange_next_draw(self, tile: Tile) -> None:
        """Chance at the moment of a draw: put `tile`, still in the boneyard, next in draw order.

        For environments that model each draw as its own chance node (OpenSpiel). The undrawn
        boneyard is face down (R5), so choosing its next tile uniformly at each draw deals the
        same as shuffling it at the start. The round's deal is rewritten to match, so the
        match's record still replays.
        """
        if self._phase is not _PLAY:
            raise RuleError("R5", "no round is in play")
        t = TILE_INDEX[tile]
        pos = self._bone_pos
        try:
            i = self._bone.index(t, pos)
        except ValueError:
            raise RuleError("R5", f"{tile} is not in the boneyard") from None
        bone = self._bone.copy()  # the list may be shared with copies of this match
        bone[pos], bone[i] = bone[i], bone[pos]
        self._bone = bone
        log = self._log
        assert log is not None
        if log.deal is not None:
            dealt = HAND_SIZE * self._players
            log.deal = Deal._shuffled(log.deal._order[:dealt] + bone, self._players)

    @classmethod
    def from_position(
        cls,
        players: int,
        *,
        layout: Layout | Sequence[tuple[Tile, AttachPoint | None]],
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        to_act: int,
        opener: int,
        scores: Sequence[int] | None = None,
        pending_draw: Tile | None = None,
    ) -> Match:
        """A match in the middle of a round: the layout as placed, every hand, the boneyard in
        draw order, the seat to act (and the drawn tile it must place, R10).

        For search over sampled deals, puzzles and analysis; such a round has no deal to record.
        """
        match = cls(players, scores=scores)
        if len(hands) != players:
            raise RuleError("R2", f"{players} players hold {players} hands, not {len(hands)}")
        table = layout.copy() if isinstance(layout, Layout) else Layout.from_plays(layout)
        tiles = [t for hand in hands for t in hand] + list(boneyard) + table.tiles
        if len(tiles) != TILE_COUNT or set(tiles) != set(ALL_TILES):
            raise RuleError("R5", "layout, hands and boneyard must hold each tile exactly once")
        for seat in (to_act, opener):
            if type(seat) is not int or not 0 <= seat < players:
                raise RuleError("R2", f"no seat {seat!r} among {players} players")
        if not all(hands):
            raise RuleError("R18", "a seat without tiles has made domino: the round is over")
        match._hands = [[TILE_INDEX[t] for t in hand] for hand in hands]
        match._bone = [TILE_INDEX[t] for t in boneyard]
        table._owned = True
        match._layout = table
        match._to_act = to_act
        if pending_draw is not None:
            t = TILE_INDEX[pending_draw]
            if t not in match._hands[to_act] or not VALUE_MASK[t] & table._open:
                raise RuleError("R10", f"{pending_draw} is not a playable tile of seat {to_act}")
            match._pending = t
        match._log = RoundLog(
            None,
            opener,
            own_draws=[[] for _ in range(players)],
            start_sizes=tuple(len(hand) for hand in hands),
        )
        match._steps = match._log.steps
        match._public = match._log.public
        match._own_draws = match._log.own_draws
        match._rounds.append(match._log)
        match._phase = _PLAY
        return match

    # ---- questions -----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self._players

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def scores(self) -> tuple[int, ...]:
        """Raw score per side (R3)."""
        return self._scores_now()

    def _scores_now(self) -> tuple[int, ...]:
        scores = self._scores_tuple
        if scores is None:
            scores = self._scores_tuple = tuple(self._scores)
        return scores

    @property
    def winner(self) -> int | None:
        """The side that reached exactly 305, once the match is over (R30)."""
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._phase is _OVER

    _TO_ACT_DOC = "The seat to act, or None between rounds and after the match."
    if TYPE_CHECKING:

        @property
        def to_act(self) -> int | None: ...

    else:  # read in C: a driver asks before every action (a Python getter cost 1.2%)
        to_act = property(attrgetter("_to_act"), doc=_TO_ACT_DOC)

    @property
    def required_opener(self) -> int | None:
        """R8: the seat that must open the next round, or None when a lot decides."""
        return self._required_opener

    @property
    def rounds(self) -> Sequence[RoundLog]:
        """Every round so far, the one in play last."""
        return self._rounds

    @property
    def layout(self) -> Layout:
        """The current round's layout, read-only: `copy()` it to place tiles on it.

        Shared, not copied: the match copies its own layout before its next placement.
        """
        layout = self._layout
        layout._frozen = True
        return layout

    @property
    def pending_draw(self) -> Tile | None:
        """R10: the drawn tile the seat to act must place at once, if any."""
        return ALL_TILES[self._pending] if self._pending >= 0 else None

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles seat `seat` holds, in the order received."""
        return tuple(ALL_TILES[t] for t in self._hands[seat])

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._hands)

    @property
    def boneyard_size(self) -> int:
        return len(self._bone) - self._bone_pos

    def side_of(self, seat: int) -> int:
        return side_of(self._players, seat)

    def can_place(self, seat: int) -> bool:
        """Whether `seat` holds a tile some free attach point accepts (R10, R11)."""
        if self._layout.is_empty:
            return bool(self._hands[seat])
        open_values = self._layout._open
        return any(VALUE_MASK[t] & open_values for t in self._hands[seat])

    # ---- acting --------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The exact set of actions the seat to act may take (R7, R9-R10, R13).

        Every placement at every free attach point; `Draw` only without one; after a playable
        draw only that tile's placements; `Pass` only with an empty boneyard. The list is the
        match's own: do not change it.
        """
        legal = self._legal
        if legal is not None:
            return legal
        legal = self._legal = []
        seat = self._to_act
        if seat is not None:  # a round is in play
            layout = self._layout
            pending = self._pending
            if not layout._placed:  # R7: the opener may play any tile
                legal += [_OPENINGS[t] for t in self._hands[seat]]
                return legal
            free = layout._free
            append = legal.append
            open_values = layout._open
            for t in (pending,) if pending >= 0 else self._hands[seat]:
                if not VALUE_MASK[t] & open_values:
                    continue
                plays = _PLAYS_OF[t]
                lo = LOW[t]
                for p in free[lo]:
                    append(plays[p])  # type: ignore[arg-type]
                hi = HIGH[t]
                if hi != lo:
                    for p in free[hi]:
                        append(plays[p])  # type: ignore[arg-type]
            if not legal:  # R10: draw while the boneyard lasts, then pass
                append(DRAW if self._bone_pos < len(self._bone) else PASS)
        return legal

    def credit_of(self, action: Action) -> int:
        """The credit (R15) a legal placement would earn now; 0 for a draw or a pass."""
        legal = self.legal_actions()
        try:
            act = legal[legal.index(action)]
        except ValueError:
            raise self._why_illegal(action) from None
        indices = _PLAY_INDICES.get(id(act))
        return 0 if indices is None else self._layout._credit_after(indices[0], indices[1])

    def legal_credits(self) -> list[int]:
        """The credit (R15) of each action in `legal_actions()`, in the same order."""
        credit_after = self._layout._credit_after
        out = []
        for act in self.legal_actions():
            indices = _PLAY_INDICES.get(id(act))
            out.append(0 if indices is None else credit_after(indices[0], indices[1]))
        return out

    def apply(self, action: Action) -> Sequence[Event]:
        """Take `action` for the seat to act; return the scoring events it caused, in order.

        Raises IllegalMoveError, naming the rule, when the action is not legal now.
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        try:
            act = legal[legal.index(action)]
        except ValueError:
            raise self._why_illegal(action) from None
        seat = self._to_act
        assert seat is not None  # a legal action exists only while a seat is to act
        self._legal = None
        steps = self._steps
        indices = _PLAY_INDICES.get(id(act))
        if indices is not None:
            t, _, by_seat, join = indices
            step = by_seat[seat]
            steps.append(step)
            self._public.append(step)
            hand = self._hands[seat]
            hand.remove(t)
            layout = self._layout
            if layout._frozen:  # shared with a view: copy on write
                layout = self._layout = layout.copy()
                layout._owned = True
            credit = layout._place(t, -1) if join is None else layout._join(join)
            self._pending = -1
            if not hand:  # R18: domino
                return self._settle_domino(seat, credit)
            events: Sequence[Event] = _NO_EVENTS
            if credit:
                events = (self._score(seat, credit),)  # R16: its own event
                if self._phase is _OVER:
                    self._end_round("target", seat, self._winner, None)  # R30
                    return events
            if self._bone_pos >= len(self._bone) and self._blocked():  # R11
                return [*events, *self._settle_block()]
            self._to_act = (seat + 1) % self._players
            return events
        if act is DRAW:
            t = self._bone[self._bone_pos]
            self._bone_pos += 1
            self._hands[seat].append(t)
            tile = ALL_TILES[t]
            self._own_draws[seat].append((len(steps), tile))
            steps.append(_DRAW_STEPS[seat][t])
            self._public.append(_HIDDEN_DRAWS[seat])
            if VALUE_MASK[t] & self._layout._open:
                self._pending = t  # R10: this very tile must be placed at once
            return _NO_EVENTS
        if act is PASS:
            step = _PASS_STEPS[seat]
            steps.append(step)
            self._public.append(step)
            if self._blocked():  # R11: checked after every pass
                return self._settle_block()
            self._to_act = (seat + 1) % self._players
            return _NO_EVENTS
        raise AssertionError(f"unknown action {act!r}")  # pragma: no cover

    def _score(self, seat: int, raw: int) -> PlayEvent:
        side = side_of(self._players, seat)
        accepted = self._credit(side, raw)
        event = _PLAY_EVENTS[seat][side][raw // 5][accepted]
        assert self._log is not None
        self._log.events.append(event)
        return event

    def _credit(self, side: int, raw: int) -> bool:
        """R4: apply a target-checked event; R30: reaching exactly 305 wins at once."""
        score = self._scores[side] + raw
        if score > TARGET_RAW:
            return False
        self._scores[side] = score
        self._scores_tuple = None
        if score == TARGET_RAW:
            self._winner = side
            self._phase = _OVER
        return True

    def _blocked(self) -> bool:
        """R11: the boneyard is empty and no seat holds a legal placement."""
        if self._bone_pos < len(self._bone):
            return False
        open_values = self._layout._open
        for hand in self._hands:
            for t in hand:
                if VALUE_MASK[t] & open_values:
                    return False
        return True

    def _hand_pips(self) -> tuple[int, ...]:
        # Plain loops: a comprehension and sum(map(...)) per hand cost twice the instructions.
        pips = []
        for hand in self._hands:
            n = 0
            for t in hand:
                n += PIPS[t]
            pips.append(n)
        return tuple(pips)

    def _settle_domino(self, seat: int, play_raw: int) -> Sequence[Event]:
        """R18-R19: one event, applied or rejected whole; recorded even when its net is 0."""
        pips = self._hand_pips()
        opponents_pips, opponents_raw, partner_pips, partner_raw = domino_pips(
            self._players, seat, pips
        )
        side = side_of(self._players, seat)
        net = domino_net(play_raw, opponents_raw, partner_raw)
        event = DominoEvent(
            seat,
            side,
            net,
            self._credit(side, net),
            play_raw,
            opponents_raw,
            partner_raw,
            opponents_pips,
            partner_pips,
        )
        assert self._log is not None
        self._log.events.append(event)
        self._end_round("domino", seat, side, pips)
        if self._phase is not _OVER:
            self._required_opener = seat  # R8
        return (event,)

    def _settle_block(self) -> Sequence[Event]:
        """R20-R22: each hand's credit, lightest first, each its own target-checked event."""
        pips = self._hand_pips()
        assert self._log is not None
        opener = self._log.opener
        events: list[Event] = []
        for line in block_credits(self._players, opener, pips):
            if line.raw <= 0:
                continue
            side = side_of(self._players, line.seat)
            accepted = self._credit(side, line.raw)
            event = BlockEvent(line.seat, side, line.raw, accepted, line.pips, line.difference)
            self._log.events.append(event)
            events.append(event)
            if self._phase is _OVER:
                break  # R22: later events of this settlement are not applied
        self._end_round("block", None, block_winner(self._players, pips), pips)
        if self._phase is not _OVER:
            self._required_opener = None  # R8: the next opener is drawn by lot
        return events

    def _end_round(
        self, kind: str, seat: int | None, winner: int | None, pips: tuple[int, ...] | None
    ) -> None:
        """Close the round; `pips` given means the hands are revealed (R18, R20)."""
        assert self._log is not None
        hands = None
        if pips is not None:
            shown = []
            for hand in self._hands:  # a loop: fewer instructions than nested comprehensions
                shown.append(tuple([ALL_TILES[t] for t in hand]))
            hands = tuple(shown)
        self._log.end = RoundEnd(kind, seat, winner, hands, pips)
        self._legal = None
        self._to_act = None  # nobody acts until the next deal
        if self._phase is not _OVER:
            self._phase = _DEAL

    def _why_illegal(self, action: object) -> IllegalMoveError:
        """Name the rule an action that is not in `legal_actions()` breaks."""
        if self._phase is _OVER:
            return IllegalMoveError("R30", "the match is over")
        if self._phase is _DEAL:
            return IllegalMoveError("R5", "no round is in play: the next round must be dealt")
        seat = self._to_act
        assert seat is not None  # in play: a seat is to act
        can_place = self._pending >= 0 or self.can_place(seat)
        if isinstance(action, Draw):
            if can_place:
                return IllegalMoveError("R10", f"seat {seat} holds a legal play and may not draw")
            return IllegalMoveError("R10", f"the boneyard is empty: seat {seat} must pass")
        if isinstance(action, Pass):
            if can_place:
                return IllegalMoveError("R10", f"seat {seat} holds a legal play and may not pass")
            return IllegalMoveError(
                "R10", f"the boneyard is not empty: seat {seat} must draw, not pass"
            )
        if isinstance(action, Play):
            tile, at = action
            if not isinstance(tile, Tile) or TILE_INDEX.get(tile) is None:
                return IllegalMoveError("R1", f"{tile!r} is not a tile")
            if TILE_INDEX[tile] not in self._hands[seat]:
                return IllegalMoveError("R9", f"seat {seat} does not hold {tile}")
            if self._pending >= 0 and TILE_INDEX[tile] != self._pending:
                drawn = ALL_TILES[self._pending]
                return IllegalMoveError(
                    "R10", f"seat {seat} drew {drawn} and must place that very tile"
                )
            try:
                self._layout.check_placement(tile, at)
            except IllegalMoveError as err:
                return err
            return IllegalMoveError("R9", f"{action} is not a legal placement")  # pragma: no cover
        return IllegalMoveError("R9", f"{action!r} is not an action (Play, Draw or Pass)")

    # ---- copying -------------------------------------------------------------------------

    def copy(self) -> Match:
        """An independent copy (finished rounds are shared: they no longer change)."""
        new = Match.__new__(Match)
        new._players = self._players
        new._scores = self._scores.copy()
        new._scores_tuple = self._scores_tuple
        new._phase = self._phase
        new._winner = self._winner
        new._required_opener = self._required_opener
        new._hands = [h.copy() for h in self._hands]
        new._bone = self._bone
        new._bone_pos = self._bone_pos
        layout = self._layout
        layout._frozen = True  # shared until either match places a tile: copy on write
        new._layout = layout
        new._to_act = self._to_act
        new._pending = self._pending
        new._legal = None
        log = self._log
        if log is not None and log.end is None:
            log = RoundLog(
                log.deal,
                log.opener,
                log.steps.copy(),
                log.events.copy(),
                None,
                log.public.copy(),
                [d.copy() for d in log.own_draws],
                log.start_sizes,
            )
            new._rounds = [*self._rounds[:-1], log]
        else:
            new._rounds = self._rounds.copy()
        new._log = log
        new._steps = log.steps if log is not None else []
        new._public = log.public if log is not None else []
        new._own_draws = log.own_draws if log is not None else []
        return new

    def __repr__(self) -> str:
        return (
            f"<Match players={self._players} round={len(self._rounds)} phase={self._phase.value}"
            f" scores={self._scores} to_act={self.to_act}>"
        )
