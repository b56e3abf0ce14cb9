"""Match records in the `exact61-match/1` format (docs/formats/match-record.md).

`record_text` writes a match as one line of the format's JSON (`match_to_record`, the same as an
object); `parse_record` reads one (text or decoded JSON) and checks its structure;
`replay_steps`, the one reader, re-executes every action through the rules, recomputes every
event and stops at the first disagreement with a `ReplayError` that names the round and action
(`replay` reads a record to its end). No file I/O here: callers read and write the text.

A match still in progress is written with `"winner": null` and its last round's `"end": null`;
`replay` accepts that as an unfinished match (`Match.is_over` is then False).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Annotated, Any, Literal, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from exact61.core.actions import DRAW, PASS, Action, Draw, Play
from exact61.core.deal import HAND_SIZE, Deal
from exact61.core.errors import RecordError, RecordFormatError, ReplayError, RuleError
from exact61.core.log import STEPS, RoundLog, Step
from exact61.core.match import Match, Phase
from exact61.core.points import AttachPoint
from exact61.core.settlement import BlockEvent, DominoEvent, Event, PlayEvent
from exact61.core.tiles import ALL_TILES, Tile, tile_from

FORMAT = "exact61-match/1"

_TileJSON = Annotated[list[StrictInt], Field(min_length=2, max_length=2)]


class _Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)


class ActionRecord(_Model):
    seat: StrictInt
    type: Literal["play", "draw", "pass"]
    tile: _TileJSON | None = None
    at: Annotated[list[Any], Field(min_length=2, max_length=2)] | None = None


class EventRecord(_Model):
    kind: Literal["play", "domino", "block"]
    seat: StrictInt
    side: StrictInt
    raw: StrictInt
    accepted: StrictBool
    play_raw: StrictInt | None = None
    opponents_raw: StrictInt | None = None
    partner_raw: StrictInt | None = None


class EndRecord(_Model):
    kind: Literal["domino", "block", "target"]


class RoundRecord(_Model):
    opener: StrictInt
    hands: list[list[_TileJSON]]
    boneyard: list[_TileJSON]
    actions: list[ActionRecord]
    events: list[EventRecord]
    end: EndRecord | None


class MatchRecord(_Model):
    """A match record's required fields, structurally checked; extra fields are kept."""

    format: Literal["exact61-match/1"]
    players: Literal[2, 3, 4]
    seed: StrictInt | None = None
    rounds: list[RoundRecord]
    scores: list[StrictInt]
    winner: StrictInt | None


# ---- writing -----------------------------------------------------------------------------
# One writer, `record_text`: a round's actions are read from its codes (`RoundLog.codes`), each
# code's text made once and kept, so writing a record is mostly joining strings.


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


_TILE_TEXT = tuple(_compact([t.low, t.high]) for t in ALL_TILES)
_REQUIRED = ("kind", "seat", "side", "raw", "accepted")
_DOMINO_PARTS = ("play_raw", "opponents_raw", "partner_raw")


def _required_fields(event: Event | EventRecord) -> dict[str, Any]:
    """The fields the format requires of an event (a domino's parts too), from either an
    engine event or a recorded one, so the two compare directly."""
    names = _REQUIRED + (_DOMINO_PARTS if event.kind == "domino" else ())
    return {name: getattr(event, name) for name in names}


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as the format writes it."""
    out = _required_fields(event)
    if isinstance(event, DominoEvent):
        out.update(opponents_pips=event.opponents_pips, partner_pips=event.partner_pips)
    elif isinstance(event, BlockEvent):
        out.update(pips=event.pips, difference=event.difference)
    return out


def _event_text(e: Event) -> str:
    """`event_to_json(e)` as compact JSON, formatted directly (a record has dozens)."""
    head = (
        f'{{"kind":"{e.kind}","seat":{e.seat},"side":{e.side},"raw":{e.raw},'
        f'"accepted":{"true" if e.accepted else "false"}'
    )
    if isinstance(e, DominoEvent):
        return (
            f'{head},"play_raw":{e.play_raw},"opponents_raw":{e.opponents_raw},'
            f'"partner_raw":{e.partner_raw},"opponents_pips":{e.opponents_pips},'
            f'"partner_pips":{e.partner_pips}}}'
        )
    if isinstance(e, BlockEvent):
        return f'{head},"pips":{e.pips},"difference":{e.difference}}}'
    return head + "}"


class _EventTexts(dict[Event, str]):
    """Each event's record text, made the first time it is written (an ordinary placement's
    events are the engine's own, made once, so most texts are found)."""

    def __missing__(self, event: Event) -> str:
        text = _event_text(event)
        if isinstance(event, PlayEvent):
            self[event] = text
        return text


