"""The rules engine: everything R4-R23 and R30 decide, for one round, on a few small ints.

A round in play is a position: every hand, the free attach points, the end sum, the scores, the
seat to act and the boneyard. A move is a small int: a placement is `tile * MOVE_STRIDE + point`
(`point` is `OPENING` for a round's first tile, R7), and `DRAW` and `PASS` come after every
placement. `legal_moves` lists what the seat to act may do (R7, R9-R10, R13); `play` makes a move
and returns the scoring events it caused (R4, R14-R23, R30).

Nothing else in exact61 decides a rule. `Match` plays whole matches through these functions and
keeps their logs; the exact solver and the bots' searches step positions with them directly.

This is the core's one module written for speed, because searches step millions of positions:

- A position is a plain list, changed in place by `play` (a search copies it first, `copy`):
  a list copies and changes faster than any object with named fields. `POSITION_FIELDS` names
  its items; `unpack` reads them all at once.
- Sets are bit masks: all hands in one int (seat s's tiles at bits `SHIFT[s]` up), the free
  attach points in another (bit p: `ALL_POINTS[p]`), the open values in a third (bit v: some
  free point accepts pip v). A whole rule then often is one operation: R11's "nobody can place"
  is `not hands & FITS_ANY_SEAT[open]`.
- What each placement does to the layout is worked out once, at import (`PLACEMENTS`), and so
  are the numbers every move uses (each tile's moves, each move's log codes, each tile's bit in
  each seat's hand): an int worked out by arithmetic is a new object each time.
- A position a match plays also keeps its round's book (`Book`): the order its legal moves are
  listed in (each hand's tiles as they came, each value's free points as they opened), which a
  seeded bot's choice depends on, and the round's log. `play` keeps it as it goes, which costs
  less than a second pass. A search's positions have none.

The module is long (some 900 lines) and one concern: the rules on that one representation, kept
together so the representation is defined, and read, in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final, NamedTuple, TypeVar, final

from exact61.core.actions import DRAW as DRAW_ACTION
from exact61.core.actions import PASS as PASS_ACTION
from exact61.core.actions import Action, Draw, Play
from exact61.core.errors import RuleError
from exact61.core.points import (
    ALL_POINTS,
    POINT_COUNT,
    POINT_INDEX,
    POINT_KIND,
    POINT_TILE,
    POINT_VALUE,
    AttachPoint,
    Kind,
    TileEnd,
    free_end,
    point_of,
)
from exact61.core.settlement import (
    TARGET_RAW,
    BlockEvent,
    DominoEvent,
    Event,
    PlayEvent,
    accepts,
    block_credits,
    domino_net,
    domino_pips,
    lands,
    side_of,
)
from exact61.core.tiles import (
    ALL_TILES,
    HIGH,
    IS_DOUBLE,
    LOW,
    PIPS,
    TILE_COUNT,
    TILE_INDEX,
    VALUE_MASK,
    VALUES,
)

ENGINE: Final = "python"  # this engine's name (`exact61.core.engines`)
MOVE_STRIDE: Final = POINT_COUNT + 1
OPENING: Final = POINT_COUNT  # the point of a round's first tile, which attaches to nothing (R7)
DRAW: Final = TILE_COUNT * MOVE_STRIDE  # the moves after every placement
PASS: Final = DRAW + 1
MOVE_COUNT: Final = PASS + 1
# A move as a round's log keeps it, with the seat that made it: `move * 4 + seat`, a draw
# naming its tile as `(DRAWN_TILE + tile) * 4 + seat` (what every seat saw is the draw alone).
DRAWN_TILE: Final = MOVE_COUNT
STEP_COUNT: Final = (DRAWN_TILE + TILE_COUNT) * 4
# Each tile's moves, and each move's code for each seat.
TILE_MOVES: Final = tuple(
    tuple(t * MOVE_STRIDE + p for p in range(MOVE_STRIDE)) for t in range(TILE_COUNT)
)
STEP_CODES: Final = tuple(tuple(move * 4 + seat for seat in range(4)) for move in range(MOVE_COUNT))

# How a round ended (`Position.end`); 0 while it is in play.
IN_PLAY: Final = 0
DOMINO: Final = 1
BLOCK: Final = 2
TARGET: Final = 3
END_KINDS: Final = {DOMINO: "domino", BLOCK: "block", TARGET: "target"}

HAND_BITS: Final = TILE_COUNT  # each seat's share of `Position.hands`
HAND: Final = (1 << HAND_BITS) - 1
SHIFT: Final = tuple(HAND_BITS * seat for seat in range(4))
SEAT_HAND: Final = tuple(HAND << shift for shift in SHIFT)  # a seat's hand within HANDS
TILE_BIT: Final = tuple(tuple(1 << t + shift for t in range(TILE_COUNT)) for shift in SHIFT)


# A position's items, in order.
POSITION_FIELDS: Final = (
    "players",
    "hands",  # every hand: seat s's tiles at bits SHIFT[s] up (bit t: ALL_TILES[t])
    "free",  # the free attach points (bit p: ALL_POINTS[p])
    "shape",  # a search's: how many free points of each value and kind (`shape_of`), its key
    "end_sum",  # R15: the sum of the scored contributions (R14)
    "open",  # the values some free point accepts (bit v: pip v)
    "scores",  # raw, per side (R3), a tuple
    "to_act",  # the seat to act; -1 once the round is over
    "opener",
    "boneyard",  # the round's whole boneyard in draw order, a tuple of tile indices
    "drawn",  # how many tiles have been drawn from it
    "pending",  # R10: a drawn tile the seat must place at once, else -1
    "end",  # how the round ended (IN_PLAY, DOMINO, BLOCK, TARGET)
    "book",  # a match's `Book`; None for a search's
)
# Each item's index in a position, as constants (the same order).
PLAYERS: Final = 0
HANDS: Final = 1
FREE: Final = 2
SHAPE: Final = 3
END_SUM: Final = 4
OPEN: Final = 5
SCORES: Final = 6
TO_ACT: Final = 7
OPENER: Final = 8
BONEYARD: Final = 9
DRAWN: Final = 10
PENDING: Final = 11
END: Final = 12
BOOK: Final = 13
Position = list[Any]
"""A round as the rules see it (see `POSITION_FIELDS`)."""


class Fields(NamedTuple):
    """A position's items by name: for reading one, not in a search's inner loop."""

    players: int
    hands: int
    free: int
    shape: int
    end_sum: int
    open: int
    scores: tuple[int, ...]
    to_act: int
    opener: int
    boneyard: tuple[int, ...]
    drawn: int
    pending: int
    end: int
    book: Book | None


@final
class Book:
    """What a match's position keeps besides the rules' state, as `play` goes."""

    __slots__ = ("draws", "events", "free", "hands", "public", "steps")

    def __init__(
        self,
        hands: list[list[int]],
        free: list[dict[int, None]],
        steps: list[int],
        public: list[int],
        draws: list[list[int]],
        events: list[Event],
    ) -> None:
        self.hands = hands  # each hand's tiles in the order they came
        self.free = free  # per pip value, the free points in the order they opened
        self.steps = steps  # each move as the log keeps it (see `DRAWN`)
        self.public = public  # each move as every seat saw it (a draw names no tile, R5)
        self.draws = draws  # each seat's tiles drawn, in order
        self.events = events  # the scoring events, in order

    def _items(self) -> tuple[object, ...]:
        return (self.hands, self.free, self.steps, self.public, self.draws, self.events)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Book):
            return NotImplemented
        return self._items() == other._items()

    def __repr__(self) -> str:
        names = ("hands", "free", "steps", "public", "draws", "events")
        return f"Book({', '.join(f'{n}={v!r}' for n, v in zip(names, self._items(), strict=True))})"


def unpack(position: Position) -> Fields:
    """The position's items by name."""
    return Fields(*position)


