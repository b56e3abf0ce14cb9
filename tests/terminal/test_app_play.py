"""The full-screen game as a newcomer meets it: what Enter does, the drawn tile after resuming,
hot-seat privacy, hints, the choices bar, the board and log as the window changes, the rules
screen, taking a move back, and a screen that answers while a bot, the hint or the analysis
thinks. Driven headless by Textual's pilot, against greedy bots."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import ProgressBar, Static

from exact61 import AttachPoint, Phase, Play, SeatView, Tile, i18n, replay
from exact61.analysis import report
from exact61.bots import STRONGEST
from exact61.learn import hints
from exact61.table import BotRequest, decide
from exact61.terminal.app import GameApp
from exact61.terminal.plain import run_plain
from exact61.terminal.screens import AnalysisScreen, RulesScreen
from exact61.terminal.session import GameSession, last_unfinished
from exact61.terminal.widgets import FittedLines, GameLog, LayoutPicture, TokenRow
from tests.terminal.test_app_screens import (
    P,
    T,
    enter_label,
    position,
    screen_text,
    seated,
    settle,
)
from tests.terminal.test_play import played_out

# Whole matches on the screen through the pilot: the full suite runs them.
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("data_dir")]


def verified(path: Path) -> bool:
    return replay(path.read_text()) is not None


def winning_position() -> GameSession:
    """Seat 0 at 300 raw holds [2|4], which makes the ends 1 + 4 = 5: the match is won."""
    return seated(
        ["human", "greedy"],
        layout=[(T("12"), None)],
        hands=[[T("24"), T("55")], [T("66"), T("36")]],
        scores=(300, 0),
    )


# Four free attach points take [3|4]: both arms of the spinners [3|3] and [4|4] (R13).
FOUR_PLACES = [
    (T("33"), None),
    (T("13"), P("33", "lineA")),
    (T("35"), P("33", "lineB")),
    (T("14"), P("13", "low")),
    (T("44"), P("14", "high")),
    (T("24"), P("44", "lineB")),
]


# ---- Enter --------------------------------------------------------------------------------


def past_61_position() -> GameSession:
    """Seat 0 at 295 raw on a lone [6|6]: [3|6] on either line side makes 12 + 3 = 15, which
    would take it past 305 and be thrown away (R4); [0|6] makes 12 + 0, nothing."""
    return seated(
        ["human", "greedy"],
        layout=[(T("66"), None)],
        hands=[[T("36"), T("06"), T("11")], [T("00"), T("55"), T("22"), T("01"), T("02")]],
        scores=(295, 0),
        opener=1,
    )


async def test_a_credit_that_would_pass_61_is_marked_in_the_choices() -> None:
    """R4 at a glance: the places of [3|6] say its credit and that it would pass 61, in the
    choices on screen and line by line; a credit that keeps is marked nothing more."""
    session = past_61_position()
    app = GameApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("1")  # [3|6]: two places
        await settle(pilot)
        places = [t.text for t in app.query_one("#choices", TokenRow).tokens[1:]]
        assert len(places) == 2 and all(p.endswith("+3 (15) past 61 (R4)") for p in places), places
    session = past_61_position()
    session.save = lambda: None  # type: ignore[method-assign]  # a position has no deal to save
    out = io.StringIO()
    run_plain(session, io.StringIO("q\n"), out)
    lines = out.getvalue().splitlines()
    assert sum(line.endswith("+3 (15) past 61 (R4)") for line in lines) == 2, lines
    assert any("[0|6]" in line and "+" not in line for line in lines), lines
    view = session.match.view(0)
    assert view.rejects(15) and not view.rejects(10)  # 305: exactly 61, the match won (R30)
    last = seated(
        ["human", "greedy"],
        layout=[(T("66"), None)],
        hands=[[T("36")], [T("00")]],
        scores=(295, 0),
        opener=1,
    )
    assert not last.match.view(0).rejects(15)  # the last tile: the domino's award (R19)


async def test_enter_at_play_again_means_no() -> None:
    session = winning_position()
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert enter_label(app) == "Play the only choice"
        await pilot.press("enter")
        await settle(pilot)
        assert session.match.is_over and app.screen.id == "end"
        assert "[y/N]" in screen_text(app)
        assert enter_label(app) == "Quit"
        await pilot.press("enter")
        await settle(pilot)
    assert app.session is session  # no new match was started
    assert app.return_code == 0


async def test_a_match_won_mid_round_says_why_and_shows_the_hands() -> None:
    session = winning_position()  # [2|4] takes seat 0 from 300 to 305 with [5|5] still held
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert session.match.rounds[-1].end.kind == "target"  # type: ignore[union-attr]
        assert app.screen.id == "end"
        body = str(app.screen.query_one("#dialog-body").render())
    assert "You reach exactly 61 and win the match!" in body
    assert "exactly 61 (305)" in body and "R30" in body
    assert "You: [5|5] = 10 pips" in body
    assert "Seat 1: [6|6] [3|6] = 21 pips" in body


async def test_y_at_play_again_starts_a_new_match() -> None:
    session = winning_position()
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.id == "end"
        await pilot.press("y")
        await settle(pilot)
        assert app.session is not session and not app.session.match.is_over


async def test_enter_says_what_it_does_and_only_then() -> None:
    session = next(  # a game seat 0 opens: any of its five tiles may be played (R7)
        s
        for s in (GameSession(2, ["human", "greedy"], seed=k) for k in range(40))
        if (s.deal() or s.match.rounds[0].opener == 0)
    )
    app = GameApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert len(session.match.legal_actions()) > 1
        assert enter_label(app) is None  # several choices: Enter plays nothing
        assert "Play the only choice" not in screen_text(app)
        await pilot.press("question_mark")
        await until(pilot, lambda: app.hinted is not None)
        await settle(pilot)
        assert enter_label(app) == "Play the hint"
        hinted = app.hinted
        # and why, in the log: one person at the screen (`hints.explain`)
        log = app.query_one(GameLog).kept
        assert any(line.startswith("The expert plays ") for line in log), log
        assert any(line.startswith("It leaves your side ") for line in log), log
        await pilot.press("enter")
        await settle(pilot)
        assert session.match.rounds[-1].steps[0].action == hinted


# ---- the drawn tile, resumed --------------------------------------------------------------


def game_waiting_on_a_drawn_tile(places: int) -> GameSession:
    """A real saved game (human against greedy) stopped where seat 0 drew a tile that fits
    `places` attach points and must now place it (R10)."""
    for seed in range(200):
        session = GameSession(2, ["human", "greedy"], seed=seed)
        while not session.match.is_over:
            if session.match.phase is Phase.DEAL:
                session.deal()
                continue
            if session.to_act == 0:
                legal = session.match.legal_actions()
                if session.match.pending_draw is not None and len(legal) == places:
                    session.save()
                    return session
                session.apply(session.forced() or legal[0])
            else:
                session.apply(session.bot_action())
    raise AssertionError("no such game in 200 seeds")


@pytest.mark.parametrize("places", [1, 2])
async def test_resuming_on_a_drawn_tile_shows_its_places(places: int) -> None:
    saved = game_waiting_on_a_drawn_tile(places)
    path = last_unfinished()
    assert path == saved.save_path
    session = GameSession.resume(path)
    drawn = session.match.pending_draw
    assert drawn is not None
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.waiting and app.selected == drawn
        text = screen_text(app)
        assert f"{drawn} (drawn)" in text and f"Place {drawn} at:" in text
        layout = len(session.match.layout)
        if places == 1:
            assert enter_label(app) == "Play the only choice"
            await pilot.press("enter")
        else:
            assert "a) " in text and "b) " in text
            await pilot.press("b")
        await settle(pilot)
        assert len(session.match.layout) > layout and drawn in session.match.layout
    assert verified(path)


# ---- hot seat -----------------------------------------------------------------------------


@pytest.mark.slow
async def test_hot_seat_leaves_nothing_of_a_hand_for_the_next_person() -> None:
    session = GameSession(2, ["human", "human"], seed=2)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        covers = 0
        for _ in range(60):
            await pilot.pause()
            if app.screen.id == "cover":
                covers += 1
                # under the cover: no hand, no choices, no hint or note of the last person
                assert app.viewer is None and app.selected is None and app.hinted is None
                assert not app.query_one("#hand", TokenRow).tokens
                assert not app.query_one("#choices", TokenRow).tokens
                assert not app.query_one("#message", Static).display
                assert not list(app.query("Toast"))
                text = screen_text(app)
                last = session.match.rounds[-1].steps
                before = last[-1].seat if last else None
                if before is not None:
                    for tile in session.match.hand(before):
                        assert str(tile) not in text, tile
                await pilot.press("enter")
            elif app.waiting:
                seat = session.to_act
                assert seat is not None
                await pilot.press("question_mark")  # a hint, for this person's eyes only
                await pilot.pause()
                assert "Hint:" in str(app.query_one("#message", Static).render())
                log = app.query_one(GameLog).kept
                assert not any("Hint" in line or "expert plays" in line for line in log)
                assert not list(app.query("Toast"))  # no pop-up that could linger
                assert enter_label(app) == "Play the hint"
                assert app.check_action("take_back", ()) is False  # not with other people
                await pilot.press("enter")
            if covers >= 4:
                break
        assert covers >= 4


# ---- the choices, the board, the log ------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_every_place_a_tile_fits_is_listed(size: tuple[int, int]) -> None:
    session = seated(
        ["human", "greedy"],
        layout=FOUR_PLACES,
        hands=[[T("34"), T("25"), T("00")], [T("66"), T("56")]],
    )
    app = GameApp(session, delay=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("1")  # [3|4]
        await settle(pilot)
        places = [a.at for a in session.match.legal_actions() if a.tile == T("34")]
        assert len(places) == 4
        text = screen_text(app)
        for letter, point in zip("abcd", places, strict=True):
            assert f"{letter}) {point.tile} side arm" in text
        await pilot.press("d")
        await settle(pilot)
        assert session.match.rounds[-1].steps[0].action == Play(T("34"), places[3])


LINE = ["01", "12", "23", "34", "45", "56", "06", "02", "24", "46", "16", "13", "35"]


def long_line(tiles: int, chain: list[str] = LINE) -> list[tuple[Tile, object]]:
    """A line of play growing to the right only: [0|1][1|2][2|3]..., or the tiles of `chain`
    (a double in it goes on along its line)."""
    placements: list[tuple[Tile, object]] = [(T(chain[0]), None)]
    end = P(chain[0], "high")
    value = 1
    for text in chain[1:tiles]:
        tile = T(text)
        placements.append((tile, end))
        if tile.low != tile.high:
            value = tile.high if tile.low == value else tile.low
        end = P(text, "lineB" if tile.low == tile.high else "high" if tile.high == value else "low")
    return placements


async def test_the_board_follows_the_last_tile_and_scrolls_sideways() -> None:
    layout = long_line(13)
    session = seated(  # two choices, none selected: nothing named but the last tile
        ["human", "greedy"],
        layout=layout,
        hands=[[T("00"), T("03")], [T("22"), T("33")]],
    )
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        board = app.query_one("#board")
        picture_width = app.query_one("#picture").virtual_region.width
        assert picture_width > board.scrollable_content_region.width  # wider than the board
        assert board.scroll_x > 0  # moved along to the tile placed last: [5|3] at the right
        assert "[3|5]∘" in screen_text(app) or "[5|3]∘" in screen_text(app)
        before = board.scroll_x
        assert before >= 10
        await pilot.press("left")
        await settle(pilot)
        assert board.scroll_x == before - 5  # and the arrows scroll it, a tile's length a press
        await pilot.press("right")
        await settle(pilot)
        assert board.scroll_x == before


def in_view(app: GameApp, point: AttachPoint) -> bool:
    """Whether the board shows the free attach point `point` whole: its marker and the tile it
    belongs to."""
    board = app.query_one("#board")
    picture = app.query_one("#picture", LayoutPicture)
    y, x = picture.picture.markers[point]
    cells = [(x, y)] + [
        (column, row)
        for row, line in enumerate(picture.picture.rows)
        for column, cell in enumerate(line)
        if cell.tile == point.tile
    ]
    assert len(cells) >= 6  # the marker and a tile: 1x5 across, 3x3 along
    gutter = picture.styles.gutter
    view = board.scrollable_content_region
    left, top = board.scroll_offset
    return all(
        left <= column + gutter.left < left + view.width
        and top <= row + gutter.top < top + view.height
        for column, row in cells
    )


async def test_the_board_shows_the_place_enter_plays() -> None:
    """A newcomer's report: at 80 columns Enter's only choice was at the right end of a line
    cut off at the right, the board showing the tile placed last at the left end. The board
    goes to the place the prompt names, marked ⏎, and its frame says there is more to the left."""
    layout = [*long_line(13), (T("03"), P("01", "low"))]  # placed last: the left end, 3 open
    session = seated(  # [2|5] fits the right end's 5 only; [6|6] fits nowhere
        ["human", "greedy"],
        layout=layout,
        hands=[[T("25"), T("66")], [T("22"), T("33")]],
    )
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        (only,) = session.match.legal_actions()
        assert isinstance(only, Play) and only.at is not None and only.at.tile == T("35")
        board = app.query_one("#board")
        picture = app.query_one("#picture", LayoutPicture)
        assert picture.virtual_region.width > board.scrollable_content_region.width
        choices = app.query_one("#choices", TokenRow)
        assert "[3|5]" in choices.text(200) and "[2|5]" in choices.text(200)
        assert enter_label(app) == "Play the only choice"
        assert in_view(app, only.at)
        assert "[3|5]⏎" in screen_text(app)  # the place Enter plays, marked
        assert board.border_title.startswith("◀") and "▶" not in board.border_title
        await pilot.press(*["left"] * 40)
        await settle(pilot)
        assert board.scroll_x == 0  # the arrows scroll there; the frame says which way
        assert board.border_title.endswith("▶") and "◀" not in board.border_title
        assert not in_view(app, only.at)
        await pilot.press("enter")
        await settle(pilot)
        assert session.match.rounds[-1].steps[0].action == only


async def test_a_lettered_place_past_the_edge_is_named_on_the_frame() -> None:
    """A maintainer's report: at 80x24 the list offered a), b) and c) while b) and c) lay past
    the board's right edge, the frame saying only "more ▼ ▶". A place the board cannot show with
    the others is named on the frame with its letter and the way to it; its letter plays there,
    and the board follows the tile placed."""
    wide = ["01", "11", "12", "22", "23", "33", "34", "45", "55", "56", "66", *LINE[6:], "05"]
    session = seated(  # [0|4] fits both ends, 0 and 0, of a line 89 columns wide
        ["human", "greedy"],
        layout=long_line(len(wide), wide),
        hands=[[T("04")], [T("44"), T("00")]],
    )
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        places = {letter: point for point, letter in app.choices().items()}
        assert sorted(places) == ["a", "b"]
        assert in_view(app, places["a"]) and not in_view(app, places["b"])
        title = str(app.query_one("#board").border_title)
        assert title.endswith("▶ b▶"), title  # the way to b), after the way to the rest
        await pilot.press("b")
        await settle(pilot)
        placed = session.match.rounds[-1].steps[-1].action  # the last tile: a domino
        assert placed == Play(T("04"), places["b"])
        free = [p for p, _pips in session.match.layout.free_points() if p.tile == T("04")]
        assert free and in_view(app, free[0])  # the board went to where b) was


async def test_tab_brings_the_selected_tiles_place_into_view() -> None:
    """Tab selects each tile in turn; each one's place, at either end of a line wider than
    the board, comes into view with the tile it attaches to."""
    layout = [*long_line(13), (T("03"), P("01", "low"))]  # 3 open at the left end, 5 at the right
    session = seated(  # [2|5] fits the right end only, [3|6] the left end only
        ["human", "greedy"],
        layout=layout,
        hands=[[T("25"), T("36")], [T("22"), T("33")]],
    )
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        seen = set()
        for _ in range(2):
            await pilot.press("tab")
            await settle(pilot)
            (point,) = app.choices()
            assert in_view(app, point), (app.selected, point)
            seen.add(point.tile)
        assert seen == {T("03"), T("35")}


async def test_the_log_gives_way_when_the_places_are_wider_than_the_board() -> None:
    layout = long_line(13)  # [0|1] ... [3|5]: 0 open at the left end, 5 at the right
    session = seated(
        ["human", "greedy"],
        layout=layout,
        hands=[[T("05")], [T("22"), T("33")]],
    )
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        log = app.query_one(GameLog)
        assert log.display
        await pilot.press("1")  # [0|5] fits both ends, 70 columns apart
        await settle(pilot)
        assert sorted(app.choices().values()) == ["a", "b"]
        assert not log.display  # the board has the whole width
        board = app.query_one("#board")
        picture = app.query_one("#picture", LayoutPicture)
        view = board.scrollable_content_region
        for point in app.choices():
            _y, x = picture.picture.markers[point]
            assert 0 <= x + picture.styles.gutter.left - board.scroll_offset.x < view.width
        await pilot.press("b")
        await settle(pilot)
        assert app.screen.id == "settlement"  # domino
        assert log.display  # back once the tile is placed


async def test_log_lines_wrap_again_after_a_resize() -> None:
    app = GameApp(winning_position(), delay=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        log = app.query_one(GameLog)
        wide = log.scrollable_content_region.width
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        narrow = log.scrollable_content_region.width
        assert narrow < wide
        assert max(strip.cell_length for strip in log.lines) <= narrow
        text = "\n".join(line.text.rstrip() for line in log.lines)
        assert "reach" in text and "exactly 61" in text


async def test_status_names_the_bots_and_no_empty_others_at_a_settlement() -> None:
    session = GameSession(2, ["human", "greedy"], seed=4)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        status = app.query_one("#status", FittedLines).text(200)
        assert "Seat 1 (greedy)" in status
        for _ in range(600):
            await pilot.pause()
            if app.screen.id == "settlement":
                main = app.screen_stack[0]
                status = main.query_one("#status", FittedLines).text(200)
                assert "Others" not in status and ": ." not in status
                break
            if app.waiting:
                action = session.match.legal_actions()[0]
                assert isinstance(action, Play)
                app.selected = action.tile
                app.take(action)
        else:
            raise AssertionError("no settlement")


# ---- rules, take back, resume --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("lang, word", [("en", "raw"), ("de", "Rohpunkte")])
async def test_rules_screen_in_the_game(lang: str, word: str) -> None:
    i18n.use(lang)
    app = GameApp(position(5), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.active_bindings["r"].binding.description == i18n._("Rules")
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)
        text = screen_text(app)
        assert "2 (10)" in text and word in text  # what the scores mean comes first
        rules = app.screen.query_one("#rules")
        await pilot.press("end")
        await settle(pilot)
        assert rules.scroll_y > 0
        assert "R31" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen.id is None or not isinstance(app.screen, RulesScreen)
        assert app.waiting


async def test_take_back_against_bots_and_the_record_stays_valid() -> None:
    session = GameSession(2, ["human", "greedy"], seed=4)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.check_action("take_back", ()) is False  # nothing to take back yet
        for _ in range(3):
            while not app.waiting:
                await pilot.pause()
            action = session.match.legal_actions()[0]
            assert isinstance(action, Play)
            app.selected = action.tile
            app.take(action)
        while not app.waiting:
            await pilot.pause()
        steps = actions(session)
        mine = max(i for i, (seat, a) in enumerate(steps) if seat == 0 and isinstance(a, Play))
        assert app.screen.active_bindings["u"].binding.description == "Take back"
        app.say("a note about the move now taken back")
        await pilot.press("u")
        await settle(pilot)
        assert actions(session) == steps[:mine]  # my move, and the bots' answers, undone
        assert not app.query_one("#message").display  # no note left from before the take-back
        assert app.waiting and session.to_act == 0
        assert any("taken back" in line for line in app.query_one(GameLog).kept)
        await pilot.press("ctrl+c")
    assert verified(session.save_path)
    assert actions(GameSession.resume(session.save_path)) == steps[:mine]


async def test_take_back_never_reopens_a_settled_round() -> None:
    session = GameSession(2, ["human", "greedy"], seed=4)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        settled = False
        for _ in range(600):  # play the first legal move until a round is settled, then on
            await pilot.pause()
            if app.screen.id == "settlement":
                settled = True
                await pilot.press("enter")
            elif app.waiting and settled:
                break
            elif app.waiting:
                action = session.match.legal_actions()[0]
                assert isinstance(action, Play)
                app.selected = action.tile
                app.take(action)
        assert settled and app.waiting and len(session.match.rounds) == 2
        steps = actions(session)
        assert not session.can_take_back(0)
        await pilot.press("u")
        await settle(pilot)
        assert actions(session) == steps  # the settled round is as it was
        message = str(app.query_one("#message", Static).render())
        assert "settled" in message and "cannot be taken back" in message


def actions(session: GameSession) -> list[tuple[int, object]]:
    return [(s.seat, s.action) for log in session.match.rounds for s in log.steps]


async def test_resume_shows_the_round_so_far() -> None:
    session = GameSession(2, ["human", "greedy"], seed=6)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(4):
            while not app.waiting:
                await pilot.pause()
            action = session.match.legal_actions()[0]
            assert isinstance(action, Play)
            app.selected = action.tile
            app.take(action)
        await pilot.press("ctrl+c")
    first_round = session.match.rounds[-1]
    resumed = GameSession.resume(session.save_path)
    app2 = GameApp(resumed, delay=0)
    async with app2.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        kept = app2.query_one(GameLog).kept
        plays = [s for s in first_round.steps if isinstance(s.action, Play)]
        told = [line for line in kept if " place" in line or " open" in line]
        assert len(told) >= len(plays) > 0
        assert any(str(plays[-1].action.tile) in line for line in told)
        assert all(cell_len(line) > 0 for line in told)


async def test_a_note_from_the_command_shows_on_the_screen() -> None:
    note = "--resume continues the saved game as it was: ignoring --seed"
    app = GameApp(three_tiles_at_four_places(), delay=0, notes=[note])
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot)
        text = " ".join(screen_text(app).split())
    assert "ignoring --seed" in text  # not printed underneath the full screen


def three_tiles_at_four_places() -> GameSession:
    """Seat 0 to play [2|5], [3|4] or [0|0] on a layout with four free places."""
    return seated(
        ["human", "greedy"],
        layout=FOUR_PLACES,
        hands=[[T("25"), T("34"), T("00")], [T("66"), T("56")]],
    )


async def test_clicks_pick_a_tile_and_its_place() -> None:
    session = three_tiles_at_four_places()
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        hand = app.query_one("#hand", TokenRow)
        width = hand.content_size.width
        row = hand.text(width).splitlines()[0]
        x = row.index("2 [3|4]")  # the second tile, clicked where it is written
        await pilot.click(hand, offset=(hand.styles.gutter.left + x + 3, 0))
        await settle(pilot)
        assert app.selected == T("34")
        picture = app.query_one("#picture")
        point, (y, x) = next(
            (p, pos)
            for p, pos in app.query_one("#picture").picture.markers.items()  # type: ignore[attr-defined]
            if app.choices().get(p) == "c"
        )
        gutter = picture.styles.gutter
        await pilot.click(picture, offset=(gutter.left + x, gutter.top + y))
        await settle(pilot)
        assert session.match.rounds[-1].steps[0].action == Play(T("34"), point)


@pytest.mark.parametrize("lang, said", [("en", "No tile 9: you hold 3 tiles."), ("pl", "masz 3")])
async def test_a_number_past_the_hand_is_answered_not_ignored(lang: str, said: str) -> None:
    i18n.use(lang)
    session = three_tiles_at_four_places()
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("9")
        await settle(pilot)
        message = app.query_one("#message", Static)
        assert message.display and said in str(message.render())
        assert not session.match.rounds[-1].steps  # nothing was played


@pytest.mark.parametrize("key", ["tab", "shift+tab"])
async def test_a_note_goes_when_the_person_moves_on(key: str) -> None:
    """The answer to a wrong key is gone once the person picks another tile with Tab."""
    session = three_tiles_at_four_places()
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        message = app.query_one("#message", Static)
        await pilot.press("9")
        await settle(pilot)
        assert message.display
        await pilot.press(key)
        await settle(pilot)
        assert app.selected is not None
        assert not message.display and "No tile 9" not in screen_text(app)


# ---- the screen never freezes ------------------------------------------------------------

R = TypeVar("R")


class Gate:
    """`decide` held shut until the test opens it: a bot (or the hint) that thinks, in its
    worker's thread, for as long as the test wants."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.opened = threading.Event()
        self.answered = threading.Event()
        self.requests: list[BotRequest] = []

    def held(self, request: BotRequest, work: Callable[[], R]) -> R:
        self.requests.append(request)
        self.asked.set()
        if not self.opened.wait(60):
            raise TimeoutError("the test never opened the gate")
        try:
            return work()
        finally:
            self.answered.set()

    def __call__(self, request: BotRequest) -> object:
        return self.held(request, lambda: decide(request))

    def explain(self, view: SeatView, source: str) -> hints.Hint:
        """The hint's search (`hints.explain`, a small one), held at the same gate."""
        request = BotRequest(STRONGEST, source, view)
        return self.held(request, lambda: hints.explain(view, source, iterations=60))


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    gate = Gate()
    monkeypatch.setattr("exact61.terminal.app.decide", gate)
    yield gate
    gate.opened.set()  # no thread is left waiting


