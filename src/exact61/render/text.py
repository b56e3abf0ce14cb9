"""Positions as plain English text, for the research environments' `render` (the game's own
words, in the player's language, are `exact61.terminal.words`)."""

from __future__ import annotations

from exact61.core import Match, display, side_count
from exact61.core.settlement import side_of


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
