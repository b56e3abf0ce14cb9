"""The hint (`exact61.learn.hints`, every game's): the expert's move, as the analysis's judge
values it, and why, in words: what it scores now against the target (R4, R15, R30), domino
(R18), and the chance to win the match it leaves against the next best move. And the guided
match (`exact61.learn.guided`) ends after its rounds."""

from __future__ import annotations

from exact61 import AttachPoint, Match, Play, Tile
from exact61.analysis.analyze import judge
from exact61.bots import BOTS, STRONGEST
from exact61.bots.expert import ExpertBot
from exact61.learn import guided, hints
from exact61.search.evaluate import Evaluation, MoveEquity
from exact61.table import Table
from tests.helpers import rest_of_set

ITERATIONS = 60  # a small search: what the hint says, not how strong it is


def T(text: str) -> Tile:
    return Tile(int(text[0]), int(text[1]))


def P(tile: str, end: str) -> AttachPoint:
    return AttachPoint(T(tile), end)


def position(hand: list[Tile], scores: tuple[int, int]) -> Match:
    """Seat 0 to act on the layout [1|4] (ends 1 and 4), holding `hand`."""
    layout = [(T("14"), None)]
    other = [T("00"), T("06"), T("66"), T("05"), T("35")]
    return Match.from_position(
        2,
        layout=layout,
        hands=[hand, other],
        boneyard=rest_of_set(hand, other, [T("14")]),
        to_act=0,
        opener=1,
        scores=scores,
    )


def test_the_hint_is_the_strongest_bots_move() -> None:
    """Every front end asks `Table.hint_request` (`bots.STRONGEST`) and `hints.explain` answers
    with the expert's search (`judge`): the two must name one bot."""
    assert BOTS[STRONGEST] is ExpertBot


def test_the_hint_is_the_judges_best_move_and_says_its_chance() -> None:
    match = position([T("11"), T("44"), T("12"), T("26")], (100, 100))
    view = match.view(0)
    hint = hints.explain(view, "s", iterations=ITERATIONS)
    best = judge(view, iterations=ITERATIONS, seed="s").best
    assert hint.action == best.action
    lines = [said.text() for said in hint.why]
    assert lines[0].startswith("The expert plays ")
    assert any("to win the match" in line for line in lines)
    assert any(line.startswith("The next best, ") for line in lines)


def evaluation(*moves: tuple[Play, float]) -> Evaluation:
    return Evaluation(
        tuple(MoveEquity(action, equity, 0.0, (equity, 1 - equity)) for action, equity in moves),
        "exact",
        1,
        1.0,
    )


def test_why_names_the_move_its_credit_and_the_chances() -> None:
    """[1|2] at [1|4] low makes the ends 2 + 4 = 6: nothing now (R15); the next best, [4|4]
    at [1|4] high, 1 + 8 = 9; and [1|1] at the low end, 2 + 4 = 6. Which scores most now is
    said when it is not the move: a move is more than its credit."""
    match = position([T("11"), T("44"), T("12")], (100, 0))
    view = match.view(0)
    quiet = Play(T("12"), P("14", "low"))
    double = Play(T("44"), P("14", "high"))
    assert hints.credit_now(view, quiet) == match.credit_of(quiet) == 0
    said = [s.text() for s in hints.reasons(view, evaluation((quiet, 0.4), (double, 0.3)))]
    assert said[0] == "The expert plays [1|2] at [1|4] low end."
    assert said[1] == "It scores nothing now."
    assert "40%" in said[2] and said[3].startswith("The next best, [4|4] at [1|4] high end")
    assert len(said) == 4  # neither scores now: nothing scores more


def on_three_six(hand: list[Tile], other: list[Tile], score: int) -> Match:
    """Seat 0 to act on the layout [3|6] (ends 3 and 6), holding `hand`, its side at `score`
    raw."""
    return Match.from_position(
        2,
        layout=[(T("36"), None)],
        hands=[hand, other],
        boneyard=rest_of_set(hand, other, [T("36")]),
        to_act=0,
        opener=1,
        scores=(score, 0),
    )


def test_why_a_move_that_passes_61_is_said_so() -> None:
    """R4: a credit that would take the side past 305 is thrown away: the hint says so when
    the move it names scores that much; R30 when it lands on 305."""
    # [3|6] opens; [6|6] at its high end makes 3 + 12 = 15 (terminal-six-six)
    hand, other = [T("66"), T("03")], [T("00"), T("05"), T("55"), T("11"), T("22")]
    for score, rule in ((295, "(R4)"), (290, "(R30)"), (100, "(R15)")):
        match = on_three_six(hand, other, score)
        view = match.view(0)
        double = Play(T("66"), P("36", "high"))
        assert match.credit_of(double) == 15
        other_move = next(a for a in view.legal_actions if a != double)
        said = [s.text() for s in hints.reasons(view, evaluation((double, 0.6), (other_move, 0.5)))]
        assert rule in said[1], (score, said)
        # a move whose points are thrown away is played for what it leaves, and said so
        played_for = "It is played for the position it leaves, not for points."
        assert (said[2] == played_for) == (rule == "(R4)"), (score, said)


