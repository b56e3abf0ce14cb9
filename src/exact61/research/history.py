"""A whole round's hidden history, sampled consistently with what one seat knows.

The project's sampler (`exact61.search.sampler.sample_deal`) deals the tiles a seat cannot see
into the other hands and the boneyard as they stand now. A game tree (OpenSpiel) needs more: a
history that leads there, that is every seat's dealt hand and the tile of every draw, so that
replaying it under the rules gives the same public steps. This module completes a sampled deal
into such a history.

For another seat, each tile it holds now or placed from its hand entered the hand either when
dealt or at one of its draws that it did not place at once (a drawn tile that could be placed
must be, R10, so those draws are public). A tile may enter at such a moment only if it then
stayed in the hand through every later draw or pass of that seat until it left, showing none of
the pip values that were open at those moments (R10: a seat draws or passes only without a
legal placement). Finding which tile entered when is a bipartite matching; when a sampled deal
admits none (the sampler keeps weaker constraints than these), another deal is sampled.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from exact61.core import HAND_SIZE, Layout, Match, SeatView, Tile
from exact61.core.tiles import VALUE_MASK
from exact61.search.sampler import assignment, sample_deal

_NEVER = 1 << 30  # the exit time of a tile still in hand


@dataclass(frozen=True)
class RoundHistory:
    """A round's chance outcomes: each seat's dealt hand and the tile of each draw, in order."""

    hands: tuple[tuple[Tile, ...], ...]
    draws: tuple[Tile, ...]


def _match_slots(
    tiles: list[tuple[Tile, int]],
    slots: list[int],
    evidence: list[tuple[int, int]],
    rng: random.Random,
) -> list[Tile] | None:
    """Give each slot (an entry time) a distinct tile (with its exit time) that could have stayed
    in hand from that entry to its exit; None when no such assignment exists."""

    def fits(tile: Tile, exit_at: int, entry: int) -> bool:
        if entry >= exit_at:
            return False
        mask = VALUE_MASK[tile.ordinal]
        return not any(entry < at < exit_at and mask & open_values for at, open_values in evidence)

    order = list(range(len(tiles)))
    rng.shuffle(order)  # different consistent histories, not always the first one found
    chosen = assignment([[i for i in order if fits(*tiles[i], entry)] for entry in slots])
    return None if chosen is None else [tiles[i][0] for i in chosen]


def _complete(
    view: SeatView,
    hidden: tuple[tuple[Tile, ...], ...],
    own_hand: tuple[Tile, ...],
    rng: random.Random,
) -> RoundHistory | None:
    history = list(view.history)
    players = view.players
    # Public facts per seat: (time, open values) at each draw or pass, and the tiles placed.
    evidence: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    layout = Layout()
    for k, step in enumerate(history):
        if step.kind == "play":
            assert step.play is not None
            layout.place(step.play.tile, step.play.at)
        else:
            evidence[step.seat].append((k, layout.open_values))
    draws: list[Tile] = []
    draw_step: dict[int, int] = {}  # history index of a draw -> its place in `draws`
    hands: list[tuple[Tile, ...]] = []
    for seat in range(players):
        if seat == view.seat:
            hands.append(own_hand)
            continue
        tiles: list[tuple[Tile, int]] = [(t, _NEVER) for t in hidden[seat]]
        slots = [-1] * HAND_SIZE  # five dealt tiles (R5), entered before any evidence
        slot_draws: list[int] = []
        for k, step in enumerate(history):
            if step.seat != seat:
                continue
            after = history[k + 1] if k + 1 < len(history) else None
            if step.kind == "draw":
                if after is not None and after.kind == "play":
                    continue  # R10: a placeable drawn tile is placed at once: it is that tile
                slots.append(k)
                slot_draws.append(k)
            elif step.kind == "play":
                before = history[k - 1] if k > 0 else None
                if before is None or before.seat != seat or before.kind != "draw":
                    assert step.play is not None
                    tiles.append((step.play.tile, k))
        if len(tiles) != len(slots):  # pragma: no cover - conservation of tiles
            raise AssertionError("tiles and entries disagree")
        chosen = _match_slots(tiles, slots, evidence[seat], rng)
        if chosen is None:
            return None
        hands.append(tuple(chosen[:HAND_SIZE]))
        for k, tile in zip(slot_draws, chosen[HAND_SIZE:], strict=True):
            draw_step[k] = len(draws)  # filled in order below
            draws.append(tile)
    # Every draw in history order: own draws are known, placed-at-once draws are public.
    ordered: list[Tile] = []
    for k, step in enumerate(history):
        if step.kind != "draw":
            continue
        if step.drawn is not None:
            ordered.append(step.drawn)
        elif k in draw_step:
            ordered.append(draws[draw_step[k]])
        else:
            after = history[k + 1]
            assert after.play is not None
            ordered.append(after.play.tile)
    return RoundHistory(tuple(hands), tuple(ordered))


def sample_round(match: Match, seat: int, rng: random.Random, tries: int = 20) -> RoundHistory:
    """A history of the round in play that `seat` cannot tell from the real one.

    Its own dealt hand and draws are the real ones; every other hand and draw is sampled through
    `sample_deal` and completed as the module says. After `tries` deals that admit no history
    (rare), the real history is returned: it is always consistent.
    """
    log = match.rounds[-1]
    assert log.deal is not None and log.end is None, "a dealt round in play"
    own_hand = log.deal.hands[seat]
    view = match.view(seat)
    for _ in range(tries):
        deal = sample_deal(view, rng)
        history = _complete(view, deal.hands, own_hand, rng)
        if history is not None:
            return history
    drawn = tuple(s.drawn for s in log.steps if s.drawn is not None)
    return RoundHistory(log.deal.hands, drawn)
