"""The full-screen terminal game (Textual): the layout as a picture, your hand, the scores, a
running log, settlements, hints, the rules, hot seat, taking back, saving as you go.

The game goes on by the Table's loop (`waiting_for`, `step`); a bot's choice, the hint and the
post-game analysis are worked out in workers, so the screen answers keys all the while."""

from __future__ import annotations

import asyncio
import textwrap
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, cast

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.geometry import Region, Size
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Markdown, ProgressBar, RichLog, Static
from textual.worker import Worker, WorkerState, get_current_worker

from exact61 import i18n
from exact61.core import Action, AttachPoint, IllegalMoveError, Phase, Play, Tile
from exact61.i18n import _, ngettext
from exact61.render.picture import Picture, draw
from exact61.table import BotRequest, Update, Waiting, decide
from exact61.terminal import words
from exact61.terminal.session import GameSession

if TYPE_CHECKING:  # the review loads the equity table: only when asked for
    from exact61.analysis.analyze import MatchAnalysis

STYLES = {
    "tile": "black on grey85",
    "last": "bold black on yellow",
    "scored": "bold dark_green on grey85",
    "marker": "bold cyan",
    "choice": "bold black on bright_cyan",
    "line": "grey50",
}
HAND_STYLES = {
    "playable": "bold black on bright_cyan",
    "idle": "grey50",
    "selected": "bold black on yellow",
    "label": "bold",
    "help": "italic",
    "hint": "bold black on yellow",
}
LETTERS = "abcdefghijkl"
ENTER_MARK = "⏎"  # on the board, the place where Enter plays the only choice
# Below this the hand, the choices and the board cannot all be shown: the app says so instead.
MIN_WIDTH, MIN_HEIGHT = 80, 24
LOG_LINES = 400  # kept for re-wrapping after a resize


async def decided(request: BotRequest) -> Action:
    """`decide(request)`, worked out in a thread while the event loop goes on (keys, redraws).
    A daemon thread: quitting does not wait for a choice nobody will use any more."""
    answer: Future[Action] = Future()

    def think() -> None:
        if not answer.set_running_or_notify_cancel():
            return
        try:
            answer.set_result(decide(request))
        except BaseException as err:
            answer.set_exception(err)

    threading.Thread(target=think, name="exact61-decide", daemon=True).start()
    return await asyncio.wrap_future(answer)


class InLanguage:
    """The app, or a screen, whose keys the footer names in the language in use.

    Textual reads a class's BINDINGS once, when the class is made, but the language is known
    only when a game starts. So making one of these makes an instance of a subclass made for
    the language in use (`in_language`), whose BINDINGS are `labelled_bindings()` in it.
    """

    LANGUAGE: ClassVar[str | None] = None  # set on the subclass made for a language

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        """The keys with labels (and any key that is itself a word: yes is "j" in German)."""
        return []

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        return super().__new__(in_language(cls))


Labelled = TypeVar("Labelled", bound=InLanguage)
_MADE: dict[tuple[type[InLanguage], str], type[InLanguage]] = {}


def in_language(cls: type[Labelled]) -> type[Labelled]:
    """`cls` for the language in use: a subclass, made once a language, with the bindings of
    `cls.labelled_bindings()` added (a key bound there replaces the same key of `cls`)."""
    lang = i18n.language()
    if cls.LANGUAGE is not None:  # already a language's subclass
        if lang == cls.LANGUAGE:
            return cls
        cls = cls.__bases__[0]
    made = _MADE.get((cls, lang))
    if made is None:
        made = _MADE[cls, lang] = type(
            cls.__name__,  # the name CSS selects it by
            (cls,),
            {
                "BINDINGS": cls.labelled_bindings(),
                "LANGUAGE": lang,
                "__module__": cls.__module__,  # CSS_PATH is relative to it
                "__qualname__": cls.__qualname__,
                "__doc__": cls.__doc__,
            },
        )
    return cast(type[Labelled], made)


@dataclass(frozen=True)
class Token:
    """One entry of a row: a tile of the hand, an attach point to choose, a label."""

    text: str
    style: str = ""
    action: str | None = None  # run on the app when clicked, e.g. "tile(3)"


