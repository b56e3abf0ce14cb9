"""The bot interface: a bot sees one seat's view and the legal actions, and picks one."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from exact61.core import Action, SeatView


class Bot(Protocol):
    """Plays one seat: `choose` returns one of the view's legal actions (`view.legal_actions`,
    listed as the match lists them)."""

    name: str

    def choose(self, view: SeatView) -> Action: ...


@runtime_checkable
class BlindBot(Bot, Protocol):
    """A bot whose choice depends on the legal actions alone (and its own random source):
    `pick(legal)` chooses as `choose(view)` would from `view.legal_actions`, so a table that
    asks it builds no view for it."""

    def pick(self, legal: Sequence[Action]) -> Action: ...


BotFactory = Callable[[random.Random], Bot]
