"""`exact61 play`: the full-screen app driven headless (Textual's pilot), and `--plain` driven by
scripts on standard input, in every language; saved games resume and their records verify."""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from exact61 import ALL_TILES, AttachPoint, Layout, Match, Phase, Play, Tile, i18n, replay
from exact61.core import free_end
from exact61.learn import hints
from exact61.render.geometry import drawing, tile_names
from exact61.table import Table
from exact61.terminal import layout_words, words
from exact61.terminal.app import GameApp
from exact61.terminal.plain import run_plain
from exact61.terminal.session import GameSession, last_unfinished
from exact61.terminal.widgets import FittedLines, GameLog, TokenRow
from tests.terminal.test_app_screens import screen_text

pytestmark = pytest.mark.usefixtures("data_dir")


def verified(path: Path, match: Match) -> bool:
    """The saved record replays under the rules (replay raises otherwise) to the very match that
    was played: the same actions, scores and state."""
    again = replay(path.read_text())
    return (
        [r.steps for r in again.rounds] == [r.steps for r in match.rounds]
        and again.scores == match.scores
        and again.is_over == match.is_over
    )


# ---- the full-screen app ------------------------------------------------------------------


async def play_turn(app: GameApp, pilot: Pilot[None]) -> None:
    """Choose the first legal action with keys: its tile's number (Tab beyond 10), then its
    letter; a tile that fits one place only is placed by its number alone."""
    s = app.session
    action = s.match.legal_actions()[0]
    assert isinstance(action, Play) and app.viewer is not None
    number = s.match.hand(app.viewer).index(action.tile) + 1
    if number <= 10:
        await pilot.press(str(number % 10))
    else:
        while app.selected != action.tile:
            await pilot.press("tab")
    await pilot.pause()
    if app.selected == action.tile and app.waiting:
        if action.at in app.choices():
            await pilot.press(app.choices()[action.at])
        else:
            await pilot.press("enter")


async def drive(
    app: GameApp, pilot: Pilot[None], *, until_round: int = 99, turns: int = 2000
) -> None:
    for _ in range(turns):
        try:
            await app.workers.wait_for_complete()  # a bot's move being thought out is made
        except WorkerCancelled:  # an exclusive worker, replaced by a newer one: wait for it
            continue
        await pilot.pause()
        s = app.session
        if app.screen.id == "end" or len(s.match.rounds) > until_round:
            return
        if app.screen.id in ("settlement", "cover"):
            await pilot.press("enter")
        elif app.waiting:
            await play_turn(app, pilot)


@pytest.mark.slow  # a round played by keys, to its settlement
async def test_start_move_with_keys_hint_settlement() -> None:
    session = GameSession(2, ["human", "greedy"], seed=4)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.waiting and session.to_act == 0 and len(session.match.rounds) == 1
        tiles = len(session.match.layout)
        await play_turn(app, pilot)
        await pilot.pause()
        assert len(session.match.layout) > tiles  # placed, and the bot answered
        while not app.waiting:
            await pilot.pause()
        await pilot.press("question_mark")  # the hint selects the suggested tile
        await pilot.pause()
        assert app.selected is not None
        await pilot.press("escape")
        await pilot.pause()
        assert app.selected is None
        settled = False
        for _ in range(600):  # play on until the first round is settled on screen
            await pilot.pause()
            if app.screen.id == "settlement":
                settled = True
                body = str(app.screen.query_one("#dialog-body").render())
                # the settlement names the person as the header does, "You" (seat 0)
                assert "You:" in body and "Seat 0" not in body and "pips" in body
                header = app.query_one("#status", FittedLines).text(200)
                assert "You:" in header
                await pilot.press("enter")
                break
            if app.waiting:
                await play_turn(app, pilot)
        assert settled
        await pilot.pause()
        assert len(session.match.rounds) == 2
    assert verified(session.save_path, session.match)


@pytest.mark.slow  # a whole match played by keys
async def test_a_whole_match_and_the_end_screen() -> None:
    session = GameSession(4, ["human", "greedy", "random", "greedy"], seed=9)
    app = GameApp(session, delay=0, tally=True)
    async with app.run_test(size=(140, 44)) as pilot:
        await drive(app, pilot)
        assert app.screen.id == "end" and session.match.is_over
        body = str(app.screen.query_one("#dialog-body").render())
        assert "61 (305)" in body
        await pilot.press("n")
    record = json.loads(session.save_path.read_text())
    assert record["winner"] == session.match.winner and verified(session.save_path, session.match)


@pytest.mark.slow  # forty turns of two people, by keys
async def test_hot_seat_covers_the_hand_between_people() -> None:
    session = GameSession(2, ["human", "human"], seed=2)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        covers = 0
        for _ in range(40):
            await pilot.pause()
            if app.screen.id == "cover":
                covers += 1
                assert app.viewer is None  # nobody's hand is on screen under the cover
                await pilot.press("enter")
                await pilot.pause()
                assert app.viewer == session.to_act
            elif app.waiting:
                await play_turn(app, pilot)
        assert covers >= 3


