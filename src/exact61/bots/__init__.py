"""Bots that play a seat from its view. `make_bot(name, rng)` builds one by name (or, for
`learned:FILE`, from the policy file it names)."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from exact61.bots import expert, ismcts, pimc
from exact61.bots.base import BlindBot, Bot, BotFactory
from exact61.bots.expert import ExpertBot
from exact61.bots.heuristic import HeuristicBot
from exact61.bots.ismcts import ISMCTSBot
from exact61.bots.pimc import PimcBot
from exact61.bots.simple import GreedyBot, RandomBot

if TYPE_CHECKING:  # imported when first asked for (`__getattr__`): it needs numpy
    from exact61.bots.learned import LearnedBot

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
    "expert": ExpertBot,
    "pimc": PimcBot,
}


# Levels for people: what `exact61 play --seats` and `--bot` also accept, each the bot (at a
# budget) playing it. Spaced so that each beats the one below in about 70-80% of 2-player
# matches (issue 42; docs/figures/strength.md, "The levels"): few iterations make `ismcts` a
# player who sees the good moves only some of the time.
LEVELS = {
    "beginner": "random",
    "easy": "ismcts:6",
    "medium": "ismcts:20",
    "hard": "ismcts:60",
    "expert": "expert",
}
# Earlier names, still read (commands, saved games and records written with them).
ALIASES = {"equity": "expert"}
STRONGEST = "expert"


# The bots that take a budget (NAME:N or NAME@SECONDSs), and what their N counts: the tree searches
# run N iterations a move, pimc samples N deals a move and solves each.
BUDGET_UNITS = {"ismcts": "iterations", "expert": "iterations", "pimc": "deals"}
BUDGETED = tuple(BUDGET_UNITS)
DEFAULT_BUDGETS = {
    "ismcts": ismcts.DEFAULT_ITERATIONS,
    "expert": expert.DEFAULT_ITERATIONS,
    "pimc": pimc.DEFAULT_DEALS,
}
MAX_ITERATIONS = 100_000  # ismcts:N beyond this thinks for minutes a move
# The bots named with a file they play from (`learned:FILE`, a policy from
# examples/train_ppo_agent.py): the file's path is kept as written, case and all.
FILE_BOTS = ("learned",)


def file_of(spec: str) -> str | None:
    """The file a `learned:FILE` spec names (as written), or None for any other bot."""
    name, colon, path = spec.strip().partition(":")
    return path.strip() if colon and name.strip().lower() in FILE_BOTS else None


class BotSpecError(ValueError):
    """A bot spec that names no bot, or asks a bot for what it does not take. The message is
    English (one line); a front end that speaks the player's language says it from the parts:
    `problem` (`unknown`, `no budget`, `seconds`, `not whole`, `iterations`, `no file`,
    `policy`, `players`), the spec and the name as written, the names to choose from, `detail`
    (a policy file's reason, or the budget that is not a whole number), `unit` (what the bot's
    budget counts, `BUDGET_UNITS`, for `not whole` and `iterations`) and `players` (for
    `players`: how many players the policy was trained for, and how many the game has)."""

    def __init__(
        self,
        message: str,
        problem: str,
        spec: str,
        name: str = "",
        choices: tuple[str, ...] = (),
        detail: str = "",
        unit: str = "",
        players: tuple[int, int] = (0, 0),
    ) -> None:
        super().__init__(message)
        self.problem, self.spec, self.name = problem, spec, name
        self.choices, self.detail, self.unit = choices, detail, unit
        self.players = players


@functools.lru_cache(maxsize=256)  # every table checks its seats: a run makes thousands
def check_bot_spec(spec: str, also: tuple[str, ...] = (), *, files: bool = True) -> str:
    """Validate `name`, `name:ITERATIONS` or `name@SECONDSs` (a level name works too, in any
    case; only the search bots take a budget); return the spec written canonically (lower
    case). Raises ValueError naming the bad part; `also` names what else the caller accepts
    (a seat may be `human`), listed among the choices.

    `learned:FILE` names a policy file, read and checked here (ValueError, one line, for a file
    that is missing or not a policy); `check_bot_players` checks its player count. With
    `files=False` (a server, which opens no path a client names) it is not among the choices
    listed; the caller refuses it."""
    path = file_of(spec)
    if path is not None:
        if not path:
            raise BotSpecError(
                f"bad bot {spec!r}: learned:FILE names a policy file", "no file", spec.strip()
            )
        from exact61.bots.learned import PolicyError, load_policy  # numpy: only when asked

        try:
            load_policy(path)
        except PolicyError as err:
            raise _policy_error(spec, err) from None
        return f"learned:{path}"
    body, at, seconds = spec.strip().lower().partition("@")
    name, colon, budget = body.partition(":")
    if LEVELS.get(name, name) != name and (colon or at):  # `expert` is a level and a bot
        raise BotSpecError(
            f"bad bot {spec!r}: a level has its own budget; give a bot's name with a budget "
            f"({LEVELS[name].partition(':')[0]}:N)",
            "no budget",
            spec.strip(),
            name,
            BUDGETED,
        )
    bot = bot_of(name).partition(":")[0]
    if bot not in BOTS:
        choices = tuple(
            dict.fromkeys([*also, *BOTS, *LEVELS, *(("learned:FILE",) if files else ())])
        )
        where = "" if name == spec.strip().lower() else f" in {spec!r}"
        raise BotSpecError(
            f"unknown bot {name!r}{where}; choose from {', '.join(choices)}",
            "unknown",
            spec.strip(),
            name,
            choices,
        )
    if (colon or at) and bot not in BUDGETED:
        raise BotSpecError(
            f"bad bot {spec!r}: only {', '.join(BUDGETED[:-1])} and {BUDGETED[-1]} take a budget "
            "(NAME:ITERATIONS or NAME@SECONDSs)",
            "no budget",
            spec.strip(),
            name,
            BUDGETED,
        )
    if at:
        if colon or _seconds(seconds) is None:
            raise BotSpecError(
                f"bad bot {spec!r}: a time budget is NAME@SECONDSs, more than 0 and at most "
                "60 seconds, e.g. ismcts@0.05s",
                "seconds",
                spec.strip(),
                name,
            )
        return f"{name}@{seconds}"
    if colon:
        unit = BUDGET_UNITS[bot]
        if not budget.isdecimal():
            raise BotSpecError(
                f"bad bot {spec!r}: {budget!r} is not a whole number of {unit}",
                "not whole",
                spec.strip(),
                name,
                detail=budget,
                unit=unit,
            )
        if not 1 <= int(budget) <= MAX_ITERATIONS:
            raise BotSpecError(
                f"bad bot {spec!r}: the budget is 1 to {MAX_ITERATIONS:,} {unit} a move",
                "iterations",
                spec.strip(),
                name,
                unit=unit,
            )
        return f"{name}:{int(budget)}"
    return name


def check_bot_players(spec: str, players: int) -> None:
    """ValueError (one line) when the bot `spec` cannot play a game of `players`: a learned
    policy plays the player count it was trained for. Check `spec` with `check_bot_spec`
    first."""
    path = file_of(spec)
    if path is not None:
        from exact61.bots.learned import PolicyError, load_policy

        try:
            trained = load_policy(path).players
        except PolicyError as err:
            raise _policy_error(spec, err) from None
        if trained != players:
            raise BotSpecError(
                f"bad bot {spec.strip()!r}: {path}: a policy for {trained} players, "
                f"not {players} (--players)",
                "players",
                spec.strip(),
                detail=str(path),
                players=(trained, players),
            )


def _policy_error(spec: str, err: Exception) -> BotSpecError:
    return BotSpecError(f"bad bot {spec.strip()!r}: {err}", "policy", spec.strip(), detail=str(err))


def bot_of(name: str) -> str:
    """The bot a name stands for: a bot's own name, a level's bot with its budget
    (`ismcts:20`), or an earlier name's."""
    return LEVELS.get(name) or ALIASES.get(name) or name


