"""`ismcts`: single-observer information-set Monte Carlo tree search (Cowling, Powley, Whitehouse
2012) over deals sampled consistently with the seat's view.

Each iteration samples the hidden hands and boneyard (`sampler.sample_deal`), descends one tree
shared by all samples (actions absent from a sample are skipped; UCB counts how often a child was
available), expands one action, and plays the round out with an epsilon-greedy policy. A tree
node's children are moves, not attach points: equivalent placements (`armA` and `armB` of one
spinner, the line sides of an opening double, free ends of one value) share one child
(`analysis.abstract.placement_key`), so their visits add up instead of splitting. The
rollout applies the real rules, so credits that would pass 61 are rejected there too (R4): the
search learns to land exactly on 305 and to avoid wasted credits. A rollout ends with the round:
a side that reaches 305 scores 1, the others 0; otherwise each side scores by its gain against
the others'.

The budget is a number of iterations, so a seed gives the same choice every time; `seconds`
adds a wall-clock cap (then choices depend on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Sequence

from exact61.bots.simple import greedy_rank
from exact61.core import Action, Match, Phase, Play, SeatView
from exact61.core.settlement import side_count, side_of
from exact61.search.abstract import placement_key
from exact61.search.sampler import determinize, knowledge_of, sample_deal

DEFAULT_ITERATIONS = 1000


class _Node:
    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}  # by placement_key
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed reward of the side that chose the action leading here

    def step(self, moves: Collection[int], rng: random.Random, c: float) -> tuple[int, _Node, bool]:
        """One step down the tree over the moves this sample allows: each existing child counts
        as available once more; an untried move is expanded at random (True), else the child
        with the best UCB score (exploration `c`) is taken (False)."""
        children = self.children
        untried = [k for k in moves if k not in children]
        for k in moves:
            child = children.get(k)
            if child is not None:
                child.available += 1
        if untried:
            key = untried[rng.randrange(len(untried))]
            child = children[key] = _Node()
            child.available = 1
            return key, child, True
        best_score, chosen = -1.0, next(iter(moves))
        for k in moves:
            child = children[k]
            score = child.reward / child.visits + c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best_score, chosen = score, k
        return chosen, children[chosen], False


def _moves(legal: Sequence[Action]) -> dict[int, Action]:
    """One action per distinct move, the first of its equivalent placements, in legal order."""
    moves: dict[int, Action] = {}
    for action in legal:
        moves.setdefault(placement_key(action), action)
    return moves


def _rollout_choice(match: Match, rng: random.Random, epsilon: float) -> Action:
    legal = match.legal_actions()
    if len(legal) == 1 or rng.random() < epsilon:
        return legal[rng.randrange(len(legal))]
    seat = match.to_act
    assert seat is not None
    score = match.scores[side_of(match.players, seat)]
    best, best_worth = legal[0], (-1, -1)
    for action, credit in zip(legal, match.legal_credits(), strict=True):
        worth = greedy_rank(credit, action.tile.pips if isinstance(action, Play) else 0, score)
        if worth > best_worth:  # as greedy plays
            best, best_worth = action, worth
    return best


def _rewards(match: Match, start: tuple[int, ...]) -> list[float]:
    sides = side_count(match.players)
    if match.winner is not None:
        return [1.0 if s == match.winner else 0.0 for s in range(sides)]
    gains = [match.scores[s] - start[s] for s in range(sides)]
    out = []
    for s in range(sides):
        others = max(gains[o] for o in range(sides) if o != s)
        out.append(0.5 + 0.5 * math.tanh((gains[s] - others) / 60.0))
    return out


class ISMCTSBot:
    """Expert: information-set MCTS with a fixed iteration budget per decision."""

    name = "ismcts"

    def __init__(
        self,
        rng: random.Random,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = 0.7,
        epsilon: float = 0.25,
    ) -> None:
        self._rng = rng
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.epsilon = epsilon
        self.last_iterations = 0

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if len(_moves(legal)) == 1:  # one move, perhaps at several equivalent attach points
            return legal[0]
        rng = self._rng
        knowledge = knowledge_of(view)
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        n = 0
        while n < self.iterations and (deadline is None or time.perf_counter() < deadline):
            state = determinize(view, sample_deal(view, rng, knowledge))
            self._iterate(root, state, view.scores)
            n += 1
        self.last_iterations = n
        children = root.children
        return max(
            legal, key=lambda a: children[k].visits if (k := placement_key(a)) in children else -1
        )

    def _iterate(self, root: _Node, state: Match, start: tuple[int, ...]) -> None:
        rng = self._rng
        node = root
        path: list[tuple[_Node, int]] = []
        players = state.players
        while state.phase is Phase.PLAY:
            legal = state.legal_actions()
            seat = state.to_act
            assert seat is not None
            moves = _moves(legal)
            if len(moves) == 1:  # forced: no choice to learn
                state.apply(legal[0])
                continue
            key, node, expanded = node.step(moves, rng, self.exploration)
            path.append((node, side_of(players, seat)))
            state.apply(moves[key])
            if expanded:
                break
        while state.phase is Phase.PLAY:  # the rollout, to the end of the round
            state.apply(_rollout_choice(state, rng, self.epsilon))
        rewards = _rewards(state, start)
        for node_, side in path:
            node_.visits += 1
            node_.reward += rewards[side]
