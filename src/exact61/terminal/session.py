"""A game in the terminal: a `Table` kept in a file in the user's data directory, saved after
every action and resumed from that file (both front ends, full-screen and `--plain`, use it)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from pathlib import Path

from exact61.bots import STRONGEST
from exact61.core import Match
from exact61.table import HUMAN, Table, check_seat
from exact61.table.files import FileStore, games_dir, last_unfinished

__all__ = ["HUMAN", "GameSession", "SeatCountError", "games_dir", "last_unfinished", "parse_seats"]


class SeatCountError(ValueError):
    """`--seats` names `named` seats for a game of `players` (the message in English)."""

    def __init__(self, named: int, players: int) -> None:
        seats = f"{named} seat" if named == 1 else f"{named} seats"
        super().__init__(f"--seats names {seats} for {players} players")
        self.named, self.players = named, players


def parse_seats(seats: str | None, players: int) -> list[str]:
    """`human,greedy,...`; by default seat 0 is a person and the others the strongest bot.

    Each name is checked before the count, so a typo is named as such.
    """
    if not seats:
        return [HUMAN] + [STRONGEST] * (players - 1)
    names = [check_seat(s.strip()) for s in seats.split(",")]
    if len(names) != players:
        raise SeatCountError(len(names), players)
    return names


class GameSession(Table):
    """A table saved to `save_path` after every deal and action (`rounds`: as `Table` takes
    it, the rounds the game lasts; None, a whole match)."""

    def __init__(
        self,
        players: int,
        seats: Sequence[str],
        seed: int | None = None,
        save_path: Path | None = None,
        lang: str = "en",
        resume: Match | None = None,
        *,
        rounds: int | None = None,
    ) -> None:
        seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        wanted = save_path or games_dir() / f"{stamp}-{seed}.json"
        self.file = FileStore(wanted, new=save_path is None)  # a new game never takes another's
        super().__init__(
            players, seats, seed, lang=lang, store=self.file, resume=resume, rounds=rounds
        )

    @property
    def save_path(self) -> Path:
        return self.file.path

    def save(self) -> None:
        self.file.write(self)

    @classmethod
    def resume(cls, path: Path, *, rounds: int | None = None) -> GameSession:
        """Continue the game saved in `path`, lasting `rounds` rounds if given (a record does
        not keep it); raises RecordError, OSError or ValueError."""
        table = Table.from_record(json.loads(path.read_text()))
        return cls(
            table.players,
            table.seats,
            table.seed,
            path,
            table.lang,
            resume=table.match,
            rounds=rounds,
        )


def guided_session(path: Path, lang: str) -> GameSession:
    """The tour's guided match (`exact61.learn.guided`), kept in `path`: resumed from it when
    it is there, else a new one; either way over after `guided.ROUNDS` rounds (raises
    RecordError, OSError or ValueError for a file that does not resume)."""
    from exact61.learn import guided

    if path.exists():
        session = GameSession.resume(path, rounds=guided.ROUNDS)
        session.lang = lang
        return session
    return GameSession(
        len(guided.SEATS), guided.SEATS, guided.SEED, path, lang, rounds=guided.ROUNDS
    )
