"""Edges of the core that mutation testing showed no test reached: the fast record writer's own
paths, copies that share a layout, views made from values, and a few replay messages."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exact61 import (
    ALL_TILES,
    Match,
    Play,
    RecordError,
    ReplayError,
    dumps,
    match_to_record,
    replay,
)
from exact61.core.records import event_to_json, record_text
from exact61.core.settlement import BlockEvent, DominoEvent
from tests.core.scenarios import DOMINO_B, TIED3, play, start
from tests.helpers import T


def random_match(seed: int, players: int, actions: int = 10_000) -> Match:
    """A seeded match of uniform random choices, to its end or `actions` actions in."""
    rng = random.Random(seed)
    match = Match(players)
    done = 0
    while not match.is_over and done < actions:
        match.deal_next_round(rng)
        while match.to_act is not None and done < actions:
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
            done += 1
    return match


# ---- the record writer against a reference written from the format --------------------------


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def _tile(tile: object) -> list[int]:
    return [tile.low, tile.high]  # type: ignore[attr-defined]


def reference_record(
    match: Match, seed: int | None = None, extra: dict[str, object] | None = None
) -> str:
    """The record as match-record.md spells it, built from the match's public parts alone."""
    record: dict[str, object] = {"format": "exact61-match/1", "players": match.players}
    if seed is not None:
        record["seed"] = seed
    record.update(extra or {})
    rounds = []
    for log in match.rounds:
        assert log.deal is not None
        actions: list[dict[str, object]] = []
        for step in log.steps:
            if isinstance(step.action, Play):
                at = step.action.at
                point = None if at is None else [_tile(at.tile), at.end.value]
                actions.append(
                    {
                        "seat": step.seat,
                        "type": "play",
                        "tile": _tile(step.action.tile),
                        "at": point,
                    }
                )
            elif step.drawn is not None:
                actions.append({"seat": step.seat, "type": "draw", "tile": _tile(step.drawn)})
            else:
                actions.append({"seat": step.seat, "type": "pass"})
        end = None
        if log.end is not None:
            end = {"kind": log.end.kind, "round_winner": log.end.winner}
            if log.end.pips is not None:
                end["hand_pips"] = list(log.end.pips)
        rounds.append(
            {
                "opener": log.opener,
                "hands": [[_tile(t) for t in hand] for hand in log.deal.hands],
                "boneyard": [_tile(t) for t in log.deal.boneyard],
                "actions": actions,
                "events": [event_to_json(e) for e in log.events],
                "end": end,
            }
        )
    record["rounds"] = rounds
    record["scores"] = list(match.scores)
    record["winner"] = match.winner
    return _compact(record)


@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_the_writer_writes_what_the_reference_writes(seed: int, players: int) -> None:
    match = random_match(seed, players, actions=seed % 400)
    assert record_text(match, seed=seed) == reference_record(match, seed)
    assert dumps(match_to_record(match, seed=seed)) == reference_record(match, seed)


def test_an_equal_play_that_is_not_the_engines_own_object_is_applied_and_written() -> None:
    match = random_match(3, 2, actions=3)
    action = next(a for a in match.legal_actions() if isinstance(a, Play))
    foreign = Play(T(action.tile.low, action.tile.high), action.at)
    assert foreign is not action and foreign == action
    match.apply(foreign)
    assert match.rounds[-1].steps[-1].action == action
    assert record_text(match) == reference_record(match)


def test_a_tied_block_is_written_with_no_round_winner() -> None:
    tied = start(TIED3, 3)
    play(tied, TIED3)
    end = tied.rounds[-1].end
    assert end is not None and end.kind == "block" and end.winner is None
    text = record_text(tied)
    assert text == reference_record(tied) and '"round_winner":null' in text


def test_extra_fields_that_name_required_ones_are_written_as_the_reference_writes_them() -> None:
    match = random_match(5, 3)
    for extra in ({"seed": 99}, {"scores": [1, 2, 3]}, {"format": "x", "bots": ["a"]}):
        expected = reference_record(match, seed=4, extra=extra)
        assert record_text(match, seed=4, extra=extra) == expected
        assert any(f'"{k}":' in expected for k in extra)


