"""What a player reads, in their language: log lines, settlements, scores, rule references (the
layout and a recorded position described in words are `layout_words`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from exact61 import i18n
from exact61.analysis.report import side_text
from exact61.bots import LEVELS, bot_of
from exact61.core import (
    AttachPoint,
    BlockEvent,
    DominoEvent,
    Event,
    Match,
    Play,
    PlayEvent,
    RoundLog,
    Tile,
    TileEnd,
    display,
    round5,
    side_count,
    side_of,
)
from exact61.core.layout import Layout
from exact61.core.settlement import block_credits, opponents_of, partner_of, seats_of, tally_marks
from exact61.i18n import N_, _, ngettext
from exact61.render.geometry import tile_names
from exact61.table import HUMAN, Update

# Each rule in a few words, for messages that cite it; the full texts are `exact61 rules`.
RULES = {
    "R1": N_("one double-six set of 28 tiles"),
    "R2": N_("2 to 4 players; at 4, partners sit opposite"),
    "R3": N_("5 raw points are 1 display point; the target is exactly 61 = 305 raw"),
    "R4": N_("a credit that would pass 61 is rejected whole"),
    "R5": N_("five tiles each; the rest form the boneyard"),
    "R6": N_("the first opener is chosen by a neutral lot"),
    "R7": N_("the opener may play any tile"),
    "R8": N_("whoever made domino opens the next round"),
    "R9": N_("a half must match a free attach point"),
    "R10": N_(
        "you must place when you can; draw only when you cannot; a playable drawn tile "
        "is placed at once"
    ),
    "R11": N_("the round is blocked when the boneyard is empty and nobody can place"),
    "R12": N_("every double is a spinner"),
    "R13": N_("a spinner's side arms open only after both its line sides are joined"),
    "R14": N_("free ends score their pips; an end double counts both halves"),
    "R15": N_("the ends must add up to a multiple of 5 to score"),
    "R16": N_("each placement's credit is its own scoring event"),
    "R17": N_("rounding to 5: remainders 1 and 2 go down, 3 and 4 go up"),
    "R18": N_("placing your last tile makes domino"),
    "R19": N_("domino: opponents' pips, minus the partner's, in one event"),
    "R20": N_("a blocked round ranks every hand by its pips"),
    "R21": N_("a lighter hand scores its differences to heavier opponents' hands"),
    "R22": N_("each hand's credit is its own event, lightest first"),
    "R23": N_("the lightest single hand wins a blocked round"),
    "R30": N_("the match is over"),
    "R31": N_("paper tally: a stroke is 1 point, a big X with four small x is 10"),
}

# Bots by level, for people: `ismcts:20` is the medium one (docs/bots.md).
LEVEL_OF = {bot: level for level, bot in LEVELS.items()}
LEVEL_WORDS = {
    "beginner": N_("beginner"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}


def rule_text(rule: str) -> str:
    """`R13: a spinner's side arms open only ...` in the current language."""
    words = RULES.get(rule)
    return f"{rule}: {_(words)}" if words else rule


# ---- who -------------------------------------------------------------------------------------


def seat_name(seat: int) -> str:
    return _("Seat {seat}").format(seat=seat)


def who(seat: int, you: int | None) -> str:
    """`You` for the person at the terminal, else `Seat 2`."""
    return _("You") if seat == you else seat_name(seat)


def bot_name(spec: str) -> str:
    """`greedy`, `ismcts:500`: the bot a seat is played by, as `exact61 play --seats` names it."""
    name, _colon, budget = spec.partition(":")
    bot = bot_of(name)
    return f"{bot}:{budget}" if budget else bot


def bot_label(spec: str) -> str:
    """`easy (ismcts:6)`: a bot's level in words, then the bot that plays it (left out where the
    two read the same: `expert`), as the web page names them; a bot of no level by its name."""
    name = bot_name(spec)
    level = LEVEL_OF.get(name)
    if not level:
        return name
    words = _(LEVEL_WORDS[level])
    return words if words == name else f"{words} ({name})"


def seats_line(seats: Sequence[str], you: int | None) -> str:
    """Who sits where: `You: seat 0. Seat 1: greedy (easy).`"""
    parts = []
    for seat, spec in enumerate(seats):
        if seat == you:
            parts.append(_("You: seat {seat}").format(seat=seat))
        elif spec == HUMAN:
            parts.append(_("{seat}: a person").format(seat=seat_name(seat)))
        else:
            parts.append(f"{seat_name(seat)}: {bot_label(spec)}")
    line = ". ".join(parts) + "."
    if len(seats) == 4:
        line += " " + _("Seats 0 and 2 play against seats 1 and 3.")
    return line


def bot_words(spec: str) -> str:
    """A bot in words: its level in the player's language (`medium`), else its name
    (`ismcts:500`), as the web page says it."""
    name = bot_name(spec)
    level = LEVEL_OF.get(name)
    return _(LEVEL_WORDS[level]) if level else name


def seat_title(seat: int, spec: str, you: int | None) -> str:
    """`You`, `Seat 2` (a person) or `Seat 1 (medium)`: who plays a seat."""
    if seat == you:
        return _("You")
    if spec == HUMAN:
        return seat_name(seat)
    return f"{seat_name(seat)} ({bot_words(spec)})"


def short_seat(seat: int) -> str:
    """`S1`: a seat in a few letters, where a narrow screen has no room for `Seat 1`."""
    return _("S{seat}").format(seat=seat)


def others_line(
    seats: Sequence[str],
    hand_sizes: Sequence[int],
    viewer: int | None,
    boneyard: int,
    short: bool = False,
    *,
    bots: bool = True,
    counts: bool = False,
    grouped: bool = False,
) -> str:
    """`Others: Seat 1 (greedy): 3 tiles. Boneyard: 12 tiles.` (the viewer left out); without
    `bots`, `Seat 1: 3 tiles`, for a line where the bots' names do not fit; `counts`, the
    seats still in words: `Tiles: Seat 1: 3. Boneyard: 12.`; `grouped`, the seats named once:
    `Tiles of seats 1, 2, 3: 3, 5, 4. Boneyard: 12.`; `short`: `Tiles: S1 3. Boneyard: 12.`,
    the last resort of a narrow screen. With no viewer (a hot seat between two people's
    turns) every seat is listed, as `In hand:`: they are nobody's others."""
    listed = [(seat, n) for seat, n in enumerate(hand_sizes) if seat != viewer]
    if grouped:
        return _("Tiles of seats {seats}: {counts}. Boneyard: {boneyard}.").format(
            seats=", ".join(str(seat) for seat, _n in listed),
            counts=", ".join(str(n) for _seat, n in listed),
            boneyard=boneyard,
        )
    if short or counts:
        each = ", ".join(
            f"{short_seat(seat)} {n}" if short else f"{seat_name(seat)}: {n}" for seat, n in listed
        )
        return _("Tiles: {others}. Boneyard: {boneyard}.").format(others=each, boneyard=boneyard)
    others = ", ".join(
        f"{seat_title(seat, seats[seat], None) if bots else seat_name(seat)}: {tiles_left(n)}"
        for seat, n in listed
    )
    line = (
        _("Others: {others}. Boneyard: {boneyard}.")
        if viewer is not None
        else _("In hand: {others}. Boneyard: {boneyard}.")
    )
    return line.format(others=others, boneyard=tiles_left(boneyard))