async def until(pilot: Pilot[None], condition: Callable[[], bool]) -> None:
    """Let the app run until `condition` holds (a worker's thread answers in its own time)."""
    for _ in range(2000):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never got there")


def opened_by(seat: int) -> GameSession:
    """A game (the person, seat 0, against greedy) whose first round `seat` opens (R8)."""
    return next(
        s
        for s in (GameSession(2, ["human", "greedy"], seed=k) for k in range(40))
        if (s.deal() or s.match.rounds[0].opener == seat)
    )


async def test_keys_are_answered_while_a_bot_thinks(gate: Gate) -> None:
    session = opened_by(1)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, gate.asked.is_set)
        seq = session.seq
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)  # the rules at once, the bot still thinking
        assert not gate.opened.is_set()
        await pilot.press("escape")
        # Nothing a person presses meanwhile changes the game or answers for the bot.
        await pilot.press("1", "question_mark", "u", "enter", "a", "tab")
        await settle(pilot)
        assert session.seq == seq and not app.waiting and app.hinted is None
        assert [r.spec for r in gate.requests] == ["greedy"]
        gate.opened.set()
        await until(pilot, lambda: app.waiting)
        assert session.to_act == 0 and session.seq == seq + 1  # the bot's move, once
        assert session.match.rounds[0].steps[0].seat == 1