def test_a_round_set_up_from_a_position_has_no_deal_to_write() -> None:
    match = random_match(1, 2, actions=6)
    view = match.view(match.to_act or 0)
    hands = [match.hand(s) for s in range(2)]
    seen = set(match.layout.tiles) | {t for h in hands for t in h}
    position = Match.from_position(
        2,
        layout=view.layout,
        hands=hands,
        boneyard=[t for t in ALL_TILES if t not in seen],
        to_act=match.to_act or 0,
        opener=0,
    )
    for write in (record_text, lambda m: dumps(match_to_record(m))):
        with pytest.raises(
            RecordError, match=r"^a round set up from a position has no deal to record$"
        ):
            write(position)


# ---- copies and views --------------------------------------------------------------------


def test_a_copy_and_its_original_never_change_each_other() -> None:
    match = random_match(8, 2, actions=5)
    twin = match.copy()
    before, legal = match.layout.placements(), match.legal_actions()
    twin.apply(twin.legal_actions()[0])
    twin.apply(twin.legal_actions()[0])
    assert match.layout.placements() == before and match.legal_actions() == legal
    twin_now = twin.layout.placements()
    match.apply(match.legal_actions()[-1])
    assert twin.layout.placements() == twin_now
    assert reference_record(twin) != reference_record(match)


def small_position() -> Match:
    """Seat 0 to act on [1|1] with three tiles against two; the rest in the boneyard."""
    hands = [[T(1, 2), T(2, 2), T(3, 4)], [T(0, 0), T(5, 6)]]
    used = {t for h in hands for t in h} | {T(1, 1)}
    return Match.from_position(
        2,
        layout=[(T(1, 1), None)],
        hands=hands,
        boneyard=[t for t in ALL_TILES if t not in used],
        to_act=0,
        opener=0,
    )


def test_a_copy_of_a_position_keeps_its_hand_sizes() -> None:
    position = small_position()
    for match in (position, position.copy()):
        assert match.view(1).hand_sizes == (3, 2)  # not 5 each: the position's own


def test_a_view_from_values_is_the_view_it_came_from_and_cannot_place() -> None:
    match = random_match(4, 3, actions=9)
    seat = match.to_act
    assert seat is not None
    view = match.view(seat)
    rebuilt = type(view).of(**view.shown())
    assert rebuilt == view and hash(rebuilt) == hash(view)
    assert (rebuilt != view) is False  # __ne__ agrees with __eq__
    assert rebuilt.history is not None and list(rebuilt.history) == list(view.history)
    listed = type(view).of(**{**view.shown(), "history": list(view.history)})
    assert listed == view  # a history given as a plain list
    play_action = next(a for a in view.legal_actions if isinstance(a, Play))
    with pytest.raises(TypeError, match="copy"):
        rebuilt.layout.place(play_action.tile, play_action.at)
    assert repr(view).startswith(f"SeatView(seat={seat}, players=3, hand=(")
    assert repr(view.hand[0]) in repr(view) and "round_end=None" in repr(view)
    assert "PublicHistory(" in repr(view.history) and hash(view.history) == hash(rebuilt.history)
    with pytest.raises(TypeError, match="a view shows no colour, flavour"):
        view.replace(colour=1, flavour=2)
    other = match.view((seat + 1) % 3)
    assert other != view


# ---- replay messages ---------------------------------------------------------------------


def test_a_round_after_the_winning_one_is_refused_where_it_stands() -> None:
    match = random_match(2, 2)
    record = match_to_record(match)
    won = len(record["rounds"])
    record["rounds"].append(copy.deepcopy(record["rounds"][-1]))
    with pytest.raises(ReplayError) as caught:
        replay(record)
    assert caught.value.round == won and "the match was already won; no round may follow" in str(
        caught.value
    )


def test_a_winner_claimed_for_an_unfinished_match_is_refused() -> None:
    match = start(DOMINO_B, 4)
    play(match, DOMINO_B)
    record = match_to_record(match)
    record["winner"] = 1
    with pytest.raises(ReplayError, match="the winner is none yet, not 1"):
        replay(record)


