"""Seat views are snapshots: built without copying the round, they still show exactly their
moment after the match moves on, and nothing in them can change the match."""

from __future__ import annotations

import pickle
import random

import pytest

from exact61 import (
    ALL_TILES,
    DRAW,
    AttachPoint,
    Match,
    Play,
    PublicHistory,
    PublicStep,
    SeatView,
    TileEnd,
    match_to_record,
)
from exact61.core.tiles import Tile


def T(a: int, b: int) -> Tile:
    return Tile(a, b)


def _history_by_hand(match: Match, seat: int) -> tuple[PublicStep, ...]:
    """The public history read straight from the full log (R5: others' draws hide the tile)."""
    out = []
    for step in match.rounds[-1].steps:
        if isinstance(step.action, Play):
            out.append(PublicStep(step.seat, "play", step.action))
        elif step.action is DRAW:
            out.append(
                PublicStep(step.seat, "draw", None, step.drawn if step.seat == seat else None)
            )
        else:
            out.append(PublicStep(step.seat, "pass"))
    return tuple(out)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_old_views_keep_their_moment_as_the_match_goes_on(players: int) -> None:
    rng = random.Random(players)
    match = Match(players)
    taken: list[tuple[SeatView, tuple[PublicStep, ...], list[object], tuple[object, ...]]] = []
    while not match.is_over:
        match.deal_next_round(rng)
        while match.to_act is not None:
            seat = rng.randrange(players)
            view = match.view(seat)
            expected = (_history_by_hand(match, seat), match.layout.placements(), match.hand(seat))
            if rng.random() < 0.5:  # read some views at once, others only at the end
                assert tuple(view.history) == expected[0]
            taken.append((view, *expected))
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    for view, history, placements, hand in taken:
        assert tuple(view.history) == history
        assert view.layout.placements() == placements
        assert view.hand == hand
    assert len(taken) > 50


