"""Whole matches between bots, reproducibly from one seed, played by a `Table`."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from exact61 import __version__
from exact61.core import Match
from exact61.table import Table


def match_seed(seed: int, index: int) -> int:
    """The seed of match `index` in a run started with `seed` (stable across versions)."""
    digest = hashlib.sha256(f"exact61:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_table(players: int, seed: int, bots: Sequence[str], *, timed: bool = False) -> Table:
    """A table of bots for a run: `seed` drives the deals and lots, and each seat's bot keeps
    one source derived from it for the whole match, so the same seed and bots always give the
    same match. Its record names the bots and the program; `timed` times each seat's bot."""
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, not {len(bots)}")
    return Table(players, bots, seed, bots_per="seat", timed=timed, extra=record_extra(bots))


def play_match(players: int, seed: int, bots: Sequence[str]) -> Match:
    """Play a match to its end (see `bot_table`)."""
    table = bot_table(players, seed, bots)
    table.play_out()
    return table.match


def simulated_record(players: int, seed: int, bots: Sequence[str]) -> dict[str, Any]:
    """Play a match and return its `exact61-match/1` record, naming the bots and version."""
    table = bot_table(players, seed, bots)
    table.play_out()
    return table.record()


def simulated_text(players: int, seed: int, bots: Sequence[str]) -> tuple[Match, str]:
    """Play a match; return it and its record as one line of JSON (`simulated_record`'s)."""
    table = bot_table(players, seed, bots)
    table.play_out()
    return table.match, table.record_text()


def record_extra(bots: Sequence[str]) -> dict[str, Any]:
    """The fields a simulated record adds to the format's: the bots and the program."""
    return {"bots": list(bots), "program": f"exact61 {__version__}"}
