"""What a player reads, in their language: log lines, settlements, scores, rule references."""

from __future__ import annotations

from exact61.core import (
    BlockEvent,
    DominoEvent,
    Match,
    Play,
    RoundLog,
    display,
    round5,
    side_count,
    side_of,
)
from exact61.core.layout import Layout
from exact61.core.settlement import block_credits, opponents_of, partner_of, tally_marks
from exact61.i18n import _, ngettext
from exact61.play.session import Step


def N_(message: str) -> str:  # gettext convention: mark now, translate later
    return message


RULES = {
    "R1": N_("one double-six set of 28 tiles"),
    "R2": N_("2 to 4 players; at 4, partners sit opposite"),
    "R4": N_("a credit that would pass 61 is rejected whole"),
    "R5": N_("five tiles each; the rest form the boneyard"),
    "R7": N_("the opener may play any tile"),
    "R8": N_("whoever made domino opens the next round"),
    "R9": N_("a half must match a free attach point"),
    "R10": N_(
        "you must place when you can; draw only when you cannot; a playable drawn tile "
        "is placed at once"
    ),
    "R11": N_("the round is blocked when the boneyard is empty and nobody can place"),
    "R13": N_("a spinner's side arms open only after both its line sides are joined"),
    "R15": N_("the ends must add up to a multiple of 5 to score"),
    "R19": N_("domino: opponents' pips, minus the partner's, in one event"),
    "R30": N_("the match is over"),
}


def rule_text(rule: str) -> str:
    """`R13: a spinner's side arms open only ...` in the current language."""
    words = RULES.get(rule)
    return f"{rule}: {_(words)}" if words else rule


def seat_name(seat: int) -> str:
    return _("Seat {seat}").format(seat=seat)


def side_name(players: int, side: int) -> str:
    if players == 4:
        return _("Seats {a} and {b}").format(a=side, b=side + 2)
    return _("Seat {seat}").format(seat=side)


def points(raw: int) -> str:
    """Display points with raw points beside: `37 (185)` (R3)."""
    return f"{display(raw)} ({raw})"


def tally(raw: int) -> str:
    """The paper tally (R31): a big X with four small x for 10 display points, strokes for 1."""
    groups, strokes = tally_marks(raw)
    marks = ["⊠"] * groups + (["|" * strokes] if strokes else [])
    return " ".join(marks) or "-"


def ends_sum(layout: Layout) -> str:
    values = [str(v) for _, v in layout.contributions()]
    return "+".join(values) or "0"


def describe(step: Step, match: Match, you: int | None, layout: Layout) -> list[str]:
    """The log lines for one action and the events it caused."""
    mine = step.seat == you
    seat = step.seat
    lines: list[str] = []
    action = step.action
    if isinstance(action, Play):
        if action.at is None:
            text = _("You open with {tile}") if mine else _("Seat {seat} opens with {tile}")
            text = text.format(seat=seat, tile=action.tile)
        else:
            text = (
                _("You place {tile} at {point}")
                if mine
                else _("Seat {seat} places {tile} at {point}")
            )
            text = text.format(seat=seat, tile=action.tile, point=point_name(action.at))
        credit = layout.credit
        if credit and not any(isinstance(e, DominoEvent) for e in step.events):
            text += ": " + _("+{display} ({raw}): ends {ends}").format(
                display=display(credit), raw=credit, ends=ends_sum(layout)
            )
        lines.append(text)
    elif step.drawn is not None:
        if mine:
            lines.append(_("You draw {tile}").format(tile=step.drawn))
        else:
            lines.append(_("Seat {seat} draws a tile").format(seat=seat))
    else:
        lines.append(_("You pass") if mine else _("Seat {seat} passes").format(seat=seat))
    for event in step.events:
        if not event.accepted:
            lines.append(
                _("credit of {display} rejected: would pass 61").format(display=display(event.raw))
            )
    if match.is_over:
        assert match.winner is not None
        lines.append(winner_line(match, you))
    return lines


def winner_line(match: Match, you: int | None) -> str:
    assert match.winner is not None
    if you is not None and side_of(match.players, you) == match.winner:
        return _("You reach exactly 61 and win the match!")
    side = match.winner
    if match.players == 4:
        return _("Seats {a} and {b} reach exactly 61 and win the match!").format(a=side, b=side + 2)
    return _("Seat {seat} reaches exactly 61 and wins the match!").format(seat=side)


