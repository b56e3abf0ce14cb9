"""`expert`: information-set MCTS that values a round's end by the match equity table, searches
the engine's positions, and solves the round exactly when nothing is hidden.

Like `ismcts` (one tree over deals sampled consistently with the view, UCB over the moves each
sample allows, equivalent placements sharing one child, an epsilon-greedy rollout to the round's
end under the real rules), with these differences:

- A rollout's end is worth each side's chance to win the match (`search.equity`): from the new
  scores, with the next round's opener (R8), and 1 for a match won at exactly 61. A tanh of the
  points gained (as `ismcts` scores a round) cannot tell 10 points landing on 61 from 10 points
  that are rejected (R4), nor a lead of 20 at 10-30 from one at 40-60.
- With 2 players and an empty boneyard the other hand is known: it searches the rest of the round
  exactly (`search.solver`, alpha-beta over the same values) and plays the best move, when that
  fits in its budget; otherwise it searches as above.
- It reads the others' choices (`inference`, `sampler.choices_of`): a seat that placed a tile
  scoring nothing while a tile scoring 15 was in its hand played against the odds, so deals are
  sampled in proportion to how likely they make every placement the others chose (a softmax over
  each move's credit, R15, doubles favoured; `sampler.sample_weighted`).
- Paired root (`paired`): each sampled deal is searched once under every root move, and the best
  mean is played, so the moves are compared on the same deals.
- The other side's moves in the tree are played by the rollout's policy on their sampled hand
  (`opponent`), not chosen by UCB: with a few hundred iterations UCB picks their replies almost
  uniformly, so a move leaving them 20 points would look as good as one leaving them none. Once
  such a node has `opponent_visits` visits, UCB takes over there, trying their untried replies
  in the policy's order: a fixed policy never learns the reply that hurts.

- Of moves its search values alike, it plays the one whose credit its side keeps now (R4): a
  move landing on exactly 61 and one that keeps the win in reach are both worth 1 once the other
  side cannot catch up, and a strong player finishes.

How each of these was measured, and what was tried and left out: docs/figures/strength.md.

Budget: `iterations` per move, or `seconds` per move (then the iterations depend on the machine).

`evaluate` gives every move's value from the same search, with its standard error: the hints
are this bot's choice, and the analysis judges a move by this search with a larger budget, so
the three agree.

Where the native engine is in use the search runs in the native core (`search.native`): the
same iterations on the same deals from the same random source, so the same values and choice.
"""

from __future__ import annotations

import math
import random
import time
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from exact61.bots.ismcts import Node
from exact61.core import Action, Play, SeatView
from exact61.core.engine import TO_ACT, Position, choices, distinct_moves, move_class, redeal
from exact61.core.settlement import kept, side_of
from exact61.core.tiles import TILE_INDEX
from exact61.search.equity import EquityTable, default_table
from exact61.search.evaluate import (
    Evaluation,
    MoveEquity,
    exact_limit,
    paired_evaluation,
    solve_exactly,
)
from exact61.search.native import native_core, restore, seen, state_of
from exact61.search.sampler import (
    Knowledge,
    choices_of,
    knowledge_of,
    position_of,
    sample_indices,
    sample_weighted,
)
from exact61.search.solver import Solver

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

DEFAULT_ITERATIONS = 1000
# UCB's exploration in standard deviations of the rewards seen in this search: a round's end is
# worth much less spread at 0-0 (about 0.09) than at 59-59 (about 0.37). `ismcts` explores with
# 0.7 against rewards spread about 0.16, 4.4 of their standard deviations; so does this bot.
EXPLORATION = 4.4
PRIOR_SPREAD = 0.15  # until the search has seen enough rewards to measure their spread
# From this many visits on, a node of the other side picks their reply by UCB, not by the rollout
# policy: early, UCB would pick almost uniformly; later, the policy's fixed replies make an
# opponent who never learns.
OPPONENT_VISITS = 50
EPSILON = 0.25  # the rollout's chance of a random move, else the greedy one
TRIES = 8  # deals drawn for one kept by how well it explains the others' choices
SOLVE_NODES = 50_000  # the exact solve's budget, when nothing is hidden (`search.evaluate`)


