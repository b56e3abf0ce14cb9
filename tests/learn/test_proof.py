"""A puzzle's proof (`learn.puzzles.prove`) on hand-built positions whose answers follow from the
rules by hand, on both engines; and the goal search of the Python reference and of the native
twin agreeing move by move on positions from seeded matches.

The hand-built positions are rounds in the middle with the boneyard empty: a short layout and
two small hands (the tiles in neither are out of this round's play, as tiles on the table far
from the free ends would be). Seat 0 is to move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from exact61.core import Match, engine, engines
from exact61.core.actions import Play
from exact61.core.engine import Position, distinct_moves, move_class
from exact61.core.points import AttachPoint
from exact61.core.tiles import TILE_INDEX, Tile
from exact61.learn.puzzles import GOALS, Goal, NotExact, outcome_values, prove
from exact61.search.solver import GoalSolver, SearchLimit
from tests.helpers import native_engine


@pytest.fixture(params=["python", "native"])
def engine_name(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test runs on the Python engine and on the native one (where it is built)."""
    if request.param == "native":
        native_engine()
    engines.use(request.param)
    try:
        yield request.param
    finally:
        engines.use("auto")


def tile(a: int, b: int) -> int:
    return TILE_INDEX[Tile(a, b)]


def place(t: tuple[int, int], host: tuple[int, int] | None = None, end: str = "") -> int:
    """The engine move placing `t` at `host`'s `end` (no host: the opening, R7)."""
    at = None if host is None else AttachPoint(Tile(*host), end)
    return engine.move_of(Play(Tile(*t), at))


def position(
    hands: list[list[tuple[int, int]]], opening: tuple[int, int], scores: tuple[int, int]
) -> Position:
    """Seat 1 opened with `opening`; seat 0 to move; the boneyard empty."""
    return engine.resume(
        [[tile(*t) for t in hand] for hand in hands],
        [place(opening)],
        (),
        to_act=0,
        opener=1,
        scores=scores,
        book=False,
    )


def test_win_the_match_lands_exactly_and_the_overshoot_is_refuted(engine_name: str) -> None:
    """59 points (295 raw), 10 raw to go. On [0|5] (ends 0 and 5), [5|5] makes 0 + 10 (a
    double at an end counts both halves, R14) = 10: exactly 61, the match won at once (R15,
    R30). [0|0] makes 0 + 5 = 5 (300 raw); the opponent cannot place and passes (R10), and
    seat 0's [5|5] then makes 10 again, which would pass 61: rejected whole (R4), and so is
    the domino event it makes (R19). The proof: one solution, one placement long."""
    start = position([[(5, 5), (0, 0)], [(2, 6)]], (0, 5), (295, 100))
    proof = prove(start, Goal.WIN_MATCH)
    win = place((5, 5), (0, 5), "high")
    wrong = place((0, 0), (0, 5), "low")
    assert proof.solutions == (win,)
    assert proof.is_puzzle
    assert proof.longest == {win: 1}
    assert proof.refutations == {wrong: (engine.PASS, place((5, 5), (0, 5), "high"))}
    # both moves win the round: seat 0 makes domino either way (R18)
    assert set(prove(start, Goal.WIN_ROUND).solutions) == {win, wrong}


def test_win_the_round_by_domino(engine_name: str) -> None:
    """On [2|3], seat 0 holds [2|4] and [3|5], the opponent [4|6]. [2|4] opens a 4 and the
    opponent places its last tile there: domino, its round (R18). [3|5] leaves ends 2 and 5,
    the opponent must pass (R10), and seat 0 goes out with [2|4]: domino in two placements."""
    start = position([[(2, 4), (3, 5)], [(4, 6)]], (2, 3), (0, 0))
    proof = prove(start, Goal.WIN_ROUND)
    right = place((3, 5), (2, 3), "high")
    wrong = place((2, 4), (2, 3), "low")
    assert proof.solutions == (right,)
    assert proof.longest == {right: 2}
    assert proof.refutations == {wrong: (place((4, 6), (2, 4), "high"),)}


