"""`exact61 puzzle` in full screen, headless (Textual's pilot): three puzzles solved one after
another, a wrong answer shown its refutation, at 80x24; a board wider than the screen keeps the
place of the move in sight, and a resize mid-puzzle keeps the board and the verdict readable."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from exact61 import i18n
from exact61.core import Play
from exact61.learn.puzzles import PuzzleSet, is_solution, shipped
from exact61.render.geometry import tile_names
from exact61.render.picture import draw
from exact61.terminal.puzzle_app import PuzzleApp
from exact61.terminal.puzzle_plain import PuzzleRun
from exact61.terminal.widgets import Board, LayoutPicture, TooSmall
from tests.terminal.test_app_screens import screen_text

WIDE = "s906-5-43"  # its line of play runs past 80 columns


@pytest.fixture
def sitting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> PuzzleRun:
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path))
    i18n.use("en")
    return PuzzleRun(shipped())


def text_of(app: PuzzleApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def choose(app: PuzzleApp, pilot: object, right: bool) -> None:
    puzzle = app.puzzle
    assert puzzle is not None
    index = next(i for i, a in enumerate(app.choices) if is_solution(puzzle, a) == right)
    options = app.query_one("#choices", OptionList)
    for _ in range(index):
        await pilot.press("down")  # type: ignore[attr-defined]
    assert options.highlighted == index
    await pilot.press("enter")  # type: ignore[attr-defined]


async def test_three_puzzles_solved_in_a_row(sitting: PuzzleRun) -> None:
    puzzles: PuzzleSet = sitting.puzzles
    assert len(puzzles.puzzles) >= 3
    app = PuzzleApp(sitting)
    async with app.run_test(size=(80, 24)) as pilot:
        seen = []
        for k in range(3):
            assert app.puzzle is not None
            seen.append(app.puzzle.id)
            assert text_of(app, "#title").startswith(f"Puzzle {app.puzzle.id}")
            assert app.query_one(LayoutPicture).picture.rows  # the layout drawn
            await choose(app, pilot, right=True)
            assert "Right:" in text_of(app, "#verdict")
            assert f"Streak: {k + 1}" in text_of(app, "#standing")
            await pilot.press("n")
        assert len(set(seen)) == 3
    assert sitting.progress.solved == tuple(seen)


async def test_q_leaves_with_the_keys_the_game_and_the_tour_leave_by(
    sitting: PuzzleRun,
) -> None:
    """One definition of the keys that leave (`leave_bindings`): the same on the game, the
    tour and the puzzles, and `q` leaves the puzzles mid-puzzle."""
    from exact61.learn.progress import ProgressFile
    from exact61.learn.tour import TourState
    from exact61.terminal.app import GameApp
    from exact61.terminal.learn_app import TourApp
    from exact61.terminal.session import GameSession

    leaving = {"q", "ctrl+c", "ctrl+q"}
    apps = [
        PuzzleApp(sitting),
        TourApp(TourState(), ProgressFile("tour")),
        GameApp(GameSession(2, ["human", "greedy"], 7, sitting.store.path.parent / "g.json")),
    ]
    for app in apps:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            keys = {
                key: active.binding.action
                for key, active in app.screen.active_bindings.items()
                if key in leaving
            }
            assert keys == dict.fromkeys(leaving, "save_quit"), type(app).__name__
            if isinstance(app, PuzzleApp):
                await pilot.press("q")
                await pilot.pause()
        if isinstance(app, PuzzleApp):
            assert app.return_code == 0 and not sitting.progress.tried


async def test_a_wrong_answer_shows_the_refutation(sitting: PuzzleRun) -> None:
    app = PuzzleApp(sitting)
    async with app.run_test(size=(80, 24)) as pilot:
        await choose(app, pilot, right=False)
        verdict = text_of(app, "#verdict")
        assert "Not this one:" in verdict and "The move that reaches the goal:" in verdict
        assert "Streak: 0" in text_of(app, "#standing")
        assert app.query_one("#choices", OptionList).disabled
        # at 80x24 the refutation starts on screen: the list gives way, the page scrolls to it
        await pilot.pause()
        assert not app.query_one("#choices", OptionList).display
        top = app.query_one("#verdict", Static).region.y
        assert 0 < top < 24 - 6, top  # its first lines shown, under the standing line
    assert sitting.progress.streak == 0 and len(sitting.progress.tried) == 1


def in_sight(app: PuzzleApp) -> bool:
    """The place the board marks is on the board, not out of sight past its frame."""
    marks = app.marks()
    board = app.query_one(Board)
    return bool(marks) and board.places_out_of_sight(app.query_one(LayoutPicture), marks) == (
        [],
        [],
    )


async def test_a_board_wider_than_the_screen_shows_the_place_of_each_move(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path))
    i18n.use("en")
    sitting = PuzzleRun(shipped(), puzzle_id=WIDE)
    app = PuzzleApp(sitting)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.layout is not None and draw(app.layout).width > 80
        for index, action in enumerate(app.choices):
            if index:
                await pilot.press("down")
            await pilot.pause()
            assert isinstance(action, Play) and action.at is not None
            assert app.marks() == {action.at: str(index + 1)}
            # the place's tile named in the list as the board draws it (not [low|high])
            host = tile_names(app.layout)[action.at.tile]
            assert f"at {host} " in str(app.query_one(OptionList).get_option_at_index(index).prompt)
            assert in_sight(app), index
            shown = screen_text(app)
            assert max(len(line) for line in shown.splitlines()) <= 80
            assert "more (arrow keys)" in shown  # the frame names the way to the rest
        board = app.query_one(Board)
        before = board.scroll_x
        await pilot.press("left" if before else "right")  # the list has ↑ ↓, the board ← →
        await pilot.pause()
        assert board.scroll_x != before


async def test_a_resize_mid_puzzle_keeps_the_board_and_the_verdict_readable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path))
    i18n.use("en")
    app = PuzzleApp(PuzzleRun(shipped(), puzzle_id=WIDE))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await choose(app, pilot, right=False)
        await pilot.pause()
        for size in [(80, 24), (60, 20), (80, 24)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            shown = screen_text(app)
            if size == (60, 20):  # too small to show the puzzle: said so, nothing half shown
                assert app.query_one(TooSmall).display and "60x20" in shown
                assert "exact61 puzzle --plain" in " ".join(shown.split())
                assert "Not this one:" not in shown
                continue
            assert "Not this one:" in shown, shown  # the verdict's first line on screen
            assert in_sight(app), size  # the chosen move's place on the board


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_at_80x24_the_puzzle_shows_its_goal_and_its_choices_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lang: str
) -> None:
    """A tall board (spinners' arms) at 80x24: the page had scrolled down to the list of moves,
    and the puzzle's goal was cut to its last word ("R23)."): the board gives way instead."""
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path))
    i18n.use(lang)
    try:
        app = PuzzleApp(PuzzleRun(shipped(), puzzle_id="s65-7-41"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            shown = " ".join(screen_text(app).split())
            assert app.puzzle is not None and app.puzzle.id in shown
            assert " ".join(text_of(app, "#goal").split()) in shown
            for index in range(len(app.choices)):
                option = app.query_one(OptionList).get_option_at_index(index)
                assert str(option.prompt) in shown
            assert i18n._("Choose your move and press Enter.") in shown
    finally:
        i18n.use("en")


async def test_n_is_offered_once_there_is_a_next_puzzle_to_go_to(sitting: PuzzleRun) -> None:
    """The footer said `n Next puzzle` before the puzzle was answered, where n did nothing (the
    next puzzle is this one until it is tried)."""
    app = PuzzleApp(sitting)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Next puzzle" not in screen_text(app).splitlines()[-1]
        await choose(app, pilot, right=True)
        await pilot.pause()
        assert "n Next puzzle" in screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("puzzle_id", ["s65-7-41", "s59-0-32"])
async def test_at_120x40_the_board_is_as_tall_as_its_layout(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, puzzle_id: str
) -> None:
    """The board was 12 rows at any size: at 120x40 a layout of 17 rows (spinners' arms) was
    cut, to be scrolled, above 15 empty rows of the screen, and one of 5 rows had 5 empty rows
    below it. There is room for the whole layout, and no more is taken."""
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path))
    i18n.use("en")
    app = PuzzleApp(PuzzleRun(shipped(), puzzle_id=puzzle_id))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        board = app.query_one("#board", Board)
        rows = len(app.query_one(LayoutPicture).picture.rows)
        assert board.max_scroll_y == 0 and board.scrollable_content_region.height == rows
        assert "more (arrow keys)" not in screen_text(app)
