"""The shipped puzzle set, re-proved: each puzzle's position read from its match record by the one
reader is searched again (`prove`): exactly one first move reaches the goal, it is the puzzle's
solution, the level follows from the proof's longest line, and every other first move has a
refutation whose line the core plays, legally, to a round's end that misses the goal (R4, R10,
R11, R18-R23, R30). Every puzzle in the slow suite; a sample in the fast one."""

from __future__ import annotations

from pathlib import Path

import pytest

from exact61.core import Match, Phase, engine, engines
from exact61.core.engine import class_of, distinct_moves, move_class
from exact61.core.records import replay_steps
from exact61.core.settlement import side_of
from exact61.learn.puzzles import (
    LEVEL_COUNT,
    NODE_LIMIT,
    Goal,
    Puzzle,
    PuzzleSet,
    action_from_json,
    level_of,
    make_puzzles,
    prove,
    shipped,
)


def misses(goal: Goal, match: Match, side: int) -> bool:
    """Whether the round just ended (on `match`) misses `goal` for `side` (R23, R30)."""
    end = match.rounds[-1].end
    assert end is not None, "the line ends the round"
    if goal is Goal.WIN_MATCH:
        return match.winner != side
    if goal is Goal.WIN_ROUND:
        return match.winner != side and end.winner != side
    return match.winner == 1 - side


def check(puzzle: Puzzle, at: Match) -> None:
    position = at.position()
    assert position is not None
    assert at.to_act == puzzle.seat and at.boneyard_size == 0 and at.players == 2
    proof = prove(position, puzzle.goal, NODE_LIMIT)
    solution = action_from_json(puzzle.solution)
    assert solution in at.legal_actions()
    assert [move_class(m) for m in proof.solutions] == [class_of(solution)], puzzle.id
    assert proof.longest == {proof.solutions[0]: puzzle.longest}
    assert puzzle.level == level_of(puzzle.longest)
    others = {move_class(m) for m in distinct_moves(engine.copy(position))} - {class_of(solution)}
    refuted = {class_of(action_from_json(r["move"])) for r in puzzle.refutations}
    assert refuted == others and len(puzzle.refutations) == len(others)
    side = side_of(2, puzzle.seat)
    for refutation in puzzle.refutations:
        match = at.copy()
        match.apply(action_from_json(refutation["move"]))
        for data in refutation["line"]:
            assert match.to_act == data["seat"]
            match.apply(action_from_json(data))  # the core refuses an illegal one
        assert match.phase is not Phase.PLAY or match.is_over
        assert misses(puzzle.goal, match, side), (puzzle.id, refutation)


def test_the_set_is_big_enough_and_has_every_level_and_goal() -> None:
    puzzles = shipped()
    assert len(puzzles.puzzles) >= 500
    assert len({p.id for p in puzzles.puzzles}) == len(puzzles.puzzles)
    assert {p.level for p in puzzles.puzzles} == set(range(1, LEVEL_COUNT + 1))
    assert {p.goal for p in puzzles.puzzles} == set(Goal)


def test_a_sample_of_the_set_is_proved_again() -> None:
    puzzles = shipped()
    sample = PuzzleSet(puzzles.puzzles[::40], puzzles.records)
    checked = 0
    for puzzle, at in sample.moments():
        check(puzzle, at)
        checked += 1
    assert checked == len(sample.puzzles)


@pytest.mark.slow
def test_every_puzzle_is_proved_again() -> None:
    puzzles = shipped()
    checked = 0
    for puzzle, at in puzzles.moments():
        check(puzzle, at)
        checked += 1
    assert checked == len(puzzles.puzzles)


def test_making_puzzles_is_reproducible_and_they_read_back(tmp_path: Path) -> None:
    """Seed 59's match (the first of the set's with a puzzle) gives its puzzles again, and a set
    written and read back is the same set."""
    made = make_puzzles(1, 59)
    assert len(made.records) == 1 and made.records[0]["seed"] == 59
    again = make_puzzles(1, 59)
    assert made == again
    made.write(tmp_path)
    assert PuzzleSet.read(tmp_path) == made
    for puzzle, at in made.moments():
        check(puzzle, at)


def test_a_puzzle_is_the_moment_its_record_names() -> None:
    """`round` and `action` count from 0 as the record does: the solution's seat is the seat the
    record has acting there."""
    puzzles = shipped()
    puzzle = puzzles.puzzles[0]
    record = puzzles.record_of(puzzle)
    assert record["rounds"][puzzle.round]["actions"][puzzle.action]["seat"] == puzzle.seat
    steps = [s for s in replay_steps(record) if s.round == puzzle.round]
    assert steps[puzzle.action].next is not None  # the moment before action `action`


def test_the_python_engine_proves_them_alike() -> None:
    """With EXACT61_ENGINE=python (the reference search, `GoalSolver`) the small puzzles of the
    sample are proved the same."""
    puzzles = shipped()
    engines.use("python")
    try:
        checked = 0
        for puzzle, at in PuzzleSet(puzzles.puzzles[::10], puzzles.records).moments():
            if sum(at.hand_sizes()) <= 7:
                position = at.position()
                assert isinstance(position, list)  # the Python engine's
                check(puzzle, at)
                checked += 1
        assert checked >= 5
    finally:
        engines.use("auto")


def test_levels_by_the_longest_line() -> None:
    """Level 1: the first placement decides; 2: two or three of the seat's placements; 3: more."""
    assert [level_of(n) for n in range(1, 7)] == [1, 2, 2, 3, 3, 3]


def test_either_engine_makes_the_same_puzzles() -> None:
    """The set made with EXACT61_ENGINE=python (the reference search) is the native one's."""
    made = make_puzzles(1, 59)
    engines.use("python")
    try:
        assert make_puzzles(1, 59) == made
    finally:
        engines.use("auto")
