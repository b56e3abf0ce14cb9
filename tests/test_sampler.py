"""The hidden-hand sampler: every sampled deal agrees with the view, over thousands of positions.

Checked per sample: hand sizes, the seat's own hand, no seen tile dealt to anyone else, every
tile accounted for, and the voids that draws and passes reveal, by a condition computed straight
from the history (at least hand size minus later draws of a seat's tiles avoid every value that
was open when it drew or passed). And the real deal always satisfies the sampler's constraints.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from exact61 import ALL_TILES, Layout, Match, Phase, SeatView, view_of
from exact61.bots.sampler import determinize, knowledge_of, sample_deal


def random_position(seed: int, players: int) -> tuple[Match, SeatView]:
    """A match stopped at a random moment of a random round, and the view of the seat to act."""
    rng = random.Random(seed)
    match = Match(players)
    match.deal_next_round(rng)
    stop = rng.randrange(60)
    for _ in range(stop):
        if match.phase is not Phase.PLAY:
            match.deal_next_round(rng)  # a new round; keep going in it
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    if match.phase is not Phase.PLAY:
        match.deal_next_round(rng)
    assert match.to_act is not None
    return match, view_of(match, match.to_act)


def void_condition_holds(view: SeatView, seat: int, hand: tuple) -> bool:
    layout = Layout()
    history = view.history
    for k, step in enumerate(history):
        if step.kind == "play":
            layout.place(step.play.tile, step.play.at)
        elif step.seat == seat:
            later_draws = sum(1 for s in history[k + 1 :] if s.seat == seat and s.kind == "draw")
            avoiding = sum(1 for t in hand if not (1 << t.low | 1 << t.high) & layout.open_values)
            if avoiding < len(hand) - later_draws:
                return False
    return True


@settings(max_examples=600, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_every_sample_agrees_with_the_view(seed: int, players: int) -> None:
    match, view = random_position(seed, players)
    know = knowledge_of(view)
    for s in range(players):  # the truth is always allowed
        if s != view.seat:
            assert know.allows(s, match.hand(s)), (seed, players, s)
    rng = random.Random(seed)
    for _ in range(5):
        deal = sample_deal(view, rng, know)
        assert deal.hands[view.seat] == view.hand
        assert tuple(len(h) for h in deal.hands) == view.hand_sizes
        assert len(deal.boneyard) == view.boneyard_size
        everything = [t for h in deal.hands for t in h] + list(deal.boneyard) + view.layout.tiles
        assert sorted(everything) == list(ALL_TILES)
        for s in range(players):
            if s != view.seat:
                assert know.allows(s, deal.hands[s])
                assert void_condition_holds(view, s, deal.hands[s]), (seed, players, s)
        sampled = determinize(view, deal)
        assert sampled.legal_actions() == list(view.legal_actions)
        assert sampled.to_act == view.seat and sampled.scores == view.scores


def test_voids_are_used() -> None:
    """Over many positions, some seat is known to lack a value, and no sample gives it one."""
    constrained = 0
    for seed in range(300):
        _, view = random_position(seed, 2)
        know = knowledge_of(view)
        other = 1 - view.seat
        if any(know.slots[other]):
            constrained += 1
            mask = know.slots[other][0]  # the tightest slot
            deal = sample_deal(view, random.Random(seed), know)
            assert any(not (1 << t.low | 1 << t.high) & mask for t in deal.hands[other])
    assert constrained > 30
