"""Whole rounds found in seeded random games, frozen as data, for the rule scenario tests.

Each is a round in `exact61-match/1` form (opener, hands, boneyard, actions). The expected scores
in the tests were worked out by hand from the rules; the arithmetic is in the comments there.
"""

from __future__ import annotations

from typing import Any

from exact61 import DRAW, PASS, Action, AttachPoint, Deal, Match, Play, Tile

Round = dict[str, Any]


def deal_of(rnd: Round) -> Deal:
    return Deal(
        tuple(tuple(Tile(*t) for t in hand) for hand in rnd["hands"]),
        tuple(Tile(*t) for t in rnd["boneyard"]),
    )


def action_of(a: dict[str, Any]) -> Action:
    if a["type"] == "draw":
        return DRAW
    if a["type"] == "pass":
        return PASS
    at = None if a["at"] is None else AttachPoint(Tile(*a["at"][0]), a["at"][1])
    return Play(Tile(*a["tile"]), at)


def start(rnd: Round, players: int, scores: list[int] | None = None) -> Match:
    match = Match(players, scores=scores)
    match.start_round(deal_of(rnd), rnd["opener"])
    return match


def play(match: Match, rnd: Round, upto: int | None = None) -> list[Any]:
    """Apply the round's actions (the first `upto` of them); return every event produced."""
    events: list[Any] = []
    for a in rnd["actions"][:upto]:
        assert match.to_act == a["seat"]
        events.extend(match.apply(action_of(a)))
    return events


# 4 players, opener 0. Ends blocked right after seat 3's pass (action 27).
BLOCK4 = {
    "opener": 0,
    "hands": [
        [[0, 3], [4, 4], [0, 2], [5, 6], [2, 3]],
        [[2, 6], [3, 6], [0, 4], [4, 5], [0, 1]],
        [[6, 6], [0, 6], [3, 5], [5, 5], [1, 2]],
        [[0, 5], [4, 6], [1, 6], [2, 2], [1, 3]],
    ],
    "boneyard": [[2, 4], [1, 4], [2, 5], [1, 1], [0, 0], [3, 4], [3, 3], [1, 5]],
    "actions": [
        {"seat": 0, "type": "play", "tile": [4, 4], "at": None},
        {"seat": 1, "type": "play", "tile": [4, 5], "at": [[4, 4], "lineB"]},
        {"seat": 2, "type": "play", "tile": [3, 5], "at": [[4, 5], "high"]},
        {"seat": 3, "type": "play", "tile": [1, 3], "at": [[3, 5], "low"]},
        {"seat": 0, "type": "draw", "tile": [2, 4]},
        {"seat": 0, "type": "play", "tile": [2, 4], "at": [[4, 4], "lineA"]},
        {"seat": 1, "type": "play", "tile": [0, 4], "at": [[4, 4], "armB"]},
        {"seat": 2, "type": "play", "tile": [1, 2], "at": [[2, 4], "low"]},
        {"seat": 3, "type": "play", "tile": [4, 6], "at": [[4, 4], "armA"]},
        {"seat": 0, "type": "play", "tile": [0, 3], "at": [[0, 4], "low"]},
        {"seat": 1, "type": "play", "tile": [3, 6], "at": [[4, 6], "high"]},
        {"seat": 2, "type": "draw", "tile": [1, 4]},
        {"seat": 2, "type": "play", "tile": [1, 4], "at": [[1, 3], "low"]},
        {"seat": 3, "type": "play", "tile": [1, 6], "at": [[1, 2], "low"]},
        {"seat": 0, "type": "play", "tile": [2, 3], "at": [[0, 3], "high"]},
        {"seat": 1, "type": "play", "tile": [2, 6], "at": [[2, 3], "low"]},
        {"seat": 2, "type": "play", "tile": [0, 6], "at": [[2, 6], "high"]},
        {"seat": 3, "type": "play", "tile": [0, 5], "at": [[0, 6], "low"]},
        {"seat": 0, "type": "play", "tile": [5, 6], "at": [[0, 5], "high"]},
        {"seat": 1, "type": "draw", "tile": [2, 5]},
        {"seat": 1, "type": "draw", "tile": [1, 1]},
        {"seat": 1, "type": "draw", "tile": [0, 0]},
        {"seat": 1, "type": "draw", "tile": [3, 4]},
        {"seat": 1, "type": "play", "tile": [3, 4], "at": [[3, 6], "low"]},
        {"seat": 2, "type": "play", "tile": [6, 6], "at": [[5, 6], "high"]},
        {"seat": 3, "type": "draw", "tile": [3, 3]},
        {"seat": 3, "type": "draw", "tile": [1, 5]},
        {"seat": 3, "type": "pass"},
    ],
}

