"""The core's edges that the rule scenarios do not reach: errors and the rule each one names,
copies, positions set up mid-round, predicted credits, the engine's prebuilt tables, record
errors and their locations. Written where mutation testing (docs/figures/test-strength.md) showed
that a wrong core would still pass every other test."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest

from exact61 import (
    ALL_TILES,
    DRAW,
    PASS,
    AttachPoint,
    Deal,
    IllegalMoveError,
    Layout,
    Match,
    Phase,
    Play,
    RecordError,
    RecordFormatError,
    ReplayError,
    RuleError,
    Tile,
    TileEnd,
    display,
    domino_parts,
    match_to_record,
    pip_sum,
    random_deal,
    replay,
    round5,
    side_count,
    side_of,
    tile_from,
)
from exact61.core import engine
from exact61.core.points import ALL_POINTS
from exact61.core.records import dumps, event_to_json, parse_record, verify
from exact61.core.settlement import (
    accepts,
    block_credits,
    block_order,
    opponents_of,
    partner_of,
    tally_marks,
)
from tests.core.scenarios import BLOCK4, DOMINO_A, DOMINO_B, deal_of, play, start
from tests.helpers import T, make_deal, played_match


def at(a: int, b: int, end: str) -> AttachPoint:
    return AttachPoint(T(a, b), TileEnd(end))


def rule_error(rule: str, text: str, fn: Any, *args: Any, **kwargs: Any) -> RuleError:
    """Call fn and require a RuleError naming `rule` with exactly `text` after it."""
    with pytest.raises(RuleError) as err:
        fn(*args, **kwargs)
    assert err.value.rule == rule and str(err.value) == f"{rule}: {text}"
    assert err.value.detail == text
    return err.value


# ---- the engine's tables, read straight from R13/R14 ---------------------------------------


def expected_join(tile: Tile, value: int) -> tuple[TileEnd, AttachPoint, int] | None:
    """R13/R14: the end of `tile` that joins a point of `value`, the point it frees, and what
    the new free end scores (a double on an end counts both halves)."""
    if tile.is_double:
        if value != tile.low:
            return None
        return TileEnd.LINE_A, AttachPoint(tile, "lineB"), 2 * value
    if value == tile.low:
        return TileEnd.LOW, AttachPoint(tile, "high"), tile.high
    if value == tile.high:
        return TileEnd.HIGH, AttachPoint(tile, "low"), tile.low
    return None


def test_the_attach_points_are_every_end_of_every_tile_once() -> None:
    """R13: a non-double has a low and a high end; a double, two line sides and two arms."""
    want = [
        AttachPoint(tile, end)
        for tile in ALL_TILES
        for end in (("lineA", "lineB", "armA", "armB") if tile.is_double else ("high", "low"))
    ]
    assert list(ALL_POINTS) == want and len(want) == 70
    assert [p.ordinal for p in ALL_POINTS] == list(range(70))


@pytest.mark.parametrize("build", [False, True], ids=["module table", "built again"])
def test_each_placements_worked_out_effect_follows_R13_R14(build: bool) -> None:
    """What the engine does for each placement is worked out at import (mutation testing cannot
    reach import-time code, so the builder is also run here): check every entry against R13/R14
    read from the tiles and attach points themselves."""
    stride = engine.MOVE_STRIDE
    table = (
        [engine.placement(t, p) for t in range(28) for p in range(stride)]
        if build
        else engine.PLACEMENTS
    )
    assert len(table) == 28 * stride
    for t, tile in enumerate(ALL_TILES):
        for p, point in enumerate(ALL_POINTS):
            got = table[t * stride + p]
            want = None if point.tile == tile else expected_join(tile, point.value)
            if want is None:
                assert got is None and engine.ACTIONS[t * stride + p] is None, (tile, point)
                continue
            assert got is not None, (tile, point)
            joined, new_end, add = want
            scored = point.end in (TileEnd.HIGH, TileEnd.LOW)  # R14: it stops scoring
            assert (got.tile, got.point, got.value) == (t, 1 << p, point.value)
            assert got.joined is joined
            assert got.flip == 1 << p | 1 << new_end.ordinal and got.point_index == p
            assert got.opens == ((new_end.value, new_end.ordinal),)
            assert got.new_values == 1 << new_end.value
            assert got.delta == add - (point.value if scored else 0)
            if point.end in (TileEnd.LINE_A, TileEnd.LINE_B):  # R13: the arms open later
                other = "lineB" if point.end is TileEnd.LINE_A else "lineA"
                assert got.other_line == 1 << AttachPoint(point.tile, other).ordinal
                arms = [AttachPoint(point.tile, arm).ordinal for arm in ("armA", "armB")]
                assert got.arm_points == tuple(arms) and got.arms == sum(1 << q for q in arms)
            else:
                assert got.other_line == got.arms == 0 and got.arm_points == ()
            assert engine.ACTIONS[t * stride + p] == Play(tile, point)
        opening = table[t * stride + engine.OPENING]
        assert opening is not None
        ends = ("lineA", "lineB") if tile.is_double else ("high", "low")
        free = sorted(AttachPoint(tile, end).ordinal for end in ends)
        assert opening.point == 0 and opening.point_index == -1
        assert opening.flip == sum(1 << q for q in free)
        assert opening.opens == tuple((ALL_POINTS[q].value, q) for q in free)
        assert opening.delta == (2 * tile.low if tile.is_double else tile.pips)  # R14
        assert opening.new_values == (1 << tile.low | 1 << tile.high)
        assert engine.ACTIONS[t * stride + engine.OPENING] == Play(tile, None)


def test_every_move_is_the_action_it_names_and_back() -> None:
    for move, action in enumerate(engine.ACTIONS):
        if action is not None:
            assert engine.move_of(action) == move and engine.action_of(move) is action
    assert engine.ACTIONS[engine.DRAW] == DRAW and engine.ACTIONS[engine.PASS] == PASS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_dealt_rounds_log_starts_empty_and_grows_with_the_round(players: int) -> None:
    deal = random_deal(random.Random(players), players)
    match = Match(players)
    match.start_round(deal, 1)
    log = match.rounds[-1]
    assert log.start_sizes is None and log.end is None and log.deal == deal
    assert list(log.steps) == list(log.public) == [] and log.draws == [[]] * players
    match.apply(match.legal_actions()[0])
    assert log.public == log.steps and len(log.steps) == 1 and log.steps[0].seat == 1


def test_no_credit_can_pass_the_play_event_table() -> None:
    """R14: the end sum never exceeds every tile's pips together (each tile on the table scores
    at most its own pips), the bound the table of placement events is built to."""
    assert engine.MAX_END_SUM == sum(t.pips for t in ALL_TILES) == 168
    worst = 0
    for seed in range(200):
        rng = random.Random(seed)
        match = Match(4)
        while not match.is_over:
            match.deal_next_round(rng)
            while match.to_act is not None:
                match.apply(max(match.legal_actions(), key=match.credit_of))
                worst = max(worst, match.layout.end_sum) if match.to_act is not None else worst
    assert 0 < worst <= engine.MAX_END_SUM
    assert len(engine.PLAY_EVENTS[0][0]) * 5 > engine.MAX_END_SUM


# ---- errors name their rule ----------------------------------------------------------------


def test_match_and_deal_construction_errors() -> None:
    rule_error("R2", "Exact 61 Five Up is for 2, 3 or 4 players, not 5", Match, 5)
    rule_error("R2", "4 players make 2 sides", Match, 4, scores=[0, 0, 0])
    rule_error(
        "R3", "a starting raw score is a multiple of 5 below 305, not 7", Match, 2, scores=[7, 0]
    )
    rule_error(
        "R3",
        "a starting raw score is a multiple of 5 below 305, not 305",
        Match,
        2,
        scores=[0, 305],
    )
    rule_error(
        "R3",
        "a starting raw score is a multiple of 5 below 305, not 5.0",
        Match,
        2,
        scores=[5.0, 0],
    )
    assert Match(3, scores=[300, 0, 5]).scores == (300, 0, 5)
    assert Match(4).scores == (0, 0) and Match(4).phase is Phase.DEAL
    deal = random_deal(random.Random(1), 2)
    rule_error("R2", "a deal is for 2, 3 or 4 players, not 1", Deal, deal.hands[:1], deal.boneyard)
    short = (deal.hands[0][:4], deal.hands[1])
    rule_error("R5", "seat 0 is dealt 4 tiles, not 5", Deal, short, deal.boneyard)
    bad = ((*deal.hands[0][:4], (0, 0)), deal.hands[1])
    rule_error("R1", "(0, 0) is not a tile", Deal, bad, deal.boneyard)
    twice = (deal.hands[0], (*deal.hands[1][:4], deal.hands[0][0]))
    rule_error(
        "R5",
        "hands and boneyard must hold each of the 28 tiles exactly once",
        Deal,
        twice,
        deal.boneyard,
    )
    rule_error(
        "R2", "Exact 61 Five Up is for 2, 3 or 4 players, not 1", random_deal, random.Random(1), 1
    )


def test_deal_is_a_value() -> None:
    a = random_deal(random.Random(3), 3)
    b = Deal(a.hands, a.boneyard)
    assert a == b and hash(a) == hash(b) and a.players == b.players == 3
    assert Deal(a.hands[::-1], a.boneyard) != a  # same players, other order
    c = random_deal(random.Random(3), 4)
    assert c != a  # other players, and so another deal
    assert a != "deal" and len({a, b, c}) == 2
    assert eval(repr(a), {"Deal": Deal, "Tile": Tile}) == a
    assert len(random_deal(random.Random(1), 4).boneyard) == 8
    assert pickle.loads(pickle.dumps(a)) == a


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_match_in_play_pickles_and_plays_on_alike(players: int) -> None:
    """A match with dealt rounds crosses a process boundary (a worker pool) whole."""
    match, rng = Match(players), random.Random(players)
    again: Match | None = None
    while not match.is_over:
        chance = copy.deepcopy(rng)
        match.deal_next_round(rng)
        if again is not None:
            again.deal_next_round(chance)
        while match.to_act is not None:
            if again is None and len(match.rounds) == 2:  # a round settled and one in play
                again = pickle.loads(pickle.dumps(match))
                same_state(match, again)
            action = rng.choice(match.legal_actions())
            match.apply(action)
            if again is not None:
                again.apply(action)
    assert again is not None
    same_state(match, again)


def test_start_round_errors() -> None:
    match = Match(2)
    deal = random_deal(random.Random(2), 2)
    rule_error(
        "R2",
        "the deal is for 3 players, not 2",
        match.start_round,
        random_deal(random.Random(2), 3),
        0,
    )
    rule_error("R2", "no seat 2 among 2 players", match.start_round, deal, 2)
    rule_error("R2", "no seat -1 among 2 players", match.start_round, deal, -1)
    rule_error("R2", "no seat True among 2 players", match.start_round, deal, True)
    match.start_round(deal, 1)
    assert match.to_act == 1 and match.rounds[-1].opener == 1 and match.rounds[-1].deal == deal
    assert match.hand(0) == deal.hands[0] and match.boneyard_size == 18
    rule_error("R5", "a round is still in play", match.start_round, deal, 0)
    won = start(DOMINO_B, 4, scores=[0, 280])
    play(won, DOMINO_B)
    assert won.is_over and won.required_opener is None  # a match won by domino needs no opener
    rule_error("R30", "the match is over", won.start_round, deal_of(DOMINO_A), 3)


def test_illegal_actions_name_their_rule() -> None:
    match = Match(2)
    rule_error("R5", "no round is in play: the next round must be dealt", match.apply, DRAW)
    deal = make_deal(
        [[(0, 0), (1, 2), (1, 3), (2, 3), (3, 3)], [(4, 4), (4, 5), (5, 5), (5, 6), (6, 6)]],
        boneyard=[(1, 1), (0, 1)],
    )
    match.start_round(deal, 0)
    # On an empty layout every tile fits (R7): drawing and passing are refused.
    rule_error("R10", "seat 0 holds a legal play and may not draw", match.apply, DRAW)
    rule_error("R10", "seat 0 holds a legal play and may not pass", match.apply, PASS)
    # A plain pair is not a tile (a pair equal to a held tile compares equal to its Play).
    rule_error("R1", "(4, 4) is not a tile", match.apply, Play((4, 4), None))  # type: ignore[arg-type]
    rule_error("R9", "'draw' is not an action (Play, Draw or Pass)", match.apply, "draw")
    rule_error("R9", "seat 0 does not hold [4|4]", match.apply, Play(T(4, 4), None))
    match.apply(Play(T(0, 0), None))
    match.apply(DRAW)  # seat 1 draws [1|1]: no 0
    match.apply(DRAW)  # [0|1]: playable
    assert match.pending_draw == T(0, 1)
    rule_error(
        "R10",
        "seat 1 drew [0|1] and must place that very tile",
        match.apply,
        Play(T(1, 1), at(0, 0, "lineA")),
    )
    match.apply(Play(T(0, 1), at(0, 0, "lineA")))
    match.apply(Play(T(1, 2), at(0, 1, "high")))  # seat 0
    # Open values 0 and 2; seat 1 holds neither and the boneyard is not empty: it must draw.
    rule_error("R10", "the boneyard is not empty: seat 1 must draw, not pass", match.apply, PASS)


def test_a_drawn_double_zero_is_forced_too() -> None:
    # [0|0] is tile index 0: the pending draw must still be recognised (R10).
    deal = make_deal(
        [[(0, 5), (1, 2), (1, 3), (2, 3), (3, 3)], [(4, 4), (4, 6), (6, 6), (1, 4), (2, 6)]],
        boneyard=[(0, 0), (1, 1)],
    )
    match = Match(2)
    match.start_round(deal, 0)
    match.apply(Play(T(0, 5), None))
    match.apply(DRAW)  # seat 1 holds no 0 or 5: draws [0|0], which fits the 0 end
    assert match.pending_draw == T(0, 0) and match.to_act == 1
    assert match.legal_actions() == [Play(T(0, 0), at(0, 5, "low"))]
    rule_error(
        "R10",
        "seat 1 drew [0|0] and must place that very tile",
        match.apply,
        Play(T(4, 4), at(0, 5, "high")),
    )
    rule_error("R10", "seat 1 holds a legal play and may not draw", match.apply, DRAW)


def test_errors_after_the_match_and_between_rounds() -> None:
    match = start(DOMINO_B, 4, scores=[0, 295])
    play(match, DOMINO_B, upto=7)
    assert match.is_over
    rule_error("R30", "the match is over", match.apply, DRAW)
    between = start(DOMINO_B, 4)
    play(between, DOMINO_B)
    rule_error("R5", "no round is in play: the next round must be dealt", between.apply, PASS)
    assert between.legal_actions() == [] and between.to_act is None


# ---- copies, positions, predicted credits --------------------------------------------------


def same_state(a: Match, b: Match) -> None:
    assert (a.players, a.phase, a.scores, a.winner) == (b.players, b.phase, b.scores, b.winner)
    assert (a.to_act, a.required_opener, a.pending_draw) == (
        b.to_act,
        b.required_opener,
        b.pending_draw,
    )
    if a.rounds:  # a fresh match has no hands yet
        assert [a.hand(s) for s in range(a.players)] == [b.hand(s) for s in range(b.players)]
    assert a.boneyard_size == b.boneyard_size and a.layout == b.layout
    assert a.legal_actions() == b.legal_actions()
    assert len(a.rounds) == len(b.rounds)
    for x, y in zip(a.rounds, b.rounds, strict=True):
        assert (x.deal, x.opener, x.steps, x.events, x.end) == (
            y.deal,
            y.opener,
            y.steps,
            y.events,
            y.end,
        )


@pytest.mark.parametrize("stop", [0, 1, 40, 95, 10_000])
def test_a_copy_is_the_same_match_and_independent(stop: int) -> None:
    rng = random.Random(stop)
    match = Match(3)
    for _ in range(stop):
        if match.is_over:
            break
        if match.to_act is None:
            match.deal_next_round(rng)
        else:
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    twin = match.copy()
    same_state(twin, match)
    before = match_to_record(match) if match.rounds else None
    # Both go on the same way from here, and playing the copy leaves the original alone.
    seed = rng.random()
    a, b = random.Random(seed), random.Random(seed)
    for m, r in ((twin, a), (match, b)):
        for _ in range(60):
            if m.is_over:
                break
            if m.to_act is None:
                m.deal_next_round(r)
            else:
                legal = m.legal_actions()
                m.apply(legal[r.randrange(len(legal))])
        if m is twin and before is not None:
            assert match_to_record(match) == before
    same_state(twin, match)


def test_copy_keeps_the_domino_makers_duty_and_the_round_so_far() -> None:
    match = start(DOMINO_A, 4)
    play(match, DOMINO_A)
    match.start_round(deal_of(BLOCK4), 0)
    play(match, BLOCK4, upto=10)
    twin = match.copy()
    assert twin.rounds[-1].opener == 0 and twin.rounds[-1].events == match.rounds[-1].events
    assert twin.rounds[0] is match.rounds[0]  # finished rounds are shared
    assert twin.rounds[-1].steps is not match.rounds[-1].steps
    play(twin, {**BLOCK4, "actions": BLOCK4["actions"][10:]})
    assert len(match.rounds[-1].steps) == 10 and match.rounds[-1].end is None
    assert twin.scores == (85, 20) and twin.rounds[-1].end is not None


def test_from_position_sets_up_a_round_mid_way() -> None:
    hands = [[T(1, 1), T(2, 2)], [T(3, 3), T(0, 2)]]
    plays = [(T(1, 4), None), (T(4, 4), at(1, 4, "high"))]
    layout = Layout.from_plays(plays)
    used = {*hands[0], *hands[1], T(1, 4), T(4, 4)}
    boneyard = [t for t in ALL_TILES if t not in used]
    built = []
    for table in (layout, plays):
        match = Match.from_position(
            2, layout=table, hands=hands, boneyard=boneyard, to_act=1, opener=0, scores=[5, 10]
        )
        assert match.scores == (5, 10) and match.to_act == 1 and match.rounds[-1].opener == 0
        assert match.layout.placements() == plays and match.hand(1) == (T(3, 3), T(0, 2))
        assert match.boneyard_size == len(boneyard) and match.rounds[-1].deal is None
        assert match.legal_actions() == [DRAW]  # seat 1 holds no 1 nor 4
        assert match.phase is Phase.PLAY and len(match.rounds) == 1
        built.append(match)
    layout.place(T(2, 4), at(4, 4, "lineB"))
    assert len(built[0].layout) == 2  # the position copied the layout it was given
    with pytest.raises(RecordError) as err:
        match_to_record(match)
    assert str(err.value) == "a round set up from a position has no deal to record"
    kwargs: dict[str, Any] = dict(layout=plays, hands=hands, boneyard=boneyard, to_act=0, opener=0)
    rule_error(
        "R2",
        "2 players hold 2 hands, not 1",
        Match.from_position,
        2,
        **{**kwargs, "hands": hands[:1]},
    )
    rule_error(
        "R5",
        "layout, hands and boneyard must hold each tile exactly once",
        Match.from_position,
        2,
        **{**kwargs, "boneyard": boneyard[1:]},
    )
    rule_error(
        "R5",
        "layout, hands and boneyard must hold each tile exactly once",
        Match.from_position,
        2,
        **{**kwargs, "boneyard": [*boneyard[1:], boneyard[2]]},
    )
    rule_error("R2", "no seat 2 among 2 players", Match.from_position, 2, **{**kwargs, "to_act": 2})
    rule_error(
        "R2", "no seat -1 among 2 players", Match.from_position, 2, **{**kwargs, "opener": -1}
    )
    empty = [[], [T(3, 3), T(0, 2), T(1, 1), T(2, 2)]]
    rule_error(
        "R18",
        "a seat without tiles has made domino: the round is over",
        Match.from_position,
        2,
        **{**kwargs, "hands": empty},
    )
    rule_error(
        "R10",
        "[2|2] is not a playable tile of seat 0",
        Match.from_position,
        2,
        **{**kwargs, "pending_draw": T(2, 2)},
    )
    rule_error(
        "R10",
        "[1|3] is not a playable tile of seat 0",
        Match.from_position,
        2,
        **{**kwargs, "pending_draw": T(1, 3)},
    )
    played = built[1]
    played.apply(DRAW)  # the round goes on from the position, logged as usual
    assert played.rounds[-1].steps[-1].seat == 1 and played.boneyard_size == len(boneyard) - 1
    pending = Match.from_position(2, **{**kwargs, "pending_draw": T(1, 1)})

    assert pending.pending_draw == T(1, 1)
    assert pending.legal_actions() == [Play(T(1, 1), at(1, 4, "low"))]


@pytest.mark.parametrize("drawn", [T(0, 0), T(0, 3)])  # [0|0] is tile index 0
def test_a_drawn_tile_is_the_only_one_that_may_be_placed(drawn: Tile) -> None:
    # R10: once a drawn tile is playable, that very tile is placed, never a different tile from
    # hand, even where a position set up by hand gives the seat other tiles that would fit.
    hands = [[T(0, 0), T(0, 3), T(2, 5)], [T(4, 4), T(4, 6)]]
    used = {*hands[0], *hands[1], T(0, 5)}
    match = Match.from_position(
        2,
        layout=[(T(0, 5), None)],  # free: [0|5] high (5) and low (0)
        hands=hands,
        boneyard=[t for t in ALL_TILES if t not in used],
        to_act=0,
        opener=1,
        pending_draw=drawn,
    )
    assert match.legal_actions() == [Play(drawn, at(0, 5, "low"))]
    other = T(2, 5)  # fits [0|5] high, but was not the tile drawn
    rule_error(
        "R10",
        f"seat 0 drew {drawn} and must place that very tile",
        match.apply,
        Play(other, at(0, 5, "high")),
    )
    match.apply(Play(drawn, at(0, 5, "low")))
    assert match.pending_draw is None and match.to_act == 1


def test_predicted_credits_equal_the_credits_of_placing() -> None:
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        match = Match(2 + seed % 3)
        match.deal_next_round(rng)
        while match.to_act is not None:
            legal = match.legal_actions()
            credits = match.legal_credits()
            assert len(credits) == len(legal)
            for action, credit in zip(legal, credits, strict=True):
                assert match.credit_of(action) == credit
                if isinstance(action, Play):
                    after = match.layout.copy()  # the match hands its own out read-only
                    placed = after.place(action.tile, action.at)
                    assert credit == placed == match.layout.credit_after(action.tile, action.at)
                    checked += 1
                else:
                    assert credit == 0
            match.apply(legal[rng.randrange(len(legal))])
    assert checked > 500
    layout = Layout()
    for tile, credit in (((5, 5), 10), ((0, 5), 5), ((1, 1), 0), ((2, 3), 5), ((0, 0), 0)):
        assert Layout().credit_after(T(*tile), None) == credit
    layout.place(T(5, 5), None)  # an opening double: a line side joined still counts 10
    assert layout.credit_after(T(0, 5), at(5, 5, "lineA")) == 10
    assert layout.credit_after(T(3, 5), at(5, 5, "lineA")) == 0  # 10 + 3
    layout.place(T(0, 5), at(5, 5, "lineA"))
    assert layout.credit_after(T(5, 6), at(5, 5, "lineB")) == 0  # interior: 0 + 6
    assert layout.credit_after(T(4, 5), at(5, 5, "lineB")) == 0  # 0 + 4
    assert layout.credit_after(T(2, 5), at(5, 5, "lineB")) == 0  # 0 + 2
    layout.place(T(5, 6), at(5, 5, "lineB"))
    assert layout.credit_after(T(4, 5), at(5, 5, "armA")) == 10  # 0 + 6 + 4
    assert len(layout) == 3
    with pytest.raises(IllegalMoveError, match="R13"):
        layout.credit_after(T(3, 5), at(3, 3, "lineA"))
    match = start(DOMINO_B, 4)
    with pytest.raises(IllegalMoveError, match=r"^R9: seat 3 does not hold"):
        match.credit_of(Play(T(2, 6), None))


def test_layout_questions() -> None:
    layout = Layout()
    assert layout.points_for(T(1, 4)) == [] and not layout.accepts(1) and T(1, 4) not in layout
    assert layout.last_placed is None and layout.joins() == [] and layout.placements() == []
    layout.place(T(0, 1), None)  # [0|1] is a low tile index: the opening is not a join
    layout.place(T(0, 0), at(0, 1, "low"))
    assert layout.placements() == [(T(0, 1), None), (T(0, 0), at(0, 1, "low"))]
    assert layout.joins() == [(at(0, 1, "low"), at(0, 0, "lineA"))]
    assert T(0, 1) in layout and T(0, 0) in layout and T(1, 1) not in layout
    assert (0, 0) not in layout and "x" not in layout  # only tiles are on the table
    assert layout.points_for(T(0, 6)) == [at(0, 0, "lineB")]
    assert layout.points_for(T(1, 6)) == [at(0, 1, "high")]
    assert layout.accepts(0) and layout.accepts(1) and not layout.accepts(2)
    assert layout.open_values == 0b11 and layout.last_placed == T(0, 0)
    assert layout.copy() == layout and layout.copy() is not layout and layout != "layout"
    twin = layout.copy()
    twin.place(T(0, 5), at(0, 0, "lineB"))
    assert (
        len(layout) == 2
        and layout.is_free(at(0, 0, "lineB"))
        and not twin.is_free(at(0, 0, "lineB"))
    )
    assert twin.open_values == 0b100011 and twin.accepts(0)  # the arms of [0|0] accept 0
    with pytest.raises(TypeError):
        hash(layout)


def test_arranged_draws_refuse_tiles_already_drawn_and_between_rounds() -> None:
    deal = make_deal(
        [[(0, 0), (1, 2), (1, 3), (2, 3), (3, 3)], [(4, 4), (4, 5), (5, 5), (5, 6), (6, 6)]],
        boneyard=[(1, 1), (2, 2), (0, 5)],
    )
    match = Match(2)
    rule_error("R5", "no round is in play", match.arrange_next_draw, T(1, 1))
    match.start_round(deal, 0)
    match.apply(Play(T(0, 0), None))
    match.apply(DRAW)  # [1|1], now in seat 1's hand
    rule_error("R5", "[1|1] is not in the boneyard", match.arrange_next_draw, T(1, 1))
    match.arrange_next_draw(T(0, 5))
    match.apply(DRAW)
    assert match.pending_draw == T(0, 5)
    assert match.rounds[-1].deal is not None and match.rounds[-1].deal.boneyard[:2] == (
        T(1, 1),
        T(0, 5),
    )


# ---- small pure functions ------------------------------------------------------------------


def test_settlement_functions() -> None:
    assert type(display(185)) is int and display(185) == 37 and display(-10) == -2
    assert tally_marks(185) == (3, 7) and all(type(n) is int for n in tally_marks(185))
    assert tally_marks(-55) == (1, 1)
    assert accepts(300, 5) and not accepts(300, 10) and accepts(0, -5)
    assert [side_count(n) for n in (2, 3, 4)] == [2, 3, 2]
    assert [side_of(3, s) for s in range(3)] == [0, 1, 2] and side_of(2, 1) == 1
    assert [partner_of(4, s) for s in range(4)] == [2, 3, 0, 1]
    assert partner_of(3, 1) is None and partner_of(2, 0) is None
    assert (
        opponents_of(4, 1) == (0, 2) and opponents_of(3, 1) == (0, 2) and opponents_of(2, 0) == (1,)
    )
    with pytest.raises(ValueError, match="R17"):
        round5(-1)
    assert pip_sum([T(1, 4), T(6, 6)]) == 17 and pip_sum([]) == 0
    parts = domino_parts(3, 1, (8, 0, 4), 10)  # two opponents: 12 -> 10, no partner
    assert (parts.opponents_pips, parts.opponents_raw, parts.partner_pips, parts.partner_raw) == (
        12,
        10,
        0,
        0,
    )
    assert parts.net == 20 and parts.play_raw == 10
    parts = domino_parts(4, 2, (3, 4, 0, 9), 5)  # opponents 4 + 9 = 13 -> 15; partner 3 -> 5
    assert (parts.opponents_pips, parts.opponents_raw, parts.partner_pips, parts.partner_raw) == (
        13,
        15,
        3,
        5,
    )
    assert parts.net == 15
    # R21/R22 for two players: the lighter hand takes the rounded difference; ties by the opener.
    assert [(c.seat, c.pips, c.difference, c.raw) for c in block_credits(2, 1, (9, 2))] == [
        (1, 2, 7, 5),
        (0, 9, 0, 0),
    ]
    assert block_order(3, 2, (5, 5, 5)) == [2, 0, 1] and block_order(4, 1, (3, 3, 1, 3)) == [
        2,
        1,
        3,
        0,
    ]


def test_tile_from() -> None:
    assert tile_from([2, 5]) == T(2, 5) and tile_from((0, 0)) == T(0, 0)
    tile = T(1, 1)
    assert tile_from(tile) is tile
    for bad in ([1, 2, 3], "12", 5, None):
        rule_error("R1", f"a tile is written [low, high], not {bad!r}", tile_from, bad)
    rule_error("R1", "tile pips must be whole numbers, not 1.0 and 2", tile_from, [1.0, 2])
    assert T(3, 4).ordinal == ALL_TILES.index(T(3, 4)) and T(3, 4).pips == 7
    assert (
        at(3, 4, "low").value == 3 and at(3, 4, "high").value == 4 and at(4, 4, "armA").value == 4
    )
    assert at(3, 4, "low").ordinal == ALL_POINTS.index(at(3, 4, "low"))
    assert at(3, 4, "high").ordinal + 1 == at(3, 4, "low").ordinal  # high before low


# ---- record errors and their place ---------------------------------------------------------


def record_of_a_match(players: int = 2, seed: int = 5) -> dict[str, Any]:
    return match_to_record(played_match(players, seed, ["greedy"] * players), seed=seed)


def replay_error(record: Any, **where: Any) -> RecordError:
    text = record if isinstance(record, (str, bytes)) else json.dumps(record)
    with pytest.raises(RecordError) as err:
        replay(text)
    for name, value in where.items():
        assert getattr(err.value, name) == value, (name, str(err.value))
    return err.value


def test_record_error_text_location_and_pickling() -> None:
    err = ReplayError("it broke", match=2, round=1, action=0)
    assert str(err) == "match 2, round 1, action 0: it broke" and err.message == "it broke"
    assert str(RecordError("bad")) == "bad" and str(RecordError("bad", round=3)) == "round 3: bad"
    assert str(RecordError("bad", action=4)) == "action 4: bad"
    located = ReplayError("x", round=1, action=2).located(match=7)
    assert type(located) is ReplayError and str(located) == "match 7, round 1, action 2: x"
    assert (located.match, located.round, located.action, located.message) == (7, 1, 2, "x")
    again = pickle.loads(pickle.dumps(located))
    assert type(again) is ReplayError and str(again) == str(located)
    assert (again.match, again.round, again.action, again.message) == (7, 1, 2, "x")
    rule = RuleError("R9", "no")
    assert rule.rule == "R9" and rule.detail == "no" and str(rule) == "R9: no"


def test_replay_names_each_disagreement() -> None:
    base = record_of_a_match()
    rec = copy.deepcopy(base)
    rec["rounds"][1]["hands"][0][0] = rec["rounds"][1]["hands"][1][0]
    err = replay_error(rec, round=1, action=None)
    assert str(err) == "round 1: R5: hands and boneyard must hold each of the 28 tiles exactly once"
    rec = copy.deepcopy(base)
    first = rec["rounds"][0]["actions"][0]
    first["seat"] = 1 - first["seat"]
    err = replay_error(rec, round=0, action=0)
    assert (
        str(err) == f"round 0, action 0: R2: seat {first['seat']} acts, but it is seat "
        f"{1 - first['seat']}'s turn"
    )
    rec = copy.deepcopy(base)
    r, a = next(
        (r, a)
        for r, rnd in enumerate(rec["rounds"])
        for a, x in enumerate(rnd["actions"])
        if x["type"] == "draw"
    )
    del rec["rounds"][r]["actions"][a]["tile"]
    assert str(replay_error(rec, round=r, action=a)).endswith("R5: a draw names the tile drawn")
    rec = copy.deepcopy(base)
    drawn = rec["rounds"][r]["actions"][a]["tile"]
    other = next(t for t in rec["rounds"][r]["boneyard"] if t != drawn)
    rec["rounds"][r]["actions"][a]["tile"] = other
    err = replay_error(rec, round=r, action=a)
    assert str(err).endswith(
        f"R5: wrong draw: the boneyard's next tile is {Tile(*drawn)}, not {Tile(*other)}"
    )
    rec = copy.deepcopy(base)
    play_at = next(a for a, x in enumerate(rec["rounds"][0]["actions"]) if x["type"] == "play")
    del rec["rounds"][0]["actions"][play_at]["tile"]
    assert str(replay_error(rec, round=0, action=play_at)).endswith("R9: a play names its tile")
    rec = copy.deepcopy(base)
    play_at = next(
        a for a, x in enumerate(rec["rounds"][0]["actions"]) if x["type"] == "play" and x["at"]
    )
    rec["rounds"][0]["actions"][play_at]["at"][1] = 3
    assert str(replay_error(rec, round=0, action=play_at)).endswith(
        "R13: an attach point's side is a name, not 3"
    )


def test_replay_checks_every_event_and_the_end() -> None:
    base = record_of_a_match()
    r = next(i for i, rnd in enumerate(base["rounds"]) if len(rnd["events"]) >= 2)
    n = len(base["rounds"][r]["actions"])
    rec = copy.deepcopy(base)
    dropped = rec["rounds"][r]["events"].pop()
    err = replay_error(rec, round=r)
    assert "the record lacks event" in str(err) and f"kind={dropped['kind']}" in str(err)
    rec = copy.deepcopy(base)
    rec["rounds"][r]["events"].append(copy.deepcopy(rec["rounds"][r]["events"][-1]))
    err = replay_error(rec, round=r, action=n - 1)
    assert str(err).endswith("the record has 1 events the play does not produce")
    rec = copy.deepcopy(base)
    rec["rounds"][r]["events"][0]["seat"] = 1 - rec["rounds"][r]["events"][0]["seat"]
    assert "event 0 should be kind=" in str(replay_error(rec, round=r))
    assert ", seat=" in str(replay_error(rec, round=r))
    rec = copy.deepcopy(base)
    rec["rounds"][0]["end"] = None
    kind = base["rounds"][0]["end"]["kind"]
    assert (
        str(replay_error(rec, round=0, action=None))
        == f"round 0: {RULE_OF_END[kind]}: the round ends by {kind}; the record says no end"
    )
    rec = copy.deepcopy(base)
    rec["scores"] = [*rec["scores"], 0]
    assert str(replay_error(rec, round=None)) == "R2: scores has 3 entries; there are 2 sides"
    rec = copy.deepcopy(base)
    rec["winner"] = None
    assert str(replay_error(rec)) == f"R30: the winner is side {base['winner']}, not None"


RULE_OF_END = {"domino": "R18", "block": "R11", "target": "R30"}  # how a round ends


def test_unfinished_record_with_an_event_too_many() -> None:
    match = start(DOMINO_B, 4)
    play(match, DOMINO_B, upto=7)
    rec = match_to_record(match)
    assert rec["winner"] is None and rec["rounds"][0]["end"] is None
    assert replay(json.dumps(rec)).rounds[0].steps == match.rounds[0].steps
    rec["rounds"][0]["events"].append(copy.deepcopy(rec["rounds"][0]["events"][0]))
    err = replay_error(rec, round=0, action=7)
    assert str(err) == "round 0, action 7: R15: the record has 1 events too many"
    rec = match_to_record(match)
    rec["rounds"][0]["actions"].pop()  # seat 1's credit of 10 is now missing from play
    err = replay_error(rec, round=0, action=6)
    assert str(err) == "round 0, action 6: R15: the record has 1 events too many"
    finished = match_to_record(match)
    finished["winner"] = 0  # claims a winner: the round must have ended
    err = replay_error(finished, round=0, action=7)
    assert (
        str(err)
        == "round 0, action 7: R11, R18: the round has not ended after its last action; seat 2 "
        "is to act"
    )


def test_replay_stop_after_and_its_errors() -> None:
    base = record_of_a_match()
    stopped = replay(json.dumps(base), stop_after=(1, 3))
    assert len(stopped.rounds) == 2 and len(stopped.rounds[1].steps) == 4
    assert stopped.rounds[0].end is not None and stopped.phase is Phase.PLAY
    first = replay(json.dumps(base), stop_after=(0, 0))
    assert len(first.rounds) == 1 and len(first.rounds[0].steps) == 1
    rounds = len(base["rounds"])
    with pytest.raises(RecordError) as err:
        replay(json.dumps(base), stop_after=(rounds, 0))
    assert str(err.value) == f"no round {rounds}: the match has {rounds} (0 to {rounds - 1})"
    with pytest.raises(RecordError) as err:
        replay(json.dumps(base), stop_after=(-1, 0))
    assert str(err.value).startswith("no round -1")
    actions = len(base["rounds"][1]["actions"])
    with pytest.raises(RecordError) as err:
        replay(json.dumps(base), stop_after=(1, actions))
    assert (
        str(err.value)
        == f"round 1: no action {actions}: round 1 has {actions} (0 to {actions - 1})"
    )
    assert err.value.round == 1
    dealt = replay(json.dumps(base), stop_after=(1, -1))  # right after round 1's deal
    assert len(dealt.rounds) == 2 and not dealt.rounds[1].steps and dealt.phase is Phase.PLAY
    assert [len(dealt.hand(seat)) for seat in range(dealt.players)] == [
        len(hand) for hand in base["rounds"][1]["hands"]
    ]
    with pytest.raises(RecordError, match="no action -2"):
        replay(json.dumps(base), stop_after=(1, -2))


def test_format_errors_say_what_is_wrong_for_the_edges_to_translate() -> None:
    base = record_of_a_match()
    cases: list[tuple[Any, tuple[str, str, str]]] = [
        ("{", ("json", "", "")),
        ([1], ("object", "", "")),
        ({k: v for k, v in base.items() if k != "players"}, ("missing", "players", "")),
        ({**base, "players": 5}, ("value", "players", "5")),
        ({**base, "format": "x"}, ("value", "format", '"x"')),
        ({**base, "seed": "many"}, ("number", "seed", "")),
        ({**base, "rounds": 3}, ("list", "rounds", "")),
    ]
    for data, (problem, field, value) in cases:
        text = data if isinstance(data, str) else json.dumps(data)
        with pytest.raises(RecordFormatError) as caught:
            parse_record(text)
        err = pickle.loads(pickle.dumps(caught.value.located(match=2)))
        assert isinstance(err, RecordFormatError) and err.match == 2
        said = (err.problem, err.field, err.value if problem != "json" else "")
        assert said == (problem, field, value), text[:60]
    with pytest.raises(RecordFormatError) as caught:
        parse_record("{")
    assert "line 1 column" in caught.value.value
    with pytest.raises(RecordFormatError) as caught:
        parse_record(json.dumps({**base, "format": "x" * 5000}))
    assert caught.value.value == '"' + "x" * 38 + "…"  # quoted in part: an error is one line


def test_format_errors_name_the_field_and_place() -> None:
    base = record_of_a_match()
    rec = copy.deepcopy(base)
    rec["rounds"][1] = 5
    err = replay_error(rec, round=1, action=None)
    assert isinstance(err, RecordFormatError) and "Input should be" in str(err)
    rec = copy.deepcopy(base)
    rec["rounds"][0]["actions"][3] = 7
    err = replay_error(rec, round=0, action=3)
    rec = copy.deepcopy(base)
    rec["rounds"][0]["end"]["kind"] = "won"
    err = replay_error(rec, round=0, action=None)
    assert str(err).startswith("round 0: field 'end.kind': Input should be")
    rec = copy.deepcopy(base)
    rec["players"] = 5
    err = replay_error(rec, round=None, action=None)
    assert str(err).startswith("field 'players': Input should be 2, 3 or 4")
    assert parse_record(dumps(base)) == parse_record(base)
    assert parse_record(dumps(base).encode()).players == 2
    assert dumps({"a": [1, 2]}) == '{"a":[1,2]}'
    with pytest.raises(RecordFormatError):
        verify("[]")
    assert verify(dumps(base)).scores == tuple(base["scores"])


def test_records_carry_extra_fields_and_event_details() -> None:
    match = start(BLOCK4, 4)
    play(match, BLOCK4)
    rec = match_to_record(match, extra={"bots": ["a", "b", "c", "d"]}, seed=3)
    assert rec["bots"] == ["a", "b", "c", "d"] and rec["seed"] == 3
    assert list(rec) == ["format", "players", "seed", "bots", "rounds", "scores", "winner"]
    assert rec["rounds"][0]["end"] == {
        "kind": "block",
        "round_winner": 0,
        "hand_pips": [2, 10, 10, 16],
    }
    blocks = [e for e in rec["rounds"][0]["events"] if e["kind"] == "block"]
    assert blocks[0] == {
        "kind": "block",
        "seat": 0,
        "side": 0,
        "raw": 20,
        "accepted": True,
        "pips": 2,
        "difference": 22,
    }
    assert "seed" not in match_to_record(match)
    domino = start(DOMINO_A, 4)
    play(domino, DOMINO_A)
    assert event_to_json(domino.rounds[0].events[-1]) == {
        "kind": "domino",
        "seat": 0,
        "side": 0,
        "raw": -10,
        "accepted": True,
        "play_raw": 0,
        "opponents_raw": 0,
        "partner_raw": 10,
        "opponents_pips": 1,
        "partner_pips": 12,
    }


def test_views_before_the_first_round_and_of_passes() -> None:
    fresh = Match(2)
    view = fresh.view(1)
    assert (view.history, view.events, view.legal_actions) == ((), (), ())
    assert view.layout.placements() == [] and view.opener is None and view.round_end is None
    assert view.round_index == -1 and view.to_act is None and view.pending_draw is None
    with pytest.raises(ValueError) as err:
        fresh.view(2)
    assert str(err.value) == "R2: no seat 2 among 2 players"
    with pytest.raises(ValueError, match="no seat -1"):
        fresh.view(-1)
    match = start(BLOCK4, 4)
    play(match, BLOCK4)  # ends with seat 3's pass
    last = match.view(0).history[-1]
    assert (last.seat, last.kind, last.play, last.drawn) == (3, "pass", None, None)
    assert match.view(0).draw_counts() == (1, 4, 1, 2)


def test_random_deals_differ_by_seed() -> None:
    deals = {random_deal(random.Random(s), 2) for s in range(20)}
    assert len(deals) == 20
    first_tiles = {random_deal(random.Random(s), 4).hands[0][0] for s in range(200)}
    assert len(first_tiles) > 20  # every tile can come first


def test_layout_placement_errors() -> None:
    layout = Layout()
    rule_error(
        "R7",
        "the layout is empty: the opening tile attaches to nothing",
        layout.place,
        T(1, 4),
        at(1, 1, "lineA"),
    )
    layout.place(T(1, 4), None)
    rule_error(
        "R9",
        "the layout is already open: [4|4] must attach to a free attach point",
        layout.place,
        T(4, 4),
        None,
    )
    rule_error("R1", "[1|4] is already on the table", layout.place, T(1, 4), at(1, 4, "low"))
    layout.place(T(4, 4), at(1, 4, "high"))
    rule_error("R1", "[4|4] is already on the table", layout.place, T(4, 4), at(1, 4, "low"))
    rule_error(
        "R9", "[2|3] has no half matching [4|4] lineB (4)", layout.place, T(2, 3), at(4, 4, "lineB")
    )
