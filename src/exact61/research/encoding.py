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
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from exact61.core import (
    ALL_TILES,
    DRAW,
    HAND_SIZE,
    PASS,
    TARGET_RAW,
    Action,
    Match,
    Play,
    RoundLog,
    SeatView,
    Tile,
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


def max_round_steps(players: int) -> int:
    """The most actions one round can take: every tile placed, every boneyard tile drawn and,
    once the boneyard is empty, at most players - 1 passes before each placement (R10, R11:
    a pass after which nobody can place blocks the round)."""
    return TILES + (TILES - 5 * players) + (players - 1) * (TILES + 1)


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
