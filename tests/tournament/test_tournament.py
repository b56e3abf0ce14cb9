"""Tournaments: seat rotation, reproducible tables whatever the workers, reports and plots."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from exact61 import replay
from exact61.core import engines
from exact61.tournament.runner import play_game, run
from exact61.tournament.schedule import Game, schedule, seatings
from exact61.tournament.stats import Standings
from tests.helpers import Cli, native_engine


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


def test_the_bot_with_more_wins_is_listed_first_whatever_its_rating() -> None:
    """openskill's rating is updated match by match, so it follows their order: two bots near
    50%, the one with fewer wins rated higher because it won the last matches. The table ranks
    by win rate (issue 42: a run listed ismcts, 94 of 200, above the expert's 106)."""
    from exact61.tournament.runner import Result
    from exact61.tournament.stats import ranked

    standings = Standings(2)
    for match, won in enumerate(["a"] * 10 + ["b"] * 9):
        seating = ("a", "b") if match % 2 == 0 else ("b", "a")
        record = {"rounds": [], "winner": seating.index(won)}
        standings.add(Result(Game(match, 2, match, seating), record, (0,) * 2, (0.0,) * 2))
    table = standings.table()
    assert (table["a"]["wins"], table["b"]["wins"]) == (10, 9)
    assert table["b"]["rating"] > table["a"]["rating"]  # the case this test is about
    assert ranked(table) == ["a", "b"]


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
    assert ranked(table) == ["greedy", "random"]  # the command line's rows, best first
    drawn: dict[str, Any] = {}

    def keep(fig: Any, path: Path) -> Path:
        fig.canvas.draw()
        drawn[path.name] = [label.get_text() for label in fig.axes[0].get_xticklabels()]
        return path

    monkeypatch.setattr(plots, "_save", keep)
    plots.write_plots(standings, table, tmp_path)
    assert drawn["win_rates.png"] == ["greedy", "random"]


def _without_times(summary: dict[str, Any]) -> dict[str, Any]:
    for row in summary["bots"].values():
        row.pop("ms_per_move")  # time, not result
    return summary


@pytest.fixture
def plots_not_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """A report's plots made from its standings but not drawn into PNGs, for a test that reads
    none of them (test_tournament_command_writes_the_report does): drawing them was most of the
    time of a test of a few quick matches."""
    from exact61.tournament import plots

    def made_not_drawn(fig: Any, path: Path) -> Path:
        plots.plt.close(fig)
        return path

    monkeypatch.setattr(plots, "_save", made_not_drawn)


@pytest.mark.usefixtures("plots_not_drawn")
def test_a_stopped_tournament_resumed_reports_as_one_never_stopped(
    cli: Cli, tmp_path: Path
) -> None:
    """tournament --resume keeps the matches its records hold (each with its decisions and
    thinking time, for the table), cuts the one a kill left half written, and plays the rest:
    the same records and report as a run never stopped."""
    common = ("--bots", "greedy,random,heuristic", "--matches", "12", "--seed", "4")
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    assert cli("tournament", *common, "--report", whole).code == 0
    lines = (whole / "matches.jsonl").read_bytes().splitlines(keepends=True)
    stopped.mkdir()
    (stopped / "matches.jsonl").write_bytes(b"".join(lines[:5]) + lines[5][:80])
    resumed = cli("tournament", *common, "--report", stopped, "--resume", "--workers", "2")
    assert resumed.code == 0, resumed.err
    assert resumed.out.startswith("Resuming after 5 of 12 matches.\n")

    def records(folder: Path) -> list[dict[str, Any]]:
        text = (folder / "matches.jsonl").read_text()
        return [
            {k: v for k, v in json.loads(line).items() if k != "think_ms"}
            for line in text.splitlines()
        ]

    assert records(stopped) == records(whole)
    assert all(len(r["decisions"]) == 2 and min(r["decisions"]) > 0 for r in records(whole))
    summaries = [json.loads((f / "summary.json").read_text()) for f in (whole, stopped)]
    assert _without_times(summaries[0]) == _without_times(summaries[1])

    for other in (("--seed", "5"), ("--players", "3"), ("--bots", "greedy,heuristic,random")):
        told = cli("tournament", *common, *other, "--report", stopped, "--resume")
        assert told.code == 2 and told.err.startswith("exact61: --resume: line 1 of "), told.err
    assert records(stopped) == records(whole)  # refused: kept as it was
    both = cli("tournament", *common, "--report", stopped, "--resume", "--force")
    assert both.code == 2 and "choose one" in both.err
    nowhere = cli("tournament", *common, "--resume")
    assert nowhere.code == 2 and "--out or --report" in nowhere.err
    # more matches of the same tournament: its schedule goes on as it began
    more = cli("tournament", *common, "--matches", "18", "--report", stopped, "--resume")
    assert more.code == 0 and more.out.startswith("Resuming after 12 of 18 matches.\n")
    fewer = cli("tournament", *common, "--matches", "6", "--report", stopped, "--resume")
    assert fewer.code == 2 and fewer.err == (  # it said line 7 was not match 6 of this run
        f"exact61: --resume: {stopped / 'matches.jsonl'} holds more than the 6 matches of this "
        "run: give the --matches it was made with, or more\n"
    )
    # records of an earlier version, before each seat's decisions were kept: said so, not
    # blamed on the options it was given
    old = tmp_path / "old.jsonl"
    old.write_text(
        "".join(
            json.dumps({k: v for k, v in json.loads(line).items() if k != "decisions"}) + "\n"
            for line in lines[:3]
        )
    )
    earlier = cli("tournament", *common, "--out", old, "--resume")
    assert earlier.code == 2 and earlier.err == (
        f"exact61: --resume: {old} was written by an earlier version of exact61, whose records "
        "do not give each seat's decisions: start again with --force, or give another --out\n"
    )


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
    from exact61.tournament.plots import progression_figure
    from exact61.tournament.stats import Standings

    standings = Standings(players=2)
    standings.lengths = [1, 2, 3, 2]
    standings.progressions["greedy"] = [[61], [30, 61], [5, 20, 61], [40, 61]]
    standings.progressions["random"] = [[10], [5, 20], [0, 15, 30], [10, 25]]
    fig = progression_figure(standings, ["greedy", "random"])
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


# ---- who plays: every bot named, each once ------------------------------------------------


@pytest.mark.parametrize(
    ("bots", "players"),
    [(5, 2), (5, 3), (5, 4), (3, 2), (2, 3), (4, 3), (6, 4), (7, 3), (10, 3)],
)
def test_any_start_of_a_cycle_shares_the_matches_out_evenly(bots: int, players: int) -> None:
    """The seatings were in the order of `itertools.permutations`: the first matches of five
    bots were all the first bot's, and the last bots sat in none of them."""
    from exact61.tournament.schedule import evened

    names = [f"bot{i}" for i in range(bots)]
    cycle = seatings(names, players)
    order = evened(cycle)
    assert sorted(order) == sorted(cycle)  # the same seatings: whole cycles play the same games
    per_match = min(bots, 2 if players == 4 else players)  # different bots at a table
    fewest = -(-bots // per_match)  # each bot seated once
    assert {b for s in order[:fewest] for b in s} == set(names)
    for n in range(1, len(order) + 1):
        played = Counter(b for s in order[:n] for b in set(s))
        assert max(played[b] for b in names) - min(played[b] for b in names) <= 2, n
    games = schedule(names, players, fewest, seed=1)
    assert {b for g in games for b in g.seating} == set(names)
    with pytest.raises(ValueError, match=f"give --matches {fewest} or more"):
        schedule(names, players, fewest - 1, seed=1)


def test_a_name_given_twice_is_refused_not_merged() -> None:
    with pytest.raises(ValueError, match="names b twice"):
        seatings(["a", "b", "b"], 2)


FIVE = ["greedy", "heuristic", "random", "ismcts:5", "pimc:1"]


@pytest.mark.parametrize(("players", "fewest"), [(2, 3), (3, 2), (4, 3)])
@pytest.mark.usefixtures("plots_not_drawn")
def test_every_bot_named_plays(cli: Cli, tmp_path: Path, players: int, fewest: int) -> None:
    """Five bots in a few matches showed only the first three, exit 0: the matches went to the
    first seatings of the cycle, the first bot's. Every bot named is in the table and in
    summary.json, under the name as written; too few matches to seat them all are refused."""
    report = tmp_path / "report"
    options = ("--players", players, "--workers", 1, "--report", report)
    code, out, err = cli("tournament", "--bots", ",".join(FIVE), "--matches", fewest, *options)
    assert code == 0, err
    summary = json.loads((report / "summary.json").read_text())
    assert sorted(summary["bots"]) == sorted(FIVE)
    standings = out.split("Head to head")[0]
    rows = [line.split("│")[1].strip() for line in standings.splitlines() if line[:1] == "│"]
    assert sorted(rows) == sorted(FIVE)
    records = [json.loads(line) for line in (report / "matches.jsonl").read_text().splitlines()]
    assert {bot for record in records for bot in record["bots"]} >= {"greedy", "random"}

    code, out, err = cli("tournament", "--bots", ",".join(FIVE), "--matches", fewest - 1,
                         *options, "--force")  # fmt: skip
    cycle = len(seatings(FIVE, players))
    assert (code, out) == (2, "")
    assert err == (
        f"exact61: --matches {fewest - 1} is too few to seat every bot: give --matches {fewest} "
        f"or more (--matches {cycle} seats each bot in each seat once)\n"
    )


@pytest.mark.parametrize(
    ("bots", "said"),
    [
        ("ismcts:20,medium,random", "ismcts:20 and medium are the same bot"),
        ("greedy,beginner,random", "beginner and random are the same bot"),
        ("Greedy,random,greedy", "Greedy and greedy are the same bot"),
        ("ismcts,random,ismcts:1000", "ismcts and ismcts:1000 are the same bot"),
        ("expert:50,equity:050,random", "expert:50 and equity:050 are the same bot"),
    ],
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_names_of_one_bot_are_refused(
    cli: Cli, tmp_path: Path, bots: str, said: str, players: int
) -> None:
    """`ismcts:20` and `medium` were two entrants playing the same bot, `greedy` twice one: a
    club naming a bot twice made a typo, said with both spellings, before any match."""
    out = tmp_path / "m.jsonl"
    options = ("--players", players, "--matches", 1, "--workers", 1, "--out", out)
    assert cli("tournament", "--bots", bots, *options) == (
        2,
        "",
        f"exact61: --bots: {said}: name each bot once\n",
    )
    assert not out.exists()


def test_a_name_given_twice_is_said_once(cli: Cli, tmp_path: Path) -> None:
    """`greedy,random,greedy` played greedy and random, the second greedy silently dropped."""
    options = ("--matches", 1, "--workers", 1, "--out", tmp_path / "m.jsonl")
    assert cli("tournament", "--bots", "greedy,random,greedy", *options) == (
        2,
        "",
        "exact61: --bots names greedy twice: name each bot once\n",
    )


def test_a_level_is_its_own_bot_beside_another(cli: Cli, tmp_path: Path) -> None:
    """`heuristic` and `beginner` (random) are two bots: both play, labelled as written."""
    report = tmp_path / "report"
    code, out, err = cli("tournament", "--bots", "heuristic,beginner", "--matches", 2,
                         "--workers", 1, "--report", report)  # fmt: skip
    assert code == 0, err
    named = ["beginner", "heuristic"]
    assert sorted(json.loads((report / "summary.json").read_text())["bots"]) == named
    rows = [line.split("│")[1].strip() for line in out.splitlines() if line[:1] == "│"]
    assert sorted(rows) == named


# ---- the table, as read at 80 columns ---------------------------------------------------

LANGUAGES = ["en", "de", "pl", "ru"]
HEADERS = ["bot", "matches", "wins", "win rate", "rating", "points/round", "rejected", "ms/move"]


def _headers(lang: str) -> list[str]:
    from exact61 import i18n

    i18n.use(lang)
    try:
        shown = [i18n._(h) for h in HEADERS]
        return [*shown, i18n._("{share} interval").format(share=i18n.percent(0.95))]
    finally:
        i18n.use("en")


def _fits(text: str, columns: int, bots: list[str], headers: list[str]) -> None:
    from rich.cells import cell_len

    lines = text.splitlines()
    assert "…" not in text, text
    assert max(cell_len(line) for line in lines) <= columns, text
    for bot in bots:  # on a line of its own cell, never split mid-name
        assert any(f"│ {bot} " in line for line in lines), (bot, text)
    header_lines = [line for line in lines if line.startswith("┃")]
    for header in headers:
        assert any(header in line for line in header_lines), (header, text)


def test_the_table_reads_at_80_columns(tmp_path: Path) -> None:
    """At 80 columns the table cut its headers (`Parti…`, `Siegq…`) and broke names and
    intervals over lines (`heuris|tic`, `43,9 |%-100…`): it took 106 columns. In a terminal 80
    wide, every header and name is whole and no line is longer; the interval is `21–94 %`.
    The command in a real terminal once, in Polish (whose headers are the longest); every
    language's table at 80 columns is checked without a terminal below
    (`test_the_widest_table_reads_at_80_columns_and_is_one_table_at_120`)."""
    from tests.cli.test_cli import in_a_terminal

    lang = "pl"
    bots = ["greedy", "random", "heuristic"]
    said = in_a_terminal(
        *("tournament", "--bots", ",".join(bots), "--matches", "4", "--seed", "3"),
        *("--workers", "1", "--lang", lang, "--out", tmp_path / "m.jsonl"),
        columns=80,
    )
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", said)  # the terminal's colours and bold
    tables = "\n".join(line for line in plain.splitlines() if line[:1] in "┏┃┡│└")
    _fits(tables, 80, bots, _headers(lang))
    intervals = re.findall(r"│ +([0-9]+–[0-9]+\u00a0?%) │", plain)  # one % sign, no hyphen
    assert len(intervals) == 3, plain


def _standings_text(lang: str, width: int, table: dict[str, dict[str, Any]]) -> str:
    import io

    from rich.console import Console

    from exact61 import i18n
    from exact61.cli.tournament_cmd import print_standings

    console = Console(file=io.StringIO(), width=width, record=True, highlight=False)
    i18n.use(lang)
    try:
        print_standings(console, table, "1,200 matches, 4 players, seed 12345")
    finally:
        i18n.use("en")
    return console.export_text()


LONG_TABLE = {
    bot: {
        "matches": 1200,
        "wins": 1199 - 300 * i,
        "win_rate": (1199 - 300 * i) / 1200,
        "ci95": [0.12345 + 0.1 * i, 0.99999 - 0.1 * i],
        "rating": -12.345 + 10 * i,
        "points_per_round": 12.345,
        "rejected_rate": 0.123,
        "ms_per_move": 1234.56,
    }
    for i, bot in enumerate(["expert@0.05s", "ismcts:10000", "heuristic", "greedy"])
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_widest_table_reads_at_80_columns_and_is_one_table_at_120(lang: str) -> None:
    """Four-digit counts and times, long names, negative ratings: at 80 columns two tables
    (results, then play), each whole; at 120, one table of every column."""
    narrow = _standings_text(lang, 80, LONG_TABLE)
    _fits(narrow, 80, list(LONG_TABLE), _headers(lang))
    assert narrow.count("┏") == 2
    wide = _standings_text(lang, 120, LONG_TABLE)
    _fits(wide, 120, list(LONG_TABLE), _headers(lang))
    assert wide.count("┏") == 1


@pytest.mark.parametrize(
    ("lang", "matches", "shown"),
    [
        ("en", 4, "15–85%"),
        ("de", 4, "15–85\u00a0%"),
        ("pl", 4, "15–85%"),
        ("ru", 4, "15–85\u00a0%"),
        ("de", 10_000, "49,0–51,0\u00a0%"),  # narrower than 4 points: a decimal
    ],
)
def test_the_interval_is_a_range_with_one_percent_sign(lang: str, matches: int, shown: str) -> None:
    from exact61.tournament.stats import wilson

    half = matches // 2
    table = {
        bot: {
            "matches": matches,
            "wins": half,
            "win_rate": 0.5,
            "ci95": wilson(half, matches),
            "rating": 0.0,
            "points_per_round": 4.0,
            "rejected_rate": 0.0,
            "ms_per_move": 0.1,
        }
        for bot in ("greedy", "random")
    }
    text = _standings_text(lang, 120, table)
    assert text.count(shown) == 2, text


def test_a_game_of_native_bots_is_the_game_the_python_engine_plays() -> None:
    """A game of simple bots is played by the native core where it is built (`play_game`): the
    same record as the table plays on the Python engine, its fields in the same order, the
    thinking times in their place; the same decisions counted."""
    native_engine()
    game = Game(3, 3, 2026, ("heuristic", "greedy", "random"))
    fast = play_game(game)
    engines.use("python")
    try:
        slow = play_game(game)
    finally:
        engines.use("auto")
    assert list(fast.record) == list(slow.record)  # think_ms before the rounds, as always
    fast_ms, slow_ms = fast.record.pop("think_ms"), slow.record.pop("think_ms")
    assert fast.record == slow.record and fast.decisions == slow.decisions
    assert len(fast_ms) == 3 and all(ms >= 0 for ms in fast_ms) and len(slow_ms) == 3
