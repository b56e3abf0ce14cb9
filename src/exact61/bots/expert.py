"""`equity`: information-set MCTS that values a round's end by the match equity table, plays on the
solver's small state, and solves the round exactly when nothing is hidden.

Like `ismcts` (one tree over deals sampled consistently with the view, UCB over the moves each
sample allows, equivalent placements sharing one child, an epsilon-greedy rollout to the round's
end under the real rules), with these differences:

- A rollout's end is worth each side's chance to win the match (`analysis.equity`): from the new
  scores, with the next round's opener (R8), and 1 for a match won at exactly 61. Today's
  `ismcts` scores a round by a tanh of the points gained, which cannot tell 10 points landing on
  61 from 10 points that are rejected (R4), nor a lead of 20 at 10-30 from one at 40-60.
- It plays on `analysis.solver`'s packed state (hands as bit masks, the layout as the rules score
  it) instead of copying a `Match` per sample, so it gets through about twice the iterations in
  the same time.
- With 2 players and an empty boneyard the other hand is known: it searches the rest of the round
  exactly (alpha-beta over the same values) and plays the best move, when that fits in its
  budget; otherwise it searches as above.
- It reads the others' choices (`inference=1.0`, `sampler.choices_of`): a seat that placed a
  tile scoring nothing while a tile scoring 15 was in its hand played against the odds, so deals
  are sampled in proportion to how likely they make every placement the others chose (a softmax
  over each move's credit, R15, doubles favoured; `sampler.sample_weighted`). `ismcts`'s own
  choices fit that model with a log-loss of 0.65 a choice against 0.87 for a uniform guess.
- Paired root (`paired`): each sampled deal is searched once under every root move, and the
  best mean is played, so the moves are compared on the same deals.
- The other side's moves in the tree are played by the rollout's policy on their sampled hand
  (`opponent`), not chosen by UCB: with a few hundred iterations UCB picks their replies
  almost uniformly, so a move leaving them 20 points looked as good as one leaving them none.
  Once such a node has `opponent_visits` (50) visits, UCB takes over there, trying their
  untried replies in the policy's order: a fixed policy never learns the reply that hurts.

None of the last three measured better alone (2 players, 0.02 s a move, 400 matches on the
tuning bench's deals, `benchmarks/bench_equity_variants.py`: each within the ±5 points of noise
of the bot without it); together they won 59.0%, 55.8% and 56.5% of 400 where the bot without
them won 54.8%, 50.5% and 54.0% on the same deals (57.1% against 53.1% over 1,200: about two
standard errors), and 59.2% (55.2-63.0%) of the 2-player tournament's 600 (54.3% before), 57.5%
of its 200 at 4 players (issue 12). `inference=0, paired=False, opponent=False` is the bot before.
That edge shrank as both bots thought longer (51.2% at 0.05 s a move, 54.0% over 700 matches at
about 0.08 s) until the other side's nodes switched to UCB at 50 visits (`opponent_visits`):
at about 0.08 s a move (1500 iterations against `ismcts`'s 1000) it won 60.8% (56.5-65.0%) of
500 matches where the bot without the switch won 53.4% on the same deals, and 63.0% of 200 on
fresh deals; at 0.02 s, 58.0% of 1,200, level with the bot before (README, "Strength of the
equity bot").
`opponent_visits=0` is the bot before the switch.

Tried for issue 12 and left out (each within noise of the bot before on the same deals, so not
kept as code; README): progressive bias from a move's R4-aware credit; rollouts that look one
reply ahead; the same rollout randomness for every root move; the best mean among the
well-visited root moves instead of the most visited; blending the equity with `ismcts`'s
points reward; for the other side's replies, a gradual switch to UCB (with chance n / (n + 100)
at n visits), progressive widening over the policy's best ceil(sqrt(n)) replies.

Against a 6,000-iteration paired search over the same values, the search before at 0.02 s a
move played the same move at 85% of decisions and gave away 0.15 ± 0.03 percentage points of
match-winning chance a decision (the bench's `--regret 240`): faster search over the same values
has little left to win; what the moves are compared against (the deals, the others' replies)
matters more.

Budget: `iterations` per move, or `seconds` per move (then the iterations depend on the machine).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from exact61.bots.ismcts import _Node
from exact61.core import Action, SeatView
from exact61.core.settlement import side_of
from exact61.core.tiles import TILE_INDEX
from exact61.search.abstract import index_mask, placement_key, tile_mask
from exact61.search.equity import EquityTable, default_table
from exact61.search.sampler import (
    CHOICE_DOUBLE_BONUS,
    CHOICE_TEMPERATURE,
    choices_of,
    knowledge_of,
    sample_indices,
    sample_weighted,
)
from exact61.search.solver import Position, SearchLimit, Solver, State, pack_layout

DEFAULT_ITERATIONS = 1000
# UCB's exploration in standard deviations of the rewards seen in this search: a round's end is
# worth much less spread at 0-0 (about 0.09) than at 59-59 (about 0.37). `ismcts` explores with
# 0.7 against rewards spread about 0.16, 4.4 of their standard deviations; so does this bot.
# (2.5 did as well within noise, with and without `inference`: README, issue 12.)
EXPLORATION = 4.4
PRIOR_SPREAD = 0.15  # until the search has seen enough rewards to measure their spread
# From this many visits on, a node of the other side picks their reply by UCB, not by the rollout
# policy: early, UCB would pick almost uniformly; later, the policy's fixed replies make an
# opponent who never learns, and the edge over `ismcts` shrank with thinking time (issue 12).
OPPONENT_VISITS = 50
SOLVER_NODES_PER_SECOND = 100_000  # a cautious rate: the exact solve takes at most half the time


class EquityBot:
    """Expert: ISMCTS valued by match equity, with the exact solver at 2 players once the boneyard
    is empty (see the module)."""

    name = "equity"

    def __init__(
        self,
        rng: random.Random,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = EXPLORATION,
        epsilon: float = 0.25,
        solve_nodes: int = 50_000,
        table: EquityTable | None = None,
        inference: float = 1.0,
        temperature: float = CHOICE_TEMPERATURE,
        tries: int = 8,
        before_draws: bool = True,
        double_bonus: float = CHOICE_DOUBLE_BONUS,
        paired: bool = True,
        opponent: bool = True,
        opponent_visits: int = OPPONENT_VISITS,
    ) -> None:
        self._rng = rng
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.epsilon = epsilon
        self.solve_nodes = solve_nodes
        self.inference = inference
        self.temperature = temperature
        self.tries = tries
        self.before_draws = before_draws
        self.double_bonus = double_bonus
        self.paired = paired
        self.opponent = opponent
        self.opponent_visits = opponent_visits
        self.table = table or default_table()  # loaded once per process, not while thinking
        self.last_iterations = 0
        self.last_solved = False
        self.last_root = _Node()  # the last search's tree (diagnostics)
        self._spread: list[float] = [0, 0.0, 0.0]

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        moves: dict[int, Action] = {}
        for action in legal:
            moves.setdefault(placement_key(action), action)
        self.last_iterations = 0
        self.last_solved = False
        if len(moves) == 1:  # one move, perhaps at several equivalent attach points
            return legal[0]
        started = time.perf_counter()
        leaf = self.table.leaf(view.players)
        knowledge = knowledge_of(view)
        assert view.to_act is not None and view.opener is not None
        ends, doubles, end_sum, open_, opened = pack_layout(view.layout)
        pending = -1 if view.pending_draw is None else TILE_INDEX[view.pending_draw]
        own = tile_mask(view.hand)
        seat = view.seat
        if view.players == 2 and view.boneyard_size == 0:  # nothing is hidden
            hands = [0, 0]
            hands[seat] = own
            hands[1 - seat] = tile_mask(knowledge.unseen)
            position = Position(
                2, tuple(hands), ends, doubles, end_sum, view.scores, view.to_act, view.opener,
                (), 0, pending, opened,
            )  # fmt: skip
            limit = self.solve_nodes
            if self.seconds is not None:
                limit = max(1000, int(self.seconds * 0.5 * SOLVER_NODES_PER_SECOND))
            try:
                move, _ = Solver(position, leaf, node_limit=limit).best_move()
            except SearchLimit:
                pass
            else:
                self.last_solved = True
                return moves[move]
        engine = Solver(
            Position(
                view.players, (), ends, doubles, end_sum, view.scores, view.to_act, view.opener
            ),
            leaf,
        )
        root = _Node()
        rng = self._rng
        deadline = None if self.seconds is None else started + self.seconds
        choices = (
            choices_of(view, self.temperature, self.before_draws, self.double_bonus)
            if self.inference > 0
            else ()
        )
        n = 0
        self._spread = [0, 0.0, 0.0]  # rewards seen: count, mean, sum of squared deviations
        while n < self.iterations and (
            deadline is None or n == 0 or time.perf_counter() < deadline
        ):
            if choices:
                hidden, boneyard = sample_weighted(
                    knowledge, choices, rng, self.tries, self.inference
                )
            else:
                hidden, boneyard = sample_indices(knowledge, rng)
            hands_ = tuple(own if s == seat else index_mask(h) for s, h in enumerate(hidden))
            engine._bone = tuple(boneyard)
            state: State = (
                hands_, ends, doubles, end_sum, open_, view.scores, view.to_act, 0, pending,
                opened,
            )  # fmt: skip
            if self.paired:  # every root move on this deal: their differences lose its luck
                for first in moves:
                    if n and deadline is not None and time.perf_counter() >= deadline:
                        break
                    self._iterate(root, engine, state, first)
                    n += 1
                continue
            self._iterate(root, engine, state)
            n += 1
        self.last_iterations = n
        children = root.children
        self.last_root = root
        if self.paired:  # equal visits: the best mean
            return moves[
                max(
                    moves,
                    key=lambda m: children[m].reward / children[m].visits if m in children else -1,
                )
            ]
        best = max(moves, key=lambda m: children[m].visits if m in children else -1)
        return moves[best]

    def _iterate(self, root: _Node, engine: Solver, state: State, first: int | None = None) -> None:
        """One descent from the root (through its move `first` when given) and one rollout."""
        rng = self._rng
        players = engine.players
        root_side = side_of(players, state[6])
        node = root
        path: list[tuple[_Node, int]] = []
        rewards: tuple[float, ...] | None = None
        next_state: State | None = state
        while rewards is None:
            assert next_state is not None
            state = next_state
            moves = engine.moves(state)
            if len(moves) == 1:  # forced: no choice to learn
                rewards, next_state = engine.play(state, moves[0])
                continue
            side = side_of(players, state[6])
            if first is not None:
                m, first = first, None
                child = node.children.get(m)
                expanded = child is None
                if child is None:
                    child = node.children[m] = _Node()
                node = child
            elif self.opponent and side != root_side:
                m, node, expanded = self._reply(node, engine, state, moves)
            else:
                m, node, expanded = node.step(moves, rng, self._exploration())
            path.append((node, side))
            rewards, next_state = engine.play(state, m)
            if expanded:
                if rewards is None:
                    assert next_state is not None
                    rewards = engine.rollout(next_state, rng, self.epsilon)
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

    def _exploration(self) -> float:
        """UCB's exploration, scaled by the spread of the rewards seen so far."""
        count, _, squares = self._spread
        spread = math.sqrt(squares / count) if count >= 30 else PRIOR_SPREAD
        return self.exploration * max(spread, 0.01)

    def _reply(
        self, node: _Node, engine: Solver, state: State, moves: list[int]
    ) -> tuple[int, _Node, bool]:
        """The other side's move at `node` (see `opponent`): the child taken and whether it is
        new. The rollout policy's on their sampled hand until the node has `opponent_visits`
        visits, then UCB's over their replies, the untried first in the policy's order."""
        rng = self._rng
        children = node.children
        learns = self.opponent_visits > 0
        if learns:  # UCB will read it; a node may be either side's, so only then
            for k in moves:
                if k in children:
                    children[k].available += 1
        if learns and node.visits >= self.opponent_visits:
            ranked = engine.ranked_moves(state, moves)
            for k in ranked:
                if k not in children:
                    new = children[k] = _Node()
                    new.available = 1
                    return k, new, True
            c = self._exploration()
            best_score, chosen = -math.inf, ranked[0]
            for k in ranked:  # every child has a visit: its iteration backed it up
                child = children[k]
                score = child.reward / child.visits + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                score += rng.random() * 1e-9  # ties at random
                if score > best_score:
                    best_score, chosen = score, k
            return chosen, children[chosen], False
        if rng.random() < self.epsilon:  # the rollout's policy, on its sampled hand
            m = moves[rng.randrange(len(moves))]
        else:
            m = engine.greedy_move(state, moves)
        if m in children:
            return m, children[m], False
        new = children[m] = _Node()
        new.available = int(learns)
        return m, new, True
