"""Many games of `Exact61-v0` stepped together: a native Gymnasium `VectorEnv`.

    import gymnasium
    import exact61.research.gymnasium  # registers Exact61-v0 and this vector entry point
    envs = gymnasium.make_vec(
        "Exact61-v0", num_envs=256, vectorization_mode="vector_entry_point", players=2
    )
    observations, infos = envs.reset(seed=1)
    observations, rewards, terminations, truncations, infos = envs.step(actions)

Every game is the single environment's (`gymnasium.AgentGame`): the same rules (the core's),
bots, seeds, observations and rewards. Game i of `reset(seed=s)` plays as `Exact61-v0` reset
with seed s + i, and games that end are reset as Gymnasium's `SyncVectorEnv` resets them
(`autoreset_mode`, in `metadata["autoreset_mode"]`: next step by default, same step, or
disabled), so both give the same arrays step by step.

Observations (num_envs x 751, float32) and action masks (num_envs x 450, int8, also
`infos["action_mask"]` and `action_masks()`) are kept in arrays changed in place. Two
implementations stand behind the one class (`plays_natively` says which):

- natively, where the native engine is in use (`engines.current()`) and every opponent is a
  bot it plays (`random`, `greedy`, `heuristic`): the native core's `VectorGames` steps all
  the games in one call with the GIL released, the twin of `AgentGame` and of the loop below,
  writing rows, masks, rewards, ends and standing into its arrays; the match seeds each game's
  numpy generator gives (`seeding.np_random`, as `Exact61-v0`'s reset) are drawn here, one
  ahead for each game (`next_seeds`), so the native loop never needs numpy's generator;
- in Python otherwise (another opponent, or `EXACT61_ENGINE=python`): one `AgentGame` a game.
  After a step, each game writes only what the actions since the agent's last decision changed
  (`Tracker`), which it reads from the round's public log; a round starts from its deal. A row
  is written whole from the seat's view (`encoding.observe`) only when its episode ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

if TYPE_CHECKING:
    from exact61.core._native import VectorGames

from exact61.bots import bot_of, check_bot_spec
from exact61.core import TARGET_RAW, Match, Phase, RoundLog, engines, side_count, side_of
from exact61.core.engine import MOVE_STRIDE, bits, place
from exact61.core.engine import move_of as engine_move
from exact61.core.log import SEATS, is_draw, is_placement, move_of
from exact61.research import encoding
from exact61.research.encoding import DEFAULT_MAX_ROUNDS, action_number
from exact61.research.gymnasium import AgentGame, check_settings

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]
_Array = TypeVar("_Array", FloatArray, MaskArray)
# Same-step autoreset: the games whose episodes ended, and their final observations, scores, rounds
_Final = tuple[npt.NDArray[np.bool_], FloatArray, npt.NDArray[np.int64], npt.NDArray[np.int64]]
# What a step returns, as Gymnasium's `VectorEnv.step` has it: observations, rewards,
# terminations, truncations and infos (`step`, `_native_step` and `_stepped` all return it)
_Stepped = tuple[
    FloatArray,
    npt.NDArray[np.float64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    dict[str, Any],
]

_SL = encoding.OBSERVATION_SLICES
HAND = _SL["hand"].start
PENDING = _SL["pending_draw"].start
TABLE = _SL["table"].start
FREE = _SL["free_points"].start
OPEN = _SL["open_values"].start
END_SUM = _SL["end_sum"].start
TO_ACT = _SL["to_act"].start
SIZES = _SL["hand_sizes"].start
BONEYARD = _SL["boneyard"].start
DRAWS = _SL["draws"].start
PASSES = _SL["passes"].start
PLAYED = _SL["played"].start
SCORES = _SL["scores"].start
CREDITS = _SL["credits"].start
TILES = encoding.TILES


class Tracker:
    """Keeps one game's observation row and mask row as `encoding.observe` and
    `encoding.action_mask` would make them for the agent's seat, from the round's public log.

    Between two decisions of the agent a few actions happen (its own, the bots', forced ones):
    each changes a few numbers of the observation (a tile on the table, two free points, a hand
    size...). `update` writes those, with the engine's own `place` for the layout; a new round
    starts from its deal (`start_round`), and the end of an episode is written whole from the
    seat's view (`rebuild`)."""

    def __init__(self, players: int, seat: int, row: FloatArray, mask: MaskArray) -> None:
        self.players = players
        self.seat = seat
        self.array, self.mask_array = row, mask
        # One number at a time: a memoryview takes a write in about a third of numpy's time.
        self.row = row.data.cast("B").cast("f")
        self.mask = mask.data.cast("B")
        self.rel = [(s - seat) % players for s in range(players)]
        self.sides = side_count(players)
        self.own_side = side_of(players, seat)
        self.log: RoundLog | None = None
        self.seen = 0  # public codes of the round written so far
        self.own_draws = 0  # of the seat's own draws
        self.free = self.end_sum = self.open = 0
        self.sizes = [0] * players
        self.draws = [0] * players
        self.passes = [0] * players
        self.boneyard = 0
        self.to_act = 0  # the relative seat written as to act
        self.pending = -1
        self.legal: list[int] = []  # the action numbers written in the mask and credits

    def sync(self, match: Match) -> None:
        """Bring both rows to the match as it stands (the agent to act, or the episode over)."""
        if match.phase is not Phase.PLAY:
            self.rebuild(match)
            return
        if match.rounds[-1] is not self.log:
            self.start_round(match)
        self.update(match)

    def rebuild(self, match: Match) -> None:
        """Both rows written whole from the seat's view (`update` cannot go on from them)."""
        view = match.view(self.seat)
        encoding.observe(view, out=self.array)
        self.mask_array.fill(0)
        self.legal = encoding.legal_ids(view.legal_actions)
        self.mask_array[self.legal] = 1
        self.log = None

    def start_round(self, match: Match) -> None:
        """Both rows as the round in play stood when dealt, before its first action."""
        log = match.rounds[-1]
        assert log.deal is not None, "a dealt round"
        self.log = log
        row = self.array
        row.fill(0.0)
        self.mask_array.fill(0)
        self.legal = []
        row[_SL["players"].start + self.players - 2] = 1.0
        row[_SL["opener"].start + self.rel[log.opener]] = 1.0
        for t in log.start_hand(self.seat):
            row[HAND + t] = 1.0
        self.seen = self.own_draws = 0
        self.free = self.end_sum = self.open = 0
        self.sizes = [len(log.start_hand(s)) for s in range(self.players)]
        for s, size in enumerate(self.sizes):
            row[SIZES + self.rel[s]] = size / TILES
        self.draws = [0] * self.players
        self.passes = [0] * self.players
        self.boneyard = len(log.deal.boneyard)
        self.to_act = 0
        self.pending = -1

    def update(self, match: Match) -> None:
        """Write what the actions since the last sync changed; the agent is to act."""
        log = self.log
        assert log is not None
        row, mask = self.row, self.mask
        seat, rel, sizes = self.seat, self.rel, self.sizes
        codes = log.public_codes
        free, end_sum, open_ = self.free, self.end_sum, self.open
        for k in range(self.seen, len(codes)):
            code = codes[k]
            s = code % SEATS
            r = rel[s]
            if is_placement(code):
                move = move_of(code)
                t = move // MOVE_STRIDE
                row[TABLE + t] = 1.0
                row[PLAYED + r * TILES + t] = 1.0
                sizes[s] -= 1
                if s == seat:
                    row[HAND + t] = 0.0
                after, end_sum, opened = place(free, end_sum, open_, move)
                for p in bits(free ^ after):
                    row[FREE + p] = float(after >> p & 1)
                for v in bits(open_ ^ opened):
                    row[OPEN + v] = float(opened >> v & 1)
                free, open_ = after, opened
            elif is_draw(code):
                sizes[s] += 1
                self.draws[s] += 1
                row[DRAWS + r] = self.draws[s] / TILES
                self.boneyard -= 1
                if s == seat:
                    row[HAND + log.draws[seat][self.own_draws]] = 1.0
                    self.own_draws += 1
            else:
                self.passes[s] += 1
                row[PASSES + r] = self.passes[s] / encoding.MAX_PASSES
            row[SIZES + r] = sizes[s] / TILES
        self.seen = len(codes)
        self.free, self.end_sum, self.open = free, end_sum, open_
        row[BONEYARD] = self.boneyard / TILES
        row[END_SUM] = end_sum / encoding.PIPS_IN_SET
        row[TO_ACT + self.to_act] = 0.0
        self.to_act = rel[seat]  # the agent is to act
        row[TO_ACT + self.to_act] = 1.0
        for side, raw in enumerate(match.scores):
            row[SCORES + (side - self.own_side) % self.sides] = max(
                -1.0, min(1.0, raw / TARGET_RAW)
            )
        if self.pending >= 0:
            row[PENDING + self.pending] = 0.0
        pending = match.pending_draw
        self.pending = -1 if pending is None else pending.ordinal
        if self.pending >= 0:
            row[PENDING + self.pending] = 1.0
        for a in self.legal:
            mask[a] = 0
            row[CREDITS + a] = 0.0
        legal = [encoding.ACTION_INDEX[action] for action in match.legal_actions()]
        for a, credit in zip(legal, match.legal_credits(), strict=True):
            mask[a] = 1
            row[CREDITS + a] = credit / TARGET_RAW
        self.legal = legal


MAX_NUM_ENVS = 2**16
"""The most games one batched environment holds. Each takes about 28 KB (its rows, the copies
handed out, the observation space's bounds, its game), so 65,536 take about 1.8 GB; the native
speed stops growing near 256 games (docs/research.md, Speed). More games are more
environments, in more processes."""


def check_num_envs(num_envs: Any) -> int:
    """The number of games as an int (a numpy integer is taken); ValueError for anything but a
    whole number from 1 to `MAX_NUM_ENVS` (2**63 was numpy's OverflowError, 2**40 a MemoryError
    of petabytes, neither naming the setting)."""
    count = encoding.setting_number(num_envs)
    if count is None or count < 1:
        raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
    if count > MAX_NUM_ENVS:
        raise ValueError(
            f"num_envs must be at most {MAX_NUM_ENVS:,}, not {count:,}: each game takes about "
            "28 KB; make more environments, in more processes, for more games"
        )
    return count


class Exact61VectorEnv(VectorEnv):  # type: ignore[misc, unused-ignore]
    """`num_envs` games of `Exact61-v0` (the same settings for each), stepped together: natively
    where the native core plays every opponent, else in Python (`plays_natively`)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        one_round: bool = False,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        skip_forced: bool = True,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        render_mode: str | None = None,
        native: bool = True,
    ) -> None:
        """`Exact61-v0`'s settings, Gymnasium's `autoreset_mode` and `copy` (False: the arrays
        handed out are the environment's own, changed by the next step). `native=False` keeps
        the Python implementation where the native core could play: its `games` are
        `AgentGame`s, whose matches a feature that reads them needs (the PPO example's threat)."""
        settings = check_settings(players, seat, opponents, one_round, max_rounds, skip_forced)
        players, seat, names, one_round, max_rounds, skip_forced = settings
        num_envs = check_num_envs(num_envs)
        if render_mode is not None:
            raise ValueError("the vector environment does not render: make Exact61-v0 for that")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {"autoreset_mode": self.autoreset_mode}
        self.num_envs = num_envs
        self.copy = copy
        self.render_mode = None
        self.single_observation_space = spaces.Box(
            -1.0, 1.0, (encoding.OBSERVATION_SIZE,), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(encoding.ACTION_COUNT)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.rngs: list[np.random.Generator | None] = [None] * num_envs
        self.started = np.zeros(num_envs, np.bool_)  # reset has begun the game's first episode
        self.native = (
            native_games(
                num_envs,
                players,
                seat,
                names,
                one_round,
                max_rounds,
                skip_forced,
                self.autoreset_mode,
            )
            if native
            else None
        )
        self.games: list[AgentGame] = []
        self.trackers: list[Tracker] = []
        if self.native is not None:
            # The native games' own arrays, written in place by each reset and step.
            core = self.native
            self.next_seeds = np.zeros(num_envs, np.uint64)  # each game's next match seed
            self.observations, self.masks = core.observations, core.masks
            self.rewards = core.rewards
            self.terminations, self.truncations = core.terminations, core.truncations
            self.autoreset = core.autoreset
            return
        self.games = [
            AgentGame(players, seat, names, one_round, max_rounds, skip_forced)
            for _ in range(num_envs)
        ]
        self.observations = np.zeros((num_envs, encoding.OBSERVATION_SIZE), np.float32)
        self.masks = np.zeros((num_envs, encoding.ACTION_COUNT), np.int8)
        self.trackers = [
            Tracker(players, seat, self.observations[i], self.masks[i]) for i in range(num_envs)
        ]
        self.rewards = np.zeros(num_envs, np.float64)
        self.terminations = np.zeros(num_envs, np.bool_)
        self.truncations = np.zeros(num_envs, np.bool_)
        self.autoreset = np.zeros(num_envs, np.bool_)

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Refused: the games are the native core's, or Python's with views into the arrays
        (pickle said only "cannot pickle memoryview objects"), and a copy would share them."""
        raise TypeError(
            "the batched Exact61-v0 cannot be pickled or copied (its games live in this "
            "process): make it in the process that steps it, from its settings"
        )

    @property
    def plays_natively(self) -> bool:
        """Whether the native core steps the games (else the `AgentGame`s of `games` do, in
        Python)."""
        return self.native is not None

    # ---- Gymnasium API -------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[FloatArray, dict[str, Any]]:
        """Reset every game (or those of `options["reset_mask"]`); an int seed s seeds game i
        with s + i, as `SyncVectorEnv` does."""
        self._check_open()
        if isinstance(seed, bool | str | bytes | bytearray | memoryview) or not (  # b"ab": 97, 98
            seed is None or isinstance(seed, int | np.integer | Sequence | np.ndarray)
        ):
            raise TypeError(f"seed must be an int, a sequence of ints or None, not {seed!r}")
        if isinstance(seed, np.integer):
            seed = int(seed)
        if isinstance(seed, int) and seed < 0:  # as Exact61-v0 and PettingZoo's refuse it
            raise ValueError(f"seed must be at least 0, not {seed!r}")
        if isinstance(seed, int):
            super().reset(seed=seed)  # seeds the vector environment's own np_random
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = [None if s is None else encoding.setting_number(s) for s in seed]
            wrong = [s for s, n in zip(seed, seeds, strict=True) if s is not None and n is None]
            if wrong:  # int() would take 1.5 as 1 and "7" as 7
                raise TypeError(
                    f"seed must be an int, a sequence of ints or None, not {wrong[0]!r} "
                    "in a sequence"
                )
            negative = [s for s in seeds if s is not None and s < 0]
            if negative:  # refused before any game resets
                raise ValueError(f"seed must be at least 0, not {negative[0]!r} in a sequence")
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} games")
        chosen = np.ones(self.num_envs, np.bool_)
        if options is not None and "reset_mask" in options:
            given = np.asarray(options["reset_mask"])
            if given.dtype != np.bool_:  # [0, 1], the games' numbers, was the mask [False, True]
                raise TypeError(
                    f"reset_mask must be a mask of bools, one a game (np.flatnonzero's numbers "
                    f"are no mask), not of {given.dtype}"
                )
            chosen = np.ascontiguousarray(given)
            if chosen.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must have shape ({self.num_envs},)")
        if self.native is not None:
            for i in np.flatnonzero(chosen):
                self._seed_game(int(i), seeds[i])
            self.native.reset(chosen, self.next_seeds)
            self._draw_seeds(chosen)
        else:
            for i in np.flatnonzero(chosen):
                self._reset_game(int(i), seeds[i])
        self.terminations[chosen] = self.truncations[chosen] = self.autoreset[chosen] = False
        self.started |= chosen
        return self._out(self.observations), self._infos()

    def step(self, actions: Any) -> _Stepped:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(
                f"step takes one action for each of the {self.num_envs} games, an array of shape "
                f"({self.num_envs},), not {actions.shape}"
            )
        self._check_can_act()
        # every action checked before any game moves (a step that only resets a game ignores it)
        skipped = self.autoreset if self.autoreset_mode is AutoresetMode.NEXT_STEP else None
        numbers = action_numbers(actions, skipped)
        if self.native is not None:
            return self._native_step(numbers)
        rewards, terminations, truncations = self.rewards, self.terminations, self.truncations
        illegal = np.zeros(self.num_envs, np.bool_)
        final: dict[int, FloatArray] = {}
        ended: dict[int, tuple[tuple[int, ...], int]] = {}  # same step: scores and round at the end
        same_step = self.autoreset_mode is AutoresetMode.SAME_STEP
        for i, game in enumerate(self.games):
            if self.autoreset[i]:  # next step autoreset: this step only resets the game
                self._reset_game(i, None)
                rewards[i], terminations[i], truncations[i] = 0.0, False, False
                continue
            rewards[i], terminations[i], truncations[i] = game.act(numbers[i])
            illegal[i] = game.illegal
            self.trackers[i].sync(game.match)
            if game.illegal:  # it ended the episode: nothing is legal any more
                self.masks[i].fill(0)
            if same_step and (terminations[i] or truncations[i]):
                final[i] = self.observations[i].copy()
                ended[i] = self._standing(i)
                self._reset_game(i, None)
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            self.autoreset = terminations | truncations
        if not final:
            return self._stepped(illegal, None)
        done = np.zeros(self.num_envs, np.bool_)
        done[list(final)] = True
        stacked = np.zeros_like(self.observations)
        scores = np.zeros((self.num_envs, len(self.games[0].match.scores)), np.int64)
        rounds = np.zeros(self.num_envs, np.int64)
        for i, row in final.items():
            stacked[i] = row
            scores[i], rounds[i] = ended[i]
        return self._stepped(illegal, (done, stacked, scores, rounds))

    def _check_open(self) -> None:
        """RuntimeError once `close()` has let the games go: a step or reset after it would
        play on games no longer meant to be used (Gymnasium's `closed`)."""
        if self.closed:
            raise RuntimeError("the vector environment is closed: make a new one")

    def _check_can_act(self) -> None:
        """RuntimeError, before anything moves, for a game this step would ask to act that
        cannot: one never reset, or (autoreset disabled) one whose episode is over. (The native
        games check it again, a safety net: they refuse such a step whole.)"""
        self._check_open()
        waiting = np.flatnonzero(~self.started)
        if len(waiting):
            raise RuntimeError(f"game {waiting[0]} has no episode yet: call reset() first")
        if self.autoreset_mode is AutoresetMode.DISABLED:
            over = np.flatnonzero(self.terminations | self.truncations)
            if len(over):
                raise RuntimeError(
                    f"the episode of game {over[0]} is over: reset it first, with "
                    "reset(options={'reset_mask': mask}) or every game with reset()"
                )

    def action_masks(self) -> MaskArray:
        """The legal actions of every game now, as masks (the method maskable algorithms call)."""
        return self._out(self.masks)

    # ---- the games -----------------------------------------------------------------------

    def _native_step(self, numbers: npt.NDArray[np.int64]) -> _Stepped:
        """One native call steps every game (`numbers`: their actions, checked); only the seeds
        of the games it started are drawn here, from their generators."""
        native = self.native
        assert native is not None
        illegal_count, ended_count = native.step(numbers, self.next_seeds)
        self._draw_seeds(native.reseeded)
        illegal = native.illegal.copy() if illegal_count else np.zeros(self.num_envs, np.bool_)
        if not ended_count:
            return self._stepped(illegal, None)
        done = native.ended.copy()
        stacked = np.zeros_like(self.observations)
        stacked[done] = native.final_observations[done]
        scores = np.zeros_like(native.final_scores)
        scores[done] = native.final_scores[done]
        rounds = np.zeros_like(native.final_rounds)
        rounds[done] = native.final_rounds[done]
        return self._stepped(illegal, (done, stacked, scores, rounds))

    def _stepped(
        self,
        illegal: npt.NDArray[np.bool_],
        final: _Final | None,
    ) -> _Stepped:
        """What a step returns, from what the games say: which actions were illegal and, with
        same-step autoreset, the episodes that ended (`final`: which, and their final
        observations, scores and rounds, zero for the others)."""
        infos = self._infos()
        # An illegal action ends its episode: with same-step autoreset, what the step says of
        # an ended episode is in `final_info`, as SyncVectorEnv has it.
        said: dict[str, Any] = (
            {"illegal_action": illegal, "_illegal_action": illegal.copy()} if illegal.any() else {}
        )
        if final is not None:
            done, final_obs, final_scores, final_rounds = final
            said |= {
                "scores": final_scores,
                "_scores": done.copy(),
                "round": final_rounds,
                "_round": done.copy(),
            }
            infos["final_obs"], infos["_final_obs"] = final_obs, done
            infos["final_info"], infos["_final_info"] = said, done.copy()
        else:
            infos.update(said)
        return (
            self._out(self.observations),
            self.rewards.copy(),
            self.terminations.copy(),
            self.truncations.copy(),
            infos,
        )

    def _reset_game(self, i: int, seed: int | None) -> None:
        rng = self.rngs[i]
        if seed is not None or rng is None:
            rng = self.rngs[i] = seeding.np_random(seed)[0]
        game = self.games[i]
        game.start(int(rng.integers(2**62)))  # as Exact61Env.reset
        self.trackers[i].sync(game.match)

    def _seed_game(self, i: int, seed: int | None) -> None:
        """Game i's generator for a reset (native): a new one from `seed`, or its own going on,
        whose next draw is already in `next_seeds`."""
        if seed is not None or self.rngs[i] is None:
            rng = self.rngs[i] = seeding.np_random(seed)[0]
            self.next_seeds[i] = rng.integers(2**62)  # as Exact61Env.reset draws it

    def _draw_seeds(self, games: npt.NDArray[np.bool_]) -> None:
        """The next match seed of each game in `games`, which has just used its last."""
        for i in np.flatnonzero(games):
            rng = self.rngs[i]
            assert rng is not None
            self.next_seeds[i] = rng.integers(2**62)

    def _standing(self, i: int) -> tuple[tuple[int, ...], int]:
        """Game i's scores (raw points, per side) and round (from 0), as `Exact61-v0`'s info."""
        match = self.games[i].match
        return match.scores, len(match.rounds) - 1

    def _infos(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, np.bool_)
        if self.native is not None:
            scores, rounds = self.native.scores.copy(), self.native.rounds.copy()
        else:
            standing = [self._standing(i) for i in range(self.num_envs)]
            scores = np.array([scores for scores, _ in standing], np.int64)
            rounds = np.array([round_ for _, round_ in standing], np.int64)
        return {
            "action_mask": self._out(self.masks),
            "_action_mask": every,
            "scores": scores,
            "_scores": every.copy(),
            "round": rounds,
            "_round": every.copy(),
        }

    def _out(self, array: _Array) -> _Array:
        return array.copy() if self.copy else array


NATIVE_MOST_ROUNDS = 2**64 - 1  # the native games count rounds in a u64


def native_games(
    num_envs: int,
    players: int,
    seat: int,
    opponents: Sequence[str],
    one_round: bool,
    max_rounds: int,
    skip_forced: bool,
    autoreset_mode: AutoresetMode,
) -> VectorGames | None:
    """The native core's games for a batch, or None where it cannot play them: the native
    engine is not in use (`engines.current()`), or an opponent is not one of its bots."""
    if engines.current().ENGINE != "native":
        return None
    from exact61.core import _native

    names = [bot_of(check_bot_spec(name)) for name in opponents]
    if not all(name in _native.NATIVE_BOTS for name in names):
        return None
    blocks = [(name, s.start, s.stop) for name, s in encoding.OBSERVATION_SLICES.items()]
    return _native.VectorGames(
        num_envs,
        players,
        seat,
        names,
        one_round=one_round,
        max_rounds=min(max_rounds, NATIVE_MOST_ROUNDS),  # no match lasts as many: no cap
        skip_forced=skip_forced,
        autoreset_mode=autoreset_mode.value,
        blocks=blocks,
        observation_size=encoding.OBSERVATION_SIZE,
        max_passes=encoding.MAX_PASSES,
        action_moves=[engine_move(action) for action in encoding.ACTIONS],
    )


def action_numbers(
    actions: npt.NDArray[Any], skipped: npt.NDArray[np.bool_] | None
) -> npt.NDArray[np.int64]:
    """The games' actions as numbers of the action space (int64), but for the games in
    `skipped` (a step that only resets them ignores their actions): ValueError, as
    `Exact61-v0`'s step raises it (`action_number`), for the first game's that is none."""
    acting = np.ones(len(actions), np.bool_) if skipped is None else ~skipped
    if actions.dtype.kind in "iu":
        outside = acting & ((actions < 0) | (actions >= encoding.ACTION_COUNT))
        if outside.any():
            action_number(actions[np.flatnonzero(outside)[0]])  # raises, naming the number
        return np.ascontiguousarray(np.where(acting, actions, 0), np.int64)
    numbers = np.zeros(len(actions), np.int64)
    for i in np.flatnonzero(acting):
        numbers[i] = action_number(actions[i])
    return numbers