@pytest.mark.slow  # a whole match played by keys
async def test_resume_a_saved_game_in_the_app(data_dir: Path) -> None:
    session = GameSession(2, ["human", "heuristic"], seed=6)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await drive(app, pilot, until_round=1, turns=8)
        await pilot.press("ctrl+c")  # saves and quits
    assert not session.match.is_over
    path = last_unfinished()
    assert path == session.save_path
    saved_actions = sum(len(r.steps) for r in session.match.rounds)
    resumed = GameSession.resume(path)
    assert sum(len(r.steps) for r in resumed.match.rounds) == saved_actions
    app2 = GameApp(resumed, delay=0)
    async with app2.run_test(size=(120, 40)) as pilot:
        await drive(app2, pilot)
        assert resumed.match.is_over
    assert verified(path, resumed.match) and last_unfinished() is None


def test_games_started_in_the_same_second_with_the_same_seed_keep_separate_saves(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save is named by the start time and seed: games that share both must not overwrite
    each other's file, nor share a temporary one."""
    monkeypatch.setattr("exact61.terminal.session.time.strftime", lambda _: "20261130-120000")
    sessions = [
        GameSession(2, seats, seed=8) for seats in (["human", "greedy"], ["human", "human"])
    ]
    sessions.append(GameSession(3, ["human", "random", "greedy"], seed=8))
    for session in sessions:
        session.deal()
    paths = [session.save_path for session in sessions]
    assert len(set(paths)) == 3
    assert [p.name for p in paths] == [
        "20261130-120000-8.json",
        "20261130-120000-8-2.json",
        "20261130-120000-8-3.json",
    ]
    for session, path in zip(sessions, paths, strict=True):
        again = GameSession.resume(path)
        assert again.seats == session.seats and verified(path, session.match)
    assert sorted(p.name for p in paths[0].parent.iterdir()) == sorted(p.name for p in paths)


# ---- --plain ------------------------------------------------------------------------------


def plain(
    script: str, players: int = 2, seats: list[str] | None = None, lang: str = "en", seed: int = 3
) -> tuple[str, GameSession]:
    i18n.use(lang)
    session = GameSession(players, seats or ["human"] + ["greedy"] * (players - 1), seed, lang=lang)
    out = io.StringIO()
    assert run_plain(session, io.StringIO(script), out) == 0
    return out.getvalue(), session


@pytest.mark.slow
@pytest.mark.parametrize(
    "lang, won", [("en", "win"), ("de", "gewinn"), ("pl", "wygryw"), ("ru", "выигрыва")]
)
def test_plain_whole_match_in_every_language(lang: str, won: str) -> None:
    text, session = plain("1\n" * 3000 + "n\n", players=2, lang=lang)
    assert session.match.is_over and won in text
    assert verified(session.save_path, session.match)


@pytest.mark.slow
def test_plain_four_players_to_the_end() -> None:
    text, session = plain(
        "1\n" * 3000 + "n\n", players=4, seats=["human", "greedy", "human", "random"]
    )
    assert session.match.is_over and "Pass the terminal to seat 2" in text
    assert verified(session.save_path, session.match)


def test_plain_bad_input_reprompts_and_eof_saves() -> None:
    text, session = plain("x\n0\n99\n\n  \n?\nq\n")
    assert text.count("Please type a number") >= 4
    assert "Hint: " in text and "Game saved to" in text
    assert not session.match.is_over and verified(session.save_path, session.match)
    text, session = plain("")  # end of input at once
    assert "Game saved to" in text and verified(session.save_path, session.match)


class CtrlC(io.StringIO):
    """Input whose reader presses Ctrl+C once its lines are read."""

    def readline(self, size: int | None = -1) -> str:
        line = super().readline(size)
        if not line:
            raise KeyboardInterrupt
        return line


def test_plain_ends_its_last_line_when_the_input_ends() -> None:
    # bots only: the match plays out, then the questions after it meet the end of the input
    session = GameSession(2, ["greedy", "heuristic"], 3)
    out = io.StringIO()
    assert run_plain(session, io.StringIO(""), out) == 0
    text = out.getvalue()
    assert session.match.is_over and text.endswith("\n")  # whole lines, for a pipe
    assert text.splitlines()[-1].strip() == "Analyse this game? [y/N]"


def test_plain_ctrl_c_saves_and_says_how_to_go_on() -> None:
    i18n.use("de")
    session = GameSession(2, ["human", "greedy"], 3, lang="de")
    out = io.StringIO()
    try:
        assert run_plain(session, CtrlC("1\n"), out) == 130  # a shell's status for Ctrl+C
    finally:
        i18n.use("en")
    # the last line says how to go on, line by line as it was played
    assert out.getvalue().splitlines()[-1].endswith("exact61 play --plain --resume")
    assert "Spiel gespeichert" in out.getvalue()
    assert not session.match.is_over and verified(session.save_path, session.match)


@pytest.mark.slow
def test_plain_resume_continues_the_same_game(data_dir: Path) -> None:
    _, first = plain("1\n" * 12)
    path = last_unfinished()
    assert path == first.save_path
    resumed = GameSession.resume(path)
    out = io.StringIO()
    run_plain(resumed, io.StringIO("1\n" * 3000 + "n\n"), out)
    assert resumed.match.is_over
    record = json.loads(path.read_text())
    assert record["rounds"][0] == first.record()["rounds"][0]  # the same game, continued
    assert verified(path, resumed.match)


@pytest.mark.slow
def test_play_command_plain_through_a_pipe(tmp_path: Path, data_dir: Path) -> None:
    script = "1\n" * 3000 + "n\n"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "exact61",
            "play",
            "--plain",
            "--seed",
            "5",
            "--seats",
            "human,greedy",
            "--lang",
            "pl",
            "--target-tally",
        ],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "Osiąga" in result.stdout or "osiąga" in result.stdout
    saved = list((data_dir / "games").glob("*.json"))
    assert len(saved) == 1
    check = subprocess.run(
        [sys.executable, "-m", "exact61", "replay", str(saved[0])], capture_output=True, text=True
    )
    assert check.returncode == 0 and "1 match verified" in check.stdout


