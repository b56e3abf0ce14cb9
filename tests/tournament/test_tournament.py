"""Tournaments: seat rotation, reproducible tables whatever the workers, reports and plots."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from exact61 import replay
from exact61.tournament.runner import run
from exact61.tournament.schedule import schedule, seatings
from exact61.tournament.stats import Standings


def test_every_bot_in_every_seat_equally_often() -> None:
    for bots, players in (
        (["a", "b"], 2),
        (["a", "b", "c"], 2),
        (["a", "b", "c"], 3),
        (["a", "b"], 3),
        (["a", "b", "c"], 4),
    ):
        cycle = seatings(bots, players)
        for seat in range(players):
            counts = Counter(s[seat] for s in cycle)
            assert len(set(counts.values())) == 1 and set(counts) == set(bots), (bots, players)
    assert seatings(["a", "b"], 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]


def test_a_cycle_shares_its_deals() -> None:
    games = schedule(["x", "y"], 2, 6, seed=3)
    assert [g.seed for g in games[:2]] == [games[0].seed] * 2 and games[2].seed != games[0].seed


@pytest.mark.slow  # 36 whole matches
@pytest.mark.parametrize("players", [2, 3, 4])
def test_head_to_head_counts_each_pair_of_bots_from_the_records(players: int) -> None:
    """Each bot's wins in the matches it shared with each other bot, read again from the
    records themselves (their bots and winner), and a row and its column agree."""
    bots = ["random", "greedy", "heuristic"]
    games = schedule(bots, players, 2 * len(seatings(bots, players)), seed=8)
    standings = Standings(players)
    records = []
    for result in run(games):
        standings.add(result)
        records.append(result.record)
    pairs = standings.head_to_head()
    for bot in bots:
        for other in bots:
            if other == bot:
                assert other not in pairs[bot]
                continue
            shared = [r for r in records if bot in r["bots"] and other in r["bots"]]
            won = [
                r
                for r in shared
                if any(
                    b == bot and (s % 2 if players == 4 else s) == r["winner"]
                    for s, b in enumerate(r["bots"])
                )
            ]
            cell = pairs[bot][other]
            assert (cell["matches"], cell["wins"]) == (len(shared), len(won)), (bot, other)
            low, high = cell["ci95"]
            assert low <= cell["win_rate"] == len(won) / len(shared) <= high
            if players != 3:  # one of the two wins each match they share
                assert cell["wins"] + pairs[other][bot]["wins"] == len(shared)


def _table(workers: int) -> tuple[dict, list]:
    games = schedule(["greedy", "heuristic", "ismcts:10"], 3, 6, seed=5)
    standings = Standings(3)
    records = []
    for result in run(games, workers):
        standings.add(result)
        records.append(result.record)
    table = standings.table()
    for row in table.values():
        row.pop("ms_per_move")  # time, not result
    return table, [{k: v for k, v in r.items() if k != "think_ms"} for r in records]


@pytest.mark.slow
def test_same_table_twice_and_with_one_or_two_workers() -> None:
    one, records_one = _table(1)
    again, records_again = _table(1)
    two, records_two = _table(2)
    assert one == again == two
    assert records_one == records_again == records_two
    assert sum(row["wins"] for row in one.values()) == 6  # one winner per match
    for record in records_one:
        assert replay(json.dumps(record)).is_over


def _children() -> set[int]:
    me = str(os.getpid())
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "stat").read_text().rpartition(")")[2].split()[1] == me:
                    found.add(int(entry.name))
            except (OSError, IndexError):
                continue
    return found


@pytest.mark.slow
def test_an_interrupt_keeps_the_results_before_it_and_stops_the_workers() -> None:
    games = schedule(["greedy", "ismcts:200"], 2, 40, seed=7)
    before = _children()
    finished = 0

    def progress(n: int) -> None:
        nonlocal finished
        finished += n
        if finished >= 6:
            raise KeyboardInterrupt  # Ctrl+C, as the progress bar would pass it on

    kept = []
    try:
        for result in run(games, 2, progress):
            kept.append(result.record)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the interrupt was swallowed")
    assert 0 < len(kept) < 40
    alone = [result.record for result in run(games[: len(kept)])]
    strip = [{k: v for k, v in r.items() if k != "think_ms"} for r in (*kept, *alone)]
    assert strip[: len(kept)] == strip[len(kept) :]  # the first games, in schedule order
    assert _children() <= before  # no worker left running its match


def test_the_table_lists_the_bots_in_the_order_they_first_sat() -> None:
    """summary.csv and summary.json list the bots in the table's order: it once followed a set
    of each match's names, so the same seed gave other files under another PYTHONHASHSEED."""
    from exact61.tournament.runner import Result
    from exact61.tournament.schedule import Game

    standings = Standings(4)
    seen = []
    for match in range(8):  # each match seats four bots not seen before
        seating = tuple(f"bot{match}-{seat}" for seat in (3, 0, 2, 1))
        seen += seating
        record = {"rounds": [], "winner": match % 2}
        standings.add(Result(Game(match, 4, match, seating), record, (0,) * 4, (0.0,) * 4))
    assert list(standings.table()) == seen  # by match, then seat, whatever the hash seed