class ExpertBot:
    """Expert: ISMCTS valued by match equity, with the exact solver at 2 players once the boneyard
    is empty (see the module)."""

    name = "expert"

    def __init__(
        self,
        rng: random.Random,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        solve_nodes: int = SOLVE_NODES,
        table: EquityTable | None = None,
    ) -> None:
        self._rng = rng
        self.iterations = iterations
        self.seconds = seconds
        self.solve_nodes = solve_nodes
        self.table = table or default_table()  # loaded once per process, not while thinking
        self.last_iterations = 0
        self.last_solved = False
        self._root = Node()
        self._tree: Any = None  # a native search's tree (`SearchTree`), made into nodes when asked
        self._spread: list[float] = [0, 0.0, 0.0]

    @property
    def last_root(self) -> Node:
        """The last search's tree (diagnostics)."""
        if self._tree is not None:
            self._root, self._tree = tree_of(self._tree.rows()), None
        return self._root

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(choices(legal)) == 1:  # perhaps at several places
            self.last_iterations = 0
            self.last_solved = False
            return legal[0]
        return self.evaluate(view, every_move=False).best.action

    def evaluate(self, view: SeatView, *, every_move: bool = True) -> Evaluation:
        """Every distinct legal move (two or more) of the seat to act, best first, valued by
        this bot's search: its chance to win the match after each move, with a standard error.

        Solved exactly (method `exact`, no error) with 2 players once the boneyard is empty,
        when that fits the budget; else searched (method `search`): a move's value is the mean
        of its rollouts, one on each sampled deal, its error and that of its loss against the
        best from their spread over the deals (paired: every move sees the same deals).
        `every_move=False`, as `choose` asks: a solved position values only the best move."""
        legal = view.legal_actions
        moves = choices(legal)  # one action per class of equivalent moves, in legal order
        if len(moves) < 2:
            raise ValueError("one move only: there is nothing to compare")
        self.last_iterations = 0
        self.last_solved = False
        started = time.perf_counter()
        limit = exact_limit(self.solve_nodes, self.seconds)
        solved = solve_exactly(view, limit, self.table, every_move=every_move)
        if solved is not None:
            self.last_solved = True
            return solved
        knowledge = knowledge_of(view)
        native = native_core()
        if native is not None:
            return self._natively(native, view, moves, knowledge, started)
        leaf = self.table.leaf(view.players)
        seat = view.seat
        template = position_of(view)
        solver = Solver(template, leaf)
        # The root's moves by class: each stands for its first legal action (`moves`).
        first_moves = {move_class(m): m for m in distinct_moves(template)}
        root = Node()
        rng = self._rng
        deadline = None if self.seconds is None else started + self.seconds
        inferred = choices_of(view, before_draws=True)
        n = 0
        self._spread = [0, 0.0, 0.0]  # rewards seen: count, mean, sum of squared deviations
        deals: list[dict[int, tuple[float, ...]]] = []  # paired: each root move's value a deal
        while n < self.iterations and (
            deadline is None or n == 0 or time.perf_counter() < deadline
        ):
            if inferred:
                hidden, boneyard = sample_weighted(knowledge, inferred, rng, TRIES)
            else:
                hidden, boneyard = sample_indices(knowledge, rng)
            hidden[seat] = [TILE_INDEX[t] for t in view.hand]
            position = redeal(template, hidden, boneyard)
            # Every root move on this deal: their differences lose its luck.
            deal: dict[int, tuple[float, ...]] = {}
            for first in moves:
                if n and deadline is not None and time.perf_counter() >= deadline:
                    break
                deal[first] = self._iterate(root, solver, position, first_moves[first])
                n += 1
            if len(deal) == len(moves):
                deals.append(deal)
        self.last_iterations = n
        self._root, self._tree = root, None
        import numpy as np  # not at import: see search.evaluate

        values = np.array([[deal[m] for m in moves] for deal in deals], dtype=np.float64)
        return _ranked(
            moves,
            root,
            values.reshape(len(deals), len(moves), solver.sides),
            view,
            solver.sides,
        )

    def _natively(
        self,
        native: Any,
        view: SeatView,
        moves: dict[int, Action],
        knowledge: Knowledge,
        started: float,
    ) -> Evaluation:
        """`evaluate`'s search in the native core (`exact61.core._native.expert_evaluate`):
        the same settings, random source and deals, so the same result."""
        inferred = choices_of(view, before_draws=True)
        seconds = None if self.seconds is None else self.seconds - (time.perf_counter() - started)
        settings = SimpleNamespace(
            iterations=self.iterations,
            seconds=seconds,
            exploration=EXPLORATION,
            epsilon=EPSILON,
            tries=TRIES,
            opponent_visits=OPPONENT_VISITS,
        )
        tree, deals, n, state = native.expert_evaluate(
            seen(view, knowledge),
            [(c.seat, c.base, list(c.alt)) for c in inferred],
            list(moves),
            self.table.native,
            settings,
            state_of(self._rng),
        )
        restore(self._rng, state)
        self.last_iterations = n
        self._tree = tree
        root = Node()  # the root's children alone: what `_ranked` reads
        for key, visits, available, reward in tree.root():
            child = root.children[key] = Node()
            child.visits, child.available, child.reward = visits, available, reward
        sides = len(view.scores)
        return _ranked(moves, root, deals, view, sides)

    def _iterate(
        self, root: Node, solver: Solver, position: Position, first: int | None = None
    ) -> tuple[float, ...]:
        """One descent from the root (through its move `first` when given) and one rollout;
        returns every side's reward. The tree's children are move classes
        (`engine.move_class`)."""
        rng = self._rng
        players = solver.players
        root_side = side_of(players, position[TO_ACT])
        node = root
        path: list[tuple[Node, int]] = []
        rewards: tuple[float, ...] | None = None
        next_position: Position | None = position
        while rewards is None:
            assert next_position is not None
            position = next_position
            moves = distinct_moves(position)
            if len(moves) == 1:  # forced: no choice to learn
                rewards, next_position = solver.play(position, moves[0])
                continue
            side = side_of(players, position[TO_ACT])
            if first is not None:
                m, first = first, None
                key = move_class(m)
                child = node.children.get(key)
                expanded = child is None
                if child is None:
                    child = node.children[key] = Node()
                node = child
            elif side != root_side:
                m, node, expanded = self._reply(node, solver, position, moves)
            else:
                keys = [move_class(m) for m in moves]
                key, node, expanded = node.step(keys, rng, self._exploration())
                m = moves[keys.index(key)]
            path.append((node, side))
            rewards, next_position = solver.play(position, m)
            if expanded:
                if rewards is None:
                    assert next_position is not None
                    rewards = solver.rollout(next_position, rng, EPSILON)
                break
        for node_, side in path:
            node_.visits += 1
            node_.reward += rewards[side]
        if path:  # Welford's running variance of the rewards of the first mover's side
            stats = self._spread
            stats[0] += 1
            x = rewards[path[0][1]]
            delta = x - stats[1]
            stats[1] += delta / stats[0]
            stats[2] += delta * (x - stats[1])
        return rewards

    def _exploration(self) -> float:
        """UCB's exploration, scaled by the spread of the rewards seen so far."""
        count, _, squares = self._spread
        spread = math.sqrt(squares / count) if count >= 30 else PRIOR_SPREAD
        return EXPLORATION * max(spread, 0.01)

    def _reply(
        self, node: Node, solver: Solver, position: Position, moves: list[int]
    ) -> tuple[int, Node, bool]:
        """The other side's move at `node` (see `opponent`): the move, the child taken and
        whether it is new. The rollout policy's on their sampled hand until the node has
        `opponent_visits` visits, then UCB's over their replies, the untried first in the
        policy's order."""
        rng = self._rng
        children = node.children
        learns = OPPONENT_VISITS > 0
        if learns:  # UCB will read it; a node may be either side's, so only then
            for m in moves:
                child = children.get(move_class(m))
                if child is not None:
                    child.available += 1
        if learns and node.visits >= OPPONENT_VISITS:
            ranked = solver.ranked_moves(position, moves)
            for m in ranked:
                key = move_class(m)
                if key not in children:
                    new = children[key] = Node()
                    new.available = 1
                    return m, new, True
            c = self._exploration()
            best_score, chosen = -math.inf, ranked[0]
            for m in ranked:  # every child has a visit: its iteration backed it up
                child = children[move_class(m)]
                score = child.reward / child.visits + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                score += rng.random() * 1e-9  # ties at random
                if score > best_score:
                    best_score, chosen = score, m
            return chosen, children[move_class(chosen)], False
        if rng.random() < EPSILON:  # the rollout's policy, on its sampled hand
            m = moves[rng.randrange(len(moves))]
        else:
            m = solver.greedy_move(position, moves)
        key = move_class(m)
        if key in children:
            return m, children[key], False
        new = children[key] = Node()
        new.available = int(learns)
        return m, new, True


