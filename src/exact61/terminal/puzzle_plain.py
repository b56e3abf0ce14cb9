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
    is_solution,
    refutation_of,
    shipped,
)
from exact61.learn.rating import PuzzleProgress, load, progress_path, save
from exact61.terminal import words


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
    of_level = [p for p in puzzles.puzzles if p.level == wanted]
    for p in of_level:
        if p.id not in progress.tried:
            return p
    for p in of_level:
        if p.id not in progress.solved:
            return p
    return of_level[0]


class PlainPuzzles:
    def __init__(self, puzzles: PuzzleSet, inp: TextIO, out: TextIO) -> None:
        self.puzzles = puzzles
        self.inp = inp
        self.out = out

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        print(prompt, end=" ", file=self.out, flush=True)
        line = self.inp.readline()
        return line.strip() if line else None

    def show(self, puzzle: Puzzle, match: Match) -> list[Action]:
        """The puzzle as its seat sees it; its choices, one for each distinct move."""
        seat = puzzle.seat
        view = match.view(seat)
        self.say(_("Puzzle {id}, level {level}.").format(id=puzzle.id, level=number(puzzle.level)))
        self.say(goal_text(puzzle.goal))
        self.say(_("Scores: {scores}").format(scores=words.scores_line(match, seat)))
        for line in words.layout_structure(view.layout):
            self.say(line)
        seats = [str(s) for s in self.puzzles.record_of(puzzle).get("seats", ("", ""))]
        self.say(words.others_line(seats, view.hand_sizes, seat, view.boneyard_size))
        self.say(_("The boneyard is empty: your opponent holds every tile you cannot see (R10)."))
        self.say(_("Your hand: {tiles}").format(tiles=" ".join(str(t) for t in view.hand)))
        legal = list(choices(view.legal_actions).values())
        for i, action in enumerate(legal, 1):
            credit = match.credit_of(action)
            gain = f"  +{words.points(credit)}" if credit else ""
            self.say(f"  {i}) {words.action_text(action)}{gain}")
        return legal

    def attempt(self, puzzle: Puzzle) -> bool | None:
        """Play one puzzle: whether it was solved; None if the player quit."""
        from exact61.learn.puzzles import match_at

        match = match_at(self.puzzles, puzzle)
        legal = self.show(puzzle, match)
        while True:
            answer = self.ask(_("Your move, 1-{n} (q to quit):").format(n=len(legal)))
            if answer is None or answer.lower() in ("q", "quit"):
                return None
            if answer.isdecimal() and 1 <= int(answer) <= len(legal):
                break
            self.say(_("Please type a number from 1 to {n}.").format(n=len(legal)))
        chosen = legal[int(answer) - 1]
        if is_solution(puzzle, chosen):
            self.say(
                _("Right: {move} reaches the goal against every defence.").format(
                    move=words.action_text(chosen)
                )
            )
            return True
        self.say(
            _("Not this one: {move}. The defence that refutes it:").format(
                move=words.action_text(chosen)
            )
        )
        self.refute(puzzle, match, chosen)
        solution = action_from_json(puzzle.solution)
        self.say(
            _("The move that reaches the goal: {move}.").format(move=words.action_text(solution))
        )
        return False

    def refute(self, puzzle: Puzzle, match: Match, chosen: Action) -> None:
        """Play the wrong move and the defence's line to the round's end, saying each step."""
        line = refutation_of(puzzle, chosen) or []
        match.apply(chosen)
        for step, data in enumerate(line, 1):
            action = action_from_json(data)
            seat = int(data["seat"])
            credit = match.credit_of(action) if isinstance(action, Play) else 0
            match.apply(action)
            text = _("passes") if isinstance(action, Pass) else words.action_text(action)
            gain = f"  +{words.points(credit)}" if credit else ""
            self.say(f"  {number(step)}. {words.who(seat, puzzle.seat)}: {text}{gain}")
        if match.is_over:
            for text in words.won_mid_round(match, puzzle.seat):
                self.say("  " + text)
        else:
            for text in words.settlement(match.rounds[-1], match.players, puzzle.seat):
                self.say("  " + text)
        self.say("  " + _("Scores: {scores}").format(scores=words.scores_line(match, puzzle.seat)))

    def standing(self, progress: PuzzleProgress) -> str:
        return _("Streak: {streak} (best {best}). Puzzle rating: {rating} ± {rd}.").format(
            streak=number(progress.streak),
            best=number(progress.best_streak),
            rating=number(round(progress.rating)),
            rd=number(round(progress.deviation)),
        )


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
    puzzles = shipped()
    game = PlainPuzzles(puzzles, inp or sys.stdin, out or sys.stdout)
    path = progress_path()
    progress = load(path)
    day = today or datetime.date.today()
    game.say(game.standing(progress))
    while True:
        if puzzle_id is not None:
            puzzle = puzzles.by_id(puzzle_id)
        elif daily:
            puzzle = puzzles.daily(day)
            game.say(_("The puzzle of {date}.").format(date=day.isoformat()))
        else:
            puzzle = next_puzzle(puzzles, progress, level)
        game.say()
        solved = game.attempt(puzzle)
        if solved is None:
            return 0
        progress = progress.after(puzzle.id, puzzle.level, solved, day if daily else None)
        save(path, progress)
        game.say(game.standing(progress))
        if puzzle_id is not None or daily:
            return 0
        again = game.ask(_("Another puzzle? [Y/n]"))
        if again is None or again.lower() in ("n", "no", _("n"), _("no")):
            return 0
