"""The hint that says why: the expert's move for the seat to act, valued by the same search the
post-game analysis judges with (`analysis.analyze.judge`, the one judge), and in words what the
move scores now and what that does against the target (R4, R15, R30), whether it keeps an exact
61 in reach or keeps clear of a credit another move would lose past 61, whether it makes domino
(R18), and the chance to win the match it leaves, against the next best move and the move that
scores most now.

Every front end's hint is this one: the terminal's (full screen and line by line), the web
page's (the server's `hint` frame), and the guided match's that ends the tour (`guided`).
"""

from __future__ import annotations

from dataclasses import dataclass

from exact61.analysis.analyze import judge
from exact61.bots.expert import DEFAULT_ITERATIONS
from exact61.core import TARGET_RAW, Action, Play, SeatView, Tile
from exact61.core.engine import choices
from exact61.i18n import N_
from exact61.learn.lesson import Chance, Points, Said, say
from exact61.search.evaluate import Evaluation


@dataclass(frozen=True)
class Hint:
    """The expert's move for the seat to act (`action`), and why."""

    action: Action
    why: tuple[Said, ...]


def credit_now(view: SeatView, action: Action) -> int:
    """What `action` scores at once (R15): a placement's credit, else nothing."""
    if not isinstance(action, Play):
        return 0
    return view.layout.credit_after(action.tile, action.at)


def explain(view: SeatView, source: str = "", iterations: int = DEFAULT_ITERATIONS) -> Hint:
    """The expert's move for `view`'s seat, which is to act, and why (see the module). The
    search is seeded by `source`: the same view and source give the same hint."""
    legal = view.legal_actions
    distinct = list(choices(legal).values())
    if len(distinct) == 1:
        only = distinct[0]
        return Hint(only, (say(N_("{move} is the only move you have (R10)."), move=only),))
    evaluation = judge(view, iterations=iterations, seed=source)
    return Hint(evaluation.best.action, reasons(view, evaluation))


def finish_after(view: SeatView, action: Action) -> tuple[Tile, int] | None:
    """A tile of the hand left after `action` that could then land the side on exactly 61 at
    the next turn (if the layout stays as `action` leaves it), and the raw points it needs;
    None if there is none (R4, R30)."""
    if not isinstance(action, Play):
        return None
    score = view.scores[view.side]
    credit = credit_now(view, action)
    need = TARGET_RAW - (score + credit if score + credit <= TARGET_RAW else score)
    if need <= 0:
        return None
    after = view.layout.copy()
    after.place(action.tile, action.at)
    for tile in view.hand:
        if tile != action.tile and any(
            after.credit_after(tile, point) == need for point in after.points_for(tile)
        ):
            return tile, need
    return None


def target_reasons(view: SeatView, evaluation: Evaluation, action: Action) -> list[Said]:
    """What `action` does against the target, when it is worth saying: it keeps an exact
    finish in reach (R30), or another move would pass 61 and lose its credit (R4)."""
    why: list[Said] = []
    score = view.scores[view.side]
    if score + credit_now(view, action) > TARGET_RAW:
        return why  # the move itself passes 61: said already
    finish = finish_after(view, action)
    if finish is not None:
        tile, need = finish
        why.append(
            say(
                N_(
                    "It keeps an exact 61 in reach: {tile} could then score the {points} your "
                    "side still needs (R30)."
                ),
                tile=tile,
                points=Points(need),
            )
        )
    overshoots = [
        m.action
        for m in evaluation.moves
        if m.action != action and score + credit_now(view, m.action) > TARGET_RAW
    ]
    if overshoots:
        move = overshoots[0]
        why.append(
            say(
                N_(
                    "It does not pass 61, as {move} would: its {points} would be thrown away "
                    "whole (R4)."
                ),
                move=move,
                points=Points(credit_now(view, move)),
            )
        )
    return why


def reasons(view: SeatView, evaluation: Evaluation) -> tuple[Said, ...]:
    """Why the best move of `evaluation` (every distinct move of `view`'s seat, best first)
    is the one to play, in words."""
    best = evaluation.best
    score = view.scores[view.side]
    credit = credit_now(view, best.action)
    why = [say(N_("The expert plays {move}."), move=best.action)]
    if credit and score + credit == TARGET_RAW:
        why.append(
            say(
                N_("It scores {points}: exactly 61, the match is won (R30)."), points=Points(credit)
            )
        )
    elif credit and score + credit > TARGET_RAW:
        why.append(
            say(N_("Its {points} would pass 61 and be thrown away (R4)."), points=Points(credit))
        )
    elif credit:
        why.append(say(N_("It scores {points} now (R15)."), points=Points(credit)))
    else:
        why.append(say(N_("It scores nothing now.")))
    why += target_reasons(view, evaluation, best.action)
    if isinstance(best.action, Play) and len(view.hand) == 1:
        why.append(say(N_("It is your last tile: you make domino, and the round ends (R18).")))
    why.append(
        say(N_("It leaves your side {chance} to win the match."), chance=Chance(best.equity))
    )
    if len(evaluation.moves) > 1:
        second = evaluation.moves[1]
        why.append(
            say(
                N_("The next best, {move}, leaves {chance}."),
                move=second.action,
                chance=Chance(second.equity),
            )
        )
    richest = max(evaluation.moves, key=lambda m: credit_now(view, m.action))
    most = credit_now(view, richest.action)
    if most > credit and score + most <= TARGET_RAW:
        why.append(
            say(
                N_(
                    "{move} would score more now, {points}, but leaves only {chance}: what a move "
                    "leaves the other side counts too."
                ),
                move=richest.action,
                points=Points(most),
                chance=Chance(richest.equity),
            )
        )
    return tuple(why)
