"""What one seat may know (R5: hands stay hidden until the round is settled).

A `SeatView` (made by `Match.view(seat)`) holds no reference to the match: its own hand, the
layout, scores, the boneyard's size, every seat's hand size, and the round's public history, in
which another seat's draw shows only that a tile was drawn. Bots and interfaces play a seat from
this.

A view costs the same to build however long the round is, and little: it notes how far the
round's public log (every action as all seats saw it, and this seat's own draws) and its events
had gone, and reads them up to there only when asked. Those only grow within a round, so what a
view shows never changes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, TypeVar, overload

from exact61.core.actions import Action, Play
from exact61.core.layout import Layout
from exact61.core.log import SEATS, STEPS, RoundEnd, is_draw, is_placement, move_of
from exact61.core.settlement import Event, accepts, side_count, side_of
from exact61.core.tiles import ALL_TILES, TILE_INDEX, Tile

_T = TypeVar("_T")


class Window(Sequence[_T]):
    """A read-only window on a list that only grows (a round's logs): a seat's views share one
    instead of copying the list, and cannot change it."""

    __slots__ = ("_items",)

    def __init__(self, items: Sequence[_T]) -> None:
        self._items = items

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> _T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[_T]: ...
    def __getitem__(self, index: int | slice) -> _T | Sequence[_T]:
        return self._items[index]  # a slice is a new list: the window stays read-only

    def __iter__(self) -> Iterator[_T]:
        return iter(self._items)

    def __repr__(self) -> str:
        return f"Window({list(self._items)!r})"


class PublicStep(NamedTuple):
    """One action as a seat saw it. `drawn` is set only for the viewing seat's own draws."""

    seat: int
    kind: str  # "play", "draw" or "pass"
    play: Play | None = None
    drawn: Tile | None = None


class PublicHistory(Sequence[PublicStep]):
    """A round's public history as one seat saw it, up to one moment; immutable."""

    __slots__ = ("_steps",)

    def __init__(self, steps: tuple[PublicStep, ...]) -> None:
        self._steps = steps

    def __len__(self) -> int:
        return len(self._steps)

    @overload
    def __getitem__(self, index: int) -> PublicStep: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[PublicStep, ...]: ...
    def __getitem__(self, index: int | slice) -> PublicStep | tuple[PublicStep, ...]:
        return self._steps[index]

    def __iter__(self) -> Iterator[PublicStep]:
        return iter(self._steps)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PublicHistory, tuple, list)):
            return self._steps == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._steps)

    def __repr__(self) -> str:
        return f"PublicHistory({list(self._steps)!r})"


class RoundPart(NamedTuple):
    """What a seat's views show the same all round: made at its first view, shared after."""

    seat: int
    players: int
    round_index: int
    opener: int | None
    round_end: RoundEnd | None  # the last round's settlement, hands revealed (R18-R23)
    # The round's logs, which only grow within it, read up to a view's lengths when asked: every
    # action as all seats saw it (`RoundLog.codes`), the tiles this seat drew, the events.
    public: Window[int]
    own_draws: Window[int]
    events_log: Window[Event]
    start_sizes: tuple[int, ...] | None  # hand sizes at the round's start; None: out of play
    dealt: tuple[int, ...]  # the seat's tiles at the round's start, in the order received
    earlier: tuple[int, ...]  # placements made before a round set up mid-way (engine moves)


class _Fields(NamedTuple):
    round: RoundPart
    # What the view shows at once, of this moment.
    scores: tuple[int, ...]
    to_act: int | None
    pending_draw: Tile | None
    legal_actions: tuple[Action, ...]
    # What it reads when asked: the hand, how far the logs went, the layout's state.
    hand_mask: int
    public_len: int
    events_len: int
    free: int
    end_sum: int
    open_values: int
    boneyard_size: int  # how many tiles are left to draw (0 between rounds)