def scoring_rule() -> str:
    """The rule the game turns on, said where a game starts (the screen's log, line by line):
    the log's `+1 (5): ends 2+3` said nothing of why a placement scored."""
    return _("A placement scores when the scored ends add up to a multiple of 5 (R15).")


def side_name(players: int, side: int) -> str:
    """`Seats 1 and 3`, `Seat 1`: a side at the start of a line."""
    match seats_of(players, side):
        case (a, b):
            return _("Seats {a} and {b}").format(a=a, b=b)
        case _:
            return _("Seat {seat}").format(seat=side)


def side_label(players: int, side: int, you: int | None) -> str:
    """A side as the scores line names it: `You`, `Your side (seats 0 and 2)`, `Seat 1`."""
    if you is None or side_of(players, you) != side:
        return side_name(players, side)
    match seats_of(players, side):
        case (a, b):
            return _("Your side (seats {a} and {b})").format(a=a, b=b)
        case _:
            return _("You")


# ---- numbers -----------------------------------------------------------------------------------


def points(raw: int) -> str:
    """Display points with raw points beside: `37 (185)` (R3)."""
    return f"{display(raw)} ({raw})"


def credit_points(credit: int, rejected: bool = False) -> str:
    """`3 (15)`: a placement's credit (R15), and `past 61 (R4)` after it when R4 would reject
    it (`SeatView.rejects`)."""
    return f"{points(credit)} {_('past 61 (R4)')}" if rejected else points(credit)


