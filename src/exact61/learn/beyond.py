"""The tour's steps beyond the rule documents: a credit thrown away because it would pass 61 (R4),
a draw and a pass (R10), a blocked round's settlement and a domino, each played on the rules
engine from a scene of `positions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from exact61.core import (
    DRAW,
    PASS,
    TARGET_RAW,
    Action,
    BlockEvent,
    DominoEvent,
    Event,
    Match,
    Play,
    PlayEvent,
    Tile,
)
from exact61.core.engine import class_of
from exact61.i18n import N_
from exact61.learn.documents import place_options, placed_words, points_label
from exact61.learn.lesson import (
    DRAWING,
    ENDS,
    EXACT,
    Kind,
    Option,
    Points,
    Question,
    Said,
    Step,
    as_is,
    say,
)
from exact61.learn.positions import OTHER, YOU, Setup, scene_of


def credit_words(raw: int) -> Said:
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


def exact_steps(setup: Setup) -> list[Step]:
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
        label = Said("{move}: {credit}", (("move", action), ("credit", credit_words(credit))))
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


def drawing_steps(drawing: Setup, passing: Setup) -> list[Step]:
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
            place_options(layout, pending, fits),
            pending,
        ),
        scene_of(placed_match),
        (
            *placed_words(layout, pending, fits[0], fits)[:1],
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


def domino_steps(setup: Setup) -> list[Step]:
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
            place_options(layout, tile, fits),
            tile,
        ),
        placed,
        (
            *placed_words(layout, tile, action.at, fits)[:1],  # type: ignore[arg-type]
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
                    label=points_label(raw),
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
