"""The layout and a recorded position in the player's words: the layout's shape in sentences,
for `--plain` and screen readers (R12-R14), and a recorded position's facts as the rule
documents list them, for `exact61 show`. The phrases they share are `words`'."""

from __future__ import annotations

from collections.abc import Sequence

from exact61.core import AttachPoint, Match, Play, Tile, TileEnd, free_end
from exact61.core.layout import Layout
from exact61.i18n import _, ngettext
from exact61.render.geometry import drawing, tile_names
from exact61.terminal.words import (
    END_NAMES,
    hand_text,
    placement_text,
    point_name,
    points,
    scored_ends,
    scores_line,
    seat_name,
    tiles_left,
    winner_line,
)

# ---- the layout in words (R12-R14), for screen readers ---------------------------------------


def layout_structure(layout: Layout) -> list[str]:
    """The layout's shape in sentences: the line of play with its open ends, then each spinner's
    side arms (R12, R13), each with the value its open end accepts. Each tile is named as the
    board draws it (`render.geometry.tile_names`), and a chain is read as the board shows it:
    the line of play left to right, an arm from its spinner outward, except an arm drawn
    running to the left, which reads left to right as the line does."""
    placements = layout.placements()
    if not placements:
        return [_("The table is empty: the opener may play any tile (R7).")]
    attached = {host: joined for host, joined in layout.joins()}
    names = tile_names(layout)
    boxes = {t.tile: t.box for t in drawing(layout).tiles}

    def runs_left(spinner: Tile, tiles: Sequence[Tile]) -> bool:
        """Whether the board draws the arm of `spinner` whose tiles are `tiles` (from it
        outwards) running to the left: an arm of a spinner lying across its chain (standing
        on an arm) runs left or right, whichever way the board lays it out."""
        return boxes[tiles[0]].x1 <= boxes[spinner].x0

    def chain(point: AttachPoint) -> tuple[list[Tile], list[Tile], int]:
        """The tiles from `point` outwards, in that order; the spinners met; the value the
        chain's open end accepts."""
        tiles: list[Tile] = []
        doubles: list[Tile] = []
        while point in attached:
            joined = attached[point]
            tiles.append(joined.tile)
            if joined.tile.is_double:
                doubles.append(joined.tile)
            point = free_end(joined)  # R13: where the line runs on (a double's lineB)
        return tiles, doubles, point.value

    def written(tiles: Sequence[Tile]) -> str:
        return " ".join(names[t] for t in tiles)

    first = placements[0][0]
    ends = (TileEnd.LINE_A, TileEnd.LINE_B) if first.is_double else (TileEnd.LOW, TileEnd.HIGH)
    left, left_doubles, left_open = chain(AttachPoint(first, ends[0]))
    right, right_doubles, right_open = chain(AttachPoint(first, ends[1]))
    line = [*reversed(left), first, *right]
    lines = [
        ngettext(
            "Layout of {n} tile. Line of play, left to right: {tiles}; open ends {left} (left) "
            "and {right} (right).",
            "Layout of {n} tiles. Line of play, left to right: {tiles}; open ends {left} (left) "
            "and {right} (right).",
            len(placements),
        ).format(n=len(placements), tiles=written(line), left=left_open, right=right_open)
    ]
    spinners = [*reversed(left_doubles), *([first] if first.is_double else []), *right_doubles]
    for spinner in spinners:  # grows as arms bring more spinners
        line_sides = [AttachPoint(spinner, e) for e in (TileEnd.LINE_A, TileEnd.LINE_B)]
        if any(layout.is_free(p) for p in line_sides):
            lines.append(
                _(
                    "Spinner {tile}: its side arms open once both line sides are joined (R13)."
                ).format(tile=spinner)
            )
            continue
        arms = []
        for end in (TileEnd.ARM_A, TileEnd.ARM_B):
            tiles, doubles, open_value = chain(AttachPoint(spinner, end))
            spinners += doubles
            name = _(END_NAMES[end])
            if not tiles:
                arms.append(_("{arm}: open, {value}").format(arm=name, value=open_value))
            elif runs_left(spinner, tiles):  # read as drawn, left to right
                arms.append(
                    _("{arm}, left to right: {tiles}, open end {value}").format(
                        arm=name, tiles=written(tiles[::-1]), value=open_value
                    )
                )
            else:
                arms.append(
                    _("{arm}: {tiles}, open end {value}").format(
                        arm=name, tiles=written(tiles), value=open_value
                    )
                )
        lines.append(_("Spinner {tile}: {arms}.").format(tile=spinner, arms="; ".join(arms)))
    lines.append(scored_ends(layout))
    return lines


# ---- a recorded position, as the rule documents list its facts (`exact61 show`) -------------


def step_line(match: Match, round_index: int, action_index: int) -> str:
    """One recorded action, every tile named (a record hides nothing): `Seat 2 places [0|1] at
    [1|1] line side B`, `Seat 1 draws [2|5]`."""
    step = match.rounds[round_index].steps[action_index]
    action = step.action
    if isinstance(action, Play):
        return placement_text(step.seat, action, mine=False)
    if step.drawn is not None:
        return _("Seat {seat} draws {tile}").format(seat=step.seat, tile=step.drawn)
    return _("Seat {seat} passes").format(seat=step.seat)


def _listed(items: Sequence[str], sep: str = ", ") -> str:
    return sep.join(items) or _("none")


def position_facts(match: Match) -> list[str]:
    """The facts the rule documents list under each diagram (R12-R15): scored ends and credit,
    tiles, spinners, joins, free attach points with the value each accepts, each tile's scored
    contribution; then the scores, and the hands and boneyard (all of them: a record hides
    nothing), or how the round ended and who won the match."""
    layout = match.layout
    contributions = layout.contributions()
    lines = [
        scored_ends(layout) + ". " + _("Credit: {points}").format(points=points(layout.credit)),
        _("Tiles: {tiles}").format(tiles=_listed([str(t) for t in layout.tiles])),
        _("Spinners: {tiles}").format(tiles=_listed([str(t) for t in layout.spinners()])),
        _("Joins: {joins}").format(
            joins=_listed(
                [f"{point_name(host)} – {point_name(end)}" for host, end in layout.joins()], "; "
            )
        ),
        _("Free attach points: {points}").format(
            points=_listed([f"{point_name(p)} ({v})" for p, v in layout.free_points()], "; ")
        ),
        _("Scored contributions: {contributions}").format(
            contributions=_listed([f"{t}: {v}" for t, v in contributions], "; ")
        ),
        _("Scores: {scores}").format(scores=scores_line(match, None)),
    ]
    end = match.rounds[-1].end if match.rounds else None
    if end is not None and end.hands is not None:
        hands = "; ".join(f"{seat_name(s)}: {hand_text(h)}" for s, h in enumerate(end.hands))
        if end.kind == "domino":
            lines.append(
                _("Round ended by domino (R18); hands revealed: {hands}").format(hands=hands)
            )
        else:
            lines.append(
                _("Round ended by block (R11); hands revealed: {hands}").format(hands=hands)
            )
    if match.is_over:
        lines.append(winner_line(match, None))
    elif match.rounds and match.rounds[-1].end is None:
        hands = "; ".join(
            f"{seat_name(s)}: {' '.join(map(str, match.hand(s))) or '-'}"
            for s in range(match.players)
        )
        lines.append(_("Hands: {hands}").format(hands=hands))
        lines.append(_("Boneyard: {tiles}").format(tiles=tiles_left(match.boneyard_size)))
    return lines
