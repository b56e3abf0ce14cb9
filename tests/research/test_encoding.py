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


def test_round_rows_name_only_own_drawn_tiles() -> None:
    width = encoding.round_width(2)
    for match in positions(2, seed=8, matches=2):
        log = match.rounds[-1]
        row = np.zeros(width, np.float32)
        encoding.encode_round(row, log, 2, 0)
        assert row.min() >= 0.0 and row.max() <= 1.0
        codes = [round(float(x) * encoding.ITEM_CODES) - 1 for x in row[encoding.ROUND_HEAD :]]
        for step, code in zip(log.steps, codes, strict=False):
            seat, k = code % 4, code // 4
            assert seat == step.seat
            if step.action is DRAW:
                assert step.drawn is not None
                mine = encoding.ACTION_COUNT + step.drawn.ordinal
                assert k == (mine if step.seat == 0 else encoding.DRAW_ACTION)
            else:
                assert encoding.ACTIONS[k] == step.action
        public = np.zeros(width, np.float32)
        encoding.encode_round(public, log, 2, None)
        assert not public[1 : encoding.ROUND_HEAD].any()  # no dealt tile
        shown = [round(float(x) * encoding.ITEM_CODES) - 1 for x in public[encoding.ROUND_HEAD :]]
        assert not [c for c in shown if 0 <= c // 4 - encoding.ACTION_COUNT < 28]  # no draw's tile


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_is_its_public_and_private_blocks(players: int) -> None:
    """The public blocks are the same from every seat's view (seats absolute); with the
    private blocks they make the seat's own observation, seat 0's exactly."""
    assert set(encoding.PUBLIC_BLOCKS) | set(encoding.PRIVATE_BLOCKS) == set(SL)
    assert encoding.PUBLIC_OBSERVATION_SIZE + encoding.PRIVATE_OBSERVATION_SIZE == (
        encoding.OBSERVATION_SIZE
    )
    for match in positions(players, seed=40 + players, matches=2):
        views = [match.view(s) for s in range(players)]
        public = [encoding.observe_public(v) for v in views]
        assert all(np.array_equal(public[0], p) for p in public)
        own = encoding.observe(views[0])
        private = encoding.observe_private(views[0])
        for name, at in encoding.PUBLIC_SLICES.items():
            assert np.array_equal(own[SL[name]], public[0][at])
        for name, at in encoding.PRIVATE_SLICES.items():
            assert np.array_equal(own[SL[name]], private[at])
        text = encoding.public_observation_text(views[0])
        assert all(encoding.public_observation_text(v) == text for v in views)
        assert "hand " not in text.replace("hand sizes", "")


def test_observation_text_lists_the_hand_in_canonical_order() -> None:
    for match in positions(2, seed=9, matches=1):
        view = match.view(0)
        text = encoding.observation_text(view)
        hand = text.split(" | ")[1]
        assert hand == "hand " + (" ".join(map(str, sorted(view.hand))) or "-")


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


def test_the_docs_table_of_the_observation_is_its_layout() -> None:
    """docs/research.md gives each part of the observation its numbers: the same slices as
    `encoding.OBSERVATION_SLICES`, every part once, in order."""
    import re
    from pathlib import Path

    from exact61.research.encoding import OBSERVATION_SLICES

    page = (Path(__file__).parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d+)(?:–(\d+))? \|", page, re.MULTILINE)
    documented = {name: slice(int(a), int(b or a) + 1) for name, a, b in rows}
    assert list(documented) == list(OBSERVATION_SLICES)
    assert documented == OBSERVATION_SLICES


def test_an_out_array_that_cannot_hold_the_observation_is_refused() -> None:
    """observe(view, out=np.zeros(700, np.float32)) returned the short array, the blocks past
    its end partly dropped, and an int array held every credit and size as 0: the observation
    silently wrong. `out` is a float32 array of the observation's shape, or a ValueError."""
    view = Match(2).view(0)
    made = {
        encoding.observe: encoding.OBSERVATION_SIZE,
        encoding.observe_public: encoding.PUBLIC_OBSERVATION_SIZE,
        encoding.observe_private: encoding.PRIVATE_OBSERVATION_SIZE,
    }
    for observe, size in made.items():
        for wrong in (
            np.zeros(size - 51, np.float32),
            np.zeros((1, size), np.float32),
            np.zeros(size, np.int64),
            np.zeros(size, np.float64),
        ):
            with pytest.raises(
                ValueError, match=rf"^out must be a float32 array of shape \({size},\)"
            ):
                observe(view, out=wrong)
        out = np.full(size, 7.0, np.float32)
        assert observe(view, out=out) is out and np.array_equal(out, observe(view))
