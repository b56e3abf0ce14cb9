"""Chance: the deal (R5) and the lot for the opener (R6, R8), drawn from a given random source.

The core never draws from a global source: `random_deal`, `draw_lot` and `round_chance` take a
seeded `random.Random`, so a match replays from its seed and its actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property
from itertools import repeat
from typing import NamedTuple

from exact61.core.errors import RuleError
from exact61.core.tiles import ALL_TILES, TILE_COUNT, TILE_INDEX, Tile

HAND_SIZE = 5  # R5
PLAYER_COUNTS = (2, 3, 4)  # R2


class _DealFields(NamedTuple):
    players: int
    order: tuple[int, ...]  # every tile's index: the hands in seat order, then the boneyard


class Deal(_DealFields):
    """R5: five tiles to each seat, the rest in the boneyard in the order they will be drawn.

    An immutable value. `Deal(hands, boneyard)` checks that every tile is dealt exactly once;
    `order` lists the tile indices, the hands in seat order first, then the boneyard.
    """

    def __new__(cls, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> Deal:
        players = len(hands)
        if players not in PLAYER_COUNTS:
            raise RuleError("R2", f"a deal is for 2, 3 or 4 players, not {players}")
        for seat, hand in enumerate(hands):
            if len(hand) != HAND_SIZE:
                raise RuleError("R5", f"seat {seat} is dealt {len(hand)} tiles, not {HAND_SIZE}")
        tiles = [t for hand in hands for t in hand] + list(boneyard)
        for t in tiles:
            if not isinstance(t, Tile):
                raise RuleError("R1", f"{t!r} is not a tile")
        if len(tiles) != TILE_COUNT or len(set(tiles)) != TILE_COUNT:
            raise RuleError("R5", "hands and boneyard must hold each of the 28 tiles exactly once")
        return super().__new__(cls, players, tuple(TILE_INDEX[t] for t in tiles))

    def __reduce__(self) -> tuple[object, tuple[tuple[int, ...], int]]:
        # NamedTuple's pickle calls __new__ with the fields, which take hands and a boneyard here.
        return (Deal.from_order, (self.order, self.players))

    @classmethod
    def from_order(cls, order: Sequence[int], players: int) -> Deal:
        """The deal of a permutation of the 28 tile indices (see `order`)."""
        if players not in PLAYER_COUNTS:
            raise RuleError("R2", f"a deal is for 2, 3 or 4 players, not {players}")
        if len(order) != TILE_COUNT or set(order) != _EVERY_TILE:
            raise RuleError("R5", "a deal holds each of the 28 tiles exactly once")
        return super().__new__(cls, players, tuple(order))

    @classmethod
    def shuffled(cls, rng: random.Random, players: int) -> Deal:
        """R5: all 28 tiles shuffled with `rng`, five to each seat."""
        if players not in PLAYER_COUNTS:
            raise RuleError("R2", f"Exact 61 Five Up is for 2, 3 or 4 players, not {players}")
        # Sorting by random keys is a uniform shuffle; the keys are drawn in C, a frame less
        # each; a permutation needs no check.
        keys = list(map(random.Random.random, repeat(rng, TILE_COUNT)))
        return super().__new__(cls, players, tuple(sorted(_TILES, key=keys.__getitem__)))

    @cached_property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's five tiles, in seat order."""
        return tuple(
            tuple(ALL_TILES[t] for t in self.hand_indices(seat)) for seat in range(self.players)
        )

    @cached_property
    def boneyard(self) -> tuple[Tile, ...]:
        """The undealt tiles, first to be drawn first."""
        return tuple(ALL_TILES[t] for t in self.boneyard_indices())

    def hand_indices(self, seat: int) -> tuple[int, ...]:
        """Seat `seat`'s five tiles as tile indices."""
        return self.order[HAND_SIZE * seat : HAND_SIZE * (seat + 1)]

    def boneyard_indices(self) -> tuple[int, ...]:
        """The boneyard as tile indices, in draw order."""
        return self.order[HAND_SIZE * self.players :]

    def __repr__(self) -> str:
        return f"Deal(hands={self.hands!r}, boneyard={self.boneyard!r})"


_TILES = range(TILE_COUNT)
_EVERY_TILE = frozenset(_TILES)


def random_deal(rng: random.Random, players: int) -> Deal:
    """R5: shuffle all 28 tiles with `rng` and deal five to each seat."""
    return Deal.shuffled(rng, players)


def draw_lot(rng: random.Random, players: int) -> int:
    """R6/R8: a neutral lot, uniform over all seats (a tie redrawn among the tied is uniform)."""
    return rng.randrange(players)


def round_chance(rng: random.Random, players: int) -> tuple[int, Deal]:
    """One round's draws from `rng`, in order: the lot (R6/R8), then the deal (R5). Always the
    same share of `rng`, so skipping k rounds replays a seed's later deals exactly."""
    lot = draw_lot(rng, players)
    return lot, random_deal(rng, players)
