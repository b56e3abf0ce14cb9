"""What one seat may know (R5: hands stay hidden until the round is settled).

A `SeatView` is built from a `Match` and holds no reference to it: its own hand, the layout,
scores, the boneyard's size, every seat's hand size, and the round's public history, in which
another seat's draw shows only that a tile was drawn. Bots and interfaces play a seat from this.

A view costs the same to build however long the round is: the history is the round's public log
(`RoundLog.public`, which holds no hidden tile) read up to the view's moment, with the seat's
own draws filled in, built into `PublicStep`s only when first read; the layout is the match's
own, shared read-only (the match copies it before its next placement).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, overload

from exact61.core.actions import Action, Draw, Play
from exact61.core.layout import AttachPoint, Layout
from exact61.core.match import Match, Phase, RoundEnd, Step
from exact61.core.settlement import Event, side_count, side_of
from exact61.core.tiles import ALL_TILES, Tile


class PublicStep(NamedTuple):
    """One action as a seat saw it. `drawn` is set only for the viewing seat's own draws."""

    seat: int
    kind: str  # "play", "draw" or "pass"
    play: Play | None = None
    drawn: Tile | None = None


class PublicHistory(Sequence[PublicStep]):
    """A round's public history as one seat saw it, up to one moment; immutable.

    Holds the round's public log (append-only, no hidden tile) and the seat's own draws, each
    with the length it had at that moment, so later steps never show.
    """

    __slots__ = ("_draws", "_length", "_own", "_public", "_steps")

    def __init__(
        self, public: list[Step], length: int, own: list[tuple[int, Tile]], draws: int
    ) -> None:
        self._public = public
        self._length = length
        self._own = own
        self._draws = draws
        self._steps: tuple[PublicStep, ...] | None = None

    def _built(self) -> tuple[PublicStep, ...]:
        steps = self._steps
        if steps is None:
            own = dict(self._own[: self._draws])
            out = []
            for i, step in enumerate(self._public[: self._length]):
                action = step.action
                if isinstance(action, Play):
                    out.append(PublicStep(step.seat, "play", action))
                elif isinstance(action, Draw):
                    out.append(PublicStep(step.seat, "draw", None, own.get(i)))
                else:
                    out.append(PublicStep(step.seat, "pass"))
            steps = self._steps = tuple(out)
        return steps

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> PublicStep: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[PublicStep, ...]: ...
    def __getitem__(self, index: int | slice) -> PublicStep | tuple[PublicStep, ...]:
        return self._built()[index]

    def __iter__(self) -> Iterator[PublicStep]:
        return iter(self._built())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PublicHistory, tuple, list)):
            return self._built() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._built())

    def __repr__(self) -> str:
        return f"PublicHistory({list(self._built())!r})"

    def __reduce__(self) -> tuple[object, ...]:  # pickles as the steps it holds
        return (_history_of, (self._built(),))


def _history_of(steps: tuple[PublicStep, ...]) -> PublicHistory:
    history = PublicHistory([], len(steps), [], 0)
    history._steps = steps
    return history


class _MomentFields(NamedTuple):
    public: list[Step]  # the round's public log (only grows; no hidden tile)
    steps: int  # its length at this moment
    own: list[tuple[int, Tile]]  # the seat's own draws (only grow)
    draws: int  # their number at this moment
    layout: Layout  # the match's layout object at this moment (the match may place on it later)
    tiles: int  # the tiles it held at this moment
    cache: list[Any]  # [history, layout] once built


class _Moment(_MomentFields):
    """A round as one seat saw it at one moment: its history and layout, both built only when
    read. Shares the round's growing logs and the match's layout object instead of copying
    them, so making one costs the same however long the round is."""

    __slots__ = ()

    def history(self) -> PublicHistory:
        built: PublicHistory | None = self.cache[0]
        if built is None:
            built = self.cache[0] = PublicHistory(self.public, self.steps, self.own, self.draws)
        return built

    def board(self) -> Layout:
        layout: Layout | None = self.cache[1]
        if layout is None:
            layout = self.layout
            if len(layout._placed) != self.tiles:  # the match placed since: rebuild the moment
                rebuilt = Layout()
                for t, p, _ in layout._placed[: self.tiles]:
                    rebuilt._place(t, p)
                layout = rebuilt
            layout._frozen = True  # shared read-only from now on (the match copies on write)
            self.cache[1] = layout
        return layout

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Moment):
            return NotImplemented
        return self.history() == other.history() and self.board() == other.board()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.history())

    def __repr__(self) -> str:
        return f"<{self.board()!r}, {self.history()!r}>"

    def __reduce__(self) -> tuple[object, ...]:  # pickles as what it shows, nothing later
        return (_moment_of, (tuple(self.history()), self.board().placements()))


