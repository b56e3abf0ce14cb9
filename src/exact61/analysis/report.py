"""A `MatchAnalysis` written for people, in their language: each decision as a short block (where
it was, its class and what it gave away, the move played and the best move with the chance each
leaves), a table per seat, and the lines saying how decisions are classed and valued and where
the match was decided. One text for `exact61 analyze`, the terminal game (`report`, Rich) and
`--plain` (`report_lines`); the browser takes `to_json`.

Everything fits 80 columns: a block's lines are short and wrap as text, the per-seat table has
a column a seat. Rounds are counted from 1, as the game and `exact61 show --round` count them,
actions from 0, as `exact61 show --action` takes them. Moves are named as the game names them
(`[5|6] at [1|6] high end`), numbers are written as the language writes them (`7,5`, `51,7 %`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from exact61.analysis.analyze import BLUNDER, INACCURACY, MISTAKE, Decision, MatchAnalysis
from exact61.bots.expert import DEFAULT_ITERATIONS
from exact61.core import Action, Play, Tile
from exact61.core.settlement import display, seats_of
from exact61.i18n import END_NAMES, N_, _, ngettext, number, percent, quantity
from exact61.render.geometry import tile_names

STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow", "good": "", "best": ""}
LABELS = {
    "blunder": N_("blunder"),
    "mistake": N_("mistake"),
    "inaccuracy": N_("inaccuracy"),
    "good": N_("good move"),
    "best": N_("best move"),
}
INDENT, GAP = 2, 2  # a block's move lines: their indent and the space between columns


def move_text(action: Action, names: Mapping[Tile, str] | None = None) -> str:
    """`[2|5] at [5|5] line side B`: a move as the game's choices and log name it; `names`:
    the layout's tiles as its board draws them (`render.geometry.tile_names`)."""
    if isinstance(action, Play):
        if action.at is None:
            return _("{tile} to open").format(tile=action.tile)
        host = (names or {}).get(action.at.tile, str(action.at.tile))
        point = _("{tile} {end}").format(tile=host, end=_(END_NAMES[action.at.end]))
        return _("{tile} at {point}").format(tile=action.tile, point=point)
    return _("draw a tile") if str(action) == "draw" else _("pass")


def drawn(d: Decision) -> Mapping[Tile, str] | None:
    """The tiles on the layout of decision `d`, named as a board draws them (as the game named
    them when the move was made), where the decision knows its layout."""
    return None if d.layout is None else tile_names(d.layout)


def percentage_points(share: float, error: float = 0.0) -> str:
    """`7,5 percentage points` (from a share of 1: 0.075), with `± 1,2` when sampled."""
    text = quantity("{n} percentage point", "{n} percentage points", 100 * share, 1)
    if error:
        return _("{points} (± {error})").format(points=text, error=number(100 * error, 1))
    return text


def where(d: Decision) -> str:
    """`Round 2, action 5, seat 1 at 9-4`: the scores in display points (R3), the deciding
    side's first, then the others' in turn order (`scores_line` says so)."""
    sides = len(d.scores)
    ordered = [d.scores[(d.side + k) % sides] for k in range(sides)]
    return _("Round {round}, action {action}, seat {seat} at {scores}").format(
        round=d.round + 1,
        action=d.action,
        seat=d.seat,
        scores="-".join(str(display(s)) for s in ordered),
    )


def scores_line() -> str:
    return _(
        "The scores beside a decision are in display points, the deciding side's first, then "
        "the others' in turn order."
    )


def verdict(d: Decision) -> str:
    """`inaccuracy, 3,1 percentage points (± 4,7) given away`, or the class alone."""
    label = _(LABELS[d.label])
    if d.label == "best":
        return label
    return _("{label}, {points} given away").format(
        label=label, points=percentage_points(d.loss, d.loss_error)
    )


def side_text(players: int, side: int) -> str:
    """A side as the game names it: `seat 1`, or `seats 1 and 3` with partners (R2)."""
    match seats_of(players, side):
        case (a, b):
            return _("seats {a} and {b}").format(a=a, b=b)
        case _:
            return _("seat {seat}").format(seat=side)


def given_away(d: Decision) -> str:
    """`-3,1 ± 4,7`: the percentage points of chance the move played is below the best."""
    if d.label == "best":
        return ""
    text = number(-100 * d.loss, 1)
    return f"{text} ± {number(100 * d.loss_error, 1)}" if d.loss_error else text


