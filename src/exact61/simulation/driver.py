"""Play whole matches between bots, reproducibly from one seed."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from exact61 import __version__
from exact61.bots import make_bot
from exact61.core import Match, match_to_record, view_of
from exact61.core.records import record_text


def match_seed(seed: int, index: int) -> int:
    """The seed of match `index` in a run started with `seed` (stable across versions)."""
    digest = hashlib.sha256(f"exact61:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass
class SeatTime:
    """How often a seat's bot was asked to choose, and how long it thought in all."""

    decisions: int = 0
    seconds: float = 0.0


def play_match(players: int, seed: int, bots: Sequence[str]) -> Match:
    """Play a match to its end. `seed` drives the deals and lots; each seat's bot gets its own
    source derived from it, so the same seed and bots always give the same match (the same as
    `play_match_timed`, without the clock)."""
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, not {len(bots)}")
    chance = random.Random(seed)
    choose = [
        make_bot(name, random.Random(f"{seed}:seat:{s}")).choose for s, name in enumerate(bots)
    ]
    match = Match(players)
    legal_actions = match.legal_actions
    apply = match.apply
    while not match.is_over:
        match.deal_next_round(chance)
        while (seat := match.to_act) is not None:
            legal = legal_actions()
            if len(legal) == 1:  # a forced action (draw, pass, one placement) asks no bot
                apply(legal[0])
            else:
                apply(choose[seat](view_of(match, seat), legal))
    return match


def play_match_timed(players: int, seed: int, bots: Sequence[str]) -> tuple[Match, list[SeatTime]]:
    """`play_match`, also timing every seat's decisions (forced actions ask no bot)."""
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, not {len(bots)}")
    chance = random.Random(seed)
    seats = [make_bot(name, random.Random(f"{seed}:seat:{s}")) for s, name in enumerate(bots)]
    times = [SeatTime() for _ in range(players)]
    clock = time.perf_counter
    match = Match(players)
    while not match.is_over:
        match.deal_next_round(chance)
        while (seat := match.to_act) is not None:
            legal = match.legal_actions()
            if len(legal) == 1:  # a forced action (draw, pass, one placement) asks no bot
                match.apply(legal[0])
                continue
            view = view_of(match, seat)
            started = clock()
            action = seats[seat].choose(view, legal)
            times[seat].seconds += clock() - started
            times[seat].decisions += 1
            match.apply(action)
    return match, times


def simulated_record(players: int, seed: int, bots: Sequence[str]) -> dict[str, Any]:
    """Play a match and return its `exact61-match/1` record, naming the bots and version."""
    match = play_match(players, seed, bots)
    return match_to_record(match, seed=seed, extra=record_extra(bots))


def simulated_text(players: int, seed: int, bots: Sequence[str]) -> tuple[Match, str]:
    """Play a match; return it and its record as one line of JSON (`simulated_record`'s)."""
    match = play_match(players, seed, bots)
    return match, record_text(match, seed=seed, extra=record_extra(bots))


def record_extra(bots: Sequence[str]) -> dict[str, Any]:
    """The fields a simulated record adds to the format's: the bots and the program."""
    return {"bots": list(bots), "program": f"exact61 {__version__}"}
