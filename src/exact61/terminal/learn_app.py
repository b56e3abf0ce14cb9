"""`exact61 learn` on the full screen: the guided tour's lessons (`TourApp`), each step of
`exact61.learn.tour` shown with the game's own widgets (the board and its picture, the rows of
choices, the status lines), then the guided match (`GuidedGameApp`): the game's app, whose hint
says why.

The lessons: the board on the left with the question's places lettered, the lesson on the right
(what happened, the question, then at once whether the answer is right, why, and the rules
behind it). A place is chosen by its letter or a click, a choice of a list by its number;
where every place that counts is asked for, letters pick and Enter checks. `r` shows the rules
behind the step in full, Backspace goes back a step, `q` (or Ctrl+C) leaves, as in the game and
the puzzles (the progress is kept after every step; the command goes on from there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import PurePath
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from exact61.core import AttachPoint, Match, SeatView
from exact61.i18n import _, ngettext
from exact61.learn import guided, hints
from exact61.learn.lesson import Kind, Scene, Step, Verdict
from exact61.learn.progress import ProgressFile
from exact61.learn.tour import TourState, rule_words, steps, where
from exact61.render.geometry import tile_names
from exact61.render.picture import Picture, draw
from exact61.table import HUMAN
from exact61.terminal import words
from exact61.terminal.app import (
    HAND_STYLES,
    LETTERS,
    GameApp,
    leave_bindings,
)
from exact61.terminal.screens import MessageScreen, RulesScreen
from exact61.terminal.session import GameSession
from exact61.terminal.widgets import (
    Board,
    FittedLines,
    FullScreenApp,
    LayoutPicture,
    Token,
    TokenRow,
    TooSmall,
)

RIGHT_STYLE = "bold green"
WRONG_STYLE = "bold yellow"
TRIES = 2  # wrong answers on the board before the answer is shown


def picked_on(picture: Picture, picked: set[AttachPoint]) -> Picture:
    """`picture` with the lettered places in `picked` styled as picked."""
    if not picked:
        return picture
    rows = tuple(
        tuple(
            replace(cell, style="chosen")
            if cell.point in picked and cell.style == "choice"
            else cell
            for cell in row
        )
        for row in picture.rows
    )
    return Picture(rows, picture.markers)


def scene_lines(scene: Scene) -> list[list[str]]:
    """A round in play's status: the scores (R3), and the other hand and the boneyard, each
    line in its wordings, longest first (`FittedLines`)."""
    if not scene.in_play:
        return []
    players = len(scene.hands)
    scores = _("Scores: {scores}")
    lines = [
        [
            scores.format(scores=words.side_scores(players, scene.scores, 0)),
            scores.format(scores=words.side_scores(players, scene.scores, 0, short=True)),
        ]
    ]
    if not scene.revealed:
        sizes = [len(hand) for hand in scene.hands]
        seats = [HUMAN] * players
        lines.append(
            [
                words.others_line(seats, sizes, 0, scene.boneyard),
                words.others_line(seats, sizes, 0, scene.boneyard, counts=True),
                words.others_line(seats, sizes, 0, scene.boneyard, grouped=True),
                words.others_line(seats, sizes, 0, scene.boneyard, short=True),
            ]
        )
    return lines


def hand_tokens(scene: Scene, seat: int = 0) -> list[Token]:
    """A hand as the game shows it: the learner's (a drawn tile that must be placed marked),
    or another seat's once the round is settled and the hands are shown (R18, R20)."""
    if not scene.in_play or (seat and not scene.revealed):
        return []
    hand = scene.hands[seat]
    if seat:
        pips = words.pips_text(sum(t.pips for t in hand))
        label = f"{words.seat_name(seat)} ({pips}):"
    else:
        label = _("Your hand:")
    tokens = [Token(label, HAND_STYLES["label"])]
    for tile in hand:
        text = str(tile)
        if tile == scene.pending:
            text += " " + _("(drawn)")
        tokens.append(Token(text, HAND_STYLES["playable" if tile == scene.pending else "idle"]))
    return tokens if hand or seat else []


def how_to_answer(kind: Kind) -> str:
    """What a person does to answer, on this screen."""
    if kind is Kind.PLACE:
        return _("Choose a place: its letter, or a click on the board.")
    if kind is Kind.COUNT:
        return _("Pick each place by its letter (again to drop it), then press Enter.")
    return _("Choose by its number, or a click.")


