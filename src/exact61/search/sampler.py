"""Deal the tiles a seat cannot see, consistently with everything its view reveals.

What a seat knows about the others: the tiles it sees (its hand, the layout), each seat's hand
size and the boneyard's size, and what draws and passes reveal (R10): a seat that drew or passed
held no tile matching any free attach point at that moment.

Each hidden tile of another seat is a slot that entered the hand when dealt or drawn; a slot may
not hold a tile showing a value that was open at any later draw or pass of that seat. When a seat
places a tile that was not just drawn, which slot it came from is unknown, but not arbitrary: the
tile was in hand at every draw and pass of that seat since its slot's entry, so it can only come
from a slot whose evidence so far it avoids. Earlier slots carry more evidence (their masks are
nested), so the slots a placed tile can come from are the latest ones; the earliest of those is
taken as gone. That leaves the weakest constraints any history consistent with the view can
have (an exchange argument: a later placement that used the slot taken could use the other), so
the real deal always satisfies them and every sample is a deal the view allows (both tested,
the second against a brute-force reading of R10).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from exact61.core import (
    ALL_TILES,
    Layout,
    Play,
    PublicStep,
    SeatView,
    Tile,
    engine,
)
from exact61.core.engine import Position
from exact61.core.settlement import kept, side_of
from exact61.core.tiles import TILE_INDEX, VALUE_MASK


@dataclass(frozen=True)
class Knowledge:
    """What a view reveals about the hidden tiles: one forbidden-value mask per hidden slot."""

    seat: int
    unseen: tuple[Tile, ...]  # every tile not in the seat's hand nor on the table
    slots: tuple[tuple[int, ...], ...]  # per seat: a bit mask of forbidden pip values per tile
    boneyard_size: int

    pool: tuple[int, ...] = field(init=False)  # the unseen tiles' indices
    order: tuple[tuple[int, int], ...] = field(init=False)  # (seat, mask) per slot, tightest first

    def __post_init__(self) -> None:
        slots = [(s, mask) for s, masks in enumerate(self.slots) for mask in masks]
        slots.sort(key=lambda sm: -sm[1].bit_count())
        object.__setattr__(self, "pool", tuple(TILE_INDEX[t] for t in self.unseen))
        object.__setattr__(self, "order", tuple(slots))

    def allows(self, seat: int, tiles: tuple[Tile, ...]) -> bool:
        """Whether `tiles` could be seat's hidden hand (a matching of tiles to its slots)."""
        return _matching([TILE_INDEX[t] for t in tiles], list(self.slots[seat])) is not None


def knowledge_of(view: SeatView) -> Knowledge:
    """Read the view's public history for what it reveals about each hidden hand."""
    players = view.players
    layout = Layout()
    # Per seat, its slots as [entry, mask of values open at its draws and passes since then].
    slots: list[list[list[int]]] = [[[-1, 0] for _ in range(5)] for _ in range(players)]
    previous = None
    for k, step in enumerate(view.history):
        s = step.seat
        held = slots[s]
        if step.kind == "play":
            assert step.play is not None
            if previous is not None and previous.seat == s and previous.kind == "draw":
                gone = next(i for i, slot in enumerate(held) if slot[0] == k - 1)  # R10: at once
            else:
                tile = VALUE_MASK[TILE_INDEX[step.play.tile]]
                # The earliest slot the tile can have sat in since its entry (slots are in entry
                # order, their masks nested); for a real history one always exists.
                gone = next((i for i, slot in enumerate(held) if not tile & slot[1]), 0)
            del held[gone]
            layout.place(step.play.tile, step.play.at)
        else:  # a draw or a pass: nothing in hand matched an open value (R10)
            open_values = layout.open_values
            for slot in held:
                slot[1] |= open_values
            if step.kind == "draw":
                held.append([k, 0])  # enters after this evidence
        previous = step
    masks: list[tuple[int, ...]] = []
    for s in range(players):
        if s == view.seat:
            masks.append(())
            continue
        assert len(slots[s]) == view.hand_sizes[s], "history and hand size disagree"
        masks.append(tuple(sorted((mask for _, mask in slots[s]), reverse=True)))
    seen = set(view.hand) | set(view.layout.tiles)
    unseen = tuple(t for t in ALL_TILES if t not in seen)
    return Knowledge(view.seat, unseen, tuple(masks), view.boneyard_size)


