"""One action space, one observation tensor and one reward rule for every research interface.

Actions are numbered once: the 28 openings (R7), every placement of a tile at an attach point
that could ever accept it (R9, R13: 70 attach points, 6 tiles each), then draw and pass (R10);
450 in all, so action k means the same in OpenSpiel, PettingZoo and Gymnasium.

The observation is built from a `SeatView` only, so it holds what that seat may know and
nothing more (R5): its hand, the layout, scores, hand sizes, the boneyard's size and the round's
public history as counts and placed tiles. Seats are written relative to the observer (slot 0 is
the observer, slot 1 the next seat to act, slot 2 the partner at 4 players) and sides with the
observer's own side first, so one policy can play any seat.

The observation splits into what every seat sees (`PUBLIC_BLOCKS`: `observe_public`, written
with absolute seats, the same whoever looks) and what only the seat sees (`PRIVATE_BLOCKS`:
its hand, the drawn tile it must place, the credits of its legal actions). A whole match as one
seat saw it is `encode_rounds`: one row of small codes per round, for OpenSpiel's information
state.

The action space and the observation tensor are `exact61.bots.observation`'s, re-exported here:
they live with the bots, below this package, so that a bot playing a policy learned from this
observation (`learned:FILE`, `exact61.bots.learned`) sees exactly what the environments show.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from exact61.bots.observation import (
    ACTION_COUNT,
    ACTION_INDEX,
    ACTIONS,
    ATTACH_POINTS,
    DRAW_ACTION,
    MAX_PASSES,
    MAX_PLAYERS,
    OBSERVATION_BLOCKS,
    OBSERVATION_SIZE,
    OBSERVATION_SLICES,
    PASS_ACTION,
    PIPS_IN_SET,
    PRIVATE_BLOCKS,
    PRIVATE_OBSERVATION_SIZE,
    PRIVATE_SLICES,
    PUBLIC_BLOCKS,
    PUBLIC_OBSERVATION_SIZE,
    PUBLIC_SLICES,
    TILES,
    FloatArray,
    MaskArray,
    action_id,
    action_mask,
    legal_ids,
    observe,
    observe_private,
    observe_public,
)

# The action space and the observation tensor live with the bots (a bot that plays a learned
# policy sees what these interfaces show); re-exported here, where the research code reads them.
from exact61.core import (
    ALL_TILES,
    HAND_SIZE,
    PLAYER_COUNTS,
    TARGET_RAW,
    Match,
    RoundLog,
    SeatView,
    Tile,
    engines,
    side_count,
    side_of,
)

DEFAULT_MAX_ROUNDS = 100
"""Every interface's default cap on a match's rounds: a match still without a winner after it
ends there (truncated in Gymnasium and PettingZoo, terminal in OpenSpiel)."""


def action_number(action: Any) -> int:
    """`action` as a number of the action space (0 to 449), from a Python or numpy
    integer. ValueError for anything else: a number outside the space, a float (3.7 would
    otherwise be taken as 3), a bool or a string."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    last = ACTION_COUNT - 1
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise ValueError(f"an action is a whole number from 0 to {last}, not {action!r}")
    if not 0 <= action <= last:
        raise ValueError(f"no action number {action}: the actions are 0 to {last}")
    return int(action)


