"""Properties over random seeds and player counts (Hypothesis).

Each example plays a whole match with seeded random choices and checks, after every action:
tiles conserved, scores moving only in multiples of 5 and never past 305, the legal action set
equal to a brute-force reading of R7 and R9-R13, views leaking nothing; and at the end that the
match's record replays to the same match.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from exact61 import (
    ALL_TILES,
    DRAW,
    PASS,
    Action,
    AttachPoint,
    Draw,
    Match,
    Phase,
    Play,
    Tile,
    TileEnd,
    dumps,
    match_to_record,
    replay,
    view_of,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.sampled_from([2, 3, 4])


def random_actions(match: Match, rng: random.Random) -> Iterator[Action]:
    """Play the match to its end with uniform random choices, yielding before each action."""
    while not match.is_over:
        match.deal_next_round(rng)
        while match.to_act is not None:
            legal = match.legal_actions()
            action = legal[rng.randrange(len(legal))]
            yield action
            match.apply(action)


def brute_force_legal(match: Match) -> set[Action]:
    """R7, R9-R13 read straight from the joins, without the layout's own free-point index."""
    seat = match.to_act
    assert seat is not None
    layout = match.layout
    hand = match.hand(seat)
    if layout.is_empty:
        return {Play(t, None) for t in hand}
    joined: set[AttachPoint] = set()
    for host, end in layout.joins():
        joined.update((host, end))
    free: list[AttachPoint] = []
    for tile in layout.tiles:
        if tile.is_double:
            lines = [AttachPoint(tile, e) for e in (TileEnd.LINE_A, TileEnd.LINE_B)]
            free += [p for p in lines if p not in joined]
            if all(p in joined for p in lines):  # R13: arms only after both line sides
                arms = [AttachPoint(tile, e) for e in (TileEnd.ARM_A, TileEnd.ARM_B)]
                free += [p for p in arms if p not in joined]
        else:
            free += [
                p
                for p in (AttachPoint(tile, TileEnd.LOW), AttachPoint(tile, TileEnd.HIGH))
                if p not in joined
            ]
    candidates: tuple[Tile, ...] = hand
    steps = match.rounds[-1].steps
    if steps and steps[-1].seat == seat and isinstance(steps[-1].action, Draw):
        candidates = (steps[-1].drawn,)  # type: ignore[assignment]  # R10: the drawn tile
    plays: set[Action] = {
        Play(t, p) for t in candidates for p in free if p.value in (t.low, t.high)
    }
    if plays:
        return plays
    return {DRAW} if match.boneyard_size else {PASS}


def check_tiles_conserved(match: Match) -> None:
    seat_tiles = [t for s in range(match.players) for t in match.hand(s)]
    table = match.layout.tiles
    log = match.rounds[-1]
    drawn = sum(1 for s in log.steps if s.drawn is not None)
    boneyard = list(log.deal.boneyard[drawn:])
    everything = seat_tiles + table + boneyard
    assert len(everything) == 28 and set(everything) == set(ALL_TILES)
    assert len(boneyard) == match.boneyard_size


def check_view(match: Match, seat: int) -> None:
    view = view_of(match, seat)
    hidden = {t for s in range(match.players) if s != seat for t in match.hand(s)}
    log = match.rounds[-1]
    drawn = sum(1 for s in log.steps if s.drawn is not None)
    hidden |= set(log.deal.boneyard[drawn:])
    shown: set[Tile] = set(view.hand) | set(view.layout.tiles)
    for step in view.history:
        if step.play is not None:
            shown.add(step.play.tile)
        if step.drawn is not None:
            assert step.seat == seat  # only one's own draws show the tile
            shown.add(step.drawn)
    shown |= {a.tile for a in view.legal_actions if isinstance(a, Play)}
    assert not shown & hidden
    assert not any(str(t) in repr(view) for t in hidden)
    assert view.hand == match.hand(seat)
    assert view.hand_sizes == match.hand_sizes() and view.boneyard_size == match.boneyard_size


@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=player_counts)
def test_tiles_conserved_and_scores_step_by_5_never_past_305(seed: int, players: int) -> None:
    match = Match(players)
    rng = random.Random(seed)
    before = match.scores
    for _ in random_actions(match, rng):
        if match.phase is Phase.PLAY:
            check_tiles_conserved(match)
        assert all(s <= 305 for s in match.scores)
        assert all((a - b) % 5 == 0 for a, b in zip(match.scores, before, strict=True))
        before = match.scores
    assert match.winner is not None and match.scores[match.winner] == 305
    assert sum(1 for s in match.scores if s == 305) == 1


@settings(max_examples=30, deadline=None)
@given(seed=seeds, players=player_counts)
def test_legal_actions_equal_brute_force(seed: int, players: int) -> None:
    match = Match(players)
    for _ in random_actions(match, random.Random(seed)):
        legal = match.legal_actions()
        assert len(legal) == len(set(legal))
        assert set(legal) == brute_force_legal(match)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, players=player_counts)
def test_replay_of_record_reproduces_the_match(seed: int, players: int) -> None:
    match = Match(players)
    for _ in random_actions(match, random.Random(seed)):
        pass
    record = match_to_record(match, seed=seed)
    again = replay(dumps(record))
    assert again.scores == match.scores and again.winner == match.winner
    assert len(again.rounds) == len(match.rounds)
    for mine, theirs in zip(match.rounds, again.rounds, strict=True):
        assert mine.deal == theirs.deal and mine.opener == theirs.opener
        assert mine.steps == theirs.steps and mine.events == theirs.events
        assert mine.end == theirs.end
    assert match_to_record(again, seed=seed) == record


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=player_counts)
def test_views_never_show_another_seats_hidden_tiles(seed: int, players: int) -> None:
    match = Match(players)
    rng = random.Random(seed)
    for i, _ in enumerate(random_actions(match, rng)):
        if i % 3 == 0 and match.phase is Phase.PLAY:
            check_view(match, rng.randrange(players))


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=player_counts, cut=st.integers(min_value=0, max_value=400))
def test_unfinished_match_record_replays(seed: int, players: int, cut: int) -> None:
    match = Match(players)
    for i, _ in enumerate(random_actions(match, random.Random(seed))):
        if i == cut:
            break
    again = replay(dumps(match_to_record(match)))
    assert again.scores == match.scores and again.is_over == match.is_over
    assert [r.steps for r in again.rounds] == [r.steps for r in match.rounds]