# 3 players, opener 1. Blocked with hands 8, 8, 10: differences of 2 round to 0; a tie.
TIED3 = {
    "opener": 1,
    "hands": [
        [[2, 4], [0, 1], [4, 4], [0, 3], [4, 5]],
        [[2, 2], [3, 6], [1, 6], [1, 5], [1, 1]],
        [[0, 4], [1, 2], [3, 4], [0, 0], [4, 6]],
    ],
    "boneyard": [
        [1, 3],
        [3, 3],
        [6, 6],
        [2, 5],
        [0, 5],
        [1, 4],
        [5, 6],
        [2, 3],
        [5, 5],
        [0, 6],
        [2, 6],
        [0, 2],
        [3, 5],
    ],
    "actions": [
        {"seat": 1, "type": "play", "tile": [3, 6], "at": None},
        {"seat": 2, "type": "play", "tile": [3, 4], "at": [[3, 6], "low"]},
        {"seat": 0, "type": "play", "tile": [4, 5], "at": [[3, 4], "high"]},
        {"seat": 1, "type": "play", "tile": [1, 5], "at": [[4, 5], "high"]},
        {"seat": 2, "type": "play", "tile": [4, 6], "at": [[3, 6], "high"]},
        {"seat": 0, "type": "play", "tile": [0, 1], "at": [[1, 5], "low"]},
        {"seat": 1, "type": "draw", "tile": [1, 3]},
        {"seat": 1, "type": "draw", "tile": [3, 3]},
        {"seat": 1, "type": "draw", "tile": [6, 6]},
        {"seat": 1, "type": "draw", "tile": [2, 5]},
        {"seat": 1, "type": "draw", "tile": [0, 5]},
        {"seat": 1, "type": "play", "tile": [0, 5], "at": [[0, 1], "low"]},
        {"seat": 2, "type": "play", "tile": [0, 4], "at": [[4, 6], "low"]},
        {"seat": 0, "type": "play", "tile": [0, 3], "at": [[0, 4], "low"]},
        {"seat": 1, "type": "play", "tile": [1, 3], "at": [[0, 3], "high"]},
        {"seat": 2, "type": "play", "tile": [1, 2], "at": [[1, 3], "low"]},
        {"seat": 0, "type": "play", "tile": [2, 4], "at": [[1, 2], "high"]},
        {"seat": 1, "type": "play", "tile": [2, 5], "at": [[0, 5], "high"]},
        {"seat": 2, "type": "draw", "tile": [1, 4]},
        {"seat": 2, "type": "play", "tile": [1, 4], "at": [[2, 4], "high"]},
        {"seat": 0, "type": "draw", "tile": [5, 6]},
        {"seat": 0, "type": "draw", "tile": [2, 3]},
        {"seat": 0, "type": "play", "tile": [2, 3], "at": [[2, 5], "low"]},
        {"seat": 1, "type": "play", "tile": [1, 6], "at": [[1, 4], "low"]},
        {"seat": 2, "type": "draw", "tile": [5, 5]},
        {"seat": 2, "type": "draw", "tile": [0, 6]},
        {"seat": 2, "type": "play", "tile": [0, 6], "at": [[1, 6], "high"]},
        {"seat": 0, "type": "draw", "tile": [2, 6]},
        {"seat": 0, "type": "draw", "tile": [0, 2]},
        {"seat": 0, "type": "play", "tile": [0, 2], "at": [[0, 6], "low"]},
        {"seat": 1, "type": "play", "tile": [2, 2], "at": [[0, 2], "high"]},
        {"seat": 2, "type": "draw", "tile": [3, 5]},
        {"seat": 2, "type": "play", "tile": [3, 5], "at": [[2, 3], "high"]},
        {"seat": 0, "type": "play", "tile": [5, 6], "at": [[3, 5], "high"]},
        {"seat": 1, "type": "play", "tile": [6, 6], "at": [[5, 6], "high"]},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "play", "tile": [2, 6], "at": [[6, 6], "lineB"]},
    ],
}