@pytest.mark.slow
def test_the_win_rate_plot_orders_the_bots_like_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exact61.tournament import plots
    from exact61.tournament.stats import ranked

    standings = Standings(2)
    for result in run(schedule(["random", "greedy"], 2, 8, seed=4)):
        standings.add(result)
    table = standings.table()
    assert list(table) == ["random", "greedy"]  # first seen
    assert ranked(table) == ["greedy", "random"]  # the command line's rows, best rating first
    drawn: dict[str, Any] = {}

    def keep(fig: Any, path: Path) -> Path:
        fig.canvas.draw()
        drawn[path.name] = [label.get_text() for label in fig.axes[0].get_xticklabels()]
        return path

    monkeypatch.setattr(plots, "_save", keep)
    plots.write_plots(standings, table, tmp_path)
    assert drawn["win_rates.png"] == ["greedy", "random"]


@pytest.mark.slow
def test_tournament_command_writes_the_report(tmp_path: Path) -> None:
    report = tmp_path / "report"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "exact61",
            "tournament",
            "--bots",
            "random,greedy",
            "--matches",
            "6",
            "--seed",
            "2",
            "--workers",
            "2",
            "--report",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads((report / "summary.json").read_text())
    assert set(summary["bots"]) == {"random", "greedy"}
    assert summary["head_to_head"]["greedy"]["random"]["matches"] == 6
    for row in summary["bots"].values():
        assert set(row) >= {"matches", "wins", "win_rate", "ci95", "rating", "ms_per_move"}
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1 and row["matches"] == 6
    assert (report / "summary.csv").read_text().startswith("bot,matches,wins,win_rate")
    assert len((report / "matches.jsonl").read_text().splitlines()) == 6
    for png in ("win_rates.png", "score_progression.png", "match_lengths.png"):
        assert (report / png).read_bytes()[:4] == b"\x89PNG"
    verify = subprocess.run(
        [sys.executable, "-m", "exact61", "replay", str(report / "matches.jsonl")],
        capture_output=True,
        text=True,
    )
    assert verify.returncode == 0 and "6 matches verified" in verify.stdout


def test_score_progression_counts_finished_matches_at_their_final_score() -> None:
    from exact61.tournament.plots import carried

    # A strong bot wins fast: its matches end at 61 after 3 rounds; the weak bot's long matches
    # linger. Averaging only matches still going would put the weak bot ahead by round 5.
    strong = [[20, 45, 61]] * 9 + [[10, 20, 30, 40, 50, 61]]
    weak = [[5, 10, 20]] * 9 + [[30, 40, 50, 55, 58, 60]]
    survivors_at_5 = ([r[4] for r in strong if len(r) > 4], [r[4] for r in weak if len(r) > 4])
    assert survivors_at_5 == ([50], [58])  # the biased reading: weak looks ahead
    strong5 = sorted(row[4] for row in carried(strong, 6))
    weak5 = sorted(row[4] for row in carried(weak, 6))
    assert strong5[5] == 61 and weak5[5] == 20  # medians: the strong bot ahead, as it is
    assert all(len(row) == 6 for row in carried(strong + weak, 6))


def test_the_plots_count_rounds_and_matches_in_whole_numbers() -> None:
    """Short tournaments drew ticks like round 1.5 (matplotlib's default locator): every axis
    counting rounds or matches must tick at whole numbers only."""
    from exact61.tournament.plots import _progression_figure
    from exact61.tournament.stats import Standings

    standings = Standings(players=2)
    standings.lengths = [1, 2, 3, 2]
    standings.progressions["greedy"] = [[61], [30, 61], [5, 20, 61], [40, 61]]
    standings.progressions["random"] = [[10], [5, 20], [0, 15, 30], [10, 25]]
    fig = _progression_figure(standings, ["greedy", "random"])
    fig.canvas.draw()
    score_ax, still_ax = fig.axes
    counted = [score_ax.get_xticks(), still_ax.get_xticks(), still_ax.get_yticks()]
    low, high = still_ax.get_xlim()
    shown = [t for ticks in counted for t in ticks if low <= t <= high]
    assert len(shown) >= 3 and all(float(t).is_integer() for t in shown), counted


@pytest.mark.slow
def test_tournament_without_out_never_overwrites(tmp_path: Path) -> None:
    env = {**os.environ, "EXACT61_DATA_DIR": str(tmp_path / "data")}
    command = [sys.executable, "-m", "exact61", "tournament", "--bots", "random,greedy"]
    command += ["--matches", "2", "--seed", "3"]
    for _ in range(2):
        result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    files = sorted((tmp_path / "data" / "tournaments").glob("*.jsonl"))
    assert len(files) == 2 and not list(tmp_path.glob("*.jsonl"))
    assert all(len(f.read_text().splitlines()) == 2 for f in files)


def test_a_long_bot_name_is_printed_whole_when_piped(tmp_path: Path) -> None:
    """A learned policy is named by its path: the table wraps it, never cuts it to `…`."""
    folder = tmp_path / "policies-of-the-club" / "trained-on-the-second-of-december"
    folder.mkdir(parents=True)
    policy = folder / "ppo_agent.npz"
    policy.write_bytes((Path(__file__).parents[2] / "examples" / "ppo_agent.npz").read_bytes())
    name = f"learned:{policy}"
    result = subprocess.run(
        [
            *(sys.executable, "-m", "exact61", "tournament", "--bots", f"greedy,{name}"),
            *("--matches", "2", "--seed", "1", "--workers", "1", "--out", tmp_path / "m.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "", "LANG": "C.UTF-8", "LANGUAGE": ""},
    )
    assert result.returncode == 0, result.stderr
    assert "…" not in result.stdout
    # The first column's text of the standings, its wrapped lines joined, holds the whole name.
    cells = [
        line.split("│")[1].strip()
        for line in result.stdout.split("Head to head")[0].splitlines()
        if line.startswith("│")
    ]
    assert name in "".join(cells)
