"""`exact61 puzzle`, line by line: a proved puzzle (`exact61.learn.puzzles`) shown as its seat
sees it, an answer taken, the defence that refutes a wrong one played out, and the learner's
streak and puzzle rating kept (`exact61.learn.rating`)."""

from __future__ import annotations

import datetime
import sys
from typing import TextIO

from exact61.core import Action, Match, Pass, Play
from exact61.core.engine import choices
from exact61.i18n import _, number
from exact61.learn.puzzles import (
    Goal,
    Puzzle,
    PuzzleSet,
    action_from_json,
    daily_date,
    is_solution,
    match_at,
    refutation_of,
    shipped,
)
from exact61.learn.rating import PuzzleProgress, load, progress_store, save
from exact61.render.geometry import tile_names
from exact61.terminal import layout_words, words
from exact61.terminal.plain import LineTalk, Quit


def goal_text(goal: Goal) -> str:
    """The goal as the player is told it, with the rules behind it."""
    if goal is Goal.WIN_MATCH:
        return _("Win the match now: land on exactly 61 before this round is over (R4, R30).")
    if goal is Goal.WIN_ROUND:
        return _("Win the round: make domino, or have the lightest hand at the block (R18, R23).")
    return _("Save the match: do not let your opponent land on 61 this round (R30).")


def level_for(rating: float) -> int:
    """The level of puzzle that suits a rating: the one whose own rating is nearest."""
    if rating < 1425:
        return 1
    return 2 if rating < 1675 else 3


def next_puzzle(puzzles: PuzzleSet, progress: PuzzleProgress, level: int | None) -> Puzzle:
    """The first puzzle of the level (else the learner's) not yet tried; all tried, the first
    not yet solved; else the first of the level."""
    wanted = level or level_for(progress.rating)
    of_level = [p for p in puzzles.puzzles if p.level == wanted] or list(puzzles.puzzles)
    for p in of_level:
        if p.id not in progress.tried:
            return p
    for p in of_level:
        if p.id not in progress.solved:
            return p
    return of_level[0]


def facts_lines(puzzle: Puzzle, match: Match) -> list[str]:
    """What the seat may know, beside the layout: the scores, the opponent's tile count, the
    empty boneyard, the hand. The opponent is not named by the bot of the match the puzzle came
    from: the puzzle is proved against every defence, not that bot's."""
    seat = puzzle.seat
    view = match.view(seat)
    seats = [""] * match.players
    return [
        _("Scores: {scores}").format(scores=words.scores_line(match, seat)),
        words.others_line(seats, view.hand_sizes, seat, view.boneyard_size, bots=False),
        _("The boneyard is empty: your opponent holds every tile you cannot see (R10)."),
        _("Your hand: {tiles}").format(tiles=" ".join(str(t) for t in view.hand)),
    ]


def title_line(puzzle: Puzzle) -> str:
    return _("Puzzle {id}, level {level}.").format(id=puzzle.id, level=number(puzzle.level))


def choice_list(puzzle: Puzzle, match: Match) -> list[tuple[Action, str]]:
    """The seat's choices, one for each distinct move (as the match lists them), each with its
    words (the layout's tiles named as its board draws them) and the credit it scores."""
    view = match.view(puzzle.seat)
    names = tile_names(view.layout)
    out = []
    for action in choices(view.legal_actions).values():
        credit = match.credit_of(action)
        gain = f"  +{words.points(credit)}" if credit else ""
        out.append((action, f"{words.action_text(action, names)}{gain}"))
    return out


def verdict_lines(puzzle: Puzzle, match: Match, chosen: Action) -> tuple[bool, list[str]]:
    """Whether `chosen` solves the puzzle, and what to tell the player: for a wrong move, the
    defence that refutes it played to the round's end (on `match`, which it changes), its
    settlement, and the move that reaches the goal. The layout's tiles are named as its board
    draws them, as the list of choices names them."""
    names = tile_names(match.layout)
    move = words.action_text(chosen, names)
    if is_solution(puzzle, chosen):
        return True, [_("Right: {move} reaches the goal against every defence.").format(move=move)]
    lines = [_("Not this one: {move}. The defence that refutes it:").format(move=move)]
    match.apply(chosen)
    for step, data in enumerate(refutation_of(puzzle, chosen) or [], 1):
        action = action_from_json(data)
        seat = int(data["seat"])
        credit = match.credit_of(action) if isinstance(action, Play) else 0
        now = tile_names(match.layout)  # the board as the defence finds it
        match.apply(action)
        text = _("passes") if isinstance(action, Pass) else words.action_text(action, now)
        gain = f"  +{words.points(credit)}" if credit else ""
        lines.append(f"  {number(step)}. {words.who(seat, puzzle.seat)}: {text}{gain}")
    if match.is_over:
        lines += ["  " + text for text in words.won_mid_round(match, puzzle.seat)]
    else:
        lines += [
            "  " + text for text in words.settlement(match.rounds[-1], match.players, puzzle.seat)
        ]
    lines.append("  " + _("Scores: {scores}").format(scores=words.scores_line(match, puzzle.seat)))
    solution = words.action_text(action_from_json(puzzle.solution), names)
    lines.append(_("The move that reaches the goal: {move}.").format(move=solution))
    return False, lines


