"""The guided tour's model (`exact61.learn.tour`): it shows every position of the rule
documents as they describe it, and every answer it accepts and every number it says agrees with
the rules engine, worked out here again another way (R4, R9-R23, R30)."""

from __future__ import annotations

import itertools
import json
from importlib import resources
from typing import Any

import pytest

from exact61 import (
    DRAW,
    PASS,
    TARGET_RAW,
    AttachPoint,
    BlockEvent,
    DominoEvent,
    IllegalMoveError,
    Layout,
    Match,
    Play,
    PlayEvent,
    i18n,
    tile_from,
)
from exact61.learn import tour
from exact61.learn.documents import place_step
from exact61.learn.lesson import SPINNERS, Kind, Points, Step, point_text
from exact61.learn.tour import TourState
from exact61.render.geometry import PLANE, Box, Scale, drawing, tile_names
from exact61.render.picture import GRID

STEPS = tour.steps()
SHIPPED = resources.files("exact61.learn").joinpath("data")


def placements(data: list[dict[str, Any]]) -> list[tuple[Any, AttachPoint | None]]:
    return [
        (
            tile_from(p["tile"]),
            None if p["at"] is None else AttachPoint(tile_from(p["at"][0]), p["at"][1]),
        )
        for p in data
    ]


def scenes() -> dict[str, dict[str, Any]]:
    data = json.loads(SHIPPED.joinpath("scenes.json").read_text())
    return {s["name"]: s for s in data["scenes"]}


def match_of(scene: dict[str, Any]) -> Match:
    """The round a scene of scenes.json describes, set up here from the file."""
    return Match.from_position(
        2,
        layout=placements(scene["layout"]),
        hands=[[tile_from(t) for t in hand] for hand in scene["hands"]],
        boneyard=[tile_from(t) for t in scene["boneyard"]],
        to_act=0,
        opener=scene["opener"],
        scores=scene["scores"],
    )


def step(step_id: str) -> Step:
    return next(s for s in STEPS if s.id == step_id)


def right_values(s: Step) -> list[object]:
    return [o.value for o in s.question.options if o.right]


# ---- the rule documents' positions ---------------------------------------------------------


def test_every_position_of_the_documents_is_built_up_whole(
    seed_positions: list[dict[str, Any]],
) -> None:
    shown = {s.result.placements for s in STEPS} | {s.scene.placements for s in STEPS}
    for case in seed_positions:
        assert tuple(placements(case["placements"])) in shown, case["name"]
    assert {s.case for s in STEPS if s.case} == {c["name"] for c in seed_positions}


@pytest.mark.parametrize("index", range(11))
def test_the_position_shown_is_what_the_documents_say(
    seed_positions: list[dict[str, Any]], index: int
) -> None:
    """The board the tour shows for a position is the documents' own: free attach points with
    their values, scored contributions, end sum and credit (R13-R15)."""
    case = seed_positions[index]
    wanted = tuple(placements(case["placements"]))
    scene = next(s for t in STEPS for s in (t.scene, t.result) if s.placements == wanted)
    layout = scene.layout()
    free = [[[p.tile.low, p.tile.high], p.end.value, v] for p, v in layout.free_points()]
    assert free == case["free"]
    contributions = [[[t.low, t.high], v] for t, v in layout.contributions()]
    assert contributions == case["contributions"]
    assert (layout.end_sum, layout.credit) == (case["end_sum"], case["credit_raw"])


def test_the_positions_are_built_placement_by_placement() -> None:
    """A step that goes on with the same layout adds one placement at most: the board never
    jumps ahead of what the learner saw placed."""
    for before, after in itertools.pairwise(STEPS):
        if after.case is None or before.case is None:
            continue
        shown, asked = before.result.placements, after.scene.placements
        if asked[: len(shown)] == shown:
            assert len(asked) - len(shown) <= 1, after.id


def side_of(host: Box, box: Box) -> str:
    """Where `box` lies beside `host`, on a drawing."""
    for side, beyond in (
        ("above", box.y1 <= host.y0),
        ("below", box.y0 >= host.y1),
        ("left", box.x1 <= host.x0),
        ("right", box.x0 >= host.x1),
    ):
        if beyond:
            return side
    raise AssertionError(f"{box} overlaps {host}")