def _seconds(text: str) -> float | None:
    """`0.05s` as 0.05 (positive, at most a minute), else None."""
    if not text.endswith("s"):
        return None
    try:
        value = float(text[:-1])
    except ValueError:
        return None
    return value if 0 < value <= 60 else None


@functools.lru_cache(maxsize=256)
def _parsed(spec: str) -> tuple[str, int | None, float | None]:
    """The bot `spec` names (a level as its bot), and the iterations and seconds a move it asks
    for (None where it names none). Raises ValueError as `check_bot_spec` does."""
    canonical = check_bot_spec(spec)
    if file_of(canonical) is not None:  # a learned policy: no budget, and a path to keep whole
        return "learned", None, None
    if LEVELS.get(canonical, canonical) != canonical:
        return _parsed(LEVELS[canonical])
    body, _, seconds = canonical.partition("@")
    name, _, budget = body.partition(":")
    return (
        bot_of(name),
        int(budget) if budget else None,
        _seconds(seconds) if seconds else None,
    )


def plays_as(spec: str) -> tuple[object, ...]:
    """What `spec` plays, whatever its spelling: equal for `heuristic` and `medium`, `ismcts`
    and `ISMCTS:1000` (its default written out), `learned:a.npz` and `learned:./a.npz`. Raises
    ValueError as `check_bot_spec` does."""
    path = file_of(check_bot_spec(spec))
    if path is not None:
        return ("learned", Path(path).expanduser().resolve())
    name, iterations, seconds = _parsed(spec)
    if seconds is not None:
        return (name, None, seconds)
    return (name, iterations or DEFAULT_BUDGETS.get(name), None)