class SeatView(_Fields):
    """Everything seat `seat` may know at this moment, and nothing more.

    An immutable value. `layout` is read-only (call `copy()` to place tiles on it);
    `replace(scores=...)` makes a changed copy; `SeatView.of(...)` builds one from plain values.
    What a view builds when first asked (its hand as tiles, its history...) is kept in its
    `__dict__`; setting an attribute is refused, as for any field.
    """

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a seat view is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a seat view is immutable: cannot delete {name!r}")

    def _cached(self, name: str) -> Any:
        return self.__dict__.get(name)

    def _keep(self, name: str, value: _T) -> _T:
        self.__dict__[name] = value
        return value

    @property
    def seat(self) -> int:
        return self.round.seat

    @property
    def players(self) -> int:
        return self.round.players

    @property
    def round_index(self) -> int:
        """Which round of the match (0-based); -1 before the first deal."""
        return self.round.round_index

    @property
    def opener(self) -> int | None:
        return self.round.opener

    @property
    def round_end(self) -> RoundEnd | None:
        """How the last round ended, hands revealed (R18-R23), between rounds; else None."""
        return self.round.round_end

    @property
    def hand(self) -> tuple[Tile, ...]:
        """The seat's own tiles, in the order received."""
        hand: tuple[Tile, ...] | None = self._cached("_hand")
        if hand is None:
            held = self.hand_mask
            received = (*self.round.dealt, *self.round.own_draws)
            hand = self._keep("_hand", tuple([ALL_TILES[t] for t in received if held >> t & 1]))
        return hand

    @property
    def history(self) -> PublicHistory:
        """The round's actions so far as this seat saw them (its own draws name their tile)."""
        history: PublicHistory | None = self._cached("_history")
        if history is None:
            part = self.round
            seat = part.seat
            own = iter(part.own_draws)
            out = []
            for code in part.public[: self.public_len]:
                step = STEPS[code]
                assert step is not None
                if isinstance(step.action, Play):
                    out.append(PublicStep(step.seat, "play", step.action))
                elif is_draw(code):
                    mine = ALL_TILES[next(own)] if step.seat == seat else None
                    out.append(PublicStep(step.seat, "draw", None, mine))
                else:
                    out.append(PublicStep(step.seat, "pass"))
            history = self._keep("_history", PublicHistory(tuple(out)))
        return history

    @property
    def layout(self) -> Layout:
        """The layout at this moment, read-only (`copy()` it to place tiles on it)."""
        layout: Layout | None = self._cached("_layout")
        if layout is None:
            part = self.round
            moves = [*part.earlier]
            moves += [move_of(c) for c in part.public[: self.public_len] if is_placement(c)]
            layout = self._keep(
                "_layout",
                Layout(
                    moves=moves,
                    free=self.free,
                    end_sum=self.end_sum,
                    open_values=self.open_values,
                    read_only=True,
                ),
            )
        return layout

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds (all 0 between rounds), from the public log (R10: a
        placement takes a tile from the hand, a draw adds one)."""
        sizes: tuple[int, ...] | None = self._cached("_sizes")
        if sizes is None:
            part = self.round
            if part.start_sizes is None:
                sizes = (0,) * part.players
            else:
                counts = list(part.start_sizes)
                for code in part.public[: self.public_len]:
                    if is_placement(code):
                        counts[code % SEATS] -= 1
                    elif is_draw(code):
                        counts[code % SEATS] += 1
                sizes = tuple(counts)
            self._keep("_sizes", sizes)
        return sizes

    @property
    def events(self) -> tuple[Event, ...]:
        """The round's scoring events so far."""
        events: tuple[Event, ...] | None = self._cached("_events")
        if events is None:
            events = self._keep("_events", tuple(self.round.events_log[: self.events_len]))
        return events

    @property
    def side(self) -> int:
        return side_of(self.players, self.seat)

    @property
    def sides(self) -> int:
        return side_count(self.players)

    def rejects(self, credit: int) -> bool:
        """Whether R4 would reject `credit`, a placement's credit (R15) made by this seat now:
        it would take the side past 305 raw and be thrown away whole. Never for the last tile:
        its credit is part of the domino event (R16, R19), with pips this seat cannot see."""
        return credit > 0 and len(self.hand) > 1 and not accepts(self.scores[self.side], credit)

    def draw_counts(self) -> tuple[int, ...]:
        """How many tiles each seat has drawn this round."""
        counts = [0] * self.players
        for step in self.history:
            if step.kind == "draw":
                counts[step.seat] += 1
        return tuple(counts)

    # ---- as a value ----------------------------------------------------------------------

    def shown(self) -> dict[str, Any]:
        """Everything the view shows, by name (what it equals, pickles and prints as)."""
        return {name: getattr(self, name) for name in SHOWN}

    @classmethod
    def of(
        cls,
        *,
        seat: int,
        players: int,
        hand: Sequence[Tile],
        layout: Layout,
        scores: Sequence[int],
        boneyard_size: int,
        hand_sizes: Sequence[int],
        to_act: int | None,
        round_index: int,
        opener: int | None,
        pending_draw: Tile | None,
        history: Sequence[PublicStep],
        events: Sequence[Event],
        legal_actions: Sequence[Action],
        round_end: RoundEnd | None,
    ) -> SeatView:
        """A view from plain values (for tests, puzzles, and unpickling)."""
        part = RoundPart(
            seat,
            players,
            round_index,
            opener,
            round_end,
            Window(()),
            Window(()),
            Window(()),
            None,
            tuple(TILE_INDEX[t] for t in hand),
            (),
        )
        view = cls._make(
            (
                part,
                tuple(scores),
                to_act,
                pending_draw,
                tuple(legal_actions),
                sum(1 << TILE_INDEX[t] for t in hand),
                0,
                0,
                layout.free_mask,
                layout.end_sum,
                layout.open_values,
                boneyard_size,
            )
        )
        steps = history if isinstance(history, PublicHistory) else PublicHistory(tuple(history))
        view.__dict__.update(
            _hand=tuple(hand),
            _history=steps,
            _layout=Layout(moves=layout.moves, read_only=True, **_state(layout)),
            _sizes=tuple(hand_sizes),
            _events=tuple(events),
        )
        return view

    def replace(self, **changes: Any) -> SeatView:
        """A copy with some of what it shows changed, e.g. `view.replace(scores=(0, 300))`."""
        values = self.shown()
        unknown = set(changes) - set(values)
        if unknown:
            raise TypeError(f"a view shows no {', '.join(sorted(unknown))}")
        values.update(changes)
        return SeatView.of(**values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        mine, theirs = self.shown(), other.shown()
        mine["layout"], theirs["layout"] = self.layout.placements(), other.layout.placements()
        return mine == theirs

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.seat, self.round_index, self.hand, self.history))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.shown().items())
        return f"SeatView({shown})"

    def __reduce__(self) -> tuple[Any, ...]:  # pickles as what it shows, nothing more
        return (_view_of_values, (self.shown(),))


def _state(layout: Layout) -> dict[str, int]:
    return {"free": layout.free_mask, "end_sum": layout.end_sum, "open_values": layout.open_values}


SHOWN = (
    "seat",
    "players",
    "hand",
    "layout",
    "scores",
    "boneyard_size",
    "hand_sizes",
    "to_act",
    "round_index",
    "opener",
    "pending_draw",
    "history",
    "events",
    "legal_actions",
    "round_end",
)


def _view_of_values(values: dict[str, Any]) -> SeatView:
    return SeatView.of(**values)


def seat_view(
    part: RoundPart,
    scores: tuple[int, ...],
    to_act: int | None,
    pending_draw: Tile | None,
    legal_actions: tuple[Action, ...],
    hand_mask: int,
    public_len: int,
    events_len: int,
    free: int,
    end_sum: int,
    open_values: int,
    boneyard_size: int,
) -> SeatView:
    """A view of this moment (see `_Fields`)."""
    return SeatView(
        part,
        scores,
        to_act,
        pending_draw,
        legal_actions,
        hand_mask,
        public_len,
        events_len,
        free,
        end_sum,
        open_values,
        boneyard_size,
    )