def gain(credit: int, rejected: bool = False) -> str:
    """`+3 (15)`, as the choices show a credit (`credit_points`)."""
    return f"+{credit_points(credit, rejected)}"


def pips_text(pips: int) -> str:
    return ngettext("{n} pip", "{n} pips", pips).format(n=pips)


def hand_text(hand: Sequence[Tile]) -> str:
    """A revealed hand and its pips (`[1|4] [5|5] = 15 pips`), or `no tiles left` for a hand
    played out (it read `- = 0 pips`)."""
    if not hand:
        return _("no tiles left")
    return f"{' '.join(map(str, hand))} = {pips_text(sum(t.pips for t in hand))}"


def tiles_left(count: int) -> str:
    return ngettext("{n} tile", "{n} tiles", count).format(n=count)


def tally(raw: int, compact: bool = False) -> str:
    """The paper tally (R31): a big X with four small x for 10 display points, strokes for 1;
    `compact`, for a narrow screen, without the spaces between the marks."""
    groups, strokes = tally_marks(raw)
    marks = ["⊠"] * groups + (["|" * strokes] if strokes else [])
    return ("" if compact else " ").join(marks) or "-"


def ends_sum(layout: Layout) -> str:
    values = [str(v) for _, v in layout.contributions()]
    return "+".join(values) or "0"


def scored_ends(layout: Layout) -> str:
    """`Scored ends: 6+3+6 = 15`: what each scored end adds, and the sum (R13), as the rule
    documents print it under a diagram; `Scored ends: 12` where one end counts (a lone
    double, R14), which read `12 = 12`."""
    if len(layout.contributions()) <= 1:
        return _("Scored ends: {total}").format(total=layout.end_sum)
    return _("Scored ends: {ends} = {total}").format(ends=ends_sum(layout), total=layout.end_sum)


def rejected(players: int, side: int, you: int | None) -> str:
    """Why an event was rejected (R4), naming whom it would have taken past 61."""
    if you is not None and side_of(players, you) == side:
        if players == 4:  # the partners' score, whichever of them scored
            return _("rejected: it would take your side past 61 (R4)")
        return _("rejected: it would take you past 61 (R4)")
    return _("rejected: it would take {side} past 61 (R4)").format(side=side_text(players, side))


# ---- the log -----------------------------------------------------------------------------------


def action_lines(
    players: int,
    seat: int,
    action: object,
    drawn: Tile | None,
    events: Sequence[Event],
    layout: Layout,
    you: int | None,
) -> list[str]:
    """The log line for one action; `layout` is the layout just after it, whose board names
    the tiles of a placement as it draws them (`render.geometry.tile_names`).

    A placement's credit (R15) goes on its line, with its verdict when R4 rejects it. Domino and
    block events are left to the settlement, which explains them.
    """
    mine = seat == you
    if isinstance(action, Play):
        text = placement_text(seat, action, mine, tile_names(layout))
        play_events = [e for e in events if isinstance(e, PlayEvent)]
        credit = layout.credit
        if credit and not any(isinstance(e, DominoEvent) for e in events):
            # one scored end (a lone double, R14) is named alone, as `scored_ends` names it
            line = (
                _("+{display} ({raw}): ends {ends}")
                if len(layout.contributions()) > 1
                else _("+{display} ({raw}): end {ends}")
            )
            text += ": " + line.format(display=display(credit), raw=credit, ends=ends_sum(layout))
            if play_events and not play_events[0].accepted:
                text += ", " + rejected(players, play_events[0].side, you)
        return [text]
    if drawn is not None:
        if mine:
            return [_("You draw {tile}").format(tile=drawn)]
        return [_("Seat {seat} draws a tile").format(seat=seat)]
    return [_("You pass") if mine else _("Seat {seat} passes").format(seat=seat)]


def placement_text(
    seat: int, play: Play, mine: bool, names: Mapping[Tile, str] | None = None
) -> str:
    """`Seat 2 places [0|1] at [1|1] line side B`, `You open with [3|3]` (`mine`); `names`:
    the tiles of the layout the placement made as its board draws them (`tile_names`), the
    placed tile among them. Without, each tile as `[low|high]`, as a record names it."""
    tile = tile_name(play.tile, names)
    if play.at is None:
        text = _("You open with {tile}") if mine else _("Seat {seat} opens with {tile}")
        return text.format(seat=seat, tile=tile)
    text = _("You place {tile} at {point}") if mine else _("Seat {seat} places {tile} at {point}")
    return text.format(seat=seat, tile=tile, point=point_name(play.at, names))


