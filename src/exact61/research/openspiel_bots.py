"""Bots for the OpenSpiel game (`exact61.research.openspiel`): OpenSpiel's own searches on it,
seeded so a game can be replayed (`ismcts_bot`, `DeterminizedMCTSBot`), one of the project's
bots as an OpenSpiel bot (`ProjectBot`), and `play`, which plays one game between any of them
(chance from a seed). Every seed is checked as the environments' resets check theirs
(`encoding.check_seed`): a whole number from 0, numpy's integers too.

    import exact61.research.openspiel as eo
    import exact61.research.openspiel_bots as ob
    game = eo.Exact61Game({"players": 2})
    state = ob.play(game, [ob.ismcts_bot(game, seed=1, max_simulations=10),
                           ob.ProjectBot("greedy", 2)], seed=7)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from exact61.bots import Bot, make_bot
from exact61.research import encoding
from exact61.research.openspiel import Exact61Game, Exact61State


def resampler(seed: int) -> Callable[[Exact61State, int], Exact61State]:
    """A seeded resampler for OpenSpiel's `ISMCTSBot.set_resampler` (reproducible searches)."""
    rng = random.Random(encoding.check_seed(seed))

    def resample(state: Exact61State, player: int) -> Exact61State:
        return state.resample_from_infostate(player, rng.random)

    return resample


def ismcts_bot(
    game: Exact61Game,
    *,
    seed: int,
    max_simulations: int,
    uct_c: float = 2.0,
    evaluator: mcts.Evaluator | None = None,
) -> ismcts.ISMCTSBot:
    """OpenSpiel's own `ISMCTSBot` on this game, seeded: random rollouts unless `evaluator`."""
    number = encoding.check_seed(seed)
    random_state = np.random.RandomState(number)
    if evaluator is None:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c, max_simulations, random_state=random_state)
    bot.set_resampler(resampler(seed))
    return bot


class DeterminizedMCTSBot(pyspiel.Bot):  # type: ignore[misc]
    """OpenSpiel's `MCTSBot` over determinizations: for each move it searches a few states
    sampled from the seat's information state (never the true one) and plays the action most
    of those searches chose (perfect-information Monte Carlo)."""

    def __init__(
        self,
        game: Exact61Game,
        *,
        seed: int,
        max_simulations: int,
        determinizations: int = 3,
        uct_c: float = 2.0,
        evaluator: mcts.Evaluator | None = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        number = encoding.check_seed(seed)
        random_state = np.random.RandomState(number)
        if evaluator is None:
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        self._mcts = mcts.MCTSBot(
            game, uct_c, max_simulations, evaluator, solve=False, random_state=random_state
        )
        self._rng = random.Random(number)
        self.determinizations = determinizations

    def restart_at(self, state: Exact61State) -> None:
        pass

    def step(self, state: Exact61State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        player = state.current_player()
        votes: dict[int, int] = {}
        for _ in range(self.determinizations):
            world = state.resample_from_infostate(player, self._rng.random)
            action = int(self._mcts.step(world))
            votes[action] = votes.get(action, 0) + 1
        best = max(votes.values())
        return min(a for a, n in votes.items() if n == best)


class ProjectBot(pyspiel.Bot):  # type: ignore[misc]
    """One of the project's bots as an OpenSpiel bot: a name (`random`, `greedy`, `heuristic`,
    `ismcts[:N]`, seeded with `seed`) or a bot object. It sees `match.view(seat)` only and
    is not asked about forced actions, as in the project's own matches."""

    def __init__(self, bot: str | Bot, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        number = encoding.check_seed(seed)
        self.bot = make_bot(bot, random.Random(number)) if isinstance(bot, str) else bot

    def restart_at(self, state: Exact61State) -> None:
        pass

    def step(self, state: Exact61State) -> int:
        match = state.episode.match
        seat = state.current_player()
        legal = match.legal_actions()
        if len(legal) == 1:
            return encoding.action_id(legal[0])
        return encoding.action_id(self.bot.choose(match.view(seat)))


def play(game: Exact61Game, bots: Sequence[Any], seed: int) -> Exact61State:
    """Play one game to its end: chance from `seed`, each seat's move from `bots[seat].step`
    (any object with OpenSpiel's `step(state)`, such as `ISMCTSBot`, which lacks the
    `restart_at` that `evaluate_bots` wants)."""
    rng = random.Random(encoding.check_seed(seed))
    state: Exact61State = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            weights = [p for _, p in outcomes]
            state.apply_action(rng.choices([a for a, _ in outcomes], weights)[0])
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return state