def test_a_missing_event_is_reported_at_the_action_that_makes_it() -> None:
    match = random_match(6, 2)
    record = match_to_record(match)
    r = next(i for i, rnd in enumerate(record["rounds"]) if rnd["events"])
    replayed = replay(record, stop_after=(0, 0))
    assert replayed is not None
    record["rounds"][r]["events"] = []
    with pytest.raises(ReplayError) as caught:
        replay(record)
    err = caught.value
    assert err.round == r and err.action is not None
    # the action named is the one whose placement produced the first event
    steps = match.rounds[r].steps
    assert 0 <= err.action < len(steps) and steps[err.action].seat == match.rounds[r].events[0].seat


def test_a_target_end_names_the_seat_that_reached_61() -> None:
    for seed in range(200):
        match = random_match(seed, 2)
        end = match.rounds[-1].end
        if end is not None and end.kind == "target":
            last = match.rounds[-1].steps[-1]
            assert end.seat == last.seat and end.winner == match.winner
            return
    raise AssertionError("no match of 200 ended on an ordinary placement")


def test_an_empty_layout_has_no_ends_and_accepts_no_value() -> None:
    from exact61 import Layout

    layout = Layout()
    assert layout.end_sum == 0 and layout.open_values == 0 and layout.placements() == []
    assert layout.free_points() == [] and layout.credit == 0


def test_every_layout_a_match_hands_out_refuses_callers() -> None:
    # A position's layout, a round's before and after a placement, and a new match's.
    position = small_position()
    match = random_match(9, 2, actions=4)
    shared = match.layout
    match.apply(next(a for a in match.legal_actions() if isinstance(a, Play)))
    assert match.layout is not shared and shared.placements() != match.layout.placements()
    for layout in (position.layout, shared, match.layout, Match(2).layout):
        with pytest.raises(TypeError, match="copy"):
            layout.place(T(1, 3), None)


def test_a_copy_made_mid_round_keeps_its_own_public_log() -> None:
    match = random_match(10, 3, actions=7)
    twin = match.copy()
    seat = twin.to_act
    assert seat is not None
    twin.apply(twin.legal_actions()[0])
    seen = twin.view(seat).history
    assert len(seen) == len(twin.rounds[-1].steps) == len(match.rounds[-1].steps) + 1
    assert seen[-1].seat == seat and len(match.view(seat).history) == len(seen) - 1


def test_messages_are_exact() -> None:
    from exact61 import Layout, round5

    with pytest.raises(ValueError, match=r"^R17: only pip sums \(never negative\) are rounded$"):
        round5(-1)
    layout = Layout.from_plays([(T(4, 4), None)])
    with pytest.raises(
        RecordError.__mro__[1],  # RuleError's base: any project error
        match=r"^R13: the side arms of spinner \[4\|4\] open only after both its line sides "
        r"are joined$",
    ):
        layout.place(T(4, 6), __import__("exact61").AttachPoint(T(4, 4), "armA"))
    with pytest.raises(
        TypeError, match=r"^this layout is read-only \(a match's or a view's\): copy\(\) it"
    ):
        Match(2).layout.place(T(1, 1), None)
    match = random_match(2, 2)
    record = match_to_record(match)
    record["rounds"].append(copy.deepcopy(record["rounds"][-1]))
    with pytest.raises(ReplayError, match=r": the match was already won; no round may follow$"):
        replay(record)


def test_a_wrong_end_kind_is_named() -> None:
    match = start(DOMINO_B, 4)
    play(match, DOMINO_B)
    record = match_to_record(match)
    record["rounds"][0]["end"] = {"kind": "block"}
    with pytest.raises(
        ReplayError, match=r"the round ends by domino; the record says end 'block'$"
    ):
        replay(record)


# ---- event texts ----------------------------------------------------------------------------


@given(
    numbers=st.lists(st.integers(-400, 400), min_size=8, max_size=8),
    accepted=st.booleans(),
    block=st.booleans(),
)
def test_a_settlement_events_text_is_the_reference_writers(
    numbers: list[int], accepted: bool, block: bool
) -> None:
    """Domino (R19) and block (R21) events are made anew each round and written directly:
    accepted or rejected, any numbers (a net below zero too) as json.dumps writes them."""
    seat, side, raw, *rest = numbers
    event: DominoEvent | BlockEvent = (
        BlockEvent(seat, side, raw, accepted, rest[0], rest[1])
        if block
        else DominoEvent(seat, side, raw, accepted, *rest)
    )
    match = random_match(1, 2, actions=3)
    match.rounds[-1].events.append(event)
    assert record_text(match) == reference_record(match)
