"""The engine as a search uses it: positions without a book (`engine.copy`, `engine.start(...,
book=False)`), their move listing in canonical order, `distinct_moves`, `search_key`, `redeal`.

A search position is played in lockstep with a `Match` (whose position keeps a book) and with the
reference implementation (tests/reference/rules.py, written from SPEC.md alone) over seeded
random matches: after every action the three must agree on the legal moves (R7, R9, R10, R13),
the events (R4, R14-R23, R30) and the state; the search position's shape, kept step by step by
`play`, must equal the one a fresh copy works out from its free points.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

import pytest

from exact61 import (
    ALL_POINTS,
    ALL_TILES,
    DRAW,
    PASS,
    AttachPoint,
    DominoEvent,
    Match,
    Play,
    PlayEvent,
    Tile,
)
from exact61.core import engine

# The builders of two import-time tables are private and no public function calls them after
# import: importing them is the one way to test them under mutation (see the end of this file).
from exact61.core.engine import _action, _move_class
from exact61.core.log import STEPS, Step, _steps
from exact61.core.points import KIND_OF_END
from tests.core.test_reference import event_fields
from tests.helpers import rest_of_set
from tests.reference.rules import PLAYING, ReferenceMatch

STRIDE = engine.MOVE_STRIDE


def point_kind(p: int) -> int:
    """R13/R14: a point's kind (a non-double's end, a line side, a side arm)."""
    return KIND_OF_END[ALL_POINTS[p].end]


def equivalence_key(move: int) -> tuple[object, ...]:
    """R13/R14, read from the tiles and points: placements of one tile at points of the same
    value and kind are equivalent; an opening, a draw and a pass are each their own."""
    if move in (engine.DRAW, engine.PASS):
        return ("no placement", move)
    t, p = divmod(move, STRIDE)
    if p == engine.OPENING:
        return ("opening", t)
    return ("placement", t, ALL_POINTS[p].value, point_kind(p))


def expected_shape(free: int) -> int:
    """The layout's shape as `POSITION_FIELDS` describes it: three bits a count of free points,
    by value and kind, counted here point by point."""
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for p in range(len(ALL_POINTS)):
        if free >> p & 1:
            counts[ALL_POINTS[p].value, point_kind(p)] += 1
    return sum(n << 3 * (value * 3 + kind) for (value, kind), n in counts.items())


def hand_mask(tiles: Sequence[Tile]) -> int:
    return sum(1 << t.ordinal for t in tiles)


def check_distinct(position: engine.Position, legal: list[int]) -> None:
    """`distinct_moves`: one legal move per class of equivalent ones (R13/R14), the one at the
    lowest free point, in class order (by tile, then value, then kind)."""
    by_class: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for move in legal:
        by_class[equivalence_key(move)].append(move)
    want = sorted((min(moves) for moves in by_class.values()), key=engine.move_class)
    assert engine.distinct_moves(position) == want
    assert len({engine.move_class(m) for m in want}) == len(by_class)


def check_search_position(search: engine.Position, match: Match, ref: ReferenceMatch) -> list[int]:
    """Compare a search position with the match and the reference it plays alongside; return
    its legal moves."""
    legal = engine.legal_moves(search)
    # R7, R9, R10, R13: the same moves as the reference allows, in canonical order.
    assert legal == sorted(legal) and len(set(legal)) == len(legal)
    assert set(legal) == {engine.move_of(a) for a in ref.legal_actions()}
    assert sorted(legal) == sorted(engine.move_of(a) for a in match.legal_actions())
    fields = engine.unpack(search)
    assert fields.book is None
    placing = [m for m in legal if m < engine.DRAW]
    assert engine.playable(search) == sum({1 << m // STRIDE for m in placing})
    # The state, item by item, as documented in POSITION_FIELDS.
    seat = match.to_act
    assert seat is not None and fields.to_act == seat and fields.players == match.players
    pending = match.pending_draw
    assert fields.pending == (-1 if pending is None else pending.ordinal)
    for s in range(match.players):
        assert engine.hand_of(search, s) == hand_mask(match.hand(s))
        assert engine.hand_of(search, s) == hand_mask(ref.round.hands[s])
    assert fields.free == match.layout.free_mask and fields.end_sum == ref.round.table.end_sum
    assert fields.open == sum({1 << v for v in ref.round.table.free.values()})
    assert fields.scores == match.scores == tuple(ref.scores)
    assert fields.shape == expected_shape(fields.free)
    assert len(fields.boneyard) - fields.drawn == len(ref.round.boneyard) == match.boneyard_size
    assert engine.hand_pips(search) == tuple(sum(t.pips for t in h) for h in ref.round.hands)
    # A fresh copy of the match's position works out its shape from scratch: the same key.
    fresh = match.position()
    assert fresh is not None and engine.unpack(fresh).book is None
    assert engine.search_key(fresh) == engine.search_key(search)
    check_distinct(search, legal)
    # R15: the credit each move would earn is what playing it earns.
    for move in legal:
        after = engine.copy(search)
        first = next(iter(engine.play(after, move)), None)
        earned = 0  # no credit, or a draw or a pass (a block's events are hands', R22)
        if isinstance(first, DominoEvent):
            earned = first.play_raw  # R19: the last placement's credit is part of the domino
        elif isinstance(first, PlayEvent):
            earned = first.raw
        assert engine.credit_of(search, move) == earned, move
    return legal


def lockstep_match(players: int, seed: int) -> set[str]:
    """A whole seeded random match through a search position, a match and the reference; the
    ways its rounds ended and what the steps went through."""
    rng = random.Random(seed)
    # Every other match starts near 305, where R4 and R30 decide more often.
    sides = 2 if players == 4 else players
    scores = None if seed % 2 else [rng.randrange(200, 305, 5) for _ in range(sides)]
    match = Match(players, scores=scores)
    ref = ReferenceMatch(players, scores)
    seen: set[str] = set()
    while not match.is_over:
        match.deal_next_round(rng)
        log = match.rounds[-1]
        assert log.deal is not None
        ref.start_round(log.deal, log.opener)
        hands = [log.deal.hand_indices(s) for s in range(players)]
        bone = log.deal.boneyard_indices()
        search = engine.start(hands, bone, log.opener, match.scores, book=False)
        assert engine.unpack(search).shape == 0
        while match.to_act is not None:
            legal = check_search_position(search, match, ref)
            move = rng.choice(legal)
            action = engine.action_of(move)
            if engine.unpack(search).pending >= 0:
                seen.add("pending")
            if move == engine.PASS:
                seen.add("pass")
            events = engine.play(search, move)
            assert events == tuple(match.apply(action))
            assert [event_fields(e) for e in events] == [event_fields(e) for e in ref.apply(action)]
        end = engine.unpack(search)
        assert end.to_act == -1 and end.pending == -1
        assert engine.legal_moves(search) == engine.distinct_moves(search) == []
        assert engine.playable(search) == 0
        assert engine.END_KINDS[end.end] == match.rounds[-1].end.kind  # type: ignore[union-attr]
        assert ref.phase != PLAYING
        seen.add(match.rounds[-1].end.kind)  # type: ignore[union-attr]
        assert engine.won_by(search) == match.winner
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_search_position_plays_as_the_match_and_the_reference(players: int) -> None:
    """R4-R23, R30: a position without a book lists and plays every move as a match's position
    and the reference do."""
    seen: set[str] = set()
    for seed in range(12):
        seen |= lockstep_match(players, seed)
    assert seen == {"pending", "pass", "domino", "block", "target"}  # R10, R11, R18, R30


def midround(players: int, seed: int, actions: int) -> Match:
    """A seeded random match, `actions` actions into its first round (or fewer, to stop short
    of its end), with no drawn tile waiting to be placed."""
    rng = random.Random(seed)
    match = Match(players)
    match.deal_next_round(rng)
    for _ in range(actions):
        trial = match.copy()
        trial.apply(rng.choice(trial.legal_actions()))
        if trial.to_act is None:
            break
        match = trial
    while match.pending_draw is not None:
        match.apply(match.legal_actions()[0])
    assert match.to_act is not None
    return match


def book_position(match: Match) -> engine.Position:
    """The match's round as a position with a book, set up from what the match shows."""
    log = match.rounds[-1]
    assert log.deal is not None and match.to_act is not None
    bone = log.deal.boneyard_indices()[len(log.deal.boneyard) - match.boneyard_size :]
    hands = [match.hand_indices(s) for s in range(match.players)]
    return engine.resume(
        hands, log.placements, bone, match.to_act, log.opener, match.scores, book=True
    )


