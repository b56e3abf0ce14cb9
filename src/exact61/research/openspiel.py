"""Exact 61 Five Up as an OpenSpiel game. Importing this module registers `python_exact61`.

    import pyspiel
    import exact61.research.openspiel
    game = pyspiel.load_game("python_exact61", {"players": 4})

Parameters: `players` (2-4), `one_round` (False: a whole match, to exactly 61, R30; True: one
round from 0-0; `max_rounds` then does not apply) and `max_rounds` (default 100: a match still
without a winner after that many rounds stops as a draw, since OpenSpiel needs a bound on a
game's length; random play never needed more than 30 rounds in 60,000 matches).

Chance nodes have their real probabilities: the lot for the opener (R6, R8: uniform over the
seats, only when no domino maker must open), the deal one tile at a time (R5: uniform over the
tiles not yet dealt) and each draw (uniform over the tiles still in the boneyard, which is face
down, R10). Every action goes through `exact61.core.Match`: nothing here repeats a rule.

Returns come at the end: a whole match gives +1 to each seat of the side that reached exactly
61 (both partners at 4 players) and shares -1 among the other sides; one round gives each side
its gain less the mean gain, / 305 (`encoding.round_returns`). Both are zero-sum.

Information states hold the whole match as the seat saw it (perfect recall): the string round
by round, the tensor as the observation of this moment and then one row of small codes per
round (`encoding.encode_rounds`: the opener, the seat's dealt tiles, every action, the hands
revealed at settlement), `max_rounds` rows in all. Observations are built from
`match.view(seat)`, so neither holds a tile the seat may not see. Observers follow OpenSpiel's
`IIGObservationType`: public and private information (the default), public only
(`private_info=NONE`: what every seat sees, seats absolute, the same for every player) or
private only (`public_info=False`: the seat's hand, the drawn tile it must place, its actions'
credits), each with or without perfect recall (private only: without).
`resample_from_infostate` draws hidden hands with the project's sampler and completes them into
a history that replays (`history.sample_round`), which OpenSpiel's `ISMCTSBot` needs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import Any

import numpy as np
import pyspiel

from exact61 import __version__
from exact61.core import (
    ALL_TILES,
    DRAW,
    HAND_SIZE,
    PLAYER_COUNTS,
    Deal,
    Match,
    Phase,
    RoundLog,
    Tile,
    match_to_record,
)
from exact61.core.errors import RuleError
from exact61.research import encoding
from exact61.research.encoding import DEFAULT_MAX_ROUNDS
from exact61.research.history import sample_round

GAME_NAME = "python_exact61"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Exact 61 Five Up",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=max(PLAYER_COUNTS),
    min_num_players=min(PLAYER_COUNTS),
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "one_round": False, "max_rounds": DEFAULT_MAX_ROUNDS},
    provides_factored_observation_string=True,
)


class Stage(IntEnum):
    LOT = 0  # chance: the lot for the opener (R6, R8)
    DEAL = 1  # chance: the next tile dealt (R5)
    PLAY = 2  # a seat acts
    DRAW = 3  # chance: the tile a seat that chose to draw takes (R10)
    END = 4  # terminal


class Episode:
    """Everything an OpenSpiel state holds: the core match, the chance step under way, and the
    actions so far (a state is serialised as these actions and rebuilt by replaying them)."""

    __slots__ = (
        "actions",
        "dealt",
        "lot_drawn",
        "match",
        "max_rounds",
        "one_round",
        "opener",
        "players",
        "round_actions",
        "rows",
        "stage",
        "texts",
        "undrawn",
    )

    def __init__(self, players: int, one_round: bool, max_rounds: int) -> None:
        self.players = players
        self.one_round = one_round
        self.max_rounds = max_rounds
        self.match = Match(players)
        self.actions: list[int] = []
        self.round_actions = 0  # index in `actions` where the current round's chance began
        # Per finished round, each seat's text and row once asked for, the public ones last
        # (shared by copies: a finished round never changes).
        self.texts: list[list[str | None]] = []
        self.rows: list[list[np.ndarray | None]] = []
        self.dealt: list[int] = []
        self.undrawn: list[int] = []
        self.opener = -1
        self.lot_drawn = False
        self.stage = Stage.LOT
        self._next_round()

    # ---- copying and pickling ------------------------------------------------------------

    def copy(self) -> Episode:
        new = Episode.__new__(Episode)
        new.players = self.players
        new.one_round = self.one_round
        new.max_rounds = self.max_rounds
        new.match = self.match.copy()
        new.actions = self.actions.copy()
        new.round_actions = self.round_actions
        new.texts = self.texts.copy()
        new.rows = self.rows.copy()
        new.dealt = self.dealt.copy()
        new.undrawn = self.undrawn.copy()
        new.opener = self.opener
        new.lot_drawn = self.lot_drawn
        new.stage = self.stage
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        return self.copy()  # OpenSpiel clones a Python state by deep-copying its attributes

    def __reduce__(self) -> tuple[Any, ...]:
        # A state pickles as its action numbers, small and checked again when rebuilt.
        return (_rebuild, (self.players, self.one_round, self.max_rounds, tuple(self.actions)))

    # ---- the game ------------------------------------------------------------------------

    def _next_round(self) -> None:
        match = self.match
        self.dealt = []
        self.undrawn = []
        required = match.required_opener
        self.lot_drawn = required is None
        self.opener = -1 if required is None else required
        self.stage = Stage.LOT if required is None else Stage.DEAL

    def legal(self) -> list[int]:
        return encoding.legal_ids(self.match.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stage is Stage.LOT:
            return [(s, 1.0 / self.players) for s in range(self.players)]
        if self.stage is Stage.DEAL:
            taken = set(self.dealt)
            left = [t for t in range(len(ALL_TILES)) if t not in taken]
            return [(t, 1.0 / len(left)) for t in left]
        assert self.stage is Stage.DRAW
        return [(t, 1.0 / len(self.undrawn)) for t in self.undrawn]

    def apply(self, a: int) -> None:
        stage = self.stage
        match = self.match
        if stage is Stage.PLAY:
            if not 0 <= a < encoding.ACTION_COUNT:
                raise RuleError("R9", f"no action number {a} (0 to {encoding.ACTION_COUNT - 1})")
            action = encoding.ACTIONS[a]
            if action is DRAW:
                if DRAW not in match.legal_actions():
                    match.apply(DRAW)  # raises, naming the rule (R10)
                self.stage = Stage.DRAW  # the tile drawn is chance's to choose
            else:
                match.apply(action)
                if match.phase is not Phase.PLAY:
                    self._round_over()
        elif stage is Stage.DRAW:
            if a not in self.undrawn:
                raise RuleError("R10", f"tile number {a} is not in the boneyard")
            self.undrawn.remove(a)
            match.arrange_next_draw(ALL_TILES[a])
            match.apply(DRAW)
            self.stage = Stage.PLAY
        elif stage is Stage.LOT:
            if not 0 <= a < self.players:
                raise RuleError("R6", f"the lot names one of {self.players} seats, not {a}")
            self.opener = a
            self.stage = Stage.DEAL
        elif stage is Stage.DEAL:
            if not 0 <= a < len(ALL_TILES) or a in self.dealt:
                raise RuleError("R5", f"tile number {a} is not left to deal")
            self.dealt.append(a)
            if len(self.dealt) == HAND_SIZE * self.players:
                self._start_round()
        else:
            raise self._over()
        self.actions.append(a)
        if stage is Stage.PLAY and self.stage in (Stage.LOT, Stage.DEAL):
            self.round_actions = len(self.actions)  # the next round's chance starts here

    def _over(self) -> RuleError:
        """The error for an action after the end, naming how the game ended: R30 only when a
        side reached 61; after a one-round game or at `max_rounds`, no round is in play (R5)."""
        if self.match.is_over:
            return RuleError("R30", "the game is over: the match is over")
        if self.one_round:
            return RuleError("R5", "the game is over: its one round has been played (one_round)")
        rounds = len(self.match.rounds)
        return RuleError(
            "R5",
            f"the game is over: {rounds} round{'s' if rounds != 1 else ''} played without a "
            "winner (max_rounds)",
        )

    def _start_round(self) -> None:
        dealt = self.dealt
        taken = set(dealt)
        rest = [t for t in range(len(ALL_TILES)) if t not in taken]
        hands = [
            tuple(ALL_TILES[t] for t in dealt[i : i + HAND_SIZE])
            for i in range(0, len(dealt), HAND_SIZE)
        ]
        # The boneyard's order is chance's choice at each draw (arrange_next_draw).
        self.match.start_round(Deal(hands, [ALL_TILES[t] for t in rest]), self.opener)
        self.undrawn = rest
        self.stage = Stage.PLAY

    def _round_over(self) -> None:
        match = self.match
        if match.is_over or self.one_round or len(match.rounds) >= self.max_rounds:
            self.stage = Stage.END
        else:
            self._next_round()

    def returns(self) -> list[float]:
        if self.stage is not Stage.END:
            return [0.0] * self.players
        if self.one_round:
            zero = [0] * len(self.match.scores)
            return encoding.round_returns(self.players, zero, self.match.scores)
        return encoding.match_returns(self.match)

    # ---- what a seat knows ---------------------------------------------------------------

    def _finished_rounds(self) -> int:
        """How many rounds are over (the one in play is not)."""
        rounds = len(self.match.rounds)
        return rounds - 1 if self.stage in (Stage.PLAY, Stage.DRAW) else rounds

    def information_text(self, seat: int | None) -> str:
        """Everything `seat` has seen, round by round (perfect recall); `seat` None: what every
        seat has seen."""
        rounds = self.match.rounds
        done = self._finished_rounds()
        while len(self.texts) < done:
            self.texts.append([None] * (self.players + 1))
        parts = ["public" if seat is None else f"p{seat}"]
        slot = self.players if seat is None else seat
        for r in range(done):
            row = self.texts[r]
            text = row[slot]
            if text is None:
                text = row[slot] = _round_text(rounds[r], r, seat)
            parts.append(text)
        if done < len(rounds):
            parts.append(_round_text(rounds[-1], len(rounds) - 1, seat))
            if self.stage is Stage.DRAW:
                parts.append(f"s{self.match.to_act} chose to draw")
        elif self.stage is not Stage.END:
            opener = "by lot" if self.opener < 0 else str(self.opener)
            parts.append(f"r{len(rounds)} opener {opener} dealing")
            dealt = [] if seat is None else sorted(self._dealt_to(seat))
            parts[-1] += "".join(f" {tile}" for tile in dealt)
        return " || ".join(parts)

    def _dealt_to(self, seat: int) -> list[Tile]:
        """The tiles dealt to `seat` so far in the deal under way."""
        return [ALL_TILES[t] for t in self.dealt[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]]

    def encode_rounds(self, seat: int | None, out: np.ndarray) -> None:
        """Every round so far as `seat` saw it (`encoding.encode_rounds`), the deal under way
        included, into `out` (max_rounds x round width)."""
        out.fill(0.0)
        rounds = self.match.rounds
        done = self._finished_rounds()
        while len(self.rows) < done:
            self.rows.append([None] * (self.players + 1))
        slot = self.players if seat is None else seat
        for r in range(done):
            row = self.rows[r][slot]
            if row is None:
                row = np.zeros(out.shape[1], np.float32)
                encoding.encode_round(row, rounds[r], self.players, seat)
                self.rows[r][slot] = row
            out[r] = row
        if done < len(rounds):
            encoding.encode_round(out[done], rounds[-1], self.players, seat)
        elif self.stage is not Stage.END:
            opener = None if self.opener < 0 else self.opener
            dealt = [] if seat is None else self._dealt_to(seat)
            encoding.encode_round_start(out[done], self.players, seat, opener, dealt)

    def observation_text(self, seat: int, kind: str = "seat") -> str:
        """What `seat` sees now: all of it (`seat`), what everyone sees (`public`) or what only
        it sees (`private`)."""
        view = self.match.view(seat)
        if kind == "private":
            return encoding.private_observation_text(view)
        if kind == "public":
            text = encoding.public_observation_text(view)
        else:
            text = encoding.observation_text(view)
        if self.stage is Stage.DRAW:
            text += " | drawing"
        elif self.stage in (Stage.LOT, Stage.DEAL):
            text += " | dealing"
        return text

    def __str__(self) -> str:
        match = self.match
        lines = [
            f"stage {self.stage.name.lower()}, round {len(match.rounds)}, "
            f"scores {' '.join(map(str, match.scores))}"
        ]
        if self.stage in (Stage.LOT, Stage.DEAL):
            lines.append(f"opener {self.opener}, dealt {self.dealt}")
        else:
            layout = match.layout
            placed = [f"{t} at {at}" if at else f"{t} opens" for t, at in layout.placements()]
            lines.append("layout " + (", ".join(placed) or "empty"))
            if match.phase is Phase.PLAY:
                for s in range(self.players):
                    lines.append(f"seat {s}: {' '.join(map(str, match.hand(s)))}")
                lines.append("boneyard " + " ".join(str(ALL_TILES[t]) for t in self.undrawn))
                lines.append(f"to act {match.to_act}, must place {match.pending_draw}")
        return "\n".join(lines)


def _rebuild(players: int, one_round: bool, max_rounds: int, actions: Sequence[int]) -> Episode:
    episode = Episode(players, one_round, max_rounds)
    for a in actions:
        episode.apply(a)
    return episode


def _round_text(log: RoundLog, index: int, seat: int | None) -> str:
    """One round as `seat` saw it: the opener, its own dealt hand, every step (another seat's
    draw without its tile, R5), the scoring events and, once settled, the revealed hands.
    `seat` None: as every seat saw it (no hand, no drawn tile)."""
    assert log.deal is not None
    parts = [f"r{index} opener {log.opener}"]
    if seat is not None:
        parts[0] += " dealt " + " ".join(map(str, sorted(log.deal.hands[seat])))
    for step in log.steps:
        action = step.action
        if action is DRAW:
            parts.append(f"s{step.seat} draws" + (f" {step.drawn}" if step.seat == seat else ""))
        else:
            parts.append(f"s{step.seat} {action}")
    if log.events:
        parts.append(
            "events "
            + ", ".join(
                f"s{e.seat} {e.kind} {e.raw}{'' if e.accepted else ' rejected'}" for e in log.events
            )
        )
    end = log.end
    if end is not None:
        text = f"end {end.kind}"
        if end.hands is not None:
            text += " hands " + "; ".join(" ".join(map(str, h)) or "-" for h in end.hands)
        parts.append(text)
    return " | ".join(parts)


# ---- OpenSpiel classes -----------------------------------------------------------------------


C_INT_MAX = 2**31 - 1  # OpenSpiel's int: a game's length, a tensor's size


def most_rounds(players: int) -> int:
    """The most rounds a game of `players` may last for OpenSpiel: its actions
    (`max_game_length`) and its information state's numbers, a row a round after the
    observation and `drawing`, each within a C int."""
    row = max(encoding.max_round_steps(players), encoding.round_width(players))
    return (C_INT_MAX - encoding.OBSERVATION_SIZE - 1) // row


class Exact61Game(pyspiel.Game):  # type: ignore[misc]
    """`python_exact61`: a whole match (or one round) for 2, 3 or 4 players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        encoding.warn_of_refused_engine()
        given = dict(params or {})
        unknown = sorted(set(given) - set(_GAME_TYPE.parameter_specification))
        if unknown:  # as load_game refuses it: a typo would have been a default game
            known = ", ".join(sorted(_GAME_TYPE.parameter_specification))
            raise ValueError(f"{GAME_NAME} has no parameter {unknown[0]!r}: it has {known}")
        players = encoding.check_players(given.get("players", 2))
        one_round = encoding.check_flag("one_round", given.get("one_round", False))
        max_rounds = encoding.check_max_rounds(given.get("max_rounds", DEFAULT_MAX_ROUNDS))
        if not one_round and max_rounds > (most := most_rounds(players)):
            raise ValueError(
                f"max_rounds must be at most {most:,} at {players} players, not {max_rounds!r}: "
                "OpenSpiel counts a game's actions and an information state's numbers in a C int"
            )
        self.players = players
        self.one_round = one_round
        self.max_rounds = 1 if one_round else max_rounds
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.ACTION_COUNT,
            max_chance_outcomes=len(ALL_TILES),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_rounds * encoding.max_round_steps(players),
        )
        spec = {"players": players, "one_round": one_round, "max_rounds": max_rounds}
        super().__init__(_GAME_TYPE, info, spec)

    def new_initial_state(self) -> Exact61State:
        return Exact61State(self)

    def max_chance_nodes_in_history(self) -> int:
        # Per round: the lot, the deal, and at most every boneyard tile drawn.
        return self.max_rounds * (1 + len(ALL_TILES))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Exact61Observer:
        if iig_obs_type is not None and not isinstance(iig_obs_type, pyspiel.IIGObservationType):
            iig_obs_type, params = None, iig_obs_type  # OpenSpiel passes params alone then
        if params:
            raise ValueError(f"python_exact61 observers take no parameters, not {params}")
        if iig_obs_type is None:
            return Exact61Observer(self.players, self.max_rounds, False, True, True)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_exact61 shows no seat every hand: private_info is one seat's")
        single = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        public = bool(iig_obs_type.public_info)
        perfect_recall = bool(iig_obs_type.perfect_recall)
        if not public and (perfect_recall or not single):
            raise ValueError(
                "python_exact61 observes without public information only one seat's private "
                "information now, without perfect recall"
            )
        return Exact61Observer(self.players, self.max_rounds, perfect_recall, public, single)


