"""Puzzles the solver proves: a goal for the seat to move where it knows every hand.

With 2 players and the boneyard empty, the tiles a seat does not hold and cannot see on the table
are its opponent's: nothing is hidden, and the rest of the round is a game of perfect
information (R10, R11: no more draws, only placements and passes). A puzzle gives the seat to
move one of three goals for its side (`Goal`):

- win the match now: the side lands on exactly 61 before the round is over (R4, R30);
- win the round: the side makes domino (R18) or the block is its (R23), or it wins the match;
- save the match: the opponent does not land on 61 this round (R30).

`prove` searches the rest of the round exhaustively (`search.solver.GoalSolver`, or its native
twin when the native engine is in use) and says which first moves reach the goal against every
defence, counting placements that lead to the same position as one (`engine.move_class`); for
each other move, a defence that refutes it (a line of play to the round's end); and, for a
move that reaches it, the longest line the proof needs in the seat's own placements (the least
number of them within which the goal is still sure, whatever the defence). A position is a
puzzle when exactly one first move reaches the goal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from exact61.core import engine
from exact61.core.engine import TO_ACT, Position, action_of, distinct_moves, move_class
from exact61.core.settlement import side_of
from exact61.search.native import native_core
from exact61.search.solver import GoalSolver, Outcome, SearchLimit


class Goal(StrEnum):
    """What the seat to move is asked to make sure of, for its side, this round."""

    WIN_MATCH = "win-match"  # land on exactly 61 by the round's end (R4, R30)
    WIN_ROUND = "win-round"  # domino (R18) or the block in the side's favour (R23), or the match
    SAVE_MATCH = "save-match"  # the opponent does not land on 61 this round (R30)


# The outcomes (`search.solver.Outcome`) that reach each goal.
REACHES: Final = {
    Goal.WIN_MATCH: frozenset({Outcome.WON_MATCH}),
    Goal.WIN_ROUND: frozenset({Outcome.WON_ROUND, Outcome.WON_MATCH}),
    Goal.SAVE_MATCH: frozenset(set(Outcome) - {Outcome.LOST_MATCH}),
}
# The goals a position is tried for, the most ambitious first.
GOALS: Final = (Goal.WIN_MATCH, Goal.WIN_ROUND, Goal.SAVE_MATCH)


class NotExact(ValueError):
    """The position is not one a seat can solve: it needs 2 players, an empty boneyard (R5, R10)
    and a round in play."""


def outcome_values(goal: Goal) -> tuple[float, ...]:
    """Each outcome's value for the goal's side: 1.0 where it reaches the goal, else 0.0."""
    return tuple(1.0 if outcome in REACHES[goal] else 0.0 for outcome in Outcome)


def check_exact(position: Position) -> None:
    """Raise `NotExact` unless nothing is hidden from the seat to act."""
    if position[engine.PLAYERS] != 2:
        raise NotExact("a puzzle is for 2 players: only then the seat to move knows every hand")
    if position[engine.DRAWN] < len(position[engine.BONEYARD]):
        raise NotExact("R10: a puzzle starts once the boneyard is empty")
    if position[engine.END] or position[TO_ACT] < 0:
        raise NotExact("the round is over")


def reaching(
    position: Position,
    goal: Goal,
    seat: int | None = None,
    most: int | None = None,
    node_limit: int | None = None,
) -> dict[int, bool]:
    """For each distinct move of the seat to act (by class, `engine.move_class`): whether
    `seat`'s side (by default the seat to act's) is sure of `goal` after it, whatever the other
    side plays, within `most` of `seat`'s own placements from here if given (a first move of
    `seat`'s counts). Raises `SearchLimit` past `node_limit` nodes."""
    check_exact(position)
    if seat is None:
        seat = position[TO_ACT]
    side = side_of(2, seat)
    values = outcome_values(goal)
    native = native_core()
    if native is not None:
        found = native.solve_goal(position, seat, list(values), node_limit, most)
        if found is None:
            raise SearchLimit(f"more than {node_limit} nodes")
        return {kind: v[side] > 0.5 for kind, v in found[0]}
    solver = GoalSolver(engine.copy(position), seat, values, node_limit, most)
    return {mv.move: mv.values[side] > 0.5 for mv in solver.move_values()}


@dataclass(frozen=True)
class Proof:
    """What the search found for `goal` from a position, the seat to act being `seat`.

    `moves`: one move of each distinct kind (an engine move, the lowest point of equivalent
    ones), in canonical order. `solutions`: those that reach the goal against every defence.
    `longest`: for each solution, the number of the seat's own placements (the first one
    included) within which the goal is sure whatever the defence. `refutations`: for each other
    move, a line of play from just after it to the round's end (engine moves of both seats) in
    which the defence keeps the goal out of reach."""

    goal: Goal
    seat: int
    moves: tuple[int, ...]
    solutions: tuple[int, ...]
    longest: dict[int, int]
    refutations: dict[int, tuple[int, ...]]

    @property
    def is_puzzle(self) -> bool:
        """Exactly one first move reaches the goal (and there was a choice)."""
        return len(self.solutions) == 1 and len(self.moves) > 1


def prove(position: Position, goal: Goal, node_limit: int | None = None) -> Proof:
    """Search the rest of the round for `goal` of the seat to act (see the module's docstring).
    Raises `NotExact` for a position with something hidden, `SearchLimit` for one whose search
    needs more than `node_limit` nodes."""
    position = engine.copy(position)
    check_exact(position)
    seat = position[TO_ACT]
    moves = tuple(distinct_moves(position))
    reached = reaching(position, goal, node_limit=node_limit)
    solutions = tuple(m for m in moves if reached[move_class(m)])
    longest = {m: shortest_sure(position, goal, m, node_limit) for m in solutions}
    refutations = {
        m: defence(position, goal, seat, m, node_limit) for m in moves if m not in solutions
    }
    return Proof(goal, seat, moves, solutions, longest, refutations)


def shortest_sure(position: Position, goal: Goal, move: int, node_limit: int | None) -> int:
    """The least number of the seat's own placements (`move` the first) within which `move`
    reaches `goal` whatever the defence: the length of the proof's longest line."""
    hand = engine.hand_of(position, position[TO_ACT]).bit_count()
    kind = move_class(move)
    for most in range(1, hand):
        if reaching(position, goal, most=most, node_limit=node_limit)[kind]:
            return most
    return hand


def defence(
    position: Position, goal: Goal, seat: int, move: int, node_limit: int | None = None
) -> tuple[int, ...]:
    """A line from after `move` (which does not reach `goal`) to the round's end in which the
    goal is not reached: the defence plays a move after which the goal is still not sure (the
    first such in canonical order), the seat the move it would most like (the highest credit it
    keeps, then the heaviest tile: what a greedy player tries), both without a choice playing
    their one move."""
    line: list[int] = []
    here = engine.copy(position)
    engine.play(here, move)
    ranker = GoalSolver(here, seat, outcome_values(goal)) if not here[engine.END] else None
    while not here[engine.END]:
        moves = distinct_moves(here)
        if len(moves) == 1:
            chosen = moves[0]
        elif here[TO_ACT] == seat:
            assert ranker is not None
            chosen = ranker.ranked_moves(here, moves)[0]
        else:
            reached = reaching(here, goal, seat, node_limit=node_limit)
            chosen = next(m for m in moves if not reached[move_class(m)])
        line.append(chosen)
        engine.play(here, chosen)
    return tuple(line)


def line_text(moves: Sequence[int]) -> list[str]:
    """Engine moves as the core writes their actions (for messages and tests)."""
    return [str(action_of(m)) for m in moves]