class TokenRow(Widget):
    """Entries laid out in lines as wide as the row allows: wrapped, never cut off."""

    GAP = 2

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        self.tokens: list[Token] = []
        self._hits: list[tuple[int, int, int, Token]] = []  # line, first and last column

    def set_tokens(self, tokens: list[Token]) -> None:
        if tokens != self.tokens:
            self.tokens = tokens
            self.refresh(layout=True)

    def lines(self, width: int) -> list[list[tuple[int, Token]]]:
        """Each line's tokens with the column each starts at. A row that starts with a label
        (a token with no action) continues under its first entry, so that every line's entries
        start at the same column; a label too wide for that (more than a third of the row, or
        an entry would not fit beside it) stands on a line of its own when the entries do not
        fit beside it on one line."""
        width = max(width, 1)
        tokens = self.tokens
        if len(tokens) > 1 and tokens[0].action is None:
            hang = cell_len(tokens[0].text) + self.GAP
            widest = max(cell_len(token.text) for token in tokens[1:])
            if hang <= width // 3 and hang + widest <= width:
                return self.laid_out(tokens, width, hang)
            beside = self.laid_out(tokens, width, 0)
            if len(beside) == 1:
                return beside
            return [[(0, tokens[0])], *self.laid_out(tokens[1:], width, 0)]
        return self.laid_out(tokens, width, 0)

    def laid_out(self, tokens: list[Token], width: int, hang: int) -> list[list[tuple[int, Token]]]:
        """`tokens` in lines of `width`, the lines after the first starting at `hang`."""
        pieces: list[Token] = []
        for token in tokens:  # a token wider than the row is wrapped on its own, by words
            if cell_len(token.text) <= width - hang:
                pieces.append(token)
            else:
                pieces += [
                    Token(part, token.style, token.action)
                    for part in textwrap.wrap(token.text, width - hang) or [""]
                ]
        out: list[list[tuple[int, Token]]] = []
        line: list[tuple[int, Token]] = []
        x = 0
        for token in pieces:
            size = cell_len(token.text)
            start = x + self.GAP if line else hang if out else 0
            if line and start + size > width:
                out.append(line)
                line, start = [], hang
            line.append((start, token))
            x = start + size
        if line:
            out.append(line)
        return out

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        self._hits = []
        for y, line in enumerate(self.lines(self.content_size.width)):
            if y:
                text.append("\n")
            x = 0
            for start, token in line:
                text.append(" " * (start - x))
                text.append(token.text, token.style)
                x = start + cell_len(token.text)
                self._hits.append((y, start, x, token))
        return text

    def text(self, width: int) -> str:
        """The row as plain text at `width` (for tests and screen readers)."""
        out = []
        for line in self.lines(width):
            row = ""
            for start, token in line:
                row += " " * (start - len(row)) + token.text
            out.append(row)
        return "\n".join(out)

    async def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for y, start, end, token in self._hits:
            if y == offset.y and start <= offset.x < end and token.action:
                await self.app.run_action(token.action)
                return


class FittedLines(Widget):
    """Lines of one row each, never wrapped (the board keeps its rows): each line is the first
    of its wordings, longest first, that fits the width, else the last one cut with "…"."""

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        self.wordings: list[list[str]] = []

    def set_lines(self, wordings: list[list[str]]) -> None:
        """Each line as its wordings, longest first."""
        if wordings != self.wordings:
            self.wordings = wordings
            self.refresh(layout=True)

    def text(self, width: int) -> str:
        """The lines as shown at `width` (for tests and screen readers)."""
        width = max(width, 1)
        out = []
        for wordings in self.wordings:
            line = next((w for w in wordings if cell_len(w) <= width), wordings[-1])
            if cell_len(line) > width:
                line = set_cell_size(line, width - 1).rstrip() + "…"
            out.append(line)
        return "\n".join(out)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.wordings)

    def render(self) -> Text:
        return Text(self.text(self.content_size.width), no_wrap=True, overflow="crop")