@pytest.mark.slow
def test_play_command_rejects_bad_options() -> None:
    for args, expected in (
        (["--players", "5"], "Invalid value for '--players'"),
        (["--seats", "human,nobody"], "unknown"),
        (["--seats", "human"], "seats"),
        (["--lang", "xx"], "language"),
        (["--resume"], "no unfinished game to resume (exact61 play starts one)"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "exact61", "play", "--plain", *args],
            capture_output=True,
            text=True,
            input="",
        )
        assert result.returncode == 2, (args, result.stderr)
        assert expected in result.stdout + result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_session_state_machine() -> None:
    session = GameSession(3, ["greedy", "random", "heuristic"], seed=1)
    assert session.match.phase is Phase.DEAL
    while not session.match.is_over:
        if session.match.phase is Phase.DEAL:
            session.deal()
        else:
            session.apply(session.bot_action())
    assert verified(session.save_path, session.match)


@pytest.mark.slow
async def test_hint_then_enter_plays_the_hinted_move_even_an_opening() -> None:
    session = next(
        s
        for s in (GameSession(2, ["human", "greedy"], seed=k) for k in range(40))
        if (s.deal() or s.match.rounds[0].opener == 0)
    )
    app = GameApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.waiting and session.match.layout.is_empty
        await pilot.press("question_mark")
        await pilot.pause()
        hinted = app.hinted
        assert isinstance(hinted, Play) and hinted.at is None
        # the opening's tile marked in the hand, the others not
        marked = [t.text for t in app.query_one("#hand", TokenRow).tokens if "★" in t.text]
        assert len(marked) == 1 and str(hinted.tile) in marked[0], marked
        await pilot.press("enter")
        await pilot.pause()
        assert session.match.rounds[0].steps[0].action == hinted


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_plain_four_player_match_in_every_language(lang: str) -> None:
    text, session = plain(
        "1\n" * 4000 + "n\n",
        players=4,
        lang=lang,
        seats=["human", "greedy", "human", "heuristic"],
        seed=11,
    )
    assert session.match.is_over and verified(session.save_path, session.match)
    assert "61 (305)" in text


@pytest.mark.slow  # a whole match played by keys
@pytest.mark.parametrize("lang, players", [("de", 2), ("pl", 4), ("ru", 2), ("ru", 4)])
async def test_app_whole_match_in_other_languages(lang: str, players: int) -> None:
    i18n.use(lang)
    seats = ["human"] + ["greedy"] * (players - 1)
    session = GameSession(players, seats, seed=13, lang=lang)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await drive(app, pilot)
        assert app.screen.id == "end" and session.match.is_over
        title = str(app.screen.query_one("#dialog-title").render())
        assert title == i18n._("The match is over") != "The match is over"
    assert verified(session.save_path, session.match)


# ---- fuzzing what a person types ------------------------------------------------------------


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(
        st.one_of(
            st.text(max_size=8),
            st.integers(-5, 30).map(str),
            st.sampled_from(["", "?", "q", "1", " 2 ", "y", "n"]),
        ),
        max_size=60,
    ),
    players=st.sampled_from([2, 3, 4]),
)
@example(lines=["\u00b2", "\u0663"], players=2)  # "²" is a digit to str.isdigit, not to int()
def test_fuzz_plain_input_never_crashes_and_the_record_verifies(
    lines: list[str], players: int
) -> None:
    script = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines) + "\n"
    text, session = plain(script, players=players, seed=len(lines))
    assert "Traceback" not in text
    assert verified(session.save_path, session.match)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.sampled_from([2, 3, 4]))
