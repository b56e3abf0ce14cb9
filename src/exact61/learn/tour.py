"""The guided tour: the rule documents' eleven worked positions, built up placement by placement in
the order a beginner needs them, then the few moments they do not show (a credit thrown away
because it would pass 61, a draw, a pass and a blocked round, a domino), each as short steps.

A step shows a scene (the board, and in a round in play the learner's hand and the scores), asks
one question (where a tile can go, which free places count, what a placement or a settlement
scores, what to do) and explains the answer with the rules behind it. Every answer and every
number said is worked out by the rules engine (`Layout`, `Match`): which attach points take a
tile, the scored contributions and the end sum, a credit, a rejected event, a draw, the
settlements.

Here: the steps in order (`steps`, `lessons`) and where a learner is (`TourState`). The model and
its texts are `lesson`'s, the positions `positions`' (package data), the steps on the rule
documents' positions `documents`' and the others `beyond`'s.

No screen here: the terminal shows the steps (`exact61 learn`), and `Step.to_json` gives the same
lesson to a web page. Texts are `Said`: a message (English, translated when shown) and its values.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from exact61 import i18n
from exact61.learn.beyond import domino_steps, drawing_steps, exact_steps
from exact61.learn.documents import count_step, place_step, score_step
from exact61.learn.lesson import (
    DOUBLES,
    OPENING,
    SPINNERS,
    Lesson,
    Placement,
    Step,
    on_board,
)
from exact61.learn.positions import rule_cases, setups

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
            raise ValueError(i18n._("the tour's progress is not an object"))
        ids = [s.id for s in steps()]
        step = data.get("step")
        at = ids.index(step) if step in ids else 0
        results = data.get("results", {})
        if not isinstance(results, dict):
            raise ValueError(i18n._("the tour's results are not an object"))
        kept = {k: v for k, v in results.items() if k in ids and v in RESULTS}
        stage = data.get("stage", "lessons")
        if stage not in STAGES:
            raise ValueError(i18n._("no stage {stage} of the tour").format(stage=repr(stage)))
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
        build = {"score": score_step, "count": count_step, "place": place_step}[question]
        step = build(lesson, case, placements, count, shown, first=not out)
        out.append(step)
        shown = step.result.placements
    scenes = setups()
    out += exact_steps(scenes["overshoot"])
    out += drawing_steps(scenes["draw"], scenes["pass"])
    out += domino_steps(scenes["domino"])
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
