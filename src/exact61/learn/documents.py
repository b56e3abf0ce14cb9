"""The tour's steps on the rule documents' positions: where the next tile can go (R9, R13), which
ends count (R14) and what a placement scores (R15), each answered by the rules engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from exact61.core import (
    AttachPoint,
    IllegalMoveError,
    Layout,
    Tile,
    TileEnd,
)
from exact61.i18n import N_
from exact61.learn.lesson import (
    Kind,
    Lesson,
    Option,
    Placement,
    Points,
    Question,
    Said,
    Scene,
    Step,
    as_is,
    say,
)
from exact61.render.geometry import tile_names


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
    if len(contributions) == 1:  # a lone double opening: a sum of one says nothing
        said = [say(N_("Scored end: {ends}."), ends=ends)]
    else:
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


def points_label(raw: int) -> Said:
    """A credit as a choice's label: `nothing` for 0, else its points (display and raw)."""
    return say(N_("nothing")) if raw == 0 else as_is(Points(raw))


def score_step(
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
            label=points_label(raw),
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


def count_step(
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


def place_options(layout: Layout, tile: Tile, fits: Sequence[AttachPoint]) -> tuple[Option, ...]:
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


def placed_words(
    layout: Layout, tile: Tile, at: AttachPoint, fits: Sequence[AttachPoint]
) -> list[Said]:
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
    if host.is_double and at.end in (TileEnd.LINE_A, TileEnd.LINE_B):
        # whichever line side is joined second (an opening double's may be lineA), its side
        # arms open with it (R13)
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


def place_step(
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
            place_options(layout, tile, fits),
            tile,
        ),
        Scene((*before, (tile, at))),
        tuple(placed_words(layout, tile, at, fits)),
        tuple(rules),
    )
