"""The match equity table: each side's chance to win the match from the scores at the start of a
round, and the seat that opens it (R8: the domino maker, or a lot).

Shipped as `analysis/data/equity.npz`, built by `scripts/equity_table.py` (how: `markov`).
Scores are display points (raw / 5): 0-60 for each side, 61 being a won match; at 4 players
scores may fall below 0 (R19: a partner's pips are deducted) and the table keeps them from -20
up (a match goes below -20 about once in ten thousand; lower scores count as -20). At 3 players
the table holds, for each side in turn order from the opener, its chance at every triple of
scores (61^3 triples, 16 bits a value), so it needs no approximation.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from exact61.core import TARGET_RAW
from exact61.core.settlement import TARGET_DISPLAY, side_count, side_of
from exact61.core.settlement import display as display_points

if TYPE_CHECKING:
    from numpy.typing import NDArray

# numpy is imported where a table is loaded or drawn, not with this module: the bots import it,
# and a command that plays no `equity` bot (`simulate` with random bots) need not load numpy.

TARGET = TARGET_DISPLAY  # the table counts display points (R3)
_SCALE = 65535.0


class EquityTable:
    """Each side's chance to win the match at the start of a round (see the module)."""

    def __init__(self, arrays: dict[str, NDArray[Any]]) -> None:
        self.meta: dict[str, Any] = json.loads(str(arrays["meta"]))
        self.low = {int(k): int(v) for k, v in self.meta["low"].items()}
        self._w2: list[list[float]] = arrays["w2"].astype(float).tolist()
        self._w4: list[list[float]] = arrays["w4"].astype(float).tolist()
        self._w3 = arrays["w3"]
        self._se = {n: arrays[f"se{n}"] for n in (2, 3, 4)}
        self.arrays = arrays

    @classmethod
    def load(cls, path: Path | None = None) -> EquityTable:
        import numpy as np

        if path is None:
            ref = resources.files("exact61.search") / "data" / "equity.npz"
            with resources.as_file(ref) as p, np.load(p) as data:
                return cls({k: data[k] for k in data.files})
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    @functools.cached_property
    def native(self) -> Any:
        """This table in the native core (`exact61.core._native.EquityTable`), for the native
        searches: the same numbers, looked up the same way. Built once, when first asked."""
        from exact61.core import _native

        return _native.EquityTable(self._w2, self._w4, self._w3.reshape(-1).tolist(), self.low)

    def _index(self, players: int, display: int) -> int:
        low = self.low[players]
        return min(max(display, low), TARGET - 1) - low

    def _opening(self, players: int, display: Sequence[int], opener_side: int) -> list[float]:
        """Each side's chance when `opener_side` opens (scores in display points, below 61)."""
        sides = side_count(players)
        if sides == 2:
            table = self._w2 if players == 2 else self._w4
            mine = self._index(players, display[opener_side])
            theirs = self._index(players, display[1 - opener_side])
            p = table[mine][theirs]
            return [p, 1.0 - p] if opener_side == 0 else [1.0 - p, p]
        rel = [self._index(3, display[(opener_side + j) % 3]) for j in range(3)]
        raw = self._w3[rel[0], rel[1], rel[2]]
        first, second = float(raw[0]) / _SCALE, float(raw[1]) / _SCALE
        rel_p = [first, second, max(0.0, 1.0 - first - second)]
        return [rel_p[(side - opener_side) % 3] for side in range(3)]

    def win_probabilities(
        self, players: int, scores: Sequence[int], opener: int | None
    ) -> tuple[float, ...]:
        """Each side's chance to win from raw `scores` at the start of a round opened by seat
        `opener` (None: by a lot over the seats, R6/R8). A side at 305 has won (R30)."""
        sides = side_count(players)
        if len(scores) != sides:
            raise ValueError(f"{players} players make {sides} sides, not {len(scores)}")
        for side, raw in enumerate(scores):
            if raw == TARGET_RAW:
                return tuple(1.0 if s == side else 0.0 for s in range(sides))
            if raw > TARGET_RAW or raw % 5:
                raise ValueError(f"R3/R4: a score is a multiple of 5 up to 305, not {raw}")
        display = [display_points(raw) for raw in scores]
        if opener is not None:
            return tuple(self._opening(players, display, side_of(players, opener)))
        total = [0.0] * sides
        for seat in range(players):  # a lot: uniform over the seats (R6)
            for side, p in enumerate(self._opening(players, display, side_of(players, seat))):
                total[side] += p / players
        return tuple(total)

    def standard_error(self, players: int, scores: Sequence[int], opener: int) -> float:
        """The statistical error of the opening side's chance (display scores, see `build`)."""
        se = self._se[players]
        side = side_of(players, opener)
        sides = side_count(players)
        idx = [self._index(players, scores[(side + j) % sides]) for j in range(sides)]
        value = se[tuple(idx)]
        return float(value if getattr(value, "ndim", 0) == 0 else value[0]) / _SCALE

    def leaf(self, players: int) -> Any:
        """A leaf function for `solver.Solver`: (raw scores, opener) -> each side's chance."""
        cache: dict[tuple[tuple[int, ...], int | None], tuple[float, ...]] = {}

        def leaf(scores: tuple[int, ...], opener: int | None) -> tuple[float, ...]:
            key = (scores, opener)
            value = cache.get(key)
            if value is None:
                value = cache[key] = self.win_probabilities(players, scores, opener)
            return value

        return leaf


