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

import datetime
import gzip
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from exact61.core import Action, Match, engine
from exact61.core.engine import (
    TO_ACT,
    Position,
    action_of,
    choices,
    class_of,
    distinct_moves,
    move_class,
    move_of,
)
from exact61.core.records import ActionRecord, action_from_record, action_json, replay_steps
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


def daily_date(now: datetime.datetime | None = None) -> datetime.date:
    """The date whose puzzle is the daily one: today's in UTC (`now`, else the clock), the same
    for the command line, the terminal and the site wherever their clocks' time zones are."""
    return (now or datetime.datetime.now(datetime.UTC)).astimezone(datetime.UTC).date()


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


# ---- the puzzle set ---------------------------------------------------------------------------

# A puzzle's level by its proof's longest line, in the seat's own placements: 1 (the move itself
# decides), 2 or 3, more.
LEVELS: Final = (1, 3)
LEVEL_COUNT: Final = len(LEVELS) + 1
# The most nodes a goal's search may take while making the set (positions needing more are
# left out; the same on either engine, which count nodes alike).
NODE_LIMIT: Final = 2_000_000
# The bots of the matches puzzles are taken from, seat 0's and seat 1's, in turn by match.
SEATS: Final = (("greedy", "heuristic"), ("heuristic", "greedy"), ("heuristic", "heuristic"))
PUZZLES_FILE: Final = "puzzles.jsonl"
MATCHES_FILE: Final = "puzzle-matches.jsonl.gz"  # the records compress 13 to 1


def level_of(longest: int) -> int:
    """A puzzle's level (1 to `LEVEL_COUNT`) by its proof's longest line."""
    return 1 + sum(longest > most for most in LEVELS)


@dataclass(frozen=True)
class Puzzle:
    """One proved puzzle: the position before action `action` of round `round` (both counted
    from 0) of match record `match` (an index into the set's matches), `seat` to move, and its
    goal. Actions are in the record's own form (`records.action_json`, with the seat):
    `solution` is the one first move that reaches the goal (the first of its equivalent
    placements the match lists); `refutations`, for each other first move, the move and a
    defence's line to the round's end. `longest`: the proof's longest line in the seat's own
    placements."""

    id: str
    level: int
    goal: Goal
    match: int
    round: int
    action: int
    seat: int
    solution: dict[str, Any]
    longest: int
    refutations: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "level": self.level,
            "goal": self.goal.value,
            "match": self.match,
            "round": self.round,
            "action": self.action,
            "seat": self.seat,
            "solution": self.solution,
            "longest": self.longest,
            "refutations": list(self.refutations),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(
            str(data["id"]),
            int(data["level"]),
            Goal(data["goal"]),
            int(data["match"]),
            int(data["round"]),
            int(data["action"]),
            int(data["seat"]),
            dict(data["solution"]),
            int(data["longest"]),
            tuple(data["refutations"]),
        )


def record_action(seat: int, move: int) -> dict[str, Any]:
    """An engine move as a record writes its action (a draw never comes up here: the boneyard
    is empty)."""
    return {"seat": seat, **action_json(action_of(move))}


def line_actions(position: Position, moves: Sequence[int]) -> list[dict[str, Any]]:
    """A line of engine moves from `position`, as a record's actions (each with its seat)."""
    here = engine.copy(position)
    out = []
    for m in moves:
        out.append(record_action(here[TO_ACT], m))
        engine.play(here, m)
    return out


def puzzle_at(
    match: Match, key: str, index: int, round_: int, action: int, node_limit: int | None
) -> Puzzle | None:
    """The puzzle at the moment `match` is at (before action `action` of round `round_`), if
    it is one: 2 players, the boneyard empty, a choice to make, and for the most ambitious goal
    any first move reaches (`GOALS`), exactly one that does. None also when a search needs more
    than `node_limit` nodes."""
    seat = match.to_act
    if match.players != 2 or seat is None or match.boneyard_size:
        return None
    position = match.position()
    assert position is not None
    position = engine.copy(position)
    if len(distinct_moves(position)) < 2:
        return None
    try:
        for goal in GOALS:
            reached = reaching(position, goal, node_limit=node_limit)
            if any(reached.values()):
                if sum(reached.values()) > 1:
                    return None
                proof = prove(position, goal, node_limit)
                break
        else:
            return None
    except SearchLimit:
        return None
    listed = choices(match.legal_actions())
    (solution,) = proof.solutions
    refutations: list[dict[str, Any]] = []
    for wrong, line in proof.refutations.items():
        # The move as the match lists it, which may be another of its equivalent placements
        # (another free end of the same value): the line goes on from that very placement,
        # naming the points it leaves free.
        shown = listed[move_class(wrong)]
        move = move_of(shown)
        if move != wrong:
            line = defence(position, goal, seat, move, node_limit)
        after = engine.copy(position)
        engine.play(after, move)
        refutations.append(
            {"move": {"seat": seat, **action_json(shown)}, "line": line_actions(after, line)}
        )
    longest = proof.longest[solution]
    return Puzzle(
        f"{key}-{round_}-{action}",
        level_of(longest),
        goal,
        index,
        round_,
        action,
        seat,
        {"seat": seat, **action_json(listed[move_class(solution)])},
        longest,
        tuple(refutations),
    )


def puzzles_in(
    record: dict[str, Any], key: str, index: int, node_limit: int | None = NODE_LIMIT
) -> Iterator[Puzzle]:
    """Every puzzle of a match record (`exact61-match/1`, read by the one reader), in order."""
    for step in replay_steps(record):
        if step.next is None:
            continue
        found = puzzle_at(step.match, key, index, step.round, step.action + 1, node_limit)
        if found is not None:
            yield found


