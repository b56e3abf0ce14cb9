"""How much can a player win against `ismcts` if it sees every tile? A ceiling for issue 25.

    python benchmarks/bench_seer.py --pairs 100 --seconds 0.05 --seer-seconds 0.25
    python benchmarks/bench_seer.py --pairs 100 --seconds 0.05 --seer-seconds 0.05 --sees hands
    python benchmarks/bench_seer.py --pairs 100 --seconds 0.05 --seer-seconds 0.05 --sees nothing
    python benchmarks/bench_seer.py --seer-seconds 0.05 --sees hands --opponent heuristic

The seer cheats: it reads the true hands and the boneyard's true order from the match. On each
decision it solves the rest of the round exactly (`search.solver`, alpha-beta over the match
equity table) when that fits in `--nodes`; otherwise it plays every move on the true position,
then rolls out to the round's end as the searches do (epsilon-greedy), again and again within
`--seer-seconds`, and plays the best mean. Nothing hidden is left for it to guess, so no honest
player of the same search can do better: its win rate against `ismcts` bounds from above what an
expert can reach by knowing the other hand better (inference, sampling), at the same depth of
search. With `--sees hands` it sees every hand but not the boneyard's order: the most that
reading the other's tiles from their play could ever tell. `--sees nothing` is the same search
made honest: its deals sampled from the view as the expert samples them (the others' draws,
passes and choices read), so the rows differ by what the player knows alone. `--opponent`
plays another bot in `ismcts`'s place (a bot as the tournament names it: `heuristic`,
`ismcts:1000`; its ceiling for issue 42's bar against `heuristic`). 2 players; each seed is
played twice with the seats swapped; a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import random
import time
from multiprocessing import Pool

from selfplay import decisions

from exact61.bots import make_bot
from exact61.bots.ismcts import ISMCTSBot
from exact61.core import Action, Match, engines
from exact61.core.engine import BONEYARD, DRAWN, class_of, distinct_moves, move_class, redeal
from exact61.search.equity import default_table
from exact61.search.sampler import choices_of, knowledge_of, sample_weighted
from exact61.search.solver import SearchLimit, Solver
from exact61.tournament.stats import wilson

# The seer's solver and rollouts (`search.solver`) play the Python engine's positions; so do the
# matches here, the opponent's search with them.
engines.use("python")


def seer_choice(
    match: Match,
    legal: list[Action],
    rng: random.Random,
    seconds: float,
    nodes: int,
    sees: str,
) -> tuple[Action, bool]:
    """The seer's move, and whether it was solved exactly. It `sees` `all` (every hand and the
    boneyard's order), `hands` (every hand: the boneyard's tiles are shuffled for every
    rollout) or `nothing` (deals sampled as the expert samples them, for every rollout)."""
    position = match.position()
    seat = match.to_act
    assert position is not None and seat is not None
    side = match.side_of(seat)
    by_class = {class_of(a): a for a in reversed(legal)}  # the first legal action of each class
    left = list(position[BONEYARD][position[DRAWN] :])
    solver = Solver(position, default_table().leaf(match.players), node_limit=nodes)
    if sees == "all" or not left:  # with an empty boneyard, 2 players see every tile
        try:
            move, _ = solver.best_move()
        except SearchLimit:
            pass
        else:
            return by_class[move], True
    moves = distinct_moves(position)
    totals = {m: [0.0, 0] for m in moves}
    hands = [list(match.hand_indices(s)) for s in range(match.players)]
    if sees == "nothing":  # what the seat's view tells of the others' hands, read once
        view = match.view(seat)
        knowledge, choices = knowledge_of(view), choices_of(view, before_draws=True)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if sees == "hands":
            rng.shuffle(left)
            position = redeal(position, hands, left)
        elif sees == "nothing":
            hidden, boneyard = sample_weighted(knowledge, choices, rng)
            hidden[seat] = hands[seat]
            position = redeal(position, hidden, boneyard)
        for m in moves:
            rewards, after = solver.play(position, m)
            if rewards is None:
                assert after is not None
                rewards = solver.rollout(after, rng, 0.25)
            totals[m][0] += rewards[side]
            totals[m][1] += 1
    best = max(moves, key=lambda m: totals[m][0] / max(totals[m][1], 1))
    return by_class[move_class(best)], False


def play(job: tuple[int, bool, str, float, float, int, str]) -> tuple[int, int, int]:
    """1 if the seer wins the match from `seed`; its decisions, and those solved exactly."""
    seed, swap, spec, seconds, seer_seconds, nodes, sees = job
    rng = random.Random(f"{seed}:seer:{swap}")
    other = random.Random(f"{seed}:ismcts:{swap}")
    # ismcts as the figures of 2026-12-04 had it: `seconds` a move, and at most its default
    # iterations (`ismcts@Ns` as the tournament names it has no such cap)
    opponent = make_bot(spec, other) if spec else ISMCTSBot(other, seconds=seconds)
    seer_seat = 1 if swap else 0
    chance = random.Random(seed)
    match = Match(2)
    chosen = solved = 0
    for seat, legal in decisions(match, chance):
        if seat == seer_seat:
            action, exact = seer_choice(match, legal, rng, seer_seconds, nodes, sees)
            chosen += 1
            solved += exact
            match.apply(action)
        else:
            match.apply(opponent.choose(match.view(seat)))
    return int(match.winner == seer_seat), chosen, solved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100, help="seeds, each played both ways")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=0.05, help="ismcts's time a move")
    parser.add_argument(
        "--opponent", help="the bot against the seer (default: ismcts, --seconds a move)"
    )
    parser.add_argument("--seer-seconds", type=float, default=0.25)
    parser.add_argument("--nodes", type=int, default=200_000, help="the exact solve's budget")
    parser.add_argument(
        "--sees",
        choices=("all", "hands", "nothing"),
        default="all",
        help="every hand and the boneyard's order; every hand; or nothing hidden (an honest bot)",
    )
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    settings = (args.seconds, args.seer_seconds, args.nodes, args.sees)
    jobs = [
        (args.seed + i, swap, args.opponent or "", *settings)
        for i in range(args.pairs)
        for swap in (False, True)
    ]
    wins = decisions = solved = 0
    with Pool(args.workers) as pool:
        for n, (won, d, s) in enumerate(pool.imap(play, jobs), 1):
            wins, decisions, solved = wins + won, decisions + d, solved + s
            if n % 20 == 0 or n == len(jobs):
                low, high = wilson(wins, n)
                print(
                    f"{n} matches: seer {wins / n:.1%} ({low:.1%}-{high:.1%}),"
                    f" {solved / max(decisions, 1):.0%} of its {decisions} decisions solved",
                    flush=True,
                )


if __name__ == "__main__":
    main()