@lru_cache(maxsize=1)
def default_table() -> EquityTable:
    """The shipped table, loaded once."""
    return EquityTable.load()


def plot_heatmaps(out: Path, table: EquityTable | None = None) -> list[Path]:
    """Heat maps of the table: 2 and 4 players (each opener, and a lot), 3 players at a few
    third scores. `out` is a folder, made if it is missing (its parent must exist), that gets
    one file a player count (equity-2p.png, equity-3p.png, equity-4p.png); or a file name
    ending in .png that is not a folder, which gets them all in one picture. Returns the files
    written (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = table or default_table()
    if out.suffix.lower() == ".png" and not out.is_dir():
        fig = plt.figure(figsize=(16, 3 * 5.2), constrained_layout=True)
        rows: Any = fig.subfigures(3, 1)  # an array of three subfigures
        for row, players in zip(rows, (2, 3, 4), strict=True):
            _draw_heatmaps(row, t, players)
        fig.savefig(out, dpi=110)
        plt.close(fig)
        return [out]
    out.mkdir(exist_ok=True)
    paths = []
    for players in (2, 4, 3):
        fig = plt.figure(figsize=(16, 5.2), constrained_layout=True)
        _draw_heatmaps(fig, t, players)
        path = out / f"equity-{players}p.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def _draw_heatmaps(fig: Any, t: EquityTable, players: int) -> None:
    """One row of three heat maps in `fig` (a matplotlib figure or subfigure): at 2 and 4
    players each opener and a lot; at 3 players, by lot, with side 2 at 0, 40 and 58."""
    import numpy as np

    axes = fig.subplots(1, 3)
    if players == 3:
        for ax, third in zip(axes, (0, 40, 58), strict=True):
            grid = np.array(
                [
                    [t.win_probabilities(3, (5 * a, 5 * b, 5 * third), None)[0] for b in range(61)]
                    for a in range(61)
                ]
            )
            image = ax.imshow(
                grid, origin="lower", cmap="RdBu", vmin=0, vmax=1, extent=(-0.5, 60.5, -0.5, 60.5)
            )
            ax.set_title(f"3 players, side 2 at {third}, opener by lot")
            ax.set_xlabel("side 1 score (display)")
            ax.set_ylabel("side 0 score (display)")
    else:
        low = t.low[players]
        scores = list(range(low, TARGET))
        for ax, (title, opener) in zip(
            axes,
            (("side 0 opens", 0), ("side 1 opens", 1), ("opener by lot", None)),
            strict=True,
        ):
            grid = np.array(
                [
                    [t.win_probabilities(players, (5 * a, 5 * b), opener)[0] for b in scores]
                    for a in scores
                ]
            )
            image = ax.imshow(
                grid,
                origin="lower",
                cmap="RdBu",
                vmin=0,
                vmax=1,
                extent=(low - 0.5, 60.5, low - 0.5, 60.5),
            )
            ax.set_title(f"{players} players, {title}")
            ax.set_xlabel("side 1 score (display)")
            ax.set_ylabel("side 0 score (display)")
    fig.colorbar(image, ax=axes, label="P(side 0 wins the match)", shrink=0.9)
