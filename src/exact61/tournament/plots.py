"""Tournament plots as PNG files (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator

from exact61.core.settlement import side_count
from exact61.tournament.stats import Standings, ranked


def write_plots(standings: Standings, table: dict[str, dict[str, Any]], folder: Path) -> list[Path]:
    """win_rates.png, score_progression.png and match_lengths.png in `folder`; the bots in the
    order of the command line's table (`ranked`)."""
    folder.mkdir(parents=True, exist_ok=True)
    bots = ranked(table)
    paths = [_save(_win_rate_figure(standings, table, bots), folder / "win_rates.png")]
    paths.append(_save(progression_figure(standings, bots), folder / "score_progression.png"))

    fig, ax = plt.subplots(figsize=(6, 4))
    lengths = standings.lengths
    bins = range(1, max(lengths, default=1) + 2)
    ax.hist(lengths, bins=bins, color="#6a9f58", edgecolor="white", align="left")
    ax.set_xlabel("rounds in the match")
    ax.set_ylabel("matches")
    ax.set_title("Match length")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    paths.append(_save(fig, folder / "match_lengths.png"))
    return paths


def _win_rate_figure(
    standings: Standings, table: dict[str, dict[str, Any]], bots: list[str]
) -> Any:
    """A bar per bot, in the order of `bots`: its match win rate with the 95% interval."""
    fig, ax = plt.subplots(figsize=(6, 4))
    rates = [table[b]["win_rate"] for b in bots]
    low = [table[b]["win_rate"] - table[b]["ci95"][0] for b in bots]
    high = [table[b]["ci95"][1] - table[b]["win_rate"] for b in bots]
    ax.bar(bots, rates, yerr=[low, high], capsize=6, color="#4a7ab5")
    sides = side_count(standings.players)
    ax.axhline(1 / sides, color="grey", linestyle="--", linewidth=1, label="even")
    ax.set_ylim(0, 1)
    ax.set_ylabel("match win rate (95% interval)")
    ax.set_title(f"Win rates, {standings.players} players, {len(standings.lengths)} matches")
    ax.legend()
    return fig


def carried(runs: list[list[int]], rounds: int) -> list[list[int]]:
    """Each run's score after rounds 1..`rounds`, a finished match keeping its final score, so
    every round counts every match and the survivors of long matches do not skew it."""
    return [[run[min(i, len(run) - 1)] for i in range(rounds)] for run in runs if run]


def progression_figure(standings: Standings, bots: list[str]) -> Any:
    """Per bot, the median display score after each round with the middle half as a band
    (finished matches carried at their final score); below, how many matches still run."""
    fig, (ax, alive_ax) = plt.subplots(
        2, 1, figsize=(6, 5.5), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    longest = max(standings.lengths, default=0)
    rounds = list(range(1, longest + 1))
    for bot in bots:
        scores = np.array(carried(standings.progressions[bot], longest), dtype=float)
        if not scores.size:
            continue
        low, median, high = np.percentile(scores, [25, 50, 75], axis=0)
        (line,) = ax.plot(rounds, median, marker=".", label=f"{bot} (median)")
        ax.fill_between(rounds, low, high, color=line.get_color(), alpha=0.2)
    ax.axhline(61, color="grey", linestyle="--", linewidth=1)
    ax.set_ylabel("display score\n(median, middle half shaded)")
    ax.set_title("Score progression (finished matches keep their final score)")
    ax.legend(fontsize="small")
    still = [sum(1 for n in standings.lengths if n >= r) for r in rounds]
    alive_ax.bar(rounds, still, color="#999999")
    alive_ax.set_xlabel("round")
    alive_ax.set_ylabel("matches\nstill going")
    for axis in (ax.xaxis, alive_ax.xaxis, alive_ax.yaxis):
        axis.set_major_locator(MaxNLocator(integer=True))
    return fig


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