TreeRows = list[tuple[int, int, float, list[tuple[int, int]]]]
"""A native search's tree: each node's visits, availability, reward and children (class,
index); node 0 is the root."""


def tree_of(rows: TreeRows) -> Node:
    """A native search's tree as nodes."""
    nodes = [Node() for _ in rows]
    for node, (visits, available, reward, children) in zip(nodes, rows, strict=True):
        node.visits, node.available, node.reward = visits, available, reward
        for key, index in children:
            node.children[key] = nodes[index]
    return nodes[0]


def _ranked(
    moves: dict[int, Action],
    root: Node,
    deals: npt.NDArray[np.float64],
    view: SeatView,
    sides: int,
) -> Evaluation:
    """The root's moves as an `Evaluation`, best first by their mean reward; of equal means,
    the one whose credit the side keeps now (R4, R15) first, so that of two moves that win
    alike the one that wins at once is played (a move that lands on exactly 61 and one that
    only keeps the win in reach are both worth 1 once the other side cannot catch up). Values
    and their standard errors come from the deals every move saw; with no complete deal (a
    time budget spent within the first), each move's mean alone."""
    children = root.children
    side = view.side
    score = view.scores[side]
    now = {
        m: kept(score, view.layout.credit_after(a.tile, a.at)) if isinstance(a, Play) else 0
        for m, a in moves.items()
    }

    def rank(m: int) -> tuple[float, int]:
        child = children.get(m)
        if child is None or not child.visits:
            return -1.0, now[m]
        return child.reward / child.visits, now[m]

    order = sorted(moves, key=rank, reverse=True)
    if len(deals):
        return paired_evaluation(deals, moves, side, "search", order=order)
    values: dict[int, tuple[float, ...]] = {}
    for m in moves:
        child = children.get(m)
        mean = child.reward / child.visits if child is not None and child.visits else math.nan
        values[m] = tuple(mean if s == side else math.nan for s in range(sides))
    best = values[order[0]][side]
    ranked = tuple(
        MoveEquity(moves[m], values[m][side], 0.0, values[m], best - values[m][side]) for m in order
    )
    return Evaluation(ranked, "search", len(deals), 0.0)
