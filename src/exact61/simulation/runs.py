"""`exact61 simulate`'s matches on any backend: record lines in match order, with their totals."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial

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
) -> Iterator[tuple[str, MatchTotals]]:
    """Matches 0 to `matches - 1` of a run started with `seed`, in order, whatever the backend."""
    play = partial(simulated_line, players, seed, tuple(bots))
    return run_in_order(play, range(matches), backend, on_done)
