"""The full-screen game's screen as text, at 60x20, 80x24 and 120x40 with hands of 5, 8 and 12
tiles: every tile of the hand is on screen (the drawn tile that must be placed marked, its
attach points listed) from 80x24 up, and below that the app says the terminal is too small
instead of hiding things. `UPDATE_SNAPSHOTS=1` rewrites the snapshots."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from rich.cells import cell_len
from textual.app import App
from textual.pilot import Pilot

from exact61 import AttachPoint, Match, Tile, i18n
from exact61.terminal.app import GameApp
from exact61.terminal.plain import run_plain
from exact61.terminal.screens import RulesScreen
from exact61.terminal.session import GameSession
from exact61.terminal.widgets import (
    MIN_HEIGHT,
    MIN_WIDTH,
    FittedLines,
    GameLog,
    LayoutPicture,
    Token,
    TokenRow,
)
from tests.helpers import rest_of_set

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"
SIZES = [(60, 20), (80, 24), (120, 40)]
SVG = "{http://www.w3.org/2000/svg}"


pytestmark = pytest.mark.usefixtures("data_dir")


def T(text: str) -> Tile:
    return Tile(int(text[0]), int(text[1]))


def P(tile: str, end: str) -> AttachPoint:
    return AttachPoint(T(tile), end)


# A large layout: a line through the spinner [3|3], whose arm B carries the spinner [0|0].
BIG = [
    (T("33"), None),
    (T("35"), P("33", "lineA")),
    (T("36"), P("33", "lineB")),
    (T("45"), P("35", "high")),
    (T("24"), P("45", "low")),
    (T("22"), P("24", "low")),
    (T("03"), P("33", "armB")),
    (T("00"), P("03", "low")),
    (T("05"), P("00", "lineB")),
    (T("01"), P("00", "armA")),
]
# A short line open only at 5 and 6: a hand without those values cannot place (R10), so a
# player draws until a tile fits, which must then be placed.
SMALL = [(T("56"), None), (T("66"), P("56", "high")), (T("55"), P("56", "low"))]
HANDS = {
    5: (BIG, "13 23 46 55 66", "02 04 06 11 12", None),
    8: (SMALL, "00 11 22 33 44 01 02 36", "03 04 12 13 14", "36"),
    12: (SMALL, "00 11 22 33 44 01 02 03 04 12 13 45", "14 23 24 34 16", "45"),
}


def seated(
    seats: list[str],
    layout: list[tuple[Tile, AttachPoint | None]],
    hands: list[list[Tile]],
    opener: int = 0,
    **position: object,
) -> GameSession:
    """A game of `seats` from a position: the layout and the hands given, every other tile in
    the boneyard, seat 0 to act, seat `opener` the round's opener (`position`: scores, a
    pending draw)."""
    session = GameSession(len(seats), seats, seed=1)
    session.match = Match.from_position(
        len(seats),
        layout=layout,
        hands=hands,
        boneyard=rest_of_set((t for t, _ in layout), *hands),
        to_act=0,
        opener=opener,
        **position,  # type: ignore[arg-type]
    )
    session.store = None  # a round set up from a position has no deal to record
    return session


def position(size: int) -> GameSession:
    """Seat 0 (a person, against greedy) to act with a hand of `size` tiles."""
    layout, hand, other, pending = HANDS[size]
    hands = [[T(t) for t in hand.split()], [T(t) for t in other.split()]]
    return seated(
        ["human", "greedy"],
        layout,
        hands,
        scores=(75, 30),
        pending_draw=None if pending is None else T(pending),
    )


def enter_label(app: App[Any]) -> str | None:
    """What the footer says Enter does now (None: Enter does nothing)."""
    active = app.screen.active_bindings.get("enter")
    return None if active is None else active.binding.description


async def settle(pilot: Pilot[Any]) -> None:
    """Let the app catch up: the messages a key or a resize set off, and those they set off."""
    for _ in range(3):
        await pilot.pause()


def screen_text(app: GameApp) -> str:
    """What the terminal shows, as plain text, read from the app's screenshot (an SVG whose
    runs of text each name their line, `...-line-N`, and start at x = column * cell width)."""
    width, height = app.size
    cells = [[" "] * width for _ in range(height)]
    for run in ElementTree.fromstring(app.export_screenshot()).iter(f"{SVG}text"):
        line = re.search(r"-line-(\d+)\)$", run.get("clip-path", ""))
        raw = run.text or ""
        text = raw.replace("\xa0", " ").replace("\n", "")
        if line is None or not text:  # the window's title, the ends of lines
            continue
        cell = float(run.get("textLength", 0)) / len(raw)
        row, x = cells[int(line[1])], round(float(run.get("x", 0)) / cell)
        for char in text:
            row[x] = char
            for wide in range(1, cell_len(char)):  # a wide character covers the next cell
                row[x + wide] = ""
            x += cell_len(char)
    return "\n".join("".join(row).rstrip() for row in cells)


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE or not path.exists():
        if not UPDATE and os.environ.get("CI"):
            pytest.fail(f"missing snapshot {path.name}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")
    assert text + "\n" == path.read_text(), f"screen {name} changed (UPDATE_SNAPSHOTS=1 rewrites)"


@pytest.mark.slow
@pytest.mark.parametrize("hand", sorted(HANDS))
@pytest.mark.parametrize("width, height", SIZES)
async def test_the_whole_hand_is_on_screen(width: int, height: int, hand: int) -> None:
    session = position(hand)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(width, height)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert app.waiting
        text = screen_text(app)
    tiles = session.match.hand(0)
    assert len(tiles) == hand
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        assert f"needs at least {MIN_WIDTH}x{MIN_HEIGHT}" in text
        assert f"{width}x{height}" in text
        assert not any(str(t) in text for t in tiles)  # nothing half shown
    else:
        for i, tile in enumerate(tiles, 1):  # every tile, with the key that picks it
            key = str(i % 10) if i <= 10 else ""
            assert f"{key} {tile}" in text, (tile, text)
        pending = session.match.pending_draw
        if pending is not None:  # marked, and where it may go listed (R10)
            assert f"{pending} (drawn)" in text
            assert f"Place {pending} at:" in text
            assert "a) " in text
        assert "Your turn." in text and "Seat 1 (greedy)" in text
    check_snapshot(f"hand{hand}-{width}x{height}", text)


@pytest.mark.slow
async def test_growing_the_window_brings_the_game_back() -> None:
    app = GameApp(position(8), delay=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert "needs at least" in screen_text(app)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        text = screen_text(app)
        assert "needs at least" not in text and "[3|6] (drawn)" in text


# ---- 80x24 with 3 and 4 players and a hand of 13 (issue 24) -------------------------------

# A line of ten tiles with 5 at both ends; the person holds twelve tiles without a 5 and has
# drawn [5|5], which must be placed (R10) and fits both ends, a) and b), across the board.
FIVES = [
    (T("01"), None),
    (T("05"), P("01", "low")),
    (T("12"), P("01", "high")),
    (T("23"), P("12", "high")),
    (T("34"), P("23", "high")),
    (T("46"), P("34", "high")),
    (T("06"), P("46", "high")),
    (T("02"), P("06", "low")),
    (T("24"), P("02", "high")),
    (T("45"), P("24", "high")),
]
THIRTEEN = "00 11 22 33 44 66 03 04 13 14 16 26 55"
OTHERS = {3: ["15 36", "25 35"], 4: ["15 36", "25", "35"]}


def crowded(players: int) -> GameSession:
    hands = [[T(t) for t in THIRTEEN.split()]] + [
        [T(t) for t in hand.split()] for hand in OTHERS[players]
    ]
    return seated(
        ["human", "greedy", "heuristic", "random"][:players],
        FIVES,
        hands,
        scores=(35, 20, 55)[: 2 if players == 4 else players],
        pending_draw=T("55"),
    )


@pytest.mark.slow
@pytest.mark.parametrize("players, lang", [(3, "pl"), (4, "de"), (4, "en")])
async def test_at_80x24_the_board_keeps_every_place_in_sight(players: int, lang: str) -> None:
    i18n.use(lang)
    session = crowded(players)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(4):
            await pilot.pause()
        assert app.waiting and app.selected == T("55")
        text = screen_text(app)
        board = app.query_one("#board")
        picture = app.query_one("#picture", LayoutPicture)
        view = board.scrollable_content_region
        left, top = board.scroll_offset
        places = app.choices()
        assert sorted(places.values()) == ["a", "b"]  # both ends of the line of play
        for point, letter in places.items():
            y, x = picture.picture.markers[point]
            x += picture.styles.gutter.left
            assert left <= x < left + view.width and top <= y < top + view.height, letter
            assert f"{letter}) " in text, (letter, text)
    lines = text.splitlines()
    assert lines[1].lstrip().startswith(i18n._("Scores: {scores}").split("{")[0])  # unwrapped
    assert lines[2].lstrip().split()[0] in text.splitlines()[2]
    for i, tile in enumerate(session.match.hand(0), 1):  # every tile, with its key
        key = str(i % 10) if i <= 10 else ""
        assert f"{key} {tile}" in text, (tile, text)
    assert f"{T('55')} {i18n._('(drawn)')}" in text
    i18n.use("en")
    check_snapshot(f"crowded{players}-{lang}-80x24", text)


FOOTER_KEYS = {"Save and quit": "q", "Hint": "?", "Take back": "u", "Rules": "r"}
ENTER = ("Play the hint", "Play the only choice", "Place it")  # one meaning at a time


def footer_line(labels: list[str]) -> str:
    """The game's footer as Textual draws it: each shown key and its label, one space apart."""
    keys = {**FOOTER_KEYS, **dict.fromkeys(ENTER, "⏎")}
    return " ".join(f"{keys[label]} {i18n._(label)}" for label in labels)