# 3 players, opener 1. Blocked after seat 1's placement; hands 17, 24, 17.
BLOCK3 = {
    "opener": 1,
    "hands": [
        [[2, 4], [3, 5], [1, 4], [4, 5], [1, 3]],
        [[0, 6], [0, 0], [3, 4], [3, 3], [5, 6]],
        [[4, 4], [2, 6], [2, 5], [1, 2], [2, 3]],
    ],
    "boneyard": [
        [1, 1],
        [3, 6],
        [1, 5],
        [0, 3],
        [2, 2],
        [6, 6],
        [4, 6],
        [0, 2],
        [1, 6],
        [5, 5],
        [0, 4],
        [0, 5],
        [0, 1],
    ],
    "actions": [
        {"seat": 1, "type": "play", "tile": [0, 6], "at": None},
        {"seat": 2, "type": "play", "tile": [2, 6], "at": [[0, 6], "high"]},
        {"seat": 0, "type": "play", "tile": [2, 4], "at": [[2, 6], "low"]},
        {"seat": 1, "type": "play", "tile": [3, 4], "at": [[2, 4], "high"]},
        {"seat": 2, "type": "play", "tile": [2, 3], "at": [[3, 4], "low"]},
        {"seat": 0, "type": "draw", "tile": [1, 1]},
        {"seat": 0, "type": "draw", "tile": [3, 6]},
        {"seat": 0, "type": "draw", "tile": [1, 5]},
        {"seat": 0, "type": "draw", "tile": [0, 3]},
        {"seat": 0, "type": "play", "tile": [0, 3], "at": [[0, 6], "low"]},
        {"seat": 1, "type": "play", "tile": [3, 3], "at": [[0, 3], "high"]},
        {"seat": 2, "type": "play", "tile": [1, 2], "at": [[2, 3], "low"]},
        {"seat": 0, "type": "play", "tile": [1, 4], "at": [[1, 2], "low"]},
        {"seat": 1, "type": "draw", "tile": [2, 2]},
        {"seat": 1, "type": "draw", "tile": [6, 6]},
        {"seat": 1, "type": "draw", "tile": [4, 6]},
        {"seat": 1, "type": "play", "tile": [4, 6], "at": [[1, 4], "high"]},
        {"seat": 2, "type": "draw", "tile": [0, 2]},
        {"seat": 2, "type": "draw", "tile": [1, 6]},
        {"seat": 2, "type": "play", "tile": [1, 6], "at": [[4, 6], "high"]},
        {"seat": 0, "type": "play", "tile": [1, 3], "at": [[1, 6], "low"]},
        {"seat": 1, "type": "draw", "tile": [5, 5]},
        {"seat": 1, "type": "draw", "tile": [0, 4]},
        {"seat": 1, "type": "draw", "tile": [0, 5]},
        {"seat": 1, "type": "draw", "tile": [0, 1]},
        {"seat": 1, "type": "pass"},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "play", "tile": [3, 5], "at": [[1, 3], "high"]},
        {"seat": 1, "type": "play", "tile": [5, 6], "at": [[3, 5], "high"]},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "play", "tile": [3, 6], "at": [[3, 3], "lineB"]},
        {"seat": 1, "type": "play", "tile": [6, 6], "at": [[5, 6], "high"]},
    ],
}