def test_fuzz_seats_option(text: str, players: int) -> None:
    from exact61.terminal.session import parse_seats

    try:
        seats = parse_seats(text, players)
    except ValueError:
        return
    assert len(seats) == players


# ---- --plain: the end, taking back, hot seat, the layout in words ----------------------------


class Answers(io.StringIO):
    """Standard input that plays the first choice at every turn and gives `again` (a line, or
    None for end of input) when asked to play again; it ends once a second match starts."""

    def __init__(self, out: io.StringIO, again: str) -> None:
        super().__init__()
        self.out, self.again = out, again

    def readline(self, size: int | None = -1) -> str:
        text = self.out.getvalue()
        if text.count("Exact 61 Five Up: 2 players") > 1:
            return ""
        return self.again if text.endswith("[y/N] ") else "1\n"


def play_again(again: str) -> tuple[str, GameSession]:
    session = GameSession(2, ["human", "greedy"], 3)
    out = io.StringIO()
    assert run_plain(session, Answers(out, again), out) == 0
    return out.getvalue(), session


@pytest.mark.slow
def test_plain_enter_at_play_again_means_no() -> None:
    text, session = play_again("\n")
    assert session.match.is_over and text.endswith("Play again? [y/N] ")
    assert text.count("Exact 61 Five Up: 2 players") == 1  # Enter: no second match


@pytest.mark.slow
def test_plain_yes_at_play_again_starts_another_match() -> None:
    text, _ = play_again("y\n")
    assert text.count("Exact 61 Five Up: 2 players") == 2 and "Game saved to" in text


def test_plain_take_back_against_bots_keeps_the_record_valid() -> None:
    text, session = plain("1\n1\nu\nq\n", seats=["human", "random"])
    assert "Your last move is taken back" in text
    assert "u to take back" in text
    record = json.loads(session.save_path.read_text())
    assert verified(session.save_path, session.match) and record["winner"] is None
    moves = [s for log in session.match.rounds for s in log.steps if s.seat == 0]
    assert sum(isinstance(s.action, Play) for s in moves) == 1  # the second one was taken back


def test_plain_hot_seat_offers_no_take_back() -> None:
    text, _ = plain("1\n" * 6 + "u\nq\n", seats=["human", "human"])
    assert "u to take back" not in text and "taken back" not in text


def test_plain_describes_the_layout_by_its_structure() -> None:
    text, _ = plain("1\n" * 40 + "q\n", seed=8)
    assert "Line of play, left to right:" in text and "open ends" in text
    assert "Layout:" not in text  # not a flat list of tiles


def random_layout(seed: int) -> Layout:
    rng = random.Random(seed)
    match = Match(rng.choice([2, 3, 4]))
    match.deal_next_round(rng)
    for _ in range(rng.randrange(1, 60)):
        if match.phase is not Phase.PLAY:
            break
        match.apply(rng.choice(match.legal_actions()))
    return match.layout


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9))
def test_layout_in_words_names_every_tile_once_and_every_open_end(seed: int) -> None:
    layout = random_layout(seed)
    lines = layout_words.layout_structure(layout)
    if layout.is_empty:
        return
    # Tiles are written in reading order ([5|3] where the line runs from 5 to 3); a spinner's
    # own sentence names it once more before the colon.
    body = " ".join(
        line.split(": ", 1)[1] if line.startswith("Spinner") else line for line in lines
    )
    written = re.findall(r"\[(\d)\|(\d)\]", body)
    assert sorted(Tile(min(int(a), int(b)), max(int(a), int(b))) for a, b in written) == sorted(
        layout.tiles
    )
    # ... each as the board draws it, and a chain read as drawn: its tiles' touching halves
    # alike (an arm drawn running left read left to right, as the line is)
    assert sorted(f"[{a}|{b}]" for a, b in written) == sorted(tile_names(layout).values())
    for chain in re.split(r"[:;]", body):
        halves = re.findall(r"\[(\d)\|(\d)\]", chain)
        assert all(b == c for (_a, b), (c, _d) in pairwise(halves)), chain
    # Every free attach point is an open end in the sentences, with its value (R13).
    opens = [int(v) for v in re.findall(r"open ends (\d) \(left\) and", body)]
    opens += [int(v) for v in re.findall(r"and (\d) \(right\)", body)]
    opens += [int(v) for v in re.findall(r"open end (\d)", body)]
    opens += [int(v) for v in re.findall(r": open, (\d)", body)]
    closed = body.count("open once both line sides are joined")
    assert sorted(opens) == sorted(v for _, v in layout.free_points())
    assert closed == sum(
        1
        for t in layout.spinners()
        if any(layout.is_free(AttachPoint(t, e)) for e in ("lineA", "lineB"))
    )


# ---- a placed tile named as the board draws it -------------------------------------------
# Seed 1: you open with [3|6], and greedy places [0|6] on its 6, which the board draws turned,
# [6|0]; your next turn has places on it.
TURNED_SEED = 1


