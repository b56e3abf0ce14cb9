"""Bots: only legal actions, deterministic under a seed, blind to what their seat cannot see."""

from __future__ import annotations

import gc
import random
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact61 import ALL_TILES, Match, Phase, Play, SeatView, Tile
from exact61.bots import (
    BOTS,
    LEVELS,
    ExpertBot,
    budget_of,
    check_bot_spec,
    make_bot,
    plays_as,
)
from exact61.bots.heuristic import expected_best
from exact61.bots.ismcts import ISMCTSBot
from exact61.bots.simple import GreedyBot
from tests.search.test_sampler import random_position

SPECS = ["random", "greedy", "heuristic", "ismcts:25", "pimc:3", "expert:25"]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), spec=st.sampled_from(SPECS)
)
def test_bots_only_return_legal_actions(seed: int, players: int, spec: str) -> None:
    match, view = random_position(seed, players)
    bot = make_bot(spec, random.Random(seed))
    action = bot.choose(view)
    assert action in match.legal_actions()
    match.apply(action)  # and the engine agrees


def _reachable(root: object) -> list[object]:
    """Every object reachable from `root`, not following classes, modules or functions."""
    seen: set[int] = set()
    out = []
    stack = [root]
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_a_view_holds_no_reference_to_hidden_tiles_or_the_match(seed: int) -> None:
    match, view = random_position(seed, 2 + seed % 3)
    hidden = {t for s in range(match.players) if s != view.seat for t in match.hand(s)}
    log = match.rounds[-1]
    assert log.deal is not None
    hidden |= set(log.deal.boneyard[len(log.deal.boneyard) - match.boneyard_size :])
    assert hidden  # there is always something to hide
    reachable = _reachable(view)
    assert not any(isinstance(obj, Match) for obj in reachable)
    tiles = {obj for obj in reachable if isinstance(obj, Tile)}
    assert not tiles & hidden
    bot = make_bot("ismcts:10", random.Random(seed))
    bot.choose(view)
    assert not any(isinstance(obj, Match) for obj in _reachable(bot))


def test_ismcts_is_deterministic_under_a_seed() -> None:
    for seed in range(6):
        _, view = random_position(seed + 100, 2)
        choices = {ISMCTSBot(random.Random(seed), iterations=60).choose(view) for _ in range(2)}
        assert len(choices) == 1


def test_greedy_takes_the_highest_credit_not_passing_61() -> None:
    # Find a position where greedy has several plays with different credits; check its pick.
    checked = 0
    for seed in range(400):
        _, view = random_position(seed, 2)
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        credits = {a: view.layout.credit_after(a.tile, a.at) for a in plays}
        if len(set(credits.values())) < 2:
            continue
        score = view.scores[view.side]
        worth = {a: c if score + c <= 305 else 0 for a, c in credits.items()}
        pick = GreedyBot(random.Random(seed)).choose(view)
        assert worth[pick] == max(worth.values())
        checked += 1
    assert checked > 20


def test_greedy_prefers_landing_exactly_on_61_and_refuses_overshoots() -> None:
    checked = 0
    for seed in range(1500):
        _, view = random_position(seed, 2)
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        credits = sorted({view.layout.credit_after(a.tile, a.at) for a in plays} - {0})
        if len(credits) < 2:
            continue
        target = credits[0]  # set the score so the smallest credit lands exactly on 305
        posed = view_with_score(view, 305 - target)
        pick = GreedyBot(random.Random(seed)).choose(posed)
        assert isinstance(pick, Play) and view.layout.credit_after(pick.tile, pick.at) == target
        checked += 1
    assert checked > 10


def view_with_score(view: SeatView, raw: int) -> SeatView:
    scores = list(view.scores)
    scores[view.side] = raw
    return view.replace(scores=tuple(scores))


def test_expected_best_credit() -> None:
    # One unseen tile scoring 10 among 4; a hand of 1 holds it with probability 1/4.
    assert expected_best([10], 4, 1) == pytest.approx(2.5)
    assert expected_best([10, 5], 4, 4) == pytest.approx(10)  # holds every tile
    assert expected_best([], 10, 5) == 0