class Board(ScrollableContainer):
    """The frame the layout's picture scrolls in: ← and → go a tile's length at a time."""

    TILE = 5  # columns: [1|2]

    def action_scroll_left(self) -> None:
        self.scroll_to(x=self.scroll_target_x - self.TILE, animate=False)

    def action_scroll_right(self) -> None:
        self.scroll_to(x=self.scroll_target_x + self.TILE, animate=False)


class LayoutPicture(Static):
    """The layout drawn like tiles on a table; click a lettered attach point to place there."""

    def __init__(self) -> None:
        super().__init__(id="picture")
        self.picture = Picture((), {})

    def show(self, picture: Picture) -> None:
        self.picture = picture
        text = Text(no_wrap=True)
        for i, row in enumerate(picture.rows):
            if i:
                text.append("\n")
            for cell in row:
                text.append(cell.char, STYLES.get(cell.style, ""))
        if not picture.rows:
            text = Text(_("The table is empty: the opener may play any tile (R7)."), "italic")
        self.set_class(not picture.rows, "empty")  # the sentence wraps; a picture scrolls
        self.update(text)

    def last_region(self) -> Region | None:
        """Where the tile placed last is, in the picture's own cells."""
        cells = [
            (x, y)
            for y, row in enumerate(self.picture.rows)
            for x, cell in enumerate(row)
            if cell.style == "last"
        ]
        if not cells:
            return None
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        return Region(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)

    def place_region(self, point: AttachPoint) -> Region | None:
        """Where the free attach point `point` is, with the tile it belongs to (the prompt
        names a place by that tile), in the picture's own cells."""
        at = self.picture.markers.get(point)
        if at is None:
            return None
        y, x = at
        cells = [
            Region(column, row, 1, 1)
            for row, line in enumerate(self.picture.rows)
            for column, cell in enumerate(line)
            if cell.tile == point.tile
        ]
        return Region.from_union([Region(x, y, 1, 1), *cells])

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        rows = self.picture.rows
        if offset is None or not 0 <= offset.y < len(rows):
            return
        if not 0 <= offset.x < len(rows[offset.y]):
            return
        cell = rows[offset.y][offset.x]
        if cell.point is not None and cell.style == "choice":
            app = self.app
            assert isinstance(app, GameApp)
            app.choose_point(cell.point)


class GameLog(RichLog):
    """The running log; it keeps its lines and wraps them again when its width changes."""

    def __init__(self) -> None:
        super().__init__(id="log", wrap=True, markup=False, min_width=20)
        self.kept: list[str] = []
        self._wrapped_at = 0

    def add(self, line: str) -> None:
        self.kept = [*self.kept[-LOG_LINES:], line]
        self.write(line)

    def reset(self) -> None:
        self.kept = []
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if self._wrapped_at and width != self._wrapped_at:
            self.clear()
            for line in self.kept:
                self.write(line, scroll_end=True)
        self._wrapped_at = width


class TooSmall(Static):
    """Shown instead of the game when the terminal is smaller than the game can be drawn in."""

    DEFAULT_CLASSES = "too-small"

    def render(self) -> Text:
        width, height = self.app.size
        return Text(
            _(
                "This terminal is {width}x{height}: the game needs at least {min_width}x"
                "{min_height}. Enlarge the window, or play line by line with: exact61 play --plain"
            ).format(width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT)
        )


class MessageScreen(InLanguage, ModalScreen[bool]):
    """A screen of text to read, then Enter: a settlement, the cover before a hot-seat turn."""

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        return [
            Binding("enter", "done(True)", _("Continue")),
            *[Binding(key, "done(True)", show=False) for key in dict.fromkeys([_("y"), "y"])],
            Binding("n", "done(False)", show=False),
            Binding("escape", "done(False)", show=False),
            Binding("r", "app.rules", _("Rules")),
        ]

    def __init__(self, title: str, lines: list[str], prompt: str, screen_id: str) -> None:
        super().__init__(id=screen_id)
        self.title_text = title
        self.lines = lines
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with VerticalScroll(id="dialog"):
            yield Static(Text(self.title_text, "bold"), id="dialog-title")
            yield Static("\n".join(self.lines), id="dialog-body")
            yield Static(Text(self.prompt, "italic"), id="dialog-prompt")
        yield Footer(compact=True)

    def action_done(self, answer: bool) -> None:
        self.dismiss(answer)


