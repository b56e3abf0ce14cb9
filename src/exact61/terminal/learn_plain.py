"""`exact61 learn --plain`: the guided tour line by line, for screen readers, pipes and scripts.

Each step prints the board as the game's renderer draws it (the question's places lettered),
the places or choices in words, and the question; one line answers it: a letter (a place), the
letters of every place that counts (`ac`), or a number (a choice). The answer is said at once,
with the rules behind it. `r` prints those rules in full, `<` goes back a step, `q` (or the end
of the input) leaves; the progress is kept after every step. Then the guided match, played as
`exact61 play --plain` plays, whose hint (`?`) says why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from exact61 import i18n
from exact61.core import AttachPoint
from exact61.i18n import _, ngettext
from exact61.learn import guided
from exact61.learn.lesson import Kind, Scene, Step
from exact61.learn.progress import ProgressFile
from exact61.learn.tour import TourState, rule_words, steps, where
from exact61.render.geometry import tile_names
from exact61.render.picture import draw
from exact61.terminal import words
from exact61.terminal.app import LETTERS
from exact61.terminal.learn_app import guided_end, kept_message, tour_over
from exact61.terminal.plain import LineTalk, PlainGame, Quit
from exact61.terminal.session import GameSession

BACK = "<"  # a letter may name a place: the way back is no letter


class PlainTour(LineTalk):
    """The tour's lessons, then the guided match, on `inp` and `out`."""

    def __init__(
        self,
        state: TourState,
        store: ProgressFile,
        inp: TextIO,
        out: TextIO,
        match: Callable[[], GameSession] | None = None,
        again: str = "exact61 learn",
    ) -> None:
        """`match`: the guided match to play after the lessons (`session.guided_session`),
        made when the lessons are done; `again`: the command that goes on with the tour, told
        when it is left."""
        self.state = state
        self.store = store
        self.inp = inp
        self.out = out
        self.match = match
        self.again = again

    def save(self) -> None:
        self.store.save(self.state.to_json())

    def run(self) -> int:
        try:
            if self.state.stage == "lessons":
                self.lessons()
            if self.state.stage == "match" and self.match is not None:
                GuidedPlain(self.match(), self.state, self.store, self.inp, self.out).guided()
        except (Quit, KeyboardInterrupt) as stop:
            self.save()
            self.say()
            self.say(kept_message(self.again))
            return 130 if isinstance(stop, KeyboardInterrupt) else 0
        return 0

    # ---- the lessons -------------------------------------------------------------------

    def lessons(self) -> None:
        while True:
            self.save()
            if self.step(self.state.step) == "back":
                self.state.back()
                continue
            if not self.state.forward():
                break
        self.save()
        total = len(steps())
        first = self.state.first_tries
        self.say()
        self.say(
            ngettext(
                "You answered {n} of {total} steps right at the first try.",
                "You answered {n} of {total} steps right at the first try.",
                first,
            ).format(n=first, total=total)
        )

    def show_scene(self, scene: Scene, marks: dict[AttachPoint, str] | None = None) -> None:
        layout = scene.layout()
        for line in draw(layout, marks).text().splitlines():
            self.say("  " + line)
        if scene.in_play:
            self.say(_("Scores: {scores}").format(scores=words.side_scores(2, scene.scores, 0)))
            hand = " ".join(
                f"{t} {_('(drawn)')}" if t == scene.pending else str(t) for t in scene.hands[0]
            )
            if hand:
                self.say(_("Your hand: {tiles}").format(tiles=hand))
            if scene.revealed:
                theirs = scene.hands[1]
                pips = words.pips_text(sum(t.pips for t in theirs))
                tiles = " ".join(map(str, theirs))
                self.say(f"{words.seat_name(1)}: {tiles} = {pips}")
            else:
                sizes = [len(h) for h in scene.hands]
                self.say(words.others_line(["human", "human"], sizes, 0, scene.boneyard))

    def step(self, step: Step) -> str:
        """Show `step`, take answers until it is answered; "back" if the learner asks so."""
        lesson, lessons, at, count = where(self.state.at)
        self.say()
        self.say(
            _("Lesson {n} of {total}: {title}").format(
                n=lesson, total=lessons, title=step.lesson.title_text
            )
            + ", "
            + _("step {n} of {total}").format(n=at, total=count)
        )
        for said in step.told:
            self.say(said.text())
        question = step.question
        marks = {
            o.point: LETTERS[i]
            for i, o in enumerate(question.options[: len(LETTERS)])
            if o.point is not None
        }
        self.show_scene(step.scene, marks)
        self.say(question.prompt.text())
        names = tile_names(step.scene.layout())  # as the board above draws them
        for i, option in enumerate(question.options):
            if option.point is not None:
                self.say(f"  {LETTERS[i]}) {words.point_name(option.point, names)}")
            elif option.label is not None:
                self.say(f"  {i + 1}) {option.label.text()}")
        keys = _("r: the rules, <: back, q: quit")
        prompts = {
            Kind.PLACE: _("Choose a place by its letter ({keys}):"),
            Kind.COUNT: _("Type the letters of every place that counts, e.g. ac ({keys}):"),
            Kind.CHOOSE: _("Choose by its number ({keys}):"),
        }
        tries = 0
        while True:
            answer = self.ask(prompts[question.kind].format(keys=keys)).lower()
            if answer in ("q", "quit"):
                raise Quit
            if answer == BACK and self.state.at > 0:
                return "back"
            if answer == "r":
                self.rules(step)
                continue
            chosen = self.parse(step, answer)
            if chosen is None:
                self.say(self.invalid(step))
                continue
            verdict = step.check(chosen)
            tries += 1
            if verdict.right:
                self.say("✓ " + _("Right."))
            else:
                self.say("✗ " + " ".join(s.text() for s in verdict.why))
                if question.kind is not Kind.CHOOSE and tries < 2:
                    self.say(_("Try again."))
                    continue
                self.say(_("The answer:"))
            self.state.answered(step, tries, shown=not verdict.right)
            for said in step.answer:
                self.say("  " + said.text())
            for rule in step.rules:
                self.say("  " + rule_words(rule))
            if step.result != step.scene:
                self.show_scene(step.result)
            self.save()
            return self.after(step)

    def after(self, step: Step) -> str:
        while True:
            answer = self.ask(_("Press Enter to go on (r: the rules, <: back, q: quit):")).lower()
            if answer in ("q", "quit"):
                raise Quit
            if answer == "r":
                self.rules(step)
                continue
            if answer == BACK and self.state.at > 0:
                return "back"
            return "next"

    def parse(self, step: Step, answer: str) -> set[int] | None:
        question = step.question
        count = len(question.options)
        if question.kind is Kind.CHOOSE:
            if answer.isdecimal() and 1 <= int(answer) <= count:
                return {int(answer) - 1}
            return None
        letters = [c for c in answer if not c.isspace() and c != ","]
        if not letters or any(c not in LETTERS[:count] for c in letters):
            return None
        if question.kind is Kind.PLACE and len(letters) != 1:
            return None
        return {LETTERS.index(c) for c in letters}

    def invalid(self, step: Step) -> str:
        count = len(step.question.options)
        if step.question.kind is Kind.CHOOSE:
            return _("Please type a number from 1 to {n}.").format(n=count)
        if step.question.kind is Kind.PLACE:
            return _("Please type one letter, from a to {last}.").format(last=LETTERS[count - 1])
        return _("Please type one letter or more, each from a to {last}.").format(
            last=LETTERS[count - 1]
        )

    def rules(self, step: Step) -> None:
        paragraphs = i18n.rule_paragraphs(i18n.language())
        for rule in step.rules:
            self.say(i18n.plain_text(paragraphs[rule]).rstrip("\n"))