def test_bot_names_and_levels() -> None:
    assert set(BOTS) == {"random", "greedy", "heuristic", "ismcts", "expert", "pimc"}
    for level, spec in LEVELS.items():
        assert check_bot_spec(level) == level
        assert plays_as(level) == plays_as(spec)  # a level is its bot at its budget
        assert type(make_bot(level, random.Random(0))) is type(make_bot(spec, random.Random(0)))
        if spec != level:  # `expert` is a level and a bot
            with pytest.raises(ValueError, match="a level has its own budget"):
                check_bot_spec(f"{level}:5")  # issue 42: `medium:5` would be ismcts:5
    assert make_bot("medium", random.Random(0)).iterations == 20  # type: ignore[attr-defined]
    assert make_bot("ismcts:40", random.Random(0)).iterations == 40  # type: ignore[attr-defined]
    for bad in ("nobody", "greedy:5", "ismcts:0", "ismcts:x"):
        with pytest.raises(ValueError):
            check_bot_spec(bad)
        with pytest.raises(ValueError):
            budget_of(bad)
    # the error names each choice once, and the spec only when it is more than the name
    with pytest.raises(ValueError) as error:
        check_bot_spec("nobody")
    choices = str(error.value).split("choose from ")[1].split(", ")
    assert len(choices) == len(set(choices)) and "expert" in choices
    assert " in " not in str(error.value)
    with pytest.raises(ValueError, match="'nobody' in 'nobody:5'"):
        check_bot_spec("nobody:5")
    # `expert` is the equity bot (it beats ismcts at equal time: docs/figures), with its budgets
    assert isinstance(make_bot("Expert", random.Random(0)), ExpertBot)
    assert make_bot("expert:300", random.Random(0)).iterations == 300  # type: ignore[attr-defined]
    assert budget_of("expert:300") == (300, None)
    assert budget_of("EQUITY@0.5s") == (None, 0.5)
    assert budget_of("greedy") == (None, None)


def test_pimc_plays_the_best_mean_over_its_deals() -> None:
    """`pimc` plays the move `evaluate_moves` values best over the same deals (it is that
    valuation, as a bot), and a deal budget counts deals."""
    from exact61.bots.pimc import PimcBot
    from exact61.core.engine import class_of
    from exact61.search.evaluate import evaluate_moves

    tried = 0
    for seed in range(40):
        _, view = random_position(seed, 3)
        if len({class_of(a) for a in view.legal_actions}) < 2 or view.boneyard_size == 0:
            continue
        bot = PimcBot(random.Random(seed), iterations=6)
        chosen = bot.choose(view)
        valued = evaluate_moves(view, rng=random.Random(seed), deals=6)
        assert bot.last_iterations == valued.deals == 6
        assert valued.of(chosen).equity == valued.best.equity
        tried += 1
    assert tried >= 5


def test_a_whole_match_between_every_bot() -> None:
    from tests.helpers import played_match

    match = played_match(4, 3, ["ismcts:15", "heuristic", "greedy", "random"])
    assert match.phase is Phase.OVER and match.winner in (0, 1)
    assert match.view(0).round_end is not None


# ---- equivalent placements (engine.class_of) ------------------------------


def _key_moves(match: Match) -> dict[int, object]:
    from exact61.core.engine import class_of

    moves: dict[int, object] = {}
    for action in match.legal_actions():
        moves.setdefault(class_of(action), action)
    return moves


def test_the_equivalent_placements_the_rules_allow() -> None:
    from exact61 import AttachPoint, Layout
    from exact61.core.engine import class_of

    def key(tile: Tile, at: AttachPoint | None) -> int:
        return class_of(Play(tile, at))

    # The two line sides of an opening double (R13).
    d = Tile(3, 3)
    assert key(Tile(3, 5), AttachPoint(d, "lineA")) == key(Tile(3, 5), AttachPoint(d, "lineB"))
    # Both side arms once both line sides are joined: the same spinner, both free.
    layout = Layout.from_plays(
        [(d, None), (Tile(3, 5), AttachPoint(d, "lineA")), (Tile(1, 3), AttachPoint(d, "lineB"))]
    )
    arms = layout.points_for(Tile(3, 6))
    assert [p.end.value for p in arms] == ["armA", "armB"]
    assert key(Tile(3, 6), arms[0]) == key(Tile(3, 6), arms[1])
    # A line side and a free end showing the same value are different moves: R14 counts the
    # double's 6 until its second line side is joined, the end's 3 until it is covered.
    layout = Layout.from_plays(
        [
            (Tile(3, 4), None),
            (d, AttachPoint(Tile(3, 4), "low")),
            (Tile(4, 6), AttachPoint(Tile(3, 4), "high")),
            (Tile(3, 6), AttachPoint(Tile(4, 6), "high")),
        ]
    )
    line, end = AttachPoint(d, "lineB"), AttachPoint(Tile(3, 6), "low")
    assert layout.points_for(Tile(3, 5)) == [line, end]
    assert key(Tile(3, 5), line) != key(Tile(3, 5), end)
    after_line, after_end = layout.copy(), layout.copy()
    after_line.place(Tile(3, 5), line)
    after_end.place(Tile(3, 5), end)
    assert (after_line.end_sum, after_end.end_sum) == (3 + 5, 6 + 5)
    # Two free non-double ends showing 6: placing [2|6] on either leaves the same scored ends.
    layout = Layout.from_plays(
        [
            (Tile(1, 4), None),
            (Tile(4, 6), AttachPoint(Tile(1, 4), "high")),
            (Tile(1, 6), AttachPoint(Tile(1, 4), "low")),
        ]
    )
    sixes = layout.points_for(Tile(2, 6))
    assert len(sixes) == 2 and key(Tile(2, 6), sixes[0]) == key(Tile(2, 6), sixes[1])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_equivalent_placements_lead_to_the_same_round(players: int) -> None:
    """Whenever two legal placements share a key, playing either and then the same moves gives
    the same credits, events and round end (R13-R23), to the end of the round."""
    from exact61.core.engine import class_of

    pairs = 0
    for seed in range(400):
        match, _ = random_position(seed, players)
        by_key: dict[int, list[object]] = {}
        for action in match.legal_actions():
            by_key.setdefault(class_of(action), []).append(action)
        for group in by_key.values():
            for other in group[1:]:
                pairs += 1
                a, b = match.copy(), match.copy()
                events_a, events_b = list(a.apply(group[0])), list(b.apply(other))
                rng = random.Random(seed)
                while a.phase is Phase.PLAY:
                    assert b.phase is Phase.PLAY and a.layout.end_sum == b.layout.end_sum
                    moves_a, moves_b = _key_moves(a), _key_moves(b)
                    assert list(moves_a) == list(moves_b)
                    k = list(moves_a)[rng.randrange(len(moves_a))]
                    events_a += a.apply(moves_a[k])
                    events_b += b.apply(moves_b[k])
                assert events_a == events_b and a.scores == b.scores
                assert a.rounds[-1].end == b.rounds[-1].end
    assert pairs > 20


