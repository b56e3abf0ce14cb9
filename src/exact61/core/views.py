"""What one seat may know (R5: hands stay hidden until the round is settled).

A `SeatView` is built from a `Match` and holds no reference to it: its own hand, the layout,
scores, the boneyard's size, every seat's hand size, and the round's public history, in which
another seat's draw shows only that a tile was drawn. Bots and interfaces play a seat from this.

A view costs the same to build however long the round is, and little: it notes how long the
round's public log (`RoundLog.public`, which holds no hidden tile), the events and the layout
were at that moment, and reads them up to there only when asked (the seat's own draws, the hand
sizes and the boneyard's size follow from the public log's length). Those only grow within a
round, so what a view shows never changes. The layout is the match's own object, handed out
read-only (the match copies it before its next placement once shared).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from operator import itemgetter
from typing import Any, NamedTuple, overload

from exact61.core.actions import Action, Draw, Play
from exact61.core.layout import Layout
from exact61.core.match import HAND_SIZE, Match, Phase, RoundEnd, Step
from exact61.core.settlement import Event, side_count, side_of
from exact61.core.tiles import ALL_TILES, TILE_INDEX, Tile


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

    @classmethod
    def read(
        cls, public: Sequence[Step], length: int, own: Sequence[tuple[int, Tile]], draws: int
    ) -> PublicHistory:
        """The first `length` steps of a public log, with the first `draws` own draws named."""
        named = dict(own[:draws])
        out = []
        for i, step in enumerate(public[:length]):
            action = step.action
            if isinstance(action, Play):
                out.append(PublicStep(step.seat, "play", action))
            elif isinstance(action, Draw):
                out.append(PublicStep(step.seat, "draw", None, named.get(i)))
            else:
                out.append(PublicStep(step.seat, "pass"))
        return cls(tuple(out))

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


class _Round(NamedTuple):
    """What a seat's views show the same all round: built at its first view, shared after."""

    seat: int
    players: int
    round_index: int
    opener: int | None
    round_end: RoundEnd | None  # the last round's settlement, hands revealed (R18-R23)
    # Logs that only grow within a round, read up to a view's lengths when asked.
    public: Sequence[Step]
    own: Sequence[tuple[int, Tile]]
    events_log: Sequence[Event]
    start_sizes: tuple[int, ...] | None  # hand sizes at the round's start; None: out of play
    bone_total: int  # the boneyard's size at the round's start (R5): only draws take from it


class _Fields(NamedTuple):
    # One reference to what is the same all round, not its nine fields: fewer to copy a view.
    round: _Round
    # What the view shows at once, of this moment.
    scores: tuple[int, ...]
    to_act: int | None
    pending_draw: Tile | None
    legal_actions: tuple[Action, ...]
    # What it reads when asked: the moment's hand, and how far the logs and the layout went
    # (the seat's own draws and the boneyard's size follow from the public log's length).
    hand_ids: tuple[int, ...]
    public_len: int
    events_len: int
    board: Layout
    board_len: int


