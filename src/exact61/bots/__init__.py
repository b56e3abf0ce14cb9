"""Bots that play a seat from its view. `make_bot(name, rng)` builds one by name."""

from __future__ import annotations

import random

from exact61.bots.base import Bot, BotFactory
from exact61.bots.simple import GreedyBot, RandomBot

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, rng: random.Random) -> Bot:
    """The bot called `name`, drawing its choices from `rng`."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None
    return factory(rng)


__all__ = ["BOTS", "Bot", "BotFactory", "GreedyBot", "RandomBot", "make_bot"]