class QuestionScreen(MessageScreen):
    """The end of the match: play again? [y/N]. Enter is the default, no (it quits); the
    analysis of the game is a key away."""

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        yes = _("y")  # the language's yes first: the footer shows it
        return [
            Binding("enter", "done(False)", _("Quit")),
            Binding(yes, "done(True)", _("Play again")),
            *([Binding("y", "done(True)", show=False)] if yes != "y" else []),
            Binding("n", "done(False)", show=False),
            Binding("escape", "done(False)", show=False),
            Binding("r", "app.rules", _("Rules")),
            Binding(_("a"), "app.analyse", _("Analyse this game")),
        ]


class RulesScreen(InLanguage, ModalScreen[None]):
    """The rules R1-R31 in the game's language, scrollable; what `2 (10)` means at the top.
    The screen, not the rules' scrolling frame, has the keys, so the footer names them all."""

    AUTO_FOCUS = ""  # nothing: the keys are the screen's
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "close", show=False),
        Binding("r", "close", show=False),  # the key that opened the rules closes them
    ]

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        label = _("Scroll")
        scroll = Binding.Group(label)
        return [
            Binding("escape", "close", _("Back to the game")),
            *[
                Binding(key, f"scroll_rules('{how}')", label, key_display=shown, group=scroll)
                for key, how, shown in [
                    ("up", "up", "↑"),
                    ("down", "down", "↓"),
                    ("pageup", "page_up", "PgUp"),
                    ("pagedown", "page_down", "PgDn"),
                ]
            ],
            *[
                Binding(key, f"scroll_rules('{how}')", show=False)
                for key, how in [("home", "home"), ("end", "end"), ("space", "page_down")]
            ],
        ]

    def action_scroll_rules(self, how: str) -> None:
        rules = self.query_one("#rules", VerticalScroll)
        getattr(rules, f"scroll_{how}")(animate=False)

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with VerticalScroll(id="rules"):
            yield Markdown(i18n.rules_text(i18n.language()))
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)


class AnalysisClosed(Exception):
    """The analysis screen was closed: its analysis stops at the next decision."""


class AnalysisScreen(InLanguage, ModalScreen[None]):
    """Post-game review of the finished match (`exact61 analyze` in a screen): each decision of
    the people at the table against the best move, valued by match equity, worked out in a
    worker thread with a progress bar."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("q", "close", show=False),
    ]

    class Progress(Message):
        """`done` decisions of `total` analysed (sent by the worker thread)."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done = done
            self.total = total

    def __init__(self, record: str, seats: list[int]) -> None:
        super().__init__(id="analysis")
        self.record = record
        self.seats = seats
        self.result: MatchAnalysis | None = None

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        return [Binding("enter", "close", _("Back"))]

    def on_mount(self) -> None:
        review = self.query_one("#review", VerticalScroll)
        review.focus()
        self.watch(review, "virtual_size", self.tell_scrolling, init=False)  # once laid out
        self.analyse()

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with VerticalScroll(id="review"):  # 80 columns wide, and long: it scrolls down
            yield Static(Text(_("Analysing this game..."), "bold"), id="review-title")
            yield ProgressBar(id="review-progress", show_eta=False)
            yield Static("", id="review-body")
        yield Footer(compact=True)

    @work(thread=True, exclusive=True, exit_on_error=False)
    def analyse(self) -> MatchAnalysis:
        """The analysis takes seconds: in a thread, telling its progress by messages (the
        thread-safe way), while the screen and its keys go on."""
        from exact61.analysis.analyze import IN_GAME, analyze_match

        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise AnalysisClosed
            self.post_message(self.Progress(done, total))

        return analyze_match(self.record, seats=self.seats, iterations=IN_GAME, progress=progress)

    def on_analysis_screen_progress(self, message: Progress) -> None:
        self.query_one(ProgressBar).update(total=message.total, progress=message.done)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.state is WorkerState.SUCCESS and worker.result is not None:
            self.done(worker.result)
        elif worker.state is WorkerState.ERROR:
            error = worker.error
            self.failed(f"{type(error).__name__}: {error}")

    def done(self, result: MatchAnalysis) -> None:
        from exact61.analysis.report import report

        self.result = result
        self.query_one("#review-title", Static).update(Text(_("Analysis of this game"), "bold"))
        self.query_one(ProgressBar).display = False
        self.query_one("#review-body", Static).update(report(result))

    def on_resize(self) -> None:
        self.call_after_refresh(self.tell_scrolling)

    def tell_scrolling(self) -> None:
        """The frame names the keys that scroll the analysis, while there is more to see."""
        review = self.query_one("#review", VerticalScroll)
        review.border_subtitle = _("↑ ↓ PgUp PgDn: scroll") if review.max_scroll_y > 0 else ""

    def failed(self, why: str) -> None:
        self.query_one(ProgressBar).display = False
        self.query_one("#review-body", Static).update(
            _("The analysis failed: {why}").format(why=why)
        )

    def action_close(self) -> None:
        self.workers.cancel_node(self)
        self.dismiss(None)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def spanning(regions: list[Region]) -> Region | None:
    """The cells from the first to the last of `regions`."""
    return Region.from_union(regions) if regions else None


