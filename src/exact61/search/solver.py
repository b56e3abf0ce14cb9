"""Exact search over the rest of a round when every tile's place is known (R7-R23, R30).

With 2 players and an empty boneyard nothing is hidden: the tiles neither in a seat's hand nor on
the table are the other seat's. With a boneyard left, or 3-4 players, a seat must guess; over a
sampled deal (`exact61.search.sampler`) the round is again fully known, draws included (the
boneyard's order is part of the deal), and `Solver` searches it the same way.

The search plays the rules on a small state of its own: the layout as the rules score it (per pip
value, the free non-double ends and the double's state; `analysis.abstract`), the hands as bit
masks, the scores, the boneyard position. It ends where the round ends: a domino (R18-R19), a
block (R11, R20-R22) or an event reaching exactly 61 (R30, R4 rejecting any that would pass it).
A round end is valued by a leaf function (the match equity table: each side's chance to win the
match from the new scores, with the next round's opener, R8), and a won match by 1.

- Two sides (2 players, or 4 in partnerships): alpha-beta on side 0's chance to win, with a
  transposition table and move ordering (the table's best move, then moves that win at once,
  then by credit and by pips shed).
- Three sides: each seat maximises its own side's chance (max^n), with a transposition table.

A node budget makes a search give up (`SearchLimit`) rather than run on.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from exact61.core import TARGET_RAW, Action, Layout, Match, Phase, TileEnd, round5
from exact61.core.settlement import block_credits, opponents_of, partner_of, side_count, side_of
from exact61.core.tiles import HIGH, LOW, PIPS, TILE_INDEX, VALUE_MASK, Tile
from exact61.search.abstract import ARM, END, LINE, placement_key, tile_mask

# A double's state, three bits per value in `doubles`: off the table, on it with both line sides
# free (the opening double), one line side free, or interior with 2, 1 or 0 side arms free (R13).
OFF, OPEN2, OPEN1, ARMS2, ARMS1, ARMS0 = range(6)
_COUNTS_2X = (False, True, True, False, False, False)  # R14: 2 x pip until both sides joined
_NEXT_ON_LINE = {OPEN2: OPEN1, OPEN1: ARMS2}
_NEXT_ON_ARM = {ARMS2: ARMS1, ARMS1: ARMS0}
_FREE_POINTS = (0, 2, 1, 2, 1, 0)
DRAW_MOVE, PASS_MOVE = -1, -2

Leaf = Callable[[tuple[int, ...], int | None], tuple[float, ...]]
"""Each side's chance to win the match from raw `scores` at the start of a round opened by seat
`opener` (None: a lot, R8)."""


class SearchLimit(Exception):
    """The search used its node budget before it was done."""


@dataclass(frozen=True)
class Position:
    """A round in play with every tile's place known. `hands` are bit masks of tile indices;
    `ends` and `doubles` pack, per pip value v, the free non-double ends showing v (bits 3v) and
    the state of the double [v|v] (bits 3v); `boneyard` is in draw order, from `drawn` on."""

    players: int
    hands: tuple[int, ...]
    ends: int
    doubles: int
    end_sum: int
    scores: tuple[int, ...]
    to_act: int
    opener: int
    boneyard: tuple[int, ...] = ()
    drawn: int = 0
    pending: int = -1  # a drawn tile that must be placed at once (R10)
    opened: bool = True  # False before the round's first placement (R7)

    @classmethod
    def from_parts(
        cls,
        players: int,
        *,
        layout: Layout,
        hands: Sequence[Sequence[Tile]],
        scores: Sequence[int],
        to_act: int,
        opener: int,
        boneyard: Sequence[Tile] = (),
        pending: Tile | None = None,
    ) -> Position:
        ends, doubles, end_sum, _, opened = pack_layout(layout)
        position = cls(
            players,
            tuple(tile_mask(h) for h in hands),
            ends,
            doubles,
            end_sum,
            tuple(scores),
            to_act,
            opener,
            tuple(TILE_INDEX[t] for t in boneyard),
            0,
            -1 if pending is None else TILE_INDEX[pending],
            opened,
        )
        assert _end_sum(ends, doubles) == end_sum or not opened
        return position

    @classmethod
    def from_match(cls, match: Match, boneyard: Sequence[Tile] = ()) -> Position:
        """The match's round in play; `boneyard` in draw order (the match keeps it hidden: pass
        the deal's, or nothing when it is empty)."""
        if match.phase is not Phase.PLAY:
            raise ValueError("no round is in play")
        if len(boneyard) != match.boneyard_size:
            raise ValueError(f"the boneyard holds {match.boneyard_size} tiles, not {len(boneyard)}")
        assert match.to_act is not None
        return cls.from_parts(
            match.players,
            layout=match.layout,
            hands=[match.hand(s) for s in range(match.players)],
            scores=match.scores,
            to_act=match.to_act,
            opener=match.rounds[-1].opener,
            boneyard=boneyard,
            pending=match.pending_draw,
        )


