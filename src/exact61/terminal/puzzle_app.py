"""`exact61 puzzle` in full screen (Textual): the puzzle's layout drawn by the game's own
picture (`render.picture.draw`), what the seat may know, its choices in a list; a chosen move
is judged at once, a wrong one shown the defence that refutes it. The same sitting as the plain
mode (`puzzle_plain.PuzzleRun`): the same puzzles, progress and words."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from exact61.core import Action
from exact61.i18n import _
from exact61.learn.puzzles import Puzzle, match_at
from exact61.render.picture import draw
from exact61.terminal.app import leave_bindings
from exact61.terminal.language import InLanguage
from exact61.terminal.puzzle_plain import (
    PuzzleRun,
    choice_list,
    facts_lines,
    goal_text,
    standing,
    title_line,
    verdict_lines,
)
from exact61.terminal.widgets import Board, LayoutPicture


class PuzzleApp(InLanguage, App[None]):
    """Proved puzzles, one after another (or the one asked for)."""

    CSS = """
    #title { text-style: bold; padding: 0 1; }
    #goal, #facts, #verdict, #standing { padding: 0 1; }
    #board { height: auto; max-height: 10; }
    #picture { width: auto; height: auto; padding: 0 1; }
    #choices { height: auto; max-height: 8; }
    #verdict { height: auto; }
    """
    ENABLE_COMMAND_PALETTE = False

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        return [
            *leave_bindings(_("Quit")),
            Binding("n", "next", _("Next puzzle")),
        ]

    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(self, sitting: PuzzleRun) -> None:
        super().__init__()
        self.sitting = sitting
        self.puzzle: Puzzle | None = None
        self.choices: list[Action] = []
        self.answered = False

    def compose(self) -> ComposeResult:
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
        self.show_next()

    def show_next(self) -> None:
        """Show the next puzzle of the sitting."""
        puzzle = self.puzzle = self.sitting.next()
        match = match_at(self.sitting.puzzles, puzzle)
        self.answered = False
        self.query_one("#standing", Static).update(standing(self.sitting.progress))
        self.query_one("#title", Static).update(title_line(puzzle))
        self.query_one("#goal", Static).update(goal_text(puzzle.goal))
        self.query_one(LayoutPicture).show(draw(match.view(puzzle.seat).layout))
        self.query_one("#facts", Static).update(
            "\n".join(facts_lines(self.sitting.puzzles, puzzle, match))
        )
        listed = choice_list(puzzle, match)
        self.choices = [action for action, _text in listed]
        options = self.query_one("#choices", OptionList)
        options.clear_options()
        options.display = True
        options.add_options([Option(f"{i}) {text}") for i, (_a, text) in enumerate(listed, 1)])
        options.disabled = False
        options.highlighted = 0
        options.focus()
        self.query_one("#verdict", Static).update(_("Choose your move and press Enter."))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.answered or self.puzzle is None:
            return
        self.answered = True
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
        self.call_after_refresh(verdict.scroll_visible, animate=False, top=True)
        self.query_one("#standing", Static).update(standing(self.sitting.progress))

    def action_save_quit(self) -> None:
        """Leave (`q`, Ctrl+C): the progress is kept after every answer already."""
        self.exit()

    def action_next(self) -> None:
        if self.answered and not self.sitting.single:
            self.show_next()
