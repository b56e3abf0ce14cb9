"""Properties over random seeds and player counts (Hypothesis).

Each example plays a whole match with seeded random choices and checks, after every action:
tiles conserved, scores moving only in multiples of 5 and never past 305, the legal action set
equal to a brute-force reading of R7 and R9-R13, views leaking nothing; and at the end that the
match's record replays to the same match.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from enum import Enum
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact61 import (
    ALL_TILES,
    DRAW,
    PASS,
    Action,
    AttachPoint,
    Draw,
    Layout,
    Match,
    Phase,
    Play,
    RoundEnd,
    Tile,
    TileEnd,
    dumps,
    match_to_record,
    replay,
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


# The public attributes of a SeatView (R5: what one seat may know). The leak check reads the view
# only through these and any other public attribute it has, never through its repr or internals.
VIEW_ATTRIBUTES = (
    "seat",
    "players",
    "hand",
    "layout",
    "scores",
    "boneyard_size",
    "hand_sizes",
    "to_act",
    "round_index",
    "opener",
    "pending_draw",
    "history",
    "events",
    "legal_actions",
    "round_end",
)


def tiles_in(obj: object, path: str) -> Iterator[tuple[str, Tile]]:
    """Every tile inside `obj`, with where it was found. Fails on a value it cannot look into,
    so a new kind of attribute cannot slip past the leak check unread."""
    if isinstance(obj, Tile):
        yield path, obj
    elif obj is None or isinstance(obj, (Enum, str, bytes, int, float)):
        return
    elif callable(getattr(obj, "placements", None)):  # a layout: read through its placements
        placements = obj.placements()  # type: ignore[attr-defined]
        for i, (tile, at) in enumerate(placements):
            yield from tiles_in(tile, f"{path}.placements()[{i}].tile")
            yield from tiles_in(at, f"{path}.placements()[{i}].at")
    elif isinstance(obj, tuple) and hasattr(obj, "_fields"):  # NamedTuple: Play, steps, points
        for name in obj._fields:
            yield from tiles_in(getattr(obj, name), f"{path}.{name}")
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):  # events, RoundEnd
        for field in dataclasses.fields(obj):
            yield from tiles_in(getattr(obj, field.name), f"{path}.{field.name}")
    elif isinstance(obj, SimpleNamespace):
        for name, value in vars(obj).items():
            yield from tiles_in(value, f"{path}.{name}")
    elif isinstance(obj, Mapping):
        for key, value in obj.items():
            yield from tiles_in(key, f"{path} key {key!r}")
            yield from tiles_in(value, f"{path}[{key!r}]")
    elif isinstance(obj, (Sequence, AbstractSet)):
        for i, item in enumerate(obj):
            yield from tiles_in(item, f"{path}[{i}]")
    else:
        raise TypeError(f"{path}: the leak check cannot look inside {type(obj).__name__}")


def public_attributes(view: object) -> list[str]:
    """The view's known attributes and any other public, non-method attribute it has."""
    found = [
        name for name in dir(view) if not name.startswith("_") and not callable(getattr(view, name))
    ]
    return [*VIEW_ATTRIBUTES, *(name for name in found if name not in VIEW_ATTRIBUTES)]


def hidden_from(match: Match, seat: int) -> set[Tile]:
    """The tiles `seat` may not see now: the undrawn boneyard, and the other seats' hands until
    a settlement reveals them (R18, R20; a round ended on the target is not settled, R30)."""
    log = match.rounds[-1]
    assert log.deal is not None
    drawn = sum(1 for s in log.steps if s.drawn is not None)
    hidden = set(log.deal.boneyard[drawn:])
    if log.end is None or log.end.hands is None:
        hidden |= {t for s in range(match.players) if s != seat for t in match.hand(s)}
    return hidden


def assert_no_leak(view: object, match: Match) -> None:
    """Raise AssertionError if `view` shows a tile hidden from its seat at this moment."""
    seat = view.seat  # type: ignore[attr-defined]
    hidden = hidden_from(match, seat)
    for name in public_attributes(view):
        for where, tile in tiles_in(getattr(view, name), f"view.{name}"):
            assert tile not in hidden, f"{where} shows {tile}, hidden from seat {seat}"
    for k, step in enumerate(view.history):  # type: ignore[attr-defined]
        # Another seat's draw never shows its tile, even once that tile has been placed.
        drawn = getattr(step, "drawn", None)
        assert drawn is None or step.seat == seat, (
            f"view.history[{k}] shows {drawn}, drawn by seat {step.seat}"
        )
    if view.to_act != seat:  # type: ignore[attr-defined]
        assert view.pending_draw is None, "view.pending_draw shows another seat's drawn tile"  # type: ignore[attr-defined]