def pack_layout(layout: Layout) -> tuple[int, int, int, int, bool]:
    """The layout as the solver plays on it: (ends, doubles, end sum, open values, opened)."""
    ends = doubles = 0
    lines = [0] * 7
    arms = [0] * 7
    for point, value in layout.free_points():
        end = point.end
        if end is TileEnd.LOW or end is TileEnd.HIGH:
            ends += 1 << (3 * value)
        elif end is TileEnd.LINE_A or end is TileEnd.LINE_B:
            lines[value] += 1
        else:
            arms[value] += 1
    for tile in layout.spinners():
        v = tile.low
        state = (OPEN2 if lines[v] == 2 else OPEN1) if lines[v] else ARMS0 - arms[v]
        doubles |= state << (3 * v)
    return ends, doubles, layout.end_sum, layout.open_values, not layout.is_empty


def _end_sum(ends: int, doubles: int) -> int:
    total = 0
    for v in range(7):
        total += v * ((ends >> (3 * v)) & 7)
        if _COUNTS_2X[(doubles >> (3 * v)) & 7]:
            total += 2 * v
    return total


def _open_values(ends: int, doubles: int) -> int:
    mask = 0
    for v in range(7):
        if (ends >> (3 * v)) & 7 or _FREE_POINTS[(doubles >> (3 * v)) & 7]:
            mask |= 1 << v
    return mask


def _tiles(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class MoveValue:
    """A root move, an action playing it, and each side's chance to win after it."""

    move: int  # placement_key of the move
    action: Action
    values: tuple[float, ...]


# For each mask of open values (bit v: some free attach point accepts v), the tiles that fit.
_FITS: tuple[int, ...] = tuple(
    sum(1 << t for t in range(28) if VALUE_MASK[t] & open_) for open_ in range(128)
)
# Pips of a hand mask, seven tiles at a time.
_PIPS7: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(PIPS[7 * k + i] for i in range(7) if chunk >> i & 1) for chunk in range(128))
    for k in range(4)
)


def _pips_fast(mask: int) -> int:
    return (
        _PIPS7[0][mask & 127]
        + _PIPS7[1][(mask >> 7) & 127]
        + _PIPS7[2][(mask >> 14) & 127]
        + _PIPS7[3][mask >> 21]
    )


State = tuple[
    tuple[int, ...], int, int, int, int, tuple[int, ...], int, int, int, bool
]  # hands, ends, doubles, end_sum, open values, scores, to_act, drawn, pending, opened


