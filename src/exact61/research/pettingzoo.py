"""Exact 61 Five Up as a PettingZoo AEC environment.

    from exact61.research.pettingzoo import env
    table = env(players=4, render_mode="ansi")
    table.reset(seed=7)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        ...

Agents are `seat_0` ... `seat_{n-1}` (at 4 players seats 0 and 2 are partners). Each agent acts
on its own turn: every placement, draw and pass is one step (R7-R10). The action space is the
fixed one of `encoding` (450 actions); each observation is a dict with the observation tensor
of `encoding.observe` and an `action_mask` (all zeros for an agent not to act). Rewards come at
the end, as in OpenSpiel: `encoding.match_returns` for a match, `encoding.round_returns` with
`one_round=True`. A match still without a winner after `max_rounds` rounds is truncated.

`reset(seed=...)` seeds the deals and lots (`Match.deal_next_round`): the same seed and the same
actions give the same episode. PettingZoo's `turn_based_aec_to_parallel(env(...))` is the
parallel form (`aec_to_parallel` refuses a game whose seats act in turn).
`env.unwrapped.match` is the core match, so `exact61.core.match_to_record` writes any episode as
an `exact61-match/1` record.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from exact61.core import Match, Phase
from exact61.research import encoding
from exact61.research.encoding import DEFAULT_MAX_ROUNDS
from exact61.research.rendering import RENDER_MODES, check_render_mode, render_match
from exact61.table import HUMAN, Table


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks: an illegal action ends the episode with
    -1 for the seat that took it, an action outside the space raises ValueError (as from
    `Exact61-v0`), and steps must follow resets."""
    aec: AECEnv = raw_env(**kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = ActionNumbers(aec)
    aec = wrappers.OrderEnforcingWrapper(aec)
    return aec


class ActionNumbers(wrappers.BaseWrapper):  # type: ignore[misc]
    """PettingZoo's `AssertOutOfBoundsWrapper` in `Exact61-v0`'s words: an action outside the
    space (450, -1, 3.7, "3") is a ValueError that names it (`encoding.action_number`), not a bare
    AssertionError; a seat whose episode is over steps with None, as PettingZoo has it."""

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if not (action is None and (self.terminations[agent] or self.truncations[agent])):
            action = encoding.action_number(action)
        super().step(action)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for it
    """The environment without wrappers (`env()` adds them)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "exact61_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        *,
        one_round: bool = False,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        encoding.warn_of_refused_engine()
        players = encoding.check_players(players)
        max_rounds = encoding.check_max_rounds(max_rounds)
        one_round = encoding.check_flag("one_round", one_round)
        check_render_mode(render_mode)
        self.players = players
        self.one_round = one_round
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        self._action_space = spaces.Discrete(encoding.ACTION_COUNT)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    -1.0, 1.0, (encoding.OBSERVATION_SIZE,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (encoding.ACTION_COUNT,), dtype=np.int8),
            }
        )
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.table = Table(players, [HUMAN] * players, random.SystemRandom().randrange(2**62))
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    @property
    def match(self) -> Match:
        """The match in play: every seat an agent's, at a table (`exact61.table.Table`)."""
        return self.table.match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        number = encoding.check_seed(seed)
        if number is not None:  # the deals and lots from the seed
            self.table = Table(self.players, [HUMAN] * self.players, number)
        else:  # from where the last episode's left them
            self.table.start_over()
        self.table.deal()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._seat_agent()

    def _seat_agent(self) -> str:
        seat = self.match.to_act
        assert seat is not None
        return self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        view = self.match.view(seat)
        return {
            "observation": encoding.observe(view),
            "action_mask": encoding.action_mask(view.legal_actions),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # a number of the action space, or ValueError: int() took 3.7 as 3, and -1 read "pass"
        number = encoding.action_number(action)
        match = self.match
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.table.apply(encoding.ACTIONS[number])  # IllegalMoveError names the rule
        if match.phase is not Phase.PLAY:
            if match.is_over or self.one_round:
                if self.one_round:
                    zero = [0] * len(match.scores)
                    returns = encoding.round_returns(self.players, zero, match.scores)
                else:
                    returns = encoding.match_returns(match)
                self.rewards = dict(zip(self.possible_agents, returns, strict=True))
                self.terminations = dict.fromkeys(self.agents, True)
            elif len(match.rounds) >= self.max_rounds:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.table.deal()
        if match.phase is Phase.PLAY:
            self.agent_selection = self._seat_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render_match(self.match, self.render_mode)

    def close(self) -> None:
        pass