def _shown_by_hand(match: Match, seat: int) -> dict[str, object]:
    """What a view of `seat` must show of this moment, read from the match's public API."""
    log = match.rounds[-1]
    mine = match.to_act == seat
    return {
        "seat": seat,
        "players": match.players,
        "hand": match.hand(seat),
        "scores": match.scores,
        "boneyard_size": match.boneyard_size,
        "hand_sizes": match.hand_sizes(),
        "to_act": match.to_act,
        "round_index": len(match.rounds) - 1,
        "opener": log.opener,
        "pending_draw": match.pending_draw if mine else None,
        "history": _history_by_hand(match, seat),
        "events": tuple(log.events),
        "legal_actions": tuple(match.legal_actions()) if mine else (),
        "round_end": None,
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_field_of_a_view_is_its_moments_also_in_copies(players: int) -> None:
    """Views share what stays the same all round per seat (built at its first view): every
    field must still be the moment's, for the match and for copies taken mid-round."""
    rng = random.Random(10 + players)
    match = Match(players)
    taken: list[tuple[SeatView, dict[str, object]]] = []
    while not match.is_over:
        match.deal_next_round(rng)
        while match.to_act is not None:
            for game in (match, match.copy()) if rng.random() < 0.2 else (match,):
                seat = rng.randrange(players)
                taken.append((game.view(seat), _shown_by_hand(game, seat)))
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    for view, expected in taken:
        shown = view.shown()
        del shown["layout"]
        shown["history"] = tuple(shown["history"])
        assert shown == expected
    assert len({view.round_index for view, _ in taken}) > 3


def test_views_of_a_position_count_hands_from_their_own_start() -> None:
    """A round set up mid-way starts with unequal hands: views count from those sizes."""
    hands = [[T(1, 1), T(2, 2), T(5, 5)], [T(3, 3), T(0, 2)]]
    plays = [(T(1, 4), None), (T(4, 4), AttachPoint(T(1, 4), TileEnd.HIGH))]
    used = {*hands[0], *hands[1], T(1, 4), T(4, 4)}
    boneyard = [t for t in ALL_TILES if t not in used]
    match = Match.from_position(2, layout=plays, hands=hands, boneyard=boneyard, to_act=0, opener=0)
    seen = []
    while match.to_act is not None:
        for seat in (0, 1):
            seen.append((match.view(seat), _shown_by_hand(match, seat)))
        match.apply(match.legal_actions()[0])
    for view, expected in seen:
        assert view.hand_sizes == expected["hand_sizes"]
        assert tuple(view.history) == expected["history"]
    assert seen[0][0].hand_sizes == (3, 2) and len(seen) > 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_view_says_which_credits_r4_rejects(players: int) -> None:
    """R4: a placement credit is thrown away whole when it would take the side past 305 raw;
    landing on 305 wins (R30). The side's score counts, a partner's score being the same
    (4 players); a last tile's credit never, being part of the domino event (R16, R19)."""
    tiles = [T(0, 0), T(1, 1), T(2, 2), T(3, 3), T(4, 4), T(5, 5), T(6, 6), T(0, 1)]
    hands = [[tiles[i], tiles[i + 4]] for i in range(players)]
    used = {t for h in hands for t in h} | {T(1, 4)}
    boneyard = [t for t in ALL_TILES if t not in used]
    for seat in range(players):
        scores = [0] * (2 if players == 4 else players)
        side = seat % 2 if players == 4 else seat
        scores[side] = 295
        match = Match.from_position(
            players,
            layout=[(T(1, 4), None)],
            hands=hands,
            boneyard=boneyard,
            to_act=seat,
            opener=(seat - 1) % players,
            scores=tuple(scores),
        )
        view = match.view(seat)
        assert view.rejects(15) and not view.rejects(10) and not view.rejects(0)
        assert not match.view((seat + 1) % players).rejects(15)  # the other side's score
        if players == 4:
            assert match.view((seat + 2) % 4).rejects(15)  # the partner's: one side
        alone = Match.from_position(
            players,
            layout=[(T(1, 4), None)],
            hands=[[h[0]] for h in hands],
            boneyard=boneyard + [h[1] for h in hands],
            to_act=seat,
            opener=(seat - 1) % players,
            scores=tuple(scores),
        )
        assert not alone.view(seat).rejects(15)  # the last tile


def test_a_views_layout_is_read_only_and_its_copy_leaves_the_match_alone() -> None:
    for seed in range(100):  # a deal where seat 1 can answer the opening tile
        match = Match(2)
        match.deal_next_round(random.Random(seed))
        match.apply(match.legal_actions()[0])
        plays = [a for a in match.legal_actions() if isinstance(a, Play)]
        if match.to_act == 1 and plays:
            break
    view = match.view(1)
    play = plays[0]
    with pytest.raises(TypeError, match="copy"):
        view.layout.place(play.tile, play.at)
    scratch = view.layout.copy()
    scratch.place(play.tile, play.at)
    assert len(scratch) == 2 and len(match.layout) == 1 and len(view.layout) == 1
    match.apply(play)  # the match copies the shared layout before placing on it
    assert len(view.layout) == 1 and len(match.layout) == 2


def test_a_view_pickles_to_what_it_shows() -> None:
    rng = random.Random(9)
    match = Match(3)
    match.deal_next_round(rng)
    for _ in range(12):
        if match.to_act is None:
            break
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    view = match.view(0)
    again = pickle.loads(pickle.dumps(view))
    assert again == view
    assert tuple(again.history) == tuple(view.history)
    assert again.layout.placements() == view.layout.placements()


def test_a_view_refuses_new_attributes_and_shows_the_same_once_it_has_built_its_parts() -> None:
    """A view keeps what it builds when first asked (no __slots__), yet stays a value: setting
    or deleting an attribute fails, and reading every part leaves equality, pickling and its
    public attributes as they were."""
    match = Match(4)
    match.deal_next_round(random.Random(4))
    for _ in range(7):
        match.apply(match.legal_actions()[0])
    seat = match.to_act
    assert seat is not None
    fresh, read = match.view(seat), match.view(seat)
    names = [name for name in dir(read) if not name.startswith("_")]
    shown = read.shown()  # builds the hand, history, layout, sizes and events
    assert vars(read) and not vars(fresh)
    assert read == fresh and pickle.dumps(read) == pickle.dumps(fresh) and shown == fresh.shown()
    assert [name for name in dir(read) if not name.startswith("_")] == names
    for name in ("hand", "score", "_hand"):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(read, name, ())
        with pytest.raises(AttributeError):
            delattr(read, name)
    assert read.hand == fresh.hand and read == fresh


def test_replace_changes_one_field() -> None:
    match = Match(2)
    match.deal_next_round(random.Random(1))
    view = match.view(0)
    changed = view.replace(scores=(100, 5))
    assert changed.scores == (100, 5) and changed.hand == view.hand and view.scores == (0, 0)


def test_nothing_in_a_view_can_change_the_match() -> None:
    rng = random.Random(12)
    match = Match(3)
    match.deal_next_round(rng)
    for _ in range(9):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    seat = match.to_act
    assert seat is not None
    view = match.view(seat)
    before = pickle.dumps(match_to_record(match))
    with pytest.raises(AttributeError):
        view.round.public.append(None)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        view.round.events_log.clear()  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        view.legal_actions.pop()  # type: ignore[attr-defined]
    play = next(a for a in match.legal_actions() if isinstance(a, Play))
    for layout in (view.layout, match.layout):  # the match's own, read-only
        with pytest.raises(TypeError, match="copy"):
            layout.place(play.tile, play.at)
    assert pickle.dumps(match_to_record(match)) == before
    assert match.legal_actions() and view == pickle.loads(pickle.dumps(view))
    assert view == view.replace() and view.legal_actions == tuple(match.legal_actions())


def test_a_view_from_a_plain_list_keeps_its_own_history() -> None:
    # A view is an immutable value (SeatView): built from a list of steps, it keeps its own
    # PublicHistory, which the caller's list cannot change afterwards.
    rng = random.Random(5)
    match = Match(2)
    match.deal_next_round(rng)
    for _ in range(4):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    seat = match.to_act
    assert seat is not None
    view = match.view(seat)
    steps = list(view.history)
    assert len(steps) == 4
    listed = SeatView.of(**{**view.shown(), "history": steps})
    steps.append(PublicStep(seat, "pass"))
    steps[0] = PublicStep(seat, "pass")
    assert isinstance(listed.history, PublicHistory)
    assert tuple(listed.history) == tuple(view.history) and len(listed.history) == 4
    assert listed == view and hash(listed) == hash(view)