class Solver:
    """Searches the rest of the round from a `Position` (see the module's docstring)."""

    def __init__(self, position: Position, leaf: Leaf, node_limit: int | None = None) -> None:
        self.position = position
        self.leaf = leaf
        self.node_limit = node_limit
        self.nodes = 0
        players = position.players
        self.players = players
        self.sides = side_count(players)
        self._side = tuple(side_of(players, s) for s in range(players))
        self._opponents = tuple(opponents_of(players, s) for s in range(players))
        self._partner = tuple(partner_of(players, s) for s in range(players))
        self._bone = position.boneyard
        self._won_values = tuple(
            tuple(1.0 if s == side else 0.0 for s in range(self.sides))
            for side in range(self.sides)
        )
        self._table: dict[tuple[object, ...], tuple[int, float, int]] = {}
        self._history: dict[int, int] = {}  # per move: how often it cut a search off
        self._table_n: dict[tuple[object, ...], tuple[tuple[float, ...], int]] = {}

    def root(self) -> State:
        p = self.position
        open_ = _open_values(p.ends, p.doubles) if p.opened else 0
        return (
            p.hands, p.ends, p.doubles, p.end_sum, open_, p.scores, p.to_act, p.drawn,
            p.pending, p.opened,
        )  # fmt: skip

    # ---- the rules on the small state --------------------------------------------------------

    def children(
        self, state: State, hint: int = -3
    ) -> list[tuple[int, tuple[float, ...] | None, State | None]]:
        """Every distinct move of the seat to act (R7, R9, R10, R13), best-looking first: the
        move, each side's value if the round ends with it, else the state after it."""
        return [(m, *self.play(state, m)) for m in self.ordered_moves(state, hint)]

    def moves(self, state: State) -> list[int]:
        """The distinct moves of the seat to act (R7, R9, R10, R13): placement keys (see
        `analysis.abstract`), or a draw or a pass."""
        hands, ends, doubles, _, open_, _, seat, drawn, pending, opened = state
        hand = hands[seat]
        if not opened:
            return [t * 64 + 3 for t in _tiles(hand)]
        playable = (1 << pending) if pending >= 0 else hand & _FITS[open_]
        if not playable:
            return [DRAW_MOVE if drawn < len(self._bone) else PASS_MOVE]
        moves = []
        for t in _tiles(playable):
            a, b = LOW[t], HIGH[t]
            for x in (a,) if a == b else (a, b):
                shift = 3 * x
                if (ends >> shift) & 7:
                    moves.append(t * 64 + x * 4 + END)
                d = (doubles >> shift) & 7
                if d in (OPEN2, OPEN1):
                    moves.append(t * 64 + x * 4 + LINE)
                elif d in (ARMS2, ARMS1):
                    moves.append(t * 64 + x * 4 + ARM)
        return moves

    @staticmethod
    def credit_of(move: int, state: State) -> int:
        """The credit a placement would earn (R15), without playing it."""
        end_sum, doubles = state[3], state[2]
        t, x, kind = move >> 6, (move >> 2) & 15, move & 3
        if kind == 3:
            s = 2 * LOW[t] if LOW[t] == HIGH[t] else LOW[t] + HIGH[t]
            return s if s % 5 == 0 and s > 0 else 0
        s = end_sum
        if kind == END:
            s -= x
        elif kind == LINE and (doubles >> (3 * x)) & 7 == OPEN1:
            s -= 2 * x
        s += 2 * x if LOW[t] == HIGH[t] else LOW[t] + HIGH[t] - x
        return s if s > 0 and s % 5 == 0 else 0

    def greedy_move(self, state: State, moves: list[int]) -> int:
        """As `greedy` plays: the highest credit that does not pass 61 (so landing exactly on it
        when it can, R4), then the heavier tile."""
        room = TARGET_RAW - state[5][self._side[state[6]]]
        best, best_rank = moves[0], -1
        for m in moves:
            if m < 0:
                return m
            credit = self.credit_of(m, state)
            rank = (credit if credit <= room else 0) * 16 + PIPS[m >> 6]
            if rank > best_rank:
                best, best_rank = m, rank
        return best

    def ranked_moves(self, state: State, moves: list[int]) -> list[int]:
        """`moves` best first by `greedy_move`'s rank (its choice first: ties keep their order).
        The rank is written out in both: `greedy_move` runs in every rollout, too hot for a call
        per move."""
        room = TARGET_RAW - state[5][self._side[state[6]]]

        def rank(m: int) -> int:
            credit = self.credit_of(m, state)
            return (credit if credit <= room else 0) * 16 + PIPS[m >> 6]

        return sorted(moves, key=rank, reverse=True)

    def rollout(self, state: State, rng: random.Random, epsilon: float) -> tuple[float, ...]:
        """Play to the round's end, epsilon-greedy (greedy as `greedy_move`, else a random
        move); each side's value there (the leaf function's, 1 for a match won)."""
        while True:
            moves = self.moves(state)
            if len(moves) == 1:
                m = moves[0]
            elif rng.random() < epsilon:
                m = moves[rng.randrange(len(moves))]
            else:
                m = self.greedy_move(state, moves)
            done, nxt = self.play(state, m)
            if done is not None:
                return done
            assert nxt is not None
            state = nxt

    def ordered_moves(self, state: State, hint: int = -3) -> list[int]:
        """The distinct moves of the seat to act, the most promising first: the transposition
        table's best move, a win at once, going out, then by history, credit and pips."""
        moves = self.moves(state)
        if len(moves) < 2:
            return moves
        seat = state[6]
        room = TARGET_RAW - state[5][self._side[seat]]
        last = state[0][seat].bit_count() == 1  # R18: every move goes out
        history = self._history
        ranked = []
        for m in moves:
            credit = self.credit_of(m, state)
            if m == hint:
                rank = 1e9
            elif credit == room and not last:
                rank = 1e8  # wins the match at once (R30)
            else:
                rank = (
                    history.get(m, 0)
                    + (credit if credit < room else 0) * 0.01
                    + PIPS[m >> 6] * 1e-4
                )
            ranked.append((rank, m))
        ranked.sort(reverse=True)
        return [m for _, m in ranked]

    def play(self, state: State, m: int) -> tuple[tuple[float, ...] | None, State | None]:
        """Play move `m`: (each side's value if the round ends, else None; the next state)."""
        hands, ends, doubles, end_sum, open_, scores, seat, drawn, _pending, opened = state
        nxt = seat + 1 if seat + 1 < self.players else 0
        if m == DRAW_MOVE:  # R10: a playable drawn tile is placed at once
            t = self._bone[drawn]
            child_hands = (*hands[:seat], hands[seat] | 1 << t, *hands[seat + 1 :])
            pend = t if VALUE_MASK[t] & open_ else -1
            return None, (
                child_hands, ends, doubles, end_sum, open_, scores, seat, drawn + 1, pend, True,
            )  # fmt: skip
        if m == PASS_MOVE:  # R11: the round is blocked when nobody can place
            if not any(h & _FITS[open_] for h in hands):
                return self._block(hands, scores), None
            return None, (hands, ends, doubles, end_sum, open_, scores, nxt, drawn, -1, True)
        t = m >> 6
        rest = hands[seat] & ~(1 << t)
        e, d, s = self.place(m, ends, doubles, end_sum)
        credit = s if s > 0 and s % 5 == 0 else 0  # R15
        if not rest:  # R18: domino
            return self._domino(hands, seat, rest, credit, scores), None
        side = self._side[seat]
        if credit:  # R16: its own event, target-checked (R4)
            total = scores[side] + credit
            if total == TARGET_RAW:  # R30: won at once
                return self._won_values[side], None
            if total < TARGET_RAW:
                scores = (*scores[:side], total, *scores[side + 1 :])
        o = open_ if opened else 0
        for v in (LOW[t], HIGH[t]):
            if (e >> (3 * v)) & 7 or _FREE_POINTS[(d >> (3 * v)) & 7]:
                o |= 1 << v
            else:
                o &= ~(1 << v)
        child_hands = (*hands[:seat], rest, *hands[seat + 1 :])
        if drawn >= len(self._bone) and not any(h & _FITS[o] for h in child_hands):  # R11
            return self._block(child_hands, scores), None
        return None, (child_hands, e, d, s, o, scores, nxt, drawn, -1, True)

    @staticmethod
    def place(move: int, ends: int, doubles: int, end_sum: int) -> tuple[int, int, int]:
        """The layout after a placement (R13, R14): new ends, doubles and end sum."""
        t, rest = divmod(move, 64)
        x, kind = divmod(rest, 4)
        a, b = LOW[t], HIGH[t]
        if kind == 3:  # the opening (R7); a lone opening double counts both halves (R14)
            if a == b:
                return ends, doubles | (OPEN2 << (3 * a)), 2 * a
            return ends + (1 << (3 * a)) + (1 << (3 * b)), doubles, a + b
        shift = 3 * x
        if kind == END:
            ends -= 1 << shift
            end_sum -= x
        else:
            d = (doubles >> shift) & 7
            nd = _NEXT_ON_LINE[d] if kind == LINE else _NEXT_ON_ARM[d]
            doubles += (nd - d) << shift
            if nd == ARMS2:  # both line sides joined: interior, counts nothing (R14)
                end_sum -= 2 * x
        if a == b:  # a double joins by a line side; it counts both halves
            doubles |= OPEN1 << shift
            end_sum += 2 * x
        else:
            y = b if x == a else a
            ends += 1 << (3 * y)
            end_sum += y
        return ends, doubles, end_sum

    def _domino(
        self, hands: tuple[int, ...], seat: int, rest: int, credit: int, scores: tuple[int, ...]
    ) -> tuple[float, ...]:
        """R18-R19: one event, applied or rejected whole; the domino maker opens next (R8)."""
        opponents = 0
        for o in self._opponents[seat]:
            opponents += _pips_fast(hands[o])
        partner = self._partner[seat]
        net = credit + round5(opponents)
        if partner is not None:
            net -= round5(_pips_fast(hands[partner]))
        side = self._side[seat]
        score = scores[side] + net
        if score == TARGET_RAW:
            return self._won_values[side]
        if score < TARGET_RAW:
            scores = (*scores[:side], score, *scores[side + 1 :])
        return self.leaf(scores, seat)

    def _block(self, hands: tuple[int, ...], scores: tuple[int, ...]) -> tuple[float, ...]:
        """R20-R22: each hand's credit, lightest first, each target-checked; then a lot (R8)."""
        pips = tuple(_pips_fast(h) for h in hands)
        for line in block_credits(self.players, self.position.opener, pips):
            if line.raw <= 0:
                continue
            side = self._side[line.seat]
            score = scores[side] + line.raw
            if score == TARGET_RAW:
                return self._won_values[side]
            if score < TARGET_RAW:
                scores = (*scores[:side], score, *scores[side + 1 :])
        return self.leaf(scores, None)

    # ---- search ------------------------------------------------------------------------------

    def _ab(self, state: State, alpha: float, beta: float) -> float:
        """Alpha-beta on side 0's chance to win (two sides), fail-soft."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimit(f"more than {self.node_limit} nodes")
        hands, ends, doubles, _, _, scores, to_act, drawn, pending, _ = state
        key = (hands, ends, doubles, scores, to_act, drawn, pending)
        entry = self._table.get(key)
        hint = -3
        if entry is not None:
            flag, value, hint = entry
            if flag == 0 or (flag == 1 and value >= beta) or (flag == 2 and value <= alpha):
                return value
        maximizing = self._side[to_act] == 0
        a0, b0 = alpha, beta
        best = -1.0 if maximizing else 2.0
        best_move = -3
        moves = self.ordered_moves(state, hint)
        play = self.play
        for m in moves:
            done, child = play(state, m)
            v = done[0] if done is not None else self._ab(child, alpha, beta)  # type: ignore[arg-type]
            if maximizing:
                if v > best:
                    best, best_move = v, m
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_move = v, m
                if v < beta:
                    beta = v
            if alpha >= beta:
                weight = sum(h.bit_count() for h in hands)
                self._history[m] = self._history.get(m, 0) + weight * weight
                break
        flag = 2 if best <= a0 else 1 if best >= b0 else 0  # upper bound, lower bound, exact
        self._table[key] = (flag, best, best_move)
        return best

    def _maxn(self, state: State) -> tuple[float, ...]:
        """Max^n: the seat to act picks the move best for its own side (three sides)."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimit(f"more than {self.node_limit} nodes")
        hands, ends, doubles, _, _, scores, to_act, drawn, pending, _ = state
        key = (hands, ends, doubles, scores, to_act, drawn, pending)
        entry = self._table_n.get(key)
        if entry is not None:
            return entry[0]
        side = self._side[to_act]
        best: tuple[float, ...] = ()
        best_move = -3
        for m, done, child in self.children(state):
            v = done if done is not None else self._maxn(child)  # type: ignore[arg-type]
            if not best or v[side] > best[side]:
                best, best_move = v, m
                if v[side] >= 1.0:
                    break
        self._table_n[key] = (best, best_move)
        return best

    def value_of(self, state: State) -> tuple[float, ...]:
        with _no_gc():
            if self.sides == 2:
                v = self._ab(state, -1.0, 2.0)
                return (v, 1.0 - v)
            return self._maxn(state)

    def value(self) -> tuple[float, ...]:
        """Each side's chance to win the match, with best play by every seat to the round's end."""
        return self.value_of(self.root())

    def move_values(self, legal: Sequence[Action] | None = None) -> list[MoveValue]:
        """Each distinct move of the seat to act with its exact value. `legal` (the core's legal
        actions) names each move by its first action; without it, moves are keys only."""
        actions: dict[int, Action] = {}
        for action in legal or ():
            actions.setdefault(placement_key(action), action)
        out = []
        for m, done, child in self.children(self.root()):
            values = done if done is not None else self.value_of(child)  # type: ignore[arg-type]
            out.append(MoveValue(m, actions.get(m), values))  # type: ignore[arg-type]
        if legal is not None and set(actions) != {mv.move for mv in out}:
            raise AssertionError("the solver's moves and the core's legal actions disagree")
        out.sort(key=lambda mv: mv.move)
        return out

    def best_move(self) -> tuple[int, tuple[float, ...]]:
        """The best move of the seat to act and the position's value (one search: the root's
        moves after the first are only proven worse, not valued)."""
        state = self.root()
        with _no_gc():
            if self.sides != 2:
                value = self._maxn(state)
                return self._table_n[_key(state)][1], value
            v = self._ab(state, -1.0, 2.0)
        return self._table[_key(state)][2], (v, 1.0 - v)


@contextmanager
def _no_gc() -> Iterator[None]:
    """The search makes millions of small tuples that hold no cycles; the cyclic collector would
    walk the whole transposition table again and again (it slowed big searches several times)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _key(state: State) -> tuple[object, ...]:
    hands, ends, doubles, _, _, scores, to_act, drawn, pending, _ = state
    return (hands, ends, doubles, scores, to_act, drawn, pending)


def is_exact_position(players: int, boneyard_size: int) -> bool:
    """Whether a seat's view hides nothing: 2 players and an empty boneyard."""
    return players == 2 and boneyard_size == 0