def copy(position: Position) -> Position:
    """A copy to play on for a search (the book is left behind: a match's position keeps no
    shape, so the copy works it out). The native engine's positions read as lists too: this
    makes one of them a position of this engine."""
    clone = list(position)
    if clone[BOOK] is not None:
        clone[BOOK] = None
        clone[SHAPE] = shape_of(clone[FREE])
    return clone


def clone(position: Position) -> Position:
    """A copy that keeps its book, the logs copied to grow apart from the original's (a
    match's copy)."""
    clone = position.copy()
    book = clone[BOOK]
    if book is not None:
        clone[BOOK] = Book(
            [hand.copy() for hand in book.hands],
            [points.copy() for points in book.free],
            book.steps.copy(),
            book.public.copy(),
            [drawn.copy() for drawn in book.draws],
            book.events.copy(),
        )
    return clone


def arrange_draw(position: Position, tile: int) -> None:
    """Put `tile`, still in the boneyard, next in draw order (chance at the moment of a draw:
    the undrawn boneyard is face down, R5)."""
    bone, at = list(position[BONEYARD]), position[DRAWN]
    try:
        i = bone.index(tile, at)
    except ValueError:
        raise RuleError("R5", f"{ALL_TILES[tile]} is not in the boneyard") from None
    bone[at], bone[i] = bone[i], bone[at]
    position[BONEYARD] = tuple(bone)


