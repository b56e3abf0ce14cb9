"""The guided tour: the rule documents' eleven worked positions, built up placement by placement in
the order a beginner needs them, then the few moments they do not show (a credit thrown away
because it would pass 61, a draw, a pass and a blocked round, a domino), each as short steps.

A step shows a scene (the board, and in a round in play the learner's hand and the scores), asks
one question (where a tile can go, which free places count, what a placement or a settlement
scores, what to do) and explains the answer with the rules behind it. Every answer and every
number said is worked out here by the rules engine (`Layout`, `Match`): which attach points take a
tile, the scored contributions and the end sum, a credit, a rejected event, a draw, the
settlements. The positions are package data: `data/seed_positions.json` (the rule documents',
as `tests/data/seed_positions.json`) and `data/scenes.json` (the others).

No screen here: the terminal shows the steps (`exact61 learn`), and `Step.to_json` gives the same
lesson to a web page. Texts are `Said`: a message (English, translated when shown) and its values.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from exact61 import i18n
from exact61.analysis.report import move_text
from exact61.core import (
    DRAW,
    PASS,
    TARGET_RAW,
    Action,
    AttachPoint,
    BlockEvent,
    DominoEvent,
    Draw,
    Event,
    IllegalMoveError,
    Layout,
    Match,
    Pass,
    Play,
    PlayEvent,
    Tile,
    TileEnd,
    display,
    tile_from,
)
from exact61.core.engine import class_of
from exact61.core.records import action_json
from exact61.i18n import N_, _
from exact61.render.geometry import tile_names

PLAYERS = 2  # the scenes beyond the documents: the learner (seat 0) against one other
YOU, OTHER = 0, 1

# ---- what the tour says ---------------------------------------------------------------------


@dataclass(frozen=True)
class Points:
    """Raw points (R3), shown as the game shows a score: `1 (5)`."""

    raw: int


@dataclass(frozen=True)
class Chance:
    """A share of 1 (a chance to win the match), shown as the language writes a percentage."""

    share: float


@dataclass(frozen=True)
class Said:
    """A sentence of the tour: `message` (English, a catalog's msgid) and the values it names,
    translated and filled in when shown (`text`), in the language then in use."""

    message: str
    values: tuple[tuple[str, object], ...] = ()

    def text(self) -> str:
        return _(self.message).format(**{name: shown(value) for name, value in self.values})


def say(message: str, **values: object) -> Said:
    """A sentence: `message` (marked for the catalogs with N_) and its values."""
    return Said(message, tuple(values.items()))


def as_is(value: object) -> Said:
    """A value alone (points, a tile), shown the same in every language: no message to
    translate."""
    return Said("{value}", (("value", value),))


def point_text(point: AttachPoint, names: Mapping[Tile, str] | None = None) -> str:
    """`[5|6] high end`: an attach point as the game names it (R13); with `names`
    (`render.geometry.tile_names`), its tile as the board draws it (`[6|5] high end`)."""
    tile = (names or {}).get(point.tile, str(point.tile))
    return _("{tile} {end}").format(tile=tile, end=_(i18n.END_NAMES[point.end.value]))


@dataclass(frozen=True)
class OnBoard:
    """A tile, a place or a move said beside a board: each tile of its layout named as the
    board draws it (`names`, from `render.geometry.tile_names`), a tile in hand as itself."""

    value: object
    names: tuple[tuple[Tile, str], ...]


def on_board(said: Said, layout: Layout) -> Said:
    """`said` with its tiles, places and moves named as the board of `layout` draws them."""
    names = tuple(tile_names(layout).items())

    def named(value: object) -> object:
        if isinstance(value, Said):
            return Said(value.message, tuple((k, named(v)) for k, v in value.values))
        if isinstance(value, Tile | AttachPoint | Play):
            return OnBoard(value, names)
        if isinstance(value, tuple | list):
            return [named(v) for v in value]
        return value

    named_said = named(said)
    assert isinstance(named_said, Said)
    return named_said


def shown(value: object) -> str:
    """A value of a `Said` in words: a point or a move as the game names it, points as `1 (5)`,
    a number as the language writes it, several values with commas."""
    if isinstance(value, Said):
        return value.text()
    if isinstance(value, OnBoard):
        names = dict(value.names)
        inner = value.value
        if isinstance(inner, Tile):
            return names.get(inner, str(inner))
        if isinstance(inner, AttachPoint):
            return point_text(inner, names)
        assert isinstance(inner, Play)
        return move_text(inner, names)
    if isinstance(value, Points):
        return f"{display(value.raw)} ({value.raw})"
    if isinstance(value, Chance):
        return i18n.percent(value.share)
    if isinstance(value, AttachPoint):
        return point_text(value)
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, Play | Draw | Pass):
        return move_text(value)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return i18n.number(value)
    if isinstance(value, tuple | list):
        return ", ".join(shown(v) for v in value)
    return str(value)


# ---- the model ------------------------------------------------------------------------------

Placement = tuple[Tile, AttachPoint | None]


class Kind(StrEnum):
    """How a question is answered."""

    PLACE = "place"  # one free place on the board
    COUNT = "count"  # every free place that counts, on the board
    CHOOSE = "choose"  # one choice of a short list


@dataclass(frozen=True)
class Scene:
    """What the board shows: the layout; in a round in play also every hand (the learner's
    first), the boneyard's size, the raw scores (the learner's side first) and a drawn tile the
    learner must place (R10). `revealed`: the round is settled and the hands are shown."""

    placements: tuple[Placement, ...]
    hands: tuple[tuple[Tile, ...], ...] = ()
    boneyard: int = 0
    scores: tuple[int, ...] = ()
    pending: Tile | None = None
    revealed: bool = False

    def layout(self) -> Layout:
        return Layout.from_plays(self.placements)

    @property
    def in_play(self) -> bool:
        """A round with hands and scores, not a layout alone."""
        return bool(self.hands)

    def to_json(self) -> dict[str, Any]:
        return {
            "placements": [_placement_json(t, at) for t, at in self.placements],
            "hands": [[_tile_json(t) for t in hand] for hand in self.hands],
            "boneyard": self.boneyard,
            "scores": list(self.scores),
            "pending": None if self.pending is None else _tile_json(self.pending),
            "revealed": self.revealed,
        }


@dataclass(frozen=True)
class Option:
    """One answer the question offers: a free place on the board (`point`) or a choice of a
    list (`label`, and the `value` it stands for: an action, raw points, a side with its raw
    points); whether it is right, and what choosing it means (`why`), as the engine works it
    out."""

    right: bool
    why: Said
    point: AttachPoint | None = None
    label: Said | None = None
    value: object = None


@dataclass(frozen=True)
class Question:
    kind: Kind
    prompt: Said
    options: tuple[Option, ...]
    tile: Tile | None = None  # the tile to place (Kind.PLACE)

    @property
    def right(self) -> tuple[int, ...]:
        """The indices of the right options (COUNT: all of them together is the answer)."""
        return tuple(i for i, option in enumerate(self.options) if option.right)


@dataclass(frozen=True)
class Verdict:
    """A checked answer: right or not, and why (the options chosen, or missed, explained)."""

    right: bool
    why: tuple[Said, ...]


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str  # a msgid

    @property
    def title_text(self) -> str:
        return _(self.title)


@dataclass(frozen=True)
class Step:
    """One step of the tour: the scene, what happened (`told`), the question; then the scene
    the answer leaves (`result`), the explanation (`answer`) and the rules behind it. `case`
    names the rule documents' position the step shows (seed_positions.json), if one."""

    id: str
    lesson: Lesson
    case: str | None
    scene: Scene
    told: tuple[Said, ...]
    question: Question
    result: Scene
    answer: tuple[Said, ...]
    rules: tuple[str, ...]

    def check(self, chosen: Iterable[int]) -> Verdict:
        """The answer `chosen` (option indices: one, or for COUNT every place picked)."""
        picked = sorted(set(chosen))
        options = self.question.options
        if any(not 0 <= i < len(options) for i in picked):
            raise ValueError(f"no option {picked} among {len(options)}")
        if self.question.kind is not Kind.COUNT:
            if len(picked) != 1:
                raise ValueError("choose one option")
            option = options[picked[0]]
            return Verdict(option.right, (option.why,))
        right = set(self.question.right)
        wrong = [options[i].why for i in picked if i not in right]
        missed = [options[i].why for i in sorted(right - set(picked))]
        if not wrong and not missed:
            return Verdict(True, ())
        return Verdict(False, tuple(wrong + missed))

    def to_json(self) -> dict[str, Any]:
        """The step as JSON-ready data, its texts in the language in use (for a web page)."""
        q = self.question
        return {
            "id": self.id,
            "lesson": {"id": self.lesson.id, "title": self.lesson.title_text},
            "case": self.case,
            "scene": self.scene.to_json(),
            "told": [s.text() for s in self.told],
            "question": {
                "kind": q.kind.value,
                "prompt": q.prompt.text(),
                "tile": None if q.tile is None else _tile_json(q.tile),
                "options": [
                    {
                        "point": None if o.point is None else _point_json(o.point),
                        "label": None if o.label is None else o.label.text(),
                        "value": _value_json(o.value),
                        "right": o.right,
                        "why": o.why.text(),
                    }
                    for o in q.options
                ],
            },
            "result": self.result.to_json(),
            "answer": [s.text() for s in self.answer],
            "rules": list(self.rules),
        }


