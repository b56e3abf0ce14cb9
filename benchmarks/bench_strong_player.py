"""What a strong player testing the expert looks at (issue 42): does it take a certain exact
finish, and does it let an award be thrown away (R4) where a move that scores was there?

    python benchmarks/bench_strong_player.py --players 2 --positions 40

Moments of `heuristic` self-play (from `--seed`) of two kinds, each position asked of the expert
at its default budget:

- a finish: a move wins the match by its placement's credit alone (R30; no hidden tile can
  change it, unlike a domino's award, R19-R21), and another move does not. Counted: the
  finishes the expert takes.
- an award at stake: a move scores and keeps its award, and another would have its award thrown
  away (R4). Counted: the positions where the expert plays a move whose award is thrown away;
  each of those is searched again with `--recheck` times the budget, to see whether a longer
  search still prefers it and by how much (the chance to win it gives, against the best move
  that scores).

Finishes are far more common than awards at stake, so the run goes on until `--positions` of
the second kind are found, and counts every finish met on the way.
"""

from __future__ import annotations

import argparse
import random

from exact61.bots import make_bot
from exact61.bots.expert import DEFAULT_ITERATIONS, ExpertBot
from exact61.core import Action, Match
from exact61.core.engine import choices
from exact61.core.settlement import PlayEvent


def outcome(match: Match, action: Action) -> tuple[bool, bool, int]:
    """Whether `action` wins at once by its credit, whether an award of the side to act is
    thrown away (R4), and the raw points the side keeps."""
    assert match.to_act is not None
    side = match.side_of(match.to_act)
    after = match.copy()
    events = after.apply(action)
    wins = after.winner == side and all(isinstance(e, PlayEvent) for e in events)
    thrown = any(not e.accepted and e.side == side for e in events)
    return wins, thrown, sum(e.raw for e in events if e.accepted and e.side == side)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--positions", type=int, default=40, help="awards at stake to find")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--recheck", type=int, default=16, help="times the budget, to recheck")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    finishes = taken = at_stake = thrown_away = 0
    game = 0
    while at_stake < args.positions:
        match = Match(args.players)
        bots = [make_bot("heuristic", random.Random(f"{args.seed}:{game}:{s}")) for s in range(4)]
        game += 1
        while not match.is_over:
            if match.to_act is None:
                match.deal_next_round(rng)
                continue
            legal = match.legal_actions()
            seat = match.to_act
            if len(choices(legal)) > 1:
                outs = {a: outcome(match, a) for a in legal}
                view = match.view(seat)
                asked = finishes + at_stake
                if any(o[0] for o in outs.values()) and not all(o[0] for o in outs.values()):
                    finishes += 1
                    taken += outs[ExpertBot(random.Random(asked)).choose(view)][0]
                elif any(o[1] for o in outs.values()) and any(
                    o[2] > 0 and not o[1] for o in outs.values()
                ):
                    at_stake += 1
                    chosen = ExpertBot(random.Random(asked)).choose(view)
                    if outs[chosen][1]:
                        thrown_away += 1
                        longer = ExpertBot(
                            random.Random(asked), iterations=args.recheck * DEFAULT_ITERATIONS
                        ).evaluate(view)
                        scoring = max(
                            (longer.of(a) for a in legal if outs[a][2] > 0 and not outs[a][1]),
                            key=lambda m: m.equity,
                        )
                        print(
                            f"scores {match.scores}: played {chosen} (award thrown away); "
                            f"{args.recheck}x the budget: it gives "
                            f"{100 * longer.of(chosen).equity:.1f}%, the best move that "
                            f"scores {scoring.action} {100 * scoring.equity:.1f}%, "
                            f"the best {longer.best.action}"
                        )
            match.apply(bots[seat].choose(match.view(seat)))
    print(
        f"{args.players} players, {game} matches of heuristic self-play: finishes taken "
        f"{taken} of {finishes}; awards at stake {at_stake}, the expert let one be thrown "
        f"away in {thrown_away}"
    )


if __name__ == "__main__":
    main()
