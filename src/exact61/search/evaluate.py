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

Where the native engine is in use the deals are valued in the native core (`search.native`):
the same deals from the same random source, the same values.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING

from exact61.core import Action, SeatView
from exact61.core.engine import choices, distinct_moves, move_class, move_of, redeal
from exact61.core.settlement import side_count
from exact61.core.tiles import TILE_INDEX
from exact61.search.equity import EquityTable, default_table
from exact61.search.native import native_core, restore, seen, state_of
from exact61.search.sampler import Knowledge, knowledge_of, position_of, sample_indices
from exact61.search.solver import SearchLimit, Solver

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# numpy is imported where moves are valued, not with this module: the bots import it, and a
# command that plays no search bot (`simulate` with random bots) need not load numpy.

SOLVER_NODES_PER_SECOND = 100_000  # a cautious rate, for a time budget's node limits
ESTIMATE_DEALS = 64  # with a time budget: the one deal there is rolled out as if this many


def exact_limit(node_limit: int, seconds: float | None) -> int:
    """The exact solve's node budget: `node_limit`, and with a time budget no more nodes than
    fit half of it (at a cautious `SOLVER_NODES_PER_SECOND`), at least 1,000."""
    if seconds is None:
        return node_limit
    return min(node_limit, max(1000, int(seconds * 0.5 * SOLVER_NODES_PER_SECOND)))


def solve_exactly(
    view: SeatView, node_limit: int, table: EquityTable, *, every_move: bool = True
) -> Evaluation | None:
    """Where nothing is hidden (2 players, an empty boneyard: the other hand is every tile
    unseen), the rest of the round solved exactly (`search.solver`, alpha-beta over the match
    equity table): every distinct move's true value (`every_move`), or only the best move's.
    None where something is hidden, or when the search needs more than `node_limit` nodes.
    The one exact judge of a position: the expert, `pimc` and the analysis all ask it."""
    if view.players != 2 or view.boneyard_size != 0:
        return None
    actions = choices(view.legal_actions)  # by move class: the first legal action of each
    unseen: list[list[int]] = [[], []]
    unseen[1 - view.seat] = [TILE_INDEX[t] for t in knowledge_of(view).unseen]
    position = position_of(view, unseen)
    native = native_core()
    if native is not None:
        found = native.solve(position, table.native, node_limit, every_move=every_move)
        if found is None:
            return None
        values = dict(found[0])
    else:
        solver = Solver(position, table.leaf(view.players), node_limit=node_limit)
        try:
            if every_move:
                values = {mv.move: mv.values for mv in solver.move_values(view.legal_actions)}
            else:
                best, value = solver.best_move()
                values = {best: value}
        except SearchLimit:
            return None
    # In the order of the legal actions, which equal values keep.
    return exact_evaluation({k: values[k] for k in actions if k in values}, actions, view.side)


def _class_of(action: Action) -> int:
    """The class of equivalent moves an action makes (`engine.move_class`)."""
    return move_class(move_of(action))


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
        key = _class_of(action)
        for move in self.moves:
            if _class_of(move.action) == key:
                return move
        raise KeyError(f"{action} is not a legal move here")