_EVENT_TEXTS = _EventTexts()


def tile_json(tile: Tile) -> list[int]:
    """A tile as the formats write it: `[low, high]`."""
    return [tile.low, tile.high]


def point_json(at: AttachPoint | None) -> list[Any] | None:
    """An attach point as the formats write it: `[[low, high], "end"]` (None: the opening)."""
    return None if at is None else [tile_json(at.tile), at.end.value]


def action_json(action: Action, drawn: Tile | None = None) -> dict[str, Any]:
    """An action as the record format and the online protocol write it, without its seat: a
    draw names the tile drawn when given (a record's do; what every seat is told does not)."""
    if isinstance(action, Play):
        return {"type": "play", "tile": tile_json(action.tile), "at": point_json(action.at)}
    if isinstance(action, Draw):
        return {"type": "draw"} if drawn is None else {"type": "draw", "tile": tile_json(drawn)}
    return {"type": "pass"}


def action_to_json(step: Step) -> dict[str, Any]:
    """One logged action as the record format writes it: its seat, then the action (a draw
    names its tile: records are full)."""
    seat, action, drawn = step
    assert not isinstance(action, Draw) or drawn is not None, "a record's draw names its tile"
    return {"seat": seat, **action_json(action, drawn)}


class _ActionTexts(dict[int, str]):
    """Each step code's record text, made the first time it is written."""

    def __missing__(self, code: int) -> str:
        step = STEPS[code]
        assert step is not None, f"no step has code {code}"
        text = self[code] = _compact(action_to_json(step))
        return text


_ACTION_TEXTS = _ActionTexts()


def _round_text(log: RoundLog) -> str:
    deal = log.deal
    if deal is None:
        raise RecordError("a round set up from a position has no deal to record")
    tiles = list(map(_TILE_TEXT.__getitem__, deal.order))  # the hands in seat order, then the rest
    dealt = HAND_SIZE * deal.players
    hands = "],[".join([",".join(tiles[i : i + HAND_SIZE]) for i in range(0, dealt, HAND_SIZE)])
    boneyard = ",".join(tiles[dealt:])
    events = ",".join(map(_EVENT_TEXTS.__getitem__, log.events))
    end = log.end
    if end is None:
        end_text = "null"
    else:
        winner = "null" if end.winner is None else end.winner
        end_text = f'{{"kind":"{end.kind}","round_winner":{winner}'
        if end.pips is not None:
            end_text += f',"hand_pips":[{",".join(map(str, end.pips))}]'
        end_text += "}"
    actions = ",".join(map(_ACTION_TEXTS.__getitem__, log.step_codes))
    return (
        f'{{"opener":{log.opener},"hands":[[{hands}]],"boneyard":[{boneyard}],'
        f'"actions":[{actions}],"events":[{events}],"end":{end_text}}}'
    )


_MATCH_FIELDS = frozenset({"rounds", "scores", "winner"})  # the match's own
_ROUNDS = "\x00rounds\x00"  # stands in for the rounds' text until it is put in


def _record(players: int, seed: int | None, extra: dict[str, Any] | None) -> dict[str, Any]:
    record: dict[str, Any] = {"format": FORMAT, "players": players}
    if seed is not None:
        record["seed"] = seed
    if extra:
        record.update(extra)
    return record