def setting_number(value: Any) -> int | None:
    """A whole-number setting (players, seat, max_rounds, num_envs) as an int, from a Python or
    numpy integer (a sweep's `np.arange` gives numpy's); None for anything else (a float, a bool,
    a string), which the caller refuses naming the setting."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        return None
    return int(value)


def check_players(players: Any) -> int:
    """The player count as an int (a numpy integer is taken); ValueError for another (R2)."""
    count = setting_number(players)
    if count not in PLAYER_COUNTS:
        raise ValueError(f"R2: Exact 61 Five Up is for 2, 3 or 4 players, not {players!r}")
    return count


def warn_of_refused_engine() -> None:
    """A RuntimeWarning when `EXACT61_ENGINE` asked for an engine that cannot be had (a typo,
    or `native` where it is not built): the command line says so in one line, and a program
    that only makes an environment would otherwise never know which engine it measures."""
    refused = engines.refused()
    if refused is not None:
        playing = "native" if engines.current() is engines.NATIVE else "Python"
        warnings.warn(
            f"EXACT61_ENGINE={refused.name}: {refused}; playing on the {playing} engine",
            RuntimeWarning,
            stacklevel=3,
        )


def check_seed(seed: Any) -> int | None:
    """An episode's seed as an int (a numpy integer too), or None; TypeError for anything but a
    whole number (random.Random took 1.5 and "3", and refused np.int64(3)), ValueError below 0
    (random.Random(-1) is random.Random(1): another seed's episode)."""
    if seed is None:
        return None
    number = setting_number(seed)
    if number is None:
        raise TypeError(f"seed must be an int or None, not {seed!r}")
    if number < 0:
        raise ValueError(f"seed must be at least 0, not {seed!r}")
    return number


def check_flag(name: str, value: Any) -> bool:
    """A True-or-False setting (`one_round`, `skip_forced`) as a bool, numpy's taken;
    ValueError for anything else: "False" is truthy, so a string would have been True."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, not {value!r}")
    return bool(value)


def check_max_rounds(max_rounds: Any) -> int:
    """The cap on a match's rounds as an int; ValueError for anything but a whole number >= 1."""
    rounds = setting_number(max_rounds)
    if rounds is None or rounds < 1:
        raise ValueError(f"max_rounds must be a whole number of at least 1, not {max_rounds!r}")
    return rounds


def max_round_steps(players: int) -> int:
    """The most actions one round can take: every tile placed, every boneyard tile drawn and,
    once the boneyard is empty, at most players - 1 passes before each placement (R10, R11:
    a pass after which nobody can place blocks the round)."""
    return TILES + (TILES - 5 * players) + (players - 1) * (TILES + 1)


def observation_text(view: SeatView) -> str:
    """The observation as one line of text: what the seat sees at this moment (its hand in
    canonical order, whatever order the tiles came in)."""
    public = _public_text(view)[1:]  # the player count is in the first part
    return " | ".join([f"seat {view.seat} of {view.players}", _private_text(view), *public])


def public_observation_text(view: SeatView) -> str:
    """What every seat sees at this moment, as one line (the same from any seat's view)."""
    return " | ".join(_public_text(view))


def private_observation_text(view: SeatView) -> str:
    """What only `view.seat` sees at this moment, as one line."""
    return f"seat {view.seat} | {_private_text(view)}"


def _private_text(view: SeatView) -> str:
    text = "hand " + (" ".join(map(str, sorted(view.hand))) or "-")
    if view.pending_draw is not None:
        text += f" | must place {view.pending_draw}"
    return text


def _public_text(view: SeatView) -> list[str]:
    players = view.players
    parts = [f"{players} players", f"round {view.round_index}"]
    if view.opener is not None:
        parts.append(f"opener {view.opener}")
    parts.append("scores " + " ".join(str(s) for s in view.scores))
    parts.append("to act " + ("-" if view.to_act is None else str(view.to_act)))
    layout = view.layout
    placed = [f"{t} opens" if at is None else f"{t} at {at}" for t, at in layout.placements()]
    parts.append("layout " + (", ".join(placed) or "empty"))
    parts.append("free " + (", ".join(f"{p} ({v})" for p, v in layout.free_points()) or "-"))
    parts.append(f"end sum {layout.end_sum}")
    parts.append("hand sizes " + " ".join(map(str, view.hand_sizes)))
    parts.append(f"boneyard {view.boneyard_size}")
    draws = [0] * players
    passes = [0] * players
    for step in view.history:
        if step.kind == "draw":
            draws[step.seat] += 1
        elif step.kind == "pass":
            passes[step.seat] += 1
    parts.append("draws " + " ".join(map(str, draws)))
    parts.append("passes " + " ".join(map(str, passes)))
    return parts


# ---- a whole match as one seat saw it (OpenSpiel's information state) ------------------------

# One row per round: the opener, the seat's five dealt tiles (R5), then every action in order
# and, once the round is settled, every tile revealed in a hand (R18, R20). Each is a small code
# k written k / its count, in (0, 1]; 0 is "nothing". An action's code holds the seat (relative
# to the observer) and the action's number, a draw the tile only for the observer's own draw.
ROUND_HEAD = 1 + HAND_SIZE
_OWN_DRAW = ACTION_COUNT  # + tile: the observer's own draw, naming its tile
_REVEALED = ACTION_COUNT + TILES  # + tile: a tile revealed in a hand at settlement
ITEM_CODES = MAX_PLAYERS * (ACTION_COUNT + 2 * TILES)


def round_width(players: int) -> int:
    """A round's row: the head, then room for every action and every revealed tile. A round
    with P placements and D draws takes at most (players - 1) * (P + 1) passes (R11) and
    reveals at most 28 - P tiles, so actions and revealed tiles never exceed
    `max_round_steps(players)`."""
    return ROUND_HEAD + max_round_steps(players)


def encode_round_start(
    row: FloatArray, players: int, seat: int | None, opener: int | None, dealt: Sequence[Tile]
) -> None:
    """The head of a round's row (zeroed): its opener, once known, and the tiles dealt to
    `seat` so far, in canonical order (`seat` None: the public row, no tiles)."""
    origin = 0 if seat is None else seat
    if opener is not None:
        row[0] = (1 + (opener - origin) % players) / MAX_PLAYERS
    if seat is not None:
        for k, tile in enumerate(sorted(dealt)):
            row[1 + k] = (1 + tile.ordinal) / TILES


def encode_round(row: FloatArray, log: RoundLog, players: int, seat: int | None) -> None:
    """Round `log` as `seat` saw it (`seat` None: as everyone saw it, seats absolute), into
    `row` (zeroed)."""
    encode_round_start(
        row, players, seat, log.opener, [] if seat is None else _tiles(log.start_hand(seat))
    )
    origin = 0 if seat is None else seat
    k = ROUND_HEAD
    for step in log.steps:
        if step.drawn is not None:
            code = _OWN_DRAW + step.drawn.ordinal if step.seat == seat else DRAW_ACTION
        else:
            code = ACTION_INDEX[step.action]
        row[k] = (1 + (step.seat - origin) % players + MAX_PLAYERS * code) / ITEM_CODES
        k += 1
    end = log.end
    if end is not None and end.hands is not None:
        for s, hand in enumerate(end.hands):
            for tile in sorted(hand):
                code = _REVEALED + tile.ordinal
                row[k] = (1 + (s - origin) % players + MAX_PLAYERS * code) / ITEM_CODES
                k += 1


def encode_rounds(
    rounds: Sequence[RoundLog], players: int, seat: int | None, out: FloatArray
) -> None:
    """Every round of `rounds` as `seat` saw it, one row each, into `out` (rounds x
    `round_width(players)`, zeroed here)."""
    out.fill(0.0)
    for r, log in enumerate(rounds):
        encode_round(out[r], log, players, seat)


def _tiles(indices: Sequence[int]) -> list[Tile]:
    return [ALL_TILES[t] for t in indices]


# ---- rewards ---------------------------------------------------------------------------------


def match_returns(match: Match) -> list[float]:
    """Per seat, at the end of a match: +1 for each seat of the side that reached exactly 61
    (R30; both partners at 4 players), and the other sides share -1, so the sum is 0. A match
    stopped without a winner returns 0 to everyone."""
    players = match.players
    winner = match.winner
    if winner is None:
        return [0.0] * players
    sides = side_count(players)
    lose = -1.0 / (sides - 1)
    return [1.0 if side_of(players, s) == winner else lose for s in range(players)]


def round_returns(players: int, start: Sequence[int], end: Sequence[int]) -> list[float]:
    """Per seat, for a one-round game: its side's raw gain over the round less the mean gain of
    all sides, / 305. Zero-sum, and within [-1, 1]: a side gains at most 305 (R4) and loses at
    most a partner's pips, 170 raw (R19)."""
    sides = side_count(players)
    gains = [end[s] - start[s] for s in range(sides)]
    mean = sum(gains) / sides
    return [(gains[side_of(players, s)] - mean) / TARGET_RAW for s in range(players)]


# What the module offers: its own encoding and the bots' observation it re-exports.
__all__ = [
    "ACTIONS",
    "ACTION_COUNT",
    "ACTION_INDEX",
    "ATTACH_POINTS",
    "DRAW_ACTION",
    "ITEM_CODES",
    "MAX_PASSES",
    "MAX_PLAYERS",
    "OBSERVATION_BLOCKS",
    "OBSERVATION_SIZE",
    "OBSERVATION_SLICES",
    "PASS_ACTION",
    "PIPS_IN_SET",
    "PRIVATE_BLOCKS",
    "PRIVATE_OBSERVATION_SIZE",
    "PRIVATE_SLICES",
    "PUBLIC_BLOCKS",
    "PUBLIC_OBSERVATION_SIZE",
    "PUBLIC_SLICES",
    "ROUND_HEAD",
    "TILES",
    "FloatArray",
    "MaskArray",
    "action_id",
    "action_mask",
    "encode_round",
    "encode_round_start",
    "encode_rounds",
    "legal_ids",
    "match_returns",
    "max_round_steps",
    "observation_text",
    "observe",
    "observe_private",
    "observe_public",
    "private_observation_text",
    "public_observation_text",
    "round_returns",
    "round_width",
]
