"""Post-game analysis (`exact61.analysis.analyze`, `exact61 analyze`).

Checked on recorded matches: every decision of the seats asked for is there and nothing else;
the move played is the recorded one and the best move is a legal one valued at least as high;
losses, classes and summaries follow from the values and the stated thresholds; exact values
agree with the solver run on the full match; the JSON is the same analysis. And the command, as
a user runs it, with its errors.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from exact61 import AttachPoint, Match, Play, Tile, dumps, i18n, replay
from exact61.analysis.analyze import (
    BLUNDER,
    FORMAT,
    INACCURACY,
    MISTAKE,
    Decision,
    MatchAnalysis,
    SeatSummary,
    Turning,
    analyze_match,
    label_for,
    where_decided,
)
from exact61.analysis.report import where
from exact61.core.engine import class_of
from exact61.core.settlement import side_count
from exact61.search.equity import default_table
from exact61.search.solver import Solver
from tests.cli.test_cli import exact61, no_traceback
from tests.helpers import played_record


@pytest.fixture(scope="module")
def record() -> dict:  # type: ignore[type-arg]
    """A match in which seat 0 also decides after the boneyard has emptied (exact values)."""
    for seed in range(12, 100):
        rec = played_record(2, seed, ["greedy", "heuristic"])
        if any(
            m.to_act == 0
            and m.boneyard_size == 0
            and len({class_of(x) for x in m.legal_actions()}) > 1
            for _, _, m, _ in positions(rec)
        ):
            return rec
    raise AssertionError("no such match")  # pragma: no cover


@pytest.fixture(scope="module")
def analysis(record: dict) -> MatchAnalysis:  # type: ignore[type-arg]
    return analyze_match(record, seats=[0], iterations=300, exact_node_limit=200_000)


def positions(record: dict) -> list[tuple[int, int, Match, object]]:  # type: ignore[type-arg]
    """(round, action, match before it, the action) for every recorded action."""
    match = replay(record)
    walker = Match(2)
    out = []
    for r, log in enumerate(match.rounds):
        walker.start_round(log.deal, log.opener)  # type: ignore[arg-type]
        for a, step in enumerate(log.steps):
            out.append((r, a, walker.copy(), step.action))
            walker.apply(step.action)
    return out


@pytest.mark.slow
def test_every_decision_of_the_seat_and_nothing_else(record: dict, analysis: MatchAnalysis) -> None:  # type: ignore[type-arg]
    expected = [
        (r, a)
        for r, a, m, _ in positions(record)
        if m.to_act == 0 and len({class_of(x) for x in m.legal_actions()}) > 1
    ]
    assert [(d.round, d.action) for d in analysis.decisions] == expected
    assert analysis.seats == (0,) and analysis.winner == record["winner"]


@pytest.mark.slow
def test_each_decision_is_consistent(record: dict, analysis: MatchAnalysis) -> None:  # type: ignore[type-arg]
    before = {(r, a): (m, action) for r, a, m, action in positions(record)}
    for d in analysis.decisions:
        match, action = before[(d.round, d.action)]
        assert d.played == action and d.seat == match.to_act and d.scores == match.scores
        legal = match.legal_actions()
        assert d.best in legal and all(m.action in legal for m in d.moves)
        assert len({class_of(m.action) for m in d.moves}) == len(d.moves)
        assert [m.equity for m in d.moves] == sorted((m.equity for m in d.moves), reverse=True)
        assert d.best_equity == d.moves[0].equity >= d.played_equity - 1e-12
        assert d.loss == pytest.approx(d.best_equity - d.played_equity, abs=1e-9)
        assert d.label == label_for(d.loss, d.loss_error)
        assert d.method in ("exact", "search")
        if d.method == "exact" or d.loss == 0:
            assert d.loss_error == 0
        else:  # sampled: a loss with its spread over the deals
            assert d.loss_error > 0 and d.deals > 1
        assert sum(d.before) == pytest.approx(1) and d.before[d.side] == d.best_equity
    summary = analysis.summaries[0]
    mine = analysis.decisions
    assert summary.decisions == len(mine)
    for label, count in [
        ("blunder", summary.blunders),
        ("mistake", summary.mistakes),
        ("inaccuracy", summary.inaccuracies),
    ]:
        assert count == sum(d.label == label for d in mine)
    assert summary.accuracy == pytest.approx(
        sum(d.label in ("best", "good") for d in mine) / len(mine)
    )


def test_a_class_needs_the_loss_past_its_threshold_by_two_standard_errors() -> None:
    """Issue 25: a sampled loss is classed only where it is sure (the analysis's thresholds:
    2, 5 and 10 percentage points)."""
    assert label_for(0.12) == "blunder" and label_for(0.12, 0.009) == "blunder"
    assert label_for(0.12, 0.02) == "mistake"  # 12 - 2 x 2 = 8 points: surely a mistake
    assert label_for(0.06, 0.004) == "mistake" and label_for(0.06, 0.006) == "inaccuracy"
    assert label_for(0.03, 0.01) == "good" and label_for(0.0) == "best"
    assert label_for(BLUNDER) == "blunder" and label_for(MISTAKE) == "mistake"
    assert label_for(INACCURACY) == "inaccuracy"


@pytest.mark.slow  # the solver on every position of a match
def test_exact_values_are_the_solvers_on_the_full_match(
    record: dict, analysis: MatchAnalysis
) -> None:  # type: ignore[type-arg]
    before = {(r, a): m for r, a, m, _ in positions(record)}
    leaf = default_table().leaf(2)
    exact = [d for d in analysis.decisions if d.method == "exact"]
    assert exact, "this match has decisions after the boneyard emptied"
    for d in exact:
        match = before[(d.round, d.action)]
        values = Solver(match.position(), leaf).move_values(match.legal_actions())
        by_key = {class_of(v.action): v.values[d.side] for v in values}
        for m in d.moves:
            assert m.equity == pytest.approx(by_key[class_of(m.action)], abs=1e-12)


@pytest.mark.slow
def test_the_json_is_the_same_analysis(analysis: MatchAnalysis) -> None:
    data = json.loads(json.dumps(analysis.to_json()))
    assert data["format"] == FORMAT and data["seats"] == [0]
    assert data["thresholds"] == {"inaccuracy": 0.02, "mistake": 0.05, "blunder": 0.1}
    assert len(data["decisions"]) == len(analysis.decisions)
    for got, d in zip(data["decisions"], analysis.decisions, strict=True):
        assert (got["round"], got["action"], got["label"]) == (d.round, d.action, d.label)
        assert got["played"]["type"] == "play" or got["played"]["type"] in ("draw", "pass")
        assert got["loss"] == pytest.approx(d.loss, abs=1e-5)
    assert data["summaries"][0]["decisions"] == len(analysis.decisions)


def test_where_the_match_was_decided() -> None:
    # side 1 wins; it becomes the favourite at the round start of round 1, loses it on a
    # mistake of seat 1 in round 2, and takes it back for good with the draws before (3, 4).
    timeline = [
        ((0.5, 0.5), 0, None, None, "chance"),
        ((0.6, 0.4), 0, 3, 0, "move"),
        ((0.45, 0.55), 1, None, None, "chance"),
        ((0.52, 0.48), 2, 5, 1, "move"),
        ((0.4, 0.6), 3, 4, None, "chance"),
        ((0.3, 0.7), 3, 4, 1, "move"),
    ]
    assert where_decided(timeline, 1, 2) == Turning(3, 4, None, "chance", 0.48, 0.6)
    assert where_decided(timeline, 0, 2) == Turning(2, 5, 1, "move", 0.45, 0.52)
    assert where_decided(timeline, None, 2) is None
    # with a seat's decisions only, the others' moves are not valued: a change between two
    # decisions may be theirs, not the deal's and the draws'
    assert where_decided(timeline, 1, 2, every_seat=False) == Turning(
        3, 4, None, "between", 0.48, 0.6
    )
    assert where_decided(timeline, 0, 2, every_seat=False) == Turning(2, 5, 1, "move", 0.45, 0.52)
    # so may the change at a round's start: the round before ended with moves not valued
    start = [*timeline[:3], ((0.55, 0.45), 1, 2, 0, "move"), ((0.2, 0.8), 2, None, None, "chance")]
    assert where_decided(start, 1, 2) == Turning(2, None, None, "chance", 0.45, 0.8)
    assert where_decided(start, 1, 2, every_seat=False) == Turning(
        2, None, None, "between", 0.45, 0.8
    )
    from exact61.analysis.report import decided_line

    between = dataclasses.replace(synthetic(), decided=Turning(3, 4, None, "between", 0.48, 0.6))
    assert "(by the tiles dealt and drawn or the other seats' moves before it)" in (
        decided_line(between) or ""
    )
    at_start = dataclasses.replace(between, decided=Turning(2, None, None, "between", 0.45, 0.8))
    assert "(by the deal or the other seats' moves before it)" in (decided_line(at_start) or "")


@pytest.mark.slow
def test_the_analyze_command(tmp_path: Path, record: dict) -> None:  # type: ignore[type-arg]
    path = tmp_path / "one.jsonl"
    path.write_text(dumps(record) + "\n")
    result = exact61("analyze", path, "--seat", "0", "--iterations", "200", "--lang", "en")
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "Match 0: 2 players; won by seat" in text and "Per seat" in text
    assert "inaccuracy from 2, mistake from 5, blunder from 10 percentage points" in text
    assert "Round 1, action" in text and "Round 0" not in text  # rounds as the game counts them
    polish = exact61("analyze", path, "--seat", "0", "--iterations", "200", "--lang", "pl").stdout
    assert max(map(cell_len, polish.splitlines())) <= 80  # a pipe gets 80 columns
    assert all(line == line.rstrip() for line in polish.splitlines())  # and no padding
    assert "Runda 1, akcja" in polish and "Według miejsc" in polish
    assert re.search(r"\d,\d%", polish) and not re.search(r"\d\.\d", polish)
    assert not ENGLISH_ENDS.search(polish) and "equity" not in polish
    data = json.loads(
        exact61("analyze", path, "--seat", "0", "--iterations", "200", "--json").stdout
    )
    assert data["format"] == FORMAT and data["file"] == str(path)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["missing.jsonl"], 1),
        (["{file}", "--match", "3"], 2),  # an index the file lacks: a bad option, as for show
        (["{garbage}"], 1),
        (["{file}", "--seat", "2"], 2),
        (["{file}", "--iterations", "0"], 2),
        (["{file}", "--frobnicate"], 2),
    ],
)
def test_the_analyze_command_refuses(
    tmp_path: Path, record: dict, args: list[str], code: int
) -> None:  # type: ignore[type-arg]
    good = tmp_path / "one.jsonl"
    good.write_text(dumps(record) + "\n")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text('{"format": "exact61-match/1", "players": 2}\n')
    argv = [a.format(file=good, garbage=garbage) for a in args]
    result = exact61("analyze", *argv, cwd=tmp_path)
    assert result.returncode == code, (argv, result.stderr)
    no_traceback(result)
    if code == 1:
        assert len(result.stderr.strip().splitlines()) == 1


# ---- written for people, in every language ---------------------------------------------------


def synthetic(players: int = 2, decisions: int = 30) -> MatchAnalysis:
    """An analysis of `decisions` decisions, without searching: every class, placements at
    every kind of end, an opening, a loss of 7.5 percentage points, a seat with one blunder."""
    ends = ["low", "high", "lineA", "lineB", "armA", "armB"]
    labels = [("mistake", 0.075), ("best", 0.0), ("blunder", 0.125), ("inaccuracy", 0.021)]
    made = []
    for i in range(decisions):
        label, loss = labels[i % len(labels)]
        end = ends[i % len(ends)]
        host = Tile(1, 3) if end in ("low", "high") else Tile(3, 3)
        played = Play(Tile(3, 6), AttachPoint(host, end) if i % 7 else None)
        best = played if label == "best" else Play(Tile(5, 6), AttachPoint(Tile(5, 5), "lineB"))
        made.append(
            Decision(
                round=i // 10,
                action=i % 10,
                seat=i % players,
                side=i % players % 2,
                scores=(35, 110) + (0,) * (side_count(players) - 2),
                boneyard=4,
                played=played,
                best=best,
                played_equity=0.517 - loss,
                best_equity=0.517,
                loss=loss,
                loss_error=0.012 if i % 2 else 0.0,
                label=label,
                method="search" if i % 3 else "exact",
                deals=16 if i % 3 else 1,
                solved=1.0,
                moves=(),
                before=(0.517, 0.483),
                after=(0.517 - loss, 0.483 + loss),
            )
        )
    summaries = tuple(
        SeatSummary(seat, seat % 2, 5, 2, 1, 1, 1, 0.6, 0.3) for seat in range(players)
    )
    return MatchAnalysis(
        players=players,
        match=0,
        winner=1,
        seats=tuple(range(players)),
        decisions=tuple(made),
        summaries=summaries,
        decided=Turning(2, 4, 1, "move", 0.483, 0.517),
        settings={"iterations": 4000, "seed": 0},
    )


def rendered(result: MatchAnalysis, lang: str, width: int = 80) -> str:
    from exact61.analysis.report import report

    try:
        i18n.use(lang)
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(report(result, "title"))
        return console.export_text()
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_the_partnerships_are_one_line_however_narrow_the_table(lang: str) -> None:
    """At 4 players, with one seat asked for, the table is narrow: the line saying who plays
    with whom had been its caption and wrapped to its width."""
    full = synthetic(4)
    one = dataclasses.replace(full, summaries=full.summaries[1:2])
    i18n.use(lang)
    try:
        partners = i18n._("Seats 0 and 2 play against seats 1 and 3.")
    finally:
        i18n.use("en")
    assert partners in rendered(one, lang).splitlines()
    assert partners in plain(one, lang)
    assert i18n._("Seats 0 and 2 play against seats 1 and 3.") not in rendered(synthetic(2), "en")


def test_a_seat_without_decisions_has_no_accuracy() -> None:
    """A seat whose every move was its only one (or that has not moved) made no choice to
    judge: its accuracy is a dash, not 100%."""
    result = synthetic(2)
    idle = SeatSummary(1, 1, 0, 0, 0, 0, 0, 0.0, 1.0)
    result = MatchAnalysis(**{**vars(result), "summaries": (result.summaries[0], idle)})
    row = next(
        line for line in rendered(result, "en").splitlines() if line.split()[:1] == ["accuracy"]
    )
    assert row.split()[1:] == ["30%", "–"], row


ENGLISH_ENDS = re.compile(r"\b(low|high|lineA|lineB|armA|armB)\b")


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_analysis_fits_80_columns_in_every_language(lang: str, players: int) -> None:
    text = rendered(synthetic(players), lang)
    lines = text.splitlines()
    assert max(cell_len(line.rstrip()) for line in lines) <= 80
    assert len([line for line in lines if line.strip()]) > 60  # every decision is there
    if lang != "en":
        assert not ENGLISH_ENDS.search(text), lang
        assert "equity" not in text.lower()
    assert "136" not in text and "0.517" not in text


@pytest.mark.parametrize(
    ("lang", "chance", "lost", "end", "round_"),
    [
        ("en", "51.7%", "44.2%", "line side B", "Round 1, action 0"),
        ("de", "51,7\xa0%", "44,2\xa0%", "(Linienseite B)", "Runde 1, Aktion 0"),
        ("pl", "51,7%", "44,2%", "(strona łańcucha B)", "Runda 1, akcja 0"),
        ("ru", "51,7\xa0%", "44,2\xa0%", "(сторона линии B)", "Раунд 1, действие 0"),
    ],
)
def test_numbers_and_moves_read_as_the_game_writes_them(
    lang: str, chance: str, lost: str, end: str, round_: str
) -> None:
    text = rendered(synthetic(), lang)
    assert chance in text and lost in text and end in text
    # the record's round 0 is the game's 1: the first decision, after the legend and a blank line
    assert text.split("\n\n", 1)[1].startswith(round_)
    assert "-7,5" in text if lang != "en" else "-7.5" in text
    decimal = r"\d[.,]\d(?!\d\d)"  # a decimal mark, not the thousands' in 4,000 or 4.000
    point = "." if lang == "en" else ","
    assert {m[1] for m in re.findall(decimal, text)} <= {point}, re.findall(decimal, text)


def plain(result: MatchAnalysis, lang: str) -> list[str]:
    from exact61.analysis.report import report_lines

    try:
        i18n.use(lang)
        return report_lines(result)
    finally:
        i18n.use("en")


@pytest.mark.parametrize(
    ("lang", "given", "seat"),
    [
        (
            "en",
            "mistake, 7.5 percentage points given away.",
            "Seat 1: 5 decisions, 2 best moves, 1 inaccuracy, 1 mistake, 1 blunder; "
            "accuracy 30%, 60.0 percentage points given away in all.",
        ),
        (
            "de",
            "Fehler, 7,5 Prozentpunkte verschenkt.",
            "Platz 1: 5 Entscheidungen, 2 beste Züge, 1 Ungenauigkeit, 1 Fehler, 1 grober Fehler; "
            "Genauigkeit 30\xa0%, insgesamt 60,0 Prozentpunkte verschenkt.",
        ),
        (
            "pl",
            "błąd, oddano 7,5 punktu procentowego.",
            "Miejsce 1: 5 decyzji, 2 najlepsze ruchy, 1 niedokładność, 1 błąd, 1 poważny błąd; "
            "dokładność 30%, łącznie oddano 60,0 punktu procentowego.",
        ),
        (
            "ru",
            "ошибка, потеряно 7,5 процентного пункта.",
            "Место 1: 5 решений, 2 лучших хода, 1 неточность, 1 ошибка, 1 грубая ошибка; "
            "точность 30\xa0%, всего потеряно 60,0 процентного пункта.",
        ),
    ],
)
def test_plain_lines_choose_each_form_from_the_number_shown(
    lang: str, given: str, seat: str
) -> None:
    lines = plain(synthetic(), lang)
    assert any(line.endswith(given) for line in lines), (lang, lines[:3])
    assert seat in lines
    assert "blunders" not in " ".join(lines).replace("0 blunders", "")


def test_the_analyze_command_counts_rounds_from_1_and_explains_its_numbers() -> None:
    text = rendered(synthetic(), "en")
    assert "Round 3, action 9, seat 1" in text and "Round 0" not in text
    assert "Decided: round 3, action 4 (by the move of seat 1)" in text
    flat = " ".join(text.split())
    assert "in display points, the deciding side's first" in flat
    assert "by the expert's search of 4,000 iterations a decision" in flat and "exactly" in flat
    assert "each only where the loss passes it by more than two standard errors" in flat
    assert "The hints (?) and the expert choose by the same search with 1,000 iterations" in flat
    assert "1 blunder" in " ".join(plain(synthetic(), "en"))


@pytest.mark.parametrize(
    ("before", "after", "said"),
    [
        (0.483, 0.517, "from 48% to 52%"),
        (0.497, 0.503, "from 49.7% to 50.3%"),  # both round to 50%: `from 50% to 50%` said nothing
        (0.4996, 0.5004, "from 49.96% to 50.04%"),
    ],
)
def test_where_the_match_was_decided_shows_the_chance_change(
    before: float, after: float, said: str
) -> None:
    from exact61.analysis.report import decided_line

    result = dataclasses.replace(synthetic(), decided=Turning(1, 5, None, "chance", before, after))
    assert f"the favourite from then on: seat 1, {said}." in (decided_line(result) or "")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_decisions_scores_read_from_the_deciding_side(players: int) -> None:
    """Seat 1 at 22-7 when its side has 22 and the other 7 (the review had read `seat 1 at
    7-22` as seat 1 behind); at 3 players the others follow in turn order."""
    i18n.use("en")
    for d in synthetic(players).decisions:
        scores = [s // 5 for s in d.scores]
        own = scores[d.side]
        if players == 3:
            expected = [scores[(d.side + k) % 3] for k in range(3)]
        else:
            expected = [own, scores[1 - d.side]]
        said = where(d).rsplit(" at ", 1)[1]
        assert said == "-".join(map(str, expected)) and said.startswith(f"{own}-")


def test_the_report_calls_its_search_longer_only_when_it_is() -> None:
    """The judge's search against the hints' (issue 25's review: `--iterations 100` was called
    the longer search)."""
    import dataclasses

    shorter = dataclasses.replace(synthetic(), settings={"iterations": 100, "seed": 0})
    flat = " ".join(rendered(shorter, "en").split())
    assert "The hints (?) and the expert choose by the same search with 1,000" in flat
    assert "longer" not in flat
    assert "this longer search" in " ".join(rendered(synthetic(), "en").split())


def test_a_game_not_yet_moved_says_so_not_that_every_move_was_forced() -> None:
    import random

    from exact61.analysis.report import report_lines
    from exact61.core.records import match_to_record

    match = Match(2)
    match.deal_next_round(random.Random(3))
    unmoved = analyze_match(match_to_record(match), iterations=50)
    assert unmoved.decisions == () and unmoved.moves == 0
    assert "No moves yet: nothing to judge." in rendered(unmoved, "en")
    assert "Noch keine Züge" in rendered(unmoved, "de")
    assert plain(unmoved, "en")[0] == "No moves yet: nothing to judge."
    # A seat whose moves so far were all forced (draws, R10), the first legal move played
    # throughout: its analysis has no decision, and says why.
    found = None
    for seed in range(200):
        match = Match(2)
        match.deal_next_round(random.Random(seed))
        forced, chose = [0, 0], [0, 0]
        while found is None and (seat := match.to_act) is not None:
            if len({class_of(a) for a in match.legal_actions()}) == 1:
                forced[seat] += 1
            else:
                chose[seat] += 1
            match.apply(match.legal_actions()[0])
            if forced[seat] and not chose[seat]:
                found = seat, forced[seat]
        if found:
            break
    assert found is not None
    seat, moves = found
    forced_only = analyze_match(match_to_record(match), seats=[seat], iterations=50)
    assert forced_only.decisions == () and forced_only.moves == moves
    assert "every move was the only one" in rendered(forced_only, "en")
    assert report_lines(forced_only)[0].startswith("No decision gave away")


def test_the_report_names_the_layouts_tiles_as_the_game_drew_them() -> None:
    # the game names a placed tile as its board draws it ([4|2] where the board shows 4 then 2);
    # the analysis of that game names it so too, in its blocks and in its plain lines
    import random

    from exact61.render.geometry import tile_names

    match, chance = Match(2), random.Random(5)
    match.deal_next_round(chance)
    found = None
    while found is None and (seat := match.to_act) is not None:
        view = match.view(seat)
        names = tile_names(view.layout)
        for action in view.legal_actions:
            if (
                isinstance(action, Play)
                and action.at
                and names[action.at.tile] != str(action.at.tile)
            ):
                found = view, action, names[action.at.tile]
                break
        match.apply(chance.choice(match.legal_actions()))
    assert found is not None, "a round with a tile drawn high pip first"
    view, action, drawn = found
    mistake = next(d for d in synthetic().decisions if d.label == "mistake")
    moved = dataclasses.replace(mistake, played=action, best=action, layout=view.layout)
    result = dataclasses.replace(synthetic(), decisions=(moved,))
    for text in (rendered(result, "en"), "\n".join(plain(result, "en"))):
        assert f"at {drawn} " in text and f"at {action.at.tile} " not in text