def search_key(position: Position) -> tuple[object, ...]:
    """What decides the rest of the round, for a search's table of the positions it has valued:
    equal for positions that differ only in which of equivalent points are free (`move_class`)."""
    _, hands, _, shape, _, _, scores, to_act, _, _, drawn, pending, _, _ = position
    return (hands, shape, scores, to_act, drawn, pending)


def hand_of(position: Position, seat: int) -> int:
    """The tiles seat `seat` holds, as a mask (bit t: `ALL_TILES[t]`)."""
    hands: int = position[HANDS]
    return hands >> SHIFT[seat] & HAND


def pack_hands(hands: Sequence[int]) -> int:
    """Each seat's tile mask, in seat order, as `Position.hands`."""
    packed = 0
    for seat, hand in enumerate(hands):
        packed |= hand << SHIFT[seat]
    return packed


def bits(mask: int) -> Iterator[int]:
    """The set bits of `mask`, lowest first: the tiles of a hand, the points of a free mask."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def tile_mask(tiles: Sequence[int]) -> int:
    """Tile indices as a hand's bit mask."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


# ---- what a placement does (R9, R13-R15), worked out once ------------------------------------

# By pip value: the points accepting it, of any kind, and of each kind.
VALUE_POINTS: Final[tuple[int, ...]] = tuple(
    sum(1 << p for p in range(POINT_COUNT) if POINT_VALUE[p] == v) for v in range(7)
)
CLASS_POINTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(1 << p for p in range(POINT_COUNT) if POINT_VALUE[p] == v and POINT_KIND[p] == kind)
        for kind in (Kind.END, Kind.LINE, Kind.ARM)
    )
    for v in range(7)
)
# A layout's shape counts its free points of each value and kind, three bits a count: what a
# placement does depends on no more (R13, R14), so positions of the same shape play the same.
SHAPE_UNIT: Final[tuple[int, ...]] = tuple(
    1 << 3 * (POINT_VALUE[p] * 3 + POINT_KIND[p]) for p in range(POINT_COUNT)
)


def shape_of(free: int) -> int:
    """The shape of a layout with these free points."""
    return sum(SHAPE_UNIT[p] for p in bits(free))


# By tile: the points that accept one of its values (R9).
ACCEPTS: Final[tuple[int, ...]] = tuple(
    VALUE_POINTS[LOW[t]] | VALUE_POINTS[HIGH[t]] for t in range(TILE_COUNT)
)
# By mask of open values: the tiles showing one of them (R9: those can be placed), and the same
# for every seat at once, as `Position.hands` holds them.
FITS: Final[tuple[int, ...]] = tuple(
    sum(1 << t for t in range(TILE_COUNT) if VALUE_MASK[t] & open_) for open_ in range(128)
)
FITS_ANY_SEAT: Final[tuple[int, ...]] = tuple(pack_hands([fits] * 4) for fits in FITS)


class Placement(NamedTuple):
    """What placing a tile does to the layout (R13, R14), worked out once per move."""

    tile: int
    point: int  # the bit of the point it joins, which stops being free (0 for the opening)
    value: int  # that point's pip value (for the opening, the tile's low pip)
    flip: int  # the free points it changes: the one it joins and the tile's ends, now free
    new_values: int  # the values they accept, as a mask
    delta: int  # the end sum's change: a joined free end stops scoring, the new ends score
    other_line: int  # joining a line side: the bit of the double's other line side, else 0
    arms: int  # joining a line side: the bits of the double's side arms, which open with
    # the second join, when the double turns interior and stops counting (R13, R14)
    joined: TileEnd | None  # the end of the tile that joins (None for the opening)
    point_index: int  # the index of `point` (-1 for the opening)
    opens: tuple[tuple[int, int], ...]  # (value, index) of each of the tile's ends, lowest first
    arm_points: tuple[int, ...]  # the indices of `arms`
    shape: int  # the layout shape's change, arms left out
    arms_shape: int  # its change when the arms open


