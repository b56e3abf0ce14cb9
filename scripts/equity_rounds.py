"""Play single rounds in self-play and record each as the match equity table's round model sees it.

    python scripts/equity_rounds.py --players 2 --bot ismcts:300 --rounds 12000 \\
        --out data/rounds-2.jsonl

Every round starts from scores 0-0 with a fresh deal and the opener by lot, so no event can be
rejected (R4) or win (R30) and nothing cuts a round short: what is recorded is the round as the
bot plays it far from the target. One JSON line per round, seats counted from the opener:
`{"events": [[seat, raw], ...], "end": "domino"|"block", "domino": seat|null}`, the events in
the order the rules apply them (R16, R19, R22), their raw values before any target check. The
file is appended to and flushed after every round; run again to continue where it stopped (the
round index picks the seed, so the rounds are the same however often it is interrupted).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from exact61.bots import make_bot
from exact61.core import Match
from exact61.simulation.driver import match_seed


def play_round(players: int, bot: str, seed: int) -> dict[str, object]:
    chance = random.Random(seed)
    seats = [make_bot(bot, random.Random(f"{seed}:seat:{s}")) for s in range(players)]
    match = Match(players)
    match.deal_next_round(chance)
    opener = match.rounds[-1].opener
    while (seat := match.to_act) is not None:
        legal = match.legal_actions()
        action = legal[0] if len(legal) == 1 else seats[seat].choose(match.view(seat), legal)
        match.apply(action)
    log = match.rounds[-1]
    assert log.end is not None and log.end.kind != "target"
    assert all(e.accepted for e in log.events)
    rel = lambda s: (s - opener) % players  # noqa: E731
    return {
        "events": [[rel(e.seat), e.raw] for e in log.events],
        "end": log.end.kind,
        "domino": None if log.end.seat is None else rel(log.end.seat),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(2, 3, 4), required=True)
    parser.add_argument("--bot", default="ismcts:300")
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--seed", type=int, default=61)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = sum(1 for line in args.out.open() if line.strip()) if args.out.exists() else 0
    started = time.perf_counter()
    with args.out.open("a") as sink:
        for i in range(done, args.rounds):
            seed = match_seed(args.seed * 10 + args.players, i)
            sink.write(json.dumps(play_round(args.players, args.bot, seed)) + "\n")
            sink.flush()
            if (i + 1) % 500 == 0:
                rate = (i + 1 - done) / (time.perf_counter() - started)
                print(f"{args.players} players: {i + 1} rounds, {rate:.2f}/s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