def turned_tiles(match: Match) -> tuple[dict[Tile, str], set[Tile]]:
    """The layout's tiles as its board draws them (`tile_names`), and those drawn turned
    (high half first): the test's position must have some."""
    names = tile_names(match.layout)
    turned = {t for t, name in names.items() if name != str(t)}
    assert turned, "the position draws no tile turned: choose another seed"
    return names, turned


def last_placement(match: Match) -> tuple[Tile, Tile]:
    """The tile of the round's last action, a placement, and the tile it was placed on."""
    action = match.rounds[-1].steps[-1].action
    assert isinstance(action, Play) and action.at is not None
    return action.tile, action.at.tile


def test_plain_names_placed_tiles_as_the_board_draws_them() -> None:
    """The choices, the last move, the layout's sentences and the hint name a tile on the
    layout as the board draws it (`[6|0]`), never `[low|high]` when it is drawn turned; a tile
    in hand as it is."""
    text, session = plain("1\n?\nq\n", seed=TURNED_SEED)
    match = session.match
    names, turned = turned_tiles(match)
    turn = text[text.rindex("Your turn.") :]  # the turn the game was left at
    for tile in turned:
        assert str(tile) not in turn, tile  # no turned tile under its [low|high] name
    # the choices: a place's tile as drawn, the tile to place as in hand
    places = 0
    for action in match.legal_actions():
        if isinstance(action, Play) and action.at is not None and action.at.tile in turned:
            places += 1
            assert f") {action.tile} at {names[action.at.tile]} " in turn
    assert places
    # the last move, the bot's, just before the turn
    tile, host = last_placement(match)
    assert tile in turned or host in turned
    before = text[: text.rindex("Your turn.")].rstrip().splitlines()[-1]
    assert before.startswith(f"Seat 1 places {names[tile]} at {names[host]} ")
    # the layout's sentences: the line of play (every tile, here) left to right as drawn
    drawn = sorted(drawing(match.layout).tiles, key=lambda t: t.box.x0)
    assert all(t.across for t in drawn)
    line = " ".join(names[t.tile] for t in drawn)
    assert f"Line of play, left to right: {line};" in turn
    # the hint, at a place on a turned tile
    request = session.hint_request(0)
    hinted = hints.explain(request.view, request.source).action
    assert isinstance(hinted, Play) and hinted.at is not None and hinted.at.tile in turned
    assert f"Hint: {match.legal_actions().index(hinted) + 1}) {hinted.tile} at " in turn
    assert f" at {names[hinted.at.tile]} " in turn.split("Hint:")[1].splitlines()[0]
    # and why, under it (the hint of every game: `hints.explain`), the tiles as drawn
    why = turn.split("Hint:")[1].splitlines()[1:]
    assert why[0].startswith("  The expert plays ") and str(hinted.tile) in why[0], why
    assert any(line.startswith("  It leaves your side ") for line in why), why
    for tile in turned:
        assert str(tile) not in "\n".join(why), tile
    # the round told again (a resumed game, a move taken back) names it as the log did
    assert before in words.round_so_far(match, 0)


async def test_app_names_placed_tiles_as_the_board_draws_them() -> None:
    """The full screen: the places offered for a tile, and the log's last move, name a tile on
    the layout as the board draws it."""
    session = GameSession(2, ["human", "greedy"], seed=TURNED_SEED)
    app = GameApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_turn(app, pilot)  # the opening
        while not app.waiting:
            await pilot.pause()
        match = session.match
        names, turned = turned_tiles(match)
        tile, host = last_placement(match)
        assert tile in turned or host in turned
        assert (
            app.query_one(GameLog)
            .kept[-1]
            .startswith(f"Seat 1 places {names[tile]} at {names[host]} ")
        )
        # a tile with a place on a turned tile and another: its places are lettered
        places = [
            (a.tile, a.at.tile)
            for a in match.legal_actions()
            if isinstance(a, Play) and a.at is not None
        ]
        tile = next(
            t for t, on in places if on in turned and sum(t == other for other, _ in places) > 1
        )
        await pilot.press(str(match.hand(0).index(tile) + 1))
        await pilot.pause()
        assert app.selected == tile
        choices = app.query_one("#choices", TokenRow).text(200)
        for point in app.choices():
            assert f") {names[point.tile]} " in choices
        for turned_tile in turned:
            assert str(turned_tile) not in choices


@pytest.mark.parametrize("seed", [26, 47])  # a side arm drawn running left: B, then A
def test_an_arm_drawn_running_left_reads_left_to_right_as_drawn(seed: int) -> None:
    """A spinner standing on an arm has its side arms running left and right; the one drawn
    running left reads left to right, as the line of play does, each tile as drawn."""
    layout = random_layout(seed)
    names = tile_names(layout)
    boxes = {t.tile: t.box for t in drawing(layout).tiles}
    attached = dict(layout.joins())
    lines = layout_words.layout_structure(layout)
    left = 0
    for host, joined in attached.items():
        if host.end not in ("armA", "armB") or boxes[joined.tile].x1 > boxes[host.tile].x0:
            continue
        left += 1
        tiles, point = [], host
        while point in attached:
            tiles.append(attached[point].tile)
            point = free_end(attached[point])
        tiles.sort(key=lambda t: boxes[t].x0)
        arm = "side arm A" if host.end == "armA" else "side arm B"
        said = f"{arm}, left to right: {' '.join(names[t] for t in tiles)}, open end {point.value}"
        assert any(line.startswith(f"Spinner {host.tile}: ") and said in line for line in lines)
    assert left, "no arm of this layout runs left: choose another seed"


