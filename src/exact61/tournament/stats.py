"""Per-bot statistics of a tournament: win rate with a 95% interval, rating, points, timing."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce
from scipy.stats import binomtest

from exact61.core.settlement import RAW_PER_DISPLAY, display, side_of
from exact61.tournament.runner import Result


@dataclass
class BotTally:
    matches: int = 0
    wins: int = 0
    rounds: int = 0  # rounds played, counted once per seat the bot held
    points_raw: int = 0  # accepted raw points of the bot's seats' sides
    events: int = 0
    rejected: int = 0
    decisions: int = 0
    seconds: float = 0.0


@dataclass
class Standings:
    """Running totals over a tournament's results, fed in schedule order."""

    players: int
    tallies: dict[str, BotTally] = field(default_factory=lambda: defaultdict(BotTally))
    lengths: list[int] = field(default_factory=list)  # rounds per match
    progressions: dict[str, list[list[int]]] = field(default_factory=lambda: defaultdict(list))
    # (bot, other): [matches in which both sat, of those the ones bot's side won]
    pairs: dict[tuple[str, str], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    _model: PlackettLuce = field(default_factory=PlackettLuce)
    _ratings: dict[str, Any] = field(default_factory=dict)

    def add(self, result: Result) -> None:
        record = result.record
        seating = result.game.seating
        players = self.players
        rounds = record["rounds"]
        winner = record["winner"]
        self.lengths.append(len(rounds))
        for bot in dict.fromkeys(seating):  # in seat order: the table's rows follow it
            tally = self.tallies[bot]
            tally.matches += 1
            seats = [s for s, b in enumerate(seating) if b == bot]
            sides = {side_of(players, s) for s in seats}
            tally.wins += winner in sides
            tally.rounds += len(rounds) * len(sides)
            for rnd in rounds:
                for event in rnd["events"]:
                    if event["side"] in sides:
                        tally.events += 1
                        tally.rejected += not event["accepted"]
                        tally.points_raw += event["raw"] if event["accepted"] else 0
            tally.decisions += sum(result.decisions[s] for s in seats)
            tally.seconds += sum(result.seconds[s] for s in seats)
            for side in sides:
                self.progressions[bot].append(_progression(record, side))
            for other in dict.fromkeys(seating):
                if other != bot:
                    pair = self.pairs[bot, other]
                    pair[0] += 1
                    pair[1] += winner in sides
        self._rate(seating, winner)

    def _rate(self, seating: tuple[str, ...], winner: int | None) -> None:
        bots = list(dict.fromkeys(seating))
        winners = {b for s, b in enumerate(seating) if side_of(self.players, s) == winner}
        for bot in bots:
            if bot not in self._ratings:
                self._ratings[bot] = self._model.rating(name=bot)
        teams = [[self._ratings[b]] for b in bots]
        ranks = [1.0 if b in winners else 2.0 for b in bots]
        for bot, (rated,) in zip(bots, self._model.rate(teams, ranks=ranks), strict=True):
            self._ratings[bot] = rated

    def table(self) -> dict[str, dict[str, Any]]:
        """Per bot, in the order the bots first sat (by match, then seat): matches, wins,
        win_rate, ci95 [low, high], rating, points_per_round, rejected_rate, ms_per_move."""
        out: dict[str, dict[str, Any]] = {}
        for bot, t in self.tallies.items():
            out[bot] = {
                "matches": t.matches,
                "wins": t.wins,
                "win_rate": t.wins / t.matches if t.matches else 0.0,
                "ci95": wilson(t.wins, t.matches),
                "rating": round(float(self._ratings[bot].ordinal()), 3),
                "points_per_round": t.points_raw / RAW_PER_DISPLAY / t.rounds if t.rounds else 0.0,
                "rejected_rate": t.rejected / t.events if t.events else 0.0,
                "ms_per_move": 1000 * t.seconds / t.decisions if t.decisions else 0.0,
            }
        return out

    def head_to_head(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Per bot, per other bot it met: the matches in which both sat, how many of them the
        bot's side won, and that share with its 95% interval (Wilson). At 2 and 4 players each
        such match is the one against the other; at 3 a third bot sits there too."""
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for (bot, other), (matches, wins) in self.pairs.items():
            out.setdefault(bot, {})[other] = {
                "matches": matches,
                "wins": wins,
                "win_rate": wins / matches,
                "ci95": wilson(wins, matches),
            }
        return out


def wilson(wins: int, matches: int) -> list[float]:
    """The 95% Wilson interval [low, high] of a win rate ([0, 1] before any match)."""
    if not matches:
        return [0.0, 1.0]
    ci = binomtest(wins, matches).proportion_ci(method="wilson")
    return [float(ci.low), float(ci.high)]


def ranked(table: dict[str, dict[str, Any]]) -> list[str]:
    """The bots of a `Standings.table()` best first: the order the command line shows them in
    and the plots draw them in. By win rate, then rating (ties in the table's order): every bot
    of a seat-rotated tournament meets the same seatings, so its win rate compares; the rating
    (openskill's, updated match by match) follows the order of the matches, and with two bots
    near 50% it can put the one with fewer wins first."""
    return sorted(table, key=lambda bot: (-table[bot]["win_rate"], -table[bot]["rating"]))


def _progression(record: dict[str, Any], side: int) -> list[int]:
    """A side's display score after each round of a match."""
    score = 0
    out = []
    for rnd in record["rounds"]:
        score += sum(e["raw"] for e in rnd["events"] if e["side"] == side and e["accepted"])
        out.append(display(score))
    return out
