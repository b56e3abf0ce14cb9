"""Post-game analysis of a recorded match: every decision of the seats asked for, the move played
against the best move and the match equity each gives, how much was given away, a summary per
seat, and where the match was decided.

`analyze_match(record)` returns a `MatchAnalysis` (frozen dataclasses, ready for any interface
to render) and `MatchAnalysis.to_json()` the same as JSON-ready data (format
`exact61-analysis/1`). A decision is a moment a seat chose among two or more distinct moves
(equivalent placements are one move; forced draws, passes and single moves are not decisions).
Moves are valued from what the seat could know then, by the expert's own search
(`ExpertBot.evaluate`), the one the hints come from, with four times its budget: exactly with 2
players once the boneyard is empty (when the solve fits), else over sampled deals, each value
with its standard error.

Decisions are classed by the equity they gave away: the best move's chance to win the match minus
the chance after the move played, in the seat's side's terms. Thresholds (match-winning chance):
an inaccuracy from 2 points, a mistake from 5, a blunder from 10 (in the spirit of backgammon's
doubtful, bad and very bad moves). A class is given only when the loss passes its threshold by
more than two standard errors; where that and the loss alone disagree, the decision is searched
again with twice the budget, twice at most, and the cautious class stands. A seat's accuracy is
the share of its decisions below the inaccuracy class.

Where the match was decided: the timeline of the winner's chance (the match equity table at
each round's start, each decision's value before and after the move played); the match was
decided at the last moment the winner went from not being the favourite to being it, and the
cause is the move made there or, between two decisions, the deal and the draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from exact61.bots.expert import DEFAULT_ITERATIONS, ExpertBot
from exact61.core import (
    Action,
    Layout,
    Match,
    MatchRecord,
    SeatView,
    match_to_record,
    parse_record,
)
from exact61.core.engine import class_of
from exact61.core.records import action_json, replay_steps
from exact61.core.settlement import side_count, side_of
from exact61.search.equity import EquityTable, default_table
from exact61.search.evaluate import Evaluation

INACCURACY, MISTAKE, BLUNDER = 0.02, 0.05, 0.10
FORMAT = "exact61-analysis/1"
ITERATIONS = 4 * DEFAULT_ITERATIONS  # the judge's search: four times the hints'
IN_GAME = 2 * DEFAULT_ITERATIONS  # after a game in the terminal, where a person waits for it
MARGIN = 2.0  # standard errors a loss must pass a class's threshold by
RESEARCHES = 2  # searches again, each with twice the budget, where a class is in doubt


def label_for(loss: float, error: float = 0.0) -> str:
    """The class of a decision by the equity it gave away: the highest whose threshold the loss
    passes by more than `MARGIN` standard errors (see the module)."""
    sure = loss - MARGIN * error
    if sure >= BLUNDER:
        return "blunder"
    if sure >= MISTAKE:
        return "mistake"
    if sure >= INACCURACY:
        return "inaccuracy"
    return "best" if loss <= 1e-9 else "good"


def judge(
    view: SeatView,
    *,
    iterations: int = ITERATIONS,
    seed: str = "",
    exact_node_limit: int = 2_000_000,
    table: EquityTable | None = None,
) -> Evaluation:
    """Every distinct move of the seat to act, valued by the expert's search with `iterations`
    (the same search as the hints', `ExpertBot.evaluate`), from its own seeded source."""
    bot = ExpertBot(
        random.Random(seed), iterations=iterations, solve_nodes=exact_node_limit, table=table
    )
    return bot.evaluate(view)


@dataclass(frozen=True)
class MoveValue:
    action: Action
    equity: float


@dataclass(frozen=True)
class Decision:
    """One decision of one seat, as it stood before the move (scores raw, R3)."""

    round: int
    action: int  # the action's index in the round, as in the record
    seat: int
    side: int
    scores: tuple[int, ...]
    boneyard: int
    played: Action
    best: Action
    played_equity: float
    best_equity: float
    loss: float
    loss_error: float
    label: str
    method: str  # "exact", "sampled" or "estimate"
    deals: int
    solved: float
    moves: tuple[MoveValue, ...]
    before: tuple[float, ...]  # every side's chance with the best move
    after: tuple[float, ...]  # every side's chance after the move played
    layout: Layout | None = None  # the layout before the move: its tiles named as drawn


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    side: int
    decisions: int
    best: int
    inaccuracies: int
    mistakes: int
    blunders: int
    equity_lost: float  # summed over its decisions
    accuracy: float  # share of decisions classed best or good


@dataclass(frozen=True)
class Turning:
    """Where the match was decided (see the module)."""

    round: int
    action: int | None  # the decision's action index; None: a round's start
    seat: int | None  # whose move it was (None: the deal and draws)
    # "move"; "chance": the deal and draws; "between": between two decisions analysed, where
    # the seats not analysed moved too (their moves are not valued: the deal, the draws, or them)
    cause: str
    before: float  # the winner's chance just before
    after: float  # and just after


@dataclass(frozen=True)
class MatchAnalysis:
    players: int
    match: int
    winner: int | None
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    summaries: tuple[SeatSummary, ...]
    decided: Turning | None
    settings: dict[str, Any] = field(default_factory=dict)
    moves: int = 0  # the analysed seats' moves, forced ones included: 0 before the first

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: actions as the record format writes them, chances as floats."""
        return {
            "format": FORMAT,
            "players": self.players,
            "match": self.match,
            "winner": self.winner,
            "seats": list(self.seats),
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "settings": self.settings,
            "decisions": [
                {
                    "round": d.round,
                    "action": d.action,
                    "seat": d.seat,
                    "side": d.side,
                    "scores": list(d.scores),
                    "boneyard": d.boneyard,
                    "played": action_json(d.played),
                    "best": action_json(d.best),
                    "played_equity": round(d.played_equity, 5),
                    "best_equity": round(d.best_equity, 5),
                    "loss": round(d.loss, 5),
                    "loss_error": round(d.loss_error, 5),
                    "label": d.label,
                    "method": d.method,
                    "deals": d.deals,
                    "solved": round(d.solved, 3),
                    "moves": [
                        {"action": action_json(m.action), "equity": round(m.equity, 5)}
                        for m in d.moves
                    ],
                    "before": [round(x, 5) for x in d.before],
                    "after": [round(x, 5) for x in d.after],
                }
                for d in self.decisions
            ],
            "summaries": [
                {
                    "seat": s.seat,
                    "side": s.side,
                    "decisions": s.decisions,
                    "best": s.best,
                    "inaccuracies": s.inaccuracies,
                    "mistakes": s.mistakes,
                    "blunders": s.blunders,
                    "equity_lost": round(s.equity_lost, 5),
                    "accuracy": round(s.accuracy, 4),
                }
                for s in self.summaries
            ],
            "decided": None
            if self.decided is None
            else {
                "round": self.decided.round,
                "action": self.decided.action,
                "seat": self.decided.seat,
                "cause": self.decided.cause,
                "before": round(self.decided.before, 5),
                "after": round(self.decided.after, 5),
            },
        }


@dataclass(frozen=True)
class _Moment:
    """A decision to value, as the record's reader met it."""

    round: int
    action: int
    seat: int
    view: SeatView
    played: Action
    scores: tuple[int, ...]
    boneyard: int


def _to_move(match: Match, seats: Sequence[int] | None) -> bool:
    """Whether a seat analysed (of `seats`, or any) is to act."""
    seat = match.to_act
    return seat is not None and (seats is None or seat in seats)


def _is_decision(match: Match, seats: Sequence[int] | None) -> bool:
    return _to_move(match, seats) and len({class_of(a) for a in match.legal_actions()}) > 1


def decision_points(match: Match, seats: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """(round, action) of every decision in a match (of `seats`, or of every seat)."""
    out = []
    for step in replay_steps(match_to_record(match)):
        if step.next is not None and _is_decision(step.match, seats):
            out.append((step.round, step.action + 1))
    return out


def analyze_match(
    record: MatchRecord | str | bytes | dict[str, Any],
    *,
    match_index: int = 0,
    seats: Sequence[int] | None = None,
    iterations: int = ITERATIONS,
    exact_node_limit: int = 2_000_000,
    seed: int = 0,
    table: EquityTable | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MatchAnalysis:
    """Analyse one recorded match (raises `RecordError` for a record that does not replay).

    `seats` limits the decisions analysed; `iterations` is the judge's search a decision (see
    `judge`), from a source of its own for each decision and `seed`;
    `progress(done, total)` is called after each decision.
    """
    table = table or default_table()
    parsed = record if isinstance(record, MatchRecord) else parse_record(record)
    players = parsed.players
    for s in seats or ():
        if not 0 <= s < players:
            raise ValueError(f"R2: no seat {s} among {players} players")
    # One read of the record: each round's start and each decision, as it stood then.
    moments: list[tuple[int, tuple[float, ...]] | _Moment] = []
    match = Match(players)
    moves = 0
    for step in replay_steps(parsed):
        match = step.match
        if step.next is not None and _to_move(match, seats):
            moves += 1
        if step.action < 0:  # a round's start: the table, with its opener (R8)
            opener = match.rounds[-1].opener
            moments.append((step.round, table.win_probabilities(players, match.scores, opener)))
        if step.next is not None and _is_decision(match, seats):
            seat = match.to_act
            assert seat is not None
            moments.append(
                _Moment(
                    step.round,
                    step.action + 1,
                    seat,
                    match.view(seat),
                    step.next,
                    match.scores,
                    match.boneyard_size,
                )
            )
    total = sum(isinstance(m, _Moment) for m in moments)
    decisions: list[Decision] = []
    timeline: list[tuple[tuple[float, ...], int, int | None, int | None, str]] = []
    for moment in moments:
        if not isinstance(moment, _Moment):
            r, start = moment
            timeline.append((start, r, None, None, "chance"))
            continue
        view = moment.view
        source = f"{seed}:{moment.round}:{moment.action}"
        for again in range(RESEARCHES + 1):  # a label in doubt: search again, twice as long
            evaluation = judge(
                view,
                iterations=iterations * 2**again,
                seed=f"{source}:{again}" if again else source,
                exact_node_limit=exact_node_limit,
                table=table,
            )
            played = evaluation.of(moment.played)
            if label_for(played.loss) == label_for(played.loss, played.loss_error):
                break
        best = evaluation.best
        decision = Decision(
            round=moment.round,
            action=moment.action,
            seat=moment.seat,
            side=view.side,
            scores=moment.scores,
            boneyard=moment.boneyard,
            played=moment.played,
            best=best.action,
            played_equity=played.equity,
            best_equity=best.equity,
            loss=played.loss,
            loss_error=played.loss_error,
            label=label_for(played.loss, played.loss_error),
            method=evaluation.method,
            deals=evaluation.deals,
            solved=evaluation.solved,
            moves=tuple(MoveValue(m.action, m.equity) for m in evaluation.moves),
            before=best.values,
            after=played.values,
            layout=view.layout,
        )
        decisions.append(decision)
        timeline.append((decision.before, moment.round, moment.action, None, "chance"))
        timeline.append((decision.after, moment.round, moment.action, moment.seat, "move"))
        if progress:
            progress(len(decisions), total)
    summaries = []
    for seat in sorted(seats if seats is not None else range(players)):
        mine = [d for d in decisions if d.seat == seat]
        summaries.append(
            SeatSummary(
                seat=seat,
                side=side_of(players, seat),
                decisions=len(mine),
                best=sum(d.label == "best" for d in mine),
                inaccuracies=sum(d.label == "inaccuracy" for d in mine),
                mistakes=sum(d.label == "mistake" for d in mine),
                blunders=sum(d.label == "blunder" for d in mine),
                equity_lost=sum(d.loss for d in mine),
                accuracy=sum(d.label in ("best", "good") for d in mine) / len(mine)
                if mine
                else 1.0,
            )
        )
    return MatchAnalysis(
        players=players,
        match=match_index,
        winner=match.winner,
        seats=tuple(sorted(seats if seats is not None else range(players))),
        decisions=tuple(decisions),
        summaries=tuple(summaries),
        decided=where_decided(
            timeline,
            match.winner,
            side_count(players),
            every_seat=seats is None or set(seats) == set(range(players)),
        ),
        settings={"iterations": iterations, "seed": seed},
        moves=moves,
    )


def where_decided(
    timeline: list[tuple[tuple[float, ...], int, int | None, int | None, str]],
    winner: int | None,
    sides: int,
    every_seat: bool = True,
) -> Turning | None:
    """The last point where the winner became the favourite (see the module). Unless
    `every_seat` was analysed, a change between two decisions is put down to the deal, the
    draws or the moves of the seats not analysed (`between`), not to the deal and draws alone."""
    if winner is None or not timeline:
        return None

    def favourite(values: tuple[float, ...]) -> bool:
        return values[winner] >= max(values[s] for s in range(sides) if s != winner)

    previous: tuple[float, ...] | None = None
    found: Turning | None = None
    for values, r, a, seat, cause in timeline:
        if previous is not None and favourite(values) and not favourite(previous):
            if cause == "chance" and not every_seat:  # a round's start too: the last moves
                cause = "between"  # of the round before may be the other seats' as well
            found = Turning(r, a, seat, cause, previous[winner], values[winner])
        elif previous is None and favourite(values):
            found = Turning(r, None, None, "chance", values[winner], values[winner])
        previous = values
    return found
