"""The decisions of a match as the strength benchmarks walk them (imported by the scripts beside
it, which run with this folder on the path)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from exact61.core import Action, Match
from exact61.core.engine import class_of


def decisions(match: Match, chance: random.Random) -> Iterator[tuple[int, list[Action]]]:
    """Every decision of `match` to its end: the seat to act and its legal actions, two or more
    distinct moves. The caller applies its choice before asking for the next; forced moves are
    applied here, and each round is dealt from `chance`."""
    while not match.is_over:
        match.deal_next_round(chance)
        while (seat := match.to_act) is not None:
            legal = match.legal_actions()
            if len({class_of(a) for a in legal}) == 1:
                match.apply(legal[0])
            else:
                yield seat, legal
