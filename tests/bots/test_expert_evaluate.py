"""`ExpertBot.evaluate` (issue 25): the expert's own search gives every move's value with a
standard error, and `choose` (what the hints are) plays the best of that evaluation."""

from __future__ import annotations

import math
import random

import pytest

from exact61.bots import ExpertBot, GreedyBot
from exact61.core import Phase, SeatView
from exact61.core.engine import class_of
from exact61.core.tiles import TILE_INDEX
from exact61.search.equity import default_table
from exact61.search.sampler import knowledge_of, position_of
from exact61.search.solver import Solver
from tests.search.test_sampler import random_position


def decisions(players: int, *, exact: bool = False, most: int = 12) -> list[SeatView]:
    """Positions (views of the seat to act) with two or more distinct moves; `exact`: with 2
    players and the boneyard empty (nothing hidden), from rounds played on by the greedy bot
    until then."""
    out = []
    for seed in range(400):
        match, view = random_position(seed, players)
        if exact:
            greedy = GreedyBot(random.Random(seed))
            while match.phase is Phase.PLAY and match.boneyard_size > 0:
                match.apply(greedy.choose(match.view(match.to_act)))  # type: ignore[arg-type]
            if match.phase is not Phase.PLAY:
                continue
            view = match.view(match.to_act)  # type: ignore[arg-type]
        if len({class_of(a) for a in view.legal_actions}) < 2:
            continue
        if (players == 2 and view.boneyard_size == 0) != exact:
            continue
        out.append(view)
        if len(out) == most:
            break
    assert len(out) == most
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_choice_is_the_best_of_the_evaluation(players: int) -> None:
    for n, view in enumerate(decisions(players)):
        chosen = ExpertBot(random.Random(n), iterations=120).choose(view)
        judged = ExpertBot(random.Random(n), iterations=120).evaluate(view)
        assert judged.best.action == chosen
        losses = [mv.loss for mv in judged.moves]
        assert losses[0] == 0 and all(loss >= 0 or judged.method == "search" for loss in losses)
        assert {class_of(mv.action) for mv in judged.moves} == {
            class_of(a) for a in view.legal_actions
        }


def test_a_searched_value_is_the_mean_over_its_deals_with_an_error() -> None:
    for n, view in enumerate(decisions(3)):
        bot = ExpertBot(random.Random(n), iterations=200)
        judged = bot.evaluate(view)
        moves = len(judged.moves)
        assert judged.method == "search" and judged.deals == math.ceil(200 / moves)
        for mv in judged.moves:
            assert 0 <= mv.equity <= 1 and mv.standard_error > 0
            assert mv.values[view.side] == mv.equity and len(mv.values) == 3
        assert judged.moves[0].loss_error == 0  # the best against itself
        assert all(mv.loss_error > 0 for mv in judged.moves[1:] if mv.loss > 0)


def test_a_position_with_nothing_hidden_is_solved_for_every_move() -> None:
    leaf = default_table().leaf(2)
    solved_here = 0
    for n, view in enumerate(decisions(2, exact=True, most=6)):
        judged = ExpertBot(random.Random(n)).evaluate(view)
        if judged.method != "exact":
            continue  # too large to solve within the budget: searched instead
        solved_here += 1
        unseen: list[list[int]] = [[], []]
        unseen[1 - view.seat] = [TILE_INDEX[t] for t in knowledge_of(view).unseen]
        solved = Solver(position_of(view, unseen), leaf).move_values(view.legal_actions)
        exact = {class_of(mv.action): mv.values[view.side] for mv in solved}
        assert {class_of(mv.action): mv.equity for mv in judged.moves} == exact
        assert all(mv.standard_error == 0 for mv in judged.moves)
        assert judged.best.equity == max(exact.values())
    assert solved_here >= 3


def test_one_move_only_is_not_evaluated() -> None:
    for seed in range(200):
        _, view = random_position(seed, 2)
        if len({class_of(a) for a in view.legal_actions}) == 1:
            with pytest.raises(ValueError, match="one move"):
                ExpertBot(random.Random(0)).evaluate(view)
            return
    pytest.fail("no position with one move")


def test_a_time_budget_bounds_a_valuation_with_nothing_hidden() -> None:
    """`pimc` with a time budget asks `evaluate_moves` for 10**9 deals (the clock counts
    them): with nothing hidden, the exact search gets a node limit that fits the time, and
    when even that is too small the one deal there is is rolled out as for 64 deals, not
    10**9."""
    from exact61.search.evaluate import evaluate_moves

    for view in decisions(2, exact=True, most=4):
        judged = evaluate_moves(view, deals=10**9, seconds=0.001, rng=random.Random(0))
        assert judged.method in ("exact", "estimate")
        assert len(judged.moves) == len({class_of(a) for a in view.legal_actions})
