"""The shared action space, observation tensor and rewards of the research interfaces."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

np = pytest.importorskip("numpy")

from exact61.core import (  # noqa: E402
    ALL_TILES,
    DRAW,
    PASS,
    Match,
    Phase,
    Play,
    Tile,
)
from exact61.research import encoding  # noqa: E402
from exact61.research.encoding import OBSERVATION_SLICES as SL  # noqa: E402


def positions(players: int, seed: int, matches: int) -> Iterator[Match]:
    """Every position of a few random matches (round ends and the finished match included)."""
    rng = random.Random(seed)
    for _ in range(matches):
        match = Match(players)
        while not match.is_over and len(match.rounds) < 12:
            match.deal_next_round(rng)
            while match.phase is Phase.PLAY:
                yield match
                legal = match.legal_actions()
                match.apply(legal[rng.randrange(len(legal))])
            yield match


def test_action_space_counts_every_placement_once() -> None:
    # 21 non-doubles with 2 ends and 7 doubles with 4 (R13) are 70 attach points; each accepts
    # the 7 tiles showing its value but not its own tile: 6 each, 420. Plus 28 openings (R7),
    # a draw and a pass (R10): 450.
    assert len(encoding.ATTACH_POINTS) == 70
    assert encoding.ACTION_COUNT == 450
    assert len(set(encoding.ACTIONS)) == 450
    assert encoding.ACTIONS[:28] == tuple(Play(t, None) for t in ALL_TILES)
    assert encoding.ACTIONS[encoding.DRAW_ACTION] is DRAW
    assert encoding.ACTIONS[encoding.PASS_ACTION] is PASS
    for i, action in enumerate(encoding.ACTIONS):
        assert encoding.action_id(action) == i


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_has_a_number_and_the_mask_marks_exactly_them(players: int) -> None:
    for match in positions(players, seed=players, matches=4):
        if match.phase is not Phase.PLAY:
            continue
        legal = match.legal_actions()
        ids = encoding.legal_ids(legal)
        assert ids == sorted(set(ids)) and len(ids) == len(legal)
        assert [encoding.ACTIONS[i] for i in ids] == sorted(legal, key=encoding.action_id)
        mask = encoding.action_mask(legal)
        assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == set(ids)


def _hidden_from(match: Match, seat: int) -> set[Tile]:
    """Tiles `seat` may not see now: other hands in play and the boneyard (R5)."""
    if match.phase is not Phase.PLAY:
        return set()  # between rounds and at the end, hands are revealed or none are held
    seen = set(match.hand(seat)) | set(match.layout.tiles)
    return set(ALL_TILES) - seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_hold_no_hidden_tile(players: int) -> None:
    """Compared with the full state: every tile-indexed part of a seat's observation shows only
    its own tiles and the table, and each part equals what the state says it should."""
    checked = 0
    for match in positions(players, seed=10 + players, matches=3):
        for seat in range(players):
            obs = encoding.observe(match.view(seat))
            assert obs.shape == (encoding.OBSERVATION_SIZE,) and obs.dtype == np.float32
            assert obs.min() >= -1.0 and obs.max() <= 1.0
            hand = {ALL_TILES[t] for t in np.flatnonzero(obs[SL["hand"]])}
            table = {ALL_TILES[t] for t in np.flatnonzero(obs[SL["table"]])}
            pending = {ALL_TILES[t] for t in np.flatnonzero(obs[SL["pending_draw"]])}
            played = obs[SL["played"]].reshape(4, 28)
            credited = {encoding.ACTIONS[a] for a in np.flatnonzero(obs[SL["credits"]])}
            in_play = match.phase is Phase.PLAY
            assert hand == (set(match.hand(seat)) if in_play else set())
            assert table == set(match.layout.tiles)
            mine = in_play and match.to_act == seat
            assert pending == ({match.pending_draw} - {None} if mine else set())
            assert {ALL_TILES[t] for t in np.flatnonzero(played.sum(axis=0))} <= table
            assert credited <= (set(match.legal_actions()) if mine else set())
            hidden = _hidden_from(match, seat)
            for tile in hidden:
                assert tile not in hand | table | pending
                assert not played[:, tile.ordinal].any()
                assert not any(isinstance(a, Play) and a.tile == tile for a in credited)
            text = encoding.observation_text(match.view(seat))
            assert not [t for t in hidden if str(t) in text]
            checked += 1
    assert checked > 300


def test_observation_counts_follow_the_public_history() -> None:
    rng = random.Random(5)
    match = Match(3)
    match.deal_next_round(rng)
    for _ in range(25):
        if match.phase is not Phase.PLAY:
            break
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    steps = match.rounds[-1].steps
    obs = encoding.observe(match.view(1))
    for seat in range(3):
        rel = (seat - 1) % 3
        draws = sum(1 for s in steps if s.seat == seat and s.action is DRAW)
        assert obs[SL["draws"]][rel] == pytest.approx(draws / 28)
        assert obs[SL["hand_sizes"]][rel] == pytest.approx(len(match.hand(seat)) / 28)
    assert obs[SL["boneyard"]][0] == pytest.approx(match.boneyard_size / 28)


def test_history_tensor_shows_only_own_draws() -> None:
    for match in positions(2, seed=8, matches=2):
        if match.phase is not Phase.PLAY:
            continue
        view = match.view(0)
        out = np.zeros(encoding.history_size(2), np.float32)
        encoding.encode_history(view.history, 0, 2, out)
        slots = out.reshape(-1, encoding.STEP_SIZE)
        tile_at = encoding.MAX_PLAYERS + 3
        for k, step in enumerate(match.rounds[-1].steps):
            tiles = np.flatnonzero(slots[k, tile_at : tile_at + 28])
            if step.action is DRAW:
                assert step.drawn is not None
                assert list(tiles) == ([step.drawn.ordinal] if step.seat == 0 else [])
        assert not slots[len(match.rounds[-1].steps) :].any()


def test_match_returns_reward_the_side_that_reached_61() -> None:
    match = Match(4, scores=[300, 0])
    match.deal_next_round(random.Random(1))
    while not match.is_over:
        if match.phase is not Phase.PLAY:
            match.deal_next_round(random.Random(len(match.rounds)))
            continue
        match.apply(match.legal_actions()[0])
    returns = encoding.match_returns(match)
    winner = match.winner
    assert winner is not None
    # R2, R30: both partners of the winning side get +1, both others -1; the sum is 0.
    assert returns == [1.0 if s % 2 == winner else -1.0 for s in range(4)]
    assert encoding.match_returns(Match(3)) == [0.0, 0.0, 0.0]


def test_round_returns_are_zero_sum_and_bounded() -> None:
    # 3 sides gaining 30, 0 and 60 raw: mean 30; each side's gain less the mean, / 305.
    assert encoding.round_returns(3, [0, 0, 0], [30, 0, 60]) == pytest.approx(
        [0.0, -30 / 305, 30 / 305]
    )
    # Partners share their side's figure (R2).
    four = encoding.round_returns(4, [0, 0], [305, -170])
    assert four[0] == four[2] and four[1] == four[3]
    assert sum(four) == pytest.approx(0.0) and max(map(abs, four)) <= 1.0