def _moment_of(
    steps: tuple[PublicStep, ...], placements: list[tuple[Tile, AttachPoint | None]]
) -> _Moment:
    layout = Layout.from_plays(placements)
    moment = _Moment([], 0, [], 0, layout, len(layout), [_history_of(steps), None])
    return moment


_NO_MOMENT = _moment_of((), [])


class _SeatViewFields(NamedTuple):
    seat: int
    players: int
    hand: tuple[Tile, ...]
    scores: tuple[int, ...]
    boneyard_size: int
    hand_sizes: tuple[int, ...]
    to_act: int | None
    round_index: int
    opener: int | None
    pending_draw: Tile | None
    events: tuple[Event, ...]
    legal_actions: tuple[Action, ...]
    round_end: RoundEnd | None  # the last round's settlement, hands revealed (R18-R23)
    moment: _Moment  # read it as `history` and `layout`


class SeatView(_SeatViewFields):
    """Everything seat `seat` may know at this moment, and nothing more.

    An immutable value (a named tuple, so a bot gets it for the price of a tuple): `layout` is
    read-only (call `copy()` to place tiles on it); `replace(scores=...)` makes a changed copy.
    """

    __slots__ = ()

    @property
    def layout(self) -> Layout:
        """The layout at this moment, read-only (`copy()` it to place tiles on it)."""
        return self.moment.board()

    @property
    def history(self) -> PublicHistory:
        """The round's actions so far as this seat saw them (its own draws name their tile)."""
        return self.moment.history()

    @property
    def side(self) -> int:
        return side_of(self.players, self.seat)

    @property
    def sides(self) -> int:
        return side_count(self.players)

    def replace(self, **changes: Any) -> SeatView:
        """A copy with some fields changed."""
        return self._replace(**changes)

    def draw_counts(self) -> tuple[int, ...]:
        """How many tiles each seat has drawn this round."""
        counts = [0] * self.players
        for step in self.history:
            if step.kind == "draw":
                counts[step.seat] += 1
        return tuple(counts)


_new = tuple.__new__

_PLAY = Phase.PLAY
_tiles_of = ALL_TILES.__getitem__


def view_of(match: Match, seat: int) -> SeatView:
    """The view of `seat` (0-based) of the match as it stands. Costs O(1) in the round's
    length (the hand, hand sizes and legal actions are copied; everything else is shared)."""
    players = match._players
    if not 0 <= seat < players:
        raise ValueError(f"R2: no seat {seat} among {players} players")
    rounds = match._rounds
    log = rounds[-1] if rounds else None
    in_play = match._phase is _PLAY
    to_act = match._to_act
    mine = in_play and to_act == seat
    if log is None:
        moment = _NO_MOMENT
    else:
        own = log.own_draws[seat] if log.own_draws else []
        public = log.public
        layout = match._layout
        moment = _new(
            _Moment,
            (public, len(public), own, len(own), layout, len(layout._placed), [None, None]),
        )
    pending = match._pending
    return _new(
        SeatView,
        (
            seat,
            players,
            tuple(map(_tiles_of, match._hands[seat])) if in_play else (),
            tuple(match._scores),
            len(match._bone) - match._bone_pos if in_play else 0,
            tuple(map(len, match._hands)) if in_play else (0,) * players,
            None if to_act < 0 else to_act,
            len(rounds) - 1,
            None if log is None else log.opener,
            ALL_TILES[pending] if mine and pending >= 0 else None,
            tuple(log.events) if log is not None else (),
            tuple(match.legal_actions()) if mine else (),
            None if log is None else log.end,
            moment,
        ),
    )
