"""The bot interface: a bot sees one seat's view and the legal actions, and picks one."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from exact61.core import Action, SeatView


class Bot(Protocol):
    """Plays one seat. `choose` must return one of `legal` (which equals `view.legal_actions`)."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action: ...


BotFactory = Callable[[random.Random], Bot]