async def test_quitting_while_a_bot_thinks_saves_without_its_move(gate: Gate) -> None:
    session = opened_by(1)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, gate.asked.is_set)
        await pilot.press("ctrl+c")
        await settle(pilot)
    gate.opened.set()
    assert await asyncio.to_thread(gate.answered.wait, 60)  # the bot chose, too late
    await asyncio.sleep(0.05)
    assert not session.match.rounds[0].steps
    assert not replay(session.save_path.read_text()).rounds[0].steps


async def test_keys_are_answered_while_the_hint_is_thought_out(gate: Gate) -> None:
    session = opened_by(0)
    app = GameApp(session, delay=0, explain=gate.explain)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await until(pilot, gate.asked.is_set)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.waiting and app.hinted is None
        gate.opened.set()
        await until(pilot, lambda: app.hinted is not None)
        await settle(pilot)
        assert app.hinted in session.match.legal_actions()
        assert enter_label(app) == "Play the hint" and "Hint: " in screen_text(app)


async def test_a_hint_that_comes_after_the_move_is_dropped(gate: Gate) -> None:
    session = opened_by(0)
    first = session.match.hand(0)[0]
    app = GameApp(session, delay=0, explain=gate.explain)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await until(pilot, gate.asked.is_set)
        await pilot.press("1")  # an opening tile goes in one place only: the key plays it
        await settle(pilot)
        assert session.match.rounds[0].steps[0].action == Play(first, None)
        gate.opened.set()  # the hint (for a moment gone) and the bot's answer come
        await until(pilot, lambda: app.waiting or app.screen.id == "settlement")
        await settle(pilot)
        assert len(gate.requests) == 2 and app.hinted is None
        assert "Hint: " not in screen_text(app)


