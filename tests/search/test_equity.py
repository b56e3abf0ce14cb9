"""The shipped match equity table: its properties, and a recomputation of part of it.

The corner of the table where every side is close to 61 depends only on itself (at 2 and 3
players scores never fall, R19), so it can be recomputed from the round model shipped with the
table by a plain, slow chain written here from the rules: each round's events applied one by one
with the core's own R4 check, the first to reach exactly 305 winning (R30, R22), the next opener
by R8. It must agree with the table to the table's precision. A synthetic model with negative
domino nets checks the two-side solver where 4-player scores fall (R19) against plain iteration.
"""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import numpy as np
import pytest

from exact61.core.settlement import TARGET_RAW, accepts
from exact61.search.equity import TARGET, EquityTable, default_table
from exact61.search.markov import RoundModel, solve_two_sides
from tests.cli.test_cli import exact61, no_traceback


@pytest.fixture(scope="module")
def table() -> EquityTable:
    return default_table()


def shipped_rounds(table: EquityTable, players: int) -> list[tuple[list[tuple[int, int]], int]]:
    seats = table.arrays[f"model{players}_seats"]
    points = table.arrays[f"model{players}_points"]
    domino = table.arrays[f"model{players}_domino"]
    rounds = []
    for r in range(len(domino)):
        events = [(int(s), 5 * int(p)) for s, p in zip(seats[r], points[r], strict=True) if s >= 0]
        rounds.append((events, int(domino[r])))
    return rounds