class SeatView(_Fields):
    """Everything seat `seat` may know at this moment, and nothing more.

    An immutable value. `layout` is read-only (call `copy()` to place tiles on it);
    `replace(scores=...)` makes a changed copy; `SeatView.of(...)` builds one from plain values.

    No `__slots__`: what a view builds when first asked (its hand as tiles, its history...) is
    kept in its `__dict__`, made only then; a cache list in every view cost 0.85% of a
    simulated match. Setting an attribute is refused, as for any field.
    """

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a seat view is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a seat view is immutable: cannot delete {name!r}")

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
        cache = self.__dict__
        hand: tuple[Tile, ...] | None = cache.get("_hand")
        if hand is None:
            hand = cache["_hand"] = tuple([ALL_TILES[t] for t in self.hand_ids])
        return hand

    @property
    def history(self) -> PublicHistory:
        """The round's actions so far as this seat saw them (its own draws name their tile)."""
        cache = self.__dict__
        history: PublicHistory | None = cache.get("_history")
        if history is None:
            fixed = self.round
            length = self.public_len
            own = bisect_left(fixed.own, length, key=_FIRST)  # own draws before this moment
            history = cache["_history"] = PublicHistory.read(fixed.public, length, fixed.own, own)
        return history

    @property
    def layout(self) -> Layout:
        """The layout at this moment, read-only (`copy()` it to place tiles on it)."""
        cache = self.__dict__
        layout: Layout | None = cache.get("_layout")
        if layout is None:
            layout = self.board
            if len(layout._placed) != self.board_len:  # the match placed since: rebuild
                rebuilt = Layout()
                for t, p, _ in layout._placed[: self.board_len]:
                    rebuilt._place(t, p)
                layout = rebuilt
            layout._frozen = True  # shared read-only from now on (the match copies on write)
            cache["_layout"] = layout
        return layout

    def _counts(self) -> tuple[tuple[int, ...], int]:
        """Every seat's hand size and how many tiles were drawn, from the public log (R10)."""
        cache = self.__dict__
        tally: tuple[tuple[int, ...], int] | None = cache.get("_tally")
        if tally is None:
            fixed = self.round
            if fixed.start_sizes is None:
                tally = ((0,) * fixed.players, 0)
            else:  # R10: a placement takes a tile from the hand, a draw adds one
                counts = list(fixed.start_sizes)
                draws = 0
                for step in fixed.public[: self.public_len]:
                    if isinstance(step.action, Play):
                        counts[step.seat] -= 1
                    elif isinstance(step.action, Draw):
                        counts[step.seat] += 1
                        draws += 1
                tally = (tuple(counts), draws)
            cache["_tally"] = tally
        return tally

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds (all 0 between rounds)."""
        return self._counts()[0]

    @property
    def boneyard_size(self) -> int:
        """How many tiles are left to draw (0 between rounds)."""
        return self.round.bone_total - self._counts()[1]

    @property
    def events(self) -> tuple[Event, ...]:
        """The round's scoring events so far."""
        cache = self.__dict__
        events: tuple[Event, ...] | None = cache.get("_events")
        if events is None:
            events = cache["_events"] = tuple(self.round.events_log[: self.events_len])
        return events

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
        frozen = layout.copy()
        frozen._frozen = True
        steps = history if isinstance(history, PublicHistory) else PublicHistory(tuple(history))
        view: SeatView = _new(
            cls,
            (
                _Round(
                    seat, players, round_index, opener, round_end, (), (), (), None, boneyard_size
                ),
                tuple(scores),
                to_act,
                pending_draw,
                tuple(legal_actions),
                tuple(TILE_INDEX[t] for t in hand),
                0,
                0,
                frozen,
                len(frozen),
            ),
        )
        view.__dict__.update(
            _hand=tuple(hand),
            _history=steps,
            _layout=frozen,
            _tally=(tuple(hand_sizes), 0),
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


_new = tuple.__new__
_FIRST = itemgetter(0)
_PLAY = Phase.PLAY
_NO_LAYOUT = Layout()
_NO_LAYOUT._frozen = True


def view_of(match: Match, seat: int) -> SeatView:
    """The view of `seat` (0-based) of the match as it stands.

    Costs the same however long the round is: a few numbers and references (see the module).
    """
    players = match._players
    if not 0 <= seat < players:
        raise ValueError(f"R2: no seat {seat} among {players} players")
    if match._phase is not _PLAY:
        return _between_rounds(match, seat)
    log = match._log
    assert log is not None
    bases = log.view_bases
    base = bases[seat]
    if base is None:  # the seat's first view this round
        public, owns, events = log.shown  # read-only windows: the view cannot change the match
        base = bases[seat] = _new(
            _Round,
            (
                seat,
                players,
                len(match._rounds) - 1,
                log.opener,
                None,
                public,
                owns[seat],
                events,
                log.start_sizes or (HAND_SIZE,) * players,
                len(match._bone),  # fixed all round: a draw moves a position along it
            ),
        )
    to_act = match._to_act
    layout = match._layout
    if to_act == seat:
        pending = match._pending
        legal = tuple(match._legal or match.legal_actions())  # a tuple: views change nothing
        drawn = ALL_TILES[pending] if pending >= 0 else None
    else:
        legal, drawn = (), None
    # One tuple display, no intermediate tuples: this runs at every decision of every bot.
    return _new(
        SeatView,
        (
            base,
            match._scores_tuple or match._scores_now(),
            to_act,
            drawn,
            legal,
            tuple(match._hands[seat]),
            len(match._public),
            len(log.events),
            layout,
            len(layout._placed),
        ),
    )


def _between_rounds(match: Match, seat: int) -> SeatView:
    """A view while no round is in play: before the first deal, between rounds, after the end."""
    rounds = match._rounds
    public: Sequence[Step] = ()
    own: Sequence[tuple[int, Tile]] = ()
    events: Sequence[Event] = ()
    layout, opener, end = _NO_LAYOUT, None, None
    if rounds:
        log = rounds[-1]
        public, owns, events = log.shown
        own = owns[seat] if owns else ()
        layout, opener, end = match._layout, log.opener, log.end
    return _new(
        SeatView,
        (
            _Round(
                seat, match._players, len(rounds) - 1, opener, end, public, own, events, None, 0
            ),
            match._scores_tuple or match._scores_now(),
            None,
            None,
            (),
            (),
            len(public),
            len(events),
            layout,
            len(layout._placed),
        ),
    )
