"""A table: one game of Exact 61 Five Up as everything that plays one plays it.

Who sits where (people, or bots by name), the secret seed every deal comes from, the game loop
(`waiting_for`, `step`, `play_out`: dealing each round, the actions R10 leaves no choice about,
the bots' moves, timed), applying a person's action, the hint, and saving through a `Store`.
The terminal game, `--plain`, the server (`exact61 serve`), `simulate` and `tournament` all play
through a `Table`; they differ only in how they show it and where they keep it (a file, a
database, a record line).

Everything a table does follows from its seed and the actions taken: the deals come from the
seed (round k takes the same share of it whatever happened before, `round_chance`), and a bot
deciding is built afresh for that decision from a source named by the seed, the seat and the
moment. So a game rebuilt from its seed and actions (resumed, taken back, recovered after a
crash) goes on exactly as it would have. A table that is never rebuilt (`simulate`,
`tournament`) may instead keep one bot a seat for the whole match (`bots_per="seat"`).

A game is a whole match, to exactly 61 (R30), unless the table is given a number of `rounds`:
then it is over once that many rounds are settled, if no side has won before (the tour's guided
match, `exact61.learn.guided`). Either way the table alone says when a game is over
(`is_over`, `waiting_for`), and it deals no round after that.
"""

from __future__ import annotations

import random
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from exact61 import __version__
from exact61.bots import STRONGEST, BlindBot, Bot, check_bot_spec, make_bot
from exact61.core import (
    Action,
    Event,
    IllegalMoveError,
    Match,
    Phase,
    Play,
    RecordError,
    RoundEnd,
    RuleError,
    SeatView,
    Tile,
    match_to_record,
    replay,
    round_chance,
)
from exact61.core.records import record_text

HUMAN = "human"
# The record's extra fields a table writes and reads back (match-record.md allows extras).
SEATS_FIELD, LANG_FIELD, NAMES_FIELD = "seats", "lang", "names"
MAX_NAME = 24  # characters in a person's display name
# What a name may not hold: control and format characters, unassigned and private code points,
# surrogates, and line or paragraph separators (a name is one line of plain text).
_NOT_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
LEGACY_OPPONENT = "ismcts"  # who played the bots' seats of a save with no seats field


def check_name(text: str, most: int = MAX_NAME) -> str:
    """A person's display name, as it is kept: NFC, without surrounding spaces, 1 to `most`
    (24) characters of any script, one line of plain text. ValueError says what is wrong. (A
    game's name in the lobby is kept by the same rules, 60 characters at most.)"""
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise ValueError("a name has at least one character")
    if len(name) > most:
        raise ValueError(f"a name has at most {most} characters, not {len(name)}")
    for char in name:
        if unicodedata.category(char) in _NOT_IN_NAMES:
            raise ValueError(f"a name cannot hold the character U+{ord(char):04X}")
    return name


def check_seat(spec: str) -> str:
    """`human`, or a bot as `exact61 play --seats` takes it; returns the canonical spelling."""
    if spec.strip().lower() == HUMAN:
        return HUMAN
    return check_bot_spec(spec, also=(HUMAN,))


class TurnError(IllegalMoveError):
    """An action sent for a seat that is not the one to act (R2: play passes clockwise)."""


@dataclass(frozen=True)
class Update:
    """One action as it happened at the table: what the log and the clients are told.

    `seq` counts the table's actions so far, this one included (the online protocol's `seq`).
    `drawn` is the tile a draw took (hidden from the other seats). `round_end` is set when the
    action ended the round (its settlement, hands revealed unless it ended on `target`).
    """

    seq: int
    round_index: int
    seat: int
    action: Action
    drawn: Tile | None
    events: tuple[Event, ...]
    round_end: RoundEnd | None

    @property
    def round_ended(self) -> bool:
        return self.round_end is not None


@dataclass(frozen=True)
class BotRequest:
    """Everything a bot needs to choose, and nothing of the table: send it to a worker
    process and run `decide` there (the server does, so search never blocks its event loop).
    The choice is one of `view.legal_actions`."""

    spec: str
    source: str  # names the bot's random source: seed, seat and moment
    view: SeatView

    @property
    def legal(self) -> tuple[Action, ...]:
        return self.view.legal_actions


def decide(request: BotRequest) -> Action:
    """The bot's choice for a request: the same request always gives the same choice."""
    legal = request.view.legal_actions
    if len(legal) == 1:
        return legal[0]
    return make_bot(request.spec, random.Random(request.source)).choose(request.view)


