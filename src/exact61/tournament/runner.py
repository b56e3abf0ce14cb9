"""Playing a schedule on any backend (`exact61.scale`); results come back in schedule order."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from exact61.scale import Backend, open_backend, run_in_order
from exact61.simulation.driver import bot_table, native_match, plays_natively, record_extra
from exact61.tournament.schedule import Game


@dataclass(frozen=True)
class Result:
    game: Game
    record: dict[str, Any]
    decisions: tuple[int, ...]  # per seat
    seconds: tuple[float, ...]  # per seat

    @classmethod
    def of_record(cls, game: Game, record: dict[str, Any]) -> Result:
        """The result a record of `play_game` holds (`--resume` reads them back)."""
        seconds = tuple(ms / 1000 for ms in record["think_ms"])
        return cls(game, record, tuple(record["decisions"]), seconds)


def is_result_of(game: Game, record: dict[str, Any]) -> bool:
    """Whether `record` is `play_game(game)`'s: its seed, seating and player count, and each
    seat's decisions and thinking time."""
    per_seat = [record.get(key) for key in ("think_ms", "decisions")]
    return (
        record.get("seed") == game.seed
        and record.get("players") == game.players
        and record.get("bots") == list(game.seating)
        and all(isinstance(v, list) and len(v) == game.players for v in per_seat)
    )


def play_game(game: Game) -> Result:
    """Play one game of the schedule; its record gives each seat's decisions and thinking time
    too (`think_ms`, `decisions`). A game of bots the native core plays is played there
    (`simulation.driver.native_match`)."""
    if plays_natively(game.seating):
        # the two fields known once it is played, in their place before the rounds
        extra = {**record_extra(game.seating), "think_ms": None, "decisions": None}
        played = native_match(game.players, game.seed, game.seating, extra=extra, timed=True)
        record = json.loads(played.text)
        record["think_ms"] = [round(s * 1000, 3) for s in played.seconds]
        record["decisions"] = list(played.decisions)
        return Result(game, record, played.decisions, played.seconds)
    table = bot_table(game.players, game.seed, game.seating, timed=True)
    table.play_out()
    times = table.times
    assert table.extra is not None
    table.extra["think_ms"] = [round(t.seconds * 1000, 3) for t in times]
    table.extra["decisions"] = [t.decisions for t in times]
    record = table.record()
    return Result(game, record, tuple(t.decisions for t in times), tuple(t.seconds for t in times))


def run(
    games: Sequence[Game],
    workers: int = 1,
    on_done: Callable[[int], None] | None = None,
    *,
    backend: Backend | None = None,
) -> Iterator[Result]:
    """Play `games`; yield results in schedule order as soon as each is next in line: on
    `backend` if one is given, else in `workers` processes (in this one for a single worker).
    `on_done(n)` is told as every `n` games finish."""
    if backend is not None or workers <= 1:
        yield from run_in_order(play_game, games, backend, on_done)
        return
    with open_backend("process", workers) as pool:
        yield from run_in_order(play_game, games, pool, on_done)
