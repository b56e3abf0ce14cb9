"""Both engines in lockstep: the native engine (`exact61.core._native`) against the Python
engine that defines the rules (`exact61.core.engine`), action by action.

Two matches, one on each engine, are dealt the same rounds from one seed; a bot chooses each
action from the Python match's view and both matches take it. After every action the two must
agree on everything the rules decide: the ordered legal actions (a seeded bot picks from that
list by index, so the order is part of every record), the events, the scores and the whole
position (hands, free attach points, end sum, boneyard, the seat to act, how the round ended),
its log and, on a sample of actions, every seat's view; an illegal action injected on a sample
of actions must be refused by both with the same rule and message. A digest per match of all of
it is compared too, so a disagreement anywhere is reported with where it was.

The fast suite plays a few hundred matches; the slow one (CI) 10,000 per player count, a third
each by random, greedy and heuristic play. docs/testing.md gives the figure of a run over 10^6
matches per player count.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exact61.bots import make_bot
from exact61.core import (
    ALL_POINTS,
    ALL_TILES,
    DRAW,
    PASS,
    Action,
    IllegalMoveError,
    Match,
    Play,
    engines,
)
from exact61.core.engine import BONEYARD, BOOK, DRAWN, PENDING, SCORES, TO_ACT
from exact61.core.engine import DRAW as DRAW_MOVE
from exact61.core.engines import Engine
from tests.helpers import native_engine

BOTS = ("random", "greedy", "heuristic")
VIEWED = 7  # every seat's views are compared on one action in this many
INJECTED = 11  # an illegal action is tried on one action in this many


@pytest.fixture(scope="module")
def native() -> Engine:
    return native_engine()


def state(match: Match) -> tuple[object, ...]:
    """Everything the rules decide of a match at this moment, as plain values."""
    position = match.position()
    book = None
    rounds = match.rounds
    if rounds:
        log = rounds[-1]
        book = (
            tuple(log.step_codes),
            tuple(log.public_codes),
            tuple(map(tuple, log.draws)),
            tuple(log.events),
            log.end,
        )
    hands = tuple(match.hand_indices(s) for s in range(match.players))
    return (
        match.phase,
        match.scores,
        match.winner,
        match.to_act,
        tuple(match.legal_actions()),
        tuple(match.legal_credits()),
        hands,
        None if position is None else tuple(position)[:BOOK],
        book,
    )


def illegal_actions(match: Match, rng: random.Random) -> Iterator[Action]:
    """A few actions that are not legal now: a draw or a pass while a tile can be placed, a
    placement of a tile not held, a held tile at a point it does not fit or that is not free."""
    legal = match.legal_actions()
    for action in (DRAW, PASS):
        if action not in legal:
            yield action
    for _ in range(3):
        tile = rng.choice(ALL_TILES)
        point = rng.choice((None, *ALL_POINTS))
        action = Play(tile, point)
        if action not in legal:
            yield action


def lockstep(players: int, seed: int, bot: str, native: Engine) -> str:
    """Play one match on both engines; fail at the first disagreement. Returns the digest of
    every state both went through."""
    rng = random.Random(f"lockstep:{seed}")
    pure = Match(players, engine=engines.PYTHON)
    fast = Match(players, engine=native)
    pure_chance, fast_chance = random.Random(seed), random.Random(seed)
    bots = [make_bot(bot, random.Random(f"{seed}:seat:{s}")) for s in range(players)]
    digest = hashlib.blake2b(digest_size=16)
    actions = 0
    while not pure.is_over:
        if pure.to_act is None:
            pure.deal_next_round(pure_chance)
            fast.deal_next_round(fast_chance)
        seat = pure.to_act
        assert seat is not None
        legal = pure.legal_actions()
        action = legal[0] if len(legal) == 1 else bots[seat].choose(pure.view(seat))
        if actions % INJECTED == 0:
            for wrong in illegal_actions(pure, rng):
                with pytest.raises(IllegalMoveError) as refused_pure:
                    pure.apply(wrong)
                with pytest.raises(IllegalMoveError) as refused_fast:
                    fast.apply(wrong)
                assert str(refused_fast.value) == str(refused_pure.value), (wrong, seed)
        events = (pure.apply(action), fast.apply(action))
        actions += 1
        where = f"{players} players, seed {seed}, {bot}, action {actions}: {action}"
        assert tuple(events[1]) == tuple(events[0]), where
        mine, theirs = state(pure), state(fast)
        assert theirs == mine, where
        digest.update(repr(mine).encode())
        if actions % VIEWED == 0:
            for s in range(players):
                assert fast.view(s) == pure.view(s), f"{where}, seat {s}'s view"
    assert fast.is_over and fast.winner == pure.winner
    return digest.hexdigest()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_both_engines_play_every_action_alike(players: int, native: Engine) -> None:
    for seed in range(60):
        lockstep(players, seed, BOTS[seed % 3], native)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", BOTS)
def test_both_engines_play_10000_matches_alike(players: int, bot: str, native: Engine) -> None:
    for seed in range(10_000 // len(BOTS) + 1):
        lockstep(players, 1_000_000 + seed, bot, native)


def engine_answers(engine: Engine, position: object) -> tuple[object, ...]:
    """Every question the engine answers of a position, and its items."""
    legal = engine.legal_moves(position)
    return (
        tuple(position)[:BOOK],  # type: ignore[call-overload]
        tuple(legal),
        tuple(engine.distinct_moves(position)),
        engine.playable(position),
        tuple(engine.credit_of(position, m) for m in legal),
        engine.hand_pips(position),
        engine.won_by(position),
        engine.search_key(position),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32),
    scores=st.lists(st.integers(0, 60), min_size=4, max_size=4),
    book=st.booleans(),
)
def test_random_positions_get_the_same_answers(
    players: int, seed: int, scores: list[int], book: bool
) -> None:
    """Positions of a round from random scores (near 61 too: R4, R30), played on by random
    moves: the same legal moves in the same order, distinct moves, credits, pips, search keys
    and items after every move, on a search's position and a match's; and a round resumed from
    the layout reached is the same round on both."""
    native = native_engine()
    rng = random.Random(seed)
    sides = 2 if players == 4 else players
    raw = [5 * s for s in scores[:sides]]
    order = list(range(len(ALL_TILES)))
    rng.shuffle(order)
    hands = [order[5 * s : 5 * s + 5] for s in range(players)]
    boneyard = order[5 * players :]
    opener = rng.randrange(players)
    pure = engines.PYTHON.start(hands, boneyard, opener, raw, book=book)
    fast = native.start(hands, boneyard, opener, raw, book=book)
    placements: list[int] = []
    while True:
        assert engine_answers(native, fast) == engine_answers(engines.PYTHON, pure)
        legal = engines.PYTHON.legal_moves(pure)
        if not legal:
            break
        move = rng.choice(legal)
        if move < DRAW_MOVE:
            placements.append(move)
        assert native.play(fast, move) == engines.PYTHON.play(pure, move)
        if rng.random() < 0.1 and pure[TO_ACT] >= 0:
            held = [
                [t for t in range(len(ALL_TILES)) if engines.PYTHON.hand_of(pure, s) >> t & 1]
                for s in range(players)
            ]
            left = list(pure[BONEYARD][pure[DRAWN] :])
            again = [
                engine.resume(held, placements, left, pure[TO_ACT], opener, pure[SCORES],
                              pure[PENDING], book=book)
                for engine in (engines.PYTHON, native)
            ]  # fmt: skip
            assert engine_answers(native, again[1]) == engine_answers(engines.PYTHON, again[0])


# ---- the native match loop against the Python engine, by digest -----------------------------

FNV_START, FNV_PRIME, MASK = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1
EVENT_FIELDS = {
    "play": (1, ()),
    "domino": (2, ("play_raw", "opponents_raw", "partner_raw", "opponents_pips", "partner_pips")),
    "block": (3, ("pips", "difference")),
}


def python_digest(players: int, seed: int, bots: list[str]) -> int:
    """A match of `bots` played on the Python engine as `Table.play_out` plays it (one bot a
    seat, forced actions without asking), and the digest the native match loop keeps of it
    (`playout::Digest`): for every action, FNV-1a over the seat, the ordered legal moves, the
    move made, its events, the scores and the next seat."""
    match = Match(players, engine=engines.PYTHON)
    chance = random.Random(seed)
    seated = [make_bot(bot, random.Random(f"{seed}:seat:{s}")) for s, bot in enumerate(bots)]
    position_of = match._legal_moves  # noqa: SLF001 - the engine's moves, as the native loop's
    digest = FNV_START

    def push(value: int) -> None:
        nonlocal digest
        digest = ((digest ^ (value & MASK)) * FNV_PRIME) & MASK

    while not match.is_over:
        if match.to_act is None:
            match.deal_next_round(chance)
        seat = match.to_act
        assert seat is not None
        legal, moves = match.legal_actions(), list(position_of())
        choice = 0 if len(legal) == 1 else legal.index(seated[seat].choose(match.view(seat)))
        push(seat)
        push(len(moves))
        for move in moves:
            push(move)
        push(moves[choice])
        for event in match.apply(legal[choice]):
            kind, extra = EVENT_FIELDS[event.kind]
            for value in (kind, event.seat, event.side, event.raw, int(event.accepted)):
                push(value)
            for name in extra:
                push(getattr(event, name))
        for score in match.scores:
            push(score)
        push(-1 if match.to_act is None else match.to_act)
    return digest


def test_the_native_match_loop_plays_the_python_engines_matches() -> None:
    """The native loop's twin of `Table.play_out` (`simulation.driver.native_match`), action by
    action: the same digest of every legal list, move, event and score as the Python engine
    gives, at 2, 3 and 4 players, for every simple bot and mixed seats, big and negative seeds
    too; the records it writes are `simulate`'s (`tests/table/test_records_kept.py`)."""
    native_engine()
    from exact61.simulation.driver import native_match

    for players in (2, 3, 4):
        for seed in (0, 1, -7, 2**62 + 3, 10**30):
            for bots in ([b] * players for b in BOTS):
                assert native_match(players, seed, bots).digest == python_digest(
                    players, seed, bots
                ), (players, seed, bots)
        mixed = ["heuristic", "random", "greedy", "heuristic"][:players]
        for seed in range(20):
            assert native_match(players, seed, mixed).digest == python_digest(
                players, seed, mixed
            ), (players, seed, mixed)