class TourApp(FullScreenApp[str | None]):
    """The guided tour's lessons; the app's result is "match" when the learner goes on to the
    guided match, else None."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["app.tcss", "learn.tcss"]
    PLAIN = "exact61 learn --plain"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear", show=False),
        *[Binding(letter, f"place('{letter}')", show=False) for letter in LETTERS],
        *[Binding(str(n), f"choose({n})", show=False) for n in range(1, 10)],
    ]

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        # Enter has one meaning at a time: `check_action` shows the one that applies.
        return [
            *leave_bindings(_("Save and quit")),
            Binding("enter", "check", _("Check")),
            Binding("enter", "next", _("Go on")),
            Binding("r", "rules", _("The rule")),
            Binding("backspace", "step_back", _("Back"), key_display="⌫"),
        ]

    def __init__(self, state: TourState, store: ProgressFile, again: str = "exact61 learn") -> None:
        """`again`: the command that goes on with the tour, told when it is left."""
        super().__init__()
        self.state = state
        self.store = store
        self.again = again
        self.title = "Exact 61 Five Up"
        self.tries = 0
        self.picked: set[int] = set()
        self.verdict: Verdict | None = None  # the last answer checked
        self.last_chosen: set[int] = set()  # and what it chose
        self.answered = False  # right, or shown: the answer and its rules are on screen

    @property
    def step(self) -> Step:
        return self.state.step

    # ---- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield FittedLines(id="status")
                with Board(id="board"):
                    yield LayoutPicture()
                yield TokenRow(id="hand")
                yield TokenRow(id="others")
                yield TokenRow(id="choices")
            with VerticalScroll(id="lesson"):
                yield Static(id="lesson-text")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#board").focus()
        board = self.query_one("#board", Board)
        for scroll in ("scroll_x", "scroll_y"):  # the arrow keys, the mouse's wheel
            self.watch(board, scroll, self.tell_more, init=False)
        self.start_step()

    def on_resize(self, event: events.Resize) -> None:
        self.refresh_bindings()
        self.call_after_refresh(self.follow)

    # ---- the flow ----------------------------------------------------------------------

    def start_step(self) -> None:
        self.tries = 0
        self.picked = set()
        self.verdict = None
        self.last_chosen = set()
        self.answered = False
        self.save()
        self.refresh_view()
        self.query_one("#lesson", VerticalScroll).scroll_home(animate=False)

    def save(self) -> None:
        self.store.save(self.state.to_json())

    def answer(self, chosen: set[int]) -> None:
        """Check `chosen`; right, or wrong on a list or for the last time: the answer shows."""
        step = self.step
        self.last_chosen = set(chosen)
        verdict = step.check(chosen)
        self.tries += 1
        self.verdict = verdict
        kind = step.question.kind
        if verdict.right or kind is Kind.CHOOSE or self.tries >= TRIES:
            self.answered = True
            self.state.answered(step, self.tries, shown=not verdict.right)
            self.save()
        self.refresh_view()
        self.call_after_refresh(self.show_feedback)

    def show_feedback(self) -> None:
        """The lesson panel shows the verdict: the answer from its question on, or a wrong
        answer's why at the end."""
        lesson = self.query_one("#lesson", VerticalScroll)
        if self.answered:
            lesson.scroll_home(animate=False)
        else:
            lesson.scroll_end(animate=False)

    # ---- what is on screen -------------------------------------------------------------

    def scene(self) -> Scene:
        step = self.step
        return step.result if self.answered else step.scene

    def marks(self) -> dict[AttachPoint, str]:
        """The places lettered on the board: the question's while it is asked; once answered,
        the places that count (COUNT) marked ✓."""
        question = self.step.question
        if question.kind is Kind.CHOOSE:
            return {}
        if self.answered:
            if question.kind is Kind.COUNT:
                return {o.point: "✓" for o in question.options if o.right and o.point is not None}
            return {}
        return {
            o.point: LETTERS[i]
            for i, o in enumerate(question.options[: len(LETTERS)])
            if o.point is not None
        }

    def refresh_view(self) -> None:
        step = self.step
        scene = self.scene()
        layout = scene.layout()
        marks = self.marks()
        picked = {
            o.point
            for i, o in enumerate(step.question.options)
            if i in self.picked and o.point is not None
        }
        picture = self.query_one(LayoutPicture)
        picture.show(picked_on(draw(layout, marks), picked))
        lesson, lessons, at, count = where(self.state.at)
        title = _("Lesson {n} of {total}: {title}").format(
            n=lesson, total=lessons, title=step.lesson.title_text
        )
        place = _("step {n} of {total}").format(n=at, total=count)
        short = f"{lesson}/{lessons} {step.lesson.title_text}"
        status = [[f"{title}, {place}", f"{short} · {at}/{count}", short]]
        self.query_one("#status", FittedLines).set_lines(status + scene_lines(scene))
        board = self.query_one("#board", Board)
        board.border_subtitle = (
            words.scored_ends(layout) if self.answered and not layout.is_empty else ""
        )
        self.query_one("#hand", TokenRow).set_tokens(hand_tokens(scene))
        self.query_one("#others", TokenRow).set_tokens(hand_tokens(scene, 1))
        self.query_one("#choices", TokenRow).set_tokens(self.choice_tokens())
        self.query_one("#lesson-text", Static).update(self.lesson_text())
        self.refresh_bindings()
        self.call_after_refresh(self.follow)

    def choice_tokens(self) -> list[Token]:
        """The question's answers in words: the lettered places, or the numbered choices;
        once answered, the right ones marked ✓ (and a wrong one picked, ✗)."""
        question = self.step.question
        names = tile_names(self.step.scene.layout())  # as the board draws them
        tokens: list[Token] = []
        chosen_wrong = set()
        if self.answered and self.verdict is not None and not self.verdict.right:
            chosen_wrong = {i for i in self.last_chosen if not question.options[i].right}
        for i, option in enumerate(question.options):
            if option.point is not None:
                key = LETTERS[i] if i < len(LETTERS) else ""
                text = f"{key}) {words.point_name(option.point, names)}"
                action = f"place('{key}')"
            else:
                assert option.label is not None
                key = str(i + 1)
                text = f"{key}) {option.label.text()}"
                action = f"choose({i + 1})"
            style = ""
            if self.answered and option.right:
                text, style = "✓ " + text, HAND_STYLES["playable"]
            elif i in chosen_wrong:
                text, style = "✗ " + text, HAND_STYLES["idle"]
            elif not self.answered and i in self.picked:
                text, style = "✓ " + text, HAND_STYLES["selected"]
            tokens.append(Token(text, style, None if self.answered else action))
        return tokens

    def lesson_text(self) -> Text:
        step = self.step
        question = step.question
        text = Text()
        if not self.answered:
            for said in step.told:
                text.append(said.text() + "\n")
            if step.told:
                text.append("\n")
        text.append(question.prompt.text() + "\n", "bold")
        if not self.answered:
            text.append(how_to_answer(question.kind) + "\n", "italic")
        verdict = self.verdict
        if verdict is not None and not verdict.right:
            text.append("\n✗ ", WRONG_STYLE)
            text.append(" ".join(s.text() for s in verdict.why) + "\n")
            if not self.answered:
                text.append(_("Try again.") + "\n", "italic")
        if self.answered:
            if verdict is not None and verdict.right:
                text.append("\n✓ " + _("Right.") + "\n", RIGHT_STYLE)
            else:
                text.append("\n" + _("The answer:") + "\n", "bold")
            for said in step.answer:
                text.append(said.text() + "\n")
            for rule in step.rules:  # each rule's own words (r: them on a screen of their own)
                text.append("\n" + rule_words(rule) + "\n", "dim")
        return text

    def follow(self) -> None:
        """Keep in sight the lettered places (as many as the board shows, nearest the first)
        or else the tile placed last; the frame names the way to the rest."""
        board = self.query_one("#board", Board)
        board.keep_in_sight(self.query_one(LayoutPicture), self.marks())

    def tell_more(self) -> None:
        self.query_one("#board", Board).tell_more(self.query_one(LayoutPicture), self.marks())

    # ---- keys --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys apply now (the footer shows only those); below 80x24 only leaving."""
        if action == "save_quit":
            return True
        if self.too_small or isinstance(self.screen, ModalScreen):
            return action not in ("check", "next", "step_back", "place", "choose")
        kind = self.step.question.kind
        if action == "check":
            return not self.answered and kind is Kind.COUNT
        if action == "next":
            return self.answered
        if action == "step_back":
            return self.state.at > 0
        return True

    def action_place(self, letter: str) -> None:
        question = self.step.question
        if self.answered or question.kind is Kind.CHOOSE or letter not in LETTERS:
            return
        index = LETTERS.index(letter)
        if index >= len(question.options):
            return
        if question.kind is Kind.PLACE:
            self.answer({index})
            return
        self.picked ^= {index}
        self.verdict = None
        self.refresh_view()

    def on_layout_picture_point_chosen(self, message: LayoutPicture.PointChosen) -> None:
        for i, option in enumerate(self.step.question.options):
            if option.point == message.point and i < len(LETTERS):
                self.action_place(LETTERS[i])
                return

    def action_choose(self, number: int) -> None:
        question = self.step.question
        if self.answered or question.kind is not Kind.CHOOSE:
            return
        if not 1 <= number <= len(question.options):
            return
        self.answer({number - 1})

    def action_check(self) -> None:
        if self.answered or self.step.question.kind is not Kind.COUNT:
            return
        self.answer(set(self.picked))
        if not self.answered:
            self.picked = set()
            self.refresh_view()

    def action_clear(self) -> None:
        if not self.answered and self.picked:
            self.picked = set()
            self.refresh_view()

    def action_next(self) -> None:
        if not self.answered:
            return
        if self.state.forward():
            self.start_step()
            return
        self.save()
        self.lessons_done()

    def action_step_back(self) -> None:
        if self.state.back():
            self.start_step()

    def action_rules(self) -> None:
        if not isinstance(self.screen, RulesScreen):
            self.push_screen(RulesScreen(self.step.rules))

    def lessons_done(self) -> None:
        total = len(steps())
        first = self.state.first_tries
        lines = [
            ngettext(
                "You answered {n} of {total} steps right at the first try.",
                "You answered {n} of {total} steps right at the first try.",
                first,
            ).format(n=first, total=total),
            "",
            ngettext(
                "Next, a short match against the easy bot ({bot}): {n} round. Press ? for a "
                "hint: the expert's move, and why.",
                "Next, a short match against the easy bot ({bot}): {n} rounds. Press ? for a "
                "hint: the expert's move, and why.",
                guided.ROUNDS,
            ).format(bot=words.bot_name(guided.OPPONENT), n=guided.ROUNDS),
        ]
        self.push_screen(
            MessageScreen(
                _("The lessons are done"),
                lines,
                _("Press Enter to play, Esc to stop here."),
                "lessons-done",
            ),
            self.after_lessons,
        )

    def after_lessons(self, play: bool | None) -> None:
        if play:
            self.exit("match")
        else:
            self.exit(None, message=kept_message(self.again))

    def action_save_quit(self) -> None:
        self.save()
        self.exit(None, message=kept_message(self.again))