# ---- where the learner is --------------------------------------------------------------------

STAGES = ("lessons", "match", "done")
RESULTS = ("first", "later", "shown")  # right at the first try, at a later one, or shown


@dataclass
class TourState:
    """Where a learner is in the tour: the step (`at`, an index of `steps()`), how each step
    answered went, and the stage: the lessons, the guided match after them, or done."""

    at: int = 0
    results: dict[str, str] = field(default_factory=dict)
    stage: str = "lessons"

    @property
    def step(self) -> Step:
        return steps()[self.at]

    def answered(self, step: Step, tries: int, shown: bool) -> None:
        """Note how `step` went: right after `tries` tries, or its answer `shown`."""
        if step.id not in self.results:  # the first time counts: a step gone back to is not
            self.results[step.id] = "shown" if shown else "first" if tries <= 1 else "later"

    def forward(self) -> bool:
        """To the next step; False after the last (the lessons are done: the match is next)."""
        if self.at + 1 < len(steps()):
            self.at += 1
            return True
        self.stage = "match"
        return False

    def back(self) -> bool:
        if self.at == 0:
            return False
        self.at -= 1
        return True

    @property
    def first_tries(self) -> int:
        return sum(result == "first" for result in self.results.values())

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step.id, "results": dict(self.results), "stage": self.stage}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TourState:
        """The state kept (`to_json`); a step the tour no longer has starts it from the first,
        and what cannot be read is left out (ValueError for data that is no tour state)."""
        if not isinstance(data, dict):
            raise ValueError("the tour's progress is not an object")
        ids = [s.id for s in steps()]
        step = data.get("step")
        at = ids.index(step) if step in ids else 0
        results = data.get("results", {})
        if not isinstance(results, dict):
            raise ValueError("the tour's results are not an object")
        kept = {k: v for k, v in results.items() if k in ids and v in RESULTS}
        stage = data.get("stage", "lessons")
        if stage not in STAGES:
            raise ValueError(f"no stage {stage!r} of the tour")
        return cls(at, kept, stage)