@pytest.mark.parametrize("scale", [PLANE, GRID], ids=["plane", "grid"])
def test_every_tile_is_drawn_where_its_place_was(scale: Scale) -> None:
    """A tile the tour shows on a spinner's side arm B (or any place) is drawn on the side of
    its host where the board drew that free place before it was placed, on the page's plane
    and the terminal's grid (`render.geometry.drawing`): never on the other arm's side."""
    ends = set()
    for placements in {scene.placements for s in STEPS for scene in (s.scene, s.result)}:
        drawn = {t.tile: t.box for t in drawing(Layout.from_plays(placements), scale).tiles}
        for count, (tile, at) in enumerate(placements):
            if at is None:
                continue
            before = drawing(Layout.from_plays(placements[:count]), scale)
            place = next(box for box, point in before.points if point == at)
            host = next(t.box for t in before.tiles if t.tile == at.tile)
            assert side_of(host, place) == side_of(drawn[at.tile], drawn[tile]), (tile, at)
            ends.add(at.end.value)
    assert {"armA", "armB"} <= ends  # the tour shows tiles on both side arms


# ---- every answer agrees with the engine --------------------------------------------------


def legal_points(layout: Layout, tile: Any) -> set[AttachPoint]:
    """The free attach points the engine lets `tile` join, asked one by one (R9, R13)."""
    fits = set()
    for point, _value in layout.free_points():
        try:
            layout.credit_after(tile, point)
        except IllegalMoveError:
            continue
        fits.add(point)
    return fits


@pytest.mark.parametrize("s", STEPS, ids=[s.id for s in STEPS])
def test_each_question_has_a_right_and_a_wrong_answer(s: Step) -> None:
    options = s.question.options
    assert any(o.right for o in options) and not all(o.right for o in options)
    assert s.rules and all(rule in i18n.rule_paragraphs("en") for rule in s.rules)


@pytest.mark.parametrize(
    "s", [s for s in STEPS if s.question.kind is Kind.PLACE], ids=lambda s: s.id
)
def test_a_place_is_right_exactly_where_the_engine_lets_the_tile_go(s: Step) -> None:
    layout = s.scene.layout()
    tile = s.question.tile
    assert tile is not None
    offered = [o.point for o in s.question.options]
    assert offered == [p for p, _ in layout.free_points()]  # every free place, to choose from
    right = {o.point for o in s.question.options if o.right}
    assert right == legal_points(layout, tile)
    # the answer's board is the scene with the tile placed at one of those places
    placed = s.result.placements[len(s.scene.placements)]
    assert placed[0] == tile and placed[1] in right


@pytest.mark.parametrize(
    "s",
    [s for s in STEPS if s.question.kind is Kind.PLACE and len(s.question.right) > 1],
    ids=lambda s: s.id,
)
def test_where_a_tile_fits_two_places_either_is_right_and_the_answer_names_both(s: Step) -> None:
    right = s.question.right
    assert [s.check({i}).right for i in right] == [True] * len(right)
    answer = " ".join(said.text() for said in s.answer)
    points = [s.question.options[i].point for i in right]
    placed = s.result.placements[-1][1]
    if all(p is not None and placed is not None and p.tile == placed.tile for p in points):
        assert "Either side arm will do" in answer  # a spinner's two arms, alike
        return
    for point in points:  # every right place named: the one the learner chose, the other too
        names = tile_names(s.result.layout())  # as the board draws them
        assert point is not None and point_text(point, names) in answer, answer
    assert "each is right" in answer and "goes at" not in answer  # not one of them only


@pytest.mark.parametrize(
    "s", [s for s in STEPS if s.question.kind is Kind.COUNT], ids=lambda s: s.id
)
def test_the_places_that_count_make_the_end_sum(s: Step) -> None:
    """R14: the free places that count are the scored ends, and they add up to the end sum; a
    side arm with nothing on it counts nothing."""
    layout = s.scene.layout()
    right = [o.point for o in s.question.options if o.right]
    wrong = [o.point for o in s.question.options if not o.right]
    assert right and wrong
    value = dict(layout.contributions())
    assert sum(value[t] for t in {p.tile for p in right if p is not None}) == layout.end_sum
    assert all(p is not None and p.end.value in ("armA", "armB") for p in wrong)


SCORE_STEPS = [s for s in STEPS if s.id.split("/")[1:2] == ["score"]]


