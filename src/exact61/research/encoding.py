"""One action space, one observation tensor and one reward rule for every research interface.

Actions are numbered once: the 28 openings (R7), every placement of a tile at an attach point
that could ever accept it (R9, R13: 70 attach points, 6 tiles each), then draw and pass (R10);
450 in all, so action k means the same in OpenSpiel, PettingZoo and Gymnasium.

The observation is built from a `SeatView` only, so it holds what that seat may know and
nothing more (R5): its hand, the layout, scores, hand sizes, the boneyard's size and the round's
public history as counts and placed tiles. Seats are written relative to the observer (slot 0 is
the observer, slot 1 the next seat to act, slot 2 the partner at 4 players) and sides with the
observer's own side first, so one policy can play any seat.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from exact61.core import (
    ALL_TILES,
    DRAW,
    PASS,
    TARGET_RAW,
    Action,
    Match,
    Play,
    PublicStep,
    SeatView,
    side_count,
    side_of,
)
from exact61.core.errors import RuleError
from exact61.core.points import ALL_POINTS, POINT_INDEX

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]

MAX_PLAYERS = 4
TILES = len(ALL_TILES)  # 28 (R1)

# Every attach point a tile on the table can offer, in canonical order (by tile, then end).
ATTACH_POINTS = ALL_POINTS  # every attach point of the set, in the core's order
OPENING_POINT = len(ATTACH_POINTS)  # the "attach point" of an opening tile, in history tensors


def _build_actions() -> tuple[Action, ...]:
    actions: list[Action] = [Play(tile, None) for tile in ALL_TILES]
    for tile in ALL_TILES:
        for point in ATTACH_POINTS:
            # R9: a tile joins by a half showing the point's value; it never joins itself.
            if point.tile != tile and point.value in (tile.low, tile.high):
                actions.append(Play(tile, point))
    actions += [DRAW, PASS]
    return tuple(actions)


ACTIONS: tuple[Action, ...] = _build_actions()
ACTION_COUNT = len(ACTIONS)  # 450
ACTION_INDEX: dict[Action, int] = {a: i for i, a in enumerate(ACTIONS)}
DRAW_ACTION = ACTION_INDEX[DRAW]
PASS_ACTION = ACTION_INDEX[PASS]


def action_id(action: Action) -> int:
    """The number of `action` in the fixed action space."""
    try:
        return ACTION_INDEX[action]
    except KeyError:
        raise RuleError("R9", f"{action!r} is not a placement any layout can offer") from None


def legal_ids(legal: Sequence[Action]) -> list[int]:
    """The numbers of the legal actions, ascending (as OpenSpiel wants them)."""
    return sorted(ACTION_INDEX[a] for a in legal)


def action_mask(legal: Sequence[Action]) -> MaskArray:
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    for a in legal:
        mask[ACTION_INDEX[a]] = 1
    return mask


# ---- the observation tensor ------------------------------------------------------------------

# (name, size) in order; every value lies in [-1, 1] (only scores can be negative, R19).
OBSERVATION_BLOCKS: tuple[tuple[str, int], ...] = (
    ("players", 3),  # one-hot: 2, 3 or 4 players
    ("hand", TILES),  # the observer's tiles
    ("pending_draw", TILES),  # R10: the drawn tile it must place at once
    ("table", TILES),  # tiles on the layout
    ("free_points", len(ATTACH_POINTS)),  # free attach points (R13)
    ("open_values", 7),  # pip values some free attach point accepts
    ("end_sum", 1),  # R15: sum of scored contributions / 168 (all pips of the set)
    ("to_act", MAX_PLAYERS),  # relative seat to act
    ("opener", MAX_PLAYERS),  # relative seat that opened the round
    ("hand_sizes", MAX_PLAYERS),  # per relative seat, / 28
    ("boneyard", 1),  # boneyard size / 28
    ("draws", MAX_PLAYERS),  # draws this round per relative seat, / 28
    ("passes", MAX_PLAYERS),  # passes this round per relative seat, / 32
    ("played", MAX_PLAYERS * TILES),  # tiles each relative seat placed this round
    ("scores", 3),  # raw score / 305 per relative side, clipped to [-1, 1]
    ("credits", ACTION_COUNT),  # R15: raw credit / 305 of each legal action of the observer
)
OBSERVATION_SIZE = sum(size for _, size in OBSERVATION_BLOCKS)
OBSERVATION_SLICES: dict[str, slice] = {}
_at = 0
for _name, _size in OBSERVATION_BLOCKS:
    OBSERVATION_SLICES[_name] = slice(_at, _at + _size)
    _at += _size
del _at, _name, _size

_SL = OBSERVATION_SLICES
_PIPS_IN_SET = sum(t.pips for t in ALL_TILES)  # 168


def max_round_steps(players: int) -> int:
    """The most actions one round can take: every tile placed, every boneyard tile drawn and,
    once the boneyard is empty, at most players - 1 passes before each placement (R10, R11:
    a pass after which nobody can place blocks the round)."""
    return TILES + (TILES - 5 * players) + (players - 1) * (TILES + 1)


def observe(view: SeatView, out: FloatArray | None = None) -> FloatArray:
    """The observation tensor of `view` (a fresh array, or written into `out`)."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    players = view.players
    seat = view.seat

    def rel(s: int) -> int:
        return (s - seat) % players

    obs[_SL["players"].start + players - 2] = 1.0
    hand = _SL["hand"].start
    for t in view.hand:
        obs[hand + t.ordinal] = 1.0
    if view.pending_draw is not None:
        obs[_SL["pending_draw"].start + view.pending_draw.ordinal] = 1.0
    layout = view.layout
    table = _SL["table"].start
    for t in layout.tiles:
        obs[table + t.ordinal] = 1.0
    free = _SL["free_points"].start
    for point, _ in layout.free_points():
        obs[free + POINT_INDEX[point]] = 1.0
    open_values = layout.open_values
    base = _SL["open_values"].start
    for v in range(7):
        if open_values >> v & 1:
            obs[base + v] = 1.0
    obs[_SL["end_sum"].start] = layout.end_sum / _PIPS_IN_SET
    if view.to_act is not None:
        obs[_SL["to_act"].start + rel(view.to_act)] = 1.0
    if view.opener is not None:
        obs[_SL["opener"].start + rel(view.opener)] = 1.0
    sizes = _SL["hand_sizes"].start
    for s, n in enumerate(view.hand_sizes):
        obs[sizes + rel(s)] = n / TILES
    obs[_SL["boneyard"].start] = view.boneyard_size / TILES
    draws, passes, played = _SL["draws"].start, _SL["passes"].start, _SL["played"].start
    for step in view.history:
        r = rel(step.seat)
        if step.kind == "play":
            assert step.play is not None
            obs[played + r * TILES + step.play.tile.ordinal] = 1.0
        elif step.kind == "draw":
            obs[draws + r] += 1.0 / TILES
        else:
            obs[passes + r] += 1.0 / 32
    sides = side_count(players)
    own = view.side
    scores = _SL["scores"].start
    for side, raw in enumerate(view.scores):
        obs[scores + (side - own) % sides] = max(-1.0, min(1.0, raw / TARGET_RAW))
    credits = _SL["credits"].start
    for action in view.legal_actions:
        if isinstance(action, Play):
            credit = layout.credit_after(action.tile, action.at)
            obs[credits + ACTION_INDEX[action]] = credit / TARGET_RAW
    return obs