def _sampled(
    deals: int, knowledge: Knowledge, rng: random.Random, seat: int, own: list[int]
) -> Iterator[tuple[list[list[int]], list[int]]]:
    """`deals` deals consistent with what the seat knows, drawn as they are wanted."""
    for _ in range(deals):
        hidden, boneyard = sample_indices(knowledge, rng)
        hidden[seat] = own
        yield hidden, boneyard


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
    seconds: float | None = None,
) -> Evaluation:
    """Value every distinct legal move of the seat to act (see the module for how).

    A sampled deal is solved exactly only with at most `solve_tiles` tiles left in hands and
    boneyard (above that, searches rarely fit `node_limit` nodes), and a decision stops trying
    after its first search that does not fit. With `seconds`, deals are valued until that
    long has passed (a deal left unfinished then is not counted; at least two are valued, so
    that every value has a standard error), and no search is given more nodes than fit.
    """
    deadline = None if seconds is None else time.perf_counter() + seconds
    if view.to_act != view.seat or not view.legal_actions:
        raise ValueError(f"seat {view.seat} is not to act")
    rng = rng or random.Random(0)
    table = table or default_table()
    exact_node_limit = exact_limit(exact_node_limit, seconds)
    solved_outright = solve_exactly(view, exact_node_limit, table)
    if solved_outright is not None:
        return solved_outright
    leaf = table.leaf(view.players)
    actions = choices(view.legal_actions)  # by move class: the first legal action of each
    side = view.side
    knowledge = knowledge_of(view)
    native = native_core()
    seat = view.seat
    own = [TILE_INDEX[t] for t in view.hand]
    # 2 players, an empty boneyard, too large to solve: the one deal there is, rolled out
    exact_case = view.players == 2 and view.boneyard_size == 0
    if native is not None:
        settings = SimpleNamespace(
            deals=deals,
            node_limit=node_limit,
            solve_tiles=solve_tiles,
            rollouts=rollouts,
            epsilon=epsilon,
            seconds=None if deadline is None else max(0.0, deadline - time.perf_counter()),
        )
        known = [TILE_INDEX[t] for t in knowledge.unseen] if exact_case else None
        valued, solved, tried, state = native.evaluate_moves(
            seen(view, knowledge),
            known,
            list(actions),
            sum(view.hand_sizes) + view.boneyard_size,
            table.native,
            settings,
            state_of(rng),
        )
        restore(rng, state)
        method = "estimate" if exact_case else "sampled"
        share = solved / tried if tried else 0.0
        return paired_evaluation(valued, actions, side, method, share)
    if seconds is not None:
        nodes = int(seconds * SOLVER_NODES_PER_SECOND)
        node_limit = min(node_limit, max(200, nodes // (4 * len(actions))))
    template = position_of(view)
    # The root's moves by class (the same on every deal: the layout and own hand are known).
    root_moves = {move_class(m): m for m in distinct_moves(template)}
    samples: Iterable[tuple[list[list[int]], list[int]]]
    if exact_case:
        hands: list[list[int]] = [[], []]
        hands[seat], hands[1 - seat] = own, [TILE_INDEX[t] for t in knowledge.unseen]
        samples = [(hands, [])]
    else:
        samples = _sampled(deals, knowledge, rng, seat, own)
        if deadline is None:  # all drawn first, so a seed gives the same deals as ever
            samples = list(samples)
    sides = side_count(view.players)
    per_move: dict[int, list[tuple[float, ...]]] = {k: [] for k in actions}
    solved = tried = 0
    give_up = sum(view.hand_sizes) + view.boneyard_size > solve_tiles
    n = 0
    for hidden, bone in samples:
        if deadline is not None and n >= 2 and time.perf_counter() >= deadline:
            break
        solver = Solver(redeal(template, hidden, bone), leaf)
        root = solver.root()
        deal: dict[int, tuple[float, ...]] = {}
        for k in actions:
            if deadline is not None and n >= 2 and time.perf_counter() >= deadline:
                break  # this deal is not counted
            done, child = solver.play(root, root_moves[k])
            tried += 1
            if done is not None:
                deal[k] = done
                solved += 1
                continue
            assert child is not None
            value: tuple[float, ...] | None = None
            if not give_up and not exact_case:
                solver.nodes = 0
                solver.node_limit = node_limit
                try:
                    value = solver.value_of(child)
                    solved += 1
                except SearchLimit:
                    value = None
                    give_up = True  # the other deals are as large: roll them out
            if value is None:
                total = [0.0] * sides
                runs = rollouts * (min(deals, ESTIMATE_DEALS) if exact_case else 1)
                if exact_case and deadline is None:
                    runs = rollouts * deals
                for _ in range(runs):
                    for s, v in enumerate(solver.rollout(child, rng, epsilon)):
                        total[s] += v
                value = tuple(t / runs for t in total)
            deal[k] = value
        if len(deal) < len(actions):
            break
        n += 1
        for k, value in deal.items():
            per_move[k].append(value)
    import numpy as np

    method = "estimate" if exact_case else "sampled"
    values = np.array([per_move[k] for k in actions], dtype=np.float64).reshape(
        len(actions), n, sides
    )
    share = solved / tried if tried else 0.0
    return paired_evaluation(values.transpose(1, 0, 2), actions, side, method, share)


def exact_evaluation(
    values: dict[int, tuple[float, ...]], actions: dict[int, Action], side: int
) -> Evaluation:
    """Every move's exact values (by class) as an `Evaluation`, best first (equal values in
    the order given)."""
    best = max(v[side] for v in values.values())
    moves = [
        MoveEquity(actions[k], v[side], 0.0, v, best - v[side])
        for k, v in sorted(values.items(), key=lambda kv: -kv[1][side])
    ]
    return Evaluation(tuple(moves), "exact", 1, 1.0)


def paired_evaluation(
    values: npt.NDArray[np.float64],
    actions: dict[int, Action],
    side: int,
    method: str,
    solved: float = 0.0,
    order: list[int] | None = None,
) -> Evaluation:
    """Every move's values over the same deals as an `Evaluation`: `values[d, i, s]` is side
    `s`'s value on deal `d` after the `i`-th move of `actions` (by class, in their order).
    Their means, with the standard errors of each mean and of each loss against the best (the
    deals are paired, so a loss's error is that of the per-deal differences). Best first: by
    mean, or in `order` (a search's own ranking) when given."""
    import numpy as np

    n = len(values)
    if n == 0:
        raise ValueError("no deal was valued")
    classes = list(actions)
    index = {k: i for i, k in enumerate(classes)}
    means = values.mean(axis=0)  # a row a move, a column a side
    ranked = order or sorted(classes, key=lambda k: -means[index[k], side])
    top = index[ranked[0]]
    own = values[:, :, side]  # a row a deal, a column a move
    losses = own[:, [top]] - own

    def errors(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        squares: npt.NDArray[np.float64] = ((x - x.mean(axis=0)) ** 2).sum(axis=0)
        return np.sqrt(squares / max(n - 1, 1) / n)

    error, loss_error = errors(own), errors(losses)
    moves = []
    for k in ranked:
        i = index[k]
        moves.append(
            MoveEquity(
                actions[k],
                float(means[i, side]),
                float(error[i]),
                tuple(float(v) for v in means[i]),
                float(means[top, side] - means[i, side]),
                float(loss_error[i]),
            )
        )
    return Evaluation(tuple(moves), method, n, solved)