def sampled_deal(match: Match, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """Other hidden tiles for the match's round: every tile off the layout shuffled and dealt
    again, each seat as many as it holds, the rest to the boneyard."""
    hidden = [t for seat in range(match.players) for t in match.hand(seat)]
    log = match.rounds[-1]
    assert log.deal is not None
    hidden += log.deal.boneyard[len(log.deal.boneyard) - match.boneyard_size :]
    rng.shuffle(hidden)
    hands = []
    for size in match.hand_sizes():
        hands.append(hidden[:size])
        del hidden[:size]
    return hands, hidden


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_redealt_position_plays_as_a_match_set_up_with_those_tiles(players: int) -> None:
    """`redeal` changes only the hidden tiles (R5): a match's position redealt lists its moves
    and plays on (draws from the new boneyard, R10; settles the new hands, R18-R22) exactly as
    a match set up mid-round with the same layout and those tiles, and leaves the position it
    came from as it was."""
    for seed in range(6):
        rng = random.Random(seed)
        match = midround(players, seed, rng.randrange(1, 12))
        original = book_position(match)
        listed = engine.legal_moves(original)
        hands, bone = sampled_deal(match, rng)
        to_act = match.to_act
        assert to_act is not None
        twin = Match.from_position(
            players,
            layout=match.layout,
            hands=hands,
            boneyard=bone,
            to_act=to_act,
            opener=match.rounds[-1].opener,
            scores=match.scores,
        )
        indices = [[t.ordinal for t in hand] for hand in hands]
        redealt = engine.redeal(original, indices, [t.ordinal for t in bone])
        search = engine.redeal(engine.copy(original), indices, [t.ordinal for t in bone])
        fields = engine.unpack(redealt)
        assert fields.book is not None and engine.unpack(search).book is None
        assert fields.drawn == 0 and fields.boneyard == tuple(t.ordinal for t in bone)
        assert fields.book.steps == fields.book.public == [] and fields.book.events == []
        assert fields.book.draws == [[] for _ in range(players)]
        for s in range(players):
            assert engine.hand_of(redealt, s) == hand_mask(hands[s]) == engine.hand_of(search, s)
        while twin.to_act is not None:
            want = [engine.move_of(a) for a in twin.legal_actions()]
            assert engine.legal_moves(redealt) == want  # as a match lists them, in order
            assert engine.legal_moves(search) == sorted(want)
            move = rng.choice(want)
            events = tuple(twin.apply(engine.action_of(move)))
            assert engine.play(redealt, move) == events == engine.play(search, move)
            assert engine.search_key(engine.copy(redealt)) == engine.search_key(search)
        log = twin.rounds[-1]
        book = engine.unpack(redealt).book
        assert book is not None
        assert (book.steps, book.public, book.draws) == (
            log.step_codes,
            log.public_codes,
            log.draws,
        )
        assert engine.unpack(redealt).end != engine.IN_PLAY
        # The position it came from still lists, and plays, as before.
        assert engine.legal_moves(original) == listed
        assert engine.unpack(original).book.steps == []  # type: ignore[union-attr]
        assert original == book_position(match)


def test_a_copy_is_a_search_position_apart_from_the_original() -> None:
    """`copy` leaves the book behind and works out the shape; playing on it changes nothing
    of the position it was made from."""
    match = midround(4, 5, 9)
    original = book_position(match)
    before = list(original)
    clone = engine.copy(original)
    fields = engine.unpack(clone)
    assert fields.book is None and fields.shape == expected_shape(fields.free) != 0
    assert clone[: engine.SHAPE] == original[: engine.SHAPE]
    assert clone[engine.SHAPE + 1 : engine.BOOK] == original[engine.SHAPE + 1 : engine.BOOK]
    again = engine.copy(clone)  # a search position's copy keeps its shape as it is
    assert again == clone and again is not clone
    engine.play(clone, engine.legal_moves(clone)[0])
    assert original == before and again != clone


def test_the_search_key_is_what_decides_the_rest_of_the_round() -> None:
    """R13/R14: placements of one tile at equivalent points leave positions with one key; any
    other placement, a change in hands, scores, the seat to act, the draws made or a pending
    draw gives another key. The book, free points and end sum are not part of it."""
    checked = 0
    for seed in range(40):
        search = engine.copy(book_position(midround(2, seed, seed % 9 + 1)))
        legal = engine.legal_moves(search)
        keys = {}
        for move in legal:
            after = engine.copy(search)
            engine.play(after, move)
            keys[move] = engine.search_key(after)
        for a in legal:
            for b in legal:
                same = equivalence_key(a) == equivalence_key(b)
                assert (keys[a] == keys[b]) == same, (a, b)
                checked += same and a != b
        key = engine.search_key(search)
        for item, other in (
            (engine.HANDS, engine.unpack(search).hands ^ 1 << 60),
            (engine.SHAPE, engine.unpack(search).shape + 1),
            (engine.SCORES, tuple(score + 5 for score in engine.unpack(search).scores)),
            (engine.TO_ACT, 1 - engine.unpack(search).to_act),
            (engine.DRAWN, engine.unpack(search).drawn + 1),
            (engine.PENDING, 3),
        ):
            changed = search.copy()
            changed[item] = other
            assert engine.search_key(changed) != key, engine.POSITION_FIELDS[item]
        for item in (engine.END_SUM, engine.FREE, engine.OPEN, engine.BOOK):
            changed = search.copy()
            changed[item] = 1
            assert engine.search_key(changed) == key, engine.POSITION_FIELDS[item]
    assert checked  # some placements had an equivalent one


def test_move_classes_are_the_equivalences_of_R13_R14() -> None:
    """`move_class` and `class_of`: one class per tile, point value and point kind; an
    opening, a draw and a pass each their own."""
    classes: dict[tuple[object, ...], set[int]] = defaultdict(set)
    for move, action in enumerate(engine.ACTIONS):
        if action is None:
            continue
        assert engine.class_of(action) == engine.move_class(move)
        classes[equivalence_key(move)].add(engine.move_class(move))
    assert all(len(c) == 1 for c in classes.values())
    assert len(set.union(*classes.values())) == len(classes)
    assert engine.class_of(DRAW) != engine.class_of(PASS)
    assert engine.class_of(DRAW) == engine.move_class(engine.DRAW)
    # R13: a lone double's two line sides are equivalent
    sides = [Play(Tile(2, 3), AttachPoint(Tile(3, 3), end)) for end in ("lineA", "lineB")]
    assert engine.class_of(sides[0]) == engine.class_of(sides[1])
    assert engine.class_of(sides[0]) != engine.class_of(Play(Tile(3, 3), None))


def test_tile_masks_and_packed_hands() -> None:
    """A hand's mask has bit t for tile t; `Position.hands` holds seat s's mask from bit
    `SHIFT[s]` = 28 s up (POSITION_FIELDS)."""
    assert engine.tile_mask([]) == 0
    assert engine.tile_mask([0, 5, 27]) == 1 | 1 << 5 | 1 << 27
    assert engine.tile_mask((3, 3)) == 8
    hands = [engine.tile_mask([0, 1]), engine.tile_mask([27]), 0, engine.tile_mask([4])]
    packed = engine.pack_hands(hands)
    assert packed == 3 | 1 << 27 + 28 | 1 << 4 + 84
    position = [0] * len(engine.POSITION_FIELDS)
    position[engine.HANDS] = packed
    assert [engine.hand_of(position, s) for s in range(4)] == hands
    assert engine.pack_hands([]) == 0 and engine.pack_hands([5]) == 5


def test_placing_where_no_tile_can_go_is_refused() -> None:
    """R9, R13: the engine's own checks on a placement it is given (a caller's error)."""
    nowhere = Tile(1, 2).ordinal * STRIDE + AttachPoint(Tile(5, 6), "low").ordinal
    with pytest.raises(AssertionError, match=r"^the tile cannot go there$"):
        engine.place(0, 0, 0, nowhere)
    with pytest.raises(AssertionError, match=r"^the tile cannot go there$"):
        engine.credit_of(engine.start([[0]], [], 0, [0]), nowhere)
    free, end_sum, open_ = engine.place(0, 0, 0, Tile(1, 5).ordinal * STRIDE + engine.OPENING)
    high = AttachPoint(Tile(1, 5), "high").ordinal
    layout = engine.place(free, end_sum, open_, Tile(5, 6).ordinal * STRIDE + high)
    with pytest.raises(AssertionError, match=r"^the point is not free$"):
        engine.place(*layout, Tile(2, 5).ordinal * STRIDE + high)  # [5|6] joined it
    assert ALL_POINTS[0].tile == ALL_TILES[0]  # move 0 would join [0|0] to itself
    with pytest.raises(AssertionError, match=r"^no tile can make move 0$"):
        engine.action_of(0)


# ---- tables built at import, built again --------------------------------------------------
# Mutation testing switches a mutant on only after the tests are imported, so a table built at
# import is built by the original code: its builder is called again here, and the rebuilt table
# must equal the module's, which is checked entry by entry against the rules.


def test_the_move_tables_built_again_are_the_modules() -> None:
    """`ACTIONS` and `MOVE_CLASSES` as their builders make them now."""
    moves = range(engine.MOVE_COUNT)
    assert [_action(m) for m in moves] == list(engine.ACTIONS)
    assert [_move_class(m) for m in moves] == list(engine.MOVE_CLASSES)


def test_every_action_of_a_move_is_the_placement_it_names() -> None:
    """R7, R9, R13: move `tile * MOVE_STRIDE + point` is that tile at that point (`OPENING`: as
    the round's first tile) when the tile shows the point's value and is not its host; else no
    action. The draw and the pass come after every placement."""
    for t, tile in enumerate(ALL_TILES):
        for p, point in enumerate(ALL_POINTS):
            fits = point.tile != tile and point.value in (tile.low, tile.high)
            assert _action(t * STRIDE + p) == (Play(tile, point) if fits else None)
        assert _action(t * STRIDE + engine.OPENING) == Play(tile, None)
    assert _action(engine.DRAW) is DRAW and _action(engine.PASS) is PASS
    assert len(ALL_TILES) * STRIDE == engine.DRAW and engine.PASS == engine.DRAW + 1


def test_the_step_table_built_again_reads_every_code() -> None:
    """A log's code is `move * 4 + seat`; a draw naming its tile is `(DRAWN_TILE + tile) * 4 +
    seat` (engine.py); codes of moves no tile can make name no step."""
    assert _steps() == STEPS
    assert len(STEPS) == (engine.DRAWN_TILE + len(ALL_TILES)) * 4 == engine.STEP_COUNT
    for move in range(engine.MOVE_COUNT):
        action = engine.ACTIONS[move]
        for seat in range(4):
            assert STEPS[move * 4 + seat] == (None if action is None else Step(seat, action))
    for t, tile in enumerate(ALL_TILES):
        for seat in range(4):
            assert STEPS[(engine.DRAWN_TILE + t) * 4 + seat] == Step(seat, DRAW, tile)
    assert STEPS[engine.PASS * 4 + 3] == Step(3, PASS) and STEPS[engine.DRAW * 4] == Step(0, DRAW)


def test_each_placements_shape_change_and_opening_fields() -> None:
    """What `placement` works out besides the join (test_core.py checks that): the change in
    the layout's shape, the arms' shape (R13: they open with a double's second line side), and
    for an opening (R7) the tile, its low pip and nothing to join or open later."""
    for t, tile in enumerate(ALL_TILES):
        opening = engine.placement(t, engine.OPENING)
        assert opening is not None
        assert (opening.tile, opening.value, opening.joined) == (t, tile.low, None)
        assert (opening.other_line, opening.arms, opening.arm_points) == (0, 0, ())
        assert opening.shape == expected_shape(opening.flip) and opening.arms_shape == 0
        for p in range(len(ALL_POINTS)):
            got = engine.placement(t, p)
            if got is None:
                continue
            assert got.tile == t
            new_end = got.flip & ~(1 << p)
            assert got.shape == expected_shape(new_end) - expected_shape(1 << p)
            assert got.arms_shape == expected_shape(got.arms)


def test_a_drawn_double_blank_is_the_only_tile_to_place() -> None:
    """R10: after a playable draw only that very tile may be placed, also when it is tile 0,
    [0|0]; other tiles in hand that fit are not listed."""
    layout = [(Tile(0, 5), None)]
    hands = [[Tile(5, 6), Tile(0, 3), Tile(0, 0)], [Tile(1, 2), Tile(1, 1)]]
    match = Match.from_position(
        2,
        layout=layout,
        hands=hands,
        boneyard=rest_of_set([Tile(0, 5)], *hands),
        to_act=0,
        opener=0,
        pending_draw=Tile(0, 0),
    )
    search = match.position()
    assert search is not None and engine.unpack(search).pending == Tile(0, 0).ordinal == 0
    assert engine.playable(search) == 1  # bit 0: [0|0] alone
    blank = [
        m
        for m in range(STRIDE)
        if engine.ACTIONS[m] == Play(Tile(0, 0), AttachPoint(Tile(0, 5), "low"))
    ]
    assert engine.legal_moves(search) == blank == engine.distinct_moves(search)
    assert [engine.move_of(a) for a in match.legal_actions()] == blank


def test_a_match_plays_on_only_from_a_position_with_a_book() -> None:
    search = engine.start([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], range(10, 28), 0, [0, 0], book=False)
    with pytest.raises(AssertionError, match=r"^a match's position keeps a book$"):
        Match(2).take_position(search)


def test_a_book_shows_each_of_its_parts_by_name() -> None:
    """A book's repr names every part with its value, in the constructor's order, so a failing
    comparison of two positions says which part differs."""
    book = engine.Book([[1, 2], [3]], [{4: None}], [5], [6], [[7], []], [])
    assert repr(book) == (
        "Book(hands=[[1, 2], [3]], free=[{4: None}], steps=[5], public=[6], "
        "draws=[[7], []], events=[])"
    )
    same = engine.Book([[1, 2], [3]], [{4: None}], [5], [6], [[7], []], [])
    assert book == same and repr(book) == repr(same)
    assert book != engine.Book([[1, 2], [3]], [{4: None}], [5], [9], [[7], []], [])
