"""`exact61 learn` on the full screen, driven headless by Textual's pilot: a step asked and
answered at once with its rules, a wrong answer and another try, the places that count picked
and checked, the rules behind a step, going back, leaving and resuming, a resize mid-tour, the
whole tour at 80x24 and larger, and the guided match whose hint says why."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from exact61.learn import hints
from exact61.learn.lesson import Kind, Step
from exact61.learn.progress import ProgressFile, learn_dir
from exact61.learn.tour import TourState
from exact61.render.geometry import tile_names
from exact61.terminal.learn_app import GuidedGameApp, TourApp
from exact61.terminal.screens import MessageScreen, RulesScreen
from exact61.terminal.session import guided_session
from exact61.terminal.widgets import (
    Board,
    FittedLines,
    GameLog,
    LayoutPicture,
    TokenRow,
    TooSmall,
)
from tests.terminal.test_app_screens import enter_label, screen_text, settle
from tests.terminal.test_learn_plain import LETTERS, STEPS, at, wrong_answer

pytestmark = pytest.mark.usefixtures("data_dir")


def app_at(step_id: str) -> TourApp:
    return TourApp(TourState(at(step_id)), ProgressFile("tour"))


def lesson_text(app: TourApp) -> str:
    return str(app.query_one("#lesson-text", Static).render())


def right_keys(step: Step) -> list[str]:
    question = step.question
    if question.kind is Kind.CHOOSE:
        return [str(question.right[0] + 1)]
    if question.kind is Kind.PLACE:
        return [LETTERS[question.right[0]]]
    return [LETTERS[i] for i in question.right] + ["enter"]


async def test_a_step_is_asked_then_answered_at_once_with_its_rules() -> None:
    app = app_at("opening-1-4/score/1")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = lesson_text(app)
        assert "What does the opening score?" in text and "(R7)" in text
        assert enter_label(app) is None  # nothing to go on to before an answer
        for key in right_keys(app.step):
            await pilot.press(key)
        await settle(pilot)
        text = lesson_text(app)
        assert "✓ Right." in text
        assert "5 is a multiple of 5: the placement scores 1 (5) (R15)." in text
        # the rule's own paragraph (i18n/rules/en.md), whole
        assert "R15 After every placement, the opening and each player's last tile" in text
        assert "Example: sum 20 gives 20 raw = 4 display points." in text
        assert enter_label(app) == "Go on"
        assert app.state.results == {"opening-1-4/score/1": "first"}
        await pilot.press("enter")
        await settle(pilot)
        assert app.step.id == "opening-blank-double/score/1"
    assert ProgressFile("tour").load()["step"] == "opening-blank-double/score/1"


async def test_a_wrong_place_says_why_then_another_try_then_the_answer() -> None:
    app = app_at("spinner-arms-1/place/4")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        step = app.step
        assert len(app.query_one(LayoutPicture).picture.markers) == len(step.question.options)
        await pilot.press(wrong_answer(step))
        await settle(pilot)
        text = lesson_text(app)
        assert "✗" in text and "(R9)" in text and "Try again." in text
        assert not app.answered and enter_label(app) is None
        await pilot.press(wrong_answer(step))
        await settle(pilot)
        assert app.answered and "The answer:" in lesson_text(app)
        assert app.state.results[step.id] == "shown"
        # the answer's board: the tile placed as the rule documents place it
        tiles = {cell.tile for row in app.query_one(LayoutPicture).picture.rows for cell in row}
        assert step.question.tile in tiles
        choices = app.query_one("#choices", TokenRow).text(80)
        assert "✓ a) [1|1] line side B" in choices and "✗" in choices


async def test_where_two_places_are_right_either_letter_is_and_both_are_said() -> None:
    app = app_at("spinner-arms-4/place/8")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        question = app.step.question
        placed = app.step.result.placements[-1][1]
        other = next(i for i in question.right if question.options[i].point != placed)
        await pilot.press(LETTERS[other])  # not where the rule documents put the tile
        await settle(pilot)
        text = lesson_text(app)
        assert app.answered and "✓ Right." in text and "each is right" in text
        choices = app.query_one("#choices", TokenRow).text(200)
        assert choices.count("✓") == len(question.right) == 2 and "✗" not in choices
    assert app.state.results[app.step.id] == "first"


async def test_the_places_that_count_are_picked_then_checked() -> None:
    app = app_at("spinner-arms-1/count/5")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        step = app.step
        assert enter_label(app) == "Check"
        right = [LETTERS[i] for i in step.question.right]
        await pilot.press(right[0])
        await settle(pilot)
        picked = [c for row in app.query_one(LayoutPicture).picture.rows for c in row]
        assert sum(c.style == "chosen" for c in picked) == 1  # shown picked on the board
        await pilot.press("enter")  # one of two: not yet
        await settle(pilot)
        assert not app.answered and "counts" in lesson_text(app)
        for key in right:
            await pilot.press(key)
        await pilot.press("enter")
        await settle(pilot)
        assert app.answered and "✓ Right." in lesson_text(app)
        marks = app.query_one(LayoutPicture).picture.markers
        ticked = [
            c for row in app.query_one(LayoutPicture).picture.rows for c in row if c.char == "✓"
        ]
        assert len(ticked) == len(right) and all(c.point in marks for c in ticked)
        assert app.state.results[step.id] == "later"


async def test_the_rules_behind_a_step_in_full() -> None:
    app = app_at("double-becomes-interior/place/3")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)
        assert app.screen.only == list(app.step.rules) == ["R9", "R13"]
        assert app.screen.text().startswith("**R9** After the opening")
        assert "**R13** Attach points." in app.screen.text()
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, RulesScreen)


async def test_back_goes_to_the_step_before_asked_afresh() -> None:
    app = app_at("sum-6-scores-nothing/score/2")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("backspace")
        await settle(pilot)
        assert app.step.id == "sum-6-scores-nothing/place/1" and not app.answered


async def test_leaving_keeps_the_step_and_the_tour_resumes_there() -> None:
    app = app_at("opening-1-4/score/1")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in right_keys(app.step):
            await pilot.press(key)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+c")
        await settle(pilot)
    assert app.return_value is None
    kept = ProgressFile("tour").load()
    assert kept["step"] == "opening-blank-double/score/1"
    again = TourApp(TourState.from_json(kept), ProgressFile("tour"))
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert again.step.id == "opening-blank-double/score/1"
        assert "1/6 The opening and what scores · 2/3" in screen_text(again)
        assert again.query_one("#status", FittedLines).text(200).endswith(", step 2 of 3")
        assert again.state.results == {"opening-1-4/score/1": "first"}


async def test_q_leaves_saying_the_command_to_go_on_with() -> None:
    """`q` leaves as it does the game and the puzzles (one definition of the keys), and says
    the command as the learner typed it, its options kept."""
    app = TourApp(
        TourState(at("opening-blank-double/score/1")),
        ProgressFile("tour"),
        again="exact61 learn --lang de",
    )
    said: list[object] = []
    leave = app.exit

    def exit_spy(*args: object, **kwargs: object) -> None:
        said.append(kwargs.get("message"))
        leave(*args, **kwargs)  # type: ignore[arg-type]

    app.exit = exit_spy  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "q Save and quit" in screen_text(app)
        await pilot.press("q")
        await settle(pilot)
    assert app.return_code == 0
    assert said == ["Your progress is kept. Go on with: exact61 learn --lang de"]
    assert ProgressFile("tour").load()["step"] == "opening-blank-double/score/1"


async def test_a_resize_mid_tour_keeps_the_step_and_what_was_picked() -> None:
    app = app_at("spinner-arms-1/count/5")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        step = app.step
        first = LETTERS[step.question.right[0]]
        await pilot.press(first)
        await pilot.resize_terminal(60, 20)
        await settle(pilot)
        assert app.query_one(TooSmall).display and "60x20" in screen_text(app)
        assert "exact61 learn --plain" in " ".join(screen_text(app).split())
        await pilot.press(LETTERS[step.question.right[1]])  # unseen: nothing is chosen
        await pilot.press("enter")
        await settle(pilot)
        assert not app.answered and app.picked == {step.question.right[0]}
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert not app.query_one(TooSmall).region.area
        assert step.question.prompt.text() in screen_text(app)
        await pilot.press(LETTERS[step.question.right[1]], "enter")
        await settle(pilot)
        assert app.answered and app.step is step


async def test_a_resize_mid_step_keeps_the_places_and_the_verdict_in_sight() -> None:
    """A wrong answer at 120x40, then the terminal made 80x24: the board still shows every
    lettered place, and the lesson panel the verdict and the way on."""
    app = app_at("ends/domino-place")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(wrong_answer(app.step))
        await settle(pilot)
        for size in [(80, 24), (100, 30), (80, 24)]:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            board = app.query_one(Board)
            assert board.places_out_of_sight(app.query_one(LayoutPicture), app.marks()) == (
                [],
                [],
            ), size
            shown = screen_text(app)
            assert "✗" in shown and "Try again." in shown, shown
            assert max(len(line) for line in shown.splitlines()) <= size[0]


def offered_in_sight(app: TourApp) -> bool:
    """Every lettered place is on the board, or named on its frame with the way to it."""
    board = app.query_one(Board)
    picture = app.query_one(LayoutPicture)
    behind, ahead = board.places_out_of_sight(picture, app.marks())
    title = str(board.border_title or "")
    return all(label in title for label in behind + ahead)


@pytest.mark.slow  # every step of the tour, by keys
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_pilot_walks_the_whole_tour(size: tuple[int, int]) -> None:
    app = TourApp(TourState(), ProgressFile("tour"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for index, step in enumerate(STEPS):
            assert app.state.at == index and app.step is step
            shown = screen_text(app)
            assert "Lesson" in shown or "/6 " in shown
            assert offered_in_sight(app), step.id
            for key in right_keys(step):
                await pilot.press(key)
            await settle(pilot)
            assert app.answered and "✓" in lesson_text(app), step.id
            await pilot.press("enter")
            await settle(pilot)
        assert isinstance(app.screen, MessageScreen) and app.screen.id == "lessons-done"
        assert f"{len(STEPS)} of {len(STEPS)} steps" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
    assert app.return_value == "match"
    assert ProgressFile("tour").load()["stage"] == "match"


@pytest.mark.slow  # three rounds against the easy bot
async def test_the_guided_match_hint_says_why_and_ends_after_its_rounds() -> None:
    state = TourState(len(STEPS) - 1, stage="match")
    store = ProgressFile("tour")
    session = guided_session(learn_dir() / "tour-match.json", "en")

    def quick(view: object, source: str) -> hints.Hint:
        return hints.explain(view, source, iterations=60)  # type: ignore[arg-type]

    app = GuidedGameApp(session, state, store, delay=0, explain=quick)
    hinted = False
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3000):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.screen.id == "guided-end":
                break
            if app.screen.id == "settlement":
                await pilot.press("enter")
            elif app.waiting:
                await pilot.press("question_mark")
                await app.workers.wait_for_complete()
                await pilot.pause()
                if app.hinted is not None:
                    hinted = True
                await pilot.press("enter")  # plays the hint
        assert app.screen.id == "guided-end"
        log = "\n".join(app.query_one(GameLog).kept)
        assert hinted and "The expert plays " in log and "to win the match" in log
        assert "The guided match is over" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
    assert session.is_over
    assert store.load()["stage"] == "done"


async def test_the_guided_hint_names_a_placed_tile_as_the_board_draws_it() -> None:
    """The hint's why, in the log, names a tile on the layout as the board draws it: at the
    learner's second turn the expert plays at a tile drawn turned (its high half first)."""
    session = guided_session(learn_dir() / "tour-match.json", "en")
    state = TourState(len(STEPS) - 1, stage="match")
    app = GuidedGameApp(session, state, ProgressFile("tour"), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for turn in range(2):
            while not app.waiting:
                await app.workers.wait_for_complete()
                await pilot.pause()
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.hinted is not None
            if turn == 0:
                await pilot.press("enter")  # plays the hint
        names = tile_names(session.match.layout)
        turned = {t for t, name in names.items() if name != str(t)}
        log = app.query_one(GameLog).kept
        why = log[max(i for i, line in enumerate(log) if not line) :]  # the last hint's
        expert = next(line for line in why if line.startswith("The expert plays "))
        assert [t for t in turned if f" at {names[t]} " in expert]  # at a tile drawn turned
        for tile in turned:
            assert str(tile) not in "\n".join(why), tile