@pytest.mark.parametrize("lang", ["en", "ru"])  # the drawing; every language's width below
async def test_the_footer_is_drawn_as_its_keys_and_labels(lang: str) -> None:
    i18n.use(lang)
    hands = [[T("24")], [T("66"), T("36")]]  # [2|4] fits [1|2] at 2 alone: Enter plays it
    session = seated(["human", "greedy"], [(T("12"), None)], hands)
    app = GameApp(session, delay=0)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert app.waiting
            footer = screen_text(app).splitlines()[-1]
        # nothing to take back yet: the first move of the round
        assert footer == footer_line(["Save and quit", "Play the only choice", "Hint", "Rules"])
    finally:
        i18n.use("en")


def rules_footer() -> str:
    return f"esc {i18n._('Back to the game')} ↑ ↓ PgUp PgDn {i18n._('Scroll')}"


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_rules_screens_footer_names_its_keys(lang: str) -> None:
    """The rules screen's footer says how to go back and how to scroll (it showed only `r`),
    and those keys do so."""
    i18n.use(lang)
    app = GameApp(position(5), delay=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert screen_text(app).splitlines()[-1] == rules_footer()
            rules = app.screen.query_one("#rules")
            await pilot.press("pagedown", "down")
            await pilot.pause()
            down = rules.scroll_y
            assert down > 0
            await pilot.press("up")
            await pilot.pause()
            assert rules.scroll_y < down
            selected = app.selected
            await pilot.press("tab", "shift+tab", "tab")  # the game's keys wait under the rules
            await pilot.pause()
            assert app.selected == selected and isinstance(app.screen, RulesScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, RulesScreen) and app.waiting
            await pilot.press("tab")
            await pilot.pause()
            assert app.selected is not None and app.selected != selected
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_at_80_columns_the_footer_says_every_key_whole(lang: str) -> None:
    """Every key the game's footer may show at once, with Enter's longest meaning, fits 80
    columns in every language (Russian's came to 83 and lost the end of Rules)."""
    i18n.use(lang)
    try:
        for enter in ENTER:
            line = footer_line(["Save and quit", enter, "Hint", "Take back", "Rules"])
            assert cell_len(line) <= 80, (cell_len(line), line)
        assert cell_len(rules_footer()) <= 80, rules_footer()
    finally:
        i18n.use("en")


@pytest.mark.parametrize("players, lang", [(3, "ru"), (4, "ru"), (3, "de"), (2, "pl")])
async def test_at_80_columns_every_sides_tally_is_whole(players: int, lang: str) -> None:
    """`--target-tally` near the end, the longest tallies (59 display points each): at 80
    columns every side's tally shows whole: the points, then the word Scores, are left out
    before a mark is (a tally is the display points, R31)."""
    i18n.use(lang)
    hands = [[T("24"), T("33")], [T("66"), T("36")], [T("55"), T("15")], [T("44"), T("14")]]
    session = seated(
        ["human"] + ["greedy"] * (players - 1),
        [(T("12"), None)],
        hands[:players],
        scores=(295, 290, 285)[: 2 if players == 4 else players],
    )
    app = GameApp(session, delay=0, tally=True)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
        line = text.splitlines()[1].split("│")[0]  # the scores, left of the log
        assert "…" not in line, line
        for raw in (295, 290, 285)[: 2 if players == 4 else players]:
            assert "⊠" * (raw // 50) + "|" * (raw // 5 % 10) in line, (raw, line)
    finally:
        i18n.use("en")


# ---- rows of entries that wrap ------------------------------------------------------------


def row(label: str, entries: list[str]) -> TokenRow:
    tokens = TokenRow(id="row")
    tokens.tokens = [Token(label)] + [Token(e, action=f"tile({i})") for i, e in enumerate(entries)]
    return tokens


def indents(text: str) -> list[int]:
    return [len(line) - len(line.lstrip()) for line in text.splitlines()]


@pytest.mark.parametrize("tiles", [5, 8, 13])
def test_a_wrapped_hand_continues_under_its_first_tile(tiles: int) -> None:
    """At 80 columns (54 for the hand) every line of a hand that wraps starts where its first
    tile does: the second line had started at the left edge under the label."""
    hand = [f"{i % 10} [{i % 7}|{i % 7}]" for i in range(1, tiles + 1)]
    text = row("Your hand:", hand).text(54)
    lines = text.splitlines()
    assert len(lines) == -(-tiles // 4), text  # four tiles a line beside "Your hand:"
    first = lines[0].index(hand[0])
    assert indents(text)[1:] == [first] * (len(lines) - 1), text
    for entry in hand:
        assert entry in text


def test_a_label_too_wide_to_hang_under_stands_on_its_own_line() -> None:
    """Entries wider than the room beside the label go under it, each line from the left edge,
    never word-wrapped into a narrow column beside it."""
    entries = [
        "a) [0|5] (koniec o większej wartości) +3 (15)",
        "b) [4|5] (koniec o większej wartości) +3 (15)",
    ]
    text = row("Dołóż [5|5] do:", entries).text(54)
    assert text.splitlines() == ["Dołóż [5|5] do:", *entries]
    assert row("Dołóż [5|5] do:", ["a) [0|5]", "b) [4|5]"]).text(54).count("\n") == 0


def test_a_label_wider_than_the_row_is_wrapped_not_cut() -> None:
    """A first entry without an action (as the tour's choices are once answered) wider than
    the row is wrapped by words like any other: it was laid out whole and cut at the edge."""
    label = "✗ 1) [5|5] do [1|5] (koniec o większej wartości): 3 (15)"
    text = row(label, ["2) [0|1] do [1|1] (boczne ramię B): 2 (10)"]).text(42)
    assert max(map(len, text.splitlines())) <= 42, text
    assert " ".join(text.split()) == " ".join(
        f"{label} 2) [0|1] do [1|1] (boczne ramię B): 2 (10)".split()
    )


async def test_q_saves_and_quits_from_the_hot_seats_cover(data_dir: Path) -> None:
    """The screen that covers the table between two people says how to leave, and `q` leaves
    there as on the table: it did nothing, and the footer named only Enter and the rules."""
    session = GameSession(2, ["human", "human"], seed=2)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            await pilot.pause()
        assert app.screen.id == "cover"
        assert f"q {i18n._('Save and quit')}" in screen_text(app).splitlines()[-1]
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and session.save_path.exists()


async def test_a_tile_picked_to_open_says_enter_opens_with_it() -> None:
    """Tab picks a tile on an empty table: the line under the hand said to pick a tile still,
    while the footer said Enter places it."""
    session = seated(["human", "greedy"], [], [[T("34"), T("12")], [T("66"), T("36")]])
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("tab")
        await pilot.pause()
        assert app.selected == T("34")
        assert app.query_one("#choices", TokenRow).text(78) == "Enter: open with [3|4]"
        await pilot.press("enter")
        await pilot.pause()
        assert not session.match.layout.is_empty and T("34") not in session.match.hand(0)


async def test_the_game_says_at_its_start_when_a_placement_scores() -> None:
    """The rule the whole game turns on, said where the game starts, on the screen and line by
    line: a newcomer met `+1 (5): ends 2+3` in the log with no word of why it scored."""
    rule = "A placement scores when the scored ends add up to a multiple of 5 (R15)."
    app = GameApp(position(5), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert rule in app.query_one(GameLog).kept[:5]
        # and what the board's ∘ is, drawn at every free attach point and said nowhere
        assert (
            "∘ on the board: a free attach point, where a tile can go (R13)."
            in (app.query_one(GameLog).kept[:5])
        )
    out = io.StringIO()
    run_plain(GameSession(2, ["human", "greedy"], seed=1), io.StringIO("q\n"), out)
    assert rule in out.getvalue().splitlines()[:5]


async def test_the_logs_opening_lines_stay_in_sight_until_the_person_moves() -> None:
    """At 80x24 in German with four players the log is 24 columns wide: the lines that say
    when a placement scores (R15) and what ∘ is (R13) had scrolled away under the bots' first
    moves before the newcomer's first turn. They stay at the top until the person acts; then
    the log follows the game again."""
    i18n.use("de")
    try:
        session = GameSession(4, ["human", "greedy", "greedy", "greedy"], seed=3)
        app = GameApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(10):
                await pilot.pause()
            assert app.waiting and session.to_act == 0 and len(session.match.layout.tiles) == 3
            log = app.query_one(GameLog)
            assert log.max_scroll_y > 0  # more lines than rows: the log scrolls
            area = log.scrollable_content_region  # within its border and scrollbar
            rows = screen_text(app).splitlines()
            shown = " ".join(row[area.x : area.right] for row in rows)
            shown = " ".join(shown.split())
            for line in log.kept[:5]:  # the R15 line had lost its first words, "Ein Anlegen"
                assert line in shown, shown
            assert log.scroll_y == 0
            await pilot.press("tab")
            await pilot.press("enter")
            for _ in range(5):
                await pilot.pause()
            assert session.match.hand_sizes()[0] < 5 or session.match.boneyard_size < 8
            assert log.scroll_y == log.max_scroll_y > 0  # the game's lines again
            assert "(R15)." not in screen_text(app)
    finally:
        i18n.use("en")


async def test_the_logs_opening_lines_stay_in_sight_through_the_persons_forced_draws() -> None:
    """A draw R10 forces on the person is no act of theirs: it let the log follow the game, and
    the lines that say how a placement scores scrolled away before their first choice (here
    after nine draws and passes of seat 0's)."""
    i18n.use("de")
    try:
        session = GameSession(4, ["human", "greedy", "greedy", "greedy"], seed=1)
        app = GameApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(500):  # the bots' moves and the draws, each after a refresh
                if app.waiting:
                    break
                await pilot.pause(0.01)
            assert session.to_act == 0 and session.match.rounds[-1].steps[0].seat != 0
            assert any(step.seat == 0 for step in session.match.rounds[-1].steps)  # forced
            log = app.query_one(GameLog)
            assert log.max_scroll_y > 0 and log.scroll_y == 0
    finally:
        i18n.use("en")


async def test_the_tiles_others_hold_are_said_in_words_while_they_fit() -> None:
    """At 120 columns, four players: the line of the others' tiles came down to `S1 2` as soon
    as the bots' names did not fit, where `Seat 1: 2 tiles` does."""
    app = GameApp(crowded(4), delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        status = app.query_one("#status", FittedLines)
        line = status.text(status.content_size.width).splitlines()[2]
        assert line == "Others: Seat 1: 2 tiles, Seat 2: 1 tile, Seat 3: 1 tile. Boneyard: 1 tile."


@pytest.mark.parametrize(
    "seats, size, line",
    [
        (  # under the cover between two people: every seat, none of them "others"
            ["human"] * 4,
            (120, 40),
            "Tiles: Seat 0: 5, Seat 1: 5, Seat 2: 5, Seat 3: 5. Boneyard: 8.",
        ),
        (
            ["human"] * 3,
            (120, 40),
            "In hand: Seat 0: 5 tiles, Seat 1: 5 tiles, Seat 2: 5 tiles. Boneyard: 13 tiles.",
        ),
        (  # a person's own turn at 80 columns: the seats in words while the counts fit
            ["human", "greedy", "greedy", "greedy"],
            (80, 24),
            "Tiles: Seat 1: 5, Seat 2: 5, Seat 3: 5. Boneyard: 8.",
        ),
        (  # the cover at 80 columns: the seats named once, before their counts (was `S0 5`)
            ["human"] * 4,
            (80, 24),
            "Tiles of seats 0, 1, 2, 3: 5, 5, 5, 5. Boneyard: 8.",
        ),
    ],
)
async def test_the_tiles_in_hand_name_the_seats_as_the_other_lines_do(
    seats: list[str], size: tuple[int, int], line: str
) -> None:
    """Under a hot seat's cover the status line said `Tiles: S0 5, S1 5, S2 5, S3 5` beside
    `Scores: Seats 0 and 2` and the cover's `Seat 1 to play`, and `Others:` where the screen is
    nobody's; at 80 columns `S1 5` came as soon as `Seat 1: 5 tiles` did not fit."""
    session = GameSession(len(seats), seats, seed=2)
    app = GameApp(session, delay=0)
    async with app.run_test(size=size) as pilot:
        for _ in range(5):
            await pilot.pause()
        if len(set(seats)) == 1:
            assert app.screen.id == "cover"
        status = app.query_one("#status", FittedLines)
        assert status.text(status.content_size.width).splitlines()[2] == line
        assert line in screen_text(app)