def bot_match(seed: int) -> dict[str, Any]:
    """The record of the seeded bot match puzzles are taken from (2 players, `SEATS` by seed)."""
    from exact61.table import Table

    seats = SEATS[seed % len(SEATS)]
    table = Table(2, list(seats), seed, bots_per="seat", extra={"seats": list(seats)})
    table.play_out()
    return table.record()


@dataclass(frozen=True)
class PuzzleSet:
    """Puzzles and the match records they are taken from."""

    puzzles: tuple[Puzzle, ...]
    records: tuple[dict[str, Any], ...]

    def record_of(self, puzzle: Puzzle) -> dict[str, Any]:
        return self.records[puzzle.match]

    def by_id(self, puzzle_id: str) -> Puzzle:
        for puzzle in self.puzzles:
            if puzzle.id == puzzle_id:
                return puzzle
        raise KeyError(puzzle_id)

    def export_line(self, puzzle: Puzzle) -> dict[str, Any]:
        """One puzzle as `exact61 puzzle --export` writes it: its fields, the match record in
        place of the match's index."""
        out = puzzle.to_json()
        del out["match"]
        out["record"] = self.record_of(puzzle)
        return out

    def daily(self, date: datetime.date) -> Puzzle:
        """The puzzle of a date: the same for everyone, chosen by a source seeded with it (the
        date of the day is `daily_date`'s, the same on every surface)."""
        rng = random.Random(f"exact61 daily puzzle {date.isoformat()}")
        return self.puzzles[rng.randrange(len(self.puzzles))]

    def write(self, folder: Path) -> None:
        """Write the set as the package ships it: one puzzle a line, one record a line."""
        folder.mkdir(parents=True, exist_ok=True)
        lines = (json.dumps(p.to_json(), separators=(",", ":")) for p in self.puzzles)
        (folder / PUZZLES_FILE).write_text("".join(f"{line}\n" for line in lines))
        lines = (json.dumps(r, separators=(",", ":")) for r in self.records)
        text = "".join(f"{line}\n" for line in lines).encode()
        (folder / MATCHES_FILE).write_bytes(gzip.compress(text, 9, mtime=0))

    @classmethod
    def read(cls, folder: Path) -> PuzzleSet:
        puzzles = _json_lines((folder / PUZZLES_FILE).read_text())
        records = _json_lines(gzip.decompress((folder / MATCHES_FILE).read_bytes()).decode())
        return cls(tuple(Puzzle.from_json(p) for p in puzzles), tuple(records))

    def moments(self) -> Iterator[tuple[Puzzle, Match]]:
        """Each puzzle with the match at its moment (read by the one reader, each record once;
        the match is the reader's own object: copy it to keep it)."""
        by_match: dict[int, dict[tuple[int, int], Puzzle]] = {}
        for puzzle in self.puzzles:
            by_match.setdefault(puzzle.match, {})[puzzle.round, puzzle.action] = puzzle
        for index, wanted in sorted(by_match.items()):
            for step in replay_steps(self.records[index]):
                here = wanted.get((step.round, step.action + 1))
                if here is not None:
                    yield here, step.match


def _json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@cache
def shipped() -> PuzzleSet:
    """The puzzle set the package ships (`learn/data`)."""
    folder = resources.files("exact61.learn") / "data"
    return PuzzleSet.read(Path(str(folder)))


def make_puzzles(
    count: int,
    seed: int,
    node_limit: int | None = NODE_LIMIT,
    progress: Callable[[int], None] | None = None,
) -> PuzzleSet:
    """At least `count` puzzles from bot matches seeded `seed`, `seed + 1`, ... (`bot_match`):
    every puzzle of each match (`puzzles_in`) until there are enough. `progress` is told the
    number found after each match."""
    puzzles: list[Puzzle] = []
    records: list[dict[str, Any]] = []
    match_seed = seed
    while len(puzzles) < count:
        record = bot_match(match_seed)
        found = list(puzzles_in(record, f"s{match_seed}", len(records), node_limit))
        if found:
            puzzles.extend(found)
            records.append(record)
        match_seed += 1
        if progress is not None:
            progress(len(puzzles))
    return PuzzleSet(tuple(puzzles), tuple(records))


def match_at(puzzle_set: PuzzleSet, puzzle: Puzzle) -> Match:
    """The match at the puzzle's moment, read from its record by the one reader."""
    for step in replay_steps(puzzle_set.record_of(puzzle)):
        if step.round == puzzle.round and step.action + 1 == puzzle.action:
            return step.match.copy()
    raise ValueError(f"puzzle {puzzle.id}: no action {puzzle.action} in round {puzzle.round}")


def action_from_json(data: dict[str, Any]) -> Action:
    """A record's action object (as a puzzle keeps its moves) as the core's action."""
    return action_from_record(ActionRecord.model_validate(data))


def is_solution(puzzle: Puzzle, action: Action) -> bool:
    """Whether `action` makes the puzzle's solution (any of its equivalent placements)."""
    return class_of(action) == class_of(action_from_json(puzzle.solution))


def refutation_of(puzzle: Puzzle, action: Action) -> list[dict[str, Any]] | None:
    """The defence line refuting `action` (a wrong first move), else None."""
    kind = class_of(action)
    for refutation in puzzle.refutations:
        if class_of(action_from_json(refutation["move"])) == kind:
            line: list[dict[str, Any]] = refutation["line"]
            return line
    return None
