"""Bots: only legal actions, deterministic under a seed, blind to what their seat cannot see."""

from __future__ import annotations

import gc
import random
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sampler import random_position

from exact61 import Match, Phase, Play, SeatView, Tile, view_of
from exact61.bots import BOTS, LEVELS, check_bot_spec, make_bot
from exact61.bots.heuristic import _expected_best
from exact61.bots.ismcts import ISMCTSBot
from exact61.bots.simple import GreedyBot

SPECS = ["random", "greedy", "heuristic", "ismcts:25"]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), spec=st.sampled_from(SPECS)
)
def test_bots_only_return_legal_actions(seed: int, players: int, spec: str) -> None:
    match, view = random_position(seed, players)
    bot = make_bot(spec, random.Random(seed))
    action = bot.choose(view, view.legal_actions)
    assert action in match.legal_actions()
    match.apply(action)  # and the engine agrees


def _reachable(root: object) -> list[object]:
    """Every object reachable from `root`, not following classes, modules or functions."""
    seen: set[int] = set()
    out = []
    stack = [root]
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_a_view_holds_no_reference_to_hidden_tiles_or_the_match(seed: int) -> None:
    match, view = random_position(seed, 2 + seed % 3)
    hidden = {t for s in range(match.players) if s != view.seat for t in match.hand(s)}
    log = match.rounds[-1]
    assert log.deal is not None
    hidden |= set(log.deal.boneyard[len(log.deal.boneyard) - match.boneyard_size :])
    assert hidden  # there is always something to hide
    reachable = _reachable(view)
    assert not any(isinstance(obj, Match) for obj in reachable)
    tiles = {obj for obj in reachable if isinstance(obj, Tile)}
    assert not tiles & hidden
    bot = make_bot("ismcts:10", random.Random(seed))
    bot.choose(view, view.legal_actions)
    assert not any(isinstance(obj, Match) for obj in _reachable(bot))


def test_ismcts_is_deterministic_under_a_seed() -> None:
    for seed in range(6):
        _, view = random_position(seed + 100, 2)
        choices = {
            ISMCTSBot(random.Random(seed), iterations=60).choose(view, view.legal_actions)
            for _ in range(2)
        }
        assert len(choices) == 1


def test_greedy_takes_the_highest_credit_not_passing_61() -> None:
    # Find a position where greedy has several plays with different credits; check its pick.
    checked = 0
    for seed in range(400):
        _, view = random_position(seed, 2)
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        credits = {a: view.layout.credit_after(a.tile, a.at) for a in plays}
        if len(set(credits.values())) < 2:
            continue
        score = view.scores[view.side]
        worth = {a: c if score + c <= 305 else 0 for a, c in credits.items()}
        pick = GreedyBot(random.Random(seed)).choose(view, view.legal_actions)
        assert worth[pick] == max(worth.values())
        checked += 1
    assert checked > 20


def test_greedy_prefers_landing_exactly_on_61_and_refuses_overshoots() -> None:
    checked = 0
    for seed in range(1500):
        _, view = random_position(seed, 2)
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        credits = sorted({view.layout.credit_after(a.tile, a.at) for a in plays} - {0})
        if len(credits) < 2:
            continue
        target = credits[0]  # set the score so the smallest credit lands exactly on 305
        posed = view_with_score(view, 305 - target)
        pick = GreedyBot(random.Random(seed)).choose(posed, posed.legal_actions)
        assert isinstance(pick, Play) and view.layout.credit_after(pick.tile, pick.at) == target
        checked += 1
    assert checked > 10


def view_with_score(view: SeatView, raw: int) -> SeatView:
    scores = list(view.scores)
    scores[view.side] = raw
    return view.replace(scores=tuple(scores))


def test_expected_best_credit() -> None:
    # One unseen tile scoring 10 among 4; a hand of 1 holds it with probability 1/4.
    assert _expected_best([10], 4, 1) == pytest.approx(2.5)
    assert _expected_best([10, 5], 4, 4) == pytest.approx(10)  # holds every tile
    assert _expected_best([], 10, 5) == 0


def test_bot_names_and_levels() -> None:
    assert set(BOTS) == {"random", "greedy", "heuristic", "ismcts"}
    for level in LEVELS:
        assert check_bot_spec(level) == level
        make_bot(level, random.Random(0))
    assert make_bot("ismcts:40", random.Random(0)).iterations == 40  # type: ignore[attr-defined]
    for bad in ("nobody", "greedy:5", "ismcts:0", "ismcts:x"):
        with pytest.raises(ValueError):
            check_bot_spec(bad)


def test_a_whole_match_between_every_bot() -> None:
    from exact61.simulation.driver import play_match

    match = play_match(4, 3, ["ismcts:15", "heuristic", "greedy", "random"])
    assert match.phase is Phase.OVER and match.winner in (0, 1)
    assert view_of(match, 0).round_end is not None