class GuidedPlain(PlainGame):
    """The guided match line by line: `exact61 play --plain`'s turns, and its hint (which says
    why, as every game's)."""

    def __init__(
        self,
        session: GameSession,
        state: TourState,
        store: ProgressFile,
        inp: TextIO,
        out: TextIO,
    ) -> None:
        super().__init__(session, inp, out)
        self.state = state
        self.store = store

    def guided(self) -> None:
        """Play the guided match to its end (its table's: `guided.ROUNDS` rounds, or a side
        at 61 first), saving it as it goes."""
        s = self.session
        self.say()
        self.say(
            ngettext(
                "The guided match: {n} round against the bot “{bot}”. Type ? for the expert's "
                "hint and why.",
                "The guided match: {n} rounds against the bot “{bot}”. Type ? for the expert's "
                "hint and why.",
                guided.ROUNDS,
            ).format(n=guided.ROUNDS, bot=words.bot_words(guided.OPPONENT))
        )
        try:
            self.play_rounds()  # the learner's seat is 0, `you`
        except Quit:
            if not s.match.is_over:
                s.save()
            raise
        s.save()
        self.say()
        for line in [*guided_end(s.match, self.you), tour_over()]:
            self.say(line)
        self.state.stage = "done"
        self.store.save(self.state.to_json())
