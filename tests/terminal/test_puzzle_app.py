"""`exact61 puzzle` in full screen, headless (Textual's pilot): three puzzles solved one after
another, a wrong answer shown its refutation, at 80x24."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from exact61 import i18n
from exact61.learn.puzzles import PuzzleSet, is_solution, shipped
from exact61.terminal.puzzle_app import PuzzleApp
from exact61.terminal.puzzle_plain import PuzzleRun
from exact61.terminal.widgets import LayoutPicture


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
