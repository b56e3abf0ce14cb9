"""The terminal game's widgets: rows of tokens (the hand, the choices), lines fitted to the width,
the board and its picture, the running log, and the notice of a window too small to play in."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual import events
from textual.app import App
from textual.containers import ScrollableContainer
from textual.geometry import Region, Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import RichLog, Static

from exact61.core import AttachPoint
from exact61.i18n import _
from exact61.render.picture import Picture
from exact61.terminal.language import InLanguage

STYLES = {
    "tile": "black on grey85",
    "last": "bold black on yellow",
    "scored": "bold dark_green on grey85",
    "marker": "bold cyan",
    "choice": "bold black on bright_cyan",
    "chosen": "bold black on yellow",  # a lettered place picked (the tour's places that count)
    "line": "grey50",
}
# Below this the hand, the choices and the board cannot all be shown: the app says so instead.
MIN_WIDTH, MIN_HEIGHT = 80, 24
LOG_LINES = 400  # kept for re-wrapping after a resize
_Result = TypeVar("_Result")


@dataclass(frozen=True)
class Token:
    """One entry of a row: a tile of the hand, an attach point to choose, a label."""

    text: str
    style: str = ""
    action: str | None = None  # run on the app when clicked, e.g. "tile(3)"


class TokenRow(Widget):
    """Entries laid out in lines as wide as the row allows: wrapped, never cut off."""

    GAP = 2

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        self.tokens: list[Token] = []
        self._hits: list[tuple[int, int, int, Token]] = []  # line, first and last column

    def set_tokens(self, tokens: list[Token]) -> None:
        if tokens != self.tokens:
            self.tokens = tokens
            self.refresh(layout=True)

    def lines(self, width: int) -> list[list[tuple[int, Token]]]:
        """Each line's tokens with the column each starts at. A row that starts with a label
        (a token with no action) continues under its first entry, so that every line's entries
        start at the same column; a label too wide for that (more than a third of the row, or
        an entry would not fit beside it) stands on a line of its own (wrapped, when wider than
        the row) when the entries do not fit beside it on one line."""
        width = max(width, 1)
        tokens = self.tokens
        if len(tokens) > 1 and tokens[0].action is None:
            hang = cell_len(tokens[0].text) + self.GAP
            widest = max(cell_len(token.text) for token in tokens[1:])
            if hang <= width // 3 and hang + widest <= width:
                return self.laid_out(tokens, width, hang)
            beside = self.laid_out(tokens, width, 0)
            if len(beside) == 1:
                return beside
            return [*self.laid_out(tokens[:1], width, 0), *self.laid_out(tokens[1:], width, 0)]
        return self.laid_out(tokens, width, 0)

    def laid_out(self, tokens: list[Token], width: int, hang: int) -> list[list[tuple[int, Token]]]:
        """`tokens` in lines of `width`, the lines after the first starting at `hang`."""
        pieces: list[Token] = []
        for token in tokens:  # a token wider than the row is wrapped on its own, by words
            if cell_len(token.text) <= width - hang:
                pieces.append(token)
            else:
                pieces += [
                    Token(part, token.style, token.action)
                    for part in textwrap.wrap(token.text, width - hang) or [""]
                ]
        out: list[list[tuple[int, Token]]] = []
        line: list[tuple[int, Token]] = []
        x = 0
        for token in pieces:
            size = cell_len(token.text)
            start = x + self.GAP if line else hang if out else 0
            if line and start + size > width:
                out.append(line)
                line, start = [], hang
            line.append((start, token))
            x = start + size
        if line:
            out.append(line)
        return out

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        self._hits = []
        for y, line in enumerate(self.lines(self.content_size.width)):
            if y:
                text.append("\n")
            x = 0
            for start, token in line:
                text.append(" " * (start - x))
                text.append(token.text, token.style)
                x = start + cell_len(token.text)
                self._hits.append((y, start, x, token))
        return text

    def text(self, width: int) -> str:
        """The row as plain text at `width` (for tests and screen readers)."""
        out = []
        for line in self.lines(width):
            row = ""
            for start, token in line:
                row += " " * (start - len(row)) + token.text
            out.append(row)
        return "\n".join(out)

    async def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for y, start, end, token in self._hits:
            if y == offset.y and start <= offset.x < end and token.action:
                await self.app.run_action(token.action)
                return


class FittedLines(Widget):
    """Lines of one row each, never wrapped (the board keeps its rows): each line is the first
    of its wordings, longest first, that fits the width, else the last one cut with "…"."""

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        self.wordings: list[list[str]] = []

    def set_lines(self, wordings: list[list[str]]) -> None:
        """Each line as its wordings, longest first."""
        if wordings != self.wordings:
            self.wordings = wordings
            self.refresh(layout=True)

    def text(self, width: int) -> str:
        """The lines as shown at `width` (for tests and screen readers)."""
        width = max(width, 1)
        out = []
        for wordings in self.wordings:
            line = next((w for w in wordings if cell_len(w) <= width), wordings[-1])
            if cell_len(line) > width:
                line = set_cell_size(line, width - 1).rstrip() + "…"
            out.append(line)
        return "\n".join(out)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.wordings)

    def render(self) -> Text:
        return Text(self.text(self.content_size.width), no_wrap=True, overflow="crop")


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def spanning(regions: list[Region]) -> Region | None:
    """The cells from the first to the last of `regions`."""
    return Region.from_union(regions) if regions else None


class Board(ScrollableContainer):
    """The frame the layout's picture scrolls in: ← and → go a tile's length at a time."""

    TILE = 5  # columns: [1|2]

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        # what `keep_in_sight` was last asked to show: shown again when the board's size changes
        self.kept: tuple[LayoutPicture, dict[AttachPoint, str], AttachPoint | None] | None = None

    def on_resize(self, event: events.Resize) -> None:
        """A new size (the terminal's, or the page's around the board): what the board keeps
        in sight is scrolled to again, now that the size is known."""
        if self.kept is not None:
            self.keep_in_sight(*self.kept)

    def marked_regions(
        self, picture: LayoutPicture, marks: Mapping[AttachPoint, str]
    ) -> list[tuple[tuple[int, int], AttachPoint, Region]]:
        """Each marked place on the picture: where its marker is, the place, and the cells of
        the place with the tile it belongs to."""
        markers = picture.picture.markers
        return [
            (markers[p], p, region)
            for p in marks
            if p in markers and (region := picture.place_region(p)) is not None
        ]

    def places_fit(self, picture: LayoutPicture, marks: Mapping[AttachPoint, str]) -> bool:
        """Whether the marked places, from the first to the last, fit the board's width."""
        region = spanning([r for _at, _p, r in self.marked_regions(picture, marks)])
        return region is None or region.width <= self.scrollable_content_region.width

    def keep_in_sight(
        self,
        picture: LayoutPicture,
        marks: Mapping[AttachPoint, str],
        first: AttachPoint | None = None,
    ) -> None:
        """Scroll to the marked places (the places the prompt names) with the tiles they
        attach to, or else to the tile placed last, however large the layout grows. When the
        places cannot all be shown, `first` (else the first marked) is, with the places nearest
        to it that fit; the frame names the way to the others (`tell_more`)."""
        self.kept = (picture, dict(marks), first)
        view = self.scrollable_content_region.size
        if not view.area:  # not shown: the terminal is too small
            return
        places = self.marked_regions(picture, marks)
        region = spanning([r for _at, _p, r in places])
        if region is not None and (region.width > view.width or region.height > view.height):
            at, _p, first_region = next((x for x in places if x[1] == first), places[0])
            shown = [first_region]  # and the places nearest to it, as many as fit the board
            for _at, _p, place in sorted(places, key=lambda x: distance(x[0], at)):
                wider = spanning([*shown, place])
                if wider is not None and wider.width <= view.width and wider.height <= view.height:
                    shown.append(place)
            region = spanning(shown)
        if region is None:
            region = picture.last_region()
        if region is not None:
            gutter = picture.styles.gutter
            region = region.translate(picture.virtual_region.offset).translate(
                (gutter.left, gutter.top)
            )
            rows = max(0, min(1, (view.height - region.height) // 2))  # some table around it,
            columns = max(0, min(6, (view.width - region.width) // 2))  # as the board has room
            self.scroll_to_region(
                region.grow((rows, columns, rows, columns)), animate=False, immediate=True
            )
        self.tell_more(picture, marks)

    def action_scroll_left(self) -> None:
        self.scroll_to(x=self.scroll_target_x - self.TILE, animate=False)

    def action_scroll_right(self) -> None:
        self.scroll_to(x=self.scroll_target_x + self.TILE, animate=False)

    def tell_more(self, picture: LayoutPicture, marks: Mapping[AttachPoint, str]) -> None:
        """The frame says where the board goes on past its edges, and that the arrow keys
        scroll there: the way to the rest of a layout wider or taller than the board. A marked
        place out of sight (`marks`: the places the prompt names, by their labels) is named
        there with the way to it (`b▶`, `◀a▲`): every place offered can be found at a glance."""
        before = [a for a, more in [("◀", self.scroll_x > 0), ("▲", self.scroll_y > 0)] if more]
        after = [
            a
            for a, more in [
                ("▼", self.scroll_y < self.max_scroll_y),
                ("▶", self.scroll_x < self.max_scroll_x),
            ]
            if more
        ]
        behind, ahead = self.places_out_of_sight(picture, marks)
        self.border_title = (
            " ".join([*behind, *before, _("more (arrow keys)"), *after, *ahead])
            if before or after
            else ""
        )
        self.styles.border_title_align = "left" if before and not after else "right"

    def places_out_of_sight(
        self, picture: LayoutPicture, marks: Mapping[AttachPoint, str]
    ) -> tuple[list[str], list[str]]:
        """The marked places the board does not show, each with the way to it: those to the
        left or above (`◀a`), then those to the right or below (`b▶`)."""
        view = self.scrollable_content_region.size
        gutter = picture.styles.gutter
        offset = picture.virtual_region.offset
        left, top = self.scroll_offset
        behind: list[str] = []
        ahead: list[str] = []
        for point, label in marks.items():
            at = picture.picture.markers.get(point)
            if at is None:
                continue
            x = at[1] + offset.x + gutter.left
            y = at[0] + offset.y + gutter.top
            across = "◀" if x < left else "▶" if x >= left + view.width else ""
            along = "▲" if y < top else "▼" if y >= top + view.height else ""
            if across == "◀" or (not across and along == "▲"):
                behind.append(across + along + label)
            elif across or along:
                ahead.append(label + across + along)
        return behind, ahead


class LayoutPicture(Static):
    """The layout drawn like tiles on a table; click a lettered attach point to place there
    (`PointChosen` tells the app)."""

    class PointChosen(Message):
        """A lettered attach point was clicked."""

        def __init__(self, point: AttachPoint) -> None:
            super().__init__()
            self.point = point

    def __init__(self) -> None:
        super().__init__(id="picture")
        self.picture = Picture((), {})

    def show(self, picture: Picture) -> None:
        self.picture = picture
        text = Text(no_wrap=True)
        for i, row in enumerate(picture.rows):
            if i:
                text.append("\n")
            for cell in row:
                text.append(cell.char, STYLES.get(cell.style, ""))
        if not picture.rows:
            text = Text(_("The table is empty: the opener may play any tile (R7)."), "italic")
        self.set_class(not picture.rows, "empty")  # the sentence wraps; a picture scrolls
        self.update(text)

    def last_region(self) -> Region | None:
        """Where the tile placed last is, in the picture's own cells."""
        cells = [
            (x, y)
            for y, row in enumerate(self.picture.rows)
            for x, cell in enumerate(row)
            if cell.style == "last"
        ]
        if not cells:
            return None
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        return Region(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)

    def place_region(self, point: AttachPoint) -> Region | None:
        """Where the free attach point `point` is, with the tile it belongs to (the prompt
        names a place by that tile), in the picture's own cells."""
        at = self.picture.markers.get(point)
        if at is None:
            return None
        y, x = at
        cells = [
            Region(column, row, 1, 1)
            for row, line in enumerate(self.picture.rows)
            for column, cell in enumerate(line)
            if cell.tile == point.tile
        ]
        return Region.from_union([Region(x, y, 1, 1), *cells])

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        rows = self.picture.rows
        if offset is None or not 0 <= offset.y < len(rows):
            return
        if not 0 <= offset.x < len(rows[offset.y]):
            return
        cell = rows[offset.y][offset.x]
        if cell.point is not None and cell.style in ("choice", "chosen"):
            self.post_message(self.PointChosen(cell.point))


class GameLog(RichLog):
    """The running log; it keeps its lines and wraps them again when its width changes."""

    def __init__(self) -> None:
        super().__init__(id="log", wrap=True, markup=False, min_width=20)
        self.kept: list[str] = []
        self._wrapped_at = 0

    def add(self, line: str) -> None:
        self.kept = [*self.kept[-LOG_LINES:], line]
        self.write(self.wrapped(line))

    def wrapped(self, line: str) -> str:
        """`line` broken at spaces to the log's width, once it is known, and never at a no-break
        space: Rich's own wrapping breaks there (`52` / `%` for the German `52 %`). A line's
        leading spaces indent its every row."""
        width = max(self.scrollable_content_region.width, self.min_width)
        if not self.scrollable_content_region.width or len(line) <= width:
            return line
        indent = line[: len(line) - len(line.lstrip(" "))]
        rows = textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)
        return "\n".join(rows)

    def reset(self) -> None:
        self.kept = []
        self.clear()

    def hold(self) -> None:
        """Keep the first lines in sight as lines are added (the game's opening lines, which
        say how it scores), until `follow`."""
        self.auto_scroll = False
        self.scroll_home(animate=False)

    def follow(self) -> None:
        """Show the last lines as they are added again (the person has read the first)."""
        if not self.auto_scroll:
            self.auto_scroll = True
            self.scroll_end(animate=False)

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if width != self._wrapped_at:
            self.clear()
            for line in self.kept:
                self.write(self.wrapped(line))  # at the end, unless held at the top
        self._wrapped_at = width


class TooSmall(Static):
    """Shown instead of the game when the terminal is smaller than the game can be drawn in."""

    DEFAULT_CLASSES = "too-small"

    def render(self) -> Text:
        """Says so, and the line-by-line command of the app shown (`PLAIN`: the game's, the
        tour's, the puzzles')."""
        width, height = self.app.size
        command = getattr(self.app, "PLAIN", "exact61 play --plain")
        return Text(
            _(
                "This terminal is {width}x{height}: the game needs at least {min_width}x"
                "{min_height}. Enlarge the window, or play line by line with: {command}"
            ).format(
                width=width,
                height=height,
                min_width=MIN_WIDTH,
                min_height=MIN_HEIGHT,
                command=command,
            )
        )


class FullScreenApp(InLanguage, App[_Result]):
    """A full-screen app of the project (the game's, the tour's, the puzzles'): its keys named in
    the language in use (`InLanguage`), no command palette, and the sizes its styles change at:
    `-narrow`/`-short` below 80x24, where `TooSmall` shows instead of the app, and `-roomy` from
    30 rows, room for a blank line above the hand and the choices (app.tcss)."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (MIN_WIDTH, "-wide")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-short"), (MIN_HEIGHT, "-tall"), (30, "-roomy")]  # noqa: RUF012
    ENABLE_COMMAND_PALETTE = False
    PLAIN: ClassVar[str]  # the app's line-by-line command, said below 80x24 (TooSmall)

    @property
    def too_small(self) -> bool:
        """Whether the terminal is below 80x24: `TooSmall` shows, not the app."""
        width, height = self.size
        return width < MIN_WIDTH or height < MIN_HEIGHT
