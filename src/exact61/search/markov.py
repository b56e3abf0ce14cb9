"""The match as a Markov chain over round starts, solved for each side's chance to win.

A state is the sides' display scores at the start of a round and the side that opens it. A round
is drawn from a round model: rounds played in self-play, each kept as the ordered list of its
scoring events (seat counted from the opener, raw value before any target check), how it ended
and who made domino. The chain applies a round's events to a state one by one as the rules do:
an event that would pass 61 is rejected whole (R4), a negative domino net is applied (R19), the
first event reaching exactly 61 wins the match and nothing after it counts (R30, R22). The next
round is opened by the domino maker, or after a block by a lot over the seats (R8).

The model's one assumption is that a round's events do not depend on the scores it starts from;
the rejection and the exact finish are the chain's, applied to every state. (Near 61 a strong
player steers for the exact finish; `scripts/equity_table.py check` measures the difference by
direct self-play.)

Tables, by the opener's side ("0") and the others in turn order:
- two sides (2 players, 4 players): `W[x, y]`, the opening side's chance to win with score x
  against y (display points, from `low` to 60);
- three sides: `W[x, y, z, j]`, side j's chance (0 the opener, 1 next, 2 after), scores in turn
  order from the opener.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from exact61.core.settlement import (
    RAW_PER_DISPLAY,
    TARGET_DISPLAY,
    accepts,
    display,
    lands,
    side_count,
)

TARGET = TARGET_DISPLAY  # the chain counts display points (R3)
NEVER = np.int16(10_000)  # "no event of this side reaches 61 this round"


@dataclass(frozen=True)
class RoundModel:
    """Rounds as the chain sees them (seats counted from the round's opener)."""

    players: int
    seats: NDArray[np.int8]  # [rounds, events]: the event's seat, -1 after the last event
    points: NDArray[np.int16]  # [rounds, events]: its raw value / 5 (display points)
    domino: NDArray[np.int8]  # [rounds]: the domino maker, -1 after a block (R8: a lot)

    @classmethod
    def from_rounds(cls, players: int, rounds: Iterable[Mapping[str, Any]]) -> RoundModel:
        """From `scripts/equity_rounds.py` lines: {"events": [[seat, raw], ...], "domino": ...}."""
        rows = list(rounds)
        width = max((len(r["events"]) for r in rows), default=0)
        seats = np.full((len(rows), width), -1, dtype=np.int8)
        points = np.zeros((len(rows), width), dtype=np.int16)
        domino = np.full(len(rows), -1, dtype=np.int8)
        for i, r in enumerate(rows):
            for k, (seat, raw) in enumerate(r["events"]):
                if raw % 5:
                    raise ValueError(f"round {i}: raw {raw} is not a multiple of 5 (R3)")
                seats[i, k] = seat
                points[i, k] = display(raw)
            if r.get("domino") is not None:
                domino[i] = r["domino"]
        return cls(players, seats, points, domino)

    @classmethod
    def from_jsonl(cls, players: int, text: str) -> RoundModel:
        return cls.from_rounds(players, (json.loads(line) for line in text.splitlines() if line))

    def __len__(self) -> int:
        return len(self.domino)

    @property
    def sides(self) -> int:
        return side_count(self.players)

    def side_of_seat(self, seats: NDArray[Any]) -> NDArray[Any]:
        """R2: a relative seat's side, counted from the opener's side (-1 stays -1)."""
        if self.players == 4:
            return np.where(seats < 0, -1, seats % 2)
        return seats

    def take(self, rows: NDArray[np.intp]) -> RoundModel:
        """The rounds `rows` (with repeats: a bootstrap resample)."""
        return RoundModel(self.players, self.seats[rows], self.points[rows], self.domino[rows])


def side_paths(model: RoundModel, low: int) -> tuple[NDArray[np.int16], NDArray[np.int16]]:
    """Each side's course through each round, from every start score, on its own.

    Returns `final[r, j, a - low]`, side j's score after round r from score a (clamped to `low`
    at the end), and `hit[r, j, a - low]`, the index of the event that takes it to exactly 61
    (NEVER if none). A side's events are target-checked against its own score only (R4), so the
    sides can be followed apart; the side that hits first wins and ends the match (R30).
    """
    rounds, width = model.seats.shape
    start = np.arange(low, TARGET, dtype=np.int16)
    sides = model.side_of_seat(model.seats.astype(np.int16))
    final = np.empty((rounds, model.sides, len(start)), dtype=np.int16)
    hit = np.empty_like(final)
    for j in range(model.sides):
        score = np.tile(start, (rounds, 1))
        when = np.full_like(score, NEVER)
        for k in range(width):
            mine = (sides[:, k] == j)[:, None] & (when == NEVER)
            points = model.points[:, k, None]
            raw, award = score * RAW_PER_DISPLAY, points * RAW_PER_DISPLAY
            applied = mine & accepts(
                raw, award
            )  # R4: rejected whole above 61; R19: negatives apply
            score = np.where(applied, score + points, score)
            when = np.where(applied & lands(raw, award), np.int16(k), when)
        final[:, j] = np.clip(score, low, TARGET - 1)
        hit[:, j] = when
    return final, hit


def _same_side_opens(model: RoundModel) -> NDArray[np.float64]:
    """Per round: the chance that the opener's side opens the next round too (R8)."""
    d = model.domino.astype(np.int16)
    same = model.side_of_seat(d) == 0
    return np.where(d < 0, 0.5 if model.players != 3 else 1.0 / 3.0, same.astype(np.float64))


def solve_two_sides(
    model: RoundModel, low: int = 0, tolerance: float = 1e-12, max_sweeps: int = 100_000
) -> NDArray[np.float64]:
    """`W[x - low, y - low]`: the opening side's chance to win at scores x (its own), y.

    W(x, y) = mean over rounds of: 1 if the opener's side reaches 61 first, 0 if the other does,
    else W(x', y') when the opener's side opens again and 1 - W(y', x') when the other does (a
    lot after a block: half each). Solved by iterating the linear system to a fixed point.
    """
    from scipy import sparse

    if model.sides != 2:
        raise ValueError("two sides: 2 or 4 players")
    final, hit = side_paths(model, low)
    n = TARGET - low
    rounds = len(model)
    same = _same_side_opens(model)
    rows_all: list[NDArray[np.int64]] = []
    cols_all: list[NDArray[np.int64]] = []
    vals_all: list[NDArray[np.float64]] = []
    b = np.zeros((n, n))
    y_index = np.arange(n)
    for x in range(n):
        h0 = hit[:, 0, x][:, None]  # [rounds, 1]
        h1 = hit[:, 1, :]  # [rounds, n] over y
        win = h0 < h1
        going = (h0 == NEVER) & (h1 == NEVER)
        g0 = np.broadcast_to(final[:, 0, x][:, None].astype(np.int64) - low, h1.shape)
        g1 = final[:, 1, :].astype(np.int64) - low
        b[x] = (win.sum(axis=0) + (going * (1.0 - same[:, None])).sum(axis=0)) / rounds
        row = np.broadcast_to((x * n + y_index)[None, :], h1.shape)
        weight_same = going * same[:, None] / rounds
        weight_other = -(going * (1.0 - same[:, None])) / rounds
        for col, weight in ((g0 * n + g1, weight_same), (g1 * n + g0, weight_other)):
            keep = weight != 0
            rows_all.append(row[keep].astype(np.int64))
            cols_all.append(col[keep].astype(np.int64))
            vals_all.append(weight[keep])
    matrix = sparse.coo_matrix(
        (np.concatenate(vals_all), (np.concatenate(rows_all), np.concatenate(cols_all))),
        shape=(n * n, n * n),
    ).tocsr()
    matrix.sum_duplicates()
    flat_b = b.ravel()
    w = flat_b.copy()
    for _ in range(max_sweeps):
        new = flat_b + matrix @ w
        if np.max(np.abs(new - w)) < tolerance:
            w = new
            break
        w = new
    else:  # pragma: no cover - the chain is transient: matches end
        raise RuntimeError("the equity iteration did not converge")
    return np.asarray(w.reshape(n, n))


def solve_three_sides(model: RoundModel, chunk: int = 512) -> NDArray[np.float64]:
    """`W[x, y, z, j]` for 3 players: side j's chance to win (0 the opener, then turn order).

    Scores never fall at 3 players (R19 nets are never negative without a partner), so states
    are solved layer by layer from the highest total down; within a layer the only links are
    rounds that change no score and hand the opening to another seat, solved by iteration.
    """
    if model.players != 3:
        raise ValueError("three sides: 3 players")
    # Rounds grouped by who opens the next one (seat 0, 1, 2 from this opener; a block last),
    # so each chunk looks its next states up under one rotation.
    kind = np.where(model.domino < 0, 3, model.domino).astype(np.int64)
    order = np.argsort(kind, kind="stable")
    final, hit = side_paths(model.take(order), 0)
    kind = kind[order]
    rounds = len(model)
    n = TARGET
    w = np.zeros((n, n, n, 3))
    flat = w.reshape(-1, 3)
    grid = np.indices((n, n, n)).reshape(3, -1)
    totals = grid.sum(axis=0)
    chunks: list[tuple[slice, tuple[tuple[int, float], ...]]] = []
    for k in range(4):
        members = np.flatnonzero(kind == k)
        if not len(members):
            continue
        # R8: the domino maker opens; after a block, a lot over the three seats.
        rotations: tuple[tuple[int, float], ...] = (
            ((k, 1.0),) if k < 3 else ((0, 1 / 3), (1, 1 / 3), (2, 1 / 3))
        )
        for lo in range(members[0], members[-1] + 1, chunk):
            chunks.append((slice(lo, min(lo + chunk, members[-1] + 1)), rotations))
    for total in range(3 * (n - 1), -1, -1):
        states = np.flatnonzero(totals == total)
        x, y, z = grid[0, states], grid[1, states], grid[2, states]
        base = np.zeros((len(states), 3))
        stay = np.zeros((len(states), 3))  # unchanged scores, next opener k (rotation k)
        for sl, rotations in chunks:
            h = [hit[sl, 0][:, x], hit[sl, 1][:, y], hit[sl, 2][:, z]]
            g: list[NDArray[np.int64]] = [
                final[sl, 0][:, x].astype(np.int64),
                final[sl, 1][:, y].astype(np.int64),
                final[sl, 2][:, z].astype(np.int64),
            ]
            first = np.minimum(np.minimum(h[0], h[1]), h[2])
            for j in range(3):
                base[:, j] += ((h[j] == first) & (first != NEVER)).sum(axis=0)
            going = first == NEVER
            unchanged = going & (g[0] == x) & (g[1] == y) & (g[2] == z)
            moved = going & ~unchanged
            for k, weight in rotations:
                # The next round's scores in turn order from its opener (this round's seat k).
                nxt = g[k] * (n * n) + g[(k + 1) % 3] * n + g[(k + 2) % 3]
                values = flat[np.where(moved, nxt, 0)]  # [rounds, states, 3] from seat k
                for j in range(3):
                    base[:, j] += weight * (moved * values[..., (j - k) % 3]).sum(axis=0)
                stay[:, k] += weight * unchanged.sum(axis=0)
        base /= rounds
        stay /= rounds
        rotated = [states, y * n * n + z * n + x, z * n * n + x * n + y]
        values = base.copy()
        for _ in range(1000):  # the layer's own links: a few percent of rounds, fast
            new = base.copy()
            for k in range(3):
                other = flat[rotated[k]] if k else values
                for j in range(3):
                    new[:, j] += stay[:, k] * other[:, (j - k) % 3]
            flat[states] = new
            if np.max(np.abs(new - values)) < 1e-14:
                break
            values = new
    return w