class DecisionList:
    """Every decision as a block: where it was and its class, then the move played with the
    chance it leaves and what it gave away, and the best move when another was played. The
    columns line up from block to block, and a long move wraps at a space to keep the lines
    within the width there is."""

    def __init__(self, result: MatchAnalysis) -> None:
        self.decisions = result.decisions

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rows = []
        for d in self.decisions:
            names = drawn(d)
            played = move_text(d.played, names)
            lines = [(_("played"), played, percent(d.played_equity, 1), given_away(d))]
            if d.label != "best":
                lines.append((_("best"), move_text(d.best, names), percent(d.best_equity, 1), ""))
            rows.append((d, lines))
        cells = [line for _d, lines in rows for line in lines]
        widths = [max((cell_len(line[i]) for line in cells), default=0) for i in range(4)]
        room = options.max_width - INDENT - widths[0] - widths[2] - widths[3] - 3 * GAP
        widths[1] = max(12, min(widths[1], room))
        for d, lines in rows:
            yield Text(f"{where(d)}: {_(LABELS[d.label])}", style=STYLE[d.label] or "bold")
            grid = Table.grid(padding=(0, GAP, 0, 0))
            for i, width in enumerate(widths):
                grid.add_column(width=width, justify="left" if i < 2 else "right", no_wrap=i != 1)
            for line in lines:
                grid.add_row(*line)
            yield Padding(grid, (0, 0, 0, INDENT))


