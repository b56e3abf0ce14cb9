"""A learner's puzzle progress: the streak of puzzles solved in a row and a puzzle rating.

The rating is Glicko-2 (Glickman's system, which chess sites keep their puzzle ratings in), by
the `glicko2` package: each attempt is one rating period, the learner against the puzzle, a
solved puzzle a win. A puzzle's own rating is its level's (`LEVEL_RATINGS`), held sure
(`PUZZLE_RD`). A new learner starts at Glicko-2's 1500, deviation 350, volatility 0.06.

The progress is kept as the guided tour's is (`progress.ProgressFile`): a JSON file in the data
directory, written whole to a new file that then replaces the old one, so a cut leaves the old
progress, never half a file.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Final

from glicko2 import Player

from exact61.i18n import _
from exact61.learn.progress import ProgressError, ProgressFile

# A puzzle's rating by level, and how sure it is.
LEVEL_RATINGS: Final = {1: 1300.0, 2: 1550.0, 3: 1800.0}
PUZZLE_RD: Final = 60.0
START: Final = (1500.0, 350.0, 0.06)  # rating, deviation, volatility of a new learner
PROGRESS_NAME: Final = "puzzles"  # learn/puzzles.json (`progress.ProgressFile`)


def rated(
    learner: tuple[float, float, float], level: int, solved: bool
) -> tuple[float, float, float]:
    """A learner's (rating, deviation, volatility) after one attempt at a puzzle of `level`:
    one Glicko-2 rating period against the puzzle (the web page's rating is kept this way too,
    the server working it out). The deviation never grows past a new learner's (as Glicko
    caps it): near the scale's ends one period could take it a little past 350."""
    player = Player(*learner)
    player.update_player([LEVEL_RATINGS[level]], [PUZZLE_RD], [1 if solved else 0])
    return float(player.rating), min(float(player.rd), START[1]), float(player.vol)


def in_range(rating: float, deviation: float, volatility: float) -> bool:
    """Whether a Glicko-2 rating is one a learner's attempts can come to: a deviation no wider
    than a new learner's (`START`), a volatility below 1, finite numbers."""
    return 0 < rating < 4000 and 0 < deviation <= START[1] and 0 < volatility < 1


def learner_rating(values: Sequence[object]) -> tuple[float, float, float]:
    """A learner's (rating, deviation, volatility) as kept (a progress file, the web page's
    store): numbers as JSON writes them (no string, no boolean, which is an int to Python, none
    a float cannot hold) and `in_range`. ValueError otherwise."""
    if len(values) != 3 or not all(type(v) in (int, float) for v in values):
        raise ValueError("a rating is {rating, deviation, volatility}")
    try:
        rating, deviation, volatility = (float(v) for v in values)  # type: ignore[arg-type]
    except OverflowError:
        raise ValueError("a rating is {rating, deviation, volatility} in range") from None
    if not in_range(rating, deviation, volatility):
        raise ValueError("a rating is {rating, deviation, volatility} in range")
    return rating, deviation, volatility


@dataclass(frozen=True)
class PuzzleProgress:
    """What the learner's puzzles have come to: the rating, the streak (and the best one), the
    puzzles solved and tried (by id), and the day of the last daily puzzle solved."""

    rating: float = START[0]
    deviation: float = START[1]
    volatility: float = START[2]
    streak: int = 0
    best_streak: int = 0
    solved: tuple[str, ...] = ()
    tried: tuple[str, ...] = ()
    daily_solved: str | None = None  # ISO date
    history: tuple[tuple[str, bool], ...] = field(default=())  # (puzzle id, solved), in order

    def after(
        self, puzzle_id: str, level: int, solved: bool, day: datetime.date | None = None
    ) -> PuzzleProgress:
        """The progress after an attempt at a puzzle of `level` (the daily one if `day`)."""
        rating, deviation, volatility = rated(
            (self.rating, self.deviation, self.volatility), level, solved
        )
        streak = self.streak + 1 if solved else 0
        return replace(
            self,
            rating=rating,
            deviation=deviation,
            volatility=volatility,
            streak=streak,
            best_streak=max(self.best_streak, streak),
            solved=self.solved + ((puzzle_id,) if solved and puzzle_id not in self.solved else ()),
            tried=self.tried + ((puzzle_id,) if puzzle_id not in self.tried else ()),
            daily_solved=day.isoformat() if day is not None and solved else self.daily_solved,
            history=(*self.history, (puzzle_id, solved)),
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["history"] = [list(h) for h in self.history]
        return data  # the file's `format` is the progress file's (`progress.FORMAT`)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PuzzleProgress:
        """The progress kept (`to_json`). ValueError, KeyError or TypeError for data that is
        not: a rating out of range (`learner_rating`), a count that is not a whole number from
        0, ids that are not a list of texts, a day that is not an ISO date, a history that is
        not [id, solved] pairs. A damaged file is so refused whole, where a rating of NaN had
        been read and failed in the middle of a puzzle."""
        rating, deviation, volatility = learner_rating(
            [data["rating"], data["deviation"], data["volatility"]]
        )
        streak, best_streak = data["streak"], data["best_streak"]
        if not all(type(n) is int and n >= 0 for n in (streak, best_streak)):
            raise ValueError("a streak is a whole number from 0")
        daily_solved = data.get("daily_solved")
        if daily_solved is not None:
            datetime.date.fromisoformat(daily_solved)  # ValueError, TypeError
        history = data.get("history", [])
        if not isinstance(history, list) or not all(
            isinstance(h, list) and len(h) == 2 and isinstance(h[0], str) and type(h[1]) is bool
            for h in history
        ):
            raise ValueError("a history is a list of [puzzle id, solved]")
        return cls(
            rating=rating,
            deviation=deviation,
            volatility=volatility,
            streak=streak,
            best_streak=best_streak,
            solved=_ids(data["solved"]),
            tried=_ids(data["tried"]),
            daily_solved=daily_solved,
            history=tuple((p, s) for p, s in history),
        )


def _ids(value: object) -> tuple[str, ...]:
    """Puzzle ids as kept: a list of texts (ValueError otherwise)."""
    if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
        raise ValueError("puzzle ids are a list of texts")
    return tuple(value)


def progress_store() -> ProgressFile:
    """The learner's puzzle progress: `learn/puzzles.json` in the data directory
    (EXACT61_DATA_DIR overrides it), beside the guided tour's."""
    return ProgressFile(PROGRESS_NAME)


def load(store: ProgressFile) -> PuzzleProgress:
    """The progress kept in `store` (a new learner's if there is none). Raises ProgressError
    for a file that cannot be read or holds no puzzle progress (left as it is)."""
    data = store.load()
    if not data:
        return PuzzleProgress()
    try:
        return PuzzleProgress.from_json(data)
    except (ValueError, KeyError, TypeError):
        raise ProgressError(store.path, _("not puzzle progress")) from None


def save(store: ProgressFile, progress: PuzzleProgress) -> None:
    """Keep `progress` in `store`: written whole, then put in the old file's place. Raises
    ProgressError when it cannot be written."""
    try:
        store.save(progress.to_json())
    except OSError as err:
        raise ProgressError(store.path, err.strerror or str(err)) from None
