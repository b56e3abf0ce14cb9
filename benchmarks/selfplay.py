"""The decisions of a match as the strength benchmarks walk them (imported by the scripts beside
it, which run with this folder on the path)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from exact61.bots import make_bot
from exact61.core import Action, Match, SeatView
from exact61.core.engine import class_of

T = TypeVar("T")


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


def timed_match(
    match: Match, chance: random.Random, bots: Sequence[Any], side: Callable[[int], int]
) -> tuple[list[float], list[int]]:
    """Play `match` to its end, `bots[seat]` choosing for each seat and each round dealt from
    `chance`; a seat with one legal action plays it unasked. Each of the two sides' (`side(seat)`,
    0 or 1) seconds thinking and moves chosen."""
    thinking, chosen = [0.0, 0.0], [0, 0]
    while not match.is_over:
        match.deal_next_round(chance)
        while (seat := match.to_act) is not None:
            legal = match.legal_actions()
            if len(legal) == 1:
                match.apply(legal[0])
                continue
            started = time.perf_counter()
            choice = bots[seat].choose(match.view(seat))
            thinking[side(seat)] += time.perf_counter() - started
            chosen[side(seat)] += 1
            match.apply(choice)
    return thinking, chosen


def kept_decisions(
    n: int,
    seed: int,
    bot: str,
    keep: Callable[[Match, SeatView, list[Action], random.Random], T | None],
) -> list[T]:
    """The first `n` things `keep(match, view, legal, pick)` makes of the decisions of 2-player
    self-play of `bot` (`ismcts:200`; None: nothing kept), match k dealt from `seed * 1000 + k`;
    `pick` is one source for every match, to keep a share of the decisions at random."""
    out: list[T] = []
    pick = random.Random(seed)
    k = 0
    while len(out) < n:
        k += 1
        chance = random.Random(seed * 1000 + k)
        bots = [make_bot(bot, random.Random(f"{k}:{s}")) for s in range(2)]
        match = Match(2)
        for seat, legal in decisions(match, chance):
            view = match.view(seat)
            kept = keep(match, view, legal, pick)
            if kept is not None:
                out.append(kept)
            match.apply(bots[seat].choose(view))
    return out[:n]
