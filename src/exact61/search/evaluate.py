"""Each move's match equity for the seat to act, from what that seat may know.

- `exact`: 2 players and an empty boneyard hide nothing (the other hand is every unseen tile),
  so the rest of the round is solved (`exact61.search.solver`) and each move gets its true value.
- `sampled`: otherwise, deals are sampled consistently with the seat's view (`bots.sampler`);
  on each deal every move is solved exactly when the search fits a node budget, else valued by
  rollouts to the round's end (the `equity` bot's epsilon-greedy policy). A move's equity is its
  mean over the deals (all moves see the same deals, so their differences are paired), with a
  standard error. Solving a sampled deal assumes every seat sees every tile from there on
  (perfect-information Monte Carlo): a useful estimate, not the exact value.
- `estimate`: 2 players, empty boneyard, but too large to solve within the budget: rollouts on
  the one deal there is.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from exact61.core import Action, SeatView
from exact61.core.settlement import side_count
from exact61.core.tiles import TILE_INDEX
from exact61.search.abstract import index_mask, placement_key, tile_mask
from exact61.search.equity import EquityTable, default_table
from exact61.search.sampler import knowledge_of, sample_indices
from exact61.search.solver import Position, SearchLimit, Solver, State, pack_layout


@dataclass(frozen=True)
class MoveEquity:
    """One move (named by its first legal action) and the deciding side's chance after it."""

    action: Action
    equity: float
    standard_error: float  # of `equity`; 0 when exact
    values: tuple[float, ...]  # every side's chance after it
    loss: float = 0.0  # the best move's equity minus this one's
    loss_error: float = 0.0  # its standard error, from the per-deal differences (paired)


@dataclass(frozen=True)
class Evaluation:
    """Every distinct move of the seat to act, best first, and how they were valued."""

    moves: tuple[MoveEquity, ...]
    method: str  # "exact", "sampled" or "estimate"
    deals: int  # deals the values are averaged over (1 when exact)
    solved: float  # share of (deal, move) values that were solved exactly

    @property
    def best(self) -> MoveEquity:
        return self.moves[0]

    def of(self, action: Action) -> MoveEquity:
        key = placement_key(action)
        for move in self.moves:
            if placement_key(move.action) == key:
                return move
        raise KeyError(f"{action} is not a legal move here")


def evaluate_moves(
    view: SeatView,
    *,
    rng: random.Random | None = None,
    deals: int = 32,
    node_limit: int = 20_000,
    solve_tiles: int = 18,
    exact_node_limit: int = 2_000_000,
    rollouts: int = 8,
    epsilon: float = 0.25,
    table: EquityTable | None = None,
) -> Evaluation:
    """Value every distinct legal move of the seat to act (see the module for how).

    A sampled deal is solved exactly only with at most `solve_tiles` tiles left in hands and
    boneyard (above that, searches rarely fit `node_limit` nodes), and a decision stops trying
    after its first search that does not fit.
    """
    if view.to_act != view.seat or not view.legal_actions:
        raise ValueError(f"seat {view.seat} is not to act")
    rng = rng or random.Random(0)
    table = table or default_table()
    leaf = table.leaf(view.players)
    actions: dict[int, Action] = {}
    for action in view.legal_actions:
        actions.setdefault(placement_key(action), action)
    side = view.side
    assert view.opener is not None
    ends, doubles, end_sum, _, opened = pack_layout(view.layout)
    pending = -1 if view.pending_draw is None else TILE_INDEX[view.pending_draw]
    knowledge = knowledge_of(view)
    own = tile_mask(view.hand)
    seat = view.seat
    sides = side_count(view.players)

    def engine_for(hands: tuple[int, ...], boneyard: tuple[int, ...]) -> tuple[Solver, State]:
        position = Position(
            view.players, hands, ends, doubles, end_sum, view.scores, seat, view.opener or 0,
            boneyard, 0, pending, opened,
        )  # fmt: skip
        engine = Solver(position, leaf)
        return engine, engine.root()

    exact_case = view.players == 2 and view.boneyard_size == 0
    samples: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    if exact_case:
        hands = [0, 0]
        hands[seat], hands[1 - seat] = own, tile_mask(knowledge.unseen)
        engine, root = engine_for(tuple(hands), ())
        engine.node_limit = exact_node_limit
        try:
            values = {}
            for m in actions:
                done, child = engine.play(root, m)
                values[m] = done if done is not None else engine.value_of(child)  # type: ignore[arg-type]
        except SearchLimit:
            samples = [(tuple(hands), ())]
        else:
            best = max(v[side] for v in values.values())
            moves = [
                MoveEquity(actions[m], v[side], 0.0, v, best - v[side])
                for m, v in sorted(values.items(), key=lambda kv: -kv[1][side])
            ]
            return Evaluation(tuple(moves), "exact", 1, 1.0)
    else:
        for _ in range(deals):
            hidden, boneyard = sample_indices(knowledge, rng)
            hands_ = tuple(own if s == seat else index_mask(h) for s, h in enumerate(hidden))
            samples.append((hands_, tuple(boneyard)))
    per_move: dict[int, list[tuple[float, ...]]] = {m: [] for m in actions}
    solved = tried = 0
    give_up = sum(view.hand_sizes) + view.boneyard_size > solve_tiles
    for hands_, bone in samples:
        engine, root = engine_for(hands_, bone)
        for m in actions:
            done, child = engine.play(root, m)
            tried += 1
            if done is not None:
                per_move[m].append(done)
                solved += 1
                continue
            assert child is not None
            value: tuple[float, ...] | None = None
            if not give_up and not exact_case:
                engine.nodes = 0
                engine.node_limit = node_limit
                try:
                    value = engine.value_of(child)
                    solved += 1
                except SearchLimit:
                    value = None
                    give_up = True  # the other deals are as large: roll them out
            if value is None:
                total = [0.0] * sides
                runs = rollouts * (deals if exact_case else 1)
                for _ in range(runs):
                    for s, v in enumerate(engine.rollout(child, rng, epsilon)):
                        total[s] += v
                value = tuple(t / runs for t in total)
            per_move[m].append(value)
    n = len(samples)
    means = {
        m: tuple(sum(v[s] for v in vs) / n for s in range(sides)) for m, vs in per_move.items()
    }
    top = max(means, key=lambda m: means[m][side])
    moves = []
    for m, values_ in per_move.items():
        mean = means[m]
        spread = math.sqrt(sum((v[side] - mean[side]) ** 2 for v in values_) / max(n - 1, 1))
        diffs = [b[side] - v[side] for b, v in zip(per_move[top], values_, strict=True)]
        loss = means[top][side] - mean[side]
        loss_spread = math.sqrt(sum((d - loss) ** 2 for d in diffs) / max(n - 1, 1))
        moves.append(
            MoveEquity(
                actions[m],
                mean[side],
                spread / math.sqrt(n),
                mean,
                loss,
                loss_spread / math.sqrt(n),
            )
        )
    moves.sort(key=lambda mv: -mv.equity)
    method = "estimate" if exact_case else "sampled"
    return Evaluation(tuple(moves), method, n, solved / tried if tried else 0.0)
