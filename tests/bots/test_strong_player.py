"""What a strong player testing the expert expects of it (issue 42): it never passes up a certain
exact finish (R30: a placement whose credit lands its side on exactly 61, whatever the hidden
tiles), at every player count, and at 4 players that is its side's finish, the partner's points
counted (R2). Positions come from `heuristic` self-play, where such chances arise."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from exact61 import Action, Match, Play, replay
from exact61.bots import make_bot
from exact61.bots.expert import ExpertBot
from exact61.core.engine import choices
from exact61.core.settlement import PlayEvent

DATA = Path(__file__).parent / "data"


def wins_at_once(match: Match, action: Action) -> bool:
    """Whether `action` wins the match for the side to act by its placement's credit alone: a
    win no hidden tile can change (a round's end would add the others' pips, R19-R21)."""
    assert match.to_act is not None
    side = match.side_of(match.to_act)
    after = match.copy()
    events = after.apply(action)
    return after.winner == side and all(isinstance(e, PlayEvent) for e in events)


def finishes(players: int, wanted: int) -> Iterator[tuple[Match, set[str]]]:
    """`wanted` moments of heuristic self-play at which the seat to act has a move that wins at
    once and one that does not, with the winning moves."""
    rng = random.Random(players)
    found = 0
    for game in range(10_000):
        match = Match(players)
        bots = [make_bot("heuristic", random.Random(f"{game}:{s}")) for s in range(players)]
        while not match.is_over:
            if match.to_act is None:
                match.deal_next_round(rng)
                continue
            legal = match.legal_actions()
            if len(choices(legal)) > 1:
                winning = {str(a) for a in legal if wins_at_once(match, a)}
                if winning and len(winning) < len(legal):
                    yield match.copy(), winning
                    found += 1
                    if found == wanted:
                        return
            match.apply(bots[match.to_act].choose(match.view(match.to_act)))
    raise AssertionError("too few finishes in heuristic self-play")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_expert_takes_a_certain_exact_finish(players: int) -> None:
    taken = []
    for k, (match, winning) in enumerate(finishes(players, 30)):
        assert match.to_act is not None
        view = match.view(match.to_act)
        taken.append(str(ExpertBot(random.Random(k)).choose(view)) in winning)
    assert all(taken), taken


def test_of_two_moves_that_win_alike_the_one_that_wins_now() -> None:
    """Seat 1 at 300 raw with the other side at 150: `[1|6] at [2|6]` scores 5 and wins at once;
    after `[6|6] at [2|6]`, which scores nothing, every rollout of the search still wins, so
    both are worth 1. The expert plays the one that wins now (once it played the other)."""
    fixture = json.loads((DATA / "win_at_once.json").read_text())
    match = replay(fixture["record"])
    view = match.view(1)
    assert match.scores == (150, 300) and match.to_act == 1
    evaluation = ExpertBot(random.Random(fixture["expert_seed"])).evaluate(view)
    assert [m.equity for m in evaluation.moves] == [1.0, 1.0]  # the tie this test is about
    best = evaluation.best.action
    assert isinstance(best, Play) and str(best) == "[1|6] at [2|6] high"
    assert wins_at_once(match, best)
