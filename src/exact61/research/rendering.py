"""How the research environments draw a match (`render()`): the layout as a picture, scores,
hand sizes and the boneyard, never a hidden tile; shared by `Exact61-v0` and the PettingZoo
environment."""

from __future__ import annotations

import gymnasium

from exact61.core import Match, Phase
from exact61.render.picture import draw
from exact61.render.text import score_line

RENDER_MODES = ("human", "ansi")
"""What `render_match` does with a match: prints it, or returns its text."""


def check_render_mode(render_mode: str | None) -> None:
    """An environment's `render_mode`: None or one of `RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {list(RENDER_MODES)}")


def render_match(match: Match, render_mode: str | None) -> str | None:
    """An environment's `render()`: the match's text (`render_text`) for "ansi", printed for
    "human"; without a render mode, a warning and nothing."""
    if render_mode is None:
        gymnasium.logger.warn("render() needs a render_mode: 'ansi' or 'human'")
        return None
    text = render_text(match)
    if render_mode == "ansi":
        return text
    print(text)
    return None


def render_text(match: Match) -> str:
    """The layout as a picture, then the scores, hand sizes and boneyard: no hidden tile."""
    lines = [draw(match.layout).text().rstrip("\n") or "(empty layout)"]
    lines.append(f"Round {len(match.rounds)}. Scores: {score_line(match)}")
    if match.phase is Phase.PLAY:
        sizes = ", ".join(f"seat {s}: {n}" for s, n in enumerate(match.hand_sizes()))
        lines.append(f"Tiles in hand: {sizes}. Boneyard: {match.boneyard_size}.")
        lines.append(f"Seat {match.to_act} to act.")
    elif match.is_over:
        lines.append(f"Side {match.winner} reached exactly 61.")
    return "\n".join(lines)