def describe(
    step: Update, match: Match, you: int | None, layout: Layout | None = None
) -> list[str]:
    """The log lines for one action just taken (and the match's end, if it ended it)."""
    lines = action_lines(
        match.players,
        step.seat,
        step.action,
        step.drawn,
        step.events,
        match.layout if layout is None else layout,
        you,
    )
    if match.is_over:
        lines.append(winner_line(match, you))
    return lines


def round_so_far(match: Match, you: int | None) -> list[str]:
    """The current round told from its start, as the log told it: for a resumed game or after
    a move is taken back. Draws of other seats stay hidden (R5)."""
    if not match.rounds:
        return []
    log = match.rounds[-1]
    lines = [opener_line(len(match.rounds), log.opener, you)]
    layout = Layout()
    play_events: Iterator[Event] = iter([e for e in log.events if isinstance(e, PlayEvent)])
    pending = next(play_events, None)
    for step in log.steps:
        events: list[Event] = []
        if isinstance(step.action, Play):
            layout.place(step.action.tile, step.action.at)
            if (
                layout.credit
                and isinstance(pending, PlayEvent)
                and pending.seat == step.seat
                and pending.raw == layout.credit
            ):
                events.append(pending)
                pending = next(play_events, None)
        lines += action_lines(
            match.players, step.seat, step.action, step.drawn, events, layout, you
        )
    return lines


def winner_line(match: Match, you: int | None) -> str:
    assert match.winner is not None
    if you is not None and side_of(match.players, you) == match.winner:
        if match.players == 4:  # the partners' score: either of them may have taken it there
            return _("Your side reaches exactly 61 and wins the match!")
        return _("You reach exactly 61 and win the match!")
    match seats_of(match.players, match.winner):
        case (a, b):
            return _("Seats {a} and {b} reach exactly 61 and win the match!").format(a=a, b=b)
        case _:
            return _("Seat {seat} reaches exactly 61 and wins the match!").format(seat=match.winner)


def opener_line(round_number: int, opener: int, you: int | None) -> str:
    if opener == you:
        return _("Round {n}: you open.").format(n=round_number)
    return _("Round {n}: seat {seat} opens.").format(n=round_number, seat=opener)


def action_text(action: object, names: Mapping[Tile, str] | None = None) -> str:
    """A legal placement as a choice: `[3|6] at [5|6] high end`; `names`: the layout's tiles
    as its board draws them (`render.geometry.tile_names`), the tile to place is in hand."""
    assert isinstance(action, Play)
    if action.at is None:
        return _("open with {tile}").format(tile=action.tile)
    return _("{tile} at {point}").format(tile=action.tile, point=point_name(action.at, names))


END_NAMES = {end: i18n.END_NAMES[end.value] for end in TileEnd}


def tile_name(tile: Tile, names: Mapping[Tile, str] | None = None) -> str:
    """`[6|5]`: a tile of the layout as its board draws it, from `names`
    (`render.geometry.tile_names`); a tile not on it (in hand) as `[low|high]`."""
    return (names or {}).get(tile, str(tile))


def point_name(point: object, names: Mapping[Tile, str] | None = None) -> str:
    """`[5|6] high end`: an attach point as the choices and the log name it (R13); with
    `names` (`render.geometry.tile_names`), its tile as the board draws it (`[6|5] high end`)."""
    assert isinstance(point, AttachPoint)
    return _("{tile} {end}").format(tile=tile_name(point.tile, names), end=_(END_NAMES[point.end]))


def hint_line(
    action: object,
    credit: int,
    number: int | None = None,
    names: Mapping[Tile, str] | None = None,
    rejected: bool = False,
) -> str:
    """The strongest bot's suggestion (`number`: its place in a list of choices) and the credit
    it takes now (R15), `past 61 (R4)` after it when R4 would reject it (`SeatView.rejects`);
    `names`, the layout's tiles as its board draws them (`action_text`)."""
    text = action_text(action, names)
    if number is not None:
        text = f"{number}) {text}"
    if credit:
        shown = credit_points(credit, rejected)
        return _("Hint: {action}, credit {points}").format(action=text, points=shown)
    return _("Hint: {action}, no credit").format(action=text)


# ---- the settlement ----------------------------------------------------------------------------


