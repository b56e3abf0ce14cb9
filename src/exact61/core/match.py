"""A whole match: rounds, turns, legal actions, scoring events and settlement (R2-R30).

`Match` is the full state, seen from the table: every hand and the boneyard's order. Chance is an
explicit step: between rounds the match waits for `start_round(deal, opener)`, whose deal and lot
come from outside (`random_deal`, `draw_lot` with a seeded `random.Random`), so a match replays
from its log. Seats act through `legal_actions()` and `apply(action)`.

The rules themselves are the engine's (`exact61.core.engine`, or its native twin: a match plays
on `engines.current()` unless given another): the round in play is an engine position, and
every action is the engine's `play`. The match keeps what a match needs besides:
the rounds and their logs, the scores between rounds and who opens next (R8).

The module is long (some 650 lines) and one concern: the one class `Match`, its state and its
questions (views, legal actions, forced actions, copies), with the small types it returns.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from exact61.core import engines
from exact61.core.actions import Action, Draw, Pass, Play
from exact61.core.deal import (
    HAND_SIZE,
    PLAYER_COUNTS,
    Deal,
    draw_lot,
    random_deal,
    round_chance,
)
from exact61.core.engine import (
    ACTIONS,
    BLOCK,
    BONEYARD,
    BOOK,
    DOMINO,
    DRAWN,
    END,
    END_KINDS,
    END_SUM,
    FREE,
    HAND,
    OPEN,
    OPENER,
    PENDING,
    SCORES,
    SHIFT,
    TO_ACT,
)
from exact61.core.engines import Engine, Position
from exact61.core.errors import IllegalMoveError, RuleError
from exact61.core.layout import Layout
from exact61.core.log import RoundEnd, RoundLog, Step
from exact61.core.points import AttachPoint
from exact61.core.settlement import TARGET_RAW, Event, block_winner, side_count, side_of
from exact61.core.tiles import ALL_TILES, TILE_COUNT, TILE_INDEX, VALUE_MASK, Tile
from exact61.core.views import RoundPart, SeatView, Window, seat_view

__all__ = [
    "HAND_SIZE",
    "PLAYER_COUNTS",
    "Deal",
    "Match",
    "Phase",
    "RoundEnd",
    "RoundLog",
    "Step",
    "draw_lot",
    "random_deal",
    "round_chance",
]


class Phase(StrEnum):
    DEAL = "deal"  # waiting for the chance step: the next round's deal and opener
    PLAY = "play"  # a seat is to act
    OVER = "over"  # a side reached exactly 305 (R30)


class Match:
    """The full state of a match of Exact 61 Five Up for 2, 3 or 4 players."""

    __slots__ = (
        "_dealt_sizes",
        "_engine",
        "_layout",
        "_legal",
        "_log",
        "_moves",
        "_phase",
        "_players",
        "_position",
        "_required_opener",
        "_rounds",
        "_scores",
        "_to_act",
        "_view_parts",
        "_windows",
        "_winner",
    )

    def __init__(
        self,
        players: int,
        *,
        scores: Sequence[int] | None = None,
        engine: Engine | None = None,
    ) -> None:
        """A new match; `scores` starts the sides from given raw scores (puzzles, analysis).
        It plays on `engine`, by default `engines.current()`."""
        if players not in PLAYER_COUNTS:
            raise RuleError("R2", f"Exact 61 Five Up is for 2, 3 or 4 players, not {players}")
        self._players = players
        self._engine = engine or engines.current()
        sides = side_count(players)
        self._scores: tuple[int, ...] = (0,) * sides
        if scores is not None:
            if len(scores) != sides:
                raise RuleError("R2", f"{players} players make {sides} sides")
            for raw in scores:
                if type(raw) is not int or raw % 5 or raw >= TARGET_RAW:
                    raise RuleError(
                        "R3", f"a starting raw score is a multiple of 5 below 305, not {raw!r}"
                    )
            self._scores = tuple(scores)
        self._rounds: list[RoundLog] = []
        self._phase = Phase.DEAL
        self._winner: int | None = None
        self._required_opener: int | None = None  # None: next opener by lot (R6, R8)
        self._position: Position | None = None  # the round in play (or the last one)
        self._to_act: int | None = None
        self._log: RoundLog | None = None
        self._moves: list[int] | None = None  # the legal moves, once asked (engine.legal_moves)
        self._legal: list[Action] | None = None  # the action of each, once asked
        self._layout: Layout | None = None
        self._view_parts: list[RoundPart | None] = []  # per seat, what its views share
        self._windows: tuple[Window[int], Window[Event]] = (Window(()), Window(()))
        self._dealt_sizes = (HAND_SIZE,) * players

    # ---- the chance step -----------------------------------------------------------------

    def start_round(self, deal: Deal, opener: int) -> None:
        """Start the next round with `deal`; `opener` must obey R6/R8."""
        if self._phase is Phase.OVER:
            raise RuleError("R30", "the match is over")
        if self._phase is Phase.PLAY:
            raise RuleError("R5", "a round is still in play")
        if deal.players != self._players:
            raise RuleError("R2", f"the deal is for {deal.players} players, not {self._players}")
        if type(opener) is not int or not 0 <= opener < self._players:
            raise RuleError("R2", f"no seat {opener!r} among {self._players} players")
        if self._required_opener is not None and opener != self._required_opener:
            raise RuleError(
                "R8", f"seat {self._required_opener} made domino and opens the next round"
            )
        hands = [deal.hand_indices(seat) for seat in range(self._players)]
        position = self._engine.start(hands, deal.boneyard_indices(), opener, self._scores)
        self.take_position(position, deal)

    def take_position(
        self, position: Position, deal: Deal | None = None, placements: Sequence[int] = ()
    ) -> None:
        """Play on from an engine position with a book (`engine.start`, `engine.resume`): the
        match's next round, `deal` its deal if it was dealt, else `placements` (engine moves)
        the layout it starts from."""
        book = position[BOOK]
        assert book is not None, "a match's position keeps a book"
        log = RoundLog(
            deal,
            position[OPENER],
            step_codes=book.steps,
            public_codes=book.public,
            draws=book.draws,
            events=book.events,
            start_hands=None if deal is not None else tuple(map(tuple, book.hands)),
            earlier_placements=tuple(placements),
        )
        self._position = position
        self._begin(log, position[TO_ACT])

    def _begin(self, log: RoundLog, to_act: int) -> None:
        """The round in play is logged in `log`; `to_act` acts."""
        self._log = log
        self._rounds.append(log)
        self._to_act = to_act
        self._phase = Phase.PLAY
        self._legal = self._moves = None
        self._layout = None
        self._view_parts = [None] * self._players
        self._windows = (Window(log.public_codes), Window(log.events))  # every seat's views

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
        position, log = self._position, self._log
        if self._phase is not Phase.PLAY or position is None or log is None:
            raise RuleError("R5", "no round is in play")
        self._engine.arrange_draw(position, TILE_INDEX[tile])
        if log.deal is not None:
            dealt = HAND_SIZE * self._players
            bone = position[BONEYARD]
            log.deal = Deal.from_order(log.deal.order[:dealt] + tuple(bone), self._players)

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
        engine = engines.current()
        match = cls(players, scores=scores, engine=engine)
        if len(hands) != players:
            raise RuleError("R2", f"{players} players hold {players} hands, not {len(hands)}")
        table = layout if isinstance(layout, Layout) else Layout.from_plays(layout)
        tiles = [t for hand in hands for t in hand] + list(boneyard) + table.tiles
        if len(tiles) != TILE_COUNT or set(tiles) != set(ALL_TILES):
            raise RuleError("R5", "layout, hands and boneyard must hold each tile exactly once")
        for seat in (to_act, opener):
            if type(seat) is not int or not 0 <= seat < players:
                raise RuleError("R2", f"no seat {seat!r} among {players} players")
        if not all(hands):
            raise RuleError("R18", "a seat without tiles has made domino: the round is over")
        indices = [[TILE_INDEX[t] for t in hand] for hand in hands]
        pending = -1
        if pending_draw is not None:
            pending = TILE_INDEX[pending_draw]
            if pending not in indices[to_act] or not VALUE_MASK[pending] & table.open_values:
                raise RuleError("R10", f"{pending_draw} is not a playable tile of seat {to_act}")
        match.take_position(
            engine.resume(
                indices,
                table.moves,
                [TILE_INDEX[t] for t in boneyard],
                to_act,
                opener,
                match.scores,
                pending,
            ),
            placements=table.moves,
        )
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
        return self._scores

    @property
    def winner(self) -> int | None:
        """The side that reached exactly 305, once the match is over (R30)."""
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._winner is not None  # R30: the match ends when a side wins

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None between rounds and after the match."""
        return self._to_act

    @property
    def required_opener(self) -> int | None:
        """R8: the seat that must open the next round, or None when a lot decides."""
        return self._required_opener

    @property
    def rounds(self) -> Sequence[RoundLog]:
        """Every round so far, the one in play last."""
        return self._rounds

    def position(self) -> Position | None:
        """A copy of the round in play (or the last round, once over) as the engine has it,
        hidden tiles included, for a search to play on. None before the first deal."""
        return None if self._position is None else self._engine.copy(self._position)

    @property
    def layout(self) -> Layout:
        """The current round's layout, read-only: `copy()` it to place tiles on it."""
        position, log = self._position, self._log
        if position is None or log is None:
            return Layout(read_only=True)
        layout = self._layout
        if (
            layout is None
            or layout.end_sum != position[END_SUM]
            or layout.free_mask != position[FREE]
        ):
            layout = self._layout = Layout(
                moves=log.placements,
                free=position[FREE],
                end_sum=position[END_SUM],
                open_values=position[OPEN],
                read_only=True,
            )
        return layout

    @property
    def pending_draw(self) -> Tile | None:
        """R10: the drawn tile the seat to act must place at once, if any."""
        position = self._position
        pending: int = -1 if position is None else position[PENDING]
        return None if pending < 0 else ALL_TILES[pending]

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles seat `seat` holds, in the order received."""
        return tuple(ALL_TILES[t] for t in self.hand_indices(seat))

    def hand_indices(self, seat: int) -> tuple[int, ...]:
        """`hand(seat)` as tile indices."""
        position = self._position
        if position is None:
            return ()
        return tuple(position[BOOK].hands[seat])

    def hand_sizes(self) -> tuple[int, ...]:
        position = self._position
        if position is None:
            return (0,) * self._players
        hand_of = self._engine.hand_of
        return tuple(hand_of(position, s).bit_count() for s in range(self._players))

    @property
    def boneyard_size(self) -> int:
        position = self._position
        return 0 if position is None else len(position[BONEYARD]) - position[DRAWN]

    def side_of(self, seat: int) -> int:
        return side_of(self._players, seat)

    # ---- what one seat may know ------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What seat `seat` (0-based) may know of the match as it stands (R5).

        Costs the same however long the round is: a few numbers and references (`views`).
        """
        position, log, to_act = self._position, self._log, self._to_act
        parts = self._view_parts
        if position is None or log is None or not 0 <= seat < len(parts):
            return self._view_before(seat)
        part = parts[seat]
        if part is None:  # the seat's first view this round (or of its settlement)
            part = parts[seat] = self._round_part(seat)
        _, hands, free, _, end_sum, open_, _, _, _, bone, drawn, pending, _, _ = position
        if to_act is None:  # between rounds the hands are put away
            return seat_view(
                part, self._scores, None, None, (), 0, len(log.public_codes), len(log.events),
                free, end_sum, open_, 0,
            )  # fmt: skip
        return seat_view(
            part,
            self._scores,
            to_act,
            ALL_TILES[pending] if pending >= 0 and to_act == seat else None,
            tuple(self.legal_actions()) if to_act == seat else (),
            hands >> SHIFT[seat] & HAND,
            len(log.public_codes),
            len(log.events),
            free,
            end_sum,
            open_,
            len(bone) - drawn,
        )

    def _view_before(self, seat: int) -> SeatView:
        """A view before the first deal (or of no seat: ValueError)."""
        if type(seat) is not int or not 0 <= seat < self._players:
            raise ValueError(f"R2: no seat {seat!r} among {self._players} players")
        empty: Window[int] = Window(())
        part = RoundPart(
            seat, self._players, -1, None, None, empty, empty, Window(()), None, (), ()
        )
        return seat_view(part, self._scores, None, None, (), 0, 0, 0, 0, 0, 0, 0)

    def _round_part(self, seat: int) -> RoundPart:
        """What `seat`'s views show the same all round (or all of its settlement)."""
        log = self._log
        assert log is not None
        public, events = self._windows
        in_play = self._to_act is not None  # between rounds the hands are put away
        return RoundPart(
            seat,
            self._players,
            len(self._rounds) - 1,
            log.opener,
            log.end,
            public,
            Window(log.draws[seat]),
            events,
            (log.start_sizes or self._dealt_sizes) if in_play else None,
            log.start_hand(seat),
            log.earlier_placements,
        )

    # ---- acting --------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The exact set of actions the seat to act may take (R7, R9-R10, R13), as the engine
        lists them (`engine.legal_moves`). The list is the match's own: do not change it."""
        legal = self._legal
        if legal is None:
            moves = self._moves
            if moves is None:
                position = self._position
                moves = self._moves = [] if position is None else self._engine.legal_moves(position)
            legal = self._legal = []
            for move in moves:  # a loop: in Python 3.11 a comprehension is a call
                legal.append(ACTIONS[move])  # type: ignore[arg-type]
        return legal

    def _legal_moves(self) -> list[int]:
        moves = self._moves
        if moves is None:
            position = self._position
            moves = self._moves = [] if position is None else self._engine.legal_moves(position)
        return moves

    def _move_of(self, action: Action) -> int:
        """The engine's move for a legal action; IllegalMoveError, naming the rule, otherwise."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        try:
            return self._legal_moves()[legal.index(action)]
        except ValueError:
            raise self._why_illegal(action) from None

    def credit_of(self, action: Action) -> int:
        """The credit (R15) a legal placement would earn now; 0 for a draw or a pass."""
        move = self._move_of(action)
        position = self._position
        assert position is not None
        return self._engine.credit_of(position, move)

    def legal_credits(self) -> list[int]:
        """The credit (R15) of each action in `legal_actions()`, in the same order."""
        self.legal_actions()
        position = self._position
        if position is None:
            return []
        credit_of = self._engine.credit_of
        return [credit_of(position, move) for move in self._legal_moves()]

    def apply(self, action: Action) -> Sequence[Event]:
        """Take `action` for the seat to act; return the scoring events it caused, in order.

        Raises IllegalMoveError, naming the rule, when the action is not legal now.
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        try:
            move = self._moves[legal.index(action)]  # type: ignore[index]
        except ValueError:
            raise self._why_illegal(action) from None
        position = self._position
        assert position is not None  # a legal action exists only while a round is in play
        events = self._engine.play(position, move)
        self._legal = self._moves = None
        self._scores = position[SCORES]
        to_act = position[TO_ACT]
        if to_act < 0:
            self._end_round(position)
        else:
            self._to_act = to_act
        return events

    def forced_action(self) -> Action | None:
        """The seat to act's one legal action, if it has one only (what "forced" means
        everywhere): a draw or a pass R10 leaves it, or its only placement."""
        legal = self.legal_actions()
        return legal[0] if len(legal) == 1 else None

    def play_forced(self) -> int:
        """Make every forced action (`forced_action`) in a row, whoever's, until a seat has a
        choice or the round ends. Return how many were made."""
        position = self._position
        if position is None or self._to_act is None:
            return 0
        legal_moves, play = self._engine.legal_moves, self._engine.play
        moves = self._moves
        if moves is None:
            moves = legal_moves(position)
        made = 0
        while len(moves) == 1:  # nobody sees the moves between: the match follows at the end
            play(position, moves[0])
            made += 1
            moves = legal_moves(position)  # none once the round is over
        self._moves = moves
        if made:
            self._legal = None
            self._scores = position[SCORES]
            to_act = position[TO_ACT]
            if to_act < 0:
                self._moves = None
                self._end_round(position)
            else:
                self._to_act = to_act
        return made

    def _end_round(self, position: Position) -> None:
        """Close the round the engine ended: the hands are shown after a settlement (R18, R20),
        and who opens next is known (R8)."""
        log = self._log
        assert log is not None
        seat = log.step_codes[-1] % 4  # who made the last move
        self._winner = self._engine.won_by(position)
        kind = position[END]
        hands = pips = None
        if kind in (DOMINO, BLOCK):
            hands = tuple(tuple([ALL_TILES[t] for t in held]) for held in position[BOOK].hands)
            pips = self._engine.hand_pips(position)
        if kind == DOMINO:
            winner: int | None = side_of(self._players, seat)
        elif kind == BLOCK:
            assert pips is not None
            winner = block_winner(self._players, pips)
        else:
            winner = self._winner
        log.end = RoundEnd(END_KINDS[kind], None if kind == BLOCK else seat, winner, hands, pips)
        self._to_act = None  # nobody acts until the next deal
        self._legal = self._moves = None
        self._view_parts = [None] * self._players  # views show the settlement now
        if self._winner is not None:
            self._phase = Phase.OVER
        else:
            self._phase = Phase.DEAL
            self._required_opener = seat if kind == DOMINO else None  # R8

    def _why_illegal(self, action: object) -> IllegalMoveError:
        """Name the rule an action that is not in `legal_actions()` breaks."""
        if self._phase is Phase.OVER:
            return IllegalMoveError("R30", "the match is over")
        if self._phase is Phase.DEAL:
            return IllegalMoveError("R5", "no round is in play: the next round must be dealt")
        seat, position = self._to_act, self._position
        assert seat is not None and position is not None  # in play: a seat is to act
        can_place = bool(self._engine.playable(position))
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
            if not self._engine.hand_of(position, seat) >> TILE_INDEX[tile] & 1:
                return IllegalMoveError("R9", f"seat {seat} does not hold {tile}")
            pending = position[PENDING]
            if pending >= 0 and TILE_INDEX[tile] != pending:
                drawn = ALL_TILES[pending]
                return IllegalMoveError(
                    "R10", f"seat {seat} drew {drawn} and must place that very tile"
                )
            try:
                self.layout.check_placement(tile, at)
            except IllegalMoveError as err:
                return err
            return IllegalMoveError("R9", f"{action} is not a legal placement")  # pragma: no cover
        return IllegalMoveError("R9", f"{action!r} is not an action (Play, Draw or Pass)")

    # ---- copying -------------------------------------------------------------------------

    def copy(self) -> Match:
        """An independent copy (finished rounds are shared: they no longer change)."""
        new = Match.__new__(Match)
        new.__setstate__(self.__getstate__())
        return new

    def __getstate__(self) -> dict[str, object]:
        """The match's state, what changes copied (a copy or a pickle grows apart from it)."""
        rounds = self._rounds.copy()
        log = self._log
        position = self._position
        if position is not None:
            position = self._engine.clone(position)
            book = position[BOOK]
            if book is not None and log is not None and log.end is None:
                # the round in play goes on growing
                log = rounds[-1] = log.sharing(book.steps, book.public, book.draws, book.events)
        state = {name: getattr(self, name) for name in self.__slots__}
        state.update(
            _engine=self._engine.ENGINE,  # by name: a module does not pickle
            _position=position,
            _rounds=rounds,
            _log=log,
            _legal=None,
            _moves=None,
            _layout=None,
            _view_parts=[None] * self._players,
            _windows=self._windows
            if log is None
            else (Window(log.public_codes), Window(log.events)),
        )
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._engine = engines.named(str(state["_engine"]))

    def __repr__(self) -> str:
        return (
            f"<Match players={self._players} round={len(self._rounds)} phase={self._phase.value}"
            f" scores={list(self._scores)} to_act={self._to_act}>"
        )
