"""Edges of `Match`, `Deal`, `SeatView` and the record reader that mutation testing
(docs/figures/test-strength.md) showed no other test would notice going wrong: a view before the
first deal, forced actions, copies, deals from a tile order, views made
from plain values, each moment `replay_steps` reads and the record text of each action."""

from __future__ import annotations

import json
import random

import pytest

from exact61 import (
    ALL_TILES,
    DRAW,
    PASS,
    AttachPoint,
    Deal,
    Layout,
    Match,
    Phase,
    Play,
    PublicHistory,
    PublicStep,
    RuleError,
    SeatView,
    Step,
    Tile,
    match_to_record,
)
from exact61.core import engine, log
from exact61.core.records import action_to_json, replay, replay_steps
from tests.core.scenarios import action_of
from tests.core.test_core_edges import random_match
from tests.helpers import rest_of_set

# ---- a view before the first deal ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_view_before_the_first_deal_shows_an_empty_table(players: int) -> None:
    """Before the first deal (R5) a seat holds nothing and sees no layout, no history, no
    boneyard; only the starting scores."""
    scores = [5 * players] + [0] * (1 if players == 4 else players - 1)
    match = Match(players, scores=scores)
    for seat in range(players):
        view = match.view(seat)
        assert (view.seat, view.players, view.side) == (seat, players, match.side_of(seat))
        assert view.round_index == -1 and view.opener is None and view.round_end is None
        assert view.hand == () and view.hand_mask == 0 and view.hand_sizes == (0,) * players
        assert view.scores == tuple(scores) and view.boneyard_size == 0
        assert view.to_act is None and view.pending_draw is None and view.legal_actions == ()
        assert (
            tuple(view.history) == () and view.events == () and view.draw_counts() == (0,) * players
        )
        assert (view.public_len, view.events_len) == (0, 0)
        layout = view.layout
        assert layout.is_empty and layout.free_mask == layout.end_sum == layout.open_values == 0
        assert (view.free, view.end_sum, view.open_values) == (0, 0, 0)
    for wrong in (-1, players, 1.0, "0"):
        with pytest.raises(ValueError, match=rf"^R2: no seat {wrong!r} among {players} players$"):
            match.view(wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 4])
def test_no_view_of_a_seat_that_is_not_at_the_table(players: int) -> None:
    """R2: seats are 0 to players - 1, in play and between rounds alike."""
    match = Match(players)
    match.deal_next_round(random.Random(players))
    for seat in (-1, players):
        with pytest.raises(ValueError, match=rf"^R2: no seat {seat} among {players} players$"):
            match.view(seat)
    assert match.view(players - 1).seat == players - 1


def test_a_view_between_rounds_shows_the_last_layout() -> None:
    """Between rounds the hands are put away (R5) but the last round's layout stays shown."""
    rng = random.Random(11)
    match = Match(3)
    match.deal_next_round(rng)
    while match.to_act is not None:
        match.apply(rng.choice(match.legal_actions()))
    assert match.phase is Phase.DEAL
    view = match.view(1)
    assert view.layout.placements() == match.layout.placements()
    assert view.layout.free_points() == match.layout.free_points() != []
    assert view.layout.end_sum == match.layout.end_sum
    assert view.layout.open_values == match.layout.open_values
    assert view.hand == () and view.boneyard_size == 0 and view.to_act is None


# ---- forced actions -----------------------------------------------------------------------