@dataclass(frozen=True)
class Checkpoint:
    """A table's state at one moment (see `Table.checkpoint`): how many actions it had taken."""

    seq: int


class Store(Protocol):
    """Where a table is kept. `saved` is called after each change (a deal or an action) and
    must have written it when it returns: nothing is shown to anyone before that."""

    def saved(self, table: Table, update: Update | None) -> None: ...


class Waiting(StrEnum):
    """What a table waits for (`Table.waiting_for`)."""

    DEAL = "deal"  # the chance step: the next round's deal (R5, R6, R8)
    FORCED = "forced"  # an action R10 leaves no choice about: a draw or a pass
    BOT = "bot"  # a bot's choice
    PERSON = "person"  # a person's choice
    OVER = "over"  # nothing: the match is won (R30), or the table's rounds are settled


@dataclass
class SeatTime:
    """How often a seat's bot was asked to choose, and how long it thought in all."""

    decisions: int = 0
    seconds: float = 0.0


class Table:
    """One game: the match, the seats and the seed; the game loop, acting and saving as the
    rules allow."""

    def __init__(
        self,
        players: int,
        seats: Sequence[str],
        seed: int,
        *,
        lang: str = "en",
        store: Store | None = None,
        bots_per: str = "moment",
        timed: bool = False,
        extra: dict[str, Any] | None = None,
        resume: Match | None = None,
        names: Sequence[str | None] | None = None,
        rounds: int | None = None,
    ) -> None:
        """A new game, or with `resume` one played on from that match (a replay of this game's
        own record: its rounds took their deals from this seed).

        `bots_per` says where a bot's random source comes from: "moment" (a bot built afresh
        for each decision, from the seed, the seat and the moment, so a rebuilt game goes on as
        it would have) or "seat" (one bot a seat for the whole match, for runs never rebuilt).
        With `timed`, each seat's bot's thinking is timed (`times`). `extra` replaces the
        record's own fields (the seats, language and program). `names`: each seat's person's
        display name, or None (a bot's seat has none). `rounds`: the number of rounds after
        which the game is over (unless a side wins first), or None for a whole match to 61
        (R30)."""
        if len(seats) != players:
            raise RuleError("R2", f"{players} players need {players} seats, not {len(seats)}")
        if bots_per not in ("moment", "seat"):
            raise ValueError(f"bots_per is 'moment' or 'seat', not {bots_per!r}")
        if rounds is not None and (type(rounds) is not int or rounds < 1):
            raise ValueError(f"rounds is a number of rounds from 1, or None, not {rounds!r}")
        self.players = players
        self.rounds = rounds  # the rounds the game lasts at most; None: a whole match (R30)
        self.seats = [check_seat(s) for s in seats]
        self.names: list[str | None] = [None] * players
        for seat, name in enumerate(names or ()):
            if name is not None:
                self.name_seat(seat, name)
        self.seed = seed
        self.lang = lang
        self.store = store
        self.bots_per = bots_per
        self.extra = extra
        self.timed = timed
        self.times = [SeatTime() for _ in range(players)]  # each seat's bot's thinking, if timed
        self.match = Match(players)
        self._chance = random.Random(seed)
        self._seq = 0
        self._bots: list[Bot | None] = [
            None if name == HUMAN else make_bot(name, random.Random(f"{seed}:seat:{seat}"))
            for seat, name in enumerate(self.seats)
        ] if bots_per == "seat" else []  # fmt: skip
        # A blind bot's `pick`, a seat's, found once: `isinstance` with a Protocol reads the
        # protocol's attributes on every call, which bot moves paid at every move (measured in
        # docs/research.md, Speed).
        self._picks: list[Callable[[Sequence[Action]], Action] | None] = [
            bot.pick if isinstance(bot, BlindBot) else None for bot in self._bots
        ]
        if resume is not None:
            if resume.players != players:
                raise RuleError("R2", f"the match is for {resume.players} players, not {players}")
            for _ in resume.rounds:  # the seed's draws already used by the match's rounds
                round_chance(self._chance, players)
            self.match = resume
            self._seq = sum(len(log.step_codes) for log in resume.rounds)

    # ---- who plays -----------------------------------------------------------------------

    def name_seat(self, seat: int, name: str) -> str:
        """Give a person's seat a display name (`check_name`'s); return it as kept."""
        if not 0 <= seat < self.players or self.seats[seat] != HUMAN:
            raise ValueError(f"seat {seat} is not a person's seat")
        kept = self.names[seat] = check_name(name)
        return kept

    @property
    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    @property
    def to_act(self) -> int | None:
        return self.match.to_act

    @property
    def seq(self) -> int:
        """Actions applied in the whole game so far (deals are not actions)."""
        return self._seq

    @property
    def bot_to_act(self) -> bool:
        seat = self.match.to_act
        return seat is not None and not self.is_human(seat)

    def view(self, seat: int) -> SeatView:
        return self.match.view(seat)

    # ---- the game loop -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Nothing more is played: the match is won (R30), or the last of the table's `rounds`
        is settled."""
        match = self.match
        if match.is_over:
            return True
        rounds = match.rounds
        return self.rounds is not None and len(rounds) >= self.rounds and rounds[-1].end is not None

    def waiting_for(self) -> Waiting:
        """What the game waits for now."""
        match = self.match
        if self.is_over:
            return Waiting.OVER
        seat = match.to_act
        if seat is None:
            return Waiting.DEAL
        if self.forced() is not None:
            return Waiting.FORCED
        return Waiting.PERSON if self.is_human(seat) else Waiting.BOT

    def step(self, decide: Callable[[BotRequest], Action] | None = None) -> Update | None:
        """Take the next step no person takes: the next round's deal (None), an action R10
        leaves no choice about, or a bot's move (chosen by `decide` from the request, here by
        default). Raises TurnError when a person is to act or the game is over (`is_over`)."""
        waiting = self.waiting_for()
        if waiting is Waiting.DEAL:
            self.deal()
            return None
        if waiting is Waiting.FORCED:
            forced = self.forced()
            assert forced is not None
            return self.apply(forced)
        if waiting is Waiting.BOT:
            return self.apply(self.bot_action(decide))
        who = "the match is over" if waiting is Waiting.OVER else "a person is to act"
        raise TurnError("R2", f"nothing to do without a person: {who}")

    def play_out(self) -> None:
        """Play the game to its end (`is_over`), every seat a bot, telling nobody of each
        action (a store is told once, at the end): `simulate` and `tournament` play this way."""
        if self.humans:
            raise TurnError("R2", "a person sits at this table: it cannot play out alone")
        match = self.match
        play_forced, legal_actions, apply, view = (
            self.play_forced,
            match.legal_actions,
            match.apply,
            match.view,
        )
        # One bot a seat, untimed: ask it straight (the loop simulate spends its time in), and
        # a blind bot without a view, which it would not read.
        bots = [bot for bot in self._bots if bot] if self._bots and not self.timed else []
        choose = [bot.choose for bot in bots]
        pick = self._picks if bots else []
        while not self.is_over:
            if match.to_act is None:
                self._deal()
            while True:  # a round
                play_forced()  # a draw, a pass or a lone placement asks no bot
                seat = match.to_act
                if seat is None:
                    break
                if not bots:
                    apply(self.bot_action())
                elif blind := pick[seat]:
                    apply(blind(legal_actions()))
                else:
                    apply(choose[seat](view(seat)))
                self._seq += 1
        if self.store is not None:
            self.store.saved(self, None)

    def play_forced(self) -> int:
        """Make every forced action (`Match.forced_action`: a draw, a pass, a lone placement)
        in a row, whoever's, until a seat has a choice or the round ends; return how many. No
        bot is asked and nobody is told of each (a store not at all): for the loops that tell
        nobody, `play_out` and the research games, which play the same moves as `step` would."""
        made = self.match.play_forced()
        self._seq += made
        return made

    def play_on(self, until: int) -> None:
        """Play the round in play on until seat `until` has a choice, or the round ends: every
        forced action (`play_forced`, `until`'s too) and the other seats' bots' moves, telling
        nobody of each (a store not at all). The research games play so between the agent's
        decisions."""
        match = self.match
        while True:
            self.play_forced()
            seat = match.to_act
            if seat is None or seat == until:
                return
            match.apply(self.bot_action())
            self._seq += 1

    def bot_action(self, decide: Callable[[BotRequest], Action] | None = None) -> Action:
        """The choice of the bot to act (by `decide` from its request, here by default), its
        thinking timed when the table times its bots."""
        match = self.match
        seat = match.to_act
        if seat is None or self.seats[seat] == HUMAN:
            raise TurnError("R2", "no bot is to act")
        started = time.perf_counter() if self.timed else 0.0
        bot = self._bots[seat] if self._bots else None
        pick = self._picks[seat] if self._picks else None
        if pick is not None:
            legal = match.legal_actions()
            action = legal[0] if len(legal) == 1 else pick(legal)
        elif bot is not None:
            legal = match.legal_actions()
            action = legal[0] if len(legal) == 1 else bot.choose(match.view(seat))
        else:
            action = (decide or _decide_here)(self.bot_request())
        if self.timed:
            self.thought(seat, time.perf_counter() - started)
        return action

    def thought(self, seat: int, seconds: float) -> None:
        """Count one decision of `seat`'s bot (or of a stand-in playing for its person) that
        took `seconds` (`times`): where every game loop counts its bots' thinking, whether
        they think here (`bot_action`) or in a worker (the server's rooms)."""
        spent = self.times[seat]
        spent.decisions += 1
        spent.seconds += seconds

    # ---- chance and actions --------------------------------------------------------------

    def deal(self) -> None:
        """The chance step: start the next round from the seed (R5, R6, R8). Raises RuleError
        once the game is over (`is_over`), as the rules do once the match is won (R30)."""
        self._deal()
        if self.store is not None:
            self.store.saved(self, None)

    def _deal(self) -> None:
        if self.is_over:  # before the seed is drawn from: no round is dealt past the end
            raise RuleError("R30", "the match is over")
        self.match.deal_next_round(self._chance)

    def apply(self, action: Action, *, seat: int | None = None) -> Update:
        """Take `action` for the seat to act (`seat`, when given, must be that seat).

        Raises TurnError or IllegalMoveError, naming the rule, and changes nothing then.
        """
        to_act = self.match.to_act
        if to_act is None:
            raise TurnError("R5", "no round is in play: nobody is to act")
        if seat is not None and seat != to_act:
            raise TurnError("R2", f"it is seat {to_act}'s turn, not seat {seat}'s")
        events = tuple(self.match.apply(action))
        self._seq += 1
        log = self.match.rounds[-1]
        step = log.steps[-1]
        update = Update(
            self._seq,
            len(self.match.rounds) - 1,
            to_act,
            step.action,
            step.drawn,
            events,
            log.end,
        )
        if self.store is not None:
            self.store.saved(self, update)
        return update

    def forced(self) -> Action | None:
        """The forced action (`Match.forced_action`) the table takes by itself: a draw or a
        pass (R10). A forced placement is a bot's to make, or a person's to see and place."""
        forced = self.match.forced_action()
        return None if isinstance(forced, Play) else forced

    def _source(self, kind: str, seat: int) -> str:
        return f"{self.seed}:{kind}:{seat}:{len(self.match.rounds)}:{self._seq}"

    def bot_request(self) -> BotRequest:
        """What the bot to act needs to choose (run `decide` on it, here or in a worker)."""
        seat = self.match.to_act
        assert seat is not None and not self.is_human(seat), "no bot is to act"
        return BotRequest(self.seats[seat], self._source("bot", seat), self.match.view(seat))

    def hint_request(self, seat: int) -> BotRequest:
        """What the strongest bot needs to suggest a move for `seat`, which must be to act
        (`learn.hints.explain` thinks it out, and says why)."""
        assert self.match.to_act == seat
        return BotRequest(STRONGEST, self._source("hint", seat), self.match.view(seat))

    def stand_in_request(self, spec: str) -> BotRequest:
        """What the bot `spec` needs to play for the person to act, whose time ran out (the
        server's turn clock)."""
        seat = self.match.to_act
        assert seat is not None and self.is_human(seat), "no person is to act"
        return BotRequest(spec, self._source("stand-in", seat), self.match.view(seat))

    def start_over(self) -> None:
        """A new match at this table, from nothing: its deals go on from the seed where the
        last match stopped, and a bot kept a seat (`bots_per="seat"`) goes on from its source
        as it stands. (A research episode over before the agent chose is dealt again so.)"""
        self.match = Match(self.players)
        self._seq = 0

    # ---- undoing what could not be kept --------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """The table as it is now, to `restore` if what follows cannot be kept (a server takes
        one before each action and restores it if the action's write fails). Costs nothing: the
        game is rebuilt from its seed only when restored."""
        return Checkpoint(self._seq)

    def restore(self, checkpoint: Checkpoint) -> None:
        """Back to `checkpoint`: the game rebuilt from its seed and the actions before it."""
        if checkpoint.seq == self._seq:
            return
        if checkpoint.seq > self._seq:
            raise ValueError(f"the table is at action {self._seq}, before {checkpoint.seq}")
        self._keep_first(checkpoint.seq)

    # ---- taking back ---------------------------------------------------------------------

    def can_take_back(self, seat: int) -> bool:
        """Against bots only (never with other people at the table), once `seat` has acted in
        the round being played: a settled round, whose hands were shown, is never reopened."""
        return self.humans == [seat] and self._last_action_of(seat) is not None

    def settled_since(self, seat: int) -> bool:
        """`seat`, alone against bots, has nothing to take back because its last move lies in
        a round settled since, its hands shown (R18, R20): what a refusal explains."""
        if self.humans != [seat] or self._last_action_of(seat) is not None:
            return False
        return any(
            step.seat == seat and isinstance(step.action, Play)
            for log in self.match.rounds
            if log.end is not None
            for step in log.steps
        )

    def take_back(self, seat: int) -> int:
        """Undo `seat`'s last action and everything after it; return how many actions went.

        The game is rebuilt from its seed and the actions kept, so the record stays valid and
        the bots answer as they would have (their choices follow from the moment).
        """
        if not self.can_take_back(seat):
            raise TurnError("R2", "only a lone person playing bots may take a move back")
        keep = self._last_action_of(seat)
        assert keep is not None
        undone = self._seq - keep
        self._keep_first(keep)
        if self.store is not None:
            self.store.saved(self, None)
        return undone

    def _keep_first(self, keep: int) -> None:
        """The game rebuilt from its seed and its first `keep` actions (what follows is gone)."""
        actions = [s.action for log in self.match.rounds for s in log.steps][:keep]
        self.match = Match(self.players)
        self._chance = random.Random(self.seed)
        self._seq = 0
        for action in actions:
            if self.match.phase is Phase.DEAL:
                self._deal()
            self.match.apply(action)
            self._seq += 1
        if self.match.phase is Phase.DEAL and not self.is_over:
            self._deal()

    def _last_action_of(self, seat: int) -> int | None:
        """The game-wide index of `seat`'s last chosen action (a play; draws and passes are
        forced, R10) in the round being played, or None (a settled round is left as it is)."""
        if not self.match.rounds or self.match.rounds[-1].end is not None:
            return None
        index = self._seq
        for step in reversed(self.match.rounds[-1].steps):
            index -= 1
            if step.seat == seat and isinstance(step.action, Play):
                return index
        return None

    # ---- records -------------------------------------------------------------------------

    def record_fields(self) -> dict[str, Any]:
        """The fields the table's record adds to the format's (match-record.md allows them)."""
        if self.extra is not None:
            return self.extra
        fields: dict[str, Any] = {SEATS_FIELD: self.seats, LANG_FIELD: self.lang}
        if any(self.names):
            fields[NAMES_FIELD] = self.names
        fields["program"] = f"exact61 {__version__}"
        return fields

    def record(self) -> dict[str, Any]:
        """The game as an `exact61-match/1` record (with every hand: not for players' eyes)."""
        return match_to_record(self.match, seed=self.seed, extra=self.record_fields())

    def record_text(self) -> str:
        """`record()` as one line of JSON."""
        return record_text(self.match, seed=self.seed, extra=self.record_fields())

    @classmethod
    def from_record(
        cls,
        record: dict[str, Any],
        *,
        store: Store | None = None,
        lang: str | None = None,
        rounds: int | None = None,
    ) -> Table:
        """Continue a saved game: replay its record through the rules, then pick the seed's
        deals up where they stopped; `rounds` as the table takes it (a record does not keep
        it). Raises RecordError if it does not replay or has no seed."""
        match = replay(record)
        seed = record.get("seed")
        if type(seed) is not int:
            raise RecordError("the record has no seed to continue its deals from")
        players = match.players
        # Saves from before the seats were recorded were played against ismcts, the expert then.
        seats = record.get(SEATS_FIELD) or [HUMAN] + [LEGACY_OPPONENT] * (players - 1)
        if not isinstance(seats, list) or len(seats) != players:
            raise RecordError(f"'{SEATS_FIELD}' must list {players} seats")
        names = record.get(NAMES_FIELD)
        if names is not None and (
            not isinstance(names, list)
            or len(names) != players
            or not all(n is None or isinstance(n, str) for n in names)
        ):
            raise RecordError(f"'{NAMES_FIELD}' must list {players} names or nulls")
        try:
            return cls(
                players,
                [str(s) for s in seats],
                seed,
                lang=lang or str(record.get(LANG_FIELD) or "en"),
                store=store,
                resume=match,
                names=names,
                rounds=rounds,
            )
        except ValueError as err:
            raise RecordError(f"'{SEATS_FIELD}' or '{NAMES_FIELD}': {err}") from None


def _decide_here(request: BotRequest) -> Action:
    return decide(request)
