"""The terminal game's dialogs: a message, a question, the rules, and the post-game review."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown, ProgressBar, Static
from textual.worker import Worker, WorkerState, get_current_worker

from exact61 import i18n
from exact61.i18n import _
from exact61.terminal.language import InLanguage
from exact61.terminal.widgets import TooSmall

if TYPE_CHECKING:  # the review loads the equity table: only when asked for
    from exact61.analysis.analyze import MatchAnalysis


class MessageScreen(InLanguage, ModalScreen[bool]):
    """A screen of text to read, then Enter: a settlement, the cover before a hot-seat turn.
    `q` saves and quits there as on the table under it (a modal screen hides the app's keys):
    two people at a hot seat stopping at the cover pressed it for nothing."""

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        return [
            Binding("q", "leave", _("Save and quit")),
            Binding("enter", "done(True)", _("Continue")),
            *[Binding(key, "done(True)", show=False) for key in dict.fromkeys([_("y"), "y"])],
            Binding("n", "done(False)", show=False),
            Binding("escape", "done(False)", show=False),
            Binding("r", "app.rules", _("Rules")),
        ]

    def __init__(
        self, title: str, lines: list[str], prompt: str, screen_id: str, *, leaves: bool = True
    ) -> None:
        """`leaves`: whether `q` saves and quits; else it closes the screen as Enter does
        (the end of the guided match, which Enter leaves: nothing is left to save)."""
        super().__init__(id=screen_id)
        self.title_text = title
        self.lines = lines
        self.prompt = prompt
        self.leaves = leaves

    async def action_leave(self) -> None:
        if self.leaves:
            await self.app.run_action("save_quit")
        else:
            self.dismiss(True)

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
            Binding("q", "done(False)", show=False),  # as Enter: it quits
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

    def __init__(self, only: Sequence[str] = ()) -> None:
        """All the rules, or `only` these (`R14`), as `exact61 rules R14` prints them."""
        super().__init__()
        self.only = list(only)

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with VerticalScroll(id="rules"):
            yield Markdown(self.text())
        yield Footer(compact=True)

    def text(self) -> str:
        """The rules shown, as Markdown."""
        lang = i18n.language()
        if not self.only:
            return i18n.rules_text(lang)
        paragraphs = i18n.rule_paragraphs(lang)
        return "\n\n".join(paragraphs[rule] for rule in self.only if rule in paragraphs)

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