def placement(t: int, p: int) -> Placement | None:
    """Tile t placed at point p (`OPENING`: as the round's first tile), or None when it cannot
    go there (R9: it must show p's value)."""
    tile = ALL_TILES[t]
    if p == OPENING:  # R7; R14: a lone double counts both halves
        ends = (TileEnd.LINE_A, TileEnd.LINE_B) if tile.is_double else (TileEnd.HIGH, TileEnd.LOW)
        opens = tuple(sorted(point_of(tile, end) for end in ends))
        sum_ = 2 * LOW[t] if IS_DOUBLE[t] else PIPS[t]
        new = sum(1 << q for q in opens)
        shape = sum(SHAPE_UNIT[q] for q in opens)
        pairs = tuple((POINT_VALUE[q], q) for q in opens)
        return Placement(
            t, 0, LOW[t], new, VALUE_MASK[t], sum_, 0, 0, None, -1, pairs, (), shape, 0
        )
    v, host = POINT_VALUE[p], POINT_TILE[p]
    if host == t or not VALUE_MASK[t] & (1 << v):
        return None
    if IS_DOUBLE[t]:  # a double joins by a line side; the other counts both halves (R14)
        joined, adds = TileEnd.LINE_A, 2 * v
    elif LOW[t] == v:
        joined, adds = TileEnd.LOW, HIGH[t]
    else:
        joined, adds = TileEnd.HIGH, LOW[t]
    new_end = POINT_INDEX[free_end(AttachPoint(tile, joined))]
    kind = POINT_KIND[p]
    other_line = 0
    arm_points: tuple[int, ...] = ()
    if kind == Kind.LINE:
        double = ALL_TILES[host]
        sides = {point_of(double, TileEnd.LINE_A), point_of(double, TileEnd.LINE_B)}
        other_line = 1 << (sides - {p}).pop()
        arm_points = (point_of(double, TileEnd.ARM_A), point_of(double, TileEnd.ARM_B))
    # A free end stops scoring once joined; a line side's double scores until its second join;
    # a side arm never scored.
    stops = v if kind == Kind.END else 0
    return Placement(
        t,
        1 << p,
        v,
        1 << p | 1 << new_end,
        1 << POINT_VALUE[new_end],
        adds - stops,
        other_line,
        sum(1 << q for q in arm_points),
        joined,
        p,
        ((POINT_VALUE[new_end], new_end),),
        arm_points,
        SHAPE_UNIT[new_end] - SHAPE_UNIT[p],
        sum(SHAPE_UNIT[q] for q in arm_points),
    )


# By move: what the placement does, or None where the tile cannot go.
PLACEMENTS: Final[tuple[Placement | None, ...]] = tuple(
    placement(t, p) for t in range(TILE_COUNT) for p in range(MOVE_STRIDE)
)


def place(free: int, end_sum: int, open_: int, move: int) -> tuple[int, int, int]:
    """The layout after placement `move`, which must fit a free point (or open the round): the
    free points, the end sum and the open values (R13, R14)."""
    placement = PLACEMENTS[move]
    assert placement is not None, "the tile cannot go there"
    _, point, value, flip, new_values, delta, other_line, arms, *_ = placement
    assert free & point or not free, "the point is not free"
    free ^= flip
    end_sum += delta
    if arms and not free & other_line:  # both line sides joined: interior (R13, R14)
        end_sum -= 2 * value
        free |= arms
    if not free & VALUE_POINTS[value]:
        open_ &= ~(1 << value)
    return free, end_sum, open_ | new_values


def credit_for(end_sum: int) -> int:
    """R15: a positive multiple of 5 credits that many raw points; any other sum credits 0."""
    return end_sum if end_sum > 0 and end_sum % 5 == 0 else 0


def scored_contributions(free: int, on_table: int) -> list[tuple[int, int]]:
    """R14: each scored contribution as (tile index, points), canonical order: a free end of a
    non-double scores its pips, a double on the table counts both halves while one of its line
    sides is free; `on_table` is the mask of tiles on the table."""
    out = []
    for t in bits(on_table):
        tile = ALL_TILES[t]
        if IS_DOUBLE[t]:
            if free & (1 << point_of(tile, TileEnd.LINE_A) | 1 << point_of(tile, TileEnd.LINE_B)):
                out.append((t, 2 * LOW[t]))
            continue
        for end, pips in ((TileEnd.HIGH, HIGH[t]), (TileEnd.LOW, LOW[t])):
            if free >> point_of(tile, end) & 1:
                out.append((t, pips))
    return out


