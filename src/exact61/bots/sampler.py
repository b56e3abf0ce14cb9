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

import random
from dataclasses import dataclass, field

from exact61.core import ALL_TILES, Layout, Match, SeatView, Tile
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


def _matching(tiles: list[int], masks: list[int]) -> list[int] | None:
    """Assign each slot (mask) a distinct tile avoiding its mask; tiles[i] for slot i, or None."""
    owner: dict[int, int] = {}  # tile position -> slot

    def augment(slot: int, seen: set[int]) -> bool:
        for i, t in enumerate(tiles):
            if i in seen or VALUE_MASK[t] & masks[slot]:
                continue
            seen.add(i)
            if i not in owner or augment(owner[i], seen):
                owner[i] = slot
                return True
        return False

    for slot in range(len(masks)):
        if not augment(slot, set()):
            return None
    chosen = [0] * len(masks)
    for i, slot in owner.items():
        chosen[slot] = tiles[i]
    return chosen


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


def determinize(view: SeatView, deal: SampledDeal) -> Match:
    """The match as it would stand if `deal` were the truth: a full state to search from."""
    assert view.to_act is not None and view.opener is not None
    return Match.from_position(
        view.players,
        layout=view.layout,
        hands=deal.hands,
        boneyard=deal.boneyard,
        to_act=view.to_act,
        opener=view.opener,
        scores=view.scores,
        pending_draw=view.pending_draw,
    )