@pytest.mark.slow
async def test_the_screen_answers_while_the_analysis_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    asked, opened, ended = threading.Event(), threading.Event(), threading.Event()
    finished: list[bool] = []

    def slow_analysis(record: str, **options: object) -> object:
        progress = options["progress"]
        assert callable(progress)
        try:
            progress(1, 4)
            asked.set()
            opened.wait(60)
            progress(2, 4)  # the screen was closed meanwhile: this stops the analysis
            finished.append(True)
        finally:
            ended.set()
        return None

    monkeypatch.setattr("exact61.analysis.analyze.analyze_match", slow_analysis)
    app = GameApp(played_out(GameSession(2, ["human", "greedy"], seed=5)), delay=0)
    try:
        async with app.run_test(size=(140, 44)) as pilot:
            await until(pilot, lambda: app.screen.id == "end")
            await pilot.press("a")
            await until(pilot, asked.is_set)
            screen = app.screen
            assert isinstance(screen, AnalysisScreen)
            await until(pilot, lambda: screen.query_one(ProgressBar).total == 4)
            assert screen.query_one(ProgressBar).progress == 1  # told while the thread works
            await pilot.press("escape")
            await settle(pilot)
            assert app.screen.id == "end"  # closed at once, the analysis still running
            opened.set()
            await until(pilot, ended.is_set)
            assert not finished
            await pilot.press("n")
    finally:
        opened.set()


