"""What each client is told: `state` frames and their `last` entries, built for one recipient
from the core's views (R5: a hand stays hidden until its round is settled). Pure: no I/O.

A recipient is a seat (0..n-1) or None for a spectator. Nothing here reads another seat's hand
or the boneyard's order: a seat's frame comes from `match.view(seat)`, a spectator's from
what every seat may see, and an entry for another seat's draw names no tile.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

import orjson

from exact61.core import (
    BlockEvent,
    DominoEvent,
    Layout,
    Match,
    Play,
    RoundEnd,
    RoundLog,
    block_credits,
    credit_for,
)
from exact61.core.records import action_json, event_to_json, point_json, tile_json
from exact61.core.settlement import opponents_of
from exact61.render.geometry import picture_json, tile_names
from exact61.table import Table, Update


def layout_json(layout: Layout) -> list[dict[str, Any]]:
    """The placed tiles in the order played, as the protocol writes them."""
    return [{"tile": tile_json(t), "at": point_json(at)} for t, at in layout.placements()]


def round_end_json(
    index: int, end: RoundEnd, log: RoundLog | None = None, players: int | None = None
) -> dict[str, Any]:
    """A round's end; the hands only when settled (R18, R20), never after `target` (R30).

    Given the round's `log` (and `players`), extensions for a settlement panel: the round's
    `opener`, its settlement `events` (R19, R22) and, after a block, `credits`: how each hand's
    credit is formed, lightest first (R20-R22), from the core's own reckoning."""
    out: dict[str, Any] = {
        "type": "round_end",
        "round": index,
        "kind": end.kind,
        "seat": end.seat,
        "winner": end.winner,
    }
    if end.hands is not None and end.pips is not None:
        out["hands"] = [[tile_json(t) for t in hand] for hand in end.hands]
        out["pips"] = list(end.pips)
    if log is not None and players is not None:
        out["opener"] = log.opener
        out["events"] = [
            event_to_json(e) for e in log.events if isinstance(e, DominoEvent | BlockEvent)
        ]
        if end.kind == "block" and end.pips is not None:
            pips = end.pips
            out["credits"] = [
                {
                    "seat": line.seat,
                    "pips": line.pips,
                    "heavier": [
                        {"seat": o, "pips": pips[o]}
                        for o in opponents_of(players, line.seat)
                        if pips[o] > line.pips
                    ],
                    "difference": line.difference,
                    "raw": line.raw,
                }
                for line in block_credits(players, log.opener, pips)
            ]
    return out


def _layout_after(log: RoundLog, play: Play) -> Layout:
    """The round's layout just after `play` was placed."""
    layout = Layout()
    for step in log.steps:
        if isinstance(step.action, Play):
            layout.place(step.action.tile, step.action.at)
            if step.action.tile == play.tile:
                break
    return layout