def record_head(
    players: int, *, seed: int | None = None, extra: dict[str, Any] | None = None
) -> str:
    """A record's text up to its rounds: the format, the players, the seed and `extra`'s
    fields, without the closing brace. `record_text` goes on from it, and so does the native
    match loop (`exact61.simulation`), so both write the same bytes. `extra` may not name
    the match's own fields (rounds, scores, winner)."""
    if extra and _MATCH_FIELDS & extra.keys():
        raise ValueError(f"the match writes its own {', '.join(sorted(_MATCH_FIELDS))}")
    return _compact(_record(players, seed, extra))[:-1]


def record_text(
    match: Match, *, seed: int | None = None, extra: dict[str, Any] | None = None
) -> str:
    """The match as one line of `exact61-match/1` JSON. `extra` adds top-level fields (those of
    the format itself it cannot replace: rounds, scores and winner are the match's)."""
    rounds = ",".join([_round_text(log) for log in match.rounds])
    if extra and _MATCH_FIELDS & extra.keys():  # they keep their place, with the match's values
        record = _record(match.players, seed, extra)
        record.update(rounds=_ROUNDS, scores=list(match.scores), winner=match.winner)
        return _compact(record).replace(_compact(_ROUNDS), f"[{rounds}]", 1)
    head = record_head(match.players, seed=seed, extra=extra)
    scores = ",".join(map(str, match.scores))
    winner = "null" if match.winner is None else match.winner
    return f'{head},"rounds":[{rounds}],"scores":[{scores}],"winner":{winner}}}'


