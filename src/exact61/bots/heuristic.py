"""`heuristic`: greedy plus the habits of a careful player, each a term in raw points.

- the credit it earns now, 0 if R4 would reject it, and a win when it lands exactly on 305;
- minus the credit the next seat can expect to take after it (an opponent: always, at 4 players
  too), from the tiles it cannot see, weighted by the chance that seat holds one;
- plus a share of what the partner could take next, at 4 players;
- plus a little for each tile left in hand that still fits the layout (playable variety);
- plus pips shed when the boneyard is empty and the round may block (R20-R21 count what is left);
- going out only when the domino event, estimated from the unseen tiles, will not pass 61 (R19).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from exact61.core import ALL_TILES, Action, Layout, Play, SeatView, Tile, round5
from exact61.core.settlement import accepts, kept, lands, partner_of

WIN = 1000.0


def best_credits(layout: Layout, tiles: Sequence[Tile]) -> list[int]:
    """For each tile, the best credit it could take on this layout."""
    out = []
    for tile in tiles:
        best = 0
        for point in layout.points_for(tile):
            best = max(best, layout.credit_after(tile, point))
        out.append(best)
    return out


def expected_best(credits: list[int], pool: int, hand: int) -> float:
    """Expected best credit of a hand of `hand` tiles drawn from `pool` unseen tiles, of which
    `credits` lists the tiles that score (the rest score 0)."""
    if hand <= 0 or pool <= 0 or not credits:
        return 0.0
    hand = min(hand, pool)
    total = comb(pool, hand)
    expected = 0.0
    ordered = sorted(credits, reverse=True)
    previous = 0
    for i in range(len(ordered) - 1, -1, -1):  # P(best >= c) for each threshold c, low to high
        c = ordered[i]
        if c <= previous:
            continue
        at_least = i + 1  # tiles scoring at least c
        p = 1.0 - comb(pool - at_least, hand) / total
        expected += p * (c - previous)
        previous = c
    return expected


def expected_reply(layout: Layout, unseen: Sequence[Tile], hand: int) -> float:
    """The best credit a seat holding `hand` of the `unseen` tiles can expect to take next on
    `layout` (R15), each tile as likely to be in its hand as any other."""
    credits = [c for c in best_credits(layout, unseen) if c > 0]
    return expected_best(credits, len(unseen), hand)


def unseen_by(view: SeatView) -> list[Tile]:
    """The tiles the seat cannot see: neither in its hand nor on the table."""
    seen = set(view.hand) | set(view.layout.tiles)
    return [t for t in ALL_TILES if t not in seen]


class HeuristicBot:
    """Intermediate: a one-move lookahead with the habits above."""

    name = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        plays = [a for a in legal if isinstance(a, Play)]
        if len(legal) == 1 or not plays:
            return legal[0]
        unseen = unseen_by(view)
        scored = [(self._worth(view, play, unseen), i) for i, play in enumerate(plays)]
        best = max(w for w, _ in scored)
        top = [plays[i] for w, i in scored if w >= best - 1e-9]
        return top[self._rng.randrange(len(top))] if len(top) > 1 else top[0]

    def _worth(self, view: SeatView, play: Play, unseen: list[Tile]) -> float:
        layout = view.layout.copy()
        credit = layout.place(play.tile, play.at)
        score = view.scores[view.side]
        if lands(score, credit):
            return WIN
        worth = 0.0 + kept(score, credit)
        rest = [t for t in view.hand if t != play.tile]
        if not rest:  # domino: estimate the whole event (R19)
            mean_pips = sum(t.pips for t in unseen) / len(unseen) if unseen else 0.0
            partner = partner_of(view.players, view.seat)
            opponents = [s for s in range(view.players) if s != view.seat and s != partner]
            opp = round5(round(mean_pips * sum(view.hand_sizes[s] for s in opponents)))
            mate = 0 if partner is None else round5(round(mean_pips * view.hand_sizes[partner]))
            net = kept(score, credit) + opp - mate
            if lands(score, net):
                return WIN
            if not accepts(score, net):
                return worth - 40.0  # likely rejected whole: avoid going out if there is a choice
            return worth + 20.0 + opp - mate
        nxt = (view.seat + 1) % view.players
        credits = [c for c in best_credits(layout, unseen) if c > 0]
        worth -= expected_best(credits, len(unseen), view.hand_sizes[nxt])
        partner = partner_of(view.players, view.seat)
        if partner is not None:
            worth += 0.25 * expected_best(credits, len(unseen), view.hand_sizes[partner])
        worth += 1.5 * sum(1 for t in rest if layout.points_for(t))
        if view.boneyard_size == 0:
            worth += 0.5 * play.tile.pips
        return worth