class GameApp(InLanguage, App[None]):
    """Play Exact 61 Five Up against bots, or with others at the same terminal."""

    CSS_PATH = "app.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (MIN_WIDTH, "-wide")]  # noqa: RUF012
    # From 30 rows there is room for a blank line above the hand and the choices.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (MIN_HEIGHT, "-tall"), (30, "-roomy")]  # noqa: RUF012
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear", show=False),
        Binding("ctrl+q", "save_quit", show=False, priority=True),
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
            Binding("ctrl+c", "save_quit", _("Save and quit"), priority=True),
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
    ) -> None:
        """`notes`: what the command has to tell before the game goes on (an option it
        ignored), shown on the screen until read, where a line printed before it is hidden."""
        super().__init__()
        self.notes = list(notes)
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
        """The log's first lines: who sits where, how scores read; a resumed round so far."""
        s = self.session
        log = self.query_one(GameLog)
        log.reset()
        log.add(_("Exact 61 Five Up: reach exactly 61."))
        log.add(words.seats_line(s.seats, self.you))
        log.add(_("Scores read 2 (10): display points, then raw points (R3). r shows the rules."))
        if s.match.phase is Phase.PLAY:
            log.add("")
            for line in words.round_so_far(s.match, self.you):
                log.add(line)

    def log_line(self, line: str) -> None:
        self.query_one(GameLog).add(line)

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
            status.append(
                [
                    words.others_line(s.seats, sizes, self.viewer, match.boneyard_size),
                    words.others_line(s.seats, sizes, self.viewer, match.boneyard_size, short=True),
                ]
            )
        self.query_one("#status", FittedLines).set_lines(status)
        if not self.marks():
            self.query_one("#main").remove_class("board-first")  # the log is back
        board = self.query_one("#board", ScrollableContainer)
        board.border_subtitle = (  # on the board's frame: a row more for the board
            ""
            if layout.is_empty
            else _("Scored ends: {ends} = {total}").format(
                ends=words.ends_sum(layout), total=layout.end_sum
            )
        )
        self.query_one("#hand", TokenRow).set_tokens(self.hand_tokens())
        self.query_one("#choices", TokenRow).set_tokens(self.choice_tokens())
        self.refresh_bindings()

    def follow_last_tile(self) -> None:
        """Keep in sight the places the prompt names (the lettered places the selected tile
        fits, or the only choice's) with the tiles they attach to, or else the tile placed
        last, however large the layout grows. When the places are spread wider than the board,
        the log gives way to the board until the tile is placed; when they cannot all be shown
        even so, the hinted place (or place a) is, and the arrows scroll to the others."""
        picture = self.query_one(LayoutPicture)
        board = self.query_one("#board", ScrollableContainer)
        view = board.scrollable_content_region.size
        if not view.area:  # not shown: the terminal is too small
            return
        markers = picture.picture.markers
        places = [
            (markers[p], p, region)
            for p in self.marks()
            if (region := picture.place_region(p)) is not None
        ]
        region = spanning([r for _at, _p, r in places])
        main = self.query_one("#main")
        if region is not None and region.width > view.width and not main.has_class("board-first"):
            main.add_class("board-first")
            self.call_after_refresh(self.follow_last_tile)
            return
        if region is not None and (region.width > view.width or region.height > view.height):
            hinted = self.hinted.at if isinstance(self.hinted, Play) else None
            first, _p, first_region = next((x for x in places if x[1] == hinted), places[0])
            shown = [first_region]  # and the places nearest to it, as many as fit the board
            for _at, _p, place in sorted(places, key=lambda x: distance(x[0], first)):
                wider = spanning([*shown, place])
                if wider is not None and wider.width <= view.width and wider.height <= view.height:
                    shown.append(place)
            region = spanning(shown)
        if region is None:
            region = picture.last_region()
        if region is not None:
            gutter = picture.styles.gutter
            region = region.translate(picture.virtual_region.offset).translate(
                (gutter.left, gutter.top)
            )
            rows = max(0, min(1, (view.height - region.height) // 2))  # some table around it,
            columns = max(0, min(6, (view.width - region.width) // 2))  # as the board has room
            board.scroll_to_region(
                region.grow((rows, columns, rows, columns)), animate=False, immediate=True
            )
        self.tell_more()

    def tell_more(self) -> None:
        """The board's frame says where the board goes on past its edges, and that the arrow
        keys scroll there: the way to the rest of a layout wider or taller than the board."""
        board = self.query_one("#board", ScrollableContainer)
        before = [a for a, more in [("◀", board.scroll_x > 0), ("▲", board.scroll_y > 0)] if more]
        after = [
            a
            for a, more in [
                ("▼", board.scroll_y < board.max_scroll_y),
                ("▶", board.scroll_x < board.max_scroll_x),
            ]
            if more
        ]
        board.border_title = (
            " ".join([*before, _("more (arrow keys)"), *after]) if before or after else ""
        )
        board.styles.border_title_align = "left" if before and not after else "right"

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
            else:
                style = HAND_STYLES["playable" if tile in playable else "idle"]
            if tile == pending:
                text += " " + _("(drawn)")
            tokens.append(Token(text, style, f"tile({i})"))
        return tokens

    def choice_tokens(self) -> list[Token]:
        """What to do now, in words: the places the selected tile fits, or how to pick one."""
        s = self.session
        legal = self.legal_for_viewer()
        if not legal:
            return []
        plays = self.selected_plays()
        if plays and plays[0].at is not None:
            assert self.selected is not None
            tokens = [Token(_("Place {tile} at:").format(tile=self.selected), HAND_STYLES["label"])]
            for point, letter in self.choices().items():
                action = Play(self.selected, point)
                credit = s.match.credit_of(action)
                text = f"{letter}) {words.point_name(point)}"
                if credit:
                    text += f" +{words.points(credit)}"
                style = ""
                if action == self.hinted:
                    text += " ★"
                    style = HAND_STYLES["hint"]
                tokens.append(Token(text, style, f"point('{letter}')"))
            return tokens
        if len(legal) == 1:
            return [Token(_("Enter: {action}").format(action=words.action_text(legal[0])))]
        return [Token(_("Pick a tile: its number, Tab for the next one, or a click."), "italic")]

    # ---- a person's choices ------------------------------------------------------------

    @property
    def too_small(self) -> bool:
        width, height = self.size
        return width < MIN_WIDTH or height < MIN_HEIGHT

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
        action = await decided(session.hint_request(seat))
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
            self.say(words.hint_line(action, credit) + " " + _("(Enter plays it)"))
        self.refresh_view()

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
            message=_("Game saved to {path}. Continue it with: exact61 play --resume").format(
                path=self.session.save_path
            )
            if not self.session.match.is_over
            else None
        )