def test_win_the_round_by_the_block(engine_name: str) -> None:
    """On [4|5], seat 0 holds [4|6], [5|5], [0|1] (12 pips), the opponent [2|4], [3|6] (15).
    [4|6] on the 4 leaves 6 and 5: the opponent must place [3|6] (R10), seat 0 places [5|5] on
    the 5 and nobody can place: a block (R11), seat 0's hand of 1 pip the lightest (R20, R23).
    [5|5] first leaves the 4 to [2|4]: ends 2 and 5 (the spinner's arms shut while one line
    side is free, R13), nobody can place, and the opponent's 9 pips beat seat 0's 11 (R23)."""
    start = position([[(4, 6), (5, 5), (0, 1)], [(2, 4), (3, 6)]], (4, 5), (0, 0))
    proof = prove(start, Goal.WIN_ROUND)
    right = place((4, 6), (4, 5), "low")
    wrong = place((5, 5), (4, 5), "high")
    assert proof.moves == tuple(sorted((right, wrong)))
    assert proof.solutions == (right,)
    assert proof.longest == {right: 2}
    assert proof.refutations == {wrong: (place((2, 4), (4, 5), "low"),)}


def test_save_the_match_keeps_the_opponent_off_61(engine_name: str) -> None:
    """The opponent has 59 points and holds [5|5] and [1|2]. On [0|5], seat 0's [0|0] makes 5
    and leaves the 5 end, where [5|5] makes 0 + 10 = 10: the opponent lands on 61 (R14, R30).
    [5|6] covers the 5 (ends 0 and 6): the opponent passes (R10) and seat 0 goes out with
    [0|0] (R18)."""
    start = position([[(0, 0), (5, 6)], [(5, 5), (1, 2)]], (0, 5), (100, 295))
    proof = prove(start, Goal.SAVE_MATCH)
    right = place((5, 6), (0, 5), "high")
    wrong = place((0, 0), (0, 5), "low")
    assert proof.solutions == (right,)
    assert proof.longest == {right: 2}
    assert proof.refutations == {wrong: (place((5, 5), (0, 5), "high"),)}
    assert prove(start, Goal.WIN_MATCH).solutions == ()


def test_a_domino_that_would_pass_61_saves_the_match(engine_name: str) -> None:
    """As above, but [5|5] is the opponent's last tile: its 10 is then part of the domino
    event (R16, R18), 10 + round5 of seat 0's 11 pips = 20, which would pass 61 and is
    rejected whole (R4, R19). Either move saves the match."""
    start = position([[(0, 0), (5, 6)], [(5, 5)]], (0, 5), (100, 295))
    proof = prove(start, Goal.SAVE_MATCH)
    assert len(proof.solutions) == 2
    assert not proof.is_puzzle


def test_equivalent_placements_are_one_move() -> None:
    """A lone opening double's two line sides take a tile alike (R13): one move, not two."""
    start = position([[(3, 4), (0, 1)], [(6, 6)]], (3, 3), (0, 0))
    proof = prove(start, Goal.WIN_ROUND)
    assert len(proof.moves) == 1
    assert not proof.is_puzzle


def test_a_position_with_something_hidden_is_refused() -> None:
    match = Match(2)
    match.deal_next_round(random.Random(1))
    with pytest.raises(NotExact, match="R10"):
        prove(match.position(), Goal.WIN_ROUND)  # type: ignore[arg-type]


def exact_positions(matches: int) -> Iterator[Position]:
    """Every moment with a choice and the boneyard empty in seeded greedy matches (2 players)."""
    from exact61.table import Table

    for seed in range(matches):
        table = Table(2, ["greedy", "heuristic"], seed, bots_per="seat")
        match = table.match
        while not match.is_over:
            if match.to_act is None:
                table.deal()
            seat = match.to_act
            assert seat is not None
            position = match.position()
            assert position is not None
            if match.boneyard_size == 0 and len(distinct_moves(position)) > 1:
                yield engine.copy(position)
            table.step()


def test_the_native_goal_search_agrees_with_the_python_one() -> None:
    """Both searches value every root move alike for each goal, and count the same nodes, with
    and without a cut on the seat's own placements."""
    native = native_engine()
    from exact61.core import _native

    assert native.ENGINE == "native"
    compared = 0
    for k, start in enumerate(exact_positions(40)):
        seat = start[engine.TO_ACT]
        for goal in GOALS:
            values = outcome_values(goal)
            most = None if k % 2 else 1 + k % 3
            python = GoalSolver(start, seat, values, node_limit=30_000, most=most)
            found = _native.solve_goal(start, seat, list(values), 30_000, most)
            try:
                expected = python.move_values()
            except SearchLimit:
                assert found is None
                continue
            assert found == ([(mv.move, mv.values) for mv in expected], python.nodes)
            assert sorted(move_class(m) for m in distinct_moves(start)) == [
                mv.move for mv in expected
            ]
            compared += 1
    assert compared >= 40
