"""Beginner bots: `random` plays any legal action; `greedy` the highest immediate credit."""

from __future__ import annotations

import random
from collections.abc import Sequence

from exact61.core import Action, Play, SeatView
from exact61.core.settlement import kept


class RandomBot:
    """Any legal action, uniformly, from its own seeded source."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: SeatView) -> Action:
        return self.pick(view.legal_actions)

    def pick(self, legal: Sequence[Action]) -> Action:
        """The choice, which needs no view (a `BlindBot`)."""
        # floor(random() * n): uniform to within 2**-53, and cheaper than randrange
        return legal[int(self._rng.random() * len(legal))]


def greedy_rank(credit: int, pips: int, score: int) -> tuple[int, int]:
    """How greedy ranks a placement: its credit (0 when R4 would reject it: the highest credit
    not passing 305 lands exactly on it when one can), then the heavier tile (R19-R21)."""
    return (kept(score, credit), pips)


class GreedyBot:
    """The placement with the highest immediate credit that does not pass 61 (R4).

    The highest credit not passing 305 is the one landing exactly on 305 when there is one.
    Equal credits go to the heavier tile (pips left in hand pay the others at settlement,
    R19-R21), then by lot.
    """

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        best: list[Action] = []
        best_worth: tuple[int, int] = (-1, -1)
        score = view.scores[view.side]
        for action in legal:
            worth = (0, 0)
            if isinstance(action, Play):
                credit = view.layout.credit_after(action.tile, action.at)
                worth = greedy_rank(credit, action.tile.pips, score)
            if worth > best_worth:
                best, best_worth = [action], worth
            elif worth == best_worth:
                best.append(action)
        return best[self._rng.randrange(len(best))] if len(best) > 1 else best[0]