def forced_by_hand(match: Match) -> int:
    """What `play_forced` does, by hand: take the only legal action while there is one."""
    made = 0
    while match.to_act is not None and len(match.legal_actions()) == 1:
        match.apply(match.legal_actions()[0])
        made += 1
    return made


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_forced_takes_every_action_without_a_choice(players: int) -> None:
    """R10: a draw, a pass or the one legal placement is no choice; `play_forced` makes them
    all, up to a choice or the round's end, and counts them."""
    assert Match(players).play_forced() == 0  # nothing dealt
    rng = random.Random(players)
    counts: list[int] = []
    match = Match(players)
    while not match.is_over and len(counts) < 300:
        if match.to_act is None:
            match.deal_next_round(rng)
        by_hand = match.copy()
        asked = rng.random() < 0.5
        if asked:  # with the legal moves already worked out, or not
            match.legal_actions()
        want = forced_by_hand(by_hand)
        made = match.play_forced()
        counts.append(made)
        assert made == want
        assert (match.to_act, match.scores, match.phase) == (
            by_hand.to_act,
            by_hand.scores,
            by_hand.phase,
        )
        assert match.legal_actions() == by_hand.legal_actions()
        assert match.rounds[-1].step_codes == by_hand.rounds[-1].step_codes
        assert match.rounds[-1].end == by_hand.rounds[-1].end
        assert match.play_forced() == 0  # nothing more without a choice
        if match.to_act is not None:
            match.apply(rng.choice(match.legal_actions()))
    assert max(counts) > 1 and 0 in counts
    between = random_match(3, players)
    assert between.to_act is None and between.play_forced() == 0


# ---- copies -------------------------------------------------------------------------------


def test_a_copy_shares_finished_rounds_and_grows_its_own_round_apart() -> None:
    """`Match.copy`: finished rounds are shared (they no longer change); the round in play is
    the copy's own."""
    rng = random.Random(2)
    match = Match(2)
    match.deal_next_round(rng)
    while match.to_act is not None:
        match.apply(rng.choice(match.legal_actions()))
    finished = match.copy()
    assert finished.rounds[-1] is match.rounds[-1]
    match.deal_next_round(rng)
    match.apply(match.legal_actions()[0])
    playing = match.copy()
    assert playing.rounds[0] is match.rounds[0]
    assert playing.rounds[-1] is not match.rounds[-1]
    assert playing.rounds[-1].step_codes == match.rounds[-1].step_codes
    assert playing.position() == match.position() and match.position() is not None
    playing.apply(playing.legal_actions()[0])
    assert len(playing.rounds[-1].step_codes) == len(match.rounds[-1].step_codes) + 1
    assert Match(3).position() is None  # nothing dealt


# ---- deals --------------------------------------------------------------------------------


def test_a_deal_from_an_order_checks_players_and_tiles() -> None:
    """R2: 2, 3 or 4 players; R5: every tile once."""
    order = list(range(28))
    random.Random(5).shuffle(order)
    deal = Deal.from_order(order, 3)
    assert deal.hand_indices(1) == tuple(order[5:10]) and deal.boneyard_indices() == tuple(
        order[15:]
    )
    assert deal == Deal(deal.hands, deal.boneyard)
    for players in (1, 5):
        with pytest.raises(RuleError) as err:
            Deal.from_order(order, players)
        assert (err.value.rule, err.value.detail) == (
            "R2",
            f"a deal is for 2, 3 or 4 players, not {players}",
        )
    twice = [*order[:27], order[0]]  # 28 entries, one tile twice and one missing
    longer = [*order, order[0]]  # every tile, one twice
    for bad in (twice, longer, order[:27]):
        with pytest.raises(RuleError) as err:
            Deal.from_order(bad, 2)
        assert str(err.value) == "R5: a deal holds each of the 28 tiles exactly once"


# ---- a view made from values --------------------------------------------------------------


def test_a_view_from_values_is_the_view_it_was_made_from() -> None:
    """`SeatView.of` with what a match's view shows gives a view showing the same, through
    every property, the settlement's revealed hands (R18-R23) included."""
    rng = random.Random(8)
    match = Match(4)
    match.deal_next_round(rng)
    for _ in range(9):
        match.apply(rng.choice(match.legal_actions()))
    views = [match.view(seat) for seat in range(4)]
    while match.to_act is not None:
        match.apply(rng.choice(match.legal_actions()))
    views += [match.view(seat) for seat in range(4)]
    assert views[-1].round_end is not None
    for view in views:
        made = SeatView.of(**view.shown())
        for name in view.shown():
            assert getattr(made, name) == getattr(view, name), name
        assert made.round_end is view.round_end
        assert made.hand_mask == view.hand_mask == sum(1 << t.ordinal for t in view.hand)
        assert (made.free, made.end_sum, made.open_values) == (
            view.free,
            view.end_sum,
            view.open_values,
        )
        assert made.layout.free_points() == view.layout.free_points()
        assert made.layout.end_sum == view.layout.end_sum
        assert made.draw_counts() == view.draw_counts()
        assert made == view and hash(made) == hash(view)