def opener_line(round_number: int, opener: int, you: int | None) -> str:
    if opener == you:
        return _("Round {n}: you open.").format(n=round_number)
    return _("Round {n}: seat {seat} opens.").format(n=round_number, seat=opener)


def action_text(action: object) -> str:
    """A legal placement as a choice: `[3|6] at [5|6] high end`."""
    assert isinstance(action, Play)
    if action.at is None:
        return _("open with {tile}").format(tile=action.tile)
    return _("{tile} at {point}").format(tile=action.tile, point=point_name(action.at))


def point_name(point: object) -> str:
    from exact61.core import AttachPoint, TileEnd

    assert isinstance(point, AttachPoint)
    names = {
        TileEnd.LOW: N_("low end"),
        TileEnd.HIGH: N_("high end"),
        TileEnd.LINE_A: N_("line side A"),
        TileEnd.LINE_B: N_("line side B"),
        TileEnd.ARM_A: N_("side arm A"),
        TileEnd.ARM_B: N_("side arm B"),
    }
    return f"{point.tile} {_(names[point.end])}"


def settlement(log: RoundLog, players: int) -> list[str]:
    """How the round was settled (R17-R23): hands, credits and how each was formed."""
    end = log.end
    if end is None:
        return []
    lines: list[str] = []
    if end.kind == "target":
        return [_("The match ended on a placement: the round is not settled (R30).")]
    assert end.hands is not None and end.pips is not None
    for seat, (hand, pips) in enumerate(zip(end.hands, end.pips, strict=True)):
        tiles = " ".join(map(str, hand)) or "-"
        lines.append(
            _("Seat {seat}: {tiles} = {pips} pips").format(seat=seat, tiles=tiles, pips=pips)
        )
    if end.kind == "domino":
        event = next(e for e in log.events if isinstance(e, DominoEvent))
        lines.append(_("Seat {seat} made domino (R18).").format(seat=event.seat))
        lines.append(_("Last placement: {raw} raw").format(raw=event.play_raw))
        lines.append(
            _("Opponents' pips {pips}, rounded to {raw} (R17)").format(
                pips=event.opponents_pips, raw=event.opponents_raw
            )
        )
        if partner_of(players, event.seat) is not None:
            lines.append(
                _("Partner's pips {pips}, rounded on their own to {raw}, deducted (R19)").format(
                    pips=event.partner_pips, raw=event.partner_raw
                )
            )
        verdict = _("applied") if event.accepted else _("rejected: would pass 61")
        lines.append(_("Domino event: {net} raw, {verdict}").format(net=event.raw, verdict=verdict))
    else:
        lines.append(_("The round is blocked (R11): lighter hands score the differences."))
        events = {e.seat: e for e in log.events if isinstance(e, BlockEvent)}
        for line in block_credits(players, log.opener, end.pips):
            heavier = [
                end.pips[o] for o in opponents_of(players, line.seat) if end.pips[o] > line.pips
            ]
            if not heavier:
                continue
            parts = " + ".join(f"({o} - {line.pips})" for o in heavier)
            text = _("Seat {seat}: {parts} = {diff}, rounded to {raw}").format(
                seat=line.seat, parts=parts, diff=line.difference, raw=round5(line.difference)
            )
            block_event = events.get(line.seat)
            if block_event is not None and not block_event.accepted:
                text += "; " + _("rejected: would pass 61")
            elif block_event is None and line.raw:
                text += "; " + _("not applied: the match was already won")
            lines.append(text)
        if end.winner is None:
            lines.append(_("Opposing sides share the lightest hand: the round is a tie (R23)."))
        else:
            if players == 4:
                lines.append(
                    _("Seats {a} and {b} win the round (R23).").format(
                        a=end.winner, b=end.winner + 2
                    )
                )
            else:
                lines.append(_("Seat {seat} wins the round (R23).").format(seat=end.winner))
    return lines


def scores_line(match: Match, you: int | None, with_tally: bool = False) -> str:
    parts = []
    for side in range(side_count(match.players)):
        raw = match.scores[side]
        mine = you is not None and side_of(match.players, you) == side
        name = _("You") if mine and match.players != 4 else side_name(match.players, side)
        if mine and match.players == 4:
            name = _("Your side") + f" ({name})"
        text = f"{name}: {points(raw)}"
        if with_tally:
            text += f" {tally(raw)}"
        parts.append(text)
    return "   ".join(parts)


def tiles_left(count: int) -> str:
    return ngettext("{n} tile", "{n} tiles", count).format(n=count)