def test_a_rejected_credit_is_one_line_naming_whom_and_how_much() -> None:
    # Seat 0 at 300 raw places [5|5] on [0|5]: ends 0 + 10 = 10 raw would make 310 (R4).
    used = {Tile(0, 5), Tile(5, 5), Tile(2, 3), Tile(6, 6), Tile(3, 6)}
    table = Table(2, ["human", "greedy"], 1)
    table.match = Match.from_position(
        2,
        layout=[(Tile(0, 5), None)],
        hands=[[Tile(5, 5), Tile(2, 3)], [Tile(6, 6), Tile(3, 6)]],
        boneyard=[t for t in ALL_TILES if t not in used],
        to_act=0,
        opener=0,
        scores=(300, 0),
    )
    step = table.apply(Play(Tile(5, 5), AttachPoint(Tile(0, 5), "high")))
    assert [e.accepted for e in step.events] == [False] and table.match.scores == (300, 0)
    assert words.describe(step, table.match, 0) == [
        "You place [5|5] at [0|5] high end: +2 (10): ends 0+10, "
        "rejected: it would take you past 61 (R4)"
    ]
    assert words.describe(step, table.match, None) == [
        "Seat 0 places [5|5] at [0|5] high end: +2 (10): ends 0+10, "
        "rejected: it would take seat 0 past 61 (R4)"
    ]


def test_the_scored_ends_are_summed_only_when_there_is_more_than_one() -> None:
    """The board's frame read `Scored ends: 12 = 12` on a lone [6|6], which counts both halves
    (R14): one end needs no sum. Two or more are still added up, as the rule documents do."""
    layout = Layout()
    layout.place(Tile(6, 6), None)
    assert words.scored_ends(layout) == "Scored ends: 12"
    layout.place(Tile(3, 6), AttachPoint(Tile(6, 6), "lineA"))
    assert words.scored_ends(layout) == "Scored ends: 3+12 = 15"
    i18n.use("de")
    assert words.scored_ends(layout) == "Gewertete Enden: 3+12 = 15"
    lone = Layout()
    lone.place(Tile(6, 6), None)
    assert words.scored_ends(lone) == "Gewertete Enden: 12"


def test_a_placement_scoring_one_end_names_one_end() -> None:
    """A lone double opening scores its one end (R14), and the log said `+2 (10): ends 10`,
    as if of several; it says `end 10` now, and `ends 0+10` where two ends count."""
    hands = [[Tile(5, 5), Tile(2, 3)], [Tile(6, 6), Tile(3, 6)]]
    table = Table(2, ["human", "greedy"], 1)
    table.match = Match.from_position(
        2,
        layout=[],
        hands=hands,
        boneyard=[t for t in ALL_TILES if t not in hands[0] + hands[1]],
        to_act=0,
        opener=0,
        scores=(0, 0),
    )
    step = table.apply(Play(Tile(5, 5), None))
    assert words.describe(step, table.match, 0) == ["You open with [5|5]: +2 (10): end 10"]
    i18n.use("de")
    assert words.describe(step, table.match, 1) == ["Platz 0 eröffnet mit [5|5]: +2 (10): Ende 10"]


# ---- the command: resume, the data directory, the same match cut or not --------------------


def exact61(*args: str, data: Path, script: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "exact61", *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "EXACT61_DATA_DIR": str(data)},
    )


@pytest.mark.slow
def test_same_seed_and_inputs_give_the_same_match_cut_or_not(tmp_path: Path) -> None:
    # random and heuristic bots decide from their own random source: a resumed game must
    # restore it, or the cut game plays differently from the uncut one.
    options = ["play", "--plain", "--seed", "21", "--seats", "human,random,heuristic"]
    options += ["--players", "3"]
    answers = ["1", "2", "?", "1", "3", "1", "2", "1", "1", "2"] * 40 + ["n"]
    whole = exact61(*options, data=tmp_path / "whole", script="\n".join(answers) + "\n")
    assert whole.returncode == 0, whole.stderr
    cut = 23  # quit after 23 answers, resume with the rest
    first = exact61(*options, data=tmp_path / "cut", script="\n".join(answers[:cut]) + "\nq\n")
    assert first.returncode == 0 and "Game saved to" in first.stdout
    second = exact61(
        "play", "--plain", "--resume", data=tmp_path / "cut", script="\n".join(answers[cut:]) + "\n"
    )
    assert second.returncode == 0, second.stderr
    [one] = (tmp_path / "whole" / "games").glob("*.json")
    [other] = (tmp_path / "cut" / "games").glob("*.json")
    a, b = json.loads(one.read_text()), json.loads(other.read_text())
    assert a["rounds"] == b["rounds"] and a["winner"] == b["winner"]
    assert sum(len(r["actions"]) for r in a["rounds"]) > cut  # the cut fell inside the match


