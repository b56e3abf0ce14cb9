"""The search bots make the same choice on either engine. Given an iteration budget (not a
time), a bot searching natively (`exact61.search.native`) runs the same iterations on the same
sampled deals from the same random source as the Python search, so it chooses the same action
and leaves its source in the same state, on every position of a fixed set: every decision with
a choice in seeded matches of the simple bots at 2, 3 and 4 players (1,000 and more in the slow
suite, a sample in the fast one)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest

from exact61.bots import make_bot
from exact61.bots.expert import ExpertBot
from exact61.bots.ismcts import Node
from exact61.core import Action, Match, SeatView, engines
from exact61.core.engine import move_class, move_of
from exact61.search.equity import default_table
from exact61.search.evaluate import evaluate_moves
from exact61.search.solver import SearchLimit, Solver
from tests.helpers import native_engine

# The bots and the small budgets they are compared at.
SEARCHES = ("ismcts:30", "expert:20", "pimc:4")


@cache
def positions(matches: int) -> tuple[tuple[SeatView, tuple[Action, ...]], ...]:
    """Every decision with more than one distinct move in `matches` seeded matches a player
    count (greedy, heuristic and random seats), as (view, legal actions)."""
    found = []
    for players in (2, 3, 4):
        for seed in range(matches):
            match = Match(players, engine=engines.PYTHON)
            chance = random.Random(seed)
            names = ("greedy", "heuristic", "random", "heuristic")[:players]
            bots = [make_bot(n, random.Random(f"{seed}:{s}")) for s, n in enumerate(names)]
            while not match.is_over:
                if match.to_act is None:
                    match.deal_next_round(chance)
                seat = match.to_act
                assert seat is not None
                legal = match.legal_actions()
                if len({move_class(move_of(a)) for a in legal}) > 1:
                    view = match.view(seat)
                    found.append((view, tuple(legal)))
                    match.apply(bots[seat].choose(view))
                else:
                    match.apply(legal[0])
    return tuple(found)


def choices(spec: str, engine: str, cases: int, every: int) -> Iterator[tuple[object, ...]]:
    """The bot's choice and its source's next draw on every `every`th position, the bot
    searching on `engine`."""
    engines.use(engine)
    try:
        for k, (view, _) in enumerate(positions(cases)):
            if k % every:
                continue
            rng = random.Random(f"native:{spec}:{k}")
            action = make_bot(spec, rng).choose(view)
            yield k, action, rng.random()
    finally:
        engines.use("auto")


@pytest.mark.parametrize("spec", SEARCHES)
def test_a_search_chooses_alike_on_both_engines(spec: str) -> None:
    native_engine()
    slow = list(choices(spec, "python", 4, 9))
    assert len(slow) >= 60
    assert list(choices(spec, "native", 4, 9)) == slow


@pytest.mark.slow
@pytest.mark.parametrize("spec", SEARCHES)
def test_a_search_chooses_alike_on_both_engines_on_1000_positions(spec: str) -> None:
    native_engine()
    slow = list(choices(spec, "python", 8, 1))
    assert len(slow) >= 1000
    assert list(choices(spec, "native", 8, 1)) == slow


def tree(node: Node) -> tuple[object, ...]:
    """A search tree as plain values: every node's visits, availability, reward, children."""
    children = tuple((key, tree(child)) for key, child in node.children.items())
    return (node.visits, node.available, node.reward, children)


def test_the_expert_and_the_deals_value_every_move_alike_on_both_engines() -> None:
    """The expert's whole evaluation (every move's value, error and loss, the tree it grew, its
    iterations) and `evaluate_moves` (pimc's and the analysis's) are the same on both engines."""
    native_engine()
    for k, (view, _) in enumerate(positions(4)[::7]):
        found = []
        for engine in ("python", "native"):
            engines.use(engine)
            try:
                bot = ExpertBot(random.Random(k), iterations=24)
                evaluation = bot.evaluate(view)
                deals = evaluate_moves(view, rng=random.Random(k), deals=3)
            finally:
                engines.use("auto")
            found.append((evaluation, bot.last_iterations, tree(bot.last_root), deals))
        assert found[1] == found[0], k


def test_the_solver_gives_the_same_values_and_nodes_on_both_engines() -> None:
    """The exact solver on a round whose every tile is known: the same value for every move
    and the same count of nodes searched (which decides where a budget stops a search)."""
    native = native_engine()
    table = default_table()
    solved = 0
    for players in (2, 3, 4):
        for seed in range(40):
            match = Match(players, engine=engines.PYTHON)
            match.deal_next_round(random.Random(seed))
            bots = [make_bot("greedy", random.Random(f"{seed}:{s}")) for s in range(players)]
            while (seat := match.to_act) is not None and (
                sum(match.hand_sizes()) + match.boneyard_size > 13
            ):
                match.apply(bots[seat].choose(match.view(seat)))
            if match.to_act is None:
                continue  # the round ended before: nothing to solve
            python = Solver(match.position(), table.leaf(players), node_limit=200_000)
            found = native.solve(match.position(), table.native, 200_000)  # type: ignore[attr-defined]
            try:
                values = python.move_values()
            except SearchLimit:
                assert found is None
                continue
            assert found == ([(mv.move, mv.values) for mv in values], python.nodes)
            solved += 1
    assert solved >= 40