def rule_words(rule: str) -> str:
    """Rule `rule`'s own paragraph (`R15 After every placement ...`), the project's rule text
    (`i18n/rules/`) in the language in use, as plain text on one line."""
    paragraph = i18n.rule_paragraphs(i18n.language()).get(rule)
    if paragraph is None:
        return rule
    return " ".join(i18n.plain_text(paragraph).split())


def where(at: int) -> tuple[int, int, int, int]:
    """Step `at`'s lesson (counted from 1) of how many, and its place in its lesson of how
    many steps."""
    all_steps = steps()
    order = lessons()
    lesson = all_steps[at].lesson
    mine = [i for i, s in enumerate(all_steps) if s.lesson == lesson]
    return order.index(lesson) + 1, len(order), mine.index(at) + 1, len(mine)


# ---- the positions ----------------------------------------------------------------------------


def _value_json(value: object) -> object:
    """An option's value as JSON: an action as a match record writes it, a side and its
    points as a list."""
    if isinstance(value, Play | Draw | Pass):
        return action_json(value)
    if isinstance(value, tuple):
        return [_value_json(v) for v in value]
    return value


def _tile_json(tile: Tile) -> list[int]:
    return [tile.low, tile.high]


def _point_json(point: AttachPoint) -> list[object]:
    return [_tile_json(point.tile), point.end.value]


def _placement_json(tile: Tile, at: AttachPoint | None) -> dict[str, object]:
    return {"tile": _tile_json(tile), "at": None if at is None else _point_json(at)}


def _placements(data: Sequence[dict[str, Any]]) -> tuple[Placement, ...]:
    """Placements as seed_positions.json writes them."""
    return tuple(
        (
            tile_from(p["tile"]),
            None if p["at"] is None else AttachPoint(tile_from(p["at"][0]), p["at"][1]),
        )
        for p in data
    )