@pytest.mark.slow
def test_resume_says_which_options_it_ignores_and_tells_the_round(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = exact61(
        "play", "--plain", "--seed", "8", "--seats", "human,greedy", data=data, script="1\n1\nq\n"
    )
    assert first.returncode == 0
    again = exact61(
        "play",
        "--plain",
        "--resume",
        "--seed",
        "3",
        "--seats",
        "human,random",
        data=data,
        script="q\n",
    )
    assert again.returncode == 0, again.stderr
    assert "ignoring --seed, --seats" in again.stderr and "--players" not in again.stderr
    assert "Round 1:" in again.stdout and (
        "You open with" in again.stdout or "opens with" in again.stdout
    )
    quiet = exact61("play", "--plain", "--resume", data=data, script="q\n")
    assert "ignoring" not in quiet.stderr
    for options, verb in (
        (["--seed", "3"], "не учитывается"),
        (["--seed", "3", "--players", "2"], "не учитываются"),
    ):
        ru = exact61(
            "play", "--plain", "--resume", "--lang", "ru", *options, data=data, script="q\n"
        )
        assert verb in ru.stderr, ru.stderr  # the verb agrees with the count
        assert ru.stderr.count("\n") == 1  # one line, piped or not, as the errors are


@pytest.mark.slow
def test_an_unwritable_data_directory_is_reported_before_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = exact61("play", "--plain", data=blocker, script="1\n")
    assert result.returncode == 1 and result.stdout == ""  # the game never started
    assert result.stderr.startswith("exact61: cannot save games in ")
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "lang, title", [("en", "the rules"), ("de", "die Regeln"), ("pl", "zasady"), ("ru", "правила")]
)
def test_rules_command_prints_every_rule(tmp_path: Path, lang: str, title: str) -> None:
    result = exact61("rules", "--lang", lang, data=tmp_path)
    assert result.returncode == 0 and title in result.stdout.splitlines()[0]
    # through a pipe the rules are plain text: each rule's paragraph starts with its number
    numbers = re.findall(r"\n\n(R\d+) ", "\n\n" + result.stdout)
    assert numbers == [f"R{n}" for n in [*range(1, 24), 30, 31]]
    assert "**" not in result.stdout
    one = exact61("rules", "R13", "19", "--lang", lang, data=tmp_path)
    assert one.returncode == 0
    assert re.findall(r"\n\n(R\d+) ", "\n\n" + one.stdout) == ["R13", "R19"]
    bad = exact61("rules", "R24", data=tmp_path)
    assert bad.returncode == 2 and "no rule R24" in bad.stderr


# ---- after the match: the post-game review (issue 12) --------------------------------------