def update_entries(
    update: Update,
    recipient: int | None,
    match: Match | None = None,
    after: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """One action for the log as `recipient` may see it: the action (another seat's draw names
    no tile), the events it caused, and the round's end if it ended one. Given the `match`, a
    placement's entry also tells (extensions) the scored ends it left and its credit (R14,
    R15), as the log writes them: `+2 (10): ends 4+6`, and `names`: the placed tile, then the
    tile it joins, as the board drew them (`[3|1]`). `after`: `layout_state` of the layout
    just after a placement, if the caller has it (the newest one's is the match's own)."""
    action = action_json(update.action)
    if update.drawn is not None and update.seat == recipient:
        action["tile"] = tile_json(update.drawn)
    entry: dict[str, Any] = {
        "type": "action",
        "seq": update.seq,
        "round": update.round_index,
        "seat": update.seat,
        "action": action,
    }
    log = None if match is None else match.rounds[update.round_index]
    if log is not None and isinstance(update.action, Play):
        play = update.action
        tiles = [play.tile] + ([] if play.at is None else [play.at.tile])
        # the tile and the one it joins as the board drew them just after (`tile_names`), so
        # that the log names them so in any later round, language or reload
        if after is not None:
            entry["ends"], entry["end_sum"] = after["ends"], after["end_sum"]
            entry["credit"] = credit_for(after["end_sum"])
            drawn = {tuple(t["tile"]): t["name"] for t in after["picture"]["tiles"]}
            entry["names"] = [drawn[tuple(tile_json(t))] for t in tiles]
        else:
            layout = _layout_after(log, update.action)
            entry["ends"] = [{"tile": tile_json(t), "value": v} for t, v in layout.contributions()]
            entry["end_sum"] = layout.end_sum
            entry["credit"] = layout.credit
            names = tile_names(layout)
            entry["names"] = [names[t] for t in tiles]
    entries = [entry]
    for event in update.events:
        entries.append({"type": "event", "seq": update.seq, **event_to_json(event)})
    if update.round_end is not None:
        players = None if match is None else match.players
        entries.append(round_end_json(update.round_index, update.round_end, log, players))
    return entries


Entries = Callable[[Update, int | None], list[dict[str, Any]]]
"""An update's entries for a recipient, as `update_entries` makes them from the table's match."""


def last_entries(
    table: Table,
    updates: Iterable[Update],
    recipient: int | None,
    entries: Entries | None = None,
) -> list[dict[str, Any]]:
    """`last`: the given updates as `recipient` may see them, then the deal of a round that
    started after them (chance steps are not actions, so they have no update of their own).
    `entries` makes an update's entries (by default `update_entries` on the table's match; the
    server's rooms keep those they made, the same for every recipient who may see the same)."""
    out: list[dict[str, Any]] = []
    last_round = -1
    for update in updates:
        out += (
            update_entries(update, recipient, table.match)
            if entries is None
            else entries(update, recipient)
        )
        last_round = update.round_index
    rounds = table.match.rounds
    if out and len(rounds) - 1 > last_round:
        out.append({"type": "deal", "round": len(rounds) - 1, "opener": rounds[-1].opener})
    return out


Frame = dict[str, Any] | str
"""A frame on its way out: a dict, or the JSON text of one (`state_text`)."""


def encode_frame(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text. orjson: the event loop encodes every frame for every
    client, and the standard encoder was a tenth of its time under load."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def layout_state(layout: Layout) -> dict[str, Any]:
    """The members of a `state` frame that follow from the round's layout alone: its tiles, the
    scored ends and their sum, the free points and the picture. A function of the placements
    (`layout.moves`), so a room keeps them while only draws and passes happen."""
    return {
        "layout": layout_json(layout),
        "ends": [
            {"tile": tile_json(t), "value": v} for t, v in layout.contributions()
        ],  # R14: the scored contributions
        "end_sum": layout.end_sum,
        "free": [{"at": point_json(p), "value": v} for p, v in layout.free_points()],
        "picture": picture_json(layout),  # where to draw each tile (render.geometry)
    }


def public_state(
    table: Table,
    *,
    connected: Sequence[bool] | None = None,
    away: Collection[int] = (),
    clock: dict[str, Any] | None = None,
    drawn: dict[str, Any] | None = None,
    guided: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The part of a `state` frame that is the same for every recipient (what anyone at the
    table may see). Built once per change and shared by every recipient's frame: building it
    per recipient was most of the server's work per move. `away`: the seats a stand-in plays
    for; `clock`: the turn clock as the room tells it; `drawn`: `layout_state` of the table's
    layout, if already made; `guided`: the Learn page's guided match as the state tells it
    (`{"rounds": N}`; said only in one). Its `status` is `over` once nothing more is played,
    as the table says (`Table.is_over`: the match won, R30, or the table's rounds played)."""
    match: Match = table.match
    rounds = match.rounds
    layout = match.layout
    if drawn is None:
        drawn = layout_state(layout)
    forced = table.forced() if match.to_act is not None else None
    shared: dict[str, Any] = {
        "players": match.players,
        "round": len(rounds) - 1,
        "to_act": match.to_act,
        # Extension: the action R10 leaves the seat to act no choice about (a draw or a pass),
        # which the server plays itself after a short pause; null when the seat has a choice.
        "forced": None if forced is None else action_json(forced),
        "hand_sizes": list(match.hand_sizes()),  # as the round left them, once it ended
        "boneyard": match.boneyard_size,
        "layout": drawn["layout"],
        "scores": list(match.scores),
        "winner": match.winner,
        # Extensions a client may ignore: enough to draw the table and the log without the
        # rules.
        "status": "over" if table.is_over else "playing",
        "opener": rounds[-1].opener if rounds else None,
        "seats": [
            {
                "seat": s,
                "kind": "human" if table.is_human(s) else f"bot:{table.seats[s]}",
                "name": table.names[s],
                "connected": bool(connected[s]) if connected is not None else None,
                "away": s in away,
            }
            for s in range(match.players)
        ],
        "ends": drawn["ends"],
        "end_sum": drawn["end_sum"],
        "free": drawn["free"],
        "picture": drawn["picture"],
        "events": [event_to_json(e) for e in (rounds[-1].events if rounds else [])],
    }
    if rounds and rounds[-1].end is not None:  # between rounds or over: the settlement
        shared["round_end"] = round_end_json(
            len(rounds) - 1, rounds[-1].end, rounds[-1], match.players
        )
    elif len(rounds) > 1 and not any(
        isinstance(s.action, Play) for s in rounds[-1].steps
    ):  # a round just dealt: the last one's settlement still matters to the players
        previous = rounds[-2].end
        if previous is not None:
            shared["round_end"] = round_end_json(
                len(rounds) - 2, previous, rounds[-2], match.players
            )
    shared["lang"] = table.lang
    shared["clock"] = clock
    if guided is not None:
        shared["guided"] = guided
    return shared


def personal_state(
    table: Table, recipient: int | None, last: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The part of a `state` frame that is the recipient's own: its hand, and its choices when
    it is to act (R5: nobody else's), with `last` already filtered for it."""
    match: Match = table.match
    frame: dict[str, Any] = {"type": "state", "seq": table.seq, "you": recipient}
    if recipient is not None:
        view = match.view(recipient)
        frame["hand"] = [tile_json(t) for t in view.hand]
        if recipient == match.to_act:
            legal = match.legal_actions()
            frame["legal"] = [action_json(a) for a in legal]
            credits = match.legal_credits()
            frame["credits"] = credits  # extension: each action's credit (R15)
            frame["rejects"] = [view.rejects(c) for c in credits]  # and whether R4 rejects it
            pending = match.pending_draw
            frame["pending_draw"] = None if pending is None else tile_json(pending)
    frame["last"] = list(last)
    return frame


def state_frame(
    table: Table,
    recipient: int | None,
    last: Sequence[dict[str, Any]],
    *,
    connected: Sequence[bool] | None = None,
) -> dict[str, Any]:
    """The `state` frame for `recipient`, with `last` already filtered for it."""
    return {**personal_state(table, recipient, last), **public_state(table, connected=connected)}


def state_text(
    table: Table, recipient: int | None, last: Sequence[dict[str, Any]], shared_text: str
) -> str:
    """`state_frame` as JSON text, from the public part already encoded (`shared_text`, the
    encoded `public_state`): the server encodes that once per change, not once per recipient.
    The two parts have no key in common, so joining their members makes the same object."""
    own = encode_frame(personal_state(table, recipient, last))
    return own[:-1] + "," + shared_text[1:]
