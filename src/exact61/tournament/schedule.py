"""Who sits where: every bot in every seat equally often (R2: at 4 players, as partnerships)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from exact61.bots import plays_as
from exact61.simulation.driver import match_seed


class ScheduleError(ValueError):
    """A tournament that cannot be played as asked. The message is English (one line); a front end
    says it in the player's language from the parts: `problem` is `too few bots` (fewer than two
    different bots), `same bot` (`first` and `second`, as written, name one bot) or
    `too few matches` (`matches` asked for, where `needed` matches seat every bot at least once and
    `cycle` seat each bot in each seat once)."""

    def __init__(
        self,
        message: str,
        problem: str,
        first: str = "",
        second: str = "",
        matches: int = 0,
        needed: int = 0,
        cycle: int = 0,
    ) -> None:
        super().__init__(message)
        self.problem, self.first, self.second = problem, first, second
        self.matches, self.needed, self.cycle = matches, needed, cycle


def check_entrants(specs: Sequence[str]) -> None:
    """ScheduleError unless `specs` (valid bot specs, as written) name at least two different
    bots and no bot twice: `heuristic` and `medium`, `ismcts` and `ISMCTS:1000` (its default),
    `learned:a.npz` and `learned:./a.npz` are the same bot."""
    seen: dict[tuple[object, ...], str] = {}
    twice: tuple[str, str] | None = None
    for spec in specs:
        bot = plays_as(spec)
        if bot in seen and twice is None:
            twice = seen[bot], spec
        seen.setdefault(bot, spec)
    if twice is not None:  # said first: `greedy,Greedy` is one bot named twice, not too few
        first, second = twice
        raise ScheduleError(
            f"--bots names one bot twice: {first} and {second}", "same bot", first, second
        )
    if len(seen) < 2:
        raise ScheduleError("a tournament needs at least two different bots", "too few bots")


def seatings(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """One cycle of seatings in which each bot takes each seat equally often.

    2 players: every ordered pair. 4 players: every ordered pair as partnerships (seats 0 and 2
    against 1 and 3). 3 players: every ordering of three distinct bots, or with two bots every
    seating that uses both. A name given twice is refused (ScheduleError), never merged.
    """
    names = list(bots)
    if len(set(names)) < 2:
        raise ScheduleError("a tournament needs at least two different bots", "too few bots")
    if len(set(names)) < len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise ScheduleError(f"--bots names {twice} twice", "same bot", twice, twice)
    if players == 4:
        return [(a, b, a, b) for a, b in itertools.permutations(names, 2)]
    if len(names) >= players:
        return list(itertools.permutations(names, players))
    return [s for s in itertools.product(names, repeat=players) if len(set(s)) > 1]


def evened(cycle: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The seatings of `cycle` in an order in which every start of it shares the matches out as
    evenly as it can: next is the seating whose bots have played the fewest matches, then have
    sat the fewest times in its seats (then the earliest in `cycle`). A whole cycle is the same
    seatings in another order, so a tournament of whole cycles plays the same games."""
    # Per seating: [matches its bots played, times they sat in its seats, place in the cycle].
    keys = [[0, 0, i] for i in range(len(cycle))]
    with_bot: dict[str, list[list[int]]] = defaultdict(list)
    with_seat: dict[tuple[str, int], list[list[int]]] = defaultdict(list)
    for key, seating in zip(keys, cycle, strict=True):
        for bot in set(seating):
            with_bot[bot].append(key)
        for seat, bot in enumerate(seating):
            with_seat[bot, seat].append(key)
    left = list(keys)
    out = []
    while left:
        chosen = min(left)
        left.remove(chosen)
        seating = cycle[chosen[2]]
        out.append(seating)
        for bot in set(seating):
            for key in with_bot[bot]:
                key[0] += 1
        for seat, bot in enumerate(seating):
            for key in with_seat[bot, seat]:
                key[1] += 1
    return out


@dataclass(frozen=True)
class Game:
    index: int
    players: int
    seed: int  # the match seed: deals and lots (shared by the seatings of one cycle)
    seating: tuple[str, ...]


def schedule(bots: Sequence[str], players: int, matches: int, seed: int) -> list[Game]:
    """`matches` games, cycling through the seatings (`evened`: a part of a cycle shares the
    matches out evenly); a cycle's seatings share their deals, so each deal is played from every
    seat (duplicate play). ScheduleError when `matches` is too few to seat every bot: a bot
    named is never left out."""
    cycle = evened(seatings(bots, players))
    needed = next(n for n in range(1, len(cycle) + 1) if _seats_all(cycle[:n], bots))
    if matches < needed:
        raise ScheduleError(
            f"--matches {matches} is too few to seat every bot: give --matches {needed} or more",
            "too few matches",
            matches=matches,
            needed=needed,
            cycle=len(cycle),
        )
    return [
        Game(i, players, match_seed(seed, i // len(cycle)), cycle[i % len(cycle)])
        for i in range(matches)
    ]


def _seats_all(games: Sequence[tuple[str, ...]], bots: Sequence[str]) -> bool:
    return set(bots) <= {bot for seating in games for bot in seating}
