"""Playing a schedule, in worker processes when asked; results come back in schedule order."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from exact61 import __version__
from exact61.core import match_to_record
from exact61.simulation.driver import play_match_timed
from exact61.tournament.schedule import Game


@dataclass(frozen=True)
class Result:
    game: Game
    record: dict[str, Any]
    decisions: tuple[int, ...]  # per seat
    seconds: tuple[float, ...]  # per seat


def play_game(game: Game) -> Result:
    match, times = play_match_timed(game.players, game.seed, game.seating)
    record = match_to_record(
        match,
        seed=game.seed,
        extra={
            "bots": list(game.seating),
            "program": f"exact61 {__version__}",
            "think_ms": [round(t.seconds * 1000, 3) for t in times],
        },
    )
    return Result(game, record, tuple(t.decisions for t in times), tuple(t.seconds for t in times))


def run(
    games: Sequence[Game], workers: int = 1, on_done: Callable[[], None] | None = None
) -> Iterator[Result]:
    """Play `games`; yield results in schedule order as soon as each is next in line."""
    if workers <= 1:
        for game in games:
            result = play_game(game)
            if on_done:
                on_done()
            yield result
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[Result], int] = {}
        ready: dict[int, Result] = {}
        queue = iter(games)
        next_out = 0

        def submit() -> None:
            game = next(queue, None)
            if game is not None:
                pending[pool.submit(play_game, game)] = game.index

        for _ in range(workers * 2):  # a short queue: results stream, memory stays flat
            submit()
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    index = pending.pop(future)
                    ready[index] = future.result()
                    if on_done:
                        on_done()
                    submit()
                while next_out < len(games) and games[next_out].index in ready:
                    yield ready.pop(games[next_out].index)
                    next_out += 1
        except BaseException:
            for future in pending:
                future.cancel()
            raise
