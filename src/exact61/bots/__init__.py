"""Bots that play a seat from its view. `make_bot(name, rng)` builds one by name."""

from __future__ import annotations

import random

from exact61.bots.base import Bot, BotFactory
from exact61.bots.heuristic import HeuristicBot
from exact61.bots.ismcts import ISMCTSBot
from exact61.bots.simple import GreedyBot, RandomBot

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
}


# Levels for people: what `exact61 play --seats` and `--bot` also accept.
LEVELS = {"beginner": "random", "easy": "greedy", "medium": "heuristic", "expert": "ismcts"}
STRONGEST = "ismcts"


def check_bot_spec(spec: str) -> str:
    """Validate `name` or `ismcts:ITERATIONS` (a level name works too); return it unchanged."""
    name, _, budget = spec.partition(":")
    name = LEVELS.get(name, name)
    if name not in BOTS:
        known = ", ".join([*BOTS, *LEVELS])
        raise ValueError(f"unknown bot {spec!r}; choose from {known}")
    if budget and (name != "ismcts" or not budget.isdigit() or int(budget) < 1):
        raise ValueError(f"bad bot {spec!r}: only ismcts takes a budget, as ismcts:ITERATIONS")
    return spec


def make_bot(spec: str, rng: random.Random) -> Bot:
    """The bot named by `spec` (`greedy`, `expert`, `ismcts:1000`, ...), choosing from `rng`."""
    check_bot_spec(spec)
    name, _, budget = spec.partition(":")
    name = LEVELS.get(name, name)
    if budget:
        return ISMCTSBot(rng, iterations=int(budget))
    return BOTS[name](rng)


__all__ = [
    "BOTS",
    "LEVELS",
    "STRONGEST",
    "Bot",
    "BotFactory",
    "GreedyBot",
    "HeuristicBot",
    "ISMCTSBot",
    "RandomBot",
    "check_bot_spec",
    "make_bot",
]
