"""Exact 61 Five Up as a single-agent Gymnasium environment. Importing this module registers
`Exact61-v0`, with a native batched form for `gymnasium.make_vec(...,
vectorization_mode="vector_entry_point")` (`exact61.research.vector`).

    import gymnasium
    import exact61.research.gymnasium
    env = gymnasium.make("Exact61-v0", players=2, opponents="greedy")
    observation, info = env.reset(seed=1)
    observation, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The agent holds one seat (`seat`, 0 by default); the project's bots, chosen by name
(`random`, `greedy`, `heuristic`, `ismcts[:N]`), hold the others, at 4 players the partner too.
Actions and observations are those of `encoding` (450 actions; the observation tensor of the
agent's seat view). `info["action_mask"]` (and `action_masks()`, as sb3-contrib's maskable
algorithms expect) marks the legal actions. An illegal action ends the episode with reward -1
and `info["illegal_action"]`; a value outside the action space (450, -1, 3.7, "3") raises
ValueError, as an agent's bug should. Forced actions (a single legal action) of the agent are played
for it unless `skip_forced=False`.

The reward comes at the end: the agent's seat's share of `encoding.match_returns` (+1 when its
side reaches exactly 61, R30), or of `encoding.round_returns` with `one_round=True`. A match
without a winner after `max_rounds` rounds is truncated with reward 0. `reset(seed=...)` seeds
the deals, lots and bots: the same seed and actions give the same episode, unless an opponent
searches for a time (`ismcts@0.05s`: as many iterations as fit), which the environment warns of.

An episode always starts at a decision of the agent, so `step` may follow every `reset`: a
game that would end before the agent has any choice (in about 1 in 300 single rounds every
action of the agent's seat is forced) is dealt again from the same seeded chance. Such a game
teaches nothing, and a Gymnasium episode cannot be over at `reset`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import gymnasium
import numpy as np
from gymnasium import spaces

from exact61.bots import check_bot_spec
from exact61.core import Match, Phase
from exact61.research import encoding
from exact61.research.encoding import DEFAULT_MAX_ROUNDS
from exact61.research.rendering import RENDER_MODES, check_render_mode, render_match
from exact61.table import HUMAN, Table, Waiting

ENV_ID = "Exact61-v0"


class AgentGame:
    """One game as the agent plays it: a table (`exact61.table.Table`, the one game loop) with
    the agent in its seat and the bots in the others, and the steps between two decisions of
    the agent. `Exact61Env` plays one, `Exact61VectorEnv` many."""

    def __init__(
        self,
        players: int,
        seat: int,
        opponents: Sequence[str],
        one_round: bool,
        max_rounds: int,
        skip_forced: bool,
    ) -> None:
        self.players = players
        self.seat = seat
        self.opponents = list(opponents)
        self.one_round = one_round
        self.max_rounds = max_rounds
        self.skip_forced = skip_forced
        self.table = self._table(0)
        self.started = False  # `start` has begun an episode
        self.illegal = False  # the agent's last action was illegal: it ended the episode
        self.dealt_again = 0  # games of this episode over before the agent's first choice

    def _table(self, match_seed: int) -> Table:
        others = iter(self.opponents)
        seats = [HUMAN if s == self.seat else next(others) for s in range(self.players)]
        return Table(self.players, seats, match_seed, bots_per="seat")

    @property
    def match(self) -> Match:
        return self.table.match

    def start(self, match_seed: int) -> None:
        """A new game from `match_seed` (the table's deals and lots, and its bots' sources),
        played to the agent's first decision."""
        self.table = self._table(match_seed)
        self.started, self.illegal = True, False
        self.dealt_again = 0
        # An episode starts at the agent's first decision: a game over before it (every action
        # of the agent's forced, or max_rounds reached) is no episode, and is dealt anew.
        while self.advance():
            self.table.start_over()
            self.dealt_again += 1

    def act(self, action: Any) -> tuple[float, bool, bool]:
        """The agent's action number: (reward, terminated, truncated); an illegal one ends the
        episode with -1 (and `illegal` says so). ValueError for a value outside the action
        space (`action_number`): that is the agent's bug, not a move."""
        match = self.match
        if not self.started:
            raise RuntimeError("no episode has started: call reset() first")
        if not self.at_decision():
            raise RuntimeError("the episode is over: call reset()")
        action = encoding.action_number(action)
        legal = match.legal_actions()
        if encoding.ACTIONS[action] not in legal:
            self.illegal = True
            return -1.0, True, False
        self.illegal = False
        self.table.apply(encoding.ACTIONS[action])
        finished = self.advance()
        terminated = finished and (match.is_over or self.one_round)
        truncated = finished and not terminated
        reward = self.returns()[self.seat] if terminated else 0.0
        return reward, terminated, truncated

    def at_decision(self) -> bool:
        """Whether the agent is to act in an episode that goes on: not before the first `start`,
        after the episode's end, or after an illegal action, which ends it."""
        match = self.match
        return (
            self.started
            and not self.illegal
            and match.phase is Phase.PLAY
            and match.to_act == self.seat
        )

    def advance(self) -> bool:
        """Play on (the table's loop: deals, bots, forced actions) until the agent has a
        choice; True when the episode has ended. The agent's own forced actions are played for
        it with `skip_forced`; without, it is asked even then."""
        table, match = self.table, self.table.match
        while True:
            waiting = table.waiting_for()
            if waiting is Waiting.OVER:
                return True
            if waiting is Waiting.DEAL:
                if (self.one_round and match.rounds) or len(match.rounds) >= self.max_rounds:
                    return True
                table.deal()
            elif self.skip_forced:
                # On to the agent's choice in one call: a `step` a move asks what the table
                # waits for and builds an `Update` nobody here reads (docs/research.md, Speed).
                table.play_on(self.seat)
                if match.to_act == self.seat:
                    return False
            elif match.to_act == self.seat:
                return False  # any action, forced or not
            else:
                table.step()  # a bot's move, or a forced draw or pass

    def returns(self) -> list[float]:
        if self.one_round:
            zero = [0] * len(self.match.scores)
            return encoding.round_returns(self.players, zero, self.match.scores)
        return encoding.match_returns(self.match)


