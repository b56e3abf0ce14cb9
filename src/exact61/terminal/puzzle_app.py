"""`exact61 puzzle` in full screen (Textual): the puzzle's layout drawn by the game's own
picture (`render.picture.draw`), what the seat may know, its choices in a list; a chosen move
is judged at once, a wrong one shown the defence that refutes it. The same sitting as the plain
mode (`puzzle_plain.PuzzleRun`): the same puzzles, progress and words."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from exact61.core import Action, AttachPoint, Play
from exact61.core.layout import Layout
from exact61.i18n import _
from exact61.learn.puzzles import Puzzle, match_at
from exact61.render.picture import draw
from exact61.terminal.app import leave_bindings
from exact61.terminal.puzzle_plain import (
    PuzzleRun,
    choice_list,
    facts_lines,
    goal_text,
    standing,
    title_line,
    verdict_lines,
)
from exact61.terminal.widgets import (
    MIN_HEIGHT,
    Board,
    FullScreenApp,
    LayoutPicture,
    TooSmall,
)


class PuzzleApp(FullScreenApp[None]):
    """Proved puzzles, one after another (or the one asked for)."""

    CSS_PATH = "app.tcss"  # the game's board, its frame and the notice of a small terminal
    CSS = """
    #title { text-style: bold; padding: 0 1; }
    #goal, #facts, #verdict, #standing { padding: 0 1; }
    /* The board takes the rows the page has left, no more than its layout needs (`fit_board`):
       it gives way to the goal and the moves at 80x24 (the page scrolled past the goal). */
    #board { height: 1fr; min-height: 5; }
    #choices { height: auto; max-height: 8; }
    #verdict { height: auto; }
    #page { scrollbar-gutter: stable; }  /* the board keeps its width as the verdict grows */
    """
    # no -roomy: app.tcss's margin above the choices is for the game's rows, not this list
    VERTICAL_BREAKPOINTS = [(0, "-short"), (MIN_HEIGHT, "-tall")]  # noqa: RUF012
    PLAIN = "exact61 puzzle --plain"

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        return [
            *leave_bindings(_("Quit")),
            Binding("n", "next", _("Next puzzle")),
            # the list takes ↑ ↓; ← → scroll a board wider than the screen, as in the game
            Binding("left", "scroll_board('left')", show=False),
            Binding("right", "scroll_board('right')", show=False),
        ]

    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(self, sitting: PuzzleRun) -> None:
        super().__init__()
        self.sitting = sitting
        self.puzzle: Puzzle | None = None
        self.choices: list[Action] = []
        self.layout: Layout | None = None  # the puzzle's, as its seat sees it
        self.marked: int | None = None  # the move whose place the board marks
        self.answered = False

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="main"):
            yield Static(id="standing")
            with VerticalScroll(id="page"):
                yield Static(id="title")
                yield Static(id="goal")
                with Board(id="board"):
                    yield LayoutPicture()
                yield Static(id="facts")
                yield OptionList(id="choices")
                yield Static(id="verdict")
        yield Footer()

    def on_mount(self) -> None:
        board = self.query_one("#board", Board)
        for scroll in ("scroll_x", "scroll_y"):  # the arrow keys, the mouse's wheel
            self.watch(board, scroll, self.tell_more, init=False)
        self.show_next()

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_board)  # a scrollbar may come or go with the width

    # ---- the board: the place of the move in view ----------------------------------------

    def marks(self) -> dict[AttachPoint, str]:
        """The place of the move highlighted in the list (or chosen), marked by its number."""
        if self.marked is None:
            return {}
        action = self.choices[self.marked]
        if not isinstance(action, Play) or action.at is None:
            return {}
        number = self.marked + 1
        return {action.at: str(number) if number < 10 else "*"}

    def show_board(self) -> None:
        if self.layout is None:
            return
        self.query_one(LayoutPicture).show(draw(self.layout, self.marks()))
        self.call_after_refresh(self.follow)

    def follow(self) -> None:
        """The board keeps the marked place in sight, however wide the layout (80x24)."""
        self.fit_board()
        self.query_one("#board", Board).keep_in_sight(self.query_one(LayoutPicture), self.marks())

    def fit_board(self) -> None:
        """The board no taller than its layout, with its frame and the scrollbar of a layout
        wider than the board: a fixed height cut a tall layout above empty rows of the page,
        and left empty rows under a short one."""
        board = self.query_one("#board", Board)
        rows = len(self.query_one(LayoutPicture).picture.rows) or 1
        scrollbar = board.scrollbar_size_horizontal if board.show_horizontal_scrollbar else 0
        board.styles.max_height = rows + board.styles.gutter.height + scrollbar

    def tell_more(self) -> None:
        self.query_one("#board", Board).tell_more(self.query_one(LayoutPicture), self.marks())

    def action_scroll_board(self, way: str) -> None:
        board = self.query_one("#board", Board)
        if way == "left":
            board.action_scroll_left()
        else:
            board.action_scroll_right()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if not self.answered:
            self.marked = event.option_index
            self.show_board()

    def show_next(self) -> None:
        """Show the next puzzle of the sitting."""
        puzzle = self.puzzle = self.sitting.next()
        match = match_at(self.sitting.puzzles, puzzle)
        self.layout = match.view(puzzle.seat).layout
        self.answered = False
        self.refresh_bindings()
        self.query_one("#standing", Static).update(standing(self.sitting.progress))
        self.query_one("#title", Static).update(title_line(puzzle))
        self.query_one("#goal", Static).update(goal_text(puzzle.goal))
        self.query_one("#facts", Static).update("\n".join(facts_lines(puzzle, match)))
        listed = choice_list(puzzle, match)
        self.choices = [action for action, _text in listed]
        options = self.query_one("#choices", OptionList)
        options.clear_options()
        options.display = True
        options.add_options([Option(f"{i}) {text}") for i, (_a, text) in enumerate(listed, 1)])
        options.disabled = False
        options.highlighted = 0
        self.marked = 0
        self.show_board()
        options.focus()
        self.query_one("#verdict", Static).update(_("Choose your move and press Enter."))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.answered or self.puzzle is None:
            return
        self.answered = True
        self.refresh_bindings()
        self.marked = event.option_index
        puzzle = self.puzzle
        match = match_at(self.sitting.puzzles, puzzle)
        solved, lines = verdict_lines(puzzle, match, self.choices[event.option_index])
        self.sitting.attempted(puzzle, solved)
        # The verdict names the move chosen: the list gives its room to the refutation, and the
        # page takes the keys, so a refutation longer than the screen scrolls (80x24).
        options = self.query_one("#choices", OptionList)
        options.disabled = True
        options.display = False
        after = _("Press q to quit.") if self.sitting.single else _("Press n for the next puzzle.")
        verdict = self.query_one("#verdict", Static)
        verdict.update("\n".join([*lines, "", after]))
        self.query_one("#page", VerticalScroll).focus()
        self.show_board()  # the chosen move's place marked, in sight once the page is laid out
        self.call_after_refresh(verdict.scroll_visible, animate=False, top=True)
        self.query_one("#standing", Static).update(standing(self.sitting.progress))

    def action_save_quit(self) -> None:
        """Leave (`q`, Ctrl+C): the progress is kept after every answer already."""
        self.exit()

    @property
    def may_go_on(self) -> bool:
        """Whether there is a next puzzle: this one answered (till then the next is this one),
        in a sitting of more than one."""
        return self.answered and not self.sitting.single

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`n` is offered only where it goes on (`may_go_on`)."""
        return self.may_go_on if action == "next" else True

    def action_next(self) -> None:
        if self.may_go_on:
            self.show_next()
