"""Tournament plots as PNG files (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from exact61.tournament.stats import Standings


def write_plots(standings: Standings, table: dict[str, dict[str, Any]], folder: Path) -> list[Path]:
    """win_rates.png, score_progression.png and match_lengths.png in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    bots = list(table)
    paths = []

    fig, ax = plt.subplots(figsize=(6, 4))
    rates = [table[b]["win_rate"] for b in bots]
    low = [table[b]["win_rate"] - table[b]["ci95"][0] for b in bots]
    high = [table[b]["ci95"][1] - table[b]["win_rate"] for b in bots]
    ax.bar(bots, rates, yerr=[low, high], capsize=6, color="#4a7ab5")
    sides = 2 if standings.players == 4 else standings.players
    ax.axhline(1 / sides, color="grey", linestyle="--", linewidth=1, label="even")
    ax.set_ylim(0, 1)
    ax.set_ylabel("match win rate (95% interval)")
    ax.set_title(f"Win rates, {standings.players} players, {len(standings.lengths)} matches")
    ax.legend()
    paths.append(_save(fig, folder / "win_rates.png"))

    fig, ax = plt.subplots(figsize=(6, 4))
    for bot in bots:
        runs = standings.progressions[bot]
        longest = max((len(r) for r in runs), default=0)
        means = []
        for i in range(longest):
            alive = [r[i] for r in runs if len(r) > i]
            means.append(sum(alive) / len(alive))
        ax.plot(range(1, longest + 1), means, marker=".", label=bot)
    ax.axhline(61, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("round")
    ax.set_ylabel("mean display score (matches still running)")
    ax.set_title("Score progression")
    ax.legend()
    paths.append(_save(fig, folder / "score_progression.png"))

    fig, ax = plt.subplots(figsize=(6, 4))
    lengths = standings.lengths
    bins = range(1, max(lengths, default=1) + 2)
    ax.hist(lengths, bins=bins, color="#6a9f58", edgecolor="white", align="left")
    ax.set_xlabel("rounds in the match")
    ax.set_ylabel("matches")
    ax.set_title("Match length")
    paths.append(_save(fig, folder / "match_lengths.png"))
    return paths


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