def settlement(log: RoundLog, players: int, you: int | None = None) -> list[str]:
    """How the round was settled (R17-R23): hands, credits and how each was formed."""
    end = log.end
    if end is None:
        return []
    lines: list[str] = []
    if end.kind == "target":
        return [_("The match ended on a placement: the round is not settled (R30).")]
    assert end.hands is not None and end.pips is not None
    for seat, hand in enumerate(end.hands):
        lines.append(f"{who(seat, you)}: {hand_text(hand)}")
    if end.kind == "domino":
        event = next(e for e in log.events if isinstance(e, DominoEvent))
        if event.seat == you:
            lines.append(_("You made domino (R18)."))
        else:
            lines.append(_("Seat {seat} made domino (R18).").format(seat=event.seat))
        lines.append(_("Last placement: {points}").format(points=points(event.play_raw)))
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
        verdict = _("applied") if event.accepted else rejected(players, event.side, you)
        lines.append(
            _("Domino event (R19): {points}, {verdict}").format(
                points=points(event.raw), verdict=verdict
            )
        )
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
            text = _("{who}: {parts} = {diff}, rounded to {raw}").format(
                who=who(line.seat, you),
                parts=parts,
                diff=line.difference,
                raw=round5(line.difference),
            )
            block_event = events.get(line.seat)
            if block_event is not None and not block_event.accepted:
                text += "; " + rejected(players, block_event.side, you)
            elif block_event is None and line.raw:
                text += "; " + _("not applied: the match was already won")
            lines.append(text)
        if end.winner is None:
            lines.append(_("Opposing sides share the lightest hand: the round is a tie (R23)."))
        else:
            lines.append(
                _("Round winner: {side} (R23).").format(side=side_label(players, end.winner, you))
            )
    return lines


def short_side_label(players: int, side: int, you: int | None) -> str:
    """A side in a few letters: `You`, `You+S2`, `S1+S3`, `S1`."""
    seats = seats_of(players, side)
    return "+".join(_("You") if seat == you else short_seat(seat) for seat in seats)


def won_mid_round(match: Match, you: int | None) -> list[str]:
    """Why a match won on a placement ended there (R30), and the hands as they were then: the
    round is not settled, but nothing is hidden any more. Empty if the match did not end so."""
    end = match.rounds[-1].end if match.rounds else None
    if end is None or end.kind != "target" or end.seat is None:
        return []
    seat = end.seat
    if seat == you:
        why = _("Your placement took your side to exactly 61 (305): the match ends at once (R30).")
    elif you is not None and partner_of(match.players, you) == seat:
        why = _(
            "The placement of your partner, {seat}, took your side to exactly 61 (305): the match "
            "ends at once (R30)."
        ).format(seat=seat_name(seat))
    else:
        why = _(
            "The placement of {seat} took its side to exactly 61 (305): the match ends at once "
            "(R30)."
        ).format(seat=seat_name(seat))
    lines = [why, _("The round ends unsettled; the hands were:")]
    for other in range(match.players):
        lines.append(f"{who(other, you)}: {hand_text(match.hand(other))}")
    return lines


def scores_line(
    match: Match, you: int | None, with_tally: bool = False, short: bool = False
) -> str:
    """`You: 15 (75)   Seat 1: 6 (30)`; `short`, for a narrow screen: `You 15 (75)  S1 6 (30)`."""
    return side_scores(match.players, match.scores, you, with_tally, short)


def side_scores(
    players: int,
    scores: Sequence[int],
    you: int | None,
    with_tally: bool = False,
    short: bool = False,
) -> str:
    """`scores_line` of raw `scores`, one a side (R3), at a table of `players`."""
    parts = []
    for side in range(side_count(players)):
        raw = scores[side]
        if short:
            text = f"{short_side_label(players, side, you)} {points(raw)}"
        else:
            text = f"{side_label(players, side, you)}: {points(raw)}"
        if with_tally:
            text += f" {tally(raw, compact=short)}"
        parts.append(text)
    return ("  " if short else "   ").join(parts)


def tally_line(match: Match, you: int | None) -> str:
    """The scores as tallies alone (R31), for the narrowest screen: `You ⊠⊠|||  S1 ⊠⊠⊠⊠⊠|`
    (a tally is the display points, marked)."""
    return "  ".join(
        f"{short_side_label(match.players, side, you)} {tally(match.scores[side], compact=True)}"
        for side in range(side_count(match.players))
    )