# ---- moves and actions ------------------------------------------------------------------------


def _action(move: int) -> Action | None:
    """The action of a move, or None for a placement no tile can make."""
    if move == DRAW:
        return DRAW_ACTION
    if move == PASS:
        return PASS_ACTION
    if PLACEMENTS[move] is None:
        return None
    t, p = divmod(move, MOVE_STRIDE)
    return Play(ALL_TILES[t], None if p == OPENING else ALL_POINTS[p])


# By move: the action that makes it, one object each (None where no tile can).
ACTIONS: Final[tuple[Action | None, ...]] = tuple(_action(m) for m in range(MOVE_COUNT))


def action_of(move: int) -> Action:
    """The action a move makes (the same object every time)."""
    action = ACTIONS[move]
    assert action is not None, f"no tile can make move {move}"
    return action


def move_of(action: Action) -> int:
    """The move an action makes (it need not be legal anywhere)."""
    if isinstance(action, Play):
        at = action.at
        point = OPENING if at is None else POINT_INDEX[at]
        return TILE_INDEX[action.tile] * MOVE_STRIDE + point
    return DRAW if isinstance(action, Draw) else PASS


def class_of(action: Action) -> int:
    """The class of the move an action makes (`move_class`)."""
    return move_class(move_of(action))


_Choice = TypeVar("_Choice", int, Action)


def choices(legal: Iterable[_Choice]) -> dict[int, _Choice]:
    """The choices a seat really has among its legal moves or actions: one for each set of
    equivalent placements (`move_class`), the first listed, by class. A seat with one choice has
    none to make (its bot need not think), even when several actions make it."""
    first: dict[int, _Choice] = {}
    for move in legal:
        first.setdefault(MOVE_CLASSES[move if isinstance(move, int) else move_of(move)], move)
    return first


def move_class(move: int) -> int:
    """Equal for equivalent moves: placements of one tile at points of the same value and kind
    (two free ends showing 3, the two line sides of a lone double, the side arms of a spinner)
    leave positions that play the same (R13, R14). A draw and a pass are their own class."""
    return MOVE_CLASSES[move]


def _move_class(move: int) -> int:
    if move >= DRAW:
        return move
    t, p = divmod(move, MOVE_STRIDE)
    if p == OPENING:
        return t * 64 + 3
    return t * 64 + POINT_VALUE[p] * 4 + POINT_KIND[p]


MOVE_CLASSES: Final[tuple[int, ...]] = tuple(_move_class(m) for m in range(MOVE_COUNT))


# ---- positions ----------------------------------------------------------------------------


def start(
    hands: Sequence[Sequence[int]],
    boneyard: Sequence[int],
    opener: int,
    scores: Sequence[int],
    *,
    book: bool = True,
) -> Position:
    """A dealt round before its first placement: `hands` are each seat's tile indices in the
    order dealt; the opener acts (R6-R8). With `book`, the position keeps a `Book` (a match's:
    legal moves listed as the match lists them, and the log); without, a search's."""
    packed = 0
    for seat, hand in enumerate(hands):
        bits = TILE_BIT[seat]
        for t in hand:
            packed |= bits[t]
    kept = None
    if book:
        kept = Book(
            [list(hand) for hand in hands],
            [{}, {}, {}, {}, {}, {}, {}],
            [],
            [],
            [[] for _ in hands],
            [],
        )
    return [
        len(hands), packed, 0, 0, 0, 0, tuple(scores), opener, opener, tuple(boneyard), 0, -1, 0,
        kept,
    ]  # fmt: skip


def redeal(position: Position, hands: Sequence[Sequence[int]], boneyard: Sequence[int]) -> Position:
    """A copy of `position` with other hidden tiles: every hand (tile indices, in the order
    received) and the boneyard still to draw (a deal sampled for a search). A match's position
    gives a copy that lists its moves as a match does, with an empty log."""
    new = position.copy()
    new[HANDS] = pack_hands([tile_mask(hand) for hand in hands])
    new[BONEYARD] = tuple(boneyard)
    new[DRAWN] = 0
    book = position[BOOK]
    if book is not None:
        new[BOOK] = Book(
            [list(hand) for hand in hands],
            [points.copy() for points in book.free],
            [],
            [],
            [[] for _ in hands],
            [],
        )
    return new