class Settings(NamedTuple):
    """`Exact61-v0`'s settings as checked by `check_settings`: whole numbers as ints, flags as
    bools; in `AgentGame`'s order."""

    players: int
    seat: int
    opponents: list[str]  # one bot name per other seat
    one_round: bool
    max_rounds: int
    skip_forced: bool


def check_settings(
    players: Any,
    seat: Any,
    opponents: str | Sequence[str],
    one_round: Any,
    max_rounds: Any,
    skip_forced: Any,
) -> Settings:
    """The settings with whole numbers as ints (numpy integers taken), the opponents' bot
    names, one per other seat, and the flags as bools; ValueError for a setting that cannot be.
    `Exact61-v0` and `Exact61VectorEnv` check theirs here."""
    encoding.warn_of_refused_engine()
    count = encoding.check_players(players)
    chair = encoding.setting_number(seat)
    if chair is None or not 0 <= chair < count:
        raise ValueError(f"no seat {seat!r} among {count} players")
    # bytes are a sequence of ints (b"greedy" was six opponents), and a name is a str
    given = [opponents] if isinstance(opponents, str) else opponents
    if isinstance(given, bytes | bytearray) or not (
        isinstance(given, Sequence | np.ndarray) and all(isinstance(n, str) for n in given)
    ):
        raise ValueError(
            f"opponents is a bot name or a list of {count - 1}, one per other seat, "
            f"not {opponents!r}"
        )
    names = [opponents] * (count - 1) if isinstance(opponents, str) else list(opponents)
    if len(names) != count - 1:
        needed = f"{count - 1} opponent{'s' if count > 2 else ''}"
        raise ValueError(f"{count} players need {needed}, one per other seat, not {len(names)}")
    timed = [name for name in names if "@" in check_bot_spec(name)]
    if timed:  # NAME@SECONDSs: as many iterations as fit in the time, so the moves vary
        gymnasium.logger.warn(
            f"opponent {timed[0]!r} searches for a time, not a number of iterations: the same "
            "seed and actions may not give the same episode (ismcts:N and expert:N do)"
        )
    rounds = encoding.check_max_rounds(max_rounds)
    one = encoding.check_flag("one_round", one_round)
    skip = encoding.check_flag("skip_forced", skip_forced)
    return Settings(count, chair, names, one, rounds, skip)


class Exact61Env(gymnasium.Env[np.ndarray, np.int64]):  # type: ignore[misc, unused-ignore]
    """One seat of a match against the project's bots."""

    # Gymnasium declares `metadata` an instance variable with a class default.
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        players: int = 2,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        one_round: bool = False,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        skip_forced: bool = True,
        render_mode: str | None = None,
    ) -> None:
        settings = check_settings(players, seat, opponents, one_round, max_rounds, skip_forced)
        players, seat, names, one_round, max_rounds, skip_forced = settings
        check_render_mode(render_mode)
        self.players = players
        self.seat = seat
        self.opponents = names
        self.one_round = one_round
        self.max_rounds = max_rounds
        self.skip_forced = skip_forced
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            -1.0, 1.0, (encoding.OBSERVATION_SIZE,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(encoding.ACTION_COUNT)
        self.game = AgentGame(players, seat, names, one_round, max_rounds, skip_forced)

    @property
    def match(self) -> Match:
        """The core match of the episode in play."""
        return self.game.match

    # ---- Gymnasium API -------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=encoding.check_seed(seed))  # a numpy integer too
        self.game.start(int(self.np_random.integers(2**62)))
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        reward, terminated, truncated = self.game.act(action)
        info = self._info()
        if self.game.illegal:
            info["illegal_action"] = True
        elif self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, info

    def render(self) -> str | None:
        return render_match(self.match, self.render_mode)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a mask (the method maskable algorithms call); all zeros
        once the episode is over, an illegal action's end included."""
        if not self.game.at_decision():
            return encoding.action_mask([])
        return encoding.action_mask(self.match.view(self.seat).legal_actions)

    def _observation(self) -> np.ndarray:
        return encoding.observe(self.match.view(self.seat))

    def _info(self) -> dict[str, Any]:
        match = self.match
        return {
            "action_mask": self.action_masks(),
            "scores": match.scores,
            "round": len(match.rounds) - 1,
        }


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="exact61.research.gymnasium:Exact61Env",
        vector_entry_point="exact61.research.vector:Exact61VectorEnv",
    )