@dataclass(frozen=True)
class SampledDeal:
    """One consistent guess at the hidden information: every hand and the boneyard's order."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]


def assignment(candidates: Sequence[Sequence[int]]) -> list[int] | None:
    """A bipartite matching: for each slot, one of its candidate items (their indices, tried in
    the order given), no item twice; None when no such choice exists. Augmenting paths."""
    owner: dict[int, int] = {}  # item -> slot

    def augment(slot: int, seen: set[int]) -> bool:
        for i in candidates[slot]:
            if i in seen:
                continue
            seen.add(i)
            if i not in owner or augment(owner[i], seen):
                owner[i] = slot
                return True
        return False

    for slot in range(len(candidates)):
        if not augment(slot, set()):
            return None
    chosen = [0] * len(candidates)
    for i, slot in owner.items():
        chosen[slot] = i
    return chosen


def _matching(tiles: list[int], masks: list[int]) -> list[int] | None:
    """Assign each slot (mask) a distinct tile avoiding its mask; tiles[i] for slot i, or None."""
    fits = [[i for i, t in enumerate(tiles) if not VALUE_MASK[t] & mask] for mask in masks]
    chosen = assignment(fits)
    return None if chosen is None else [tiles[i] for i in chosen]


def sample_deal(
    view: SeatView, rng: random.Random, knowledge: Knowledge | None = None
) -> SampledDeal:
    """Deal the unseen tiles consistently with this view (pass `knowledge` to reuse it)."""
    hands, boneyard = sample_indices(knowledge or knowledge_of(view), rng)
    return _finish(view, hands, boneyard)


def sample_indices(know: Knowledge, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """`sample_deal` as tile indices: each hidden hand (the viewing seat's left empty) and the
    boneyard in draw order. Slots are filled tightest first from a shuffled pool; a slot that
    nothing constrains takes the pool's next tile, which is as uniform as any."""
    order = know.order
    for _ in range(20):  # random greedy; a dead end restarts
        left = list(know.pool)
        rng.shuffle(left)
        hands: list[list[int]] = [[] for _ in know.slots]
        for s, mask in order:
            if not mask:
                hands[s].append(left.pop())
                continue
            fits = [j for j, t in enumerate(left) if not VALUE_MASK[t] & mask]
            if not fits:
                break
            hands[s].append(left.pop(fits[rng.randrange(len(fits))]))
        else:
            return hands, left
    # Rare: a matching over all hidden slots at once always succeeds (the truth is one).
    pool = list(know.pool)
    rng.shuffle(pool)
    chosen = _matching(pool, [m for _, m in order])
    if chosen is None:  # pragma: no cover - impossible for a view of a real match
        raise ValueError("no deal is consistent with this view")
    hands = [[] for _ in know.slots]
    for (s, _), t in zip(order, chosen, strict=True):
        hands[s].append(t)
    taken = set(chosen)
    return hands, [t for t in pool if t not in taken]


def _finish(view: SeatView, hands: list[list[int]], boneyard: list[int]) -> SampledDeal:
    out = []
    for s, hand in enumerate(hands):
        out.append(view.hand if s == view.seat else tuple(ALL_TILES[t] for t in hand))
    return SampledDeal(tuple(out), tuple(ALL_TILES[t] for t in boneyard))


def position_of(
    view: SeatView,
    hidden: Sequence[Sequence[int]] = (),
    boneyard: Sequence[int] = (),
    *,
    book: bool = False,
) -> Position:
    """The view's round as an engine position, with `hidden` as every other seat's tiles (tile
    indices; the viewing seat's own entry is ignored, its view's hand is used) and the boneyard
    in draw order. With `book`, it lists its moves as a match does (see `engine.Book`)."""
    assert view.to_act is not None and view.opener is not None
    own = [TILE_INDEX[t] for t in view.hand]
    hands = [
        own if s == view.seat else list(hidden[s]) if hidden else [] for s in range(view.players)
    ]
    pending = -1 if view.pending_draw is None else TILE_INDEX[view.pending_draw]
    return engine.resume(
        hands,
        view.layout.moves,
        boneyard,
        view.to_act,
        view.opener,
        view.scores,
        pending,
        book=book,
    )


# ---- inference from the others' choices (the `equity` bot's; `ismcts` samples uniformly) ------

# ismcts's own choices (1,187 of them, 2 players) fit a softmax over its moves best with these:
# each move exp(credit / 4 raw points), a double's times e^1.2 (it places doubles while it can).
CHOICE_TEMPERATURE = 4.0
CHOICE_DOUBLE_BONUS = 1.2


@dataclass(frozen=True)
class Choice:
    """A placement another seat chose from its hand, whose whole hand at that moment is known
    up to its hidden tiles now: if it has not drawn since (R10), it then held its hidden tiles,
    the tile it placed and those it placed later (see `choices_of` for one that has drawn).

    The choice is modelled as a softmax over the moves it had: each move `exp(credit /
    temperature)` (R15; a credit R4 would reject counts 0), a double's times `exp(double_bonus)`.
    `base` sums that over the moves of the tiles known to have been in hand, `alt[t]` over the
    moves hidden tile t would have added. A deal giving the seat hidden tiles H is then
    `base / (base + sum alt[H])` as likely as the likeliest (H adding no move)."""

    seat: int
    base: float
    alt: tuple[float, ...]  # per tile index


def _move_worths(
    layout: Layout, tile: Tile, score: int, temperature: float, double_bonus: float
) -> float:
    """Sum over the distinct moves placing `tile` (equivalent attach points once) of
    exp(credit / temperature) (the credit a side at `score` keeps, R4), times exp(double_bonus)
    for a double; 0 if it does not fit."""
    scale = math.exp(double_bonus) if tile.low == tile.high else 1.0
    if layout.is_empty:  # R7: the opening
        credit = layout.credit_after(tile, None)
        return scale * math.exp(kept(score, credit) / temperature)
    total = 0.0
    seen: set[int] = set()
    for at in layout.points_for(tile):
        key = engine.move_class(engine.move_of(Play(tile, at)))
        if key in seen:
            continue
        seen.add(key)
        total += math.exp(kept(score, layout.credit_after(tile, at)) / temperature)
    return scale * total


def choices_of(
    view: SeatView,
    temperature: float = CHOICE_TEMPERATURE,
    before_draws: bool = False,
    double_bonus: float = CHOICE_DOUBLE_BONUS,
) -> tuple[Choice, ...]:
    """The other seats' placements since their last draw (see `Choice`), from the view's history.
    A placement right after its own draw is forced (R10) and tells nothing about the hand.

    With `before_draws`, also the placements before a seat's later draws. Then its hand at the
    moment is less sure: tiles drawn later (R10) were not in it, and which of its hidden tiles
    those are is not known; each hidden tile's moves count in proportion to the share of its
    hidden tiles that were already in hand (its hidden tiles, less the tiles it drew later and
    did not place at once, over its hidden tiles)."""
    history = view.history
    last_draw = [-1] * view.players
    for k, step in enumerate(history):
        if step.kind == "draw":
            last_draw[step.seat] = k
    seen = {TILE_INDEX[t] for t in view.hand} | {TILE_INDEX[t] for t in view.layout.tiles}
    unseen = [t for t in range(len(ALL_TILES)) if t not in seen]
    layout = Layout()
    out = []
    for k, step in enumerate(history):
        if step.kind != "play":
            continue
        assert step.play is not None
        s = step.seat
        if s != view.seat and (before_draws or k > last_draw[s]) and not _after_draw(history, k):
            # The score now is at least the score then: R4 is judged by the score now.
            score = view.scores[side_of(view.players, s)]
            held = {TILE_INDEX[step.play.tile]}
            kept = 0  # tiles it drew later and kept in hand (not placed at once)
            for j in range(k + 1, len(history)):
                later = history[j]
                if later.seat != s:
                    continue
                if later.play is not None and not _after_draw(history, j):
                    held.add(TILE_INDEX[later.play.tile])
                elif later.kind == "draw" and not (
                    j + 1 < len(history) and history[j + 1].seat == s and history[j + 1].play
                ):
                    kept += 1
            hidden = view.hand_sizes[s]
            share = max(0, hidden - kept) / hidden if hidden else 0.0
            if share <= 0.0:
                layout.place(step.play.tile, step.play.at)
                continue
            base = sum(
                _move_worths(layout, ALL_TILES[t], score, temperature, double_bonus) for t in held
            )
            worth = [0.0] * len(ALL_TILES)  # 0 for the tiles seen now: they are no one's guess
            for t in unseen:
                worth[t] = share * _move_worths(
                    layout, ALL_TILES[t], score, temperature, double_bonus
                )
            out.append(Choice(s, base, tuple(worth)))
        layout.place(step.play.tile, step.play.at)
    return tuple(out)


def _after_draw(history: Sequence[PublicStep], k: int) -> bool:
    """Whether step k places the tile its seat has just drawn (R10: forced, and no choice)."""
    return k > 0 and history[k - 1].seat == history[k].seat and history[k - 1].kind == "draw"


def choice_weight(choices: Sequence[Choice], hands: Sequence[Sequence[int]]) -> float:
    """How likely the seats' observed choices are with these hidden hands (tile indices, as
    `sample_indices` deals them), relative to the likeliest hands: in (0, 1]."""
    weight = 1.0
    for choice in choices:
        alt = choice.alt
        extra = 0.0
        for t in hands[choice.seat]:
            extra += alt[t]
        weight *= choice.base / (choice.base + extra)
    return weight


def sample_weighted(
    know: Knowledge,
    choices: Sequence[Choice],
    rng: random.Random,
    tries: int = 8,
) -> tuple[list[list[int]], list[int]]:
    """`sample_indices`, then kept with chance `choice_weight` (rejection sampling:
    deals in proportion to how likely they make the others' choices). After `tries` rejections
    the likeliest deal seen is taken. Every deal returned is one `sample_indices` gives, so it
    agrees with the view."""
    best: tuple[list[list[int]], list[int]] | None = None
    best_weight = -1.0
    for _ in range(tries):
        deal = sample_indices(know, rng)
        if not choices:
            return deal
        weight = choice_weight(choices, deal[0])
        if rng.random() < weight:
            return deal
        if weight > best_weight:
            best, best_weight = deal, weight
    assert best is not None
    return best
