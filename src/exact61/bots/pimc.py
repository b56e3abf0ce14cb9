"""`pimc`: perfect-information Monte Carlo. Deals are sampled consistently with the seat's view;
on each, every move is searched to the end of the round as if every tile were face up
(alpha-beta over the match equity table, `search.solver`), and the move with the best mean
over the deals is played (`search.evaluate.evaluate_moves`, the same valuation the analysis
has used). A deal too large to solve within the node budget is rolled out instead.

It is a sparring partner of a different kind than the tree searches: strong where the hidden
tiles matter little, and blind to the value of keeping its own information (strategy fusion).

Budget: `iterations` deals per move, or `seconds` per move (then as many deals as fit).
"""

from __future__ import annotations

import random

from exact61.core import Action, SeatView
from exact61.core.engine import choices
from exact61.search.equity import EquityTable, default_table
from exact61.search.evaluate import evaluate_moves

DEFAULT_DEALS = 24


class PimcBot:
    """Perfect-information Monte Carlo over sampled deals (see the module)."""

    name = "pimc"

    def __init__(
        self,
        rng: random.Random,
        *,
        iterations: int = DEFAULT_DEALS,
        seconds: float | None = None,
        node_limit: int = 20_000,
        table: EquityTable | None = None,
    ) -> None:
        self._rng = rng
        self.iterations = iterations
        self.seconds = seconds
        self.node_limit = node_limit
        self.table = table or default_table()  # loaded once per process, not while thinking
        self.last_iterations = 0

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(choices(legal)) == 1:
            self.last_iterations = 0
            return legal[0]
        evaluation = evaluate_moves(
            view,
            rng=self._rng,
            deals=self.iterations,
            node_limit=self.node_limit,
            table=self.table,
            seconds=self.seconds,
        )
        self.last_iterations = evaluation.deals
        return evaluation.best.action
