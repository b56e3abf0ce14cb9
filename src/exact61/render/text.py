"""Positions as plain text: the facts the rule documents print under each of their diagrams."""

from __future__ import annotations

from exact61.core import Match, Play, display, side_count
from exact61.core.settlement import side_of


def describe_step(match: Match, round_index: int, action_index: int) -> str:
    step = match.rounds[round_index].steps[action_index]
    action = step.action
    if isinstance(action, Play):
        what = f"opens with {action.tile}" if action.at is None else f"places {action}"
    elif step.drawn is not None:
        what = f"draws {step.drawn}"
    else:
        what = "passes"
    return f"seat {step.seat} {what}"


def score_line(match: Match) -> str:
    parts = []
    for side in range(side_count(match.players)):
        seats = [s for s in range(match.players) if side_of(match.players, s) == side]
        who = (
            f"side {side} (seats {', '.join(map(str, seats))})"
            if len(seats) > 1
            else f"seat {side}"
        )
        raw = match.scores[side]
        parts.append(f"{who}: {display(raw)} ({raw})")
    return "; ".join(parts)


def position_text(match: Match) -> str:
    """The layout's tiles, spinners, joins, free attach points, scored contributions, end sum
    and credit (R12-R15), then scores, hands and boneyard."""
    layout = match.layout
    contributions = layout.contributions()
    values = [str(v) for _, v in contributions]
    credit = layout.credit
    joins = [f"{host} – {end}" for host, end in layout.joins()]
    lines = [
        f"Scored contributions: {' + '.join(values) or '0'} = {layout.end_sum}. "
        f"Credit: {credit} raw ({display(credit)} display).",
        f"Tiles: {', '.join(map(str, layout.tiles)) or 'none'}",
        f"Spinners: {', '.join(map(str, layout.spinners())) or 'none'}",
        f"Joins: {'; '.join(joins) or 'none'}",
        "Free attach points: "
        + ("; ".join(f"{p} ({v})" for p, v in layout.free_points()) or "none"),
        "Scored contributions: " + ("; ".join(f"{t}: {v}" for t, v in contributions) or "none"),
        f"Scores: {score_line(match)}",
    ]
    end = match.rounds[-1].end if match.rounds else None
    if end is not None and end.hands is not None and end.pips is not None:
        hands = "; ".join(
            f"seat {s}: {' '.join(map(str, h)) or '-'} ({p})"
            for s, (h, p) in enumerate(zip(end.hands, end.pips, strict=True))
        )
        lines.append(f"Round ended by {end.kind}; hands revealed: {hands}")
    elif end is not None:
        lines.append(f"Round ended by {end.kind}: side {end.winner} reached exactly 61")
    if match.rounds and match.rounds[-1].end is None:
        hands = "; ".join(
            f"seat {s}: {' '.join(map(str, match.hand(s))) or '-'}" for s in range(match.players)
        )
        lines.append(f"Hands: {hands}")
        lines.append(f"Boneyard: {match.boneyard_size} tiles")
    return "\n".join(lines)