def match_to_record(
    match: Match, *, seed: int | None = None, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The match as an `exact61-match/1` object (JSON-ready): `record_text`, read back."""
    record: dict[str, Any] = json.loads(record_text(match, seed=seed, extra=extra))
    return record


def dumps(record: dict[str, Any]) -> str:
    """One record as one line of JSON (for `.jsonl` files)."""
    return _compact(record)


# ---- reading -----------------------------------------------------------------------------


def parse_record(data: str | bytes | dict[str, Any]) -> MatchRecord:
    """Check a record's structure; raise RecordFormatError naming round, action and field."""
    try:
        if isinstance(data, (str, bytes)):
            return MatchRecord.model_validate_json(data)
        return MatchRecord.model_validate(data)
    except ValidationError as err:
        raise _format_error(err) from None


def _format_error(err: ValidationError) -> RecordFormatError:
    first = err.errors(include_url=False)[0]
    loc = list(first.get("loc", ()))
    round_i = action_i = None
    if len(loc) >= 2 and loc[0] == "rounds" and isinstance(loc[1], int):
        round_i = loc[1]
        del loc[:2]
        if len(loc) >= 2 and loc[0] == "actions" and isinstance(loc[1], int):
            action_i = loc[1]
            del loc[:2]
    field = ".".join(str(p) for p in loc)
    message = first.get("msg", "invalid")
    kind = first.get("type", "")
    problem = _PROBLEMS.get(kind, "other")
    if kind == "json_invalid":
        detail = str(first.get("ctx", {}).get("error", "parse error"))
        return RecordFormatError(f"not valid JSON ({detail})", problem="json", value=detail)
    if field:
        message = f"field '{field}': {message}"
    return RecordFormatError(
        message,
        round=round_i,
        action=action_i,
        problem=problem,
        field=field,
        value=_shortened(json.dumps(first.get("input"))) if problem == "value" else "",
    )


def _shortened(text: str, most: int = 40) -> str:
    """A value as an error quotes it: whole, or its start and `…` (a list of thousands)."""
    return text if len(text) <= most else text[: most - 1] + "…"


_PROBLEMS = {  # pydantic's error types, as RecordFormatError says them
    "model_type": "object",
    "dict_type": "object",
    "missing": "missing",
    "literal_error": "value",
    "enum": "value",
    "int_type": "number",
    "int_parsing": "number",
    "int_from_float": "number",
    "string_type": "text",
    "list_type": "list",
    "tuple_type": "list",
    "too_short": "value",
    "too_long": "value",
}


# ---- replaying ---------------------------------------------------------------------------


# The rule a replay's disagreement cites (every reason the rules engine gives names one): how a
# round ends, and what makes each kind of scoring event.
ENDS_BY = {"domino": "R18", "block": "R11", "target": "R30"}
SCORED_BY = {"play": "R16", "domino": "R19", "block": "R22"}


def _describe(fields: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in fields.items())


class ActionFields(Protocol):
    """An action as the format and the online protocol write it (seat aside)."""

    @property
    def type(self) -> str: ...
    @property
    def tile(self) -> Sequence[Any] | None: ...
    @property
    def at(self) -> Sequence[Any] | None: ...


def action_from_record(rec: ActionFields) -> Action:
    """The action a record's (or a client's) action object names, checked as far as a tile and a
    point go (RuleError, R1 or R13, for a tile or point that is none)."""
    if rec.type == "draw":
        return DRAW
    if rec.type == "pass":
        return PASS
    if rec.tile is None:
        raise RuleError("R9", "a play names its tile")
    tile = tile_from(rec.tile)
    at = None
    if rec.at is not None:
        host, end = rec.at
        if not isinstance(end, str):
            raise RuleError("R13", f"an attach point's side is a name, not {end!r}")
        at = AttachPoint(tile_from(host), end)
    return Play(tile, at)


class ReplayStep(NamedTuple):
    """One moment of a record as `replay_steps` reads it."""

    round: int
    action: int  # the index in its round of the action just applied; -1: the round was dealt
    match: Match  # the match right after it: one object all through, so read it now
    events: tuple[Event, ...]  # the scoring events the action caused
    next: Action | None  # the action the record takes next in this round, if any


def replay_steps(data: MatchRecord | str | bytes | dict[str, Any]) -> Iterator[ReplayStep]:
    """Re-execute a record under the rules, one moment at a time: after each round's deal and
    after each action. The one reader of records: `replay`, `exact61 show`, the analysis and
    the web page's replay viewer all step through records with it.

    Raises RecordFormatError for a malformed record and ReplayError, with round and action
    index, at the first disagreement: an illegal action, a wrong draw, a wrong or missing event,
    a round that should have ended (or should not have), wrong final scores or winner (the last
    only once every moment is read).
    """
    record = data if isinstance(data, MatchRecord) else parse_record(data)
    match = Match(record.players)
    last = len(record.rounds) - 1
    unfinished = record.winner is None
    for r, rnd in enumerate(record.rounds):
        if match.is_over:
            raise ReplayError("R30: the match was already won; no round may follow", round=r)
        try:
            deal = Deal(
                tuple(tuple(tile_from(t) for t in hand) for hand in rnd.hands),
                tuple(tile_from(t) for t in rnd.boneyard),
            )
            match.start_round(deal, rnd.opener)
        except RuleError as err:
            raise ReplayError(str(err), round=r) from None
        yield from _replay_round(match, rnd, r, may_stop=unfinished and r == last)
    if len(record.scores) != len(match.scores):
        raise ReplayError(
            f"R2: scores has {len(record.scores)} entries; there are {len(match.scores)} sides"
        )
    if tuple(record.scores) != match.scores:
        raise ReplayError(f"R3: final scores are {list(match.scores)}, not {record.scores}")
    if record.winner != match.winner:
        actual = "none yet" if match.winner is None else f"side {match.winner}"
        raise ReplayError(f"R30: the winner is {actual}, not {record.winner}")


def replay(
    data: MatchRecord | str | bytes | dict[str, Any], *, stop_after: tuple[int, int] | None = None
) -> Match:
    """Re-execute a record under the rules (`replay_steps`); return the match it reaches.

    `stop_after=(round, action)` returns the match right after that action, checked up to it;
    action -1 is the moment the round was dealt, before anyone acted.
    """
    record = data if isinstance(data, MatchRecord) else parse_record(data)
    if stop_after is not None:
        _check_stop(record, *stop_after)
    match = Match(record.players)
    for step in replay_steps(record):
        match = step.match
        if (step.round, step.action) == stop_after:
            break
    return match


def _check_stop(record: MatchRecord, r: int, a: int) -> None:
    rounds = len(record.rounds)
    if not 0 <= r < rounds:
        raise RecordError(f"no round {r}: the match has {rounds} (0 to {rounds - 1})")
    actions = len(record.rounds[r].actions)
    if not -1 <= a < actions:
        raise RecordError(f"no action {a}: round {r} has {actions} (0 to {actions - 1})", round=r)


def _replay_round(
    match: Match, rnd: RoundRecord, r: int, *, may_stop: bool
) -> Iterator[ReplayStep]:
    produced = 0
    recorded = rnd.events
    log = match.rounds[-1]
    actions = [_named(rec) for rec in rnd.actions]
    yield ReplayStep(r, -1, match, (), actions[0] if actions else None)
    for a, rec in enumerate(rnd.actions):
        if match.phase is not Phase.PLAY:
            assert log.end is not None
            raise ReplayError(
                f"{ENDS_BY[log.end.kind]}: the round already ended ({log.end.kind}); no further "
                "action",
                round=r,
                action=a,
            )
        if rec.seat != match.to_act:
            raise ReplayError(
                f"R2: seat {rec.seat} acts, but it is seat {match.to_act}'s turn",
                round=r,
                action=a,
            )
        try:
            action = actions[a] or action_from_record(rec)  # the latter names what is wrong
            if action is DRAW and rec.tile is not None and match.boneyard_size:
                assert log.deal is not None
                nxt = log.deal.boneyard[len(log.deal.boneyard) - match.boneyard_size]
                if tile_from(rec.tile) != nxt:
                    raise RuleError(
                        "R5",
                        f"wrong draw: the boneyard's next tile is {nxt}, not {tile_from(rec.tile)}",
                    )
            events = tuple(match.apply(action))
            if action is DRAW and rec.tile is None:
                raise RuleError("R5", "a draw names the tile drawn")
        except RuleError as err:
            raise ReplayError(str(err), round=r, action=a) from None
        for event in events:
            if produced >= len(recorded):
                raise ReplayError(
                    f"{SCORED_BY[event.kind]}: the record lacks event {produced}: "
                    f"{_describe(_required_fields(event))}",
                    round=r,
                    action=a,
                )
            want, got = _required_fields(event), _required_fields(recorded[produced])
            if want != got:
                raise ReplayError(
                    f"{SCORED_BY[event.kind]}: event {produced} should be {_describe(want)}; "
                    f"the record has {_describe(got)}",
                    round=r,
                    action=a,
                )
            produced += 1
        yield ReplayStep(r, a, match, events, actions[a + 1] if a + 1 < len(actions) else None)
    if match.phase is Phase.PLAY:
        if may_stop and rnd.end is None:
            if produced != len(recorded):
                raise ReplayError(
                    f"R15: the record has {len(recorded) - produced} events too many",
                    round=r,
                    action=len(rnd.actions),
                )
            return
        raise ReplayError(
            f"R11, R18: the round has not ended after its last action; seat {match.to_act} is "
            "to act",
            round=r,
            action=len(rnd.actions),
        )
    assert log.end is not None
    if produced != len(recorded):
        raise ReplayError(
            f"R15: the record has {len(recorded) - produced} events the play does not produce",
            round=r,
            action=len(rnd.actions) - 1,
        )
    if rnd.end is None or rnd.end.kind != log.end.kind:
        said = "no end" if rnd.end is None else f"end '{rnd.end.kind}'"
        raise ReplayError(
            f"{ENDS_BY[log.end.kind]}: the round ends by {log.end.kind}; the record says {said}",
            round=r,
        )


def _named(rec: ActionRecord) -> Action | None:
    """The action a record names, or None if it names none (reported when it is reached)."""
    try:
        return action_from_record(rec)
    except RuleError:
        return None


def verify(data: str | bytes | dict[str, Any]) -> Match:
    """`replay` a record, raising only RecordError subclasses."""
    try:
        return replay(data)
    except RecordError:
        raise
    except RuleError as err:  # pragma: no cover - replay converts these
        raise ReplayError(str(err)) from None
