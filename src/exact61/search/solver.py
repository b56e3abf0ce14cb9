"""Exact search over the rest of a round when every tile's place is known (R7-R23, R30).

With 2 players and an empty boneyard nothing is hidden: the tiles neither in a seat's hand nor on
the table are the other seat's. With a boneyard left, or 3-4 players, a seat must guess; over a
sampled deal (`exact61.search.sampler`) the round is again fully known, draws included (the
boneyard's order is part of the deal), and `Solver` searches it the same way.

The search steps the engine's own positions (`exact61.core.engine`): every rule is the engine's.
It tries one move of each set of equivalent placements (`engine.distinct_moves`) and knows moves
and positions by their class (`engine.move_class`, `engine.search_key`), so equivalent lines of
play are searched once. It ends where the round ends: a domino (R18-R19), a block (R11, R20-R22)
or an event reaching exactly 61 (R30, R4 rejecting any that would pass it). A round end is
valued by a leaf function (the match equity table: each side's chance to win the match from the
new scores, with the next round's opener, R8), and a won match by 1.

- Two sides (2 players, or 4 in partnerships): alpha-beta on side 0's chance to win, with a
  transposition table and move ordering (the table's best move, then moves that win at once,
  then by how often a move cut a search off, by credit and by pips shed).
- Three sides: each seat maximises its own side's chance (max^n), with a transposition table.

A node budget makes a search give up (`SearchLimit`) rather than run on.

`GoalSolver` is the same search with another leaf: what a round's end means for one side's goal
(a puzzle's, `exact61.learn.puzzles`), each outcome of the round (`Outcome`) worth a value given
for it, and optionally a cut once the side has made a number of placements.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum

from exact61.core import Action, engine
from exact61.core.engine import (
    DOMINO,
    END,
    HANDS,
    MOVE_CLASSES,
    MOVE_STRIDE,
    SCORES,
    TO_ACT,
    Position,
    choices,
    credit_of,
    distinct_moves,
    move_class,
    search_key,
)
from exact61.core.settlement import block_winner, kept, lands, side_count, side_of
from exact61.core.tiles import PIPS

Leaf = Callable[[tuple[int, ...], int | None], tuple[float, ...]]
"""Each side's chance to win the match from raw `scores` at the start of a round opened by seat
`opener` (None: a lot, R8)."""


class SearchLimit(Exception):
    """The search used its node budget before it was done."""


@dataclass(frozen=True)
class MoveValue:
    """A root move (its class, `engine.move_class`), an action playing it, and each side's
    chance to win after it."""

    move: int
    action: Action
    values: tuple[float, ...]


class Solver:
    """Searches the rest of the round from an engine position (see the module's docstring)."""

    def __init__(self, position: Position, leaf: Leaf, node_limit: int | None = None) -> None:
        self.position = engine.copy(position)
        self.leaf = leaf
        self.node_limit = node_limit
        self.nodes = 0
        players = position[engine.PLAYERS]
        self.players = players
        self.sides = side_count(players)
        self._side = tuple(side_of(players, s) for s in range(players))
        self._won_values = tuple(
            tuple(1.0 if s == side else 0.0 for s in range(self.sides))
            for side in range(self.sides)
        )
        self._table: dict[tuple[object, ...], tuple[int, float, int]] = {}
        self._history: dict[int, int] = {}  # per move class: how often it cut a search off
        self._table_n: dict[tuple[object, ...], tuple[tuple[float, ...], int]] = {}

    def root(self) -> Position:
        """A copy of the position searched from."""
        return engine.copy(self.position)

    # ---- moves -------------------------------------------------------------------------------

    def moves(self, position: Position) -> list[int]:
        """The distinct moves of the seat to act (`engine.distinct_moves`)."""
        return distinct_moves(position)

    def play(
        self, position: Position, move: int
    ) -> tuple[tuple[float, ...] | None, Position | None]:
        """Play `move` on a copy: each side's value if the round ends with it, else None; the
        position after it (None once the round is over)."""
        child = position.copy()
        mover = position[TO_ACT]
        engine.play(child, move)
        if child[END]:
            return self.ended(child, mover), None
        return None, child

    def ended(self, position: Position, mover: int) -> tuple[float, ...]:
        """Each side's value of a round the engine has ended, `mover` making its last move: 1 for
        a match won at exactly 61 (R30), else the leaf's, with the next opener (R8)."""
        won = engine.won_by(position)
        if won is not None:
            return self._won_values[won]
        return self.leaf(position[SCORES], mover if position[END] == DOMINO else None)

    def children(
        self, position: Position, hint: int = -1
    ) -> list[tuple[int, tuple[float, ...] | None, Position | None]]:
        """Every distinct move of the seat to act, best-looking first: the move, each side's value
        if the round ends with it, else the position after it."""
        return [(m, *self.play(position, m)) for m in self.ordered_moves(position, hint)]

    def _score(self, position: Position) -> int:
        """The raw score of the seat to act's side."""
        scores: tuple[int, ...] = position[SCORES]
        return scores[self._side[position[TO_ACT]]]

    def greedy_move(self, position: Position, moves: list[int]) -> int:
        """As `greedy` plays: the highest credit that does not pass 61 (so landing exactly on it
        when it can, R4), then the heavier tile."""
        score = self._score(position)
        best, best_rank = moves[0], -1
        for m in moves:
            if m >= engine.DRAW:
                return m
            rank = kept(score, credit_of(position, m)) * 16 + PIPS[m // MOVE_STRIDE]
            if rank > best_rank:
                best, best_rank = m, rank
        return best

    def ranked_moves(self, position: Position, moves: list[int]) -> list[int]:
        """`moves` best first by `greedy_move`'s rank (its choice first: ties keep their order)."""
        score = self._score(position)

        def rank(m: int) -> int:
            return kept(score, credit_of(position, m)) * 16 + PIPS[m // MOVE_STRIDE]

        return sorted(moves, key=rank, reverse=True)

    def rollout(self, position: Position, rng: random.Random, epsilon: float) -> tuple[float, ...]:
        """Play to the round's end, epsilon-greedy (greedy as `greedy_move`, else a random
        move); each side's value there (the leaf function's, 1 for a match won)."""
        position = position.copy()
        while True:
            moves = distinct_moves(position)
            if len(moves) == 1:
                m = moves[0]
            elif rng.random() < epsilon:
                m = moves[rng.randrange(len(moves))]
            else:
                m = self.greedy_move(position, moves)
            mover = position[TO_ACT]
            engine.play(position, m)
            if position[END]:
                return self.ended(position, mover)

    def ordered_moves(self, position: Position, hint: int = -1) -> list[int]:
        """The distinct moves of the seat to act, the most promising first: the transposition
        table's best move (its class is `hint`), a win at once, going out, then by history,
        credit and pips; equal ones by class."""
        moves = distinct_moves(position)
        if len(moves) < 2:
            return moves
        score = self._score(position)
        last = engine.hand_of(position, position[TO_ACT]).bit_count() == 1  # R18: goes out
        history = self._history
        ranked = []
        for m in moves:
            credit = credit_of(position, m)
            kind = MOVE_CLASSES[m]
            wins = lands(score, credit)
            if kind == hint:
                rank = 1e9
            elif wins and not last:
                rank = 1e8  # wins the match at once (R30)
            else:
                rank = (
                    history.get(kind, 0)
                    + (0 if wins else kept(score, credit)) * 0.01
                    + PIPS[m // MOVE_STRIDE] * 1e-4
                )
            ranked.append((rank, kind, m))
        ranked.sort(reverse=True)
        return [m for _, _, m in ranked]

    # ---- search ------------------------------------------------------------------------------

    def _count(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimit(f"more than {self.node_limit} nodes")

    def _ab(self, position: Position, alpha: float, beta: float) -> float:
        """Alpha-beta on side 0's chance to win (two sides), fail-soft."""
        self._count()
        key = search_key(position)
        entry = self._table.get(key)
        hint = -1
        if entry is not None:
            flag, value, hint = entry
            if flag == 0 or (flag == 1 and value >= beta) or (flag == 2 and value <= alpha):
                return value
        maximizing = self._side[position[TO_ACT]] == 0
        a0, b0 = alpha, beta
        best = -1.0 if maximizing else 2.0
        best_move = -1
        play = self.play
        for m in self.ordered_moves(position, hint):
            done, child = play(position, m)
            v = done[0] if done is not None else self._ab(child, alpha, beta)  # type: ignore[arg-type]
            if maximizing:
                if v > best:
                    best, best_move = v, MOVE_CLASSES[m]
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_move = v, MOVE_CLASSES[m]
                if v < beta:
                    beta = v
            if alpha >= beta:
                weight = position[HANDS].bit_count()  # tiles still in hands
                kind = MOVE_CLASSES[m]
                self._history[kind] = self._history.get(kind, 0) + weight * weight
                break
        flag = 2 if best <= a0 else 1 if best >= b0 else 0  # upper bound, lower bound, exact
        self._table[key] = (flag, best, best_move)
        return best

    def _maxn(self, position: Position) -> tuple[float, ...]:
        """Max^n: the seat to act picks the move best for its own side (three sides)."""
        self._count()
        key = search_key(position)
        entry = self._table_n.get(key)
        if entry is not None:
            return entry[0]
        side = self._side[position[TO_ACT]]
        best: tuple[float, ...] = ()
        best_move = -1
        for m, done, child in self.children(position):
            v = done if done is not None else self._maxn(child)  # type: ignore[arg-type]
            if not best or v[side] > best[side]:
                best, best_move = v, MOVE_CLASSES[m]
                if v[side] >= 1.0:
                    break
        self._table_n[key] = (best, best_move)
        return best

    def value_of(self, position: Position) -> tuple[float, ...]:
        """Each side's chance to win the match from `position`, with best play by every seat to
        the round's end."""
        with _no_gc():
            if self.sides == 2:
                v = self._ab(position, -1.0, 2.0)
                return (v, 1.0 - v)
            return self._maxn(position)

    def move_values(self, legal: Sequence[Action] | None = None) -> list[MoveValue]:
        """Each distinct move of the seat to act with its exact value. `legal` (the core's legal
        actions) names each move by its first action; without it, moves are classes only."""
        actions = choices(legal or ())
        out = []
        for m, done, child in self.children(self.root()):
            values = done if done is not None else self.value_of(child)  # type: ignore[arg-type]
            out.append(MoveValue(move_class(m), actions.get(move_class(m)), values))  # type: ignore[arg-type]
        if legal is not None and set(actions) != {mv.move for mv in out}:
            raise AssertionError("the solver's moves and the core's legal actions disagree")
        out.sort(key=lambda mv: mv.move)
        return out

    def best_move(self) -> tuple[int, tuple[float, ...]]:
        """The class of the best move of the seat to act and the position's value (one search:
        the root's moves after the first are only proven worse, not valued)."""
        position = self.root()
        with _no_gc():
            if self.sides != 2:
                value = self._maxn(position)
                return self._table_n[search_key(position)][1], value
            v = self._ab(position, -1.0, 2.0)
        return self._table[search_key(position)][2], (v, 1.0 - v)


@contextmanager
def _no_gc() -> Iterator[None]:
    """The search makes millions of small containers that hold no cycles; the cyclic collector
    would walk the whole transposition table again and again, slowing big searches several
    times over."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Outcome(IntEnum):
    """How the rest of a round turns out for one side, worst first: each side's goal in a puzzle
    is to reach at least one of them."""

    LOST_MATCH = 0  # the other side lands on exactly 61 (R30)
    LOST_ROUND = 1  # the other side makes domino (R18), or the block is its (R23)
    TIED = 2  # a block whose lightest hands the two sides share (R23)
    WON_ROUND = 3  # the side makes domino, or the block is its
    WON_MATCH = 4  # the side lands on exactly 61


def outcome_of(position: Position, side: int, mover: int) -> Outcome:
    """What a round the engine has ended (`mover` making its last move) means for `side`."""
    won = engine.won_by(position)
    if won is not None:
        return Outcome.WON_MATCH if won == side else Outcome.LOST_MATCH
    players = position[engine.PLAYERS]
    if position[END] == DOMINO:
        winner: int | None = side_of(players, mover)
    else:  # a block (R11): the lightest single hand's side (R23)
        winner = block_winner(players, engine.hand_pips(position))
    if winner is None:
        return Outcome.TIED
    return Outcome.WON_ROUND if winner == side else Outcome.LOST_ROUND


class GoalSolver(Solver):
    """The solver of a goal of `seat`'s side for the rest of the round (two sides): a round's
    end is worth `values[outcome]` to the side (`Outcome`; 1.0 and 0.0 make a goal reached or
    not), the other side the rest. With `most`, a position where `seat` is to act with a tile to
    place after `most` placements of its own since the root is cut off, worth 0.0 to the side
    (the goal was not reached within `most` of its moves): placements are the only way a hand
    shrinks once the boneyard is empty, so the count is the position's own."""

    def __init__(
        self,
        position: Position,
        seat: int,
        values: Sequence[float],
        node_limit: int | None = None,
        most: int | None = None,
    ) -> None:
        if len(values) != len(Outcome):
            raise ValueError(f"a value for each of the {len(Outcome)} outcomes")
        super().__init__(position, _no_leaf, node_limit)
        if self.sides != 2:
            raise ValueError("a goal is searched for one of two sides")
        self.seat = seat
        self.side = self._side[seat]
        self.values = tuple(float(v) for v in values)
        floor = None
        if most is not None:
            floor = engine.hand_of(position, seat).bit_count() - most
        self.floor = floor
        self._cut_values = self._pair(0.0)

    def _pair(self, value: float) -> tuple[float, float]:
        """Each side's value when `self.side`'s is `value`."""
        return (value, 1.0 - value) if self.side == 0 else (1.0 - value, value)

    def ended(self, position: Position, mover: int) -> tuple[float, ...]:
        return self._pair(self.values[outcome_of(position, self.side, mover)])

    def play(
        self, position: Position, move: int
    ) -> tuple[tuple[float, ...] | None, Position | None]:
        done, child = super().play(position, move)
        floor = self.floor
        if (
            child is not None
            and floor is not None
            and child[TO_ACT] == self.seat
            and engine.hand_of(child, self.seat).bit_count() <= floor
            and engine.playable(child)
        ):
            return self._cut_values, None
        return done, child


def _no_leaf(scores: tuple[int, ...], opener: int | None) -> tuple[float, ...]:
    raise AssertionError("a goal's search values a round's end itself")


def is_exact_position(players: int, boneyard_size: int) -> bool:
    """Whether a seat's view hides nothing: 2 players and an empty boneyard."""
    return players == 2 and boneyard_size == 0
