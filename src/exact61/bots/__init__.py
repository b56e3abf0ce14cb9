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


MAX_ITERATIONS = 100_000  # ismcts:N beyond this thinks for minutes a move


def check_bot_spec(spec: str) -> str:
    """Validate `name` or `ismcts:ITERATIONS` (a level name works too, in any case); return the
    spec written canonically (lower case). Raises ValueError naming the bad part."""
    name, colon, budget = spec.strip().lower().partition(":")
    bot = LEVELS.get(name, name)
    if bot not in BOTS:
        known = ", ".join([*BOTS, *LEVELS])
        raise ValueError(f"unknown bot {name!r} in {spec!r}; choose from {known}")
    if colon:
        if bot != "ismcts":
            raise ValueError(f"bad bot {spec!r}: only ismcts takes a budget (ismcts:ITERATIONS)")
        if not budget.isdigit():
            raise ValueError(f"bad bot {spec!r}: {budget!r} is not a whole number of iterations")
        if not 1 <= int(budget) <= MAX_ITERATIONS:
            raise ValueError(
                f"bad bot {spec!r}: the budget is 1 to {MAX_ITERATIONS:,} iterations a move"
            )
        return f"{name}:{int(budget)}"
    return name


def make_bot(spec: str, rng: random.Random) -> Bot:
    """The bot named by `spec` (`greedy`, `expert`, `ismcts:1000`, ...), choosing from `rng`."""
    name, _, budget = check_bot_spec(spec).partition(":")
    name = LEVELS.get(name, name)
    if budget:
        return ISMCTSBot(rng, iterations=int(budget))
    return BOTS[name](rng)


__all__ = [
    "BOTS",
    "LEVELS",
    "MAX_ITERATIONS",
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