def kept_message(again: str) -> str:
    """What leaving the tour says: the command to type to go on (`exact61 learn --lang de`)."""
    return _("Your progress is kept. Go on with: {command}").format(command=again)


def guided_end(match: Match, you: int | None) -> list[str]:
    """Where the guided match stands at its end, after any winner's lines: the rounds it lasted
    when no side reached 61 (its table stopped it after `guided.ROUNDS`), then the scores."""
    lines = []
    if not match.is_over:
        lines.append(
            ngettext(
                "The guided match ends here, after {n} round.",
                "The guided match ends here, after {n} rounds.",
                len(match.rounds),
            ).format(n=len(match.rounds))
        )
    lines.append(_("Scores: {scores}").format(scores=words.scores_line(match, you)))
    return lines


def tour_over() -> str:
    """What the tour says last: what to play next, and how to take the tour again."""
    return _(
        "The tour is over. Play a whole match: exact61 play. The tour again: exact61 "
        "learn --restart."
    )


class GuidedGameApp(GameApp):
    """The guided match: the game, against the easy bot, for `guided.ROUNDS` rounds (its
    session's table ends it, `session.guided_session`); the hint says why in the log, as in
    every game with one person (`hints.explain`), and its end says how it ended (`show_end`)."""

    PLAIN = TourApp.PLAIN

    def __init__(
        self,
        session: GameSession,
        state: TourState,
        store: ProgressFile,
        *,
        delay: float = 0.35,
        explain: Callable[[SeatView, str], hints.Hint] = hints.explain,
        again: str = "exact61 learn",
    ) -> None:
        super().__init__(session, delay=delay, explain=explain)
        self.state = state
        self.store = store
        self.again = again

    def start_log(self) -> None:
        super().start_log()
        self.log_line(
            ngettext(
                "The guided match: {n} round against the bot “{bot}”. Press ? for the expert's "
                "hint and why.",
                "The guided match: {n} rounds against the bot “{bot}”. Press ? for the expert's "
                "hint and why.",
                guided.ROUNDS,
            ).format(n=guided.ROUNDS, bot=words.bot_words(guided.OPPONENT))
        )

    def show_end(self) -> None:
        s = self.session
        self.busy = True
        lines = []
        if s.match.is_over:
            lines += [words.winner_line(s.match, self.you), *words.won_mid_round(s.match, self.you)]
        lines += [*guided_end(s.match, self.you), "", tour_over()]
        self.push_screen(
            MessageScreen(
                _("The guided match is over"),
                lines,
                _("Press Enter to leave."),
                "guided-end",
                leaves=False,
            ),
            self.after_guided,
        )

    def after_guided(self, _answer: bool | None) -> None:
        self.state.stage = "done"
        self.store.save(self.state.to_json())
        self.exit()

    def action_save_quit(self) -> None:
        self.workers.cancel_all()
        if not self.session.match.is_over:
            self.session.save()
        self.store.save(self.state.to_json())
        self.exit(message=kept_message(self.again))
