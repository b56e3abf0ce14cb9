"""Sampled round histories (for OpenSpiel's resampling) replay to what the seat saw."""

from __future__ import annotations

import random

import pytest

from exact61.core import ALL_TILES, Deal, Match, Phase, Tile
from exact61.research.history import sample_round


def mid_round(players: int, rng: random.Random) -> Match:
    match = Match(players)
    match.deal_next_round(rng)
    for _ in range(rng.randrange(0, 60)):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
        if match.phase is not Phase.PLAY:
            match.deal_next_round(rng)
    return match


def replayed(match: Match, hands: tuple[tuple[Tile, ...], ...], draws: tuple[Tile, ...]) -> Match:
    """The round in play replayed from a sampled deal and draws, the rules checking each step."""
    log = match.rounds[-1]
    start = list(match.scores)
    for event in log.events:
        if event.accepted:
            start[event.side] -= event.raw
    copy = Match(match.players, scores=start)
    used = {t for hand in hands for t in hand} | set(draws)
    rest = [t for t in ALL_TILES if t not in used]
    copy.start_round(Deal(hands, list(draws) + rest), log.opener)
    for step in log.steps:
        copy.apply(step.action)
    return copy


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampled_history_replays_to_the_same_view(players: int) -> None:
    rng = random.Random(players)
    differed = 0
    for _ in range(150):
        match = mid_round(players, rng)
        if match.phase is not Phase.PLAY:
            continue
        for seat in range(players):
            sampled = sample_round(match, seat, rng)
            copy = replayed(match, sampled.hands, sampled.draws)  # R9-R11 checked on the way
            original, seen = match.view(seat), copy.view(seat)
            assert seen.hand == original.hand
            assert list(seen.history) == list(original.history)
            assert seen.hand_sizes == original.hand_sizes
            assert seen.boneyard_size == original.boneyard_size
            assert seen.to_act == original.to_act and seen.scores == original.scores
            assert seen.legal_actions == original.legal_actions
            log = match.rounds[-1]
            assert log.deal is not None
            assert sampled.hands[seat] == log.deal.hands[seat]  # its own hand is never changed
            differed += sampled.hands != log.deal.hands
    assert differed > 100  # the other hands really are sampled, not copied