def analysed_app(monkeypatch: pytest.MonkeyPatch) -> GameApp:
    """The winning position's game, its match analysed as a made-up two-decision analysis."""
    from tests.analysis.test_analysis import synthetic

    monkeypatch.setattr(
        "exact61.analysis.analyze.analyze_match", lambda record, **options: synthetic(2)
    )
    session = winning_position()
    monkeypatch.setattr(session, "record_text", lambda: "")  # a position has no record
    return GameApp(session, delay=0)


async def open_analysis(pilot: Pilot[None], app: GameApp) -> AnalysisScreen:
    """Play the winning move, open the analysis from the end's screen, wait for its result."""
    await settle(pilot)
    await pilot.press("enter")
    await until(pilot, lambda: app.screen.id == "end")
    await pilot.press(i18n._("a"))
    await until(pilot, lambda: isinstance(app.screen, AnalysisScreen))
    screen = app.screen
    assert isinstance(screen, AnalysisScreen)
    await until(pilot, lambda: screen.result is not None)
    await settle(pilot)
    return screen


@pytest.mark.parametrize("lang", ["en", "pl"])
async def test_the_analysis_fits_80_columns_and_says_it_scrolls(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    from textual.containers import VerticalScroll

    i18n.use(lang)
    try:
        app = analysed_app(monkeypatch)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_analysis(pilot, app)
            review = screen.query_one("#review", VerticalScroll)
            assert review.max_scroll_x == 0 and review.max_scroll_y > 0  # down only
            shown = screen_text(app)
            assert i18n._("↑ ↓ PgUp PgDn: scroll") in shown
            assert (
                i18n._("Round {round}, action {action}, seat {seat} at {scores}").format(
                    round=1, action=0, seat=0, scores="7-22"
                )
                in shown
            )
            await pilot.press("pagedown")
            await settle(pilot)
            assert review.scroll_y > 0
            await pilot.press("escape")
            await settle(pilot)
            assert app.screen.id == "end"
            await pilot.press("n")
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_analysis_says_what_its_numbers_are_before_them(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """`-2.1 ± 1.2` beside a move and `seat 0 at 7-22` above it were explained only at the end
    of the review, pages below at 80x24: a newcomer met the numbers with no word of them."""
    i18n.use(lang)
    app = analysed_app(monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_analysis(pilot, app)
        rows = [row.strip().strip("█").strip() for row in screen_text(app).splitlines()]
        shown = " ".join(" ".join(rows).split())  # the text within the review's frame
        first = i18n._("Round {round}, action {action}, seat {seat} at {scores}").format(
            round=1, action=0, seat=0, scores="7-22"
        )
        assert first in shown  # the first decision, on the first page with its legend
        for legend in (report.legend_line(), report.scores_line()):
            assert " ".join(legend.split()) in shown
            assert shown.index(" ".join(legend.split())) < shown.index(first)
        assert "±" in report.legend_line()
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("n")