def standing(progress: PuzzleProgress) -> str:
    """The streak and the rating, in a line."""
    return _("Streak: {streak} (best {best}). Puzzle rating: {rating} ± {rd}.").format(
        streak=number(progress.streak),
        best=number(progress.best_streak),
        rating=number(round(progress.rating)),
        rd=number(round(progress.deviation)),
    )


class PuzzleRun:
    """A sitting of puzzles, whichever screen shows them: which puzzle comes next (the one
    asked for, the daily one, else by level), and the progress kept after each attempt."""

    def __init__(
        self,
        puzzles: PuzzleSet,
        *,
        daily: bool = False,
        level: int | None = None,
        puzzle_id: str | None = None,
        today: datetime.date | None = None,
    ) -> None:
        self.puzzles = puzzles
        self.daily = daily
        self.level = level
        self.puzzle_id = puzzle_id
        self.day = today or daily_date()  # UTC: the site's puzzle of the day too
        self.store = progress_store()
        self.progress = load(self.store)

    @property
    def single(self) -> bool:
        """One puzzle only (`--id`, `--daily`)."""
        return self.puzzle_id is not None or self.daily

    def next(self) -> Puzzle:
        if self.puzzle_id is not None:
            return self.puzzles.by_id(self.puzzle_id)
        if self.daily:
            return self.puzzles.daily(self.day)
        return next_puzzle(self.puzzles, self.progress, self.level)

    def attempted(self, puzzle: Puzzle, solved: bool) -> None:
        day = self.day if self.daily else None
        self.progress = self.progress.after(puzzle.id, puzzle.level, solved, day)
        save(self.store, self.progress)


class PlainPuzzles(LineTalk):
    def __init__(self, run: PuzzleRun, inp: TextIO, out: TextIO) -> None:
        self.run = run
        self.inp = inp
        self.out = out

    def attempt(self, puzzle: Puzzle) -> bool | None:
        """Play one puzzle: whether it was solved; None if the player quit."""
        match = match_at(self.run.puzzles, puzzle)
        self.say(title_line(puzzle))
        self.say(goal_text(puzzle.goal))
        for line in layout_words.layout_structure(match.view(puzzle.seat).layout):
            self.say(line)
        for line in facts_lines(puzzle, match):
            self.say(line)
        listed = choice_list(puzzle, match)
        for i, (_action, text) in enumerate(listed, 1):
            self.say(f"  {i}) {text}")
        while True:
            try:
                answer = self.ask(_("Your move, 1-{n} (q to quit):").format(n=len(listed)))
            except Quit:  # the end of the input
                return None
            if answer.lower() in ("q", "quit"):
                return None
            if answer.isdecimal() and 1 <= int(answer) <= len(listed):
                break
            self.say(_("Please type a number from 1 to {n}.").format(n=len(listed)))
        solved, lines = verdict_lines(puzzle, match, listed[int(answer) - 1][0])
        for line in lines:
            self.say(line)
        return solved


def play_puzzles(
    language: str,
    *,
    daily: bool = False,
    level: int | None = None,
    puzzle_id: str | None = None,
    inp: TextIO | None = None,
    out: TextIO | None = None,
    today: datetime.date | None = None,
) -> int:
    """Puzzles one after another (or the daily one, or `puzzle_id`) until the player stops."""
    del language  # chosen already: what is said here is in it
    run = PuzzleRun(shipped(), daily=daily, level=level, puzzle_id=puzzle_id, today=today)
    game = PlainPuzzles(run, inp or sys.stdin, out or sys.stdout)
    game.say(standing(run.progress))
    while True:
        puzzle = run.next()
        if daily:
            game.say(_("The puzzle of {date}.").format(date=run.day.isoformat()))
        game.say()
        solved = game.attempt(puzzle)
        if solved is None:
            return 0
        run.attempted(puzzle, solved)
        game.say(standing(run.progress))
        if run.single:
            return 0
        try:
            again = game.ask(_("Another puzzle? [Y/n]"))
        except Quit:  # the end of the input
            return 0
        if again.lower() in ("n", "no", _("n"), _("no")):
            return 0
