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
from exact61.core import TARGET_RAW, Action, Layout, Play, SeatView, Tile
from exact61.core.engine import choices
from exact61.core.settlement import kept, lands
from exact61.i18n import N_
from exact61.learn.lesson import Chance, Points, Said, on_board, say
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
    if len(distinct) == 1:  # nothing to compare: one move, or places that play alike
        only = distinct[0]
        if len(legal) == 1:
            first = say(N_("{move} is the only move you have (R10)."), move=only)
        else:
            first = say(N_("Every move you have plays the same as {move}."), move=only)
        return Hint(only, (first, *scoring(view, only)))
    evaluation = judge(view, iterations=iterations, seed=source)
    return Hint(evaluation.best.action, reasons(view, evaluation))


def texts(hint: Hint, layout: Layout) -> list[str]:
    """The hint's reasons in the language in use, `layout`'s tiles named as its board draws
    them (`lesson.on_board`): what every front end shows."""
    return [on_board(said, layout).text() for said in hint.why]


def makes_domino(view: SeatView, action: Action) -> bool:
    """Whether `action` places the seat's last tile (R18)."""
    return isinstance(action, Play) and len(view.hand) == 1


def scoring(view: SeatView, action: Action) -> list[Said]:
    """What `action` scores, in words: its credit now and what that does against the target
    (R4, R15, R30); for the last tile, the domino it makes, whose award counts the others'
    pips too (R18, R19). Nothing for a draw or a pass."""
    if not isinstance(action, Play):
        return []
    if makes_domino(view, action):
        award = (
            N_(
                "The domino event credits your side this placement and the pips left in the "
                "other side's hands, less your partner's, as one award: all of it, or nothing "
                "if it would pass 61 (R19)."
            )
            if view.players == 4
            else N_(
                "The domino event credits your side this placement and the pips left in the "
                "others' hands, as one award: all of it, or nothing if it would pass 61 (R19)."
            )
        )
        return [
            say(N_("It is your last tile: you make domino, and the round ends (R18).")),
            say(award),
        ]
    score = view.scores[view.side]
    credit = credit_now(view, action)
    if credit and lands(score, credit):
        return [
            say(
                N_("It scores {points}: exactly 61, the match is won (R30)."), points=Points(credit)
            )
        ]
    if view.rejects(credit):
        return [
            say(N_("Its {points} would pass 61 and be thrown away (R4)."), points=Points(credit)),
            say(N_("It is played for the position it leaves, not for points.")),
        ]
    if credit:
        return [say(N_("It scores {points} now (R15)."), points=Points(credit))]
    return [say(N_("It scores nothing now."))]


def finish_after(view: SeatView, action: Action) -> tuple[Tile, int] | None:
    """A tile of the hand left after `action` that could then land the side on exactly 61 at
    the next turn (if the layout stays as `action` leaves it), and the raw points it needs;
    None if there is none (R4, R30)."""
    if not isinstance(action, Play):
        return None
    score = view.scores[view.side]
    credit = credit_now(view, action)
    need = TARGET_RAW - (score + kept(score, credit))
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
    if view.rejects(credit_now(view, action)):
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
        if m.action != action and view.rejects(credit_now(view, m.action))
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
    is the one to play, in words. The chances are whole percents, or tenths where two named
    would otherwise read alike."""
    best = evaluation.best
    credit = credit_now(view, best.action)
    domino = makes_domino(view, best.action)
    why = [say(N_("The expert plays {move}."), move=best.action), *scoring(view, best.action)]
    if not domino:  # a domino's award is the round's end, not a credit against the target
        why += target_reasons(view, evaluation, best.action)
    second = evaluation.moves[1] if len(evaluation.moves) > 1 else None
    richest = max(evaluation.moves, key=lambda m: credit_now(view, m.action))
    most = credit_now(view, richest.action)
    richer = not domino and most > credit and not view.rejects(most)
    named = [m.equity for m in (second, richest if richer else None) if m is not None]
    digits = 1 if any(round(100 * e) == round(100 * best.equity) for e in named) else 0
    why.append(
        say(
            N_("It leaves your side a {chance} chance to win the match."),
            chance=Chance(best.equity, digits),
        )
    )
    if second is not None and not (richer and richest.action == second.action):
        why.append(
            say(
                N_("The next best, {move}, leaves {chance}."),
                move=second.action,
                chance=Chance(second.equity, digits),
            )
        )
    if richer:
        why.append(
            say(
                N_(
                    "{move} would score more now, {points}, but leaves only {chance}: what a move "
                    "leaves the other side counts too."
                ),
                move=richest.action,
                points=Points(most),
                chance=Chance(richest.equity, digits),
            )
        )
    return tuple(why)