def test_ismcts_gives_equivalent_placements_one_child() -> None:
    from exact61.bots.ismcts import Node
    from exact61.core.engine import class_of, redeal
    from exact61.core.tiles import TILE_INDEX
    from exact61.search.sampler import knowledge_of, position_of, sample_indices

    checked = 0
    for seed in range(600):
        _, view = random_position(seed, 2)
        keys = [class_of(a) for a in view.legal_actions]
        if len(set(keys)) == len(keys) or len(set(keys)) < 2:
            continue
        bot = ISMCTSBot(random.Random(seed), iterations=200)
        root = Node()
        know = knowledge_of(view)
        rng = random.Random(seed)
        template = position_of(view, book=True)
        for _ in range(200):
            hidden, boneyard = sample_indices(know, rng)
            hidden[view.seat] = [TILE_INDEX[t] for t in view.hand]
            bot.iterate(root, redeal(template, hidden, boneyard), view.scores)
        assert set(root.children) == set(keys)  # every move tried, once per move
        assert sum(c.visits for c in root.children.values()) == 200
        checked += 1
    assert checked >= 3


def test_ismcts_does_not_search_a_choice_between_equivalent_placements() -> None:
    from exact61 import AttachPoint, Deal

    d = Tile(3, 3)
    tiles = [Tile(3, 5), Tile(0, 0), Tile(0, 1), Tile(1, 1), Tile(2, 2)]
    rest = [t for t in ALL_TILES if t not in tiles and t != d]
    match = Match(2)
    match.start_round(Deal([[d, *rest[:4]], tiles], rest[4:]), 0)
    match.apply(Play(d, None))
    view = match.view(1)
    assert list(view.legal_actions) == [
        Play(Tile(3, 5), AttachPoint(d, "lineA")),
        Play(Tile(3, 5), AttachPoint(d, "lineB")),
    ]
    bot = ISMCTSBot(random.Random(0))
    assert bot.choose(view) == view.legal_actions[0]
    assert bot.last_iterations == 0


def test_a_time_budget_per_move_in_a_bot_name() -> None:
    bot = make_bot("ismcts@0.05s", random.Random(0))
    assert isinstance(bot, ISMCTSBot) and bot.seconds == 0.05
    bot = make_bot("equity@0.2s", random.Random(0))
    assert type(bot).__name__ == "ExpertBot" and bot.seconds == 0.2  # type: ignore[attr-defined]
    assert make_bot("equity:30", random.Random(0)).iterations == 30  # type: ignore[attr-defined]
    for bad in (
        "greedy@1s",
        "ismcts@0s",
        "ismcts@-1s",
        "ismcts@abc",
        "ismcts@0.05",
        "ismcts:10@1s",
        "equity@61s",
        "ismcts@nans",
    ):
        with pytest.raises(ValueError):
            check_bot_spec(bad)


def test_a_time_budget_ends_the_search() -> None:
    from exact61.core.engine import class_of

    seed = next(
        seed
        for seed in range(100)
        if len({class_of(a) for a in random_position(seed, 2)[1].legal_actions}) > 1
        and random_position(seed, 2)[1].boneyard_size > 0  # else `equity` solves it exactly
    )
    _, view = random_position(seed, 2)
    for spec in ("ismcts@0.02s", "equity@0.02s", "pimc@0.02s"):
        bot = make_bot(spec, random.Random(0))
        assert bot.choose(view) in view.legal_actions
        assert 0 < bot.last_iterations < 10**9  # type: ignore[attr-defined]