# 4 players, opener 0. Seat 0 makes domino with [2|5]; partner (seat 2) holds [6|6].
DOMINO_A = {
    "opener": 0,
    "hands": [
        [[0, 4], [2, 2], [2, 3], [2, 5], [3, 6]],
        [[4, 4], [1, 3], [0, 1], [2, 6], [5, 5]],
        [[1, 6], [6, 6], [0, 5], [4, 5], [1, 5]],
        [[4, 6], [1, 2], [0, 0], [1, 1], [0, 6]],
    ],
    "boneyard": [[5, 6], [3, 5], [3, 3], [2, 4], [0, 3], [3, 4], [1, 4], [0, 2]],
    "actions": [
        {"seat": 0, "type": "play", "tile": [0, 4], "at": None},
        {"seat": 1, "type": "play", "tile": [4, 4], "at": [[0, 4], "high"]},
        {"seat": 2, "type": "play", "tile": [0, 5], "at": [[0, 4], "low"]},
        {"seat": 3, "type": "play", "tile": [4, 6], "at": [[4, 4], "lineB"]},
        {"seat": 0, "type": "play", "tile": [3, 6], "at": [[4, 6], "high"]},
        {"seat": 1, "type": "play", "tile": [1, 3], "at": [[3, 6], "low"]},
        {"seat": 2, "type": "play", "tile": [4, 5], "at": [[4, 4], "armB"]},
        {"seat": 3, "type": "play", "tile": [1, 2], "at": [[1, 3], "low"]},
        {"seat": 0, "type": "play", "tile": [2, 2], "at": [[1, 2], "high"]},
        {"seat": 1, "type": "play", "tile": [5, 5], "at": [[4, 5], "high"]},
        {"seat": 2, "type": "play", "tile": [1, 5], "at": [[0, 5], "high"]},
        {"seat": 3, "type": "play", "tile": [1, 1], "at": [[1, 5], "low"]},
        {"seat": 0, "type": "play", "tile": [2, 3], "at": [[2, 2], "lineB"]},
        {"seat": 1, "type": "play", "tile": [2, 6], "at": [[2, 2], "armB"]},
        {"seat": 2, "type": "play", "tile": [1, 6], "at": [[1, 1], "lineB"]},
        {"seat": 3, "type": "play", "tile": [0, 6], "at": [[1, 6], "high"]},
        {"seat": 0, "type": "play", "tile": [2, 5], "at": [[2, 2], "armA"]},
    ],
}

# 4 players, opener 3. Seat 3 makes domino with [4|5] for a placement credit of 10.
DOMINO_B = {
    "opener": 3,
    "hands": [
        [[2, 6], [3, 5], [5, 6], [1, 4], [5, 5]],
        [[2, 4], [3, 4], [1, 1], [2, 2], [3, 3]],
        [[1, 5], [0, 1], [0, 4], [6, 6], [0, 3]],
        [[4, 5], [0, 6], [1, 3], [1, 2], [1, 6]],
    ],
    "boneyard": [[0, 2], [4, 6], [4, 4], [2, 5], [0, 5], [0, 0], [2, 3], [3, 6]],
    "actions": [
        {"seat": 3, "type": "play", "tile": [1, 3], "at": None},
        {"seat": 0, "type": "play", "tile": [3, 5], "at": [[1, 3], "high"]},
        {"seat": 1, "type": "play", "tile": [1, 1], "at": [[1, 3], "low"]},
        {"seat": 2, "type": "play", "tile": [0, 1], "at": [[1, 1], "lineB"]},
        {"seat": 3, "type": "play", "tile": [1, 2], "at": [[1, 1], "armB"]},
        {"seat": 0, "type": "play", "tile": [5, 6], "at": [[3, 5], "high"]},
        {"seat": 1, "type": "play", "tile": [2, 2], "at": [[1, 2], "high"]},
        {"seat": 2, "type": "play", "tile": [6, 6], "at": [[5, 6], "high"]},
        {"seat": 3, "type": "play", "tile": [1, 6], "at": [[1, 1], "armA"]},
        {"seat": 0, "type": "play", "tile": [2, 6], "at": [[1, 6], "high"]},
        {"seat": 1, "type": "play", "tile": [2, 4], "at": [[2, 2], "lineB"]},
        {"seat": 2, "type": "play", "tile": [0, 4], "at": [[2, 4], "high"]},
        {"seat": 3, "type": "play", "tile": [0, 6], "at": [[6, 6], "lineB"]},
        {"seat": 0, "type": "draw", "tile": [0, 2]},
        {"seat": 0, "type": "play", "tile": [0, 2], "at": [[2, 2], "armB"]},
        {"seat": 1, "type": "draw", "tile": [4, 6]},
        {"seat": 1, "type": "play", "tile": [4, 6], "at": [[6, 6], "armB"]},
        {"seat": 2, "type": "play", "tile": [0, 3], "at": [[0, 6], "low"]},
        {"seat": 3, "type": "play", "tile": [4, 5], "at": [[4, 6], "low"]},
    ],
}
