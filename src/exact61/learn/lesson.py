"""What the guided tour is made of: its texts (`Said`: a message, translated when shown, and its
values; points and chances said as the language writes them; tiles named as the board draws
them) and its model (a step shows a scene, asks a question of some options and explains the
verdict; lessons group the steps). No rule is decided here: `tour` puts the steps together from
`documents` (the rule documents' positions) and `beyond` (the moments they do not show).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from exact61 import i18n
from exact61.analysis.report import move_text
from exact61.core import (
    AttachPoint,
    Draw,
    Layout,
    Pass,
    Play,
    Tile,
    display,
)
from exact61.core.records import action_json, point_json, tile_json
from exact61.i18n import N_, _
from exact61.render.geometry import tile_names


@dataclass(frozen=True)
class Points:
    """Raw points (R3), shown as the game shows a score: `1 (5)`."""

    raw: int


@dataclass(frozen=True)
class Chance:
    """A share of 1 (a chance to win the match), shown as the language writes a percentage,
    with `digits` decimals."""

    share: float
    digits: int = 0


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
        return i18n.percent(value.share, value.digits)
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
            "placements": [placement_json(t, at) for t, at in self.placements],
            "hands": [[tile_json(t) for t in hand] for hand in self.hands],
            "boneyard": self.boneyard,
            "scores": list(self.scores),
            "pending": None if self.pending is None else tile_json(self.pending),
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
                "tile": None if q.tile is None else tile_json(q.tile),
                "options": [
                    {
                        "point": None if o.point is None else point_json(o.point),
                        "label": None if o.label is None else o.label.text(),
                        "value": value_json(o.value),
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


def value_json(value: object) -> object:
    """An option's value as JSON: an action as a match record writes it, a side and its
    points as a list."""
    if isinstance(value, Play | Draw | Pass):
        return action_json(value)
    if isinstance(value, tuple):
        return [value_json(v) for v in value]
    return value


def placement_json(tile: Tile, at: AttachPoint | None) -> dict[str, object]:
    return {"tile": tile_json(tile), "at": point_json(at)}


OPENING = Lesson("opening", N_("The opening and what scores"))


DOUBLES = Lesson("doubles", N_("Doubles at the ends"))


SPINNERS = Lesson("spinners", N_("Spinners and their side arms"))


EXACT = Lesson("exact", N_("Exactly 61"))


DRAWING = Lesson("drawing", N_("Drawing and passing"))


ENDS = Lesson("ends", N_("The end of a round"))
