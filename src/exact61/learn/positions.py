"""The tour's positions, package data: the rule documents' eleven worked positions
(`data/seed_positions.json`, placement by placement) and the scenes beyond them
(`data/scenes.json`: a match set up at a moment, two players, the learner at seat 0).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from exact61.core import AttachPoint, Match, Tile, tile_from
from exact61.learn.lesson import Placement, Scene

PLAYERS = 2  # the scenes beyond the documents: the learner (seat 0) against one other
YOU, OTHER = 0, 1


def placements_of(data: Sequence[dict[str, Any]]) -> tuple[Placement, ...]:
    """Placements as seed_positions.json writes them."""
    return tuple(
        (
            tile_from(p["tile"]),
            None if p["at"] is None else AttachPoint(tile_from(p["at"][0]), p["at"][1]),
        )
        for p in data
    )


def _data(name: str) -> dict[str, Any]:
    text = resources.files("exact61.learn").joinpath("data", name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def rule_cases() -> dict[str, tuple[Placement, ...]]:
    """The rule documents' worked positions (seed_positions.json) by name: their placements."""
    return {
        c["name"]: placements_of(c["placements"]) for c in _data("seed_positions.json")["cases"]
    }


@dataclass(frozen=True)
class Setup:
    """A round in play from scenes.json: the learner is seat 0, to act."""

    layout: tuple[Placement, ...]
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    scores: tuple[int, ...]
    opener: int
    then: tuple[Placement, ...]

    def match(self) -> Match:
        return Match.from_position(
            PLAYERS,
            layout=self.layout,
            hands=self.hands,
            boneyard=self.boneyard,
            to_act=YOU,
            opener=self.opener,
            scores=self.scores,
        )


@cache
def setups() -> dict[str, Setup]:
    out = {}
    for s in _data("scenes.json")["scenes"]:
        out[s["name"]] = Setup(
            placements_of(s["layout"]),
            tuple(tuple(tile_from(t) for t in hand) for hand in s["hands"]),
            tuple(tile_from(t) for t in s["boneyard"]),
            tuple(s["scores"]),
            s["opener"],
            placements_of(s.get("then", ())),
        )
    return out


def scene_of(match: Match, *, pending: bool = True) -> Scene:
    """What the board shows of a two-player round: as it is in play, or settled (hands shown)."""
    log = match.rounds[-1]
    end = log.end
    hands = end.hands if end is not None and end.hands is not None else None
    return Scene(
        tuple(match.layout.placements()),
        hands if hands is not None else tuple(match.hand(s) for s in range(match.players)),
        match.boneyard_size,
        match.scores,
        match.pending_draw if pending else None,
        revealed=hands is not None,
    )
