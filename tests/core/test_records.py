"""Match records (`exact61-match/1`): writing, reading, replaying, and rejecting bad records.

The fuzz tests mutate real records (a changed tile, event value, seat, order, a truncated
file, invalid JSON) and require a one-line RecordError every time, never another exception.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exact61 import (
    FORMAT,
    RecordError,
    RecordFormatError,
    ReplayError,
    dumps,
    match_to_record,
    parse_record,
    replay,
)
from tests.core.scenarios import DOMINO_B, play, start
from tests.helpers import played_match


def sample_record(players: int = 4, seed: int = 5, bot: str = "random") -> dict[str, Any]:
    return match_to_record(played_match(players, seed, [bot] * players), seed=seed)


@functools.cache
def recorded(players: int) -> dict[str, Any]:
    """A sample record for `players`, written once, when a test first asks (not at import:
    the record writer keeps each text it makes, and under mutation testing texts made while
    the tests are collected would be the original code's)."""
    return sample_record(players, 100 + players)


def rejected(record: Any) -> RecordError:
    text = record if isinstance(record, (str, bytes)) else json.dumps(record)
    with pytest.raises(RecordError) as err:
        replay(text)
    assert "\n" not in str(err.value)
    return err.value


# ---- writing ------------------------------------------------------------------------------


def test_record_has_the_format_fields() -> None:
    match = start(DOMINO_B, 4)
    play(match, DOMINO_B)
    record = match_to_record(match, seed=7)
    assert record["format"] == FORMAT and record["players"] == 4 and record["seed"] == 7
    rnd = record["rounds"][0]
    assert rnd["opener"] == 3 and len(rnd["hands"]) == 4 and len(rnd["boneyard"]) == 8
    assert rnd["actions"][0] == {"seat": 3, "type": "play", "tile": [1, 3], "at": None}
    assert rnd["actions"][1] == {"seat": 0, "type": "play", "tile": [3, 5], "at": [[1, 3], "high"]}
    assert rnd["actions"][13] == {"seat": 0, "type": "draw", "tile": [0, 2]}
    domino = rnd["events"][-1]
    assert {
        k: domino[k]
        for k in (
            "kind",
            "seat",
            "side",
            "raw",
            "accepted",
            "play_raw",
            "opponents_raw",
            "partner_raw",
        )
    } == {
        "kind": "domino",
        "seat": 3,
        "side": 1,
        "raw": 15,
        "accepted": True,
        "play_raw": 10,
        "opponents_raw": 20,
        "partner_raw": 15,
    }
    assert rnd["end"]["kind"] == "domino"
    assert record["scores"] == [5, 25] and record["winner"] is None  # one round: unfinished


def test_pretty_printed_record_with_extra_fields_replays() -> None:
    record = copy.deepcopy(recorded(3))
    record["comment"] = "extra fields are ignored"
    record["rounds"][0]["actions"][0]["think_ms"] = 12
    match = replay(json.dumps(record, indent=2))
    assert match.is_over and list(match.scores) == record["scores"]


# ---- targeted mutations -------------------------------------------------------------------


def test_invalid_json_and_truncated_file() -> None:
    text = dumps(recorded(2))
    err = rejected(text[: len(text) // 2])
    assert isinstance(err, RecordFormatError) and "not valid JSON" in str(err)
    assert "at line 1 column" in str(err)  # the JSON parser's own words say where
    assert "not valid JSON" in str(rejected("{"))
    assert "not valid JSON" in str(rejected(b"\xff\xfe"))


def test_missing_and_mistyped_fields_name_the_place() -> None:
    record = copy.deepcopy(recorded(2))
    del record["rounds"][1]["actions"][3]["seat"]
    err = rejected(record)
    assert (err.round, err.action) == (1, 3) and "field 'seat'" in str(err)
    record = copy.deepcopy(recorded(2))
    record["rounds"][0]["actions"][2]["seat"] = "1"
    assert "round 0, action 2" in str(rejected(record))
    record = copy.deepcopy(recorded(2))
    record["format"] = "exact61-match/2"
    assert "field 'format'" in str(rejected(record))


def test_changed_event_value() -> None:
    record = copy.deepcopy(recorded(4))
    rnd = next(i for i, r in enumerate(record["rounds"]) if r["events"])
    record["rounds"][rnd]["events"][0]["raw"] += 5
    err = rejected(record)
    assert isinstance(err, ReplayError) and err.round == rnd and err.action is not None
    assert "event 0 should be" in str(err)


def test_wrong_draw() -> None:
    record = copy.deepcopy(recorded(2))
    r, a = next(
        (r, a)
        for r, rnd in enumerate(record["rounds"])
        for a, act in enumerate(rnd["actions"])
        if act["type"] == "draw"
    )
    bone = record["rounds"][r]["boneyard"]
    drawn = record["rounds"][r]["actions"][a]["tile"]
    other = next(t for t in bone if t != drawn)
    record["rounds"][r]["actions"][a]["tile"] = other
    err = rejected(record)
    assert (err.round, err.action) == (r, a) and "wrong draw" in str(err)


def test_changed_seat_and_swapped_order() -> None:
    record = copy.deepcopy(recorded(3))
    record["rounds"][0]["actions"][1]["seat"] = (record["rounds"][0]["actions"][1]["seat"] + 1) % 3
    err = rejected(record)
    assert (err.round, err.action) == (0, 1) and "turn" in str(err)
    record = copy.deepcopy(recorded(3))
    acts = record["rounds"][0]["actions"]
    acts[1], acts[2] = acts[2], acts[1]
    assert rejected(record).round == 0


def test_illegal_play_names_the_rule() -> None:
    record = copy.deepcopy(recorded(2))
    act = record["rounds"][0]["actions"][1]
    assert act["type"] == "play"
    assert act["tile"] != [6, 6] and record["rounds"][0]["actions"][0]["tile"] != [6, 6]
    act["at"] = [[6, 6], "armA"]  # a tile not on the table
    err = rejected(record)
    assert str(err) == "round 0, action 1: R13: [6|6] is not on the table"


def test_round_that_should_have_ended_and_one_that_did_not() -> None:
    record = copy.deepcopy(recorded(2))
    extra = copy.deepcopy(record["rounds"][0]["actions"][-1])
    record["rounds"][0]["actions"].append(extra)
    err = rejected(record)
    assert err.round == 0 and err.action == len(record["rounds"][0]["actions"]) - 1
    assert "already ended" in str(err)
    record = copy.deepcopy(recorded(2))
    record["rounds"][0]["actions"].pop()
    err = rejected(record)
    assert err.round == 0 and "has not ended" in str(err)


def test_wrong_end_scores_winner_and_extra_round() -> None:
    for mutate, words in (
        (lambda r: r["rounds"][0]["end"].update(kind="target"), "ends by"),
        (lambda r: r["scores"].__setitem__(0, r["scores"][0] + 5), "final scores"),
        (lambda r: r.update(winner=1 - r["winner"]), "winner"),
        (lambda r: r["rounds"].append(copy.deepcopy(r["rounds"][0])), "already won"),
        (lambda r: r["rounds"][0].update(opener=(r["rounds"][0]["opener"] + 1) % 2), "turn"),
    ):
        record = copy.deepcopy(recorded(2))
        mutate(record)
        assert words in str(rejected(record))


# ---- fuzzing ------------------------------------------------------------------------------

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 400),
    st.text(max_size=6),
    st.lists(st.integers(-1, 7), max_size=3),
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        obj = obj[p]
    return obj


def required_parts(record: dict[str, Any]) -> Any:
    """What the format requires of a record (extra fields left out)."""
    events = ("kind", "seat", "side", "raw", "accepted", "play_raw", "opponents_raw", "partner_raw")
    return (
        record["players"],
        record["scores"],
        record["winner"],
        [
            (
                rnd["opener"],
                rnd["hands"],
                rnd["boneyard"],
                [(a["seat"], a["type"], a.get("tile"), a.get("at")) for a in rnd["actions"]],
                [{k: e[k] for k in events if k in e} for e in rnd["events"]],
                None if rnd["end"] is None else rnd["end"]["kind"],
            )
            for rnd in record["rounds"]
        ],
    )


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), data=st.data())
def test_fuzz_mutated_records_never_crash(players: int, data: st.DataObject) -> None:
    record = copy.deepcopy(recorded(players))
    kind = data.draw(st.sampled_from(["replace", "delete", "swap", "duplicate", "truncate"]))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    text: str | None = None
    if kind == "truncate":
        full = dumps(record)
        text = full[: rng.randrange(len(full))]
    else:
        paths = [p for p in _paths(record) if p]
        path = paths[rng.randrange(len(paths))]
        parent, key = _get(record, path[:-1]), path[-1]
        if kind == "replace":
            parent[key] = data.draw(json_leaf)
        elif kind == "delete":
            del parent[key]
        elif isinstance(parent, list) and len(parent) > 1:
            j = rng.randrange(len(parent))
            if kind == "swap":
                parent[key], parent[j] = parent[j], parent[key]
            else:
                parent.insert(j, copy.deepcopy(parent[key]))
    try:
        match = replay(text if text is not None else json.dumps(record))
    except RecordError as err:
        assert "\n" not in str(err) and str(err)
        if isinstance(err, ReplayError):  # the rules engine's reason: English, naming its rule
            assert re.search(r"(^|: )R\d+[:,]", str(err)), str(err)
    else:
        # Accepted (an extra field changed, an equal swap, a symmetric arm): then the record is
        # exactly what the replayed match writes back, so no required field was ignored.
        assert required_parts(match_to_record(match)) == required_parts(record)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_fuzz_arbitrary_input_is_a_format_error(data: bytes | str) -> None:
    with pytest.raises(RecordFormatError):
        parse_record(data)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), data=st.data())
def test_fuzz_semantic_mutations_are_always_rejected(players: int, data: st.DataObject) -> None:
    """Changing a dealt tile, a recorded seat or an event's value can never go unnoticed."""
    record = copy.deepcopy(recorded(players))
    r = data.draw(st.integers(0, len(record["rounds"]) - 1))
    rnd = record["rounds"][r]
    what = data.draw(st.sampled_from(["tile", "seat", "event"]))
    if what == "tile":
        s = data.draw(st.integers(0, players - 1))
        i = data.draw(st.integers(0, 4))
        old = rnd["hands"][s][i]
        new = data.draw(st.sampled_from([[a, b] for a in range(7) for b in range(a, 7)]))
        assume(new != old)
        rnd["hands"][s][i] = new
    elif what == "seat":
        a = data.draw(st.integers(0, len(rnd["actions"]) - 1))
        rnd["actions"][a]["seat"] = (
            rnd["actions"][a]["seat"] + data.draw(st.integers(1, players - 1))
        ) % players
    else:
        assume(rnd["events"])
        e = data.draw(st.integers(0, len(rnd["events"]) - 1))
        rnd["events"][e]["raw"] += data.draw(st.sampled_from([-5, 5, 10]))
    assert rejected(record).round == r