def test_a_view_from_values_shows_those_values() -> None:
    """A view from plain values (a puzzle's): its hand in the order given, as a mask too, its
    history as a `PublicHistory`, its layout's state."""
    tile = Tile(2, 3)
    opening = PublicStep(1, "play", Play(tile, None))
    view = SeatView.of(
        seat=0, players=2, hand=[Tile(1, 6), Tile(1, 1)], layout=Layout.from_plays([(tile, None)]),
        scores=[0, 0], boneyard_size=17, hand_sizes=[2, 4], to_act=0, round_index=0, opener=1,
        pending_draw=None, history=[opening], events=[], legal_actions=[], round_end=None,
    )  # fmt: skip
    assert view.hand == (Tile(1, 6), Tile(1, 1)) and view.hand_sizes == (2, 4)
    assert view.hand_mask == 1 << Tile(1, 6).ordinal | 1 << Tile(1, 1).ordinal
    assert isinstance(view.history, PublicHistory) and view.history == (opening,)
    assert view.layout.placements() == [(tile, None)] and view.end_sum == 5  # R14: 2 + 3
    assert view.free == view.layout.free_mask != 0 and view.open_values == 1 << 2 | 1 << 3


# ---- reading a record moment by moment ----------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_steps_reads_each_deal_and_each_action_of_a_record(players: int) -> None:
    """Each round's deal is a moment (action -1, no events), then each action: its index, the
    events it caused, and the action the record takes next in that round."""
    record = match_to_record(random_match(players + 20, players))
    moments = replay_steps(json.dumps(record))
    for r, rnd in enumerate(record["rounds"]):
        actions = [action_of(a) for a in rnd["actions"]]
        events = iter(rnd["events"])
        step = next(moments)
        assert (step.round, step.action, step.events, step.next) == (r, -1, (), actions[0])
        assert step.match.to_act == rnd["opener"] and step.match.phase is Phase.PLAY
        for a in range(len(actions)):
            step = next(moments)
            following = actions[a + 1] if a + 1 < len(actions) else None
            assert (step.round, step.action, step.next) == (r, a, following)
            assert [e.raw for e in step.events] == [next(events)["raw"] for _ in step.events]
            assert len(step.match.rounds[r].step_codes) == a + 1
        assert next(events, None) is None
    assert next(moments, None) is None


# ---- each action's record text ------------------------------------------------------------


def test_each_action_is_written_as_the_format_says() -> None:
    """docs/formats/match-record.md: a play names its tile and `at` (null for the opening), a
    draw the tile drawn, a pass nothing else."""
    four = Tile(1, 4)
    assert action_to_json(Step(2, Play(four, None))) == {
        "seat": 2, "type": "play", "tile": [1, 4], "at": None,
    }  # fmt: skip
    assert action_to_json(Step(3, Play(Tile(4, 4), AttachPoint(four, "high")))) == {
        "seat": 3, "type": "play", "tile": [4, 4], "at": [[1, 4], "high"],
    }  # fmt: skip
    assert action_to_json(Step(3, DRAW, Tile(0, 6))) == {"seat": 3, "type": "draw", "tile": [0, 6]}
    assert action_to_json(Step(0, PASS)) == {"seat": 0, "type": "pass"}
    with pytest.raises(AssertionError):
        action_to_json(Step(1, DRAW))  # a record's draw names its tile
    assert ALL_TILES[0] == Tile(0, 0)


# ---- smaller things -----------------------------------------------------------------------


