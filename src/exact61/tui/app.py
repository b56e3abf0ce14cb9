"""The full-screen terminal game (Textual): the layout as a picture, your hand, the scores, a
running log, settlements, hints, hot seat, saving as you go."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Footer, RichLog, Static

from exact61.core import Action, AttachPoint, IllegalMoveError, Phase, Play, Tile
from exact61.i18n import _
from exact61.play import words
from exact61.play.session import GameSession, Step
from exact61.render.picture import Picture, draw

STYLES = {
    "tile": "black on grey85",
    "last": "bold black on yellow",
    "scored": "bold dark_green on grey85",
    "marker": "bold cyan",
    "choice": "bold black on bright_cyan",
    "line": "grey50",
}
LETTERS = "abcdefghijklmnopqrstuvwxyz"


class LayoutPicture(Static):
    """The layout drawn like tiles on a table; click a lettered attach point to place there."""

    def __init__(self) -> None:
        super().__init__(id="picture")
        self.picture = Picture((), {})

    def show(self, picture: Picture) -> None:
        self.picture = picture
        text = Text()
        for i, row in enumerate(picture.rows):
            if i:
                text.append("\n")
            for cell in row:
                text.append(cell.char, STYLES.get(cell.style, ""))
        if not picture.rows:
            text = Text(_("The table is empty: the opener may play any tile (R7)."), "italic")
        self.update(text)

    def on_click(self, event: events.Click) -> None:
        rows = self.picture.rows
        if 0 <= event.y < len(rows) and 0 <= event.x < len(rows[event.y]):
            cell = rows[event.y][event.x]
            if cell.point is not None and cell.style == "choice":
                app = self.app
                assert isinstance(app, GameApp)
                app.choose_point(cell.point)


class MessageScreen(ModalScreen[bool]):
    """A screen of text: settlements, the cover before a hot-seat turn, the end of the match."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "done(True)", show=False),
        Binding("n", "done(False)", show=False),
        Binding("escape", "done(False)", show=False),
    ]

    def __init__(self, title: str, lines: list[str], prompt: str, screen_id: str) -> None:
        super().__init__(id=screen_id)
        self.title_text = title
        self.lines = lines
        self.prompt = prompt

    def on_mount(self) -> None:
        self._bindings.bind("enter", "done(True)", _("Continue"))  # translated: see GameApp
        if _("y") != "y":
            self._bindings.bind(_("y"), "done(True)", show=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, "bold"), id="dialog-title")
            yield Static("\n".join(self.lines), id="dialog-body")
            yield Static(Text(self.prompt, "italic"), id="dialog-prompt")

    def action_done(self, answer: bool) -> None:
        self.dismiss(answer)