def test_why_says_a_move_keeps_an_exact_finish_and_another_would_pass_61() -> None:
    """At 59 (295), 10 raw to go on [3|6]: [0|3] at its low end scores nothing (0 + 6) but
    then [0|4] at the 0 makes 4 + 6 = 10, exactly 61 (R30); [6|6] at the high end would make
    3 + 12 = 15 and be thrown away (R4). The hint says both; a quiet move far from 61, neither."""
    hand, other = [T("03"), T("04"), T("66")], [T("00"), T("05"), T("55"), T("11"), T("22")]

    def said(score: int) -> list[str]:
        match = on_three_six(hand, other, score)
        view = match.view(0)
        quiet, double = Play(T("03"), P("36", "low")), Play(T("66"), P("36", "high"))
        assert match.credit_of(quiet) == 0 and match.credit_of(double) == 15
        return [s.text() for s in hints.reasons(view, evaluation((quiet, 0.7), (double, 0.2)))]

    near = said(295)
    assert near[1] == "It scores nothing now."
    assert near[2] == (
        "It keeps an exact 61 in reach: [0|4] could then score the 2 (10) your side still "
        "needs (R30)."
    )
    assert near[3] == (
        "It does not pass 61, as [6|6] at [3|6] high end would: its 3 (15) would be thrown "
        "away whole (R4)."
    )
    far = said(100)
    assert not any("exact 61" in line or "pass 61" in line for line in far), far


def test_a_lone_move_needs_no_search_and_its_domino_is_said() -> None:
    """[3|4] goes at [1|4] high only (R10), and it is the last tile: the hint says it makes
    domino (R18) and that the domino's award counts the others' pips (R19), not that it scores
    nothing (its placement, 1 + 3 = 4, credits nothing alone)."""
    match = position([T("34")], (0, 0))
    hint = hints.explain(match.view(0), "s", iterations=ITERATIONS)
    assert hint.action in match.legal_actions()
    said = [s.text() for s in hint.why]
    assert said[0] == "[3|4] at [1|4] high end is the only move you have (R10).", said
    assert "(R18)" in said[1] and "others' hands" in said[2] and "(R19)" in said[2], said
    assert not any("scores nothing" in line for line in said), said


def test_places_that_play_alike_are_one_move_and_its_credit_is_said() -> None:
    """A lone double [6|6] takes [6|3] on either line side, alike (R13): two choices listed,
    one move, which scores 6 + 6 + 3 = 15 (R14, R15). The hint says so, not "the only move"."""
    hand, other = [T("36"), T("00")], [T("01"), T("05"), T("55"), T("11"), T("22")]
    match = Match.from_position(
        2,
        layout=[(T("66"), None)],
        hands=[hand, other],
        boneyard=rest_of_set(hand, other, [T("66")]),
        to_act=0,
        opener=1,
        scores=(0, 0),
    )
    assert len(match.legal_actions()) == 2
    said = [s.text() for s in hints.explain(match.view(0), "s", iterations=ITERATIONS).why]
    assert said[0].startswith("Every move you have plays the same as [3|6] at [6|6] "), said
    assert said[1:] == ["It scores 3 (15) now (R15)."], said


def test_chances_that_would_read_alike_get_a_decimal() -> None:
    """52.4% and 52.1% both read 52%: the hint shows tenths for every chance it names then,
    and whole percents where they differ."""
    match = position([T("11"), T("44"), T("12")], (100, 0))
    view = match.view(0)
    quiet, double = Play(T("12"), P("14", "low")), Play(T("44"), P("14", "high"))
    close = [s.text() for s in hints.reasons(view, evaluation((quiet, 0.524), (double, 0.521)))]
    assert "a 52.4% chance" in close[2] and close[3].endswith("leaves 52.1%."), close
    apart = [s.text() for s in hints.reasons(view, evaluation((quiet, 0.54), (double, 0.52)))]
    assert "a 54% chance" in apart[2] and apart[3].endswith("leaves 52%."), apart


def test_the_guided_match_ends_after_its_rounds() -> None:
    table = Table(2, [guided.OPPONENT, guided.OPPONENT], guided.SEED, rounds=guided.ROUNDS)
    while not table.is_over:  # a bot in the learner's seat
        table.step()
    assert table.match.is_over or len(table.match.rounds) == guided.ROUNDS
    assert table.match.rounds[-1].end is not None