def summary_table(result: MatchAnalysis) -> Table:
    """A column a seat: its decisions by class, its accuracy, the chance it gave away in all."""
    table = Table(
        title=_("Per seat"),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("", no_wrap=True)
    for row in result.summaries:
        table.add_column(_("Seat {seat}").format(seat=row.seat), justify="right")
    summaries = result.summaries
    rows = [
        (_("decisions"), [str(s.decisions) for s in summaries]),
        (_("best moves"), [str(s.best) for s in summaries]),
        (_("inaccuracies"), [str(s.inaccuracies) for s in summaries]),
        (_("mistakes"), [str(s.mistakes) for s in summaries]),
        (_("blunders"), [str(s.blunders) for s in summaries]),
        (_("accuracy"), [percent(s.accuracy) if s.decisions else "–" for s in summaries]),
        (_("given away (percentage points)"), [number(100 * s.equity_lost, 1) for s in summaries]),
    ]
    for name, cells in rows:
        table.add_row(name, *cells)
    return table


def thresholds_line() -> str:
    return _(
        "Classes by the chance to win the match given away: inaccuracy from {inaccuracy}, "
        "mistake from {mistake}, blunder from {blunder} percentage points, each only where the "
        "loss passes it by more than two standard errors; accuracy: the share of decisions "
        "below an inaccuracy."
    ).format(
        inaccuracy=number(100 * INACCURACY),
        mistake=number(100 * MISTAKE),
        blunder=number(100 * BLUNDER),
    )


def methods_line(result: MatchAnalysis) -> str | None:
    """How the decisions were valued: solved exactly, or by the expert's search (with how many
    iterations)."""
    if not result.decisions:
        return None
    kinds = Counter(d.method for d in result.decisions)
    parts = []
    for method, n in sorted(kinds.items()):
        if method == "exact":
            how = _("exactly")
        else:
            iterations = int(result.settings.get("iterations", 0))
            how = ngettext(
                "by the expert's search of {n} iteration a decision",
                "by the expert's search of {n} iterations a decision",
                iterations,
            ).format(n=number(iterations))
        counted = ngettext("{n} decision", "{n} decisions", n).format(n=number(n))
        parts.append(f"{counted} {how}")
    return _("Valued: {parts}; ± is one standard error.").format(parts=", ".join(parts))


def judge_line(result: MatchAnalysis) -> str:
    """That the hints come from the same search as the judge's, with a smaller budget (or,
    asked for less, not a smaller one)."""
    used = int(result.settings.get("iterations", 0))
    if used > DEFAULT_ITERATIONS:
        text = _(
            "The hints (?) and the expert choose by the same search with {iterations} "
            "iterations a move: where this longer search sees a loss in a move they chose, the "
            "move is classed all the same."
        )
    else:
        text = _(
            "The hints (?) and the expert choose by the same search with {iterations} "
            "iterations a move."
        )
    return text.format(iterations=number(DEFAULT_ITERATIONS))


def partners_line(result: MatchAnalysis) -> str | None:
    """Who plays with whom, at 4 players (R2): a line of its own, as wide as the report, not
    the table's caption, which would wrap to the table's width."""
    if result.players != 4:
        return None
    return _("Seats 0 and 2 play against seats 1 and 3.")


def legend_line() -> str:
    return _(
        "Beside each move: the deciding side's chance to win the match after it, and for the "
        "move played what it gave away against the best, in percentage points (± one standard "
        "error)."
    )


def decided_line(result: MatchAnalysis) -> str | None:
    """Where the winner became the favourite for good (None while the match goes on)."""
    turn = result.decided
    if turn is None or result.winner is None:
        return None
    side = side_text(result.players, result.winner)
    after = percent(turn.after)
    if turn.round == 0 and turn.action is None:
        return _("Decided from the first deal: favourite throughout, {side} ({after}).").format(
            side=side, after=after
        )
    if turn.action is None:
        place = _("round {round}").format(round=turn.round + 1)
    else:
        place = _("round {round}, action {action}").format(round=turn.round + 1, action=turn.action)
    if turn.cause == "move":
        why = _("by the move of seat {seat}").format(seat=turn.seat)
    elif turn.action is None and turn.cause == "between":  # so did the other seats before it
        why = _("by the deal or the other seats' moves before it")
    elif turn.action is None:
        why = _("by the deal")
    elif turn.cause == "between":  # the seats not analysed moved meanwhile
        why = _("by the tiles dealt and drawn or the other seats' moves before it")
    else:
        why = _("by the tiles dealt and drawn before it, not by a move")
    digits = 0  # as many decimals as show the change: never `from 50% to 50%`
    while digits < 2 and percent(turn.before, digits) == percent(turn.after, digits):
        digits += 1
    return _(
        "Decided: {where} ({why}); the favourite from then on: {side}, from {before} to {after}."
    ).format(
        where=place,
        why=why,
        side=side,
        before=percent(turn.before, digits),
        after=percent(turn.after, digits),
    )


def title_line(result: MatchAnalysis) -> str:
    players = ngettext("{n} player", "{n} players", result.players).format(n=result.players)
    if result.winner is None:
        return _("Match {n}: {players}, not finished").format(n=result.match, players=players)
    return _("Match {n}: {players}; won by {side}").format(
        n=result.match, players=players, side=side_text(result.players, result.winner)
    )


def report(result: MatchAnalysis, title: str | None = None) -> Group:
    """The whole analysis, ready for `Console.print` or a Textual `Static`."""
    parts: list[RenderableType] = []
    if title:
        parts.append(Text(title, style="bold"))
    if result.decisions:  # what `44.2%  -2.1 ± 1.2` and `at 7-22` mean, before they are met
        parts += [Text(legend_line()), Text(scores_line()), Text("")]
        parts.append(DecisionList(result))
    elif result.moves:
        parts.append(Text(_("No decisions: every move was the only one.")))
    else:
        parts.append(Text(_("No moves yet: nothing to judge.")))
    parts.append(summary_table(result))
    lines = (partners_line(result), thresholds_line())
    for line in (*lines, methods_line(result), judge_line(result), decided_line(result)):
        if line is not None:
            parts.append(Text(line))
    return Group(*parts)


def report_lines(result: MatchAnalysis) -> list[str]:
    """The analysis as lines of text, for `--plain` (a screen reader, a pipe): the decisions
    that gave something away, one a line, then each seat's summary, then where it was decided."""
    lines = []
    costly = [d for d in result.decisions if d.label in ("inaccuracy", "mistake", "blunder")]
    threshold = quantity(
        "{n} percentage point", "{n} percentage points", 100 * INACCURACY
    )  # a whole number
    if costly:
        lines.append(_("Decisions that gave away {points} or more:").format(points=threshold))
    elif not result.decisions and not result.moves:
        lines.append(_("No moves yet: nothing to judge."))
    else:
        lines.append(_("No decision gave away {points} or more.").format(points=threshold))
    for d in costly:
        names = drawn(d)
        lines.append(
            _(
                "{where}: played {played}, chance {chance}; best {best}, chance {best_chance}; "
                "{verdict}."
            ).format(
                where=where(d),
                played=move_text(d.played, names),
                chance=percent(d.played_equity, 1),
                best=move_text(d.best, names),
                best_chance=percent(d.best_equity, 1),
                verdict=verdict(d),
            )
        )
    for row in result.summaries:
        counts = [
            ngettext("{n} decision", "{n} decisions", row.decisions),
            ngettext("{n} best move", "{n} best moves", row.best),
            ngettext("{n} inaccuracy", "{n} inaccuracies", row.inaccuracies),
            ngettext("{n} mistake", "{n} mistakes", row.mistakes),
            ngettext("{n} blunder", "{n} blunders", row.blunders),
        ]
        numbers = (row.decisions, row.best, row.inaccuracies, row.mistakes, row.blunders)
        lines.append(
            _("Seat {seat}: {counts}; accuracy {accuracy}, {points} given away in all.").format(
                seat=row.seat,
                counts=", ".join(c.format(n=n) for c, n in zip(counts, numbers, strict=True)),
                accuracy=percent(row.accuracy),
                points=percentage_points(row.equity_lost),
            )
        )
    partners = partners_line(result)
    if partners is not None:
        lines.append(partners)
    if costly:
        lines.append(scores_line())
    for line in (thresholds_line(), methods_line(result), judge_line(result), decided_line(result)):
        if line is not None:
            lines.append(line)
    return lines