def check_view(match: Match, seat: int) -> None:
    view = match.view(seat)
    assert_no_leak(view, match)
    in_play = match.phase is Phase.PLAY
    log = match.rounds[-1]
    assert (view.seat, view.players, view.scores) == (seat, match.players, match.scores)
    assert (view.to_act, view.opener) == (match.to_act, log.opener)
    assert view.round_index == len(match.rounds) - 1
    assert (view.side, view.sides) == (match.side_of(seat), len(match.scores))
    assert view.hand == (match.hand(seat) if in_play else ())
    if in_play:
        assert view.hand_sizes == match.hand_sizes() and view.boneyard_size == match.boneyard_size
    else:  # between rounds nothing is in anyone's hand yet
        assert view.hand_sizes == (0,) * match.players and view.boneyard_size == 0
    draws = [0] * match.players
    for mine, step in zip(view.history, log.steps, strict=True):
        assert mine.seat == step.seat
        if isinstance(step.action, Play):
            assert (mine.kind, mine.play, mine.drawn) == ("play", step.action, None)
        elif isinstance(step.action, Draw):
            draws[step.seat] += 1
            shown = step.drawn if step.seat == seat else None
            assert (mine.kind, mine.play, mine.drawn) == ("draw", None, shown)
        else:
            assert (mine.kind, mine.play, mine.drawn) == ("pass", None, None)
    assert view.draw_counts() == tuple(draws)
    mine = in_play and match.to_act == seat
    assert view.pending_draw == (match.pending_draw if mine else None)
    assert list(view.legal_actions) == (match.legal_actions() if mine else [])
    assert view.layout.placements() == match.layout.placements()
    assert [s.seat for s in view.history] == [s.seat for s in match.rounds[-1].steps]
    assert list(view.events) == match.rounds[-1].events and view.round_end == match.rounds[-1].end


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


@settings(max_examples=12, deadline=None)
@given(seed=seeds, players=player_counts)
def test_views_never_show_a_hidden_tile(seed: int, players: int) -> None:
    """Every seat's view after every action, between rounds (hands revealed by a settlement, or
    not after a target) and at the end of the match."""
    match = Match(players)
    rng = random.Random(seed)
    checked = settled = 0
    while not match.is_over:
        match.deal_next_round(rng)
        while True:
            for seat in range(players):
                check_view(match, seat)
                checked += 1
            if match.to_act is None:
                break
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        end = match.rounds[-1].end
        settled += end is not None and end.hands is not None
    assert checked and settled  # the revealed hands were read too


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


# ---- the leak check itself must fail on a leaky view ---------------------------------------


def _after_a_playable_draw(players: int) -> Match:
    """A match where the seat to act has just drawn a tile it must place (R10)."""
    for seed in range(1000):
        rng = random.Random(seed)
        match = Match(players)
        match.deal_next_round(rng)
        while match.to_act is not None:
            if match.pending_draw is not None and match.boneyard_size:
                return match
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no playable draw found")  # pragma: no cover


def _copy_of(view: object, **changes: object) -> SimpleNamespace:
    """A view-like object: the view's public attributes, some of them changed."""
    fake = SimpleNamespace(**{name: getattr(view, name) for name in public_attributes(view)})
    for name, value in changes.items():
        setattr(fake, name, value)
    return fake


def _step(seat: int, kind: str, drawn: Tile | None) -> SimpleNamespace:
    return SimpleNamespace(seat=seat, kind=kind, play=None, drawn=drawn)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_leak_check_catches_another_seats_drawn_tile(players: int) -> None:
    match = _after_a_playable_draw(players)
    drawer = match.to_act
    assert drawer is not None
    drawn = match.pending_draw
    assert drawn is not None and match.rounds[-1].steps[-1].drawn == drawn
    other = (drawer + 1) % players
    view = match.view(other)
    assert_no_leak(view, match)  # the real view, and an honest copy of it, pass
    assert_no_leak(_copy_of(view), match)
    log = match.rounds[-1]
    assert log.deal is not None
    undrawn = log.deal.boneyard[len(log.deal.boneyard) - match.boneyard_size]
    history = list(view.history)
    leaky_history = [*history[:-1], _step(drawer, "draw", drawn)]
    hands = tuple(match.hand(s) for s in range(players))
    leaks: dict[str, SimpleNamespace] = {
        "pending_draw": _copy_of(view, pending_draw=drawn),
        "history": _copy_of(view, history=leaky_history),
        "hand": _copy_of(view, hand=(*view.hand, drawn)),
        "boneyard in hand": _copy_of(view, hand=(*view.hand, undrawn)),
        "legal_actions": _copy_of(view, legal_actions=(Play(drawn, None),)),
        "layout": _copy_of(view, layout=Layout.from_plays([(drawn, None)])),
        "round_end": _copy_of(view, round_end=RoundEnd("target", drawer, 0, hands, None)),
        "a new attribute": _copy_of(view, hands=hands),
    }
    for what, leaky in leaks.items():
        with pytest.raises(AssertionError, match=r"hidden from seat|drawn by seat|pending_draw"):
            assert_no_leak(leaky, match)
            pytest.fail(f"the leak check missed a leak in {what}")
    # A view carrying something the check cannot read fails too, rather than passing unread.
    with pytest.raises(TypeError, match="cannot look inside"):
        assert_no_leak(_copy_of(view, extra=object()), match)


def test_the_leak_check_catches_which_tile_another_seat_drew_even_once_placed() -> None:
    match = _after_a_playable_draw(2)
    drawer = match.to_act
    assert drawer is not None and match.pending_draw is not None
    drawn = match.pending_draw
    match.apply(next(a for a in match.legal_actions() if isinstance(a, Play)))
    if match.to_act is None:  # pragma: no cover - the placement ended the round
        pytest.skip("round ended")
    view = match.view(1 - drawer)
    assert drawn in view.layout.tiles  # no longer hidden: it lies on the table
    assert_no_leak(view, match)
    steps = list(view.history)
    k = max(i for i, s in enumerate(steps) if s.seat == drawer and s.kind == "draw")
    steps[k] = _step(drawer, "draw", drawn)
    with pytest.raises(AssertionError, match=r"drawn by seat"):
        assert_no_leak(_copy_of(view, history=steps), match)