@pytest.mark.parametrize("s", SCORE_STEPS, ids=lambda s: s.id)
def test_what_a_placement_scores_is_the_engines_credit(s: Step) -> None:
    *before, (tile, at) = s.scene.placements
    layout = Layout.from_plays(before)
    credit = layout.place(tile, at)  # R15, as the engine places it
    assert right_values(s) == [credit]
    assert Points(credit) in [v for said in s.answer for _, v in said.values] or credit == 0


@pytest.mark.parametrize("s", SCORE_STEPS, ids=lambda s: s.id)
def test_the_scored_ends_are_added_up_only_when_there_are_several(s: Step) -> None:
    """A lone double opening has one scored end (R14): "Scored ends: [2|2] 4; together 4."
    read as a sum of one."""
    ends = len(s.scene.layout().contributions())
    first = s.answer[0].message
    assert ("together" in first) == (ends > 1), (ends, first)


ARMS_OPEN = "Both line sides of {tile} are joined now: its side arms open (R13)."


@pytest.mark.parametrize("second", ["lineB", "lineA"])
def test_the_side_arms_are_said_to_open_whichever_line_side_is_joined_second(
    second: str,
) -> None:
    """An opening double's line sides may be joined in either order (R13): the answer says its
    side arms open when the second is joined, lineA as well as lineB (no step of the tour joins
    lineA last), and not before."""
    first = "lineA" if second == "lineB" else "lineB"
    spinner = tile_from([3, 3])
    plays = [
        (spinner, None),
        (tile_from([3, 5]), AttachPoint(spinner, first)),
        (tile_from([1, 3]), AttachPoint(spinner, second)),
    ]
    arms = [AttachPoint(spinner, "armA"), AttachPoint(spinner, "armB")]
    for count, opened in ((1, False), (2, True)):
        layout = Layout.from_plays(plays[: count + 1])
        assert all(layout.is_free(arm) for arm in arms) == opened  # the engine's R13
        s = place_step(SPINNERS, "line-sides", plays, count, (), first=False)
        said = [(a.message, dict(a.values).get("tile")) for a in s.answer]
        assert ((ARMS_OPEN, spinner) in said) == opened, (count, said)


def test_a_credit_past_61_is_thrown_away() -> None:
    """R4: the overshoot leaves the score as it was; the move that lands on 305 wins (R30)."""
    overshoot = step("exact/overshoot")
    match = match_of(scenes()["overshoot"])
    before = match.scores[0]
    over = [a for a in match.legal_actions() if before + match.credit_of(a) > TARGET_RAW]
    events = match.copy().apply(over[0])
    assert [e.accepted for e in events if isinstance(e, PlayEvent)] == [False]
    assert right_values(overshoot) == [before]
    win = step("exact/win")
    (winning,) = right_values(win)
    won = match.copy()
    won.apply(winning)  # type: ignore[arg-type]
    assert won.winner == 0 and won.scores[0] == TARGET_RAW
    for option in win.question.options:
        played = match.copy()
        played.apply(option.value)  # type: ignore[arg-type]
        assert (played.winner == 0) is option.right


def test_drawing_and_passing_are_the_moves_the_engine_allows() -> None:
    """R10: without a tile that fits, draw while the boneyard has tiles, else pass; a drawn
    tile that fits is placed at once."""
    drawing = match_of(scenes()["draw"])
    assert right_values(step("drawing/draw")) == [DRAW] == drawing.legal_actions()
    while drawing.legal_actions() == [DRAW]:
        drawing.apply(DRAW)
    pending = drawing.pending_draw
    assert step("drawing/place").question.tile == pending
    assert step("drawing/place").scene.pending == pending
    passing = match_of(scenes()["pass"])
    assert right_values(step("drawing/pass")) == [PASS] == passing.legal_actions()


def test_the_blocked_round_is_settled_as_the_engine_settles_it() -> None:
    """R11, R17, R20-R23: after the pass and seat 1's placement nobody can place; the lighter
    hand scores the difference, rounded."""
    scene = scenes()["pass"]
    match = match_of(scene)
    match.apply(PASS)
    (then,) = placements(scene["then"])
    events = match.apply(Play(*then))
    end = match.rounds[-1].end
    assert end is not None and end.kind == "block" and end.pips is not None
    (block,) = [e for e in events if isinstance(e, BlockEvent)]
    light = min(range(2), key=lambda seat: end.pips[seat])
    assert block.side == light and block.difference == abs(end.pips[0] - end.pips[1])
    assert right_values(step("ends/block")) == [(block.side, block.raw)]
    assert step("ends/block").scene.scores[block.side] + block.raw == match.scores[block.side]


