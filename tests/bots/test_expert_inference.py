"""The `equity` bot's inference from the others' choices (`sampler.choices_of`,
`choice_weight`, `sample_weighted`): weighted samples still agree with the view, and the weight
favours the hands that explain what the others chose."""

from __future__ import annotations

import random

import pytest

from exact61 import ALL_TILES, Match, Phase, SeatView, Tile
from exact61.bots.expert import ExpertBot
from exact61.bots.simple import GreedyBot
from exact61.core.tiles import TILE_INDEX
from exact61.search.sampler import (
    choice_weight,
    choices_of,
    knowledge_of,
    sample_indices,
    sample_weighted,
)
from tests.search.test_sampler import history_allows, random_position


def _tiles(indices: list[int]) -> tuple[Tile, ...]:
    return tuple(ALL_TILES[t] for t in indices)


def test_weighted_samples_agree_with_the_view() -> None:
    """Over 400 positions (2, 3 and 4 players): each weighted deal has the right sizes, leaves
    the seen tiles alone, and is a hand the history allows (the brute-force reading of R10)."""
    used = 0
    for seed in range(400):
        players = 2 + seed % 3
        _, view = random_position(seed, players)
        know = knowledge_of(view)
        choices = choices_of(view, before_draws=seed % 2 == 1)
        used += bool(choices)
        rng = random.Random(seed)
        seen = set(view.hand) | set(view.layout.tiles)
        for _ in range(3):
            hands, boneyard = sample_weighted(know, choices, rng, tries=4)
            assert len(boneyard) == view.boneyard_size
            dealt = [t for h in hands for t in h] + boneyard
            assert len(set(dealt)) == len(dealt) and not seen & set(_tiles(dealt))
            for s in range(players):
                if s != view.seat:
                    assert len(hands[s]) == view.hand_sizes[s]
                    assert history_allows(view, s, _tiles(hands[s])), (seed, players, s)
    assert used > 100  # the weighting was exercised


def test_weights_are_relative_likelihoods() -> None:
    for seed in range(200):
        _, view = random_position(seed, 2 + seed % 3)
        choices = choices_of(view)
        know = knowledge_of(view)
        rng = random.Random(seed)
        for _ in range(5):
            weight = choice_weight(choices, sample_indices(know, rng)[0])
            assert 0.0 < weight <= 1.0
            if not choices:
                assert weight == 1.0


def _greedy_positions(count: int) -> list[tuple[Match, SeatView]]:
    """Positions of 2-player matches between greedy bots, seat 0 to act, mid-round."""
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        bots = [GreedyBot(random.Random(seed + 1)), GreedyBot(random.Random(seed + 2))]
        match = Match(2)
        match.deal_next_round(rng)
        stop = 4 + rng.randrange(12)
        for _ in range(stop):
            if match.phase is not Phase.PLAY:
                break
            seat = match.to_act
            assert seat is not None
            match.apply(bots[seat].choose(match.view(seat)))
        if match.phase is Phase.PLAY and match.to_act is not None:
            out.append((match, match.view(match.to_act)))
    return out


@pytest.mark.parametrize("before_draws", [False, True])
def test_the_truth_explains_a_greedy_opponent_better_than_a_random_deal(
    before_draws: bool,
) -> None:
    """Against greedy play (the highest credit, R4), the real hidden hand makes the observed
    choices more likely than the uniform sampler's deals do, on average over many positions;
    and the weighted sampler's deals are closer to the truth (more of the opponent's real
    tiles) than the uniform ones."""
    truth = sampled = 0.0
    hits_uniform = hits_weighted = 0
    positions = 0
    for match, view in _greedy_positions(300):
        choices = choices_of(view, before_draws=before_draws)
        if not choices:
            continue
        positions += 1
        other = 1 - view.seat
        real = [TILE_INDEX[t] for t in match.hand(other)]
        truth += choice_weight(choices, [real if s == other else [] for s in range(2)])
        know = knowledge_of(view)
        rng = random.Random(positions)
        for _ in range(10):
            hands, _ = sample_indices(know, rng)
            sampled += choice_weight(choices, hands) / 10
            hits_uniform += len(set(hands[other]) & set(real))
            hands, _ = sample_weighted(know, choices, rng, tries=16)
            hits_weighted += len(set(hands[other]) & set(real))
    assert positions > 100
    assert truth > 1.3 * sampled
    assert hits_weighted > 1.05 * hits_uniform


def test_before_draws_reads_more_choices_and_agrees_on_the_rest() -> None:
    """Placements since a seat's last draw are read the same either way; `before_draws` adds
    the earlier ones (at 2 players the others draw often, so it finds some)."""
    more = 0
    for seed in range(300):
        _, view = random_position(seed, 2 + seed % 3)
        recent = choices_of(view)
        every = choices_of(view, before_draws=True)
        assert len(every) >= len(recent)
        more += len(every) > len(recent)
        for choice in recent:
            assert choice in every  # the same seat, base and per-tile worths
        for choice in every:
            assert choice.seat != view.seat and choice.base > 0
            own = {TILE_INDEX[t] for t in view.hand} | {TILE_INDEX[t] for t in view.layout.tiles}
            assert all(choice.alt[t] == 0.0 for t in own)  # seen tiles are no one's guess
    assert more > 30


def test_the_expert_reading_choices_plays_legal_moves_and_is_seeded() -> None:
    """Over positions where the others have chosen something: a legal move, and the same one
    again from the same seed."""
    played = 0
    for seed in range(60):
        players = 2 + seed % 3
        match, view = random_position(seed, players)
        if not choices_of(view, before_draws=True):
            continue
        legal = match.legal_actions()
        picks = [ExpertBot(random.Random(seed), iterations=40).choose(view) for _ in range(2)]
        assert all(pick in legal for pick in picks)
        assert picks[0] == picks[1]
        played += 1
    assert played > 20
