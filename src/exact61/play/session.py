"""A game of Exact 61 Five Up between people and bots, as both front ends (the full-screen
terminal app and `--plain`) play it: seats, bots, deals from one seed, saving after every action
and resuming from the saved record."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from exact61 import __version__
from exact61.bots import STRONGEST, Bot, check_bot_spec, make_bot
from exact61.core import (
    Action,
    Event,
    Match,
    Phase,
    Play,
    SeatView,
    match_to_record,
    replay,
    round_chance,
    view_of,
)

HUMAN = "human"


def games_dir() -> Path:
    """Where games are saved: the user's data directory (EXACT61_DATA_DIR overrides it)."""
    return Path(os.environ.get("EXACT61_DATA_DIR") or user_data_dir("exact61")) / "games"


def parse_seats(seats: str | None, players: int) -> list[str]:
    """`human,greedy,...`; by default seat 0 is a person and the others the strongest bot."""
    if not seats:
        return [HUMAN] + [STRONGEST] * (players - 1)
    names = [s.strip() for s in seats.split(",")]
    if len(names) != players:
        raise ValueError(f"--seats names {len(names)} seats for {players} players")
    for name in names:
        if name != HUMAN:
            check_bot_spec(name)
    return names


@dataclass(frozen=True)
class Step:
    """One action as it happened, with the events it caused (for the log)."""

    seat: int
    action: Action
    drawn: Any  # the tile a draw took, or None
    events: tuple[Event, ...]
    round_ended: bool


class GameSession:
    """The match, who sits where, and the game's save file."""

    def __init__(
        self,
        players: int,
        seats: Sequence[str],
        seed: int | None = None,
        save_path: Path | None = None,
        lang: str = "en",
    ) -> None:
        self.players = players
        self.seats = list(seats)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.lang = lang
        self.match = Match(players)
        self.chance = random.Random(self.seed)
        self.bots: dict[int, Bot] = {
            s: make_bot(name, random.Random(f"{self.seed}:seat:{s}"))
            for s, name in enumerate(self.seats)
            if name != HUMAN
        }
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.save_path = save_path or games_dir() / f"{stamp}-{self.seed}.json"

    # ---- who plays ---------------------------------------------------------------------

    @property
    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    @property
    def to_act(self) -> int | None:
        return self.match.to_act

    def view(self, seat: int) -> SeatView:
        return view_of(self.match, seat)

    # ---- playing -----------------------------------------------------------------------

    def deal(self) -> None:
        """Start the next round from the game's own seed (R5, R6, R8)."""
        self.match.deal_next_round(self.chance)
        self.save()

    def apply(self, action: Action) -> Step:
        """Take `action` for the seat to act (raises IllegalMoveError, naming the rule)."""
        seat = self.match.to_act
        assert seat is not None
        events = tuple(self.match.apply(action))
        log = self.match.rounds[-1]
        drawn = log.steps[-1].drawn
        step = Step(seat, action, drawn, events, self.match.phase is not Phase.PLAY)
        self.save()
        return step

    def forced(self) -> Action | None:
        """The action R10 leaves a person no choice about (a draw or a pass), if any."""
        legal = self.match.legal_actions()
        if len(legal) == 1 and not isinstance(legal[0], Play):
            return legal[0]
        return None

    def bot_action(self) -> Action:
        seat = self.match.to_act
        assert seat is not None and not self.is_human(seat)
        legal = self.match.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.bots[seat].choose(view_of(self.match, seat), legal)

    def hint(self, seat: int) -> tuple[Action, int]:
        """What the strongest bot would play for `seat` now, and its immediate credit."""
        legal = self.match.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            bot = make_bot(STRONGEST, random.Random(f"{self.seed}:hint:{len(self.match.rounds)}"))
            action = bot.choose(view_of(self.match, seat), legal)
        return action, self.match.credit_of(action)

    # ---- saving ------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        return match_to_record(
            self.match,
            seed=self.seed,
            extra={"seats": self.seats, "lang": self.lang, "program": f"exact61 {__version__}"},
        )

    def save(self) -> None:
        """Write the record, replacing the file only once the new one is complete."""
        self.save_path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.save_path.with_suffix(".part")
        partial.write_text(json.dumps(self.record()) + "\n")
        partial.replace(self.save_path)

    @classmethod
    def resume(cls, path: Path) -> GameSession:
        """Continue a saved game: replay its record, then pick the seed's deals up where they
        stopped (every round takes the same share of the seed)."""
        record = json.loads(path.read_text())
        match = replay(record)
        seats = record.get("seats") or [HUMAN] + [STRONGEST] * (record["players"] - 1)
        session = cls(record["players"], seats, record.get("seed"), path, record.get("lang", "en"))
        for _ in match.rounds:  # the seed's draws already used by the saved rounds
            round_chance(session.chance, session.players)
        session.match = match
        return session


def last_unfinished(folder: Path | None = None) -> Path | None:
    """The most recently saved game that has no winner yet."""
    folder = folder or games_dir()
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            if json.loads(path.read_text()).get("winner") is None:
                return path
        except (OSError, ValueError):
            continue
    return None
