"""What a frame may hold, checked against the full truth (R5: hands stay hidden until the
round is settled): no tile of another seat's hand, nor of the boneyard, in a frame for a seat or
a spectator, at that moment."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from exact61 import Match, Phase, Tile


def _tiles(value: Any) -> Iterator[Tile]:
    """Every [low, high] pair of pips anywhere in a JSON value."""
    if isinstance(value, list):
        if len(value) == 2 and all(type(v) is int and 0 <= v <= 6 for v in value):
            low, high = value
            if low <= high:
                yield Tile(low, high)
            return
        for item in value:
            yield from _tiles(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tiles(item)


COUNTS = ("scores", "hand_sizes", "credits", "seats", "events", "connected")


def hidden_from(match: Match, recipient: int | None) -> set[Tile]:
    """The tiles `recipient` may not see now: others' hands and the undrawn boneyard."""
    if match.phase is not Phase.PLAY:
        return set()  # between rounds and at the end every hand is on the table or revealed
    hidden = {t for s in range(match.players) if s != recipient for t in match.hand(s)}
    log = match.rounds[-1]
    assert log.deal is not None
    drawn = sum(1 for step in log.steps if step.drawn is not None)
    hidden |= set(log.deal.boneyard[drawn:])
    return hidden


def leaks(frame: dict[str, Any], recipient: int | None, match: Match) -> list[str]:
    """What in `frame` the recipient may not see, given the true `match` at that moment."""
    found: list[str] = []
    hidden = hidden_from(match, recipient)
    # Every field but the log, the settlement and the counts (pairs of numbers that are no tiles)
    now = {k: v for k, v in frame.items() if k not in ("last", "round_end", *COUNTS)}
    for tile in _tiles(now):
        if tile in hidden:
            found.append(f"{tile} in the state itself")
    if recipient is None and "hand" in frame:
        found.append("a spectator got a hand")
    own = (
        sorted(match.hand(recipient)) if recipient is not None and match.phase is Phase.PLAY else []
    )
    if recipient is not None and sorted(map(tuple, frame.get("hand", []))) != own:
        found.append("the hand is not the recipient's own")
    if "legal" in frame and recipient != match.to_act:
        found.append("legal actions for a seat not to act")
    for entry in frame.get("last", []):
        if entry.get("type") == "action":
            action = entry["action"]
            if action["type"] == "draw" and "tile" in action and entry["seat"] != recipient:
                found.append(f"another seat's drawn tile {action['tile']}")
        elif entry.get("type") == "round_end":
            found += _round_end_leaks(entry, match)
        elif entry.get("type") in ("event", "deal"):
            if entry.get("type") == "deal" and list(_tiles(entry)):
                found.append("a deal entry names tiles")
        else:
            found.append(f"an unknown entry {entry.get('type')!r}")
    if "round_end" in frame:
        found += _round_end_leaks(frame["round_end"], match)
    return found


def _round_end_leaks(entry: dict[str, Any], match: Match) -> list[str]:
    """A round end shows hands only if that round was settled (R18, R20; not on target, R30),
    and then exactly the hands it was settled with."""
    log = match.rounds[entry["round"]]
    end = log.end
    if end is None:
        return [f"a round end for round {entry['round']}, which has not ended"]
    if "hands" not in entry:
        return []
    if end.hands is None:
        return [f"hands shown at a {end.kind} end, which reveals none"]
    shown = [[Tile(*t) for t in hand] for hand in entry["hands"]]
    if shown != [list(h) for h in end.hands]:
        return ["revealed hands that are not the settled ones"]
    return []