def test_the_domino_earns_what_the_engine_credits() -> None:
    """R18, R19: the last tile's credit plus the other hand's pips, rounded (R17)."""
    match = match_of(scenes()["domino"])
    (tile,) = match.hand(0)
    (action,) = [a for a in match.legal_actions() if isinstance(a, Play)][:1]
    events = match.apply(action)
    (domino,) = [e for e in events if isinstance(e, DominoEvent)]
    assert right_values(step("ends/domino")) == [domino.raw]
    assert step("ends/domino-place").question.tile == tile


# ---- checking an answer ---------------------------------------------------------------------


def test_a_right_answer_and_a_wrong_one() -> None:
    s = step("spinner-arms-1/place/4")
    (right,) = s.question.right
    assert s.check([right]).right
    wrong = s.check([next(i for i, o in enumerate(s.question.options) if not o.right)])
    assert not wrong.right and "(R9)" in wrong.why[0].text()


def test_counting_asks_for_every_place_that_counts_and_no_other() -> None:
    s = step("spinner-arms-1/count/5")
    right = set(s.question.right)
    assert s.check(right).right
    partial = s.check(set(list(right)[:1]))
    assert not partial.right and len(partial.why) == 1  # the place missed
    arm = next(i for i, o in enumerate(s.question.options) if not o.right)
    extra = s.check(right | {arm})
    assert not extra.right and "(R14)" in extra.why[0].text()
    with pytest.raises(ValueError):
        s.check([99])


# ---- in every language, and as JSON ------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "pl", "ru"])
def test_every_text_of_the_tour_reads_in_every_language(lang: str) -> None:
    """Every sentence is said in the learner's language, its values filled in."""
    try:
        english = [s.to_json() for s in STEPS]
        i18n.use(lang)
        data = [s.to_json() for s in STEPS]
    finally:
        i18n.use("en")
    for theirs, ours in zip(data, english, strict=True):
        said = [theirs["lesson"]["title"], theirs["question"]["prompt"], *theirs["answer"]]
        assert not any("{" in text for text in said), theirs["id"]
        assert theirs["question"]["prompt"] != ours["question"]["prompt"], theirs["id"]
        assert theirs["answer"] != ours["answer"], theirs["id"]


def test_a_step_as_json_names_its_answers() -> None:
    data = step("exact/win").to_json()
    options = data["question"]["options"]
    (right,) = [o for o in options if o["right"]]
    assert right["value"]["type"] == "play"
    assert data["rules"] == ["R4", "R30"]
    assert json.loads(json.dumps(data)) == data


# ---- where a learner is --------------------------------------------------------------------


def test_the_state_is_kept_and_read_back() -> None:
    state = TourState()
    state.answered(STEPS[0], tries=1, shown=False)
    assert state.forward() and state.at == 1
    state.answered(STEPS[1], tries=2, shown=True)
    again = TourState.from_json(json.loads(json.dumps(state.to_json())))
    assert (again.at, again.results, again.stage) == (1, state.results, "lessons")
    assert again.first_tries == 1


def test_the_first_answer_of_a_step_is_the_one_kept() -> None:
    state = TourState()
    state.answered(STEPS[0], tries=3, shown=False)
    state.answered(STEPS[0], tries=1, shown=False)  # gone back to, answered again
    assert state.results[STEPS[0].id] == "later"


def test_after_the_last_step_the_match_is_next() -> None:
    state = TourState(len(STEPS) - 1)
    assert not state.forward() and state.stage == "match"
    assert TourState().back() is False


def test_a_step_the_tour_no_longer_has_starts_it_again() -> None:
    state = TourState.from_json({"step": "gone/step", "results": {"gone/step": "first"}})
    assert (state.at, state.results) == (0, {})
    with pytest.raises(ValueError):
        TourState.from_json({"stage": "elsewhere"})
    with pytest.raises(ValueError):
        TourState.from_json({"results": []})


def test_lessons_count_their_steps() -> None:
    lessons = tour.lessons()
    assert len(lessons) == 6
    assert tour.where(0) == (1, 6, 1, 3)
    last = tour.where(len(STEPS) - 1)
    assert last[0] == last[1] == 6 and last[2] == last[3]
