"""Who sits where: every bot in every seat equally often (R2: at 4 players, as partnerships)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from exact61.simulation.driver import match_seed


def seatings(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """One cycle of seatings in which each bot takes each seat equally often.

    2 players: every ordered pair. 4 players: every ordered pair as partnerships (seats 0 and 2
    against 1 and 3). 3 players: every ordering of three distinct bots, or with two bots every
    seating that uses both.
    """
    names = list(dict.fromkeys(bots))
    if len(names) < 2:
        raise ValueError("a tournament needs at least two different bots")
    if players == 4:
        return [(a, b, a, b) for a, b in itertools.permutations(names, 2)]
    if len(names) >= players:
        return list(itertools.permutations(names, players))
    return [s for s in itertools.product(names, repeat=players) if len(set(s)) > 1]


@dataclass(frozen=True)
class Game:
    index: int
    players: int
    seed: int  # the match seed: deals and lots (shared by the seatings of one cycle)
    seating: tuple[str, ...]


def schedule(bots: Sequence[str], players: int, matches: int, seed: int) -> list[Game]:
    """`matches` games, cycling through the seatings; a cycle's seatings share their deals, so
    each deal is played from every seat (duplicate play)."""
    cycle = seatings(bots, players)
    return [
        Game(i, players, match_seed(seed, i // len(cycle)), cycle[i % len(cycle)])
        for i in range(matches)
    ]
