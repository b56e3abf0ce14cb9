"""The expert's search (issue 12): the paired root, the others' moves by the rollout's policy and
their switch to UCB after `OPPONENT_VISITS` visits do what they say, the bot lands exactly on 61
(R4, R30), and a seeded search is deterministic. These were switches once; since issue 42 they
are the bot, and a test that needs another value sets the module's constant."""

from __future__ import annotations

import random

import pytest

from exact61 import ALL_TILES, Match, Phase, Play, SeatView, Tile
from exact61.bots import expert
from exact61.bots.expert import ExpertBot
from exact61.core import Deal, random_deal
from exact61.core.engine import TO_ACT, class_of, move_class
from exact61.search.equity import default_table
from exact61.search.solver import Solver
from tests.search.test_sampler import random_position

MINE = [Tile(0, 0), Tile(5, 5), Tile(1, 2), Tile(3, 4), Tile(6, 6)]
THEIRS = [Tile(0, 5), Tile(1, 1), Tile(2, 2), Tile(1, 3), Tile(2, 4)]
REST = [t for t in ALL_TILES if t not in MINE and t not in THEIRS]


def _near_61(score: int) -> Match:
    """Seat 1 opened [0|5]; seat 0, at `score` raw, holds [0|0] (credit 5 on the 0 end) and
    [5|5] (credit 10 on the 5 end), nothing else playable."""
    mine, theirs, rest = MINE, THEIRS, REST
    match = Match(2, scores=[score, 0])
    match.start_round(Deal([mine, theirs], rest), 1)
    match.apply(Play(Tile(0, 5), None))
    return match


def _views() -> list[SeatView]:
    """Views of a seat with a choice of moves: two at each player count."""
    out = []
    for seed in range(200):
        players = 2 + seed % 3
        _, view = random_position(seed, players)
        choice = len({class_of(a) for a in view.legal_actions}) > 1
        if choice and sum(v.players == players for v in out) < 2:
            out.append(view)
    assert len(out) == 6
    return out


@pytest.mark.parametrize("visits", [0, 5, expert.OPPONENT_VISITS])
def test_the_bot_plays_the_winning_landing(visits: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert, "OPPONENT_VISITS", visits)
    match = _near_61(300)
    bot = ExpertBot(random.Random(1), iterations=200)
    action = bot.choose(match.view(0))
    assert action.tile == Tile(0, 0)  # type: ignore[union-attr]


def test_a_seeded_search_is_deterministic() -> None:
    for seed, view in enumerate(_views()):
        picks = [ExpertBot(random.Random(seed), iterations=150).choose(view) for _ in range(2)]
        assert picks[0] == picks[1]


def _empty_boneyard(seed: int) -> Match:
    """A 2-player round played at random until the boneyard is empty, the seat to act with a
    choice of moves and three or more tiles in each hand."""
    rng = random.Random(seed)
    while True:
        match = Match(2)
        match.start_round(random_deal(rng, 2), rng.randrange(2))
        while match.phase is Phase.PLAY:
            legal = match.legal_actions()
            if (
                match.boneyard_size == 0
                and len({class_of(a) for a in legal}) > 1
                and min(match.hand_sizes()) >= 3
            ):
                return match
            match.apply(legal[rng.randrange(len(legal))])


def test_the_others_moves_are_the_rollout_policys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing hidden (the exact solve switched off by a zero node budget), no randomness in the
    policy, no switch to UCB: each of the other seat's nodes has one child, the move the greedy
    policy plays there."""
    monkeypatch.setattr(expert, "EPSILON", 0.0)
    monkeypatch.setattr(expert, "OPPONENT_VISITS", 0)

    def widest(engine: Solver, node: object, state: tuple, seat: int, greedy_only: bool) -> int:  # type: ignore[type-arg]
        """The most children of any node of the other seat in the tree below `node`."""
        moves = engine.moves(state)
        while len(moves) == 1:  # forced moves are not in the tree
            done, state = engine.play(state, moves[0])  # type: ignore[assignment]
            if done is not None:
                return 0
            moves = engine.moves(state)
        children = node.children  # type: ignore[attr-defined]
        here = 0
        if state[TO_ACT] != seat:
            here = len(children)
            if greedy_only:
                greedy = move_class(engine.greedy_move(state, moves))
                assert not children or set(children) == {greedy}
        out = [here]
        by_class = {move_class(m): m for m in moves}
        for key, child in children.items():
            done, nxt = engine.play(state, by_class[key])
            if done is None:
                out.append(widest(engine, child, nxt, seat, greedy_only))  # type: ignore[arg-type]
        return max(out)

    replies = 0
    for seed in range(6):
        match = _empty_boneyard(seed)
        seat = match.to_act
        assert seat is not None
        bot = ExpertBot(random.Random(seed), iterations=300, solve_nodes=0)
        bot.choose(match.view(seat))
        assert not bot.last_solved
        engine = Solver(match.position(), default_table().leaf(2))
        width = widest(engine, bot.last_root, engine.root(), seat, True)
        assert width <= 1, seed
        replies += width
    assert replies > 0  # the other seat did reply in the tree


def test_paired_search_tries_every_root_move_on_each_deal() -> None:
    for seed, view in enumerate(_views()):
        keys = {class_of(a) for a in view.legal_actions}
        bot = ExpertBot(random.Random(seed), iterations=20 * len(keys), solve_nodes=0)
        action = bot.choose(view)
        children = bot.last_root.children
        assert set(children) == keys and {c.visits for c in children.values()} == {20}
        means = {k: c.reward / c.visits for k, c in children.items()}
        assert means[class_of(action)] == max(means.values())


def test_the_other_sides_nodes_switch_to_ucb_after_opponent_visits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing hidden (the exact solve switched off), no randomness in the policy: with
    `opponent_visits` K, a node of the other seat visited at most K times holds only the greedy
    policy's reply (the policy chose there K times); some node visited more holds other replies
    too, tried once UCB took over."""
    K = 20
    monkeypatch.setattr(expert, "EPSILON", 0.0)
    monkeypatch.setattr(expert, "OPPONENT_VISITS", K)

    def nodes(engine: Solver, node: object, state: tuple, seat: int) -> list[tuple[int, bool]]:  # type: ignore[type-arg]
        """(visits, only the greedy reply tried) of each of the other seat's nodes below `node`."""
        moves = engine.moves(state)
        while len(moves) == 1:  # forced moves are not in the tree
            done, state = engine.play(state, moves[0])  # type: ignore[assignment]
            if done is not None:
                return []
            moves = engine.moves(state)
        children = node.children  # type: ignore[attr-defined]
        out = []
        if state[TO_ACT] != seat and children:
            greedy = move_class(engine.greedy_move(state, moves))
            out.append((node.visits, set(children) == {greedy}))  # type: ignore[attr-defined]
        by_class = {move_class(m): m for m in moves}
        for key, child in children.items():
            done, nxt = engine.play(state, by_class[key])
            if done is None:
                out.extend(nodes(engine, child, nxt, seat))  # type: ignore[arg-type]
        return out

    learned = 0
    for seed in range(4):
        match = _empty_boneyard(seed)
        seat = match.to_act
        assert seat is not None
        bot = ExpertBot(random.Random(seed), iterations=600, solve_nodes=0)
        bot.choose(match.view(seat))
        engine = Solver(match.position(), default_table().leaf(2))
        for visits, greedy_only in nodes(engine, bot.last_root, engine.root(), seat):
            if visits <= K:
                assert greedy_only, (seed, visits)
            learned += not greedy_only
    assert learned > 0