@pytest.mark.slow
def test_plain_analyses_the_game_when_asked() -> None:
    from exact61.analysis.analyze import decision_points

    out = io.StringIO()
    session = GameSession(2, ["human", "greedy"], 5)

    class Reader(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            text = out.getvalue()
            if text.endswith("Analyse this game? [y/N] "):
                return "y\n"
            return "n\n" if text.endswith("Play again? [y/N] ") else "1\n"

    assert run_plain(session, Reader(), out) == 0
    text = out.getvalue()
    after = text[text.index("Analyse this game? [y/N] ") :]
    match = replay(session.save_path.read_text())
    decisions = len(decision_points(match, [0]))  # the person's decisions, none of the bot's
    assert f"Analysing: {decisions} of {decisions} decisions" in after
    lines = after.splitlines()
    # one line per seat analysed: the person's, none for the bot
    assert any(line.startswith(f"Seat 0: {decisions} decisions, ") for line in lines)
    assert not any(line.startswith("Seat 1: ") for line in lines)
    costly = [line for line in lines if line.startswith("Round ")]
    for line in costly:  # rounds named as the game named them, from 1
        assert 1 <= int(line.split(",")[0].removeprefix("Round ")) <= len(match.rounds)
    assert ("Decisions that gave away 2 percentage points or more:" in after) == bool(costly)
    assert "Decided" in after and after.rstrip().endswith("Play again? [y/N]")
    assert "│" not in after  # lines of text for a screen reader, not a drawn table


@pytest.mark.slow
def test_plain_enter_at_analyse_means_no() -> None:
    text, _ = play_again("\n")
    assert "Analyse this game? [y/N] Play again? [y/N] " in text and "Seat 0: " not in text


def played_out(session: GameSession) -> GameSession:
    """The match played to its end, the person always taking the first legal action."""
    while not session.match.is_over:
        if session.match.phase is Phase.DEAL:
            session.deal()
        elif session.is_human(session.to_act):  # type: ignore[arg-type]
            session.apply(session.match.legal_actions()[0])
        else:
            session.apply(session.bot_action())
    return session


@pytest.mark.slow
@pytest.mark.parametrize("lang, title", [("en", "Analysis of this game"), ("de", "Analyse dieser")])
async def test_the_end_screen_offers_the_analysis(lang: str, title: str) -> None:
    from exact61.analysis.analyze import decision_points
    from exact61.terminal.screens import AnalysisScreen

    i18n.use(lang)
    session = played_out(GameSession(2, ["human", "greedy"], seed=5, lang=lang))
    app = GameApp(session, delay=0)
    async with app.run_test(size=(140, 44)) as pilot:
        for _ in range(5):
            await pilot.pause()
        assert app.screen.id == "end"
        key = i18n._("a")
        assert app.screen.active_bindings[key].binding.description == i18n._("Analyse this game")
        await pilot.press(key)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        await screen.workers.wait_for_complete()
        for _ in range(100):  # the frame names the scroll keys once the body is laid out
            await pilot.pause(0.02)
            if i18n._("↑ ↓ PgUp PgDn: scroll") in (shown := screen_text(app)):
                break
        first = i18n._("Round {round}, action {action}, seat {seat} at {scores}")
        assert title in shown and first.split("{action}")[0].format(round=1) in shown
        assert i18n._("↑ ↓ PgUp PgDn: scroll") in shown  # the rest is further down
        result = screen.result
        assert result is not None
        decisions = decision_points(replay(session.save_path.read_text()), [0])
        # one row per decision of the person, none of the bot's
        assert [(d.round, d.action) for d in result.decisions] == decisions
        assert {d.seat for d in result.decisions} == {0}
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.id == "end"  # back to the question: play again?
        await pilot.press("n")


# ---- partners (R2): the side's score, whichever partner took it ----------------------------


def partners_at(scores: tuple[int, int], to_act: int) -> Match:
    """4 players, the layout [0|5] alone, seat `to_act` holding [5|5] and one more tile."""
    held = [[Tile(2, 3), Tile(1, 2)], [Tile(6, 6)], [Tile(4, 4)], [Tile(3, 6)]]
    held[to_act] = [Tile(5, 5), *held[to_act]]
    used = {Tile(0, 5)} | {t for hand in held for t in hand}
    return Match.from_position(
        4,
        layout=[(Tile(0, 5), None)],
        hands=held,
        boneyard=[t for t in ALL_TILES if t not in used],
        to_act=to_act,
        opener=to_act,
        scores=scores,
    )


def test_partners_are_told_as_a_side_in_every_language() -> None:
    # Seat 2, seat 0's partner, places [5|5] on [0|5]: ends 0 + 10 = 10 raw.
    over = partners_at((300, 0), 2)
    update = Table(4, ["human", "greedy", "greedy", "greedy"], 1)
    update.match = over
    step = update.apply(Play(Tile(5, 5), AttachPoint(Tile(0, 5), "high")))
    assert [e.accepted for e in step.events] == [False]
    expected = {
        "en": ("rejected: it would take your side past 61 (R4)", "Your side (seats 0 and 2)"),
        "de": ("verworfen: über 61 für euch (R4)", "Eure Seite (Plätze 0 und 2)"),
        "pl": ("odrzucone: wyniosłoby waszą parę ponad 61 (R4)", "Wasza para (miejsca 0 i 2)"),
        "ru": ("отклонено: вывело бы вашу пару выше 61 (R4)", "Ваша пара (места 0 и 2)"),
    }
    try:
        for lang, (rejected, side) in expected.items():
            i18n.use(lang)
            assert words.describe(step, update.match, 0)[0].endswith(rejected), lang
            assert words.scores_line(update.match, 0).startswith(side), lang
    finally:
        i18n.use("en")
    assert words.describe(step, update.match, 1)[0].endswith(
        "rejected: it would take seats 0 and 2 past 61 (R4)"
    )
    # The same placement at 295 wins the match for seat 0's side (R30): seat 0 did not place it.
    won = Table(4, ["human", "greedy", "greedy", "greedy"], 1)
    won.match = partners_at((295, 0), 2)
    step = won.apply(Play(Tile(5, 5), AttachPoint(Tile(0, 5), "high")))
    assert won.match.winner == 0
    try:
        i18n.use("de")
        lines = words.describe(step, won.match, 0) + words.won_mid_round(won.match, 0)
        assert "Ihr erreicht genau 61 und gewinnt die Partie!" in lines
        assert not any("Du erreichst" in line for line in lines)
        assert any(
            line.startswith("Das Anlegen von Platz 2 (eure Seite) hat euch") for line in lines
        )
    finally:
        i18n.use("en")
    assert "Seats 0 and 2 reach exactly 61 and win the match!" in words.describe(step, won.match, 1)
