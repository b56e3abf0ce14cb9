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
from exact61.core import Action, Match, SeatView, engines
from exact61.core.engine import move_class, move_of
from tests.helpers import native_engine

# The bots and the small budgets they are compared at.
SEARCHES = ("ismcts:30",)


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
                    match.apply(bots[seat].choose(view, legal))
                else:
                    match.apply(legal[0])
    return tuple(found)


def choices(spec: str, engine: str, cases: int, every: int) -> Iterator[tuple[object, ...]]:
    """The bot's choice and its source's next draw on every `every`th position, the bot
    searching on `engine`."""
    engines.use(engine)
    try:
        for k, (view, legal) in enumerate(positions(cases)):
            if k % every:
                continue
            rng = random.Random(f"native:{spec}:{k}")
            action = make_bot(spec, rng).choose(view, list(legal))
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
