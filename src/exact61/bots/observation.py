"""The action space and the observation tensor: what a seat's view is as numbers.

Actions are numbered once: the 28 openings (R7), every placement of a tile at an attach point
that could ever accept it (R9, R13: 70 attach points, 6 tiles each), then draw and pass (R10);
450 in all, so action k means the same in OpenSpiel, PettingZoo, Gymnasium and to a bot that
plays a learned policy (`exact61.bots.learned`).

The observation is built from a `SeatView` only, so it holds what that seat may know and
nothing more (R5): its hand, the layout, scores, hand sizes, the boneyard's size and the round's
public history as counts and placed tiles. Seats are written relative to the observer (slot 0 is
the observer, slot 1 the next seat to act, slot 2 the partner at 4 players) and sides with the
observer's own side first, so one policy can play any seat.

It lives with the bots, below the research interfaces, so that a bot playing a policy learned
from the environments' observation sees exactly what they show (`exact61.research.encoding`
re-exports all of it with the rest of the research encoding).
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
    Play,
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
MAX_PASSES = 32  # the scale of a seat's passes in a round

# Every attach point a tile on the table can offer, in canonical order (by tile, then end).
ATTACH_POINTS = ALL_POINTS  # every attach point of the set, in the core's order


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
    ("passes", MAX_PLAYERS),  # passes this round per relative seat, / MAX_PASSES
    ("played", MAX_PLAYERS * TILES),  # tiles each relative seat placed this round
    ("scores", 3),  # raw score / 305 per relative side, clipped to [-1, 1]
    ("credits", ACTION_COUNT),  # R15: raw credit / 305 of each legal action of the observer
)
# What only the observing seat sees; every other block is public (R5: hands stay hidden).
PRIVATE_BLOCKS: tuple[str, ...] = ("hand", "pending_draw", "credits")
PUBLIC_BLOCKS: tuple[str, ...] = tuple(n for n, _ in OBSERVATION_BLOCKS if n not in PRIVATE_BLOCKS)


def _slices(names: Sequence[str]) -> dict[str, slice]:
    sizes = dict(OBSERVATION_BLOCKS)
    out: dict[str, slice] = {}
    at = 0
    for name in names:
        out[name] = slice(at, at + sizes[name])
        at += sizes[name]
    return out


OBSERVATION_SLICES = _slices([name for name, _ in OBSERVATION_BLOCKS])
OBSERVATION_SIZE = sum(size for _, size in OBSERVATION_BLOCKS)
PUBLIC_SLICES = _slices(PUBLIC_BLOCKS)
PUBLIC_OBSERVATION_SIZE = sum(s.stop - s.start for s in PUBLIC_SLICES.values())
PRIVATE_SLICES = _slices(PRIVATE_BLOCKS)
PRIVATE_OBSERVATION_SIZE = sum(s.stop - s.start for s in PRIVATE_SLICES.values())
PIPS_IN_SET = sum(t.pips for t in ALL_TILES)  # 168


def observe(view: SeatView, out: FloatArray | None = None) -> FloatArray:
    """The observation tensor of `view` (a fresh array, or written into `out`)."""
    return _observe(view, OBSERVATION_SLICES, OBSERVATION_SIZE, view.seat, out)


def observe_public(view: SeatView, out: FloatArray | None = None) -> FloatArray:
    """The public blocks of the observation, from any seat's view: seats absolute (slot s is
    seat s, sides in order), so every seat gets the same."""
    return _observe(view, PUBLIC_SLICES, PUBLIC_OBSERVATION_SIZE, 0, out)


def observe_private(view: SeatView, out: FloatArray | None = None) -> FloatArray:
    """The private blocks of the observation: what only `view.seat` sees."""
    return _observe(view, PRIVATE_SLICES, PRIVATE_OBSERVATION_SIZE, view.seat, out)


def _observe(
    view: SeatView, sl: dict[str, slice], size: int, origin: int, out: FloatArray | None
) -> FloatArray:
    """The blocks in `sl`, seats written relative to seat `origin`."""
    obs = np.zeros(size, dtype=np.float32) if out is None else out
    if out is not None:
        # a shorter array lost blocks past its end, an int one every fraction: silently wrong
        if not isinstance(out, np.ndarray) or out.shape != (size,) or out.dtype != np.float32:
            given = (
                f"{out.dtype} of shape {out.shape}" if isinstance(out, np.ndarray) else repr(out)
            )
            raise ValueError(f"out must be a float32 array of shape ({size},), not {given}")
        obs.fill(0.0)
    players = view.players

    def rel(s: int) -> int:
        return (s - origin) % players

    layout = view.layout
    if "hand" in sl:
        hand = sl["hand"].start
        for t in view.hand:
            obs[hand + t.ordinal] = 1.0
        if view.pending_draw is not None:
            obs[sl["pending_draw"].start + view.pending_draw.ordinal] = 1.0
        credits = sl["credits"].start
        for action in view.legal_actions:
            if isinstance(action, Play):
                credit = layout.credit_after(action.tile, action.at)
                obs[credits + ACTION_INDEX[action]] = credit / TARGET_RAW
    if "table" not in sl:
        return obs
    obs[sl["players"].start + players - 2] = 1.0
    table = sl["table"].start
    for t in layout.tiles:
        obs[table + t.ordinal] = 1.0
    free = sl["free_points"].start
    for point, _ in layout.free_points():
        obs[free + POINT_INDEX[point]] = 1.0
    open_values = layout.open_values
    base = sl["open_values"].start
    for v in range(7):
        if open_values >> v & 1:
            obs[base + v] = 1.0
    obs[sl["end_sum"].start] = layout.end_sum / PIPS_IN_SET
    if view.to_act is not None:
        obs[sl["to_act"].start + rel(view.to_act)] = 1.0
    if view.opener is not None:
        obs[sl["opener"].start + rel(view.opener)] = 1.0
    sizes = sl["hand_sizes"].start
    for s, n in enumerate(view.hand_sizes):
        obs[sizes + rel(s)] = n / TILES
    obs[sl["boneyard"].start] = view.boneyard_size / TILES
    played = sl["played"].start
    draws, passes = [0] * MAX_PLAYERS, [0] * MAX_PLAYERS
    for step in view.history:
        r = rel(step.seat)
        if step.kind == "play":
            assert step.play is not None
            obs[played + r * TILES + step.play.tile.ordinal] = 1.0
        elif step.kind == "draw":
            draws[r] += 1
        else:
            passes[r] += 1
    for r in range(players):
        obs[sl["draws"].start + r] = draws[r] / TILES
        obs[sl["passes"].start + r] = passes[r] / MAX_PASSES
    sides = side_count(players)
    own = side_of(players, origin)
    scores = sl["scores"].start
    for side, raw in enumerate(view.scores):
        obs[scores + (side - own) % sides] = max(-1.0, min(1.0, raw / TARGET_RAW))
    return obs
