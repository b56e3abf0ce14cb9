"""The full-screen terminal game (Textual): the app, which plays the game on the screen (the
layout as a picture, your hand, the scores, a running log, settlements, hints, the rules, hot
seat, taking back, saving as you go). Its widgets are in `widgets`, its dialogs in `screens`,
and how its keys are named in the player's language in `language`.

The game goes on by the Table's loop (`waiting_for`, `step`); a bot's choice, the hint and the
post-game analysis are worked out in workers, so the screen answers keys all the while.

The module is long (some 750 lines) and one concern: the one class `GameApp`, the controller
between the table and the screen; what could stand alone already does, in the modules named
above."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from exact61.core import Action, AttachPoint, IllegalMoveError, Phase, Play, SeatView, Tile
from exact61.i18n import _, ngettext
from exact61.learn import hints
from exact61.render.geometry import tile_names
from exact61.render.picture import draw
from exact61.table import BotRequest, Update, Waiting, decide
from exact61.terminal import words
from exact61.terminal.screens import AnalysisScreen, MessageScreen, QuestionScreen, RulesScreen
from exact61.terminal.session import GameSession
from exact61.terminal.widgets import (
    Board,
    FittedLines,
    FullScreenApp,
    GameLog,
    LayoutPicture,
    Token,
    TokenRow,
    TooSmall,
)

if TYPE_CHECKING:  # the review loads the equity table: only when asked for
    pass

HAND_STYLES = {
    "playable": "bold black on bright_cyan",
    "idle": "grey50",
    "selected": "bold black on yellow",
    "label": "bold",
    "help": "italic",
    "hint": "bold black on yellow",
}
LETTERS = "abcdefghijkl"
T = TypeVar("T")
ENTER_MARK = "⏎"  # on the board, the place where Enter plays the only choice


async def in_thread(work: Callable[[], T]) -> T:
    """`work()`, done in a thread while the event loop goes on (keys, redraws). A daemon
    thread: quitting does not wait for an answer nobody will use any more."""
    answer: Future[T] = Future()

    def think() -> None:
        if not answer.set_running_or_notify_cancel():
            return
        try:
            answer.set_result(work())
        except BaseException as err:
            answer.set_exception(err)

    threading.Thread(target=think, name="exact61-decide", daemon=True).start()
    return await asyncio.wrap_future(answer)


async def decided(request: BotRequest) -> Action:
    """`decide(request)`, worked out in a thread while the event loop goes on."""
    return await in_thread(lambda: decide(request))


def leave_bindings(label: str) -> list[BindingType]:
    """The keys that leave a full screen, the same on each (the game, the tour, the puzzles):
    `q`, named in the footer with `label`, and Ctrl+C and Ctrl+Q, each calling the screen's
    `action_save_quit`. A dialog that binds `q` itself (the rules) closes on it first."""
    return [
        Binding("q", "save_quit", label),
        Binding("ctrl+c", "save_quit", show=False, priority=True),
        Binding("ctrl+q", "save_quit", show=False, priority=True),
    ]


class GameApp(FullScreenApp[None]):
    """Play Exact 61 Five Up against bots, or with others at the same terminal."""

    CSS_PATH = "app.tcss"
    PLAIN = "exact61 play --plain"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear", show=False),
        Binding("tab", "next_tile(1)", show=False, priority=True),
        Binding("shift+tab", "next_tile(-1)", show=False, priority=True),
        *[Binding(str(i), f"tile({i})", show=False) for i in range(1, 10)],
        Binding("0", "tile(10)", show=False),
        *[Binding(letter, f"point('{letter}')", show=False) for letter in LETTERS],
    ]

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        # Enter has one meaning at a time: `check_action` shows the one that applies.
        return [
            *leave_bindings(_("Save and quit")),
            Binding("enter", "play_hint", _("Play the hint")),
            Binding("enter", "play_only", _("Play the only choice")),
            Binding("enter", "play_selected", _("Place it")),
            Binding("question_mark", "hint", _("Hint"), key_display="?"),
            Binding("u", "take_back", _("Take back")),
            Binding("r", "rules", _("Rules")),
        ]

    def __init__(
        self,
        session: GameSession,
        *,
        tally: bool = False,
        delay: float = 0.35,
        notes: Sequence[str] = (),
        explain: Callable[[SeatView, str], hints.Hint] = hints.explain,
    ) -> None:
        """`notes`: what the command has to tell before the game goes on (an option it
        ignored), shown on the screen until read, where a line printed before it is hidden.
        `explain`: the hint's search (`hints.explain`; a test's may think less)."""
        super().__init__()
        self.notes = list(notes)
        self.explain = explain
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
        self.read_intro = False  # a person has acted: the log's opening lines were in sight
        self.title = "Exact 61 Five Up"

    # ---- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield FittedLines(id="status")
                with Board(id="board"):
                    yield LayoutPicture()
                yield Static(id="message")
                yield TokenRow(id="hand")
                yield TokenRow(id="choices")
            yield GameLog()
        yield Footer(compact=True)

    def on_mount(self) -> None:
        board = self.query_one("#board")
        board.focus()
        for scroll in ("scroll_x", "scroll_y"):  # the arrow keys, the mouse's wheel
            self.watch(board, scroll, self.tell_more, init=False)
        self.start_log()
        self.refresh_view()
        for note in self.notes:
            self.notify(note, severity="warning", timeout=30)
        self.call_after_refresh(self.advance)

    def on_resize(self, event: events.Resize) -> None:
        self.refresh_bindings()  # the keys that apply depend on the size (check_action)
        self.call_after_refresh(self.follow_last_tile)

    def start_log(self) -> None:
        """The log's first lines: who sits where, how scores read; a resumed round so far.
        At a new game they stay in sight until a person acts (`done_reading`): in a narrow log
        (80x24, German, four players) the bots' first moves had scrolled them away unread."""
        s = self.session
        log = self.query_one(GameLog)
        log.reset()
        if s.humans and not self.read_intro and s.match.phase is not Phase.PLAY:
            log.hold()
        log.add(_("Exact 61 Five Up: reach exactly 61."))
        log.add(words.seats_line(s.seats, self.you))
        log.add(words.scoring_rule())
        log.add(_("∘ on the board: a free attach point, where a tile can go (R13)."))
        log.add(_("Scores read 2 (10): display points, then raw points (R3). r shows the rules."))
        if s.match.phase is Phase.PLAY:
            log.add("")
            for line in words.round_so_far(s.match, self.you):
                log.add(line)

    def log_line(self, line: str) -> None:
        self.query_one(GameLog).add(line)

    def done_reading(self) -> None:
        """A person acted (a move, a hint): the log follows the game from now on."""
        self.read_intro = True
        self.query_one(GameLog).follow()

    def say(self, text: str = "") -> None:
        """A note for the person at the terminal (a hint, a rule); gone with the next action."""
        message = self.query_one("#message", Static)
        message.update(text)
        message.display = bool(text)

    # ---- the flow of play --------------------------------------------------------------

    def advance(self) -> None:
        """Go on until a person must choose or a screen is shown, by what the table waits for:
        a deal at once; a bot's move or a forced one in a worker (`next_move`); a person."""
        if self.busy:
            return
        s = self.session
        waiting = s.waiting_for()
        if waiting is Waiting.OVER:
            self.show_end()
        elif waiting is Waiting.DEAL:
            s.step()
            self.log_line("")
            opener = s.match.rounds[-1].opener
            self.log_line(words.opener_line(len(s.match.rounds), opener, self.you))
            self.refresh_view()
            self.call_after_refresh(self.advance)
        elif waiting is Waiting.PERSON:
            seat = s.to_act
            assert seat is not None
            if self.you is None and self.viewer != seat:  # hot seat: hide the last hand first
                self.cover(seat)
            else:
                self.start_turn()
        else:
            self.busy = True  # until the move is made: nothing else goes on meanwhile
            self.run_worker(self.next_move(s), group="table", exclusive=True)

    async def next_move(self, session: GameSession) -> None:
        """The next move no person makes, `delay` seconds after the last: a bot's, thought out
        in a thread from its request while the screen and the keys go on (nothing a key does
        then changes the game), or a draw or pass R10 forces. Dropped if the game has moved on
        meanwhile (another match), as it is when the app quits (the worker is cancelled)."""
        loop = asyncio.get_running_loop()
        due = loop.time() + self.delay
        seq = session.seq
        choice: Action | None = None
        if session.waiting_for() is Waiting.BOT:
            choice = await decided(session.bot_request())
        await asyncio.sleep(max(0.0, due - loop.time()))
        if session is not self.session or session.seq != seq:
            return
        self.busy = False
        if choice is not None:
            self.take(choice)
            return
        update = session.step()  # the forced draw or pass
        assert update is not None
        self.moved(update)

    def cover(self, seat: int) -> None:
        """Hot seat: the screen hides the table until the next person says only they look."""
        self.hide_hand()
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

    def hide_hand(self) -> None:
        """Nothing of the last person's hand stays on screen: hand, choices, hint, notes."""
        self.viewer = None
        self.selected = None
        self.hinted = None
        self.say()
        self.clear_notifications()
        self.refresh_view()

    def uncover(self, seat: int) -> None:
        self.busy = False
        self.viewer = seat
        self.start_turn()

    def start_turn(self) -> None:
        self.waiting = True
        pending = self.session.match.pending_draw
        if pending is not None:  # R10: the drawn tile must be placed; its places show at once
            self.selected = pending
        self.refresh_view()

    def take(self, action: Action) -> None:
        """Apply an action (a person's, or a bot's choice) for the seat to act, and go on."""
        seat = self.session.to_act
        if seat is not None and self.session.is_human(seat):  # not a draw R10 forced on them
            self.done_reading()
        self.moved(self.session.apply(action))

    def moved(self, update: Update) -> None:
        """After an action: log it, settle the round if it ended, and go on. What the person
        had on screen for their turn (a selected tile, a hint, a note) goes, and so does a
        hint still being thought out."""
        s = self.session
        self.waiting = False
        self.selected = None
        self.hinted = None
        self.say()
        self.workers.cancel_group(self, "hint")
        self.log_step(update)
        if self.you is None and s.to_act != update.seat and s.is_human(update.seat):
            self.hide_hand()  # hot seat: the person is done; their hand leaves the screen
        self.refresh_view()
        end = s.match.rounds[-1].end
        if update.round_ended and end is not None and end.kind != "target":
            self.busy = True
            if self.you is None:
                self.hide_hand()
            lines = words.settlement(s.match.rounds[-1], s.players, self.you)
            scores = _("Scores: {scores}").format(
                scores=words.scores_line(s.match, self.you, self.tally)
            )
            title = _("Round {n} settled").format(n=len(s.match.rounds))
            self.log_line(f"{title}. {scores}")
            self.push_screen(
                MessageScreen(
                    title, [*lines, "", scores], _("Press Enter to continue."), "settlement"
                ),
                lambda _answer: self.resume_after_screen(),
            )
            return
        self.advance()

    def resume_after_screen(self) -> None:
        self.busy = False
        self.advance()

    def log_step(self, step: Update) -> None:
        s = self.session
        for line in words.describe(step, s.match, self.you):
            self.log_line(line)

    def show_end(self) -> None:
        s = self.session
        self.busy = True
        if self.you is None:
            self.hide_hand()  # the hands are all shown below: none stays on the table
        lines = [
            words.winner_line(s.match, self.you),
            *words.won_mid_round(s.match, self.you),  # R30: why it ended here, and the hands
            _("Final scores: {scores}").format(
                scores=words.scores_line(s.match, self.you, self.tally)
            ),
        ]
        self.push_screen(
            QuestionScreen(_("The match is over"), lines, _("Play again? [y/N]"), "end"),
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
        self.start_log()
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
        return {p: LETTERS[i] for i, p in enumerate(points[: len(LETTERS)])}

    def only_play(self) -> Play | None:
        """The only legal choice, when it places a tile at an attach point: Enter plays it."""
        legal = self.legal_for_viewer()
        if len(legal) == 1 and isinstance(legal[0], Play) and legal[0].at is not None:
            return legal[0]
        return None

    def marks(self) -> dict[AttachPoint, str]:
        """The places marked on the board, those the prompt names: the selected tile's,
        lettered, or else the only choice's, where Enter plays it."""
        choices = self.choices()
        only = self.only_play()
        if not choices and only is not None and only.at is not None:
            return {only.at: ENTER_MARK}
        return choices

    def selected_plays(self) -> list[Play]:
        return [
            a
            for a in self.legal_for_viewer()
            if isinstance(a, Play) and self.selected is not None and a.tile == self.selected
        ]

    def refresh_view(self) -> None:
        s = self.session
        match = s.match
        layout = match.layout
        picture = self.query_one(LayoutPicture)
        picture.show(draw(layout, self.marks()))
        self.call_after_refresh(self.follow_last_tile)
        seat = s.to_act
        if match.phase is Phase.PLAY and seat is not None:
            turn = (
                _("Your turn.")
                if seat == self.viewer and self.waiting
                else _("{seat} to play.").format(seat=words.seat_title(seat, s.seats[seat], None))
            )
        else:
            turn = ""
        scores = _("Scores: {scores}")
        status = [
            [_("Round {n}").format(n=len(match.rounds)) + "   " + turn],
            [
                scores.format(scores=words.scores_line(match, self.viewer, self.tally)),
                scores.format(scores=words.scores_line(match, self.viewer, self.tally, short=True)),
                *(
                    [words.tally_line(match, self.viewer)]  # the marks say they are scores
                    if self.tally
                    else []
                ),
            ],
        ]
        if match.phase is Phase.PLAY:
            sizes = match.hand_sizes()

            def others(**how: bool) -> str:
                return words.others_line(s.seats, sizes, self.viewer, match.boneyard_size, **how)

            # the bots are named in the log; the seats in words while they fit, then the
            # counts alone, the seats still named as everywhere else, then once; `S1 5` at the last
            status.append(
                [
                    others(),
                    others(bots=False),
                    others(counts=True),
                    others(grouped=True),
                    others(short=True),
                ]
            )
        self.query_one("#status", FittedLines).set_lines(status)
        if not self.marks():
            self.query_one("#main").remove_class("board-first")  # the log is back
        board = self.query_one("#board", ScrollableContainer)
        board.border_subtitle = (  # on the board's frame: a row more for the board
            "" if layout.is_empty else words.scored_ends(layout)
        )
        self.query_one("#hand", TokenRow).set_tokens(self.hand_tokens())
        self.query_one("#choices", TokenRow).set_tokens(self.choice_tokens())
        self.refresh_bindings()

    def follow_last_tile(self) -> None:
        """Keep in sight the places the prompt names (the lettered places the selected tile
        fits, or the only choice's) with the tiles they attach to, or else the tile placed
        last (`Board.keep_in_sight`). When the places are spread wider than the board, the log
        gives way to the board until the tile is placed; when they cannot all be shown even
        so, the hinted place (or place a) is, and the arrows scroll to the others."""
        picture = self.query_one(LayoutPicture)
        board = self.query_one("#board", Board)
        if not board.scrollable_content_region.area:  # not shown: the terminal is too small
            return
        main = self.query_one("#main")
        if not board.places_fit(picture, self.marks()) and not main.has_class("board-first"):
            main.add_class("board-first")
            self.call_after_refresh(self.follow_last_tile)
            return
        hinted = self.hinted.at if isinstance(self.hinted, Play) else None
        board.keep_in_sight(picture, self.marks(), hinted)

    def tell_more(self) -> None:
        """The board's frame names the way to the rest of the layout and to the places the
        prompt offers out of sight (`Board.tell_more`)."""
        self.query_one("#board", Board).tell_more(self.query_one(LayoutPicture), self.marks())

    def hand_tokens(self) -> list[Token]:
        s = self.session
        if self.viewer is None or s.match.phase is not Phase.PLAY:
            return []
        legal = self.legal_for_viewer()
        playable = {a.tile for a in legal if isinstance(a, Play)}
        pending = s.match.pending_draw if s.to_act == self.viewer else None
        tokens = [Token(_("Your hand:"), HAND_STYLES["label"])]
        for i, tile in enumerate(s.match.hand(self.viewer), 1):
            # keys 1-9, then 0; beyond the tenth, Tab reaches a tile (or a click)
            text = f"{i % 10} {tile}" if i <= 10 else str(tile)
            if tile == self.selected:
                text = "▶" + text
                style = HAND_STYLES["selected"]
            elif isinstance(self.hinted, Play) and tile == self.hinted.tile:  # an opening's
                text = "★" + text
                style = HAND_STYLES["hint"]
            else:
                style = HAND_STYLES["playable" if tile in playable else "idle"]
            if tile == pending:
                text += " " + _("(drawn)")
            tokens.append(Token(text, style, f"tile({i})"))
        return tokens

    def choice_tokens(self) -> list[Token]:
        """What to do now, in words: the places the selected tile fits, or how to pick one; a
        place's tile named as the board draws it (`tile_names`)."""
        s = self.session
        legal = self.legal_for_viewer()
        if not legal:
            return []
        plays = self.selected_plays()
        names = tile_names(s.match.layout) if plays or len(legal) == 1 else {}
        if plays and plays[0].at is not None:
            assert self.selected is not None
            tokens = [Token(_("Place {tile} at:").format(tile=self.selected), HAND_STYLES["label"])]
            view = s.match.view(self.viewer) if self.viewer is not None else None
            for point, letter in self.choices().items():
                action = Play(self.selected, point)
                credit = s.match.credit_of(action)
                text = f"{letter}) {words.point_name(point, names)}"
                if credit:
                    text += " " + words.gain(credit, view is not None and view.rejects(credit))
                style = ""
                if action == self.hinted:
                    text += " ★"
                    style = HAND_STYLES["hint"]
                tokens.append(Token(text, style, f"point('{letter}')"))
            return tokens
        if len(legal) == 1 or len(plays) == 1:  # the only choice, or the tile picked to open
            only = words.action_text(plays[0] if len(plays) == 1 else legal[0], names)
            return [Token(_("Enter: {action}").format(action=only))]
        return [Token(_("Pick a tile: its number, Tab for the next one, or a click."), "italic")]

    # ---- a person's choices ------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys apply now (the footer shows only those). While the terminal is too
        small to show the game, only saving and quitting does: nothing is played unseen."""
        if action == "save_quit":
            return True
        if self.too_small:
            return False
        if action == "next_tile" and isinstance(self.screen, ModalScreen):
            return False  # Tab takes priority over the screens: not under the rules, say
        if action not in ("play_hint", "play_only", "play_selected", "hint", "take_back"):
            return True
        legal = self.legal_for_viewer()
        if not legal:
            return False
        hint = self.hinted is not None and self.hinted in legal
        if action == "play_hint":
            return hint
        if action == "play_only":
            return not hint and len(legal) == 1
        if action == "play_selected":
            return not hint and len(legal) > 1 and len(self.selected_plays()) == 1
        if action == "take_back":  # or says why not, once a round is settled
            s = self.session
            return self.viewer is not None and (
                s.can_take_back(self.viewer) or s.settled_since(self.viewer)
            )
        return True  # hint

    def action_tile(self, number: int) -> None:
        legal = self.legal_for_viewer()
        if not legal or self.viewer is None:
            return
        hand = self.session.match.hand(self.viewer)
        if not 1 <= number <= len(hand):  # a key past the hand: say so, not nothing
            held = ngettext("{n} tile", "{n} tiles", len(hand)).format(n=len(hand))
            self.say(_("No tile {number}: you hold {tiles}.").format(number=number, tiles=held))
            return
        tile = hand[number - 1]
        plays = [a for a in legal if isinstance(a, Play) and a.tile == tile]
        if not plays:
            pending = self.session.match.pending_draw
            rule = "R10" if pending is not None else "R9"
            self.say(f"{tile}: {words.rule_text(rule)}")
            return
        if len(plays) == 1:  # one place only: one key plays it
            self.take(plays[0])
            return
        self.selected = tile
        self.say()
        self.refresh_view()

    def action_next_tile(self, step: int) -> None:
        """Tab: select the next tile that can be placed (any hand size, no number needed)."""
        legal = self.legal_for_viewer()
        if not legal or self.viewer is None:
            return
        playable = {a.tile for a in legal if isinstance(a, Play)}
        tiles = [t for t in self.session.match.hand(self.viewer) if t in playable]
        if not tiles:
            return
        index = tiles.index(self.selected) + step if self.selected in tiles else 0
        self.selected = tiles[index % len(tiles)]
        self.say()  # a note about the last choice is stale once the person moves on
        self.refresh_view()

    def action_point(self, letter: str) -> None:
        for point, label in self.choices().items():
            if label == letter:
                self.choose_point(point)
                return

    def on_layout_picture_point_chosen(self, message: LayoutPicture.PointChosen) -> None:
        self.choose_point(message.point)

    def choose_point(self, point: AttachPoint) -> None:
        """Place the selected tile at `point`, or the only choice's tile at its place."""
        only = self.only_play()
        tile = only.tile if self.selected is None and only is not None else self.selected
        if tile is None:
            return
        action = Play(tile, point)
        try:
            self.session.match.credit_of(action)  # legal?
        except IllegalMoveError as err:
            self.say(words.rule_text(err.rule))
            return
        self.take(action)

    def action_play_hint(self) -> None:
        if self.hinted is not None and self.hinted in self.legal_for_viewer():
            self.take(self.hinted)

    def action_play_only(self) -> None:
        legal = self.legal_for_viewer()
        if len(legal) == 1:
            self.take(legal[0])

    def action_play_selected(self) -> None:
        plays = self.selected_plays()
        if len(plays) == 1:
            self.take(plays[0])

    def action_clear(self) -> None:
        self.selected = None
        self.hinted = None
        self.say()
        self.refresh_view()

    def action_hint(self) -> None:
        if not self.legal_for_viewer() or self.viewer is None:
            return
        self.say()
        self.run_worker(self.find_hint(self.session, self.viewer), group="hint", exclusive=True)

    async def find_hint(self, session: GameSession, seat: int) -> None:
        """What the strongest bot would play for `seat`, thought out in a thread while the
        screen and the keys go on; dropped if the person has moved (or taken back) meanwhile."""
        seq = session.seq
        action, why = await self.suggestion(session, seat)
        if session is not self.session or session.seq != seq or self.viewer != seat:
            return
        if action not in self.legal_for_viewer():
            return
        credit = session.match.credit_of(action)
        self.hinted = action
        # On screen only, never in the shared log: at a hot seat it would show a hand's tile.
        if isinstance(action, Play) and action.at is not None:
            self.selected = action.tile  # its attach points show, lettered, the hint's with ★
            self.say(_("Hint: the place marked ★ (Enter plays it)"))
        else:
            rejected = session.match.view(seat).rejects(credit)
            line = words.hint_line(action, credit, rejected=rejected)
            self.say(line + " " + _("(Enter plays it)"))
        self.done_reading()  # the reasons are the log's last lines: in sight
        for line in why:  # why, with one person at the screen (`suggestion`)
            self.log_line(line)
        self.refresh_view()

    async def suggestion(self, session: GameSession, seat: int) -> tuple[Action, list[str]]:
        """The hint for `seat`: the expert's move and why (`hints.explain`), worked out in a
        thread; the reasons go to the log, its tiles named as the board draws them. At a hot
        seat they are not said: the log is everyone's, and they name the hand's tiles."""
        request = session.hint_request(seat)
        hint = await in_thread(lambda: self.explain(request.view, request.source))
        if self.you is None:
            return hint.action, []
        return hint.action, ["", *hints.texts(hint, request.view.layout)]

    def action_take_back(self) -> None:
        s = self.session
        if not self.legal_for_viewer() or self.viewer is None:
            return
        if s.settled_since(self.viewer):
            self.say(
                _("The last round is settled and its hands were shown: it cannot be taken back.")
            )
            return
        if not s.can_take_back(self.viewer):
            return
        undone = s.take_back(self.viewer)
        self.workers.cancel_group(self, "hint")
        self.selected = None
        self.hinted = None
        self.say()  # a note about the position taken back is stale
        self.start_log()
        self.log_line(
            ngettext(
                "Your last move is taken back ({n} action undone).",
                "Your last move is taken back ({n} actions undone).",
                undone,
            ).format(n=undone)
        )
        self.waiting = False
        self.advance()

    def action_analyse(self) -> None:
        """After the match: the post-game review of the people's decisions (all seats if
        bots only played)."""
        s = self.session
        if s.match.is_over and not isinstance(self.screen, AnalysisScreen):
            self.push_screen(AnalysisScreen(s.record_text(), s.humans or list(range(s.players))))

    def action_rules(self) -> None:
        if not isinstance(self.screen, RulesScreen):
            self.push_screen(RulesScreen())

    def action_save_quit(self) -> None:
        self.workers.cancel_all()  # a move or a hint still being thought out is not made
        if not self.session.match.is_over:
            self.session.save()
        self.exit(
            message=_("Game saved to {path}. Continue it with: {command}").format(
                command="exact61 play --resume", path=self.session.save_path
            )
            if not self.session.match.is_over
            else None
        )
