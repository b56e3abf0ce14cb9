"""`exact61 play`: the full-screen app driven headless (Textual's pilot), and `--plain` driven by
scripts on standard input, in every language; saved games resume and their records verify."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exact61 import Match, Phase, Play, i18n, replay
from exact61.play.plain import run_plain
from exact61.play.session import GameSession, last_unfinished
from exact61.tui.app import GameApp


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EXACT61_DATA_DIR", str(tmp_path / "data"))
    yield tmp_path / "data"
    i18n.use("en")


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


async def play_turn(app: GameApp, pilot: object) -> None:
    """Choose the first legal action with keys: its tile's number, then its letter."""
    s = app.session
    action = s.match.legal_actions()[0]
    assert isinstance(action, Play)
    await pilot.press(str(s.match.hand(app.viewer).index(action.tile) + 1))  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    if app.selected is not None:
        letter = app.choices()[action.at]  # type: ignore[index]
        await pilot.press(letter)  # type: ignore[attr-defined]


async def drive(app: GameApp, pilot: object, *, until_round: int = 99, turns: int = 2000) -> None:
    for _ in range(turns):
        await pilot.pause()  # type: ignore[attr-defined]
        s = app.session
        if app.screen.id == "end" or len(s.match.rounds) > until_round:
            return
        if app.screen.id in ("settlement", "cover"):
            await pilot.press("enter")  # type: ignore[attr-defined]
        elif app.waiting:
            await play_turn(app, pilot)


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
                assert "Seat 0:" in body and "pips" in body
                await pilot.press("enter")
                break
            if app.waiting:
                await play_turn(app, pilot)
        assert settled
        await pilot.pause()
        assert len(session.match.rounds) == 2
    assert verified(session.save_path, session.match)


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


# ---- --plain ------------------------------------------------------------------------------


def plain(
    script: str, players: int = 2, seats: list[str] | None = None, lang: str = "en", seed: int = 3
) -> tuple[str, GameSession]:
    i18n.use(lang)
    session = GameSession(players, seats or ["human"] + ["greedy"] * (players - 1), seed, lang=lang)
    out = io.StringIO()
    assert run_plain(session, io.StringIO(script), out) == 0
    return out.getvalue(), session


@pytest.mark.parametrize(
    "lang, won", [("en", "win"), ("de", "gewinn"), ("pl", "wygryw"), ("ru", "выигрыва")]
)
def test_plain_whole_match_in_every_language(lang: str, won: str) -> None:
    text, session = plain("1\n" * 3000 + "n\n", players=2, lang=lang)
    assert session.match.is_over and won in text
    assert verified(session.save_path, session.match)


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
    assert check.returncode == 0 and "1 matches verified" in check.stdout


def test_play_command_rejects_bad_options() -> None:
    for args, words in (
        (["--players", "5"], "Usage"),
        (["--seats", "human,nobody"], "unknown"),
        (["--seats", "human"], "seats"),
        (["--lang", "xx"], "language"),
        (["--resume"], "no unfinished game"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "exact61", "play", "--plain", *args],
            capture_output=True,
            text=True,
            input="",
        )
        assert result.returncode == 2, (args, result.stderr)
        assert words in result.stdout + result.stderr and "Traceback" not in result.stderr


def test_session_state_machine() -> None:
    session = GameSession(3, ["greedy", "random", "heuristic"], seed=1)
    assert session.match.phase is Phase.DEAL
    while not session.match.is_over:
        if session.match.phase is Phase.DEAL:
            session.deal()
        else:
            session.apply(session.bot_action())
    assert verified(session.save_path, session.match)


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
        await pilot.press("enter")
        await pilot.pause()
        assert session.match.rounds[0].steps[0].action == hinted


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
    from exact61.play.session import parse_seats

    try:
        seats = parse_seats(text, players)
    except ValueError:
        return
    assert len(seats) == players