class Exact61State(pyspiel.State):  # type: ignore[misc]
    """A state of `python_exact61`: one `Episode` (OpenSpiel copies and pickles it)."""

    def __init__(self, game: Exact61Game) -> None:
        super().__init__(game)
        self.episode = Episode(game.players, game.one_round, game.max_rounds)

    def current_player(self) -> int:
        stage = self.episode.stage
        if stage is Stage.END:
            return int(pyspiel.PlayerId.TERMINAL)
        if stage is Stage.PLAY:
            seat = self.episode.match.to_act
            assert seat is not None
            return seat
        return int(pyspiel.PlayerId.CHANCE)

    def _legal_actions(self, player: int) -> list[int]:
        assert player == self.episode.match.to_act
        return self.episode.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.episode.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.episode.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        episode = self.episode
        if player == pyspiel.PlayerId.CHANCE:
            # a seat for the lot, else a tile: ALL_TILES[-1] would name the last tile
            count = episode.players if episode.stage is Stage.LOT else len(ALL_TILES)
            if not 0 <= action < count:
                raise ValueError(f"no chance outcome {action}: they are 0 to {count - 1}")
            if episode.stage is Stage.LOT:
                return f"lot: seat {action} opens"
            if episode.stage is Stage.DEAL:
                seat = len(episode.dealt) // HAND_SIZE
                return f"deal {ALL_TILES[action]} to seat {seat}"
            return f"seat {episode.match.to_act} draws {ALL_TILES[action]}"
        return str(encoding.ACTIONS[encoding.action_number(action)])  # -1 is not "pass"

    def is_terminal(self) -> bool:
        return self.episode.stage is Stage.END

    def returns(self) -> list[float]:
        return self.episode.returns()

    def __str__(self) -> str:
        return str(self.episode)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> Exact61State:
        """A state `player_id` cannot tell from this one, its history replayable: the hidden
        hands and draws of the round in play are sampled (`history.sample_round`); earlier
        rounds are kept as they were (they no longer matter to play). Decision nodes only."""
        episode = self.episode
        if episode.stage is not Stage.PLAY:
            raise ValueError("python_exact61 resamples at decision nodes only")
        rng = random.Random(int(probability_sampler() * 2.0**53))
        sampled = sample_round(episode.match, player_id, rng)
        log = episode.match.rounds[-1]
        actions = episode.actions[: episode.round_actions]
        if episode.lot_drawn:
            actions.append(log.opener)
        actions += [t.ordinal for hand in sampled.hands for t in hand]
        draws = iter(sampled.draws)
        for step in log.steps:
            actions.append(encoding.action_id(step.action))
            if step.action is DRAW:
                actions.append(next(draws).ordinal)
        state = self.get_game().new_initial_state()
        for a in actions:
            state.apply_action(a)
        result: Exact61State = state
        return result