def _data(name: str) -> dict[str, Any]:
    text = resources.files("exact61.learn").joinpath("data", name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def rule_cases() -> dict[str, tuple[Placement, ...]]:
    """The rule documents' worked positions (seed_positions.json) by name: their placements."""
    return {c["name"]: _placements(c["placements"]) for c in _data("seed_positions.json")["cases"]}


@dataclass(frozen=True)
class _Setup:
    """A round in play from scenes.json: the learner is seat 0, to act."""

    layout: tuple[Placement, ...]
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    scores: tuple[int, ...]
    opener: int
    then: tuple[Placement, ...]

    def match(self) -> Match:
        return Match.from_position(
            PLAYERS,
            layout=self.layout,
            hands=self.hands,
            boneyard=self.boneyard,
            to_act=YOU,
            opener=self.opener,
            scores=self.scores,
        )


@cache
def _setups() -> dict[str, _Setup]:
    out = {}
    for s in _data("scenes.json")["scenes"]:
        out[s["name"]] = _Setup(
            _placements(s["layout"]),
            tuple(tuple(tile_from(t) for t in hand) for hand in s["hands"]),
            tuple(tile_from(t) for t in s["boneyard"]),
            tuple(s["scores"]),
            s["opener"],
            _placements(s.get("then", ())),
        )
    return out


def scene_of(match: Match, *, pending: bool = True) -> Scene:
    """What the board shows of a two-player round: as it is in play, or settled (hands shown)."""
    log = match.rounds[-1]
    end = log.end
    hands = end.hands if end is not None and end.hands is not None else None
    return Scene(
        tuple(match.layout.placements()),
        hands if hands is not None else tuple(match.hand(s) for s in range(match.players)),
        match.boneyard_size,
        match.scores,
        match.pending_draw if pending else None,
        revealed=hands is not None,
    )


# ---- the lessons ------------------------------------------------------------------------------

OPENING = Lesson("opening", N_("The opening and what scores"))
DOUBLES = Lesson("doubles", N_("Doubles at the ends"))
SPINNERS = Lesson("spinners", N_("Spinners and their side arms"))
EXACT = Lesson("exact", N_("Exactly 61"))
DRAWING = Lesson("drawing", N_("Drawing and passing"))
ENDS = Lesson("ends", N_("The end of a round"))


@cache
def lessons() -> tuple[Lesson, ...]:
    return tuple(dict.fromkeys(s.lesson for s in steps()))


@cache
def steps() -> tuple[Step, ...]:
    """The whole tour, in order: the rule documents' positions, then the moments they do not
    show."""
    documents: list[tuple[Lesson, str, str, int]] = [
        # (lesson, the documents' position, question, placements shown before it)
        (OPENING, "opening-1-4", "score", 1),
        (OPENING, "opening-blank-double", "score", 1),
        (OPENING, "opening-double-2-2", "score", 1),
        (DOUBLES, "sum-6-scores-nothing", "place", 1),
        (DOUBLES, "sum-6-scores-nothing", "score", 2),
        (DOUBLES, "terminal-doubles", "place", 2),
        (DOUBLES, "terminal-doubles", "score", 3),
        (DOUBLES, "terminal-six-six", "score", 2),
        (SPINNERS, "double-becomes-interior", "place", 3),
        (SPINNERS, "double-becomes-interior", "count", 4),
        (SPINNERS, "spinner-arms-1", "place", 4),
        (SPINNERS, "spinner-arms-1", "count", 5),
        (SPINNERS, "spinner-arms-2", "place", 5),
        (SPINNERS, "spinner-arms-2", "score", 6),
        (SPINNERS, "spinner-arms-3", "place", 6),
        (SPINNERS, "spinner-arms-3", "score", 7),
        (SPINNERS, "spinner-arms-3", "place", 7),
        (SPINNERS, "spinner-arms-3", "score", 8),
        (SPINNERS, "spinner-arms-4", "place", 8),
        (SPINNERS, "spinner-arms-4", "score", 9),
    ]
    out: list[Step] = []
    shown: tuple[Placement, ...] = ()
    for lesson, case, question, count in documents:
        placements = rule_cases()[case]
        build = {"score": _score_step, "count": _count_step, "place": _place_step}[question]
        step = build(lesson, case, placements, count, shown, first=not out)
        out.append(step)
        shown = step.result.placements
    setups = _setups()
    out += _exact_steps(setups["overshoot"])
    out += _drawing_steps(setups["draw"], setups["pass"])
    out += _domino_steps(setups["domino"])
    ids = [s.id for s in out]
    assert len(set(ids)) == len(ids), "every step has its own id"
    return tuple(_named_as_drawn(step) for step in out)


def _named_as_drawn(step: Step) -> Step:
    """`step` with every tile of a board named as the board draws it: the question as its
    scene shows, the answer as the scene it leaves shows (`on_board`)."""
    before, after = step.scene.layout(), step.result.layout()
    question = step.question
    options = tuple(
        replace(
            o,
            why=on_board(o.why, before),
            label=None if o.label is None else on_board(o.label, before),
        )
        for o in question.options
    )
    return replace(
        step,
        told=tuple(on_board(s, before) for s in step.told),
        question=replace(question, prompt=on_board(question.prompt, before), options=options),
        answer=tuple(on_board(s, after) for s in step.answer),
    )


# ---- the rule documents' positions: where a tile goes, what counts, what it scores -----------


def _told(placements: Sequence[Placement], shown: Sequence[Placement]) -> tuple[Said, ...]:
    """The placements the board shows that the last step did not, in words (the tour's first
    opening with its rule)."""
    new = placements[len(shown) :] if tuple(placements[: len(shown)]) == tuple(shown) else None
    said: list[Said] = []
    if new is None:
        said.append(say(N_("A new layout.")))
        new = placements
    for tile, at in new:
        if at is None and not shown:
            said.append(
                say(N_("{tile} opens the round: the opener may play any tile (R7)."), tile=tile)
            )
        elif at is None:
            said.append(say(N_("{tile} opens the round."), tile=tile))
        else:
            said.append(say(N_("{tile} is placed at {point}."), tile=tile, point=at))
    return tuple(said)


def _scoring(layout: Layout) -> list[Said]:
    """What the layout's scored ends are and what they make (R14, R15), from the engine."""
    contributions = layout.contributions()
    names = tile_names(layout)
    ends = ", ".join(f"{names[tile]} {value}" for tile, value in contributions)
    total = layout.end_sum
    said = [say(N_("Scored ends: {ends}; together {total}."), ends=ends, total=total)]
    doubles = [t for t, _ in contributions if t.is_double]
    if doubles:
        said.append(say(N_("A double at an end counts both halves: {tiles} (R14)."), tiles=doubles))
    counted = {t for t, _ in contributions}
    interior = [t for t in layout.spinners() if t not in counted]
    if interior:
        said.append(
            say(
                N_(
                    "A double with both line sides joined is interior and counts nothing: {tiles} "
                    "(R14)."
                ),
                tiles=interior,
            )
        )
    if any(p.end in (TileEnd.ARM_A, TileEnd.ARM_B) for p, _ in layout.free_points()):
        said.append(say(N_("An open side arm counts nothing until a tile is placed on it (R14).")))
    blanks = [t for t, v in contributions if v == 0 and not t.is_double]
    if blanks:
        said.append(
            say(N_("A blank end counts 0 and is still an end: {tiles} (R14)."), tiles=blanks)
        )
    credit = layout.credit
    if credit:
        said.append(
            say(
                N_("{total} is a multiple of 5: the placement scores {points} (R15)."),
                total=total,
                points=Points(credit),
            )
        )
    elif total == 0:
        said.append(say(N_("A sum of 0 scores nothing (R15).")))
    else:
        said.append(
            say(
                N_("{total} is not a multiple of 5: the placement scores nothing (R15)."),
                total=total,
            )
        )
    return said


def _score_options(credit: int) -> tuple[int, ...]:
    """Four credits to choose from, the right one among them: 0 to 15, or around it."""
    low = 0 if credit <= 15 else credit - 10
    return tuple(range(low, low + 20, 5))


def _points_label(raw: int) -> Said:
    return say(N_("nothing")) if raw == 0 else as_is(Points(raw))


def _score_step(
    lesson: Lesson,
    case: str,
    placements: Sequence[Placement],
    count: int,
    shown: Sequence[Placement],
    *,
    first: bool,
) -> Step:
    """What the placement just made scores (R14, R15)."""
    before = tuple(placements[:count])
    layout = Layout.from_plays(before)
    credit = layout.credit
    options = tuple(
        Option(
            raw == credit,
            say(N_("The scored ends add up to {total}."), total=layout.end_sum),
            label=_points_label(raw),
            value=raw,
        )
        for raw in _score_options(credit)
    )
    answer = _scoring(layout)
    rules = ["R14", "R15"]
    if first:
        answer.append(
            say(
                N_(
                    "Scores read {points}: display points, then raw points; 5 raw points make 1 "
                    "display point (R3)."
                ),
                points=Points(credit or 5),
            )
        )
        rules.append("R3")
    prompt = (
        say(N_("What does the opening score?"))
        if count == 1
        else say(N_("What does this placement score?"))
    )
    scene = Scene(before)
    return Step(
        f"{case}/score/{count}",
        lesson,
        case,
        scene,
        _told(before, shown),
        Question(Kind.CHOOSE, prompt, options),
        scene,
        tuple(answer),
        tuple(rules),
    )


def _count_step(
    lesson: Lesson,
    case: str,
    placements: Sequence[Placement],
    count: int,
    shown: Sequence[Placement],
    *,
    first: bool,
) -> Step:
    """Which free attach points are scored ends (R14: a free attach point is not the same thing
    as a scored end)."""
    before = tuple(placements[:count])
    layout = Layout.from_plays(before)
    value_of = dict(layout.contributions())  # each tile counted (a non-double has one free end)
    options = []
    for point, _value in layout.free_points():
        counted = value_of.get(point.tile)
        if counted is not None:
            why = (
                say(
                    N_("{point} counts: its double counts both halves, {value}."),
                    point=point,
                    value=counted,
                )
                if point.tile.is_double
                else say(N_("{point} counts {value}."), point=point, value=counted)
            )
            options.append(Option(True, why, point=point))
        else:
            options.append(
                Option(
                    False,
                    say(
                        N_(
                            "{point} counts nothing: an open side arm counts nothing until a tile "
                            "is placed on it (R14)."
                        ),
                        point=point,
                    ),
                    point=point,
                )
            )
    scene = Scene(before)
    return Step(
        f"{case}/count/{count}",
        lesson,
        case,
        scene,
        _told(before, shown),
        Question(
            Kind.COUNT, say(N_("Which of the free places count towards the score?")), tuple(options)
        ),
        scene,
        tuple(_scoring(layout)),
        ("R14", "R15"),
    )


def _place_options(layout: Layout, tile: Tile, fits: Sequence[AttachPoint]) -> tuple[Option, ...]:
    """Every free attach point as a place to choose: right where `tile` may go (`fits`), else
    why not, by the rule the engine names."""
    options = []
    for point, value in layout.free_points():
        if point in fits:
            why = say(
                N_("{tile} joins {point} with its {value} (R9)."),
                tile=tile,
                point=point,
                value=value,
            )
            options.append(Option(True, why, point=point))
            continue
        try:
            layout.check_placement(tile, point)
        except IllegalMoveError as err:
            if err.rule == "R9":
                why = say(
                    N_("{point} takes a {value}, and {tile} shows none (R9)."),
                    point=point,
                    value=value,
                    tile=tile,
                )
            else:
                why = say(
                    N_("{tile} cannot go at {point} ({rule})."),
                    tile=tile,
                    point=point,
                    rule=err.rule,
                )
        else:  # legal on the layout, not for the learner now (a drawn tile, R10)
            why = say(N_("{tile} cannot go at {point} now (R10)."), tile=tile, point=point)
        options.append(Option(False, why, point=point))
    return tuple(options)


def _placed(layout: Layout, tile: Tile, at: AttachPoint, fits: Sequence[AttachPoint]) -> list[Said]:
    """What placing `tile` at `at` does (R9, R12, R13), as the layout after it shows."""
    after = layout.copy()
    after.place(tile, at)
    others = [p for p in fits if p != at]
    alike = all(
        p.tile == at.tile and p.end in (TileEnd.ARM_A, TileEnd.ARM_B) for p in [at, *others]
    )
    if not others or alike:
        said = [say(N_("{tile} goes at {point} (R9)."), tile=tile, point=at)]
        if others:
            said.append(say(N_("Either side arm will do: they are two attach points alike (R13).")))
    else:  # whichever of them the learner chose was right, and the answer says so
        said = [
            say(
                N_("{tile} fits more than one place, and each is right: {points} (R9)."),
                tile=tile,
                points=list(fits),
            ),
            say(
                N_("The rule documents put it at {point}, and the tour goes on from there."),
                point=at,
            ),
        ]
    if tile.is_double:
        said.append(say(N_("Every double is a spinner and lies crosswise (R12).")))
    host = at.tile
    if host.is_double and at.end is TileEnd.LINE_B:
        arms = [AttachPoint(host, TileEnd.ARM_A), AttachPoint(host, TileEnd.ARM_B)]
        if all(after.is_free(p) for p in arms):
            said.append(
                say(
                    N_("Both line sides of {tile} are joined now: its side arms open (R13)."),
                    tile=host,
                )
            )
    if at.end in (TileEnd.ARM_A, TileEnd.ARM_B):
        said.append(
            say(
                N_("The side arms of {tile} opened once both its line sides were joined (R13)."),
                tile=host,
            )
        )
    return said


def _place_step(
    lesson: Lesson,
    case: str,
    placements: Sequence[Placement],
    count: int,
    shown: Sequence[Placement],
    *,
    first: bool,
) -> Step:
    """Where the documents' next tile can go (R9, R13): the places the engine allows."""
    before = tuple(placements[:count])
    tile, at = placements[count]
    assert at is not None, "the opening tile goes anywhere: it is told, not asked"
    layout = Layout.from_plays(before)
    fits = layout.points_for(tile)
    rules = ["R9"]
    if tile.is_double:
        rules.append("R12")
    if at.tile.is_double:
        rules.append("R13")
    return Step(
        f"{case}/place/{count}",
        lesson,
        case,
        Scene(before),
        _told(before, shown),
        Question(
            Kind.PLACE,
            say(N_("Where can {tile} go?"), tile=tile),
            _place_options(layout, tile, fits),
            tile,
        ),
        Scene((*before, (tile, at))),
        tuple(_placed(layout, tile, at, fits)),
        tuple(rules),
    )


# ---- beyond the documents: exactly 61, drawing and passing, the round's end ------------------


def _credit_words(raw: int) -> Said:
    return say(N_("nothing")) if raw == 0 else as_is(Points(raw))


def _distinct(actions: Iterable[Action]) -> list[Action]:
    """One action for each set of equivalent ones (a spinner's two side arms)."""
    first: dict[int, Action] = {}
    for action in actions:
        first.setdefault(class_of(action), action)
    return list(first.values())


def _after(match: Match, action: Action) -> tuple[Match, list[Event]]:
    played = match.copy()
    events = list(played.apply(action))
    return played, events


def _exact_steps(setup: _Setup) -> list[Step]:
    """A credit that would pass 61 is thrown away whole (R4); only exactly 61 wins (R30)."""
    match = setup.match()
    score = match.scores[YOU]
    scene = scene_of(match)
    plays = _distinct(match.legal_actions())
    credits = {a: match.credit_of(a) for a in plays}
    over = next(a for a in plays if score + credits[a] > TARGET_RAW)
    overshot, events = _after(match, over)
    event = next(e for e in events if isinstance(e, PlayEvent))
    assert not event.accepted
    after = overshot.scores[YOU]
    told = (
        say(
            N_(
                "Your side has {score}, seat 1 {other}. The target is exactly 61, that is 305 raw "
                "(R3)."
            ),
            score=Points(score),
            other=Points(match.scores[OTHER]),
        ),
    )
    wrong_over = say(
        N_(
            "Your side cannot reach {points}: it is past 61 (305), and such a credit is thrown "
            "away whole (R4)."
        ),
        points=Points(score + credits[over]),
    )
    scores = sorted({score, TARGET_RAW, score + credits[over]})
    overshoot = Step(
        "exact/overshoot",
        EXACT,
        None,
        scene,
        told,
        Question(
            Kind.CHOOSE,
            say(
                N_("You place {move}: the ends make {total}. What is your score after it?"),
                move=over,
                total=credits[over],
            ),
            tuple(
                Option(
                    raw == after,
                    say(N_("Your score stays {points}."), points=Points(after))
                    if raw == after
                    else wrong_over
                    if raw > TARGET_RAW
                    else say(
                        N_(
                            "A score does not stop at 61: a credit lands on exactly 305 or is "
                            "thrown away (R4)."
                        )
                    ),
                    label=as_is(Points(raw)),
                    value=raw,
                )
                for raw in scores
            ),
        ),
        scene_of(overshot),
        (
            say(
                N_(
                    "{credit} would take your side from {score} to {total}, past 61 (305): the "
                    "credit is thrown away whole and your score stays {score} (R4). Play goes on."
                ),
                credit=Points(credits[over]),
                score=Points(score),
                total=Points(score + credits[over]),
            ),
        ),
        ("R4", "R16"),
    )
    options = []
    winning: Action | None = None
    for action in plays:
        played, _events = _after(match, action)
        credit = credits[action]
        label = Said("{move}: {credit}", (("move", action), ("credit", _credit_words(credit))))
        if played.winner == YOU:
            winning = winning or action
            why = say(
                N_("{points} takes your side to exactly 61 (305): the match is won at once (R30)."),
                points=Points(credit),
            )
        elif score + credit > TARGET_RAW:
            why = say(
                N_("{points} would take your side past 61 (305): thrown away whole (R4)."),
                points=Points(credit),
            )
        elif credit:
            why = say(
                N_("It takes your side to {points}, short of 61."),
                points=Points(played.scores[YOU]),
            )
        else:
            why = say(N_("It scores nothing now."))
        options.append(Option(played.winner == YOU, why, label=label, value=action))
    assert winning is not None
    won, _events = _after(match, winning)
    landing = Step(
        "exact/win",
        EXACT,
        None,
        scene,
        (say(N_("Back to the position before that placement.")),),
        Question(Kind.CHOOSE, say(N_("Which placement wins the match?")), tuple(options)),
        scene_of(won),
        (
            say(
                N_(
                    "{move} scores {points} and takes your side from {score} to exactly 61 (305): "
                    "the match is won at once, mid-round (R30)."
                ),
                move=winning,
                points=Points(credits[winning]),
                score=Points(score),
            ),
        ),
        ("R4", "R30"),
    )
    return [overshoot, landing]


def _what_now(match: Match) -> Question:
    """None of the learner's tiles fits: draw or pass? (R10), as the engine allows."""
    legal = match.legal_actions()
    options = []
    for action, label in ((DRAW, say(N_("Draw a tile"))), (PASS, say(N_("Pass")))):
        if action in legal:
            why = say(N_("Right: {move}."), move=action)
        elif match.boneyard_size:
            why = say(
                N_("The boneyard still holds tiles: without a tile that fits you must draw (R10).")
            )
        else:
            why = say(N_("The boneyard is empty: there is nothing to draw, so you pass (R10)."))
        options.append(Option(action in legal, why, label=label, value=action))
    return Question(
        Kind.CHOOSE, say(N_("None of your tiles fits. What do you do?")), tuple(options)
    )


def _drawing_steps(drawing: _Setup, passing: _Setup) -> list[Step]:
    """A draw until a tile fits, which must be placed at once; a pass (R10); then the blocked
    round that follows the pass (R11, R20-R23)."""
    match = drawing.match()
    start = scene_of(match)
    question = _what_now(match)
    drawn_match = match.copy()
    drawn: list[Tile] = []
    while drawn_match.legal_actions() == [DRAW]:  # R10: one at a time until one fits
        drawn_match.apply(DRAW)
        hand = drawn_match.hand(YOU)
        drawn.append(hand[-1])
    pending = drawn_match.pending_draw
    assert pending is not None and drawn[-1] == pending
    told_draws = [
        say(N_("You draw {tile}: it does not fit either."), tile=t) for t in drawn[:-1]
    ] + [say(N_("You draw {tile}: it fits."), tile=pending)]
    draw = Step(
        "drawing/draw",
        DRAWING,
        None,
        start,
        (
            say(
                N_("A round in play: you are seat 0, against seat 1. {tile} is on the table."),
                tile=start.placements[0][0],
            ),
        ),
        question,
        scene_of(drawn_match),
        (
            say(N_("You may draw only without a tile that fits, one tile at a time (R10).")),
            *told_draws,
            say(N_("Drawing stops there: that very tile must be placed at once (R10).")),
        ),
        ("R10",),
    )
    layout = drawn_match.layout
    fits = [a.at for a in drawn_match.legal_actions() if isinstance(a, Play) and a.at is not None]
    placed_match, _events = _after(drawn_match, Play(pending, fits[0]))
    place = Step(
        "drawing/place",
        DRAWING,
        None,
        scene_of(drawn_match),
        (),
        Question(
            Kind.PLACE,
            say(N_("Where can {tile} go?"), tile=pending),
            _place_options(layout, pending, fits),
            pending,
        ),
        scene_of(placed_match),
        (
            *_placed(layout, pending, fits[0], fits)[:1],
            say(N_("Not another tile of your hand: the drawn tile itself (R10).")),
        ),
        ("R10", "R9"),
    )
    match = passing.match()
    question = _what_now(match)
    passed, _events = _after(match, PASS)
    after_pass = scene_of(passed)
    other_said: list[Said] = []
    for tile, at in passing.then:
        action = Play(tile, at)
        credit = passed.credit_of(action)
        events = passed.apply(action)
        scored = any(isinstance(e, PlayEvent) and e.accepted for e in events)
        other_said.append(
            say(N_("Seat 1 places {move} and scores {points}."), move=action, points=Points(credit))
            if scored
            else say(N_("Seat 1 places {move}."), move=action)
        )
    end = passed.rounds[-1].end
    assert end is not None and end.kind == "block"
    step_pass = Step(
        "drawing/pass",
        DRAWING,
        None,
        scene_of(match),
        (say(N_("Late in another round: the boneyard is empty.")),),
        question,
        after_pass,
        (say(N_("Nothing fits and there is nothing to draw: you pass (R10).")),),
        ("R10",),
    )
    return [draw, place, step_pass, _block_step(passed, other_said)]


def _block_step(blocked: Match, told: Sequence[Said]) -> Step:
    """Who scores a blocked round, and how much (R11, R17, R20-R23), as the engine settles it."""
    log = blocked.rounds[-1]
    end = log.end
    assert end is not None and end.pips is not None and end.hands is not None
    events = [e for e in log.events if isinstance(e, BlockEvent)]
    assert len(events) == 1, "two players: the lighter hand scores, once"
    event = events[0]
    winner = event.side
    settled = scene_of(blocked)
    unsettled = list(settled.scores)  # before the settlement: that is the question
    if event.accepted:
        unsettled[event.side] -= event.raw
    asked = replace(settled, scores=tuple(unsettled))
    candidates = [(winner, event.raw), (winner, event.raw + 5), (1 - winner, event.raw), (None, 0)]

    def label(side: int | None, raw: int) -> Said:
        if side is None:
            return say(N_("Nobody scores"))
        if side == YOU:
            return say(N_("You score {points}"), points=Points(raw))
        return say(N_("Seat 1 scores {points}"), points=Points(raw))

    mine, theirs = end.pips[YOU], end.pips[OTHER]
    hands = say(
        N_("Your hand: {mine} = {mine_pips}; seat 1's: {theirs} = {their_pips} (R20)."),
        mine=end.hands[YOU],
        mine_pips=mine,
        theirs=end.hands[OTHER],
        their_pips=theirs,
    )
    options = tuple(
        Option(
            (side, raw) == (winner, event.raw),
            say(N_("Right.")) if (side, raw) == (winner, event.raw) else hands,
            label=label(side, raw),
            value=(side, raw),
        )
        for side, raw in candidates
    )
    lighter = say(N_("You")) if winner == YOU else say(N_("Seat {seat}"), seat=OTHER)
    return Step(
        "ends/block",
        ENDS,
        None,
        asked,
        (
            *told,
            say(N_("The boneyard is empty and nobody can place: the round is blocked (R11).")),
        ),
        Question(Kind.CHOOSE, say(N_("Who scores for the blocked round, and how much?")), options),
        scene_of(blocked),
        (
            hands,
            say(
                N_(
                    "{side}: the lighter hand scores the difference to the heavier, {difference}, "
                    "rounded to {points} (R21, R17), and wins the round (R23)."
                ),
                side=lighter,
                difference=event.difference,
                points=Points(event.raw),
            ),
        ),
        ("R11", "R20", "R21", "R17", "R23"),
    )


def _domino_steps(setup: _Setup) -> list[Step]:
    """The last tile placed: domino, and what it earns (R18, R19, R17)."""
    match = setup.match()
    (tile,) = match.hand(YOU)
    fits = [a.at for a in match.legal_actions() if isinstance(a, Play) and a.at is not None]
    action = Play(tile, fits[0])
    done, events = _after(match, action)
    event = next(e for e in events if isinstance(e, DominoEvent))
    layout = match.layout
    before = scene_of(match)
    placed = replace(scene_of(done), scores=match.scores)  # the settlement is the next question
    place = Step(
        "ends/domino-place",
        ENDS,
        None,
        before,
        (say(N_("Your last tile is {tile}."), tile=tile),),
        Question(
            Kind.PLACE,
            say(N_("Where can {tile} go?"), tile=tile),
            _place_options(layout, tile, fits),
            tile,
        ),
        placed,
        (
            *_placed(layout, tile, action.at, fits)[:1],  # type: ignore[arg-type]
            say(N_("It is your last tile: you make domino, and the round ends (R18).")),
        ),
        ("R18",),
    )
    end = done.rounds[-1].end
    assert end is not None and end.hands is not None
    values = sorted({event.play_raw, event.opponents_raw, event.raw, event.raw + 5})
    why_wrong = say(
        N_("A domino adds the other hands' pips, rounded, to what the placement scores (R19).")
    )
    earn = Step(
        "ends/domino",
        ENDS,
        None,
        placed,
        (),
        Question(
            Kind.CHOOSE,
            say(N_("What does your domino earn your side?")),
            tuple(
                Option(
                    raw == event.raw,
                    say(N_("Right.")) if raw == event.raw else why_wrong,
                    label=_points_label(raw),
                    value=raw,
                )
                for raw in values
            ),
        ),
        scene_of(done),
        (
            say(N_("The placement scores {points} (R15)."), points=Points(event.play_raw)),
            say(
                N_("Seat 1 still holds {tiles}: {pips}, rounded to {rounded} (R17)."),
                tiles=end.hands[OTHER],
                pips=event.opponents_pips,
                rounded=event.opponents_raw,
            ),
            say(
                N_(
                    "Together one event of {points}, checked against 61 (R19): your side now has "
                    "{score}."
                ),
                points=Points(event.raw),
                score=Points(done.scores[YOU]),
            ),
        ),
        ("R18", "R19", "R17"),
    )
    return [place, earn]
