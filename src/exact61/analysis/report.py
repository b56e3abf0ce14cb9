"""A `MatchAnalysis` drawn for people: Rich tables of the decisions and of each seat, and the
lines saying how decisions are classed and where the match was decided. One drawing for
`exact61 analyze`, the terminal game and `--plain` (the browser takes `to_json`)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from exact61.analysis.analyze import BLUNDER, INACCURACY, MISTAKE, Decision, MatchAnalysis
from exact61.core import Action, Play
from exact61.i18n import _, ngettext


def N_(message: str) -> str:  # gettext convention: mark now, translate later
    return message


STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow", "good": "", "best": ""}
LABELS = {
    "blunder": N_("blunder"),
    "mistake": N_("mistake"),
    "inaccuracy": N_("inaccuracy"),
    "good": N_("good"),
    "best": N_("best"),
}
METHODS = {"exact": N_("exact"), "estimate": N_("estimate")}


def short(action: Action) -> str:
    """`[2|5] at [5|5] lineA`: the tile and its attach point, as the record names them."""
    if isinstance(action, Play):
        if action.at is None:
            return _("{tile} opens").format(tile=action.tile)
        return _("{tile} at {at} {end}").format(
            tile=action.tile, at=action.at.tile, end=action.at.end.value
        )
    return str(action)


def _cells(d: Decision, first_round: int) -> dict[str, str]:
    """A decision's fields as both the table and the lines show them."""
    return {
        "round": str(d.round + first_round),
        "action": str(d.action),
        "seat": str(d.seat),
        "scores": "-".join(str(s // 5) for s in d.scores),  # display points (R3)
        "played": short(d.played),
        "best": short(d.best),
        "equity": f"{100 * d.played_equity:.1f}%",
        "best_equity": f"{100 * d.best_equity:.1f}%",
        "lost": f"{100 * d.loss:.1f}",
        "label": _(LABELS[d.label]),
    }


def decisions_table(result: MatchAnalysis, title: str | None = None, first_round: int = 0) -> Table:
    """Every decision: the move played, the best move (blank when it was played), the match
    equity each gives, what was given away and its class. Rounds are counted from
    `first_round`: 0 as the record indexes them (`exact61 show --round`), 1 as the game
    shows them."""
    table = Table(title=title)
    for column, justify in (
        (_("round"), "right"),
        (_("action"), "right"),
        (_("seat"), "right"),
        (_("scores"), "right"),
        (_("played"), "left"),
        (_("best"), "left"),
        (_("equity"), "right"),
        (_("best equity"), "right"),
        (_("lost"), "right"),
        (_("class"), "left"),
        (_("how"), "left"),
    ):
        # a move on one line: `[2|4] at [4|4] lineB` read apart is no move at all
        wide = column in (_("played"), _("best"))
        table.add_column(column, justify=justify, no_wrap=wide)  # type: ignore[arg-type]
    for d in result.decisions:
        if d.method == "sampled":
            how = ngettext("{n} deal", "{n} deals", d.deals).format(n=d.deals)
        else:
            how = _(METHODS.get(d.method, d.method))
        cell = _cells(d, first_round)
        table.add_row(
            cell["round"],
            cell["action"],
            cell["seat"],
            cell["scores"],
            cell["played"],
            "" if d.label == "best" else cell["best"],
            cell["equity"],
            cell["best_equity"],
            cell["lost"] + (f"±{100 * d.loss_error:.1f}" if d.loss_error else ""),
            cell["label"],
            how,
            style=STYLE[d.label],
        )
    return table


def summary_table(result: MatchAnalysis) -> Table:
    """Per seat: decisions by class, accuracy and the equity given away in all."""
    table = Table(title=_("Per seat (equity in points of match-winning chance)"))
    for column in (
        _("seat"),
        _("side"),
        _("decisions"),
        _("best"),
        _("inaccuracies"),
        _("mistakes"),
        _("blunders"),
        _("accuracy"),
        _("equity lost"),
    ):
        table.add_column(column, justify="right")
    for row in result.summaries:
        table.add_row(
            str(row.seat),
            str(row.side),
            str(row.decisions),
            str(row.best),
            str(row.inaccuracies),
            str(row.mistakes),
            str(row.blunders),
            f"{100 * row.accuracy:.0f}%",
            f"{100 * row.equity_lost:.1f}",
        )
    return table


def thresholds_line() -> str:
    return _(
        "Thresholds: inaccuracy {inaccuracy}, mistake {mistake}, blunder {blunder} points of "
        "match-winning chance given away; accuracy: decisions giving away less than {inaccuracy}."
    ).format(
        inaccuracy=f"{100 * INACCURACY:.0f}",
        mistake=f"{100 * MISTAKE:.0f}",
        blunder=f"{100 * BLUNDER:.0f}",
    )


def decided_line(result: MatchAnalysis, first_round: int = 0) -> str | None:
    """Where the winner became the favourite for good (None while the match goes on)."""
    turn = result.decided
    if turn is None or result.winner is None:
        return None
    side, after = result.winner, f"{100 * turn.after:.0f}%"
    shown = turn.round + first_round
    if turn.round == 0 and turn.action is None:
        return _(
            "Decided: from the first deal, side {side} was the favourite ({after}) and stayed so."
        ).format(side=side, after=after)
    if turn.action is None:
        where = _("round {round}").format(round=shown)
    else:
        where = _("round {round}, action {action}").format(round=shown, action=turn.action)
    if turn.cause == "move":
        why = _("seat {seat}'s move").format(seat=turn.seat)
    elif turn.action is None:
        why = _("the deal")
    else:
        why = _("the deal and the draws before this decision")
    return _(
        "Decided: {where} ({why}): side {side} went from {before} to {after} and stayed the "
        "favourite."
    ).format(where=where, why=why, side=side, before=f"{100 * turn.before:.0f}%", after=after)


def report(result: MatchAnalysis, title: str | None = None, first_round: int = 0) -> Group:
    """The whole analysis, ready for `Console.print` or a Textual `Static`."""
    parts: list[Table | Text] = [
        decisions_table(result, title, first_round),
        summary_table(result),
        Text(thresholds_line()),
    ]
    decided = decided_line(result, first_round)
    if decided is not None:
        parts.append(Text(decided))
    return Group(*parts)


def report_lines(result: MatchAnalysis, first_round: int = 1) -> list[str]:
    """The analysis as lines of text, for `--plain` (a screen reader, a pipe): the decisions
    that gave something away, one a line, then each seat's summary, then where it was decided."""
    lines = []
    costly = [d for d in result.decisions if d.label in ("inaccuracy", "mistake", "blunder")]
    if costly:
        lines.append(
            _("Decisions that gave away {inaccuracy} points or more:").format(
                inaccuracy=f"{100 * INACCURACY:.0f}"
            )
        )
    else:
        lines.append(
            _("No decision gave away {inaccuracy} points or more.").format(
                inaccuracy=f"{100 * INACCURACY:.0f}"
            )
        )
    for d in costly:
        lines.append(
            _(
                "Round {round}, action {action}, seat {seat} at {scores}: played {played} "
                "({equity}), best {best} ({best_equity}): {label}, {lost} points given away."
            ).format(**_cells(d, first_round))
        )
    for row in result.summaries:
        lines.append(
            _(
                "Seat {seat}: {decisions} decisions, {best} best, {inaccuracies} inaccuracies, "
                "{mistakes} mistakes, {blunders} blunders; accuracy {accuracy}, {lost} points "
                "given away in all."
            ).format(
                seat=row.seat,
                decisions=row.decisions,
                best=row.best,
                inaccuracies=row.inaccuracies,
                mistakes=row.mistakes,
                blunders=row.blunders,
                accuracy=f"{100 * row.accuracy:.0f}%",
                lost=f"{100 * row.equity_lost:.1f}",
            )
        )
    lines.append(thresholds_line())
    decided = decided_line(result, first_round)
    if decided is not None:
        lines.append(decided)
    return lines