def resume(
    hands: Sequence[Sequence[int]],
    placements: Sequence[int],
    boneyard: Sequence[int],
    to_act: int,
    opener: int,
    scores: Sequence[int],
    pending: int = -1,
    *,
    book: bool = True,
) -> Position:
    """A round in the middle: the tiles each seat holds (in the order received), the moves that
    made the layout, the boneyard still to draw (in draw order), the seat to act and the drawn
    tile it must place (R10), if any."""
    position = start(hands, boneyard, opener, scores, book=book)
    free = end_sum = open_ = 0
    kept = position[BOOK]
    for move in placements:
        before = free
        free, end_sum, open_ = place(free, end_sum, open_, move)
        if kept is not None:
            _list_points(kept.free, move, before, free)
    position[FREE], position[END_SUM], position[OPEN] = free, end_sum, open_
    position[SHAPE] = shape_of(free)
    position[TO_ACT], position[PENDING] = to_act, pending
    return position


def _list_points(free_order: list[dict[int, None]], move: int, before: int, after: int) -> None:
    """Keep each value's free points in the order they opened, after placement `move`."""
    placement = PLACEMENTS[move]
    assert placement is not None
    if placement.point:
        del free_order[placement.value][move % MOVE_STRIDE]
    for q in bits(after & ~before):
        free_order[POINT_VALUE[q]][q] = None


def playable(position: Position) -> int:
    """The tiles the seat to act may place now, as a mask (R7, R9, R10); 0 if it must draw or
    pass, or the round is over."""
    _, hands, free, _, _, open_, _, seat, _, _, _, pending, end, _ = position
    if end:
        return 0
    hand: int = 1 << pending if pending >= 0 else hands >> SHIFT[seat] & HAND
    return hand & FITS[open_] if free and pending < 0 else hand


def legal_moves(position: Position) -> list[int]:
    """Every move the seat to act may make: any tile of the hand to open (R7); else each
    placement of a tile showing a value some free point accepts (R9, R13), only the drawn
    tile's after a playable draw (R10); with none, a draw while the boneyard lasts, then a pass
    (R10). Nothing once the round is over.

    A match's position lists them by the hand in the order its tiles came, then for each tile
    the free points showing its low and then its high pip, in the order they opened; a
    search's, in canonical order (by tile, then point)."""
    _, _, free, _, _, open_, _, seat, _, bone, drawn, pending, end, book = position
    if end:
        return []
    if book is not None:  # as a match lists them: see `Book`
        hands = book.hands
        if not free:  # R7
            return [t * MOVE_STRIDE + OPENING for t in hands[seat]]
        free_order = book.free
        moves = []
        for t in hands[seat] if pending < 0 else (pending,):
            if VALUE_MASK[t] & open_:  # R9
                tile_moves = TILE_MOVES[t]
                for v in VALUES[t]:
                    for p in free_order[v]:
                        moves.append(tile_moves[p])
        if not moves:  # R10
            return [DRAW if drawn < len(bone) else PASS]
        return moves
    tiles = playable(position)
    if not tiles:
        return [DRAW if drawn < len(bone) else PASS]
    moves = []
    append = moves.append
    while tiles:  # bits(), written out: this runs before every move of every search
        low_bit = tiles & -tiles
        tiles ^= low_bit
        t = low_bit.bit_length() - 1
        base = t * MOVE_STRIDE
        if not free:
            append(base + OPENING)
            continue
        here = free & ACCEPTS[t]
        while here:
            point = here & -here
            here ^= point
            append(base + point.bit_length() - 1)
    return moves


def distinct_moves(position: Position) -> list[int]:
    """The legal moves with one placement for each set of equivalent ones (`move_class`): what
    a search needs to try. The placement kept is the one at the lowest free point."""
    _, hands, free, _, _, open_, _, seat, _, bone, drawn, pending, end, _ = position
    if end:
        return []
    if pending >= 0:
        tiles = 1 << pending
    else:
        tiles = hands >> SHIFT[seat] & HAND
        if free:
            tiles &= FITS[open_]
    if not tiles:
        return [DRAW if drawn < len(bone) else PASS]
    if not free:
        return [t * MOVE_STRIDE + OPENING for t in bits(tiles)]
    moves = []
    while tiles:
        low = tiles & -tiles
        tiles ^= low
        t = low.bit_length() - 1
        base = t * MOVE_STRIDE
        lo, hi = LOW[t], HIGH[t]
        for v in (lo,) if lo == hi else (lo, hi):
            for points in CLASS_POINTS[v]:
                here = free & points
                if here:
                    moves.append(base + (here & -here).bit_length() - 1)
    return moves