class Exact61Observer:
    """OpenSpiel's Python observer: `tensor` and its named pieces, and a string.

    The pieces: the observation's blocks (`encoding.OBSERVATION_BLOCKS`; public only, seats
    absolute, or private only), then with perfect recall `drawing` (the seat to act chose to
    draw, chance is to give the tile) and `rounds`, one row per round
    (`encoding.encode_rounds`, `max_rounds` rows)."""

    def __init__(
        self, players: int, max_rounds: int, perfect_recall: bool, public: bool, private: bool
    ) -> None:
        self.perfect_recall = perfect_recall
        self.public = public
        self.private = private
        self.players = players
        if public and private:
            names = [name for name, _ in encoding.OBSERVATION_BLOCKS]
        else:
            names = list(encoding.PUBLIC_BLOCKS if public else encoding.PRIVATE_BLOCKS)
        sizes = dict(encoding.OBSERVATION_BLOCKS)
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            (name, sizes[name], (sizes[name],)) for name in names
        ]
        moment = sum(size for _, size, _ in pieces)
        if perfect_recall:
            width = encoding.round_width(players)
            pieces += [("drawing", 1, (1,)), ("rounds", max_rounds * width, (max_rounds, width))]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size
        self._moment = self.tensor[:moment]

    def set_from(self, state: Exact61State, player: int) -> None:
        episode = state.episode
        view = episode.match.view(player)
        if self.public and self.private:
            encoding.observe(view, out=self._moment)
        elif self.public:
            encoding.observe_public(view, out=self._moment)
        else:
            encoding.observe_private(view, out=self._moment)
        if self.perfect_recall:
            self.dict["drawing"][0] = float(episode.stage is Stage.DRAW)
            episode.encode_rounds(player if self.private else None, self.dict["rounds"])

    def string_from(self, state: Exact61State, player: int) -> str:
        episode = state.episode
        if self.perfect_recall:
            return episode.information_text(player if self.private else None)
        if not self.public:
            return episode.observation_text(player, "private")
        return episode.observation_text(player, "seat" if self.private else "public")


pyspiel.register_game(_GAME_TYPE, Exact61Game)


# ---- records -----------------------------------------------------------------------------


def core_match(state: Exact61State) -> Match:
    """A copy of the core match behind `state`."""
    return state.episode.match.copy()


def to_record(
    state: Exact61State, *, seed: int | None = None, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The match played so far as an `exact61-match/1` record (`exact61 replay` verifies it)."""
    fields = {"program": f"exact61 {__version__} via OpenSpiel {GAME_NAME}"}
    fields.update(extra or {})
    return match_to_record(state.episode.match, seed=encoding.check_seed(seed), extra=fields)