def observation_text(view: SeatView) -> str:
    """The observation as one line of text: what the seat sees at this moment."""
    players = view.players
    parts = [f"seat {view.seat} of {players}", f"round {view.round_index}"]
    if view.opener is not None:
        parts.append(f"opener {view.opener}")
    parts.append("scores " + " ".join(str(s) for s in view.scores))
    parts.append("to act " + ("-" if view.to_act is None else str(view.to_act)))
    parts.append("hand " + (" ".join(map(str, view.hand)) or "-"))
    if view.pending_draw is not None:
        parts.append(f"must place {view.pending_draw}")
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
    return " | ".join(parts)


# ---- history tensor (OpenSpiel's information state) ------------------------------------------

STEP_SIZE = MAX_PLAYERS + 3 + TILES + len(ATTACH_POINTS) + 1  # seat, kind, tile, point


def history_size(players: int) -> int:
    return max_round_steps(players) * STEP_SIZE


def encode_history(history: Sequence[PublicStep], seat: int, players: int, out: FloatArray) -> None:
    """Write the round's public history as `seat` saw it into `out` (zeroed), one slot a step:
    relative seat, kind (play, draw, pass), the tile (a placed tile, or the seat's own drawn
    tile) and the attach point (or the opening)."""
    out.fill(0.0)
    kinds = {"play": 0, "draw": 1, "pass": 2}
    for k, step in enumerate(history):
        base = k * STEP_SIZE
        out[base + (step.seat - seat) % players] = 1.0
        out[base + MAX_PLAYERS + kinds[step.kind]] = 1.0
        tile_at = base + MAX_PLAYERS + 3
        if step.play is not None:
            out[tile_at + step.play.tile.ordinal] = 1.0
            at = step.play.at
            point = OPENING_POINT if at is None else POINT_INDEX[at]
            out[tile_at + TILES + point] = 1.0
        elif step.drawn is not None:
            out[tile_at + step.drawn.ordinal] = 1.0


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