def test_a_log_codes_kind_and_move() -> None:
    """engine.py: a code is `move * 4 + seat`, a draw naming its tile `(DRAWN_TILE + tile) * 4 +
    seat`; placements come before the draw and the pass."""
    for code in range(engine.STEP_COUNT):
        move, seat = divmod(code, 4)
        drew = move == engine.DRAW or move >= engine.DRAWN_TILE
        assert log.is_draw(code) is drew and log.is_placement(code) is (move < engine.DRAW)
        assert log.move_of(code) == (engine.DRAW if drew else move)
        assert seat == code % 4
    first = engine.DRAWN_TILE * 4 + 1  # seat 1 drew [0|0], the first tile
    assert log.STEPS[first] == Step(1, DRAW, ALL_TILES[0]) and log.is_draw(first)


def test_a_rounds_steps_read_as_a_list() -> None:
    match = random_match(6, 2)
    steps = match.rounds[0].steps
    assert steps[1:3] == [steps[1], steps[2]] and steps[:] == list(steps)
    assert repr(steps) == f"StepList({list(steps)!r})"
    assert repr(match.rounds[0]).startswith(
        f"RoundLog(deal={match.rounds[0].deal!r}, opener={match.rounds[0].opener}, "
        f"steps={list(steps)!r}, events="
    )


def test_what_a_match_prints_as() -> None:
    match = Match(3, scores=[5, 0, 10])
    assert repr(match) == "<Match players=3 round=0 phase=deal scores=[5, 0, 10] to_act=None>"
    assert match.hand_sizes() == (0, 0, 0)  # nothing dealt
    match.start_round(Deal.from_order(range(28), 3), 2)
    assert repr(match) == "<Match players=3 round=1 phase=play scores=[5, 0, 10] to_act=2>"
    assert match.hand_sizes() == (5, 5, 5)
    assert repr(match.view(0).round.public) == "Window([])"


def test_a_copy_of_a_match_set_up_mid_round_keeps_the_layout_it_started_from() -> None:
    """A round set up mid-way (`Match.from_position`) keeps the placements made before it; so
    does its copy, and its position has no drawn tile to place (R10: -1)."""
    layout = [(Tile(3, 3), None), (Tile(3, 4), AttachPoint(Tile(3, 3), "lineB"))]
    hands = [[Tile(4, 4), Tile(0, 1)], [Tile(2, 3), Tile(5, 6)]]
    match = Match.from_position(
        2,
        layout=layout,
        hands=hands,
        boneyard=rest_of_set((t for t, _ in layout), *hands),
        to_act=0,
        opener=1,
    )
    copy = match.copy()
    assert copy.rounds[-1].earlier_placements == match.rounds[-1].earlier_placements != ()
    assert copy.view(0).layout.placements() == layout == match.view(1).layout.placements()
    position = match.position()
    assert position is not None and engine.unpack(position).pending == -1
    search = engine.resume(
        [[t.ordinal for t in hand] for hand in hands],
        list(match.rounds[-1].earlier_placements),
        [],
        0,
        1,
        (0, 0),
        book=False,
    )
    fields = engine.unpack(search)
    assert fields.book is None and fields.free == match.layout.free_mask
    assert fields.shape == engine.unpack(position).shape != 0


def test_an_opening_double_joined_at_line_b_still_counts_both_halves() -> None:
    """R13, R14: a double with one line side joined counts 2 x pip, whichever side it is."""
    layout = Layout()
    layout.place(Tile(3, 3), None)
    layout.place(Tile(3, 4), AttachPoint(Tile(3, 3), "lineB"))
    assert layout.contributions() == [(Tile(3, 3), 6), (Tile(3, 4), 4)]
    assert layout.end_sum == 10 and layout.credit == 10  # R15


def test_a_record_of_no_rounds_replays_to_a_new_match() -> None:
    match = replay({"format": "exact61-match/1", "players": 3, "rounds": [], "scores": [0, 0, 0],
                    "winner": None})  # fmt: skip
    assert match.players == 3 and match.phase is Phase.DEAL and match.rounds == []


def test_a_seat_view_refuses_deletion_too() -> None:
    view = Match(2).view(0)
    with pytest.raises(AttributeError, match=r"^a seat view is immutable: cannot delete 'seat'$"):
        del view.seat
