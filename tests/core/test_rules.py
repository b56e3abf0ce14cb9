"""A test per rule of SPEC.md, named with its number, with scripted scenarios and exact scores.

The expected numbers are worked out by hand from the rules in the comments, never copied from
the engine's output.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from exact61 import (
    ALL_TILES,
    DRAW,
    PASS,
    AttachPoint,
    BlockEvent,
    DominoEvent,
    IllegalMoveError,
    Layout,
    Match,
    Phase,
    Play,
    PlayEvent,
    RuleError,
    Tile,
    TileEnd,
    block_winner,
    display,
    draw_lot,
    free_end,
    random_deal,
    round5,
    side_of,
)
from exact61.core.settlement import tally_marks
from tests.core.scenarios import BLOCK3, BLOCK4, DOMINO_A, DOMINO_B, TIED3, action_of, play, start
from tests.helpers import T, make_deal


def at(a: int, b: int, end: str) -> AttachPoint:
    return AttachPoint(T(a, b), TileEnd(end))


def place(
    layout: Layout, tile: tuple[int, int], host: tuple[int, int] | None = None, end: str = ""
) -> int:
    return layout.place(T(*tile), None if host is None else at(*host, end))


# ---- Equipment, sides, target -------------------------------------------------------------


def test_R01_double_six_set_of_28_tiles_written_low_first() -> None:
    assert len(ALL_TILES) == len(set(ALL_TILES)) == 28
    assert all(0 <= t.low <= t.high <= 6 for t in ALL_TILES)
    assert str(Tile(1, 4)) == "[1|4]"
    assert eval(repr(Tile(1, 4))) == Tile(1, 4)
    with pytest.raises(RuleError, match=r"^R1: .*low pip first"):
        Tile(4, 1)
    with pytest.raises(RuleError, match=r"^R1: "):
        Tile(0, 7)


def test_R02_seats_sides_and_partnerships() -> None:
    assert [side_of(4, s) for s in range(4)] == [0, 1, 0, 1]  # partners sit opposite
    assert [side_of(3, s) for s in range(3)] == [0, 1, 2]
    assert len(Match(4).scores) == 2 and len(Match(3).scores) == 3 and len(Match(2).scores) == 2
    with pytest.raises(RuleError, match=r"^R2: "):
        Match(5)
    # Play passes clockwise: in a scripted round every action's seat follows the previous one.
    match = start(BLOCK4, 4)
    assert match.to_act == 0
    match.apply(action_of(BLOCK4["actions"][0]))
    assert match.to_act == 1


def test_R03_raw_and_display_points() -> None:
    assert display(5) == 1 and display(185) == 37 and display(305) == 61


def test_R04_rejected_event_leaves_the_score_and_play_goes_on() -> None:
    # DOMINO_B: at action 6 seat 1 (side 1) earns a credit of 10. From 300 it would pass 305.
    match = start(DOMINO_B, 4, scores=[0, 300])
    events = play(match, DOMINO_B, upto=7)
    assert events[-1] == PlayEvent(seat=1, side=1, raw=10, accepted=False)
    assert match.scores == (5, 300)  # seat 2's earlier credit of 5 went through
    assert match.phase is Phase.PLAY and match.to_act == 2


# ---- Dealing and turns --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R05_five_tiles_each_and_the_rest_in_the_boneyard(players: int) -> None:
    deal = random_deal(random.Random(players), players)
    assert [len(h) for h in deal.hands] == [5] * players
    assert len(deal.boneyard) == 28 - 5 * players
    assert sorted([t for h in deal.hands for t in h] + list(deal.boneyard)) == list(ALL_TILES)
    with pytest.raises(RuleError, match=r"^R5: "):
        type(deal)(deal.hands, deal.boneyard[:-1])


def test_R06_first_opener_by_neutral_uniform_lot() -> None:
    rng = random.Random(6)
    counts = Counter(draw_lot(rng, 4) for _ in range(8000))
    assert set(counts) == {0, 1, 2, 3}
    assert all(1800 < n < 2200 for n in counts.values()), counts
    # The match draws its first opener by lot from the source it is given.
    a, b = random.Random(11), random.Random(11)
    match = Match(3)
    match.deal_next_round(a)
    assert match.rounds[0].opener == draw_lot(b, 3)


def test_R07_opener_may_play_any_tile() -> None:
    deal = make_deal(
        [[(0, 1), (2, 2), (3, 5), (4, 6), (6, 6)], [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)]]
    )
    match = Match(2)
    match.start_round(deal, 0)
    assert match.legal_actions() == [Play(t, None) for t in deal.hands[0]]
    with pytest.raises(IllegalMoveError, match=r"^R7: "):
        match.apply(Play(T(0, 1), at(1, 1, "lineA")))


def test_R08_domino_maker_opens_next_round_and_after_a_block_a_lot() -> None:
    match = start(DOMINO_A, 4)
    play(match, DOMINO_A)
    assert match.phase is Phase.DEAL and match.required_opener == 0
    deal = random_deal(random.Random(8), 4)
    with pytest.raises(RuleError, match=r"^R8: seat 0 made domino"):
        match.start_round(deal, 1)
    match.start_round(deal, 0)

    blocked = start(BLOCK4, 4)
    play(blocked, BLOCK4)
    assert blocked.phase is Phase.DEAL and blocked.required_opener is None
    blocked.start_round(deal, 3)  # any seat the lot gives


# ---- Placing tiles ------------------------------------------------------------------------


def test_R09_a_half_must_match_and_a_placement_ends_the_turn() -> None:
    deal = make_deal(
        [[(1, 4), (5, 6), (4, 6), (0, 0), (2, 2)], [(3, 4), (2, 5), (1, 1), (3, 3), (0, 6)]]
    )
    match = Match(2)
    match.start_round(deal, 0)
    match.apply(Play(T(1, 4), None))
    assert match.to_act == 1
    with pytest.raises(IllegalMoveError, match=r"^R9: \[2\|5\] has no half matching \[1\|4\] high"):
        match.apply(Play(T(2, 5), at(1, 4, "high")))
    with pytest.raises(IllegalMoveError, match=r"^R9: seat 1 does not hold \[5\|6\]"):
        match.apply(Play(T(5, 6), at(1, 4, "high")))
    match.apply(Play(T(3, 4), at(1, 4, "high")))  # the 4 half joins; 3 is the new scored end
    assert match.layout.contributions() == [(T(1, 4), 1), (T(3, 4), 3)]
    assert match.to_act == 0


def _must_play_round() -> Match:
    # Seat 0 opens [0|0]; seat 1 holds no 0. The boneyard starts [1|1], [2|2], [0|5].
    deal = make_deal(
        [[(0, 0), (1, 2), (1, 3), (2, 3), (3, 3)], [(4, 4), (4, 5), (5, 5), (5, 6), (6, 6)]],
        boneyard=[(1, 1), (2, 2), (0, 5)],
    )
    match = Match(2)
    match.start_round(deal, 0)
    match.apply(Play(T(0, 0), None))
    return match


def test_R10_must_play_when_holding_a_legal_placement() -> None:
    deal = make_deal(
        [[(0, 0), (1, 2), (1, 3), (2, 3), (3, 3)], [(0, 6), (4, 5), (5, 5), (5, 6), (6, 6)]]
    )
    match = Match(2)
    match.start_round(deal, 0)
    match.apply(Play(T(0, 0), None))
    with pytest.raises(IllegalMoveError) as err:
        match.apply(DRAW)
    assert str(err.value) == "R10: seat 1 holds a legal play and may not draw"
    assert err.value.rule == "R10" and isinstance(err.value, ValueError)
    with pytest.raises(IllegalMoveError, match=r"^R10: seat 1 holds a legal play and may not pass"):
        match.apply(PASS)
    assert DRAW not in match.legal_actions()


def test_R10_draw_until_playable_and_the_drawn_tile_is_forced() -> None:
    match = _must_play_round()
    with pytest.raises(IllegalMoveError, match=r"^R10: the boneyard is not empty"):
        match.apply(PASS)
    assert match.legal_actions() == [DRAW]
    match.apply(DRAW)  # [1|1]: no 0, keep drawing
    assert match.legal_actions() == [DRAW] and match.to_act == 1
    match.apply(DRAW)  # [2|2]
    assert match.legal_actions() == [DRAW]
    match.apply(DRAW)  # [0|5]: playable, drawing stops and this very tile must be placed
    assert match.pending_draw == T(0, 5)
    assert match.legal_actions() == [
        Play(T(0, 5), at(0, 0, "lineA")),
        Play(T(0, 5), at(0, 0, "lineB")),
    ]
    with pytest.raises(IllegalMoveError, match=r"^R10: seat 1 holds a legal play and may not draw"):
        match.apply(DRAW)
    with pytest.raises(IllegalMoveError, match=r"^R10: seat 1 drew \[0\|5\] and must place"):
        match.apply(Play(T(1, 1), at(0, 0, "lineA")))
    events = match.apply(Play(T(0, 5), at(0, 0, "lineA")))
    # [0|0] keeps counting both halves (0); [0|5] scores its free 5: sum 5, credit 5.
    assert events == (PlayEvent(seat=1, side=1, raw=5, accepted=True),)
    assert match.hand(1) == (T(4, 4), T(4, 5), T(5, 5), T(5, 6), T(6, 6), T(1, 1), T(2, 2))


def test_R10_pass_only_with_an_empty_boneyard() -> None:
    # 4 players. Every 0 tile is with seats 0 and 2; seat 1 draws the whole boneyard, then passes.
    deal = make_deal(
        [
            [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)],
            [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)],
            [(0, 5), (0, 6), (2, 2), (2, 3), (2, 4)],
            [(2, 5), (2, 6), (3, 3), (3, 4), (3, 5)],
        ]
    )
    match = Match(4)
    match.start_round(deal, 0)
    match.apply(Play(T(0, 0), None))
    for _ in range(8):
        assert match.legal_actions() == [DRAW]
        match.apply(DRAW)
    assert match.boneyard_size == 0 and match.legal_actions() == [PASS]
    with pytest.raises(IllegalMoveError, match=r"^R10: the boneyard is empty: seat 1 must pass"):
        match.apply(DRAW)
    match.apply(PASS)
    assert match.phase is Phase.PLAY and match.to_act == 2  # not blocked: seat 2 holds a 0


def test_R11_block_reached_right_after_a_pass() -> None:
    match = start(BLOCK4, 4)
    play(match, BLOCK4, upto=27)
    assert match.phase is Phase.PLAY and match.boneyard_size == 0
    assert match.legal_actions() == [PASS]
    events = match.apply(PASS)  # now nobody can place: blocked at once, no more passes
    log = match.rounds[-1]
    assert log.end is not None and log.end.kind == "block"
    assert [type(e) for e in events] == [BlockEvent, BlockEvent]
    assert log.steps[-1].action == PASS and match.to_act is None


def test_R11_block_checked_after_a_placement() -> None:
    match = start(BLOCK3, 3)
    play(match, BLOCK3, upto=len(BLOCK3["actions"]) - 1)
    assert match.phase is Phase.PLAY
    match.apply(action_of(BLOCK3["actions"][-1]))  # a placement; nobody can place after it
    assert match.rounds[-1].end is not None and match.rounds[-1].end.kind == "block"


# ---- Every double is a spinner ------------------------------------------------------------


def test_R12_opening_double_is_a_spinner_and_counts_both_halves() -> None:
    layout = Layout()
    assert place(layout, (5, 5)) == 10  # lone opening [5|5] counts 10: credit 10
    assert layout.spinners() == [T(5, 5)]
    assert [p for p, _ in layout.free_points()] == [at(5, 5, "lineA"), at(5, 5, "lineB")]
    two = Layout()
    assert place(two, (2, 2)) == 0 and two.end_sum == 4  # [2|2] counts 4: no credit


def test_R12_double_on_a_side_arm_becomes_a_spinner() -> None:
    layout = Layout()
    place(layout, (4, 4))
    place(layout, (1, 4), (4, 4), "lineA")
    place(layout, (4, 6), (4, 4), "lineB")  # [4|4] interior: arms open
    place(layout, (4, 5), (4, 4), "armA")
    assert place(layout, (5, 5), (4, 5), "high") == 0  # 1 + 6 + 10 = 17
    assert layout.spinners() == [T(4, 4), T(5, 5)]
    assert not layout.is_free(at(5, 5, "armA"))
    # 1 + 6 + 3 = 10: [5|5] is interior now and counts nothing; its arms are open.
    assert place(layout, (3, 5), (5, 5), "lineB") == 10
    free = [p for p, _ in layout.free_points()]
    assert at(5, 5, "armA") in free and at(5, 5, "armB") in free
    assert place(layout, (0, 5), (5, 5), "armB") == 10  # the arm's tip counts 0: still 10


def test_R13_side_arms_refused_until_both_line_sides_are_joined() -> None:
    layout = Layout()
    place(layout, (1, 4))
    place(layout, (4, 4), (1, 4), "high")  # joins by lineA; lineB free
    with pytest.raises(IllegalMoveError, match=r"^R13: the side arms of spinner \[4\|4\] open"):
        place(layout, (4, 6), (4, 4), "armA")
    assert [p for p, _ in layout.free_points()] == [at(1, 4, "low"), at(4, 4, "lineB")]
    place(layout, (3, 4), (4, 4), "lineB")
    place(layout, (4, 6), (4, 4), "armB")  # either arm may be opened first
    with pytest.raises(IllegalMoveError, match=r"^R13: \[4\|4\] armB is already joined"):
        place(layout, (2, 4), (4, 4), "armB")
    with pytest.raises(IllegalMoveError, match=r"^R13: \[5\|5\] is not on the table"):
        place(layout, (2, 5), (5, 5), "lineA")
    with pytest.raises(RuleError, match=r"^R13: "):
        AttachPoint(T(1, 4), TileEnd.ARM_A)


def test_R13_the_end_that_matched_is_joined_and_the_other_stays_free() -> None:
    """R13: a placed non-double joins by the end that matched, the other end is free; a double
    joins by lineA and the line runs on from lineB. `free_end` says so for every placement, and
    the layout frees exactly that end."""
    assert free_end(at(1, 4, "low")) == at(1, 4, "high")
    assert free_end(at(1, 4, "high")) == at(1, 4, "low")
    assert free_end(at(4, 4, "lineA")) == at(4, 4, "lineB")
    for end in ("lineB", "armA", "armB"):  # no placed double joins by these
        with pytest.raises(RuleError, match=r"^R13: "):
            free_end(at(4, 4, end))
    layout = Layout()
    place(layout, (1, 4))
    place(layout, (4, 6), (1, 4), "high")  # joins by its 4, the low end: the 6 is free
    place(layout, (6, 6), (4, 6), "high")  # joins by lineA: lineB is free
    place(layout, (2, 6), (6, 6), "lineB")  # joins by its 6, the high end: the 2 is free
    assert [p for p, _ in layout.free_points()] == [
        at(1, 4, "low"),
        at(2, 6, "low"),
        at(6, 6, "armA"),
        at(6, 6, "armB"),
    ]
    assert [free_end(joined) for _, joined in layout.joins()] == [
        at(4, 6, "high"),
        at(6, 6, "lineB"),
        at(2, 6, "low"),
    ]


def test_R14_free_attach_point_is_not_a_scored_end() -> None:
    layout = Layout()
    place(layout, (1, 4))
    place(layout, (1, 1), (1, 4), "low")
    place(layout, (4, 4), (1, 4), "high")
    place(layout, (3, 4), (4, 4), "lineB")
    # [4|4] interior: its two free arms accept 4 but score nothing; [1|1] still counts 2.
    assert layout.contributions() == [(T(1, 1), 2), (T(3, 4), 3)]
    assert layout.is_free(at(4, 4, "armA")) and layout.end_sum == 5


def test_R15_a_positive_multiple_of_5_credits_that_many_raw_points() -> None:
    for tile, credit in (((0, 0), 0), ((2, 3), 5), ((1, 1), 0), ((5, 5), 10), ((4, 6), 10)):
        assert place(Layout(), tile) == credit, tile
    layout = Layout()
    place(layout, (1, 4))
    assert place(layout, (1, 1), (1, 4), "low") == 0  # 2 + 4 = 6: nothing


def test_R16_last_placement_is_part_of_the_domino_event() -> None:
    match = start(DOMINO_B, 4)
    events = play(match, DOMINO_B)
    # The last placement scores 10 but makes no event of its own: only the domino event.
    assert [e.kind for e in events] == ["play", "play", "domino"]
    assert events[-1].play_raw == 10


def test_R17_rounding_remainders_1_2_down_3_4_up() -> None:
    assert [round5(n) for n in range(0, 11)] == [0, 0, 0, 5, 5, 5, 5, 5, 10, 10, 10]
    assert round5(21) == 20 and round5(13) == 15 and round5(22) == 20 and round5(24) == 25


# ---- Domino -------------------------------------------------------------------------------


def test_R18_domino_reveals_all_hands() -> None:
    match = start(DOMINO_A, 4)
    play(match, DOMINO_A)
    end = match.rounds[-1].end
    assert end is not None and end.kind == "domino" and end.seat == 0
    assert end.hands == ((), (T(0, 1),), (T(6, 6),), (T(0, 0),))
    assert end.pips == (0, 1, 12, 0)


def test_R19_partner_deduction_with_a_negative_net_is_applied() -> None:
    # DOMINO_A: seat 0's last tile [2|5] leaves ends 10 + 3 + 6 + 0 + 5 = 24: placement credit 0.
    # Opponents (seats 1, 3) hold 1 + 0 = 1 -> round5 0. Partner (seat 2) holds 12 -> 10.
    # Net 0 + 0 - 10 = -10. Side 0 had 15 + 15 + 25 = 55 from placements this round.
    match = start(DOMINO_A, 4)
    events = play(match, DOMINO_A)
    assert events[-1] == DominoEvent(
        seat=0,
        side=0,
        raw=-10,
        accepted=True,
        play_raw=0,
        opponents_raw=0,
        partner_raw=10,
        opponents_pips=1,
        partner_pips=12,
    )
    assert match.scores == (45, 0)


def test_R19_partner_hand_is_rounded_on_its_own() -> None:
    # DOMINO_B: opponents 15 + 6 = 21 -> 20; partner 13 -> 15 (apart). Net 10 + 20 - 15 = 15.
    # Merging first would give round5(21 - 13) = 10 and a net of 20: the rules forbid it.
    match = start(DOMINO_B, 4)
    events = play(match, DOMINO_B)
    domino = events[-1]
    assert isinstance(domino, DominoEvent)
    assert (domino.play_raw, domino.opponents_raw, domino.partner_raw, domino.raw) == (
        10,
        20,
        15,
        15,
    )
    assert match.scores == (5, 25)  # side 1: 10 from a placement + 15


def test_R19_domino_whose_placement_alone_reaches_305_but_net_passes_is_rejected_whole() -> None:
    # Side 1 starts at 285, earns 10 at action 6 (295). The last placement alone (10) would make
    # 305, but the net 15 makes 310: every part is rejected together.
    match = start(DOMINO_B, 4, scores=[0, 285])
    events = play(match, DOMINO_B)
    assert events[-1].kind == "domino" and events[-1].accepted is False
    assert match.scores == (5, 295)
    assert match.phase is Phase.DEAL and match.required_opener == 3  # play goes on


def test_R19_domino_whose_net_lands_exactly_on_305_wins() -> None:
    match = start(DOMINO_B, 4, scores=[0, 280])  # 280 + 10 + 15 = 305
    events = play(match, DOMINO_B)
    assert events[-1].accepted is True
    assert match.scores == (5, 305) and match.winner == 1 and match.is_over


# ---- Blocked round ------------------------------------------------------------------------


def test_R20_R21_blocked_credits_compare_only_heavier_opponent_hands() -> None:
    # BLOCK4 hands: seat 0 [0|2] = 2, seat 1 = 10, seat 2 [5|5] = 10, seat 3 = 16.
    # Seat 0: (10 - 2) + (16 - 2) = 22 -> 20 (partner seat 2 is never compared: else 30).
    # Seat 1: its opponents 0 and 2 are not heavier -> 0. Seat 2: 16 - 10 = 6 -> 5. Seat 3: 0.
    match = start(BLOCK4, 4)
    events = play(match, BLOCK4)
    blocks = [e for e in events if isinstance(e, BlockEvent)]
    assert [(e.seat, e.side, e.raw, e.accepted) for e in blocks] == [
        (0, 0, 20, True),
        (2, 0, 5, True),
    ]
    assert match.rounds[-1].end.pips == (2, 10, 10, 16)  # type: ignore[union-attr]
    assert match.scores == (15 + 20 + 5, 20)


def test_R21_three_player_blocked_settlement() -> None:
    # BLOCK3 hands 17, 24, 17: seats 0 and 2 each get round5(24 - 17 = 7) = 5; seat 1 nothing.
    match = start(BLOCK3, 3)
    events = play(match, BLOCK3)
    blocks = [(e.seat, e.raw) for e in events if isinstance(e, BlockEvent)]
    assert sorted(blocks) == [(0, 5), (2, 5)]
    assert match.scores == (15 + 5, 0, 5)


def test_R21_differences_rounding_to_zero_make_no_event() -> None:
    # TIED3 hands 8, 8, 10: seats 0 and 1 each have a difference of 2 -> 0; no block event.
    match = start(TIED3, 3)
    events = play(match, TIED3)
    assert not [e for e in events if isinstance(e, BlockEvent)]
    assert match.rounds[-1].end.pips == (8, 8, 10)  # type: ignore[union-attr]


def test_R22_equal_sums_are_processed_clockwise_from_the_opener() -> None:
    # BLOCK3's opener is seat 1: of the tied seats 0 and 2, seat 2 comes first clockwise.
    match = start(BLOCK3, 3)
    events = play(match, BLOCK3)
    assert [e.seat for e in events if isinstance(e, BlockEvent)] == [2, 0]


def test_R22_settlement_cut_off_by_the_first_event_reaching_305() -> None:
    match = start(BLOCK3, 3, scores=[0, 0, 300])
    events = play(match, BLOCK3)
    blocks = [e for e in events if isinstance(e, BlockEvent)]
    assert [(e.seat, e.raw, e.accepted) for e in blocks] == [(2, 5, True)]  # seat 0's never applied
    assert match.rounds[-1].events[-1] is blocks[0]
    assert match.scores == (15, 0, 305) and match.winner == 2


def test_R22_only_the_event_passing_305_is_rejected() -> None:
    # BLOCK4 with side 0 at 285: +15 from a placement (300); seat 0's +20 would pass 305 and is
    # rejected; seat 2's +5 is still applied and lands exactly on 305.
    match = start(BLOCK4, 4, scores=[285, 0])
    events = play(match, BLOCK4)
    blocks = [(e.seat, e.raw, e.accepted) for e in events if isinstance(e, BlockEvent)]
    assert blocks == [(0, 20, False), (2, 5, True)]
    assert match.scores == (305, 20) and match.winner == 0


def test_R23_round_winner_lightest_hand_partners_sharing_and_ties() -> None:
    match = start(BLOCK4, 4)
    play(match, BLOCK4)
    assert match.rounds[-1].end.winner == 0  # type: ignore[union-attr]
    tied = start(TIED3, 3)
    play(tied, TIED3)
    assert tied.rounds[-1].end.winner is None  # type: ignore[union-attr]  # opposing seats share 8
    assert block_winner(4, (5, 9, 5, 12)) == 0  # partners sharing the lightest: their side wins
    assert block_winner(4, (5, 5, 7, 12)) is None


# ---- End of the match ---------------------------------------------------------------------


def test_R30_ordinary_placement_reaching_305_ends_the_match_mid_round() -> None:
    match = start(DOMINO_B, 4, scores=[0, 295])
    events = play(match, DOMINO_B, upto=7)  # seat 1's credit of 10 at action 6
    assert events[-1] == PlayEvent(seat=1, side=1, raw=10, accepted=True)
    assert match.is_over and match.winner == 1 and match.scores == (5, 305)
    end = match.rounds[-1].end
    assert end is not None and end.kind == "target" and end.hands is None  # unsettled
    with pytest.raises(IllegalMoveError, match=r"^R30: the match is over"):
        match.apply(action_of(DOMINO_B["actions"][7]))
    with pytest.raises(RuleError, match=r"^R30: "):
        match.start_round(random_deal(random.Random(1), 4), 0)


def test_R31_paper_tally() -> None:
    assert tally_marks(185) == (3, 7)  # 37 display points: three big X groups and 7 strokes
    assert tally_marks(50) == (1, 0) and tally_marks(5) == (0, 1) and tally_marks(0) == (0, 0)
