"""Whole matches between bots, reproducibly from one seed, played by a `Table`, or natively.

A match whose every seat is a bot the native core plays (`random`, `greedy`, `heuristic`) is
played there, in one call, when the native engine is in use (`native_line`): the fast twin of
`bot_table(...).play_out()`, the same match and the same record byte for byte
(`tests/table/test_records_kept.py` runs on both engines).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from exact61 import __version__
from exact61.bots import bot_of, check_bot_spec
from exact61.core import Match, engines
from exact61.core.records import record_head
from exact61.simulation.summary import MatchTotals
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


def simulated_text(players: int, seed: int, bots: Sequence[str]) -> tuple[Match, str]:
    """Play a match; return it and its record as one line of JSON."""
    table = bot_table(players, seed, bots)
    table.play_out()
    return table.match, table.record_text()


def record_extra(bots: Sequence[str]) -> dict[str, Any]:
    """The fields a simulated record adds to the format's: the bots and the program."""
    return {"bots": list(bots), "program": f"exact61 {__version__}"}


@dataclass(frozen=True)
class NativeMatch:
    """A match the native core played (`native_match`): its record's text, the totals a run
    counts, each seat's decisions and thinking time (when timed), and the digest of every
    action (`tests/core/test_lockstep.py` compares it with the Python engine's)."""

    text: str
    totals: MatchTotals
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    digest: int


def plays_natively(bots: Sequence[str]) -> bool:
    """Whether a match of `bots` is played by the native core: the native engine is in use and
    every bot is one it plays."""
    native = engines.current()
    if native.ENGINE != "native":
        return False
    from exact61.core import _native

    return all(bot_of(check_bot_spec(spec)) in _native.NATIVE_BOTS for spec in bots)


def native_match(
    players: int,
    seed: int,
    bots: Sequence[str],
    *,
    extra: dict[str, Any] | None = None,
    timed: bool = False,
) -> NativeMatch:
    """Play a match of `bots` in the native core (`plays_natively` must hold), as
    `bot_table(players, seed, bots, timed=timed).play_out()` would: the same match, the same
    record text (`extra`: the record's fields, by default `record_extra(bots)`)."""
    from exact61.core import _native

    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, not {len(bots)}")
    names = [bot_of(check_bot_spec(spec)) for spec in bots]
    size = abs(seed)
    head = record_head(players, seed=seed, extra=record_extra(bots) if extra is None else extra)
    text, totals, decisions, seconds, digest = _native.play_match(
        players,
        size.to_bytes(max(1, (size.bit_length() + 7) // 8), "little"),
        str(seed),
        names,
        head,
        timed=timed,
    )
    return NativeMatch(text, MatchTotals(*totals), tuple(decisions), tuple(seconds), digest)