def credit_of(position: Position, move: int) -> int:
    """The credit (R15) placement `move` would earn; 0 for a draw or a pass."""
    if move >= DRAW:
        return 0
    placement = PLACEMENTS[move]
    assert placement is not None, "the tile cannot go there"
    end_sum: int = position[END_SUM] + placement.delta
    if placement.arms and not position[FREE] & placement.other_line:  # place(), in short
        end_sum -= 2 * placement.value
    return end_sum if end_sum > 0 and end_sum % 5 == 0 else 0


# ---- playing a move -------------------------------------------------------------------------

_NO_EVENTS: Final[tuple[Event, ...]] = ()
# R14: no end sum, hence no credit, exceeds all the tiles' pips.
MAX_END_SUM: Final = sum(PIPS)
# Every ordinary placement's event (R16), made once: by seat, side, raw // 5 and acceptance.
PLAY_EVENTS: Final = tuple(
    tuple(
        tuple(
            (PlayEvent(seat, side, raw, False), PlayEvent(seat, side, raw, True))
            for raw in range(0, MAX_END_SUM + 1, 5)
        )
        for side in range(4)
    )
    for seat in range(4)
)
SIDE: Final = {n: tuple(side_of(n, s) for s in range(n)) for n in (2, 3, 4)}


def play(position: Position, move: int) -> tuple[Event, ...]:
    """Make `move`, which must be legal, for the seat to act, changing `position`; return the
    scoring events it caused, in order (R4, R10, R11, R14-R23, R30)."""
    players, hands, free, shape, end_sum, open_, scores, seat, _, bone, drawn, _, _, book = position
    if move >= DRAW:
        return _draw(position) if move == DRAW else _pass(position)
    # place(), written out: this is most of what a search does
    (
        t, point, value, flip, new_values, delta, other_line, arms, _, index, opens,
        arm_points, shape_delta, arms_shape,
    ) = PLACEMENTS[move]  # type: ignore[misc]  # fmt: skip
    free ^= flip
    end_sum += delta
    opened_arms = arms and not free & other_line
    if opened_arms:  # both line sides joined: interior (R13, R14)
        end_sum -= 2 * value
        free |= arms
    if not free & VALUE_POINTS[value]:
        open_ &= ~(1 << value)
    open_ |= new_values
    if book is None:  # a search's: it knows positions by their shape
        position[SHAPE] = shape + shape_delta + arms_shape if opened_arms else shape + shape_delta
    else:  # a match's: the log, each hand as it came, each value's free points as they opened
        code = STEP_CODES[move][seat]
        book.steps.append(code)
        book.public.append(code)
        book.hands[seat].remove(t)
        free_order = book.free
        if point:
            del free_order[value][index]
        for v, q in opens:
            free_order[v][q] = None
        if opened_arms:
            for q in arm_points:
                free_order[value][q] = None
    hands ^= TILE_BIT[seat][t]
    position[HANDS] = hands
    position[FREE] = free
    position[END_SUM] = end_sum
    position[OPEN] = open_
    position[PENDING] = -1
    credit = end_sum if end_sum % 5 == 0 else 0  # R15 (a sum of 0 credits 0 either way)
    if not hands & SEAT_HAND[seat]:  # R18: domino
        return _settle_domino(position, seat, credit)
    events = _NO_EVENTS
    if credit:  # R16: its own event, target-checked (R4)
        side = SIDE[players][seat]
        accepted = accepts(scores[side], credit)
        events = (PLAY_EVENTS[seat][side][credit // 5][accepted],)
        if book is not None:
            book.events.append(events[0])
        if accepted:
            won = lands(scores[side], credit)
            score = scores[side] + credit
            position[SCORES] = (*scores[:side], score, *scores[side + 1 :])
            if won:  # R30: the match is won at once
                position[TO_ACT] = -1
                position[END] = TARGET
                return events
    if drawn >= len(bone) and not hands & FITS_ANY_SEAT[open_]:  # R11: blocked
        return events + _settle_block(position, book)
    position[TO_ACT] = seat + 1 if seat + 1 < players else 0
    return events


def _draw(position: Position) -> tuple[Event, ...]:
    """R10: the seat takes the boneyard's next tile; a playable one must be placed at once."""
    seat, drawn = position[TO_ACT], position[DRAWN]
    t = position[BONEYARD][drawn]
    position[HANDS] |= 1 << t + SHIFT[seat]
    position[DRAWN] = drawn + 1
    position[PENDING] = t if VALUE_MASK[t] & position[OPEN] else -1
    book = position[BOOK]
    if book is not None:
        book.steps.append((DRAWN_TILE + t) * 4 + seat)
        book.public.append(DRAW * 4 + seat)
        book.hands[seat].append(t)
        book.draws[seat].append(t)
    return _NO_EVENTS


def _pass(position: Position) -> tuple[Event, ...]:
    """R10: the seat passes; R11: the round is blocked once nobody can place."""
    book = position[BOOK]
    if book is not None:
        code = PASS * 4 + position[TO_ACT]
        book.steps.append(code)
        book.public.append(code)
    if not position[HANDS] & FITS_ANY_SEAT[position[OPEN]]:
        return _settle_block(position, book)
    seat = position[TO_ACT] + 1
    position[TO_ACT] = seat if seat < position[PLAYERS] else 0
    return _NO_EVENTS


# The pips of the tiles in each 7-bit part of a hand's mask: four lookups add up a hand.
_PIPS_7 = tuple(
    tuple(sum(PIPS[7 * part + i] for i in range(7) if chunk >> i & 1) for chunk in range(128))
    for part in range(4)
)


def hand_pips(position: Position) -> tuple[int, ...]:
    """Each seat's pips left in hand (R19-R21)."""
    hands = position[HANDS]
    first, second, third, fourth = _PIPS_7
    out = []
    for seat in range(position[PLAYERS]):
        hand = hands >> SHIFT[seat] & HAND
        out.append(
            first[hand & 127]
            + second[hand >> 7 & 127]
            + third[hand >> 14 & 127]
            + fourth[hand >> 21]
        )
    return tuple(out)


def _settle_domino(position: Position, seat: int, credit: int) -> tuple[Event, ...]:
    """R18-R19: the last placement, the opponents' pips and the partner's deduction as one
    event, applied or rejected whole (R4); recorded even when its net is 0."""
    players, scores = position[PLAYERS], position[SCORES]
    opponents_pips, opponents_raw, partner_pips, partner_raw = domino_pips(
        players, seat, hand_pips(position)
    )
    side = SIDE[players][seat]
    net = domino_net(credit, opponents_raw, partner_raw)
    accepted = accepts(scores[side], net)
    if accepted:
        position[SCORES] = (*scores[:side], scores[side] + net, *scores[side + 1 :])
    position[TO_ACT] = -1
    position[END] = DOMINO
    event = DominoEvent(
        seat, side, net, accepted, credit, opponents_raw, partner_raw, opponents_pips, partner_pips
    )
    book = position[BOOK]
    if book is not None:
        book.events.append(event)
    return (event,)


def _settle_block(position: Position, book: Book | None) -> tuple[Event, ...]:
    """R20-R22: each hand's credit, lightest first, each its own target-checked event; none
    after one reaches exactly 305 (R30)."""
    players, scores = position[PLAYERS], position[SCORES]
    events: list[Event] = []
    for line in block_credits(players, position[OPENER], hand_pips(position)):
        if line.raw <= 0:
            continue
        side = SIDE[players][line.seat]
        accepted = accepts(scores[side], line.raw)
        events.append(BlockEvent(line.seat, side, line.raw, accepted, line.pips, line.difference))
        if accepted:
            won = lands(scores[side], line.raw)
            scores = (*scores[:side], scores[side] + line.raw, *scores[side + 1 :])
            if won:  # R30: no credit after the match is won
                break
    position[SCORES] = scores
    position[TO_ACT] = -1
    position[END] = BLOCK
    position[PENDING] = -1
    if book is not None:
        book.events.extend(events)
    return tuple(events)


def won_by(position: Position) -> int | None:
    """The side that reached exactly 305 raw (R30), if any."""
    for side, score in enumerate(position[SCORES]):
        if score == TARGET_RAW:
            return side
    return None
