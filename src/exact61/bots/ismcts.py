"""`ismcts`: single-observer information-set Monte Carlo tree search (Cowling, Powley, Whitehouse
2012) over deals sampled consistently with the seat's view.

Each iteration samples the hidden hands and boneyard (`sampler.sample_deal`), descends one tree
shared by all samples (actions absent from a sample are skipped; UCB counts how often a child was
available), expands one action, and plays the round out with an epsilon-greedy policy. A tree
node's children are moves, not attach points: equivalent placements (`armA` and `armB` of one
spinner, the line sides of an opening double, free ends of one value) share one child
(`engine.move_class`), so their visits add up instead of splitting. The
rollout applies the real rules, so credits that would pass 61 are rejected there too (R4): the
search learns to land exactly on 305 and to avoid wasted credits. A rollout ends with the round:
a side that reaches 305 scores 1, the others 0; otherwise each side scores by its gain against
the others'.

The budget is a number of iterations, so a seed gives the same choice every time; `seconds`
adds a wall-clock cap (then choices depend on the machine's speed).

Where the native engine is in use the search runs in the native core (`search.native`), the
same iterations on the same deals from the same random source: the same choice.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection
from typing import TypeVar

from exact61.bots.simple import greedy_rank
from exact61.core import Action, SeatView
from exact61.core.engine import (
    DRAW,
    END,
    MOVE_STRIDE,
    PLAYERS,
    SCORES,
    TO_ACT,
    Position,
    choices,
    credit_of,
    legal_moves,
    move_class,
    move_of,
    play,
    redeal,
    won_by,
)
from exact61.core.settlement import side_count, side_of
from exact61.core.tiles import PIPS, TILE_INDEX
from exact61.search.native import native_core, restore, seen, state_of
from exact61.search.sampler import knowledge_of, position_of, sample_indices

T = TypeVar("T", int, Action)

DEFAULT_ITERATIONS = 1000


class Node:
    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}  # by the class of the move leading there
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed reward of the side that chose the action leading here

    def step(self, moves: Collection[int], rng: random.Random, c: float) -> tuple[int, Node, bool]:
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
            child = children[key] = Node()
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


def _rollout_move(position: Position, rng: random.Random, epsilon: float) -> int:
    """Epsilon-greedy: a random legal move, else the one greedy plays."""
    legal = legal_moves(position)
    if len(legal) == 1 or rng.random() < epsilon:
        return legal[rng.randrange(len(legal))]
    seat = position[TO_ACT]
    score = position[SCORES][side_of(position[PLAYERS], seat)]
    best, best_worth = legal[0], (-1, -1)
    for move in legal:
        pips = PIPS[move // MOVE_STRIDE] if move < DRAW else 0
        worth = greedy_rank(credit_of(position, move), pips, score)
        if worth > best_worth:  # as greedy plays
            best, best_worth = move, worth
    return best


def _rewards(position: Position, start: tuple[int, ...]) -> list[float]:
    sides = side_count(position[PLAYERS])
    winner = won_by(position)
    if winner is not None:
        return [1.0 if s == winner else 0.0 for s in range(sides)]
    scores = position[SCORES]
    gains = [scores[s] - start[s] for s in range(sides)]
    out = []
    for s in range(sides):
        others = max(gains[o] for o in range(sides) if o != s)
        out.append(0.5 + 0.5 * math.tanh((gains[s] - others) / 60.0))
    return out


class ISMCTSBot:
    """Information-set MCTS with a fixed iteration budget per decision."""

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

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(choices(legal)) == 1:  # one move, perhaps at several equivalent attach points
            return legal[0]
        rng = self._rng
        knowledge = knowledge_of(view)
        native = native_core()
        if native is not None:
            found, self.last_iterations, state = native.ismcts_search(
                seen(view, knowledge),
                state_of(rng),
                self.iterations,
                self.seconds,
                self.exploration,
                self.epsilon,
            )
            restore(rng, state)
            counts = dict(found)
            return max(legal, key=lambda action: counts.get(move_class(move_of(action)), -1))
        # Searched as a match lists its moves, so a seeded search plays the same moves.
        template = position_of(view, book=True)
        own = [TILE_INDEX[t] for t in view.hand]
        root = Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        n = 0
        while n < self.iterations and (deadline is None or time.perf_counter() < deadline):
            hidden, boneyard = sample_indices(knowledge, rng)
            hidden[view.seat] = own
            self.iterate(root, redeal(template, hidden, boneyard), view.scores)
            n += 1
        self.last_iterations = n
        children = root.children

        def visits(action: Action) -> int:
            child = children.get(move_class(move_of(action)))
            return -1 if child is None else child.visits

        return max(legal, key=visits)

    def iterate(self, root: Node, position: Position, start: tuple[int, ...]) -> None:
        """One iteration on a sampled deal: down the tree, one new node, a rollout, back up."""
        rng = self._rng
        node = root
        path: list[tuple[Node, int]] = []
        players = position[PLAYERS]
        while not position[END]:
            legal = legal_moves(position)
            moves = choices(legal)
            if len(moves) == 1:  # forced: no choice to learn
                play(position, legal[0])
                continue
            seat = position[TO_ACT]
            key, node, expanded = node.step(moves, rng, self.exploration)
            path.append((node, side_of(players, seat)))
            play(position, moves[key])
            if expanded:
                break
        while not position[END]:  # the rollout, to the end of the round
            play(position, _rollout_move(position, rng, self.epsilon))
        rewards = _rewards(position, start)
        for node_, side in path:
            node_.visits += 1
            node_.reward += rewards[side]
