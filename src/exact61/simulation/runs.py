"""`exact61 simulate`'s matches on any backend: record lines in match order, with their totals."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

from exact61.scale import Backend, run_in_order
from exact61.simulation.driver import match_seed, native_match, plays_natively, simulated_text
from exact61.simulation.summary import MatchTotals


def simulated_line(
    players: int, seed: int, bots: Sequence[str], index: int
) -> tuple[str, MatchTotals]:
    """Match `index` of a run started with `seed`: its record as one line of JSON and the few
    numbers the run's summary counts (what a worker sends back)."""
    if plays_natively(bots):
        played = native_match(players, match_seed(seed, index), bots)
        return played.text, played.totals
    match, text = simulated_text(players, match_seed(seed, index), bots)
    return text, MatchTotals.of(match)


def simulate_lines(
    players: int,
    matches: int,
    seed: int,
    bots: Sequence[str],
    backend: Backend | None = None,
    on_done: Callable[[int], None] | None = None,
    start: int = 0,
) -> Iterator[tuple[str, MatchTotals]]:
    """Matches `start` to `matches - 1` of a run started with `seed`, in order, whatever the
    backend (a run resumed after its first `start` matches goes on as it would have)."""
    play = partial(simulated_line, players, seed, tuple(bots))
    return run_in_order(play, range(start, matches), backend, on_done)


def is_match_of_run(
    record: dict[str, Any], index: int, players: int, seed: int, bots: Sequence[str]
) -> bool:
    """Whether `record` is match `index` of the run `simulate_lines(players, _, seed, bots)`
    (its seed, player count and bots, which its record carries)."""
    return (
        record.get("seed") == match_seed(seed, index)
        and record.get("players") == players
        and record.get("bots") == list(bots)
    )