class GameApp(App[None]):
    """Play Exact 61 Five Up against bots, or with others at the same terminal."""

    CSS = """
    #main { height: 1fr; }
    #left { width: 1fr; }
    #log { width: 40%; min-width: 26; max-width: 46; border-left: solid $accent; }
    #status { height: auto; padding: 0 1; }
    #board { height: 1fr; border: round $accent; }
    #picture { width: auto; height: auto; padding: 1 2; }
    #ends { height: auto; padding: 0 1; }
    #hand, #choices { height: auto; min-height: 3; padding: 0 1; }
    #hand Button, #choices Button { min-width: 9; margin-right: 1; }
    #hand .label { width: auto; padding: 1 1 0 0; }
    MessageScreen { align: center middle; }
    #dialog { width: 80; height: auto; max-height: 90%; border: thick $accent;
              background: $surface; padding: 1 2; }
    #dialog-body { margin: 1 0; }
    """
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear", show=False),
        Binding("ctrl+q", "save_quit", show=False, priority=True),
        *[Binding(str(i), f"tile({i})", show=False) for i in range(1, 10)],
        *[Binding(letter, f"point('{letter}')", show=False) for letter in LETTERS[:12]],
    ]

    def __init__(self, session: GameSession, *, tally: bool = False, delay: float = 0.35) -> None:
        super().__init__()
        self.session = session
        self.tally = tally
        self.delay = delay
        humans = session.humans
        self.you = humans[0] if len(humans) == 1 else None
        self.viewer: int | None = self.you  # whose hand is on screen
        self.selected: Tile | None = None
        self.hinted: Action | None = None  # Enter plays it
        self.waiting = False  # for a person's choice
        self.busy = False
        self.title = "Exact 61 Five Up"

    # ---- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="status")
                with ScrollableContainer(id="board"):
                    yield LayoutPicture()
                yield Static(id="ends")
                yield Horizontal(id="hand")
                yield Horizontal(id="choices")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        # Labelled keys are bound per instance, once the language is chosen, so the footer
        # translates (class BINDINGS are fixed at import time).
        self._bindings.bind("ctrl+c", "save_quit", _("Save and quit"), priority=True)
        self._bindings.bind("question_mark", "hint", _("Hint"))
        self._bindings.bind("enter", "play_only", _("Play the only choice"))
        self.log_line(
            _(
                "Exact 61 Five Up: reach exactly 61. Keys: 1-9 pick a tile, a-l an "
                "attach point, Enter plays the only choice, ? a hint, Ctrl+C saves "
                "and quits."
            )
        )
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def log_line(self, line: str) -> None:
        self.query_one("#log", RichLog).write(line)

    # ---- the flow of play --------------------------------------------------------------

    def advance(self) -> None:
        """Run the game until a person must choose (or a screen is shown)."""
        s = self.session
        if self.busy:
            return
        if s.match.is_over:
            self.show_end()
            return
        if s.match.phase is Phase.DEAL:
            s.deal()
            log = s.match.rounds[-1]
            self.log_line("")
            self.log_line(words.opener_line(len(s.match.rounds), log.opener, self.you))
            self.refresh_view()
            self.call_after_refresh(self.advance)
            return
        seat = s.to_act
        assert seat is not None
        if not s.is_human(seat):
            self.later(lambda: self.take(s.bot_action()))
            return
        forced = s.forced()
        if forced is not None:
            self.later(lambda: self.take(forced))
            return
        if self.you is None and self.viewer != seat:  # hot seat: hide the last hand first
            self.viewer = None
            self.refresh_view()
            self.busy = True
            self.push_screen(
                MessageScreen(
                    _("Seat {seat} to play").format(seat=seat),
                    [_("Pass the terminal to seat {seat}.").format(seat=seat)],
                    _("Press Enter when only seat {seat} is looking.").format(seat=seat),
                    "cover",
                ),
                lambda _answer: self.uncover(seat),
            )
            return
        self.waiting = True
        self.refresh_view()

    def uncover(self, seat: int) -> None:
        self.busy = False
        self.viewer = seat
        self.waiting = True
        self.refresh_view()

    def later(self, step: Callable[[], None]) -> None:
        self.busy = True

        def run() -> None:
            self.busy = False
            step()

        if self.delay:
            self.set_timer(self.delay, run)
        else:
            self.call_later(run)

    def take(self, action: Action) -> None:
        """Apply an action for the seat to act, log it, and go on."""
        s = self.session
        self.waiting = False
        self.selected = None
        self.hinted = None
        step = s.apply(action)
        self.log_step(step)
        self.refresh_view()
        end = s.match.rounds[-1].end
        if step.round_ended and end is not None and end.kind != "target":
            self.busy = True
            lines = words.settlement(s.match.rounds[-1], s.players)
            lines += [
                "",
                _("Scores: {scores}").format(
                    scores=words.scores_line(s.match, self.you, self.tally)
                ),
            ]
            self.push_screen(
                MessageScreen(
                    _("Round {n} settled").format(n=len(s.match.rounds)),
                    lines,
                    _("Press Enter to continue."),
                    "settlement",
                ),
                lambda _answer: self.resume_after_screen(),
            )
            return
        self.advance()

    def resume_after_screen(self) -> None:
        self.busy = False
        self.advance()

    def log_step(self, step: Step) -> None:
        s = self.session
        for line in words.describe(step, s.match, self.you, s.match.layout):
            self.log_line(line)

    def show_end(self) -> None:
        s = self.session
        self.busy = True
        lines = [
            words.winner_line(s.match, self.you),
            _("Final scores: {scores}").format(
                scores=words.scores_line(s.match, self.you, self.tally)
            ),
        ]
        self.push_screen(
            MessageScreen(_("The match is over"), lines, _("Play again? [y/N]"), "end"),
            self.after_end,
        )

    def after_end(self, again: bool | None) -> None:
        if not again:
            self.exit()
            return
        s = self.session
        self.session = GameSession(s.players, s.seats, None, None, s.lang)
        self.busy = False
        self.viewer = self.you
        self.query_one("#log", RichLog).clear()
        self.refresh_view()
        self.advance()

    # ---- what is on screen -------------------------------------------------------------

    def legal_for_viewer(self) -> list[Action]:
        s = self.session
        if not self.waiting or self.viewer is None or s.to_act != self.viewer:
            return []
        return s.match.legal_actions()

    def choices(self) -> dict[AttachPoint, str]:
        if self.selected is None:
            return {}
        points = [
            a.at
            for a in self.legal_for_viewer()
            if isinstance(a, Play) and a.tile == self.selected and a.at is not None
        ]
        return {p: LETTERS[i] for i, p in enumerate(points)}

    def refresh_view(self) -> None:
        s = self.session
        match = s.match
        layout = match.layout
        self.query_one(LayoutPicture).show(draw(layout, self.choices()))
        seat = s.to_act
        if match.phase is Phase.PLAY and seat is not None:
            turn = (
                _("Your turn.")
                if seat == self.viewer and self.waiting
                else _("Seat {seat} to play.").format(seat=seat)
            )
        else:
            turn = ""
        sizes = match.hand_sizes() if match.phase is Phase.PLAY else ()
        others = ", ".join(
            f"{words.seat_name(o)}: {words.tiles_left(n)}"
            for o, n in enumerate(sizes)
            if o != self.viewer
        )
        status = [
            _("Round {n}").format(n=len(match.rounds)) + "   " + turn,
            _("Scores: {scores}").format(scores=words.scores_line(match, self.viewer, self.tally)),
            _("Others: {others}. Boneyard: {boneyard}.").format(
                others=others, boneyard=words.tiles_left(match.boneyard_size)
            ),
        ]
        if s.players == 4:
            status.append(_("Seats 0 and 2 play against seats 1 and 3."))
        self.query_one("#status", Static).update("\n".join(status))
        ends = ""
        if not layout.is_empty:
            ends = _("Scored ends: {ends} = {total}").format(
                ends=words.ends_sum(layout), total=layout.end_sum
            )
        self.query_one("#ends", Static).update(ends)
        self.call_later(self.rebuild_buttons)

    async def rebuild_buttons(self) -> None:
        hand_box = self.query_one("#hand", Horizontal)
        choice_box = self.query_one("#choices", Horizontal)
        await hand_box.remove_children()
        await choice_box.remove_children()
        s = self.session
        if self.viewer is None or s.match.phase is not Phase.PLAY:
            return
        legal = self.legal_for_viewer()
        playable = {a.tile for a in legal if isinstance(a, Play)}
        buttons: list[Widget] = [Static(_("Your hand:"), classes="label")]
        for i, tile in enumerate(s.match.hand(self.viewer), 1):
            buttons.append(
                Button(
                    f"{i} {tile}",
                    id=f"tile-{i}",
                    variant="primary" if tile in playable else "default",
                    disabled=tile not in playable,
                )
            )
        await hand_box.mount_all(buttons)
        choices = self.choices()
        if choices:
            assert self.selected is not None
            buttons = []  # the attach points the selected tile fits
            for point, letter in choices.items():
                credit = s.match.credit_of(Play(self.selected, point))
                gain = f" +{words.points(credit)}" if credit else ""
                buttons.append(
                    Button(f"{letter}) {words.point_name(point)}{gain}", id=f"point-{letter}")
                )
            await choice_box.mount_all(buttons)

    # ---- a person's choices ------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = event.button.id or ""
        if name.startswith("tile-"):
            self.action_tile(int(name.removeprefix("tile-")))
        elif name.startswith("point-"):
            self.action_point(name.removeprefix("point-"))

    def action_tile(self, number: int) -> None:
        legal = self.legal_for_viewer()
        if not legal or self.viewer is None:
            return
        hand = self.session.match.hand(self.viewer)
        if not 1 <= number <= len(hand):
            return
        tile = hand[number - 1]
        plays = [a for a in legal if isinstance(a, Play) and a.tile == tile]
        if not plays:
            pending = self.session.match.pending_draw
            rule = "R10" if pending is not None else "R9"
            self.notify(words.rule_text(rule), title=str(tile), severity="warning")
            return
        if len(plays) == 1:  # one place only: one key plays it
            self.take(plays[0])
            return
        self.selected = tile
        self.refresh_view()

    def action_point(self, letter: str) -> None:
        for point, label in self.choices().items():
            if label == letter:
                self.choose_point(point)
                return

    def choose_point(self, point: AttachPoint) -> None:
        if self.selected is None:
            return
        action = Play(self.selected, point)
        try:
            self.session.match.credit_of(action)  # legal?
        except IllegalMoveError as err:
            self.notify(words.rule_text(err.rule), severity="warning")
            return
        self.take(action)

    def action_play_only(self) -> None:
        """Enter: the hinted move if there is one, else the only legal action."""
        legal = self.legal_for_viewer()
        if self.hinted is not None and self.hinted in legal:
            self.take(self.hinted)
        elif len(legal) == 1:
            self.take(legal[0])

    def action_clear(self) -> None:
        self.selected = None
        self.hinted = None
        self.refresh_view()

    def action_hint(self) -> None:
        if not self.legal_for_viewer() or self.viewer is None:
            return
        action, credit = self.session.hint(self.viewer)
        text = _("Hint: {action}, {credit} raw now").format(
            action=words.action_text(action), credit=credit
        )
        text += " " + _("(Enter plays it)")
        self.log_line(text)
        self.notify(text, title=_("Hint"))
        self.hinted = action
        if isinstance(action, Play) and action.at is not None:
            self.selected = action.tile  # its attach points show, lettered
            self.refresh_view()

    def action_save_quit(self) -> None:
        if not self.session.match.is_over:
            self.session.save()
        self.exit(
            message=_("Game saved to {path}. Continue it with: exact61 play --resume").format(
                path=self.session.save_path
            )
            if not self.session.match.is_over
            else None
        )