def reference_chain(
    players: int, rounds: list[tuple[list[tuple[int, int]], int]], low: int, corner: int
) -> dict[tuple[int, ...], tuple[float, ...]]:
    """Each side's chance (by turn order from the opener) at display scores in [corner, 60]^sides,
    scores in turn order from the opener, by plain iteration over the rounds."""
    sides = 2 if players == 4 else players
    side_of = (lambda seat: seat % 2) if players == 4 else (lambda seat: seat)
    lot = [1 / players] * players  # R8: after a block, a lot over the seats
    states = list(itertools.product(range(corner, TARGET), repeat=sides))
    transitions: dict[tuple[int, ...], list[tuple[float, int | None, tuple[int, ...], int]]] = {}
    for state in states:
        out = []
        for events, domino in rounds:
            raw = [5 * s for s in state]
            winner = None
            for seat, value in events:
                side = side_of(seat)
                if accepts(raw[side], value):  # R4: rejected whole above 305
                    raw[side] += value
                    if raw[side] == TARGET_RAW:  # R30: won at once
                        winner = side
                        break
            after = tuple(max(r // 5, low) for r in raw)
            if winner is not None:
                out.append((1.0, winner, after, 0))
            elif domino >= 0:
                out.append((1.0, None, after, side_of(domino)))  # R8: the domino maker opens
            else:
                for seat, p in enumerate(lot):
                    out.append((p, None, after, side_of(seat)))
        transitions[state] = out
    values = {s: tuple(1 / sides for _ in range(sides)) for s in states}
    for _ in range(500):
        change = 0.0
        for state in states:
            total = [0.0] * sides
            for p, winner, after, k in transitions[state]:
                if winner is not None:
                    total[winner] += p
                    continue
                rotated = tuple(after[(k + j) % sides] for j in range(sides))
                nxt = values[rotated]
                for j in range(sides):
                    total[j] += p * nxt[(j - k) % sides]
            new = tuple(t / len(rounds) for t in total)
            change = max(change, max(abs(a - b) for a, b in zip(new, values[state], strict=True)))
            values[state] = new
        if change < 1e-12:
            break
    return values


@pytest.mark.slow
def test_the_corner_of_the_2_player_table_is_recomputed(table: EquityTable) -> None:
    reference = reference_chain(2, shipped_rounds(table, 2), 0, 56)
    w2 = table.arrays["w2"]
    for (x, y), values in reference.items():
        assert w2[x, y] == pytest.approx(values[0], abs=2e-6), (x, y)


@pytest.mark.slow
def test_the_corner_of_the_3_player_table_is_recomputed(table: EquityTable) -> None:
    reference = reference_chain(3, shipped_rounds(table, 3), 0, 58)
    w3 = table.arrays["w3"]
    for state, values in reference.items():
        stored = w3[state] / 65535
        assert stored == pytest.approx(values[:2], abs=2e-5), state


@pytest.mark.slow
def test_the_two_side_solver_where_scores_fall() -> None:
    """R19 at 4 players: a negative net is applied. Floor -5 display, a few rounds."""
    rounds = [
        ([(0, 65), (1, 80), (0, -10)], 0),
        ([(1, 5), (2, 50), (3, -25)], 3),
        ([(0, 90), (3, 35)], -1),
        ([(2, 5), (1, 10), (0, 55), (1, -5)], 1),
    ]
    model = RoundModel.from_rounds(
        4, [{"events": [list(e) for e in ev], "domino": None if d < 0 else d} for ev, d in rounds]
    )
    w = solve_two_sides(model, -5)
    reference = reference_chain(4, rounds, -5, -5)
    for (x, y), values in reference.items():
        assert w[x + 5, y + 5] == pytest.approx(values[0], abs=1e-9), (x, y)


def test_probabilities_are_probabilities(table: EquityTable) -> None:
    for players in (2, 3, 4):
        sides = 2 if players == 4 else players
        low = table.low[players]
        rng = np.random.default_rng(players)
        for _ in range(300):
            scores = tuple(5 * int(s) for s in rng.integers(low, TARGET, size=sides))
            for opener in (*range(players), None):
                p = table.win_probabilities(players, scores, opener)
                assert all(0 <= x <= 1 for x in p) and sum(p) == pytest.approx(1, abs=1e-4)


def test_a_side_at_61_has_won(table: EquityTable) -> None:
    assert table.win_probabilities(2, (305, 300), 1) == (1.0, 0.0)
    assert table.win_probabilities(3, (0, 305, 300), None) == (0.0, 1.0, 0.0)
    assert table.win_probabilities(4, (-50, 305), 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        table.win_probabilities(2, (310, 0), 0)  # R4: never above 305
    with pytest.raises(ValueError):
        table.win_probabilities(2, (3, 0), 0)  # R3: multiples of 5


def test_the_sides_are_symmetric(table: EquityTable) -> None:
    """Swapping the sides' scores and the opener swaps the chances (seats are alike, R2)."""
    for a, b in [(0, 0), (30, 45), (59, 60), (55, 12)]:
        for opener in (0, 1, None):
            swapped = None if opener is None else 1 - opener
            p = table.win_probabilities(2, (5 * a, 5 * b), opener)
            q = table.win_probabilities(2, (5 * b, 5 * a), swapped)
            assert p == pytest.approx(q[::-1], abs=1e-6)
        p = table.win_probabilities(4, (5 * a, 5 * b), 0)  # seat 0 and seat 2 open alike
        assert p == pytest.approx(table.win_probabilities(4, (5 * a, 5 * b), 2))
    p = table.win_probabilities(3, (5 * 10, 5 * 40, 5 * 50), 0)
    q = table.win_probabilities(3, (5 * 50, 5 * 10, 5 * 40), 1)  # everything turned one seat
    assert p == pytest.approx((q[1], q[2], q[0]), abs=1e-4)
    assert table.win_probabilities(2, (0, 0), None) == pytest.approx((0.5, 0.5))


def test_more_points_help_away_from_61(table: EquityTable) -> None:
    """With both sides below 50, a point more for a side never lowers its chance, and a point
    more for the other side never raises it (opener by lot). Near 61 either may: 60 needs
    exactly 5 raw (R4) where 59 takes any 5 or 10."""
    for players in (2, 4):
        for a in range(table.low[players], 50):
            for b in range(table.low[players], 50):
                p = table.win_probabilities(players, (5 * a, 5 * b), None)[0]
                mine = table.win_probabilities(players, (5 * a + 5, 5 * b), None)[0]
                theirs = table.win_probabilities(players, (5 * a, 5 * b + 5), None)[0]
                assert mine >= p - 1e-6 and theirs <= p + 1e-6, (players, a, b)


def test_below_the_floor_counts_as_the_floor(table: EquityTable) -> None:
    low = table.low[4]
    floor = table.win_probabilities(4, (5 * low, 100), 1)
    assert table.win_probabilities(4, (5 * low - 50, 100), 1) == floor


@pytest.mark.slow
def test_the_equity_command(tmp_path: Path) -> None:
    result: subprocess.CompletedProcess[str] = exact61("equity", "55", "50", "--players", "2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Match equity, 2 players, scores 55-50 (display):"
    assert any(line.strip().startswith("seat 0 opens: seat 0") for line in lines)
    assert any(line.strip().startswith("opener by lot:") for line in lines)
    three = exact61("equity", "10", "20", "30", "--players", "3", "--plot", tmp_path)
    assert three.returncode == 0, three.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "equity-2p.png",
        "equity-3p.png",
        "equity-4p.png",
    ]
    four = exact61("equity", "--players", "4", "--", "-30", "50")  # `--`: -30 is no option
    assert four.returncode == 0 and "count as -20" in four.stdout
    assert "scores -30, 50 (display)" in four.stdout  # not "-30-50", a sum
    for bad in (["62", "0"], ["61", "61"], ["--", "-5", "0"], ["1", "2", "3"], ["x", "1"]):
        result = exact61("equity", "--players", "2", *bad)
        assert result.returncode == 2, bad
        assert len(result.stderr.strip().splitlines()) >= 1
        no_traceback(result)
