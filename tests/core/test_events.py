"""Which scoring events a match records (R15, R16, R4) and who opens the next round (R8).

R15: a placement credits its end sum only when that sum is a positive multiple of 5; the record
format says a placement with no credit makes no event. The scripted round below walks through
end sums of 0 (on an open layout too), of other non-multiples, and of 5, 10, 15, 20 and 25; the
sums are worked out by hand in the comments. The stored records of `tests/data/regression/`
(written by `exact61 simulate` on 2026-11-30) replay to every event, end and score they hold.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from exact61 import (
    DRAW,
    AttachPoint,
    Match,
    Phase,
    Play,
    PlayEvent,
    RuleError,
    TileEnd,
    draw_lot,
    match_to_record,
    random_deal,
    replay,
)
from tests.core.scenarios import BLOCK4, DOMINO_A, DOMINO_B, deal_of, play, start
from tests.helpers import DATA, T, make_deal

REGRESSION = DATA / "regression"


def at(a: int, b: int, end: str) -> AttachPoint:
    return AttachPoint(T(a, b), TileEnd(end))


# ---- R15: no credit, no event -------------------------------------------------------------

# 3 players, opener 0: (seat, tile, host, end, end sum after it, credit)
R15_ROUND: list[tuple[int, tuple[int, int], tuple[int, int] | None, str, int, int]] = [
    (0, (1, 2), None, "", 3, 0),  # 1 + 2 = 3
    (1, (0, 1), (1, 2), "low", 2, 0),  # [0|1] free 0, [1|2] high 2
    (2, (0, 2), (1, 2), "high", 0, 0),  # both free ends are 0: a sum of 0 on an open layout
    (0, (0, 0), (0, 1), "low", 0, 0),  # [0|0] counts 2 x 0, [0|2] low 0
    (1, (0, 5), (0, 0), "lineB", 5, 5),  # [0|0] interior (arms open); 0 + 5
    (2, (0, 6), (0, 0), "armA", 11, 0),  # the arm's tip scores: 0 + 5 + 6
    (0, (5, 5), (0, 5), "high", 16, 0),  # [5|5] on an end counts 10: 0 + 10 + 6
    (1, (6, 6), (0, 6), "high", 22, 0),  # 0 + 10 + 12
    (2, (0, 3), (0, 0), "armB", 25, 25),  # 0 + 10 + 12 + 3
    (0, (2, 6), (6, 6), "lineB", 15, 15),  # [6|6] interior: 0 + 10 + 2 + 3
    (1, (5, 6), (6, 6), "armA", 20, 20),  # 0 + 10 + 2 + 3 + 5
    (2, (2, 2), (2, 6), "low", 22, 0),  # [2|2] on an end counts 4: 0 + 10 + 4 + 3 + 5
]
R15_HANDS = [
    [(1, 2), (0, 0), (5, 5), (2, 6), (1, 1)],
    [(0, 1), (0, 5), (6, 6), (5, 6), (1, 3)],
    [(0, 2), (0, 6), (0, 3), (2, 2), (1, 4)],
]


def test_R15_only_a_positive_multiple_of_5_makes_an_event() -> None:
    match = Match(3)
    match.start_round(make_deal(R15_HANDS), 0)
    expected: list[PlayEvent] = []
    for seat, tile, host, end, end_sum, credit in R15_ROUND:
        assert match.to_act == seat
        action = Play(T(*tile), None if host is None else at(*host, end))
        assert match.credit_of(action) == credit
        events = match.apply(action)
        assert match.layout.end_sum == end_sum, (tile, host, end)
        want = [PlayEvent(seat, seat, credit, True)] if credit else []
        assert list(events) == want, (tile, end_sum)
        expected += want
    log = match.rounds[-1]
    assert log.events == expected  # the round's own list: no event for sums 0, 3, 2, 11, ...
    assert [e.raw for e in expected] == [5, 25, 15, 20]
    assert match.scores == (15, 25, 25)
    record = match_to_record(match)
    assert record["rounds"][0]["events"] == [
        {"kind": "play", "seat": 1, "side": 1, "raw": 5, "accepted": True},
        {"kind": "play", "seat": 2, "side": 2, "raw": 25, "accepted": True},
        {"kind": "play", "seat": 0, "side": 0, "raw": 15, "accepted": True},
        {"kind": "play", "seat": 1, "side": 1, "raw": 20, "accepted": True},
    ]
    assert replay(json.dumps(record)).rounds[-1].events == expected


@pytest.mark.parametrize(
    "tile, credit",
    [((0, 0), 0), ((1, 1), 0), ((1, 2), 0), ((0, 5), 5), ((2, 3), 5), ((5, 5), 10), ((4, 6), 10)],
)
def test_R15_opening_placement_events(tile: tuple[int, int], credit: int) -> None:
    # A lone opening tile counts both its halves ([0|0]: 0, [1|1]: 2, [5|5]: 10).
    others = [t for t in [(1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 4), (3, 3)] if t != tile]
    deal = make_deal([[tile, *others[:4]], [(3, 4), (3, 5), (3, 6), (4, 4), (4, 5)]])
    match = Match(2)
    match.start_round(deal, 0)
    events = match.apply(Play(T(*tile), None))
    want = [PlayEvent(0, 0, credit, True)] if credit else []
    assert list(events) == want and match.rounds[-1].events == want
    assert match.scores == (credit, 0)


def test_R15_draws_and_passes_make_no_event() -> None:
    # Seat 1 holds no 0: it draws [1|1] and [2|2] (no events), then the playable [0|5].
    deal = make_deal(
        [[(0, 0), (1, 2), (1, 3), (2, 3), (3, 3)], [(4, 4), (4, 5), (5, 5), (5, 6), (6, 6)]],
        boneyard=[(1, 1), (2, 2), (0, 5)],
    )
    match = Match(2)
    match.start_round(deal, 0)
    assert match.apply(Play(T(0, 0), None)) == ()
    assert match.apply(DRAW) == () and match.apply(DRAW) == ()
    assert match.apply(DRAW) == ()
    assert match.rounds[-1].events == []
    assert list(match.apply(Play(T(0, 5), at(0, 0, "lineA")))) == [PlayEvent(1, 1, 5, True)]


def test_R16_the_domino_placement_makes_no_play_event_of_its_own() -> None:
    # DOMINO_B's last placement earns 10: it is only the domino event's play_raw.
    match = start(DOMINO_B, 4)
    play(match, DOMINO_B)
    kinds = [(e.kind, e.seat, e.raw) for e in match.rounds[-1].events]
    assert kinds == [("play", 2, 5), ("play", 1, 10), ("domino", 3, 15)]


# ---- R8: the next opener ------------------------------------------------------------------


def test_R08_a_blocked_round_after_a_domino_resets_the_opener_to_a_lot() -> None:
    match = start(DOMINO_A, 4)  # seat 0 makes domino: R8 names it the next opener
    play(match, DOMINO_A)
    assert match.required_opener == 0 and match.scores == (45, 0)
    for seat in (1, 2, 3):
        with pytest.raises(RuleError, match=r"^R8: seat 0 made domino"):
            match.copy().start_round(deal_of(BLOCK4), seat)
    assert match.rounds[-1].opener == 0
    match.start_round(deal_of(BLOCK4), 0)  # BLOCK4 is opened by seat 0, as R8 requires
    play(match, BLOCK4)
    end = match.rounds[-1].end
    assert end is not None and end.kind == "block"
    # 45 + 15 + 20 + 5 for side 0 (R20-R22, see test_rules); 20 for side 1.
    assert match.scores == (85, 20) and match.phase is Phase.DEAL
    assert match.required_opener is None  # the domino maker no longer opens
    for seat in range(4):  # any seat the lot gives is accepted
        twin = match.copy()
        twin.start_round(random_deal(random.Random(seat), 4), seat)
        assert twin.rounds[-1].opener == seat and twin.to_act == seat
    # deal_next_round takes the opener from the lot, which is not always seat 0.
    openers = set()
    for s in range(12):
        twin = match.copy()
        twin.deal_next_round(random.Random(s))
        openers.add(twin.rounds[-1].opener)
        assert twin.rounds[-1].opener == draw_lot(random.Random(s), 4)
    assert openers == {0, 1, 2, 3}


def test_R08_after_a_domino_the_maker_is_required_again() -> None:
    match = start(DOMINO_A, 4)
    play(match, DOMINO_A)
    for s in range(8):  # whatever the lot says, the domino maker opens
        twin = match.copy()
        twin.deal_next_round(random.Random(s))
        assert twin.rounds[-1].opener == 0 and twin.to_act == 0
    # A second domino moves the duty to its maker: DOMINO_B is opened (and won) by seat 3.
    with pytest.raises(RuleError, match=r"^R8: seat 0 made domino"):
        match.copy().start_round(deal_of(DOMINO_B), 3)
    blocked = start(BLOCK4, 4)
    play(blocked, BLOCK4)
    blocked.start_round(deal_of(DOMINO_B), 3)
    play(blocked, DOMINO_B)
    assert blocked.required_opener == 3
    with pytest.raises(RuleError, match=r"^R8: seat 3 made domino"):
        blocked.copy().start_round(deal_of(DOMINO_A), 0)


# ---- stored records from today's engine ----------------------------------------------------


def _regression_records() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(REGRESSION.glob("*.jsonl")):
        for i, line in enumerate(path.read_text().splitlines()):
            out.append((f"{path.stem}:{i}", json.loads(line)))
    return out


RECORDS = _regression_records()


def test_the_regression_records_cover_every_kind_of_event_and_end() -> None:
    assert {r["players"] for _, r in RECORDS} == {2, 3, 4}
    rounds = [rnd for _, r in RECORDS for rnd in r["rounds"]]
    assert {rnd["end"]["kind"] for rnd in rounds} == {"domino", "block", "target"}
    events = [e for rnd in rounds for e in rnd["events"]]
    assert {e["kind"] for e in events} == {"play", "domino", "block"}
    assert any(not e["accepted"] for e in events)  # R4 rejections
    assert any(e["kind"] == "domino" and e["raw"] <= 0 for e in events)  # R19 nets of 0 or less


@pytest.mark.parametrize("name, record", RECORDS, ids=[name for name, _ in RECORDS])
def test_regression_record_replays_to_the_same_events_and_scores(
    name: str, record: dict[str, Any]
) -> None:
    match = replay(json.dumps(record))
    again = match_to_record(match, seed=record.get("seed"))
    assert len(again["rounds"]) == len(record["rounds"])
    for r, (mine, stored) in enumerate(zip(again["rounds"], record["rounds"], strict=True)):
        assert mine["events"] == stored["events"], (name, r)  # every field, extras included
        assert mine["end"] == stored["end"], (name, r)
        assert mine["actions"] == stored["actions"], (name, r)
    assert again["scores"] == record["scores"] and again["winner"] == record["winner"]
    assert match.is_over and match.scores[match.winner] == 305
