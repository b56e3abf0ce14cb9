"""The exact solver against brute force and against the rules.

Brute force here is plain minimax (max^n at 3 players) over the core `Match`: every legal action
(no equivalent placements merged), `copy` and `apply`, to the round's end, valued by the same leaf
function from the core's own scores and R8 opener. The solver must give the same value for every
root move, on small positions from random matches at 2, 3 and 4 players, with and without a
boneyard. And every line it plays must be one the core plays, credit for credit.
"""

from __future__ import annotations

import hashlib
import random
import struct

import pytest

from exact61 import Match, Phase
from exact61.core import ALL_TILES, engine, random_deal
from exact61.core.engine import class_of
from exact61.core.settlement import side_count
from exact61.search.solver import SearchLimit, Solver, is_exact_position


def generic_leaf(players: int):  # type: ignore[no-untyped-def]
    """A leaf with no accidental ties: each side's share from a hash of (scores, opener)."""
    sides = side_count(players)

    def leaf(scores: tuple[int, ...], opener: int | None) -> tuple[float, ...]:
        digest = hashlib.sha256(repr((scores, opener)).encode()).digest()
        raw = [1 + struct.unpack_from(">I", digest, 4 * i)[0] % 10_000 for i in range(sides)]
        total = sum(raw)
        return tuple(r / total for r in raw)

    return leaf


def core_value(match: Match, leaf, sides: int) -> tuple[float, ...]:  # type: ignore[no-untyped-def]
    """Brute force on the core: every legal action, the mover maximises its own side."""
    if match.phase is Phase.OVER:
        return tuple(1.0 if s == match.winner else 0.0 for s in range(sides))
    if match.phase is Phase.DEAL:
        return leaf(match.scores, match.required_opener)  # type: ignore[no-any-return]
    seat = match.to_act
    assert seat is not None
    side = match.side_of(seat)
    best: tuple[float, ...] | None = None
    for action in match.legal_actions():
        child = match.copy()
        child.apply(action)
        v = core_value(child, leaf, sides)
        if best is None or v[side] > best[side]:
            best = v
    assert best is not None
    return best


def small_position(seed: int, players: int, max_hidden: int, max_bone: int) -> tuple[Match, list]:
    """A round played at random until few tiles are left in hands and boneyard; returns the
    match rebuilt with `from_position` (so the boneyard order is known) and that order."""
    rng = random.Random(seed)
    while True:
        match = Match(
            players, scores=[5 * rng.randrange(0, 61) for _ in range(side_count(players))]
        )
        deal = random_deal(rng, players)
        match.start_round(deal, rng.randrange(players))
        bone = list(deal.boneyard)
        while match.phase is Phase.PLAY:
            small = sum(match.hand_sizes()) <= max_hidden and match.boneyard_size <= max_bone
            if small and len(match.legal_actions()) > 1:
                break
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        if match.phase is not Phase.PLAY:
            continue
        left = bone[len(bone) - match.boneyard_size :]
        assert match.to_act is not None
        rebuilt = Match.from_position(
            players,
            layout=match.layout,
            hands=[match.hand(s) for s in range(players)],
            boneyard=left,
            to_act=match.to_act,
            opener=match.rounds[-1].opener,
            scores=match.scores,
            pending_draw=match.pending_draw,
        )
        return rebuilt, left


CASES = [(2, 8, 0), (2, 7, 3), (3, 9, 0), (3, 8, 2), (4, 10, 0), (4, 9, 2)]


@pytest.mark.slow
@pytest.mark.parametrize(("players", "max_hidden", "max_bone"), CASES)
def test_every_root_move_has_the_brute_force_value(
    players: int, max_hidden: int, max_bone: int
) -> None:
    sides = side_count(players)
    leaf = generic_leaf(players)
    for seed in range(25):
        match, _bone = small_position(seed, players, max_hidden, max_bone)
        solver = Solver(match.position(), leaf)
        values = solver.move_values(match.legal_actions())
        for mv in values:
            child = match.copy()
            child.apply(mv.action)
            expected = core_value(child, leaf, sides)
            assert mv.values == pytest.approx(expected, abs=1e-12), (seed, mv)
        best = max(v.values[match.side_of(match.to_act)] for v in values)  # type: ignore[arg-type]
        whole = Solver(match.position(), leaf)
        assert whole.value_of(whole.root())[
            match.side_of(match.to_act)  # type: ignore[arg-type]
        ] == pytest.approx(best)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_line_the_solver_plays_is_one_the_core_plays(players: int) -> None:
    """Random lines through the solver's own state machine and the core, step by step: the same
    moves are legal, the same scores follow, and the round ends the same way (R9-R23, R30)."""
    leaf = generic_leaf(players)
    for seed in range(60):
        match, _bone = small_position(seed, players, 4 * players + 4, 6)
        solver = Solver(match.position(), leaf)
        state = solver.root()
        rng = random.Random(seed)
        while True:
            fields = engine.unpack(state)
            assert (fields.scores, fields.to_act, fields.end_sum) == (
                match.scores,
                match.to_act,
                match.layout.end_sum,
            )
            assert fields.open == match.layout.open_values
            children = solver.children(state)
            legal = {class_of(a): a for a in reversed(match.legal_actions())}
            assert sorted(engine.move_class(m) for m, _, _ in children) == sorted(legal)
            m, done, child = children[rng.randrange(len(children))]
            match.apply(legal[engine.move_class(m)])
            if done is not None:
                assert match.phase is not Phase.PLAY
                assert done == core_value(match, leaf, side_count(players))
                break
            assert match.phase is Phase.PLAY and child is not None
            state = child


def test_the_principal_line_ends_where_the_value_says() -> None:
    """2 players, empty boneyard: play the solver's best move for each seat in turn on the core
    match; the round ends at the leaf value the solver gave the start."""
    leaf = generic_leaf(2)
    for seed in range(20):
        match, bone = small_position(seed, 2, 10, 0)
        assert is_exact_position(2, len(bone))
        solver = Solver(match.position(), leaf)
        start = solver.value_of(solver.root())
        while match.phase is Phase.PLAY:
            values = Solver(match.position(), leaf).move_values(match.legal_actions())
            side = match.side_of(match.to_act)  # type: ignore[arg-type]
            match.apply(max(values, key=lambda mv: mv.values[side]).action)
        assert core_value(match, leaf, 2) == pytest.approx(start)


def test_the_node_budget_stops_a_search() -> None:
    match, _bone = small_position(3, 2, 14, 6)
    solver = Solver(match.position(), generic_leaf(2), node_limit=5)
    with pytest.raises(SearchLimit):
        solver.value_of(solver.root())


def test_a_position_has_the_shape_of_its_free_points() -> None:
    """The shape a position keeps as it goes (what a search's table knows positions by) is the
    one its free points give, at every step of random rounds (R13, R14)."""
    rng = random.Random(5)
    checked = 0
    for k in range(60):
        match = Match(2 + k % 3)
        match.deal_next_round(rng)
        while match.phase is Phase.PLAY:
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
            position = match.position()
            assert position is not None
            fields = engine.unpack(position)
            assert fields.shape == engine.shape_of(fields.free)
            assert sorted(
                t for s in range(match.players) for t in engine.bits(engine.hand_of(position, s))
            ) == sorted(ALL_TILES.index(t) for s in range(match.players) for t in match.hand(s))
            checked += 1
    assert checked > 1000
