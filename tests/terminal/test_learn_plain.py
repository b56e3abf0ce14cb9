"""`exact61 learn --plain`, driven through stdin and stdout: a step answered with the rules
behind it, a wrong answer and another try, a line that answers nothing, the rules in full,
going back, leaving and resuming where the tour was left, the whole tour in German, and the
guided match whose hint says why."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from exact61 import i18n
from exact61.learn import guided
from exact61.learn.lesson import Kind, Step
from exact61.learn.progress import ProgressFile
from exact61.learn.tour import TourState, steps
from exact61.render.geometry import tile_names
from exact61.table import Waiting
from exact61.terminal.learn_plain import PlainTour
from exact61.terminal.session import GameSession, guided_session

STEPS = steps()
LETTERS = "abcdefghijkl"


pytestmark = pytest.mark.usefixtures("data_dir")


def at(step_id: str) -> int:
    return next(i for i, s in enumerate(STEPS) if s.id == step_id)


def right_line(step: Step) -> str:
    question = step.question
    if question.kind is Kind.CHOOSE:
        return str(question.right[0] + 1)
    if question.kind is Kind.PLACE:  # one place of those right
        return LETTERS[question.right[0]]
    return "".join(LETTERS[i] for i in question.right)


def wrong_answer(step: Step) -> str:
    """The key, or the line, of a wrong answer: a choice's number, else a place's letter."""
    question = step.question
    index = next(i for i, o in enumerate(question.options) if not o.right)
    return str(index + 1) if question.kind is Kind.CHOOSE else LETTERS[index]


def tour(
    script: str,
    state: TourState | None = None,
    match: Callable[[], GameSession] | None = None,
) -> tuple[int, str, TourState]:
    """Run the plain tour on `script` (its lines the learner's answers); its exit status,
    what it printed and the state it reached."""
    state = state or TourState()
    out = io.StringIO()
    code = PlainTour(state, ProgressFile("tour"), io.StringIO(script), out, match).run()
    return code, out.getvalue(), state


def test_a_right_answer_is_said_with_its_rules_and_kept() -> None:
    step = STEPS[0]
    code, out, state = tour(right_line(step) + "\n\n")
    assert code == 0
    assert "Lesson 1 of 6: The opening and what scores, step 1 of 3" in out
    assert "What does the opening score?" in out
    assert "✓ Right." in out
    assert "5 is a multiple of 5: the placement scores 1 (5) (R15)." in out
    # the rule's own paragraph (i18n/rules/en.md), whole
    assert "R15 After every placement, the opening and each player's last tile" in out
    assert "Example: sum 20 gives 20 raw = 4 display points." in out
    assert state.results == {step.id: "first"}
    kept = ProgressFile("tour").load()
    assert kept["step"] == STEPS[1].id and kept["results"] == {step.id: "first"}
    assert out.rstrip().endswith("Your progress is kept. Go on with: exact61 learn")


def test_a_wrong_place_says_why_then_a_second_try_then_the_answer() -> None:
    index = next(i for i, s in enumerate(STEPS) if s.question.kind is Kind.PLACE)
    step = STEPS[index]
    wrong = wrong_answer(step)
    _, out, state = tour(f"{wrong}\n{wrong}\n", TourState(index))
    first, _, rest = out.partition("Try again.")
    assert "✗ " in first and str(step.question.tile) in first.rpartition("✗ ")[2]
    assert "(R9)" in first.rpartition("✗ ")[2]  # why, by the engine's rules
    assert rest.count("✗ ") == 1 and "The answer:" in rest
    assert step.answer[0].text() in rest
    assert state.results == {step.id: "shown"}


def test_a_wrong_then_right_place_counts_as_later() -> None:
    index = next(i for i, s in enumerate(STEPS) if s.question.kind is Kind.PLACE)
    step = STEPS[index]
    _, out, state = tour(f"{wrong_answer(step)}\n{right_line(step)}\n", TourState(index))
    assert "Try again." in out and "✓ Right." in out
    assert state.results == {step.id: "later"}


def test_the_places_that_count_are_typed_as_letters() -> None:
    index = next(i for i, s in enumerate(STEPS) if s.question.kind is Kind.COUNT)
    step = STEPS[index]
    letters = right_line(step)
    assert len(letters) > 1
    _, out, state = tour(" ".join(letters) + "\n", TourState(index))
    assert "Which of the free places count towards the score?" in out
    assert "✓ Right." in out and state.results == {step.id: "first"}


def test_a_line_that_answers_nothing_is_said_so_and_the_step_asked_again() -> None:
    step = STEPS[0]  # four choices
    _, out, state = tour(f"7\nx\n\n{right_line(step)}\n")
    assert out.count("Please type a number from 1 to 4.") == 3
    assert "✓ Right." in out and state.results == {step.id: "first"}
    index = next(i for i, s in enumerate(STEPS) if s.question.kind is Kind.PLACE)
    count = len(STEPS[index].question.options)
    _, out, _ = tour("z\nab\n", TourState(index))  # one place is asked for: one letter
    assert out.count(f"Please type one letter, from a to {LETTERS[count - 1]}.") == 2
    index = next(i for i, s in enumerate(STEPS) if s.question.kind is Kind.COUNT)
    count = len(STEPS[index].question.options)
    _, out, _ = tour("z\n", TourState(index))  # every place that counts: letters
    assert f"Please type one letter or more, each from a to {LETTERS[count - 1]}." in out


def test_a_tile_on_the_board_is_named_as_the_board_draws_it() -> None:
    """[3|4] lies on the line with its 4 against the spinner [4|4]: the board draws [4|3], and
    the places, the answer and the scored ends name it so (it read [3|4] in the choices)."""
    step = STEPS[at("spinner-arms-1/count/5")]
    _, out, _ = tour(right_line(step) + "\n", TourState(at("spinner-arms-1/count/5")))
    board = [line for line in out.splitlines() if "├─┤" in line]
    assert board and "[4|3]" in board[0]
    assert ") [4|3] low end" in out and "Scored ends: [2|1] 2, [4|3] 3" in out
    assert "[3|4]" not in out


def test_r_prints_the_rules_behind_the_step_in_full() -> None:
    _, out, _ = tour("r\n")
    paragraphs = i18n.rule_paragraphs("en")
    for rule in STEPS[0].rules:
        first_words = i18n.plain_text(paragraphs[rule]).split("\n")[0][:40]
        assert first_words in out, rule


def test_back_goes_to_the_step_before() -> None:
    _, out, state = tour("<\n", TourState(3))
    assert state.at == 2
    assert out.count("Lesson ") == 2  # step 3 asked, then step 2 asked again
    _, out, state = tour("<\n")  # no step before the first
    assert state.at == 0 and "Please type a number" in out


def test_leaving_keeps_the_step_and_the_tour_resumes_there() -> None:
    lines = "".join(f"{right_line(s)}\n\n" for s in STEPS[:3]) + "q\n"
    code, out, _ = tour(lines)
    assert code == 0 and "Your progress is kept." in out
    state = TourState.from_json(ProgressFile("tour").load())
    assert state.at == 3 and len(state.results) == 3
    _, out, _ = tour("q\n", state)
    assert out.lstrip().startswith("Lesson 2 of 6: Doubles at the ends, step 1 of 5")


def test_the_whole_tour_in_german_ends_with_the_match_next() -> None:
    lines = "".join(f"{right_line(s)}\n\n" for s in STEPS)
    i18n.use("de")
    try:
        code, out, state = tour(lines)
    finally:
        i18n.use("en")
    assert code == 0
    assert out.count("✓ Richtig.") == len(STEPS)
    assert "Lektion 6 von 6" in out and "Lesson" not in out
    assert "beim ersten Versuch richtig beantwortet" in out
    assert state.stage == "match" and state.first_tries == len(STEPS)
    assert ProgressFile("tour").load()["stage"] == "match"


def test_the_guided_match_hint_says_why_and_the_match_is_kept(data_dir: Path) -> None:
    path = data_dir / "learn" / "tour-match.json"
    state = TourState(len(STEPS) - 1, stage="match")
    # Enter plays a move the learner is left with (R10) or the hint; `?` asks for the hint
    code, out, _ = tour("?\n\n" * 6 + "q\n", state, lambda: guided_session(path, "en"))
    assert code == 0
    assert "The guided match: 3 rounds against the bot “easy”." in out  # the easy level
    hint = out.partition("Hint: ")[2]
    assert "The expert plays " in hint and "to win the match." in hint
    assert path.exists()  # the match is saved to be resumed
    resumed = guided_session(path, "en")
    assert tuple(resumed.seats) == guided.SEATS and resumed.match.rounds


def test_the_guided_hint_names_a_placed_tile_as_the_board_draws_it(data_dir: Path) -> None:
    """The hint's move and its why name a tile on the layout as the board draws it: at the
    learner's second turn the expert plays at a tile drawn turned (its high half first)."""
    made: list[GameSession] = []

    def match() -> GameSession:
        made.append(guided_session(data_dir / "learn" / "tour-match.json", "en"))
        return made[-1]

    state = TourState(len(STEPS) - 1, stage="match")
    _, out, _ = tour("?\n\n?\nq\n", state, match)  # the hint played, then the next one
    names = tile_names(made[-1].match.layout)  # the position of the last hint
    turned = {t for t, name in names.items() if name != str(t)}
    hint = out[out.rindex("Hint: ") :].split("Press Enter")[0]
    said, expert = hint.splitlines()[0], hint.partition("The expert plays ")[2].splitlines()[0]
    assert [names[t] for t in turned if f" at {names[t]} " in said]  # at a tile drawn turned
    assert said.partition(") ")[2].startswith(expert.removesuffix("."))  # the same move
    for tile in turned:
        assert str(tile) not in hint, tile


def test_the_guided_match_ends_after_its_rounds_and_the_tour_is_done(data_dir: Path) -> None:
    path = data_dir / "learn" / "tour-match.json"
    state = TourState(len(STEPS) - 1, stage="match")
    code, out, state = tour("1\n" * 3000, state, lambda: guided_session(path, "en"))
    assert code == 0
    assert "The tour is over. Play a whole match: exact61 play." in out
    assert state.stage == "done" and ProgressFile("tour").load()["stage"] == "done"
    record = guided_session(path, "en").match
    assert record.is_over or len(record.rounds) == guided.ROUNDS


def test_a_guided_match_saved_at_its_end_resumes_over_with_no_round_dealt(
    data_dir: Path,
) -> None:
    """The guided match's file does not keep its rounds: `guided_session` gives them back, so a
    match left at its end resumes over (said so at once), where a game resumed from the same
    file without them would deal a fourth round."""
    path = data_dir / "learn" / "tour-match.json"
    session = guided_session(path, "en")
    assert session.rounds == guided.ROUNDS
    while (waiting := session.waiting_for()) is not Waiting.OVER:
        if waiting is Waiting.PERSON:
            session.apply(session.match.legal_actions()[0])
        else:
            session.step()
    assert not session.match.is_over and len(session.match.rounds) == guided.ROUNDS
    resumed = guided_session(path, "en")
    assert resumed.record() == session.record() and resumed.waiting_for() is Waiting.OVER
    assert GameSession.resume(path).waiting_for() is Waiting.DEAL  # a whole match goes on
    state = TourState(len(STEPS) - 1, stage="match")
    code, out, state = tour("", state, lambda: guided_session(path, "en"))
    assert code == 0 and state.stage == "done"
    assert "The guided match ends here, after 3 rounds." in out and "Round 4" not in out
    assert resumed.record() == guided_session(path, "en").record()  # no round was dealt