def budget_of(spec: str) -> tuple[int | None, float | None]:
    """The iterations and the seconds a move that `spec` asks for (None where it names none).
    Raises ValueError as `check_bot_spec` does."""
    _, iterations, seconds = _parsed(spec)
    return iterations, seconds


def budget_unit(spec: str) -> str:
    """What `spec`'s bot counts in a budget of N (`iterations`, `deals`: `BUDGET_UNITS`), or ""
    for a bot that takes none. Raises ValueError as `check_bot_spec` does."""
    return BUDGET_UNITS.get(_parsed(spec)[0], "")


def make_bot(spec: str, rng: random.Random) -> Bot:
    """The bot named by `spec` (`greedy`, `expert`, `ismcts:1000`, `expert@0.05s`, ...),
    choosing from `rng`; `learned:FILE` plays the policy in FILE."""
    path = file_of(spec)
    if path is not None:
        from exact61.bots.learned import LearnedBot, PolicyError, load_policy

        try:
            return LearnedBot(rng, load_policy(path))
        except PolicyError as err:
            raise ValueError(f"bad bot {spec.strip()!r}: {err}") from None
    name, iterations, seconds = _parsed(spec)
    if seconds is not None:  # a time budget alone: as many iterations as fit
        return BOTS[name](rng, iterations=10**9, seconds=seconds)  # type: ignore[call-arg]
    if iterations is not None:
        return BOTS[name](rng, iterations=iterations)  # type: ignore[call-arg]
    return BOTS[name](rng)


def __getattr__(name: str) -> Any:
    """`LearnedBot`, imported when first asked for: it needs numpy, which the command line
    does not load at start-up."""
    if name == "LearnedBot":
        from exact61.bots.learned import LearnedBot

        return LearnedBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ALIASES",
    "BOTS",
    "BUDGETED",
    "BUDGET_UNITS",
    "FILE_BOTS",
    "LEVELS",
    "MAX_ITERATIONS",
    "STRONGEST",
    "BlindBot",
    "Bot",
    "BotFactory",
    "BotSpecError",
    "ExpertBot",
    "GreedyBot",
    "HeuristicBot",
    "ISMCTSBot",
    "LearnedBot",
    "PimcBot",
    "RandomBot",
    "bot_of",
    "budget_of",
    "budget_unit",
    "check_bot_players",
    "check_bot_spec",
    "file_of",
    "make_bot",
]
