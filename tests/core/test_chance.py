"""Chance as explicit steps: the deal, the lot, and (for chance-node environments) each draw."""

from __future__ import annotations

import random

import pytest

from exact61 import DRAW, Match, RuleError, dumps, match_to_record, replay


def _match_waiting_to_draw(seed: int) -> Match:
    """A 2-player match played randomly until the seat to act must draw (R10)."""
    rng = random.Random(seed)
    match = Match(2)
    match.deal_next_round(rng)
    while match.legal_actions() != [DRAW]:
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
        if match.to_act is None:
            match.deal_next_round(rng)
    return match


@pytest.mark.parametrize("seed", range(8))
def test_arranged_draw_takes_the_chosen_tile_and_the_record_still_replays(seed: int) -> None:
    match = _match_waiting_to_draw(seed)
    log = match.rounds[-1]
    assert log.deal is not None
    drawn = sum(1 for s in log.steps if s.drawn is not None)
    undrawn = log.deal.boneyard[drawn:]
    chosen = undrawn[-1]  # the tile the boneyard would give last
    match.arrange_next_draw(chosen)
    match.apply(DRAW)
    assert match.rounds[-1].steps[-1].drawn == chosen
    # The deal now says the chosen tile was next; every other undrawn tile is still there.
    deal = match.rounds[-1].deal
    assert deal is not None and deal.boneyard[drawn] == chosen
    assert sorted(deal.boneyard[drawn:]) == sorted(undrawn)
    again = replay(dumps(match_to_record(match)))
    assert again.rounds[-1].steps == match.rounds[-1].steps


def test_arranging_leaves_copies_alone_and_refuses_tiles_not_in_the_boneyard() -> None:
    match = _match_waiting_to_draw(3)
    twin = match.copy()
    deal = match.rounds[-1].deal
    assert deal is not None
    drawn = sum(1 for s in match.rounds[-1].steps if s.drawn is not None)
    assert len(deal.boneyard) - drawn > 1
    match.arrange_next_draw(deal.boneyard[-1])
    twin.apply(DRAW)
    assert twin.rounds[-1].steps[-1].drawn == deal.boneyard[drawn]  # the copy draws as dealt
    assert twin.rounds[-1].deal == deal
    with pytest.raises(RuleError, match="R5"):
        match.arrange_next_draw(match.hand(0)[0])
