"""The batched `Exact61-v0` played by the native core (`_native.VectorGames` behind
`Exact61VectorEnv`): game by game what `Exact61-v0` itself gives (Gymnasium's `SyncVectorEnv` of
it: one single environment a game), whatever the settings and the autoreset mode, illegal
actions included; and the Python implementation where the native core cannot play."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
from gymnasium.utils import seeding  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

import exact61.research.gymnasium  # noqa: E402, F401 - registers Exact61-v0
from exact61.core import engines  # noqa: E402
from exact61.core.engine import move_of  # noqa: E402
from exact61.research import encoding  # noqa: E402
from exact61.research.gymnasium import AgentGame  # noqa: E402
from exact61.research.vector import Exact61VectorEnv  # noqa: E402

native_only = pytest.mark.skipif(
    engines.current().ENGINE != "native", reason="the native engine is not in use"
)


def batched(num_envs: int, mode: str, **settings: Any) -> Any:
    return gymnasium.make_vec(
        "Exact61-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        autoreset_mode=mode,
        **settings,
    )


def singles(num_envs: int, mode: str, **settings: Any) -> Any:
    """`Exact61-v0` itself, one a game (Gymnasium's own batching of single environments)."""
    return gymnasium.make_vec(
        "Exact61-v0",
        num_envs=num_envs,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode(mode)},
        **settings,
    )


@contextmanager
def python_engine() -> Iterator[None]:
    """New matches on the Python engine for a while (what EXACT61_ENGINE=python chooses)."""
    before = engines.current().ENGINE
    engines.use("python")
    try:
        yield
    finally:
        engines.use(before)


def pick(mask: Any, rng: Any) -> int:
    """A legal action, now and then (3%) an illegal one; any action when none is legal."""
    if not mask.any():
        return int(rng.integers(encoding.ACTION_COUNT))
    legal = rng.random() > 0.03
    return int(rng.choice(np.flatnonzero(mask if legal else mask == 0)))


def assert_same(mine: Any, theirs: Any, where: str) -> None:
    """Equal values, an object array of tuples (SyncVectorEnv's scores) read as rows of ints."""
    if isinstance(theirs, np.ndarray) and theirs.dtype == object:
        rows = [tuple(np.atleast_1d(v)) for v in theirs]
        assert [tuple(np.atleast_1d(v)) for v in mine] == rows, where
        return
    assert np.asarray(mine).dtype == np.asarray(theirs).dtype or where.endswith("round"), where
    assert np.array_equal(mine, theirs), where


def assert_same_infos(mine: dict[str, Any], theirs: dict[str, Any], where: str = "") -> None:
    """The same keys, and the same values wherever a key's mask (`_key`) says a game has one.
    In `final_info` SyncVectorEnv also keeps the ended episode's last mask, which the batched
    environment leaves out (`final_obs` shows that moment)."""
    extra = {"action_mask", "_action_mask"} if where == "final_info." else set()
    assert set(mine) == set(theirs) - extra, where
    for key, value in mine.items():
        if key.startswith("_"):
            assert np.array_equal(value, theirs[key]), where + key
            continue
        shown = mine[f"_{key}"]
        if key == "final_info":
            assert_same_infos(value, theirs[key], "final_info.")
        else:
            assert_same(value[shown], theirs[key][shown], where + key)


SETTINGS = [
    pytest.param(dict(players=2), id="2p-match-greedy"),
    pytest.param(dict(players=2, one_round=True, skip_forced=False), id="2p-round-forced-shown"),
    pytest.param(dict(players=2, seat=1, opponents="heuristic", max_rounds=2), id="2p-seat1-trunc"),
    pytest.param(
        dict(players=3, seat=1, opponents=["heuristic", "random"], skip_forced=False),
        id="3p-seat1-mixed-forced-shown",
    ),
    pytest.param(dict(players=3, seat=2, one_round=True, opponents="Greedy"), id="3p-seat2-round"),
    pytest.param(
        dict(players=4, seat=3, opponents=["greedy", "heuristic", "random"], max_rounds=3),
        id="4p-seat3-mixed",
    ),
    pytest.param(
        dict(players=4, seat=1, one_round=True, opponents="random", skip_forced=False),
        id="4p-seat1-round-forced-shown",
    ),
]
MODES = ["NextStep", "SameStep", "Disabled"]


@native_only
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("settings", SETTINGS)
def test_every_game_is_exact61_v0(settings: dict[str, Any], mode: str) -> None:
    """Observations, masks, rewards, terminations, truncations and infos (final_obs and
    final_info with same-step autoreset) equal to the single environments' step by step,
    through autoresets (with autoreset disabled, the ended games reset by mask), now and then an
    illegal action."""
    num_envs, steps = 4, 160
    ours, theirs = batched(num_envs, mode, **settings), singles(num_envs, mode, **settings)
    assert ours.plays_natively
    mine, my_infos = ours.reset(seed=11)
    expected, infos = theirs.reset(seed=11)
    assert np.array_equal(mine, expected)
    assert_same_infos(my_infos, infos)
    rng = np.random.default_rng(5)
    ends = illegal = 0
    for step in range(steps):
        actions = np.array([pick(mask, rng) for mask in infos["action_mask"]])
        *mine_out, my_infos = ours.step(actions)
        *expected_out, infos = theirs.step(actions)
        for name, got, want in zip(
            ("obs", "rewards", "ends", "cuts"), mine_out, expected_out, strict=True
        ):
            assert got.dtype == want.dtype, name
            assert np.array_equal(got, want), f"step {step}: {name}"
        assert np.array_equal(ours.action_masks(), infos["action_mask"])
        assert_same_infos(my_infos, infos)
        said = infos.get("final_info", infos)
        illegal += int(said.get("illegal_action", np.zeros(1, bool)).sum())
        done = mine_out[2] | mine_out[3]
        ends += int(done.sum())
        if mode == "Disabled" and done.any():
            mine, my_infos = ours.reset(options={"reset_mask": done.copy()})
            expected, infos = theirs.reset(options={"reset_mask": done.copy()})
            assert np.array_equal(mine, expected)
            for key in ("action_mask", "scores", "round"):  # SyncVectorEnv's: of the reset games
                assert_same(my_infos[key][done], infos[key][done], key)
            infos["action_mask"] = my_infos["action_mask"]  # the others' masks, as they were
    assert ends >= 2 and illegal >= 1


@native_only
@pytest.mark.parametrize(
    ("players", "seeds"), [(2, [163, 232, 523]), (3, [346, 400, 591]), (4, [193, 210, 441])]
)
def test_a_game_over_before_the_agents_first_choice_is_dealt_again(
    players: int, seeds: list[int]
) -> None:
    """Single rounds of these seeds end before the agent has a choice (every action of its
    seat forced) and are dealt again from the same chance, natively as in `Exact61-v0`."""
    settings = dict(players=players, one_round=True, opponents="greedy")
    for seed in seeds:  # dealt twice: the game's chance has drawn more than one round's share
        match_seed = int(seeding.np_random(seed)[0].integers(2**62))
        game = AgentGame(players, 0, ["greedy"] * (players - 1), True, 100, True)
        game.start(match_seed)
        assert game.dealt_again >= 1
    ours, theirs = batched(3, "SameStep", **settings), singles(3, "SameStep", **settings)
    mine, my_infos = ours.reset(seed=seeds)
    expected, infos = theirs.reset(seed=seeds)
    assert np.array_equal(mine, expected)
    assert_same_infos(my_infos, infos)
    for _ in range(30):
        actions = my_infos["action_mask"].argmax(axis=1)
        *mine_out, my_infos = ours.step(actions)
        *expected_out, infos = theirs.step(actions)
        for got, want in zip(mine_out, expected_out, strict=True):
            assert np.array_equal(got, want)
        assert_same_infos(my_infos, infos)


@native_only
def test_seeds_partial_resets_and_no_copies() -> None:
    """Reset by seeds and masks as the Python implementation resets, games never reset
    included (round -1, no scores), and with copy=False the arrays handed out are the ones
    the native step writes."""
    with python_engine():
        reference = batched(3, "Disabled", players=3, seat=1)
    ours = batched(3, "Disabled", players=3, seat=1, copy=False)
    assert ours.plays_natively and not reference.plays_natively
    mask = np.array([False, True, False])
    for envs in (ours, reference):
        envs.reset(seed=[None, 6, None], options={"reset_mask": mask})
    got, my_infos = ours.reset(seed=[None, 4, None], options={"reset_mask": mask})
    want, infos = reference.reset(seed=[None, 4, None], options={"reset_mask": mask})
    assert np.array_equal(got, want) and not got[0].any()
    assert_same_infos(my_infos, infos)
    assert list(my_infos["round"]) == [-1, 0, -1]
    got, my_infos = ours.reset(seed=[1, None, 2])
    want, infos = reference.reset(seed=[1, None, 2])  # game 1 goes on from its own source
    assert np.array_equal(got, want)
    assert_same_infos(my_infos, infos)
    actions = my_infos["action_mask"].argmax(axis=1)
    stepped = ours.step(actions)
    assert stepped[0] is got  # copy=False: the same array, written in place
    for mine, theirs in zip(stepped, reference.step(actions), strict=True):
        if isinstance(mine, dict):
            assert_same_infos(mine, theirs)
        else:
            assert np.array_equal(mine, theirs)


@native_only
def test_a_step_that_cannot_be_taken_changes_nothing() -> None:
    """An action outside the space is a ValueError naming it, as from `Exact61-v0`, and a game
    whose episode is over (autoreset disabled) a RuntimeError; either way no game has moved."""
    envs = batched(3, "Disabled", players=2)
    with pytest.raises(RuntimeError, match="game 0 has no episode yet: call reset"):
        envs.step(np.zeros(3, np.int64))  # never reset
    observations, infos = envs.reset(seed=2)
    legal = infos["action_mask"].argmax(axis=1)
    for wrong, message in (
        ([legal[0], legal[1], 450], "no action number 450"),
        ([legal[0], -1, legal[2]], "no action number -1"),
        (np.array(legal, np.uint64) + np.array([0, 2**63, 0], np.uint64), "no action number"),
        (legal + 0.5, "whole number"),
        (np.array([True, False, True]), "whole number"),
    ):
        with pytest.raises(ValueError, match=message):
            envs.step(np.asarray(wrong))
        assert np.array_equal(envs.observations, observations)
    rng = np.random.default_rng(0)
    over = np.zeros(3, np.bool_)
    while not over.any():  # legal actions only, to a game's end
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        _, _, terminated, truncated, infos = envs.step(actions)
        over = terminated | truncated
    before = envs.observations.copy()
    first = int(np.flatnonzero(over)[0])
    with pytest.raises(RuntimeError, match=f"the episode of game {first} is over: reset it"):
        envs.step(np.where(over, 0, infos["action_mask"].argmax(axis=1)))
    assert np.array_equal(envs.observations, before)


@native_only
def test_the_native_side_takes_its_layout_from_python() -> None:
    """The observation's layout and the action space are handed over from `encoding`, and a
    layout the native side does not write in full is refused, not half written."""
    from exact61.core import _native

    blocks = [(name, s.start, s.stop) for name, s in encoding.OBSERVATION_SLICES.items()]
    moves = [move_of(action) for action in encoding.ACTIONS]

    def make(
        blocks: Any = blocks, moves: Any = moves, size: int = encoding.OBSERVATION_SIZE
    ) -> Any:
        return _native.VectorGames(
            2,
            2,
            0,
            ["greedy"],
            one_round=False,
            max_rounds=100,
            skip_forced=True,
            autoreset_mode="NextStep",
            blocks=blocks,
            observation_size=size,
            max_passes=encoding.MAX_PASSES,
            action_moves=moves,
        )

    games = make()
    assert games.observations.shape == (2, encoding.OBSERVATION_SIZE)
    assert games.masks.shape == (2, encoding.ACTION_COUNT)
    with pytest.raises(ValueError, match="no block 'credits'"):
        make(blocks=blocks[:-1])
    with pytest.raises(ValueError, match="does not write the observation's block 'extra'"):
        make(blocks=[*blocks, ("extra", 0, 1)])
    shifted = [(n, a + 1, b + 1) for n, a, b in blocks]
    with pytest.raises(ValueError, match="'credits'"):
        make(blocks=shifted)  # past the row's end
    with pytest.raises(ValueError, match="leaves out"):
        make(moves=moves[:-1])
    with pytest.raises(ValueError, match="twice"):
        make(moves=[*moves[:-1], moves[0]])
    with pytest.raises(ValueError, match="R2"):
        _native.VectorGames(
            2, 5, 0, ["greedy"] * 4, one_round=False, max_rounds=1, skip_forced=True,
            autoreset_mode="NextStep", blocks=blocks, observation_size=encoding.OBSERVATION_SIZE,
            max_passes=encoding.MAX_PASSES, action_moves=moves,
        )  # fmt: skip
    with pytest.raises(ValueError, match="does not play natively"):
        _native.VectorGames(
            2, 2, 0, ["ismcts"], one_round=False, max_rounds=1, skip_forced=True,
            autoreset_mode="NextStep", blocks=blocks, observation_size=encoding.OBSERVATION_SIZE,
            max_passes=encoding.MAX_PASSES, action_moves=moves,
        )  # fmt: skip


@pytest.mark.parametrize(
    "opponents", [pytest.param("ismcts:4", id="ismcts"), pytest.param(["random", "expert:4"])]
)
def test_an_opponent_not_played_natively_falls_back_to_python(opponents: Any) -> None:
    """A bot the native core does not play (a search, a learned policy) leaves the games to
    `AgentGame` in Python, which give what `Exact61-v0` gives."""
    players = 2 if isinstance(opponents, str) else 3
    ours = batched(2, "SameStep", players=players, opponents=opponents)
    theirs = singles(2, "SameStep", players=players, opponents=opponents)
    assert not ours.plays_natively and len(ours.games) == 2
    mine, my_infos = ours.reset(seed=3)
    expected, infos = theirs.reset(seed=3)
    assert np.array_equal(mine, expected)
    rng = np.random.default_rng(1)
    for _ in range(6):
        actions = np.array([pick(mask, rng) for mask in infos["action_mask"]])
        *mine_out, my_infos = ours.step(actions)
        *expected_out, infos = theirs.step(actions)
        for got, want in zip(mine_out, expected_out, strict=True):
            assert np.array_equal(got, want)
        assert_same_infos(my_infos, infos)


def test_the_python_engine_keeps_the_python_implementation() -> None:
    """Where the Python engine plays (EXACT61_ENGINE=python), so does the batched env."""
    with python_engine():
        envs = batched(2, "NextStep", players=2, opponents="greedy")
    assert not envs.plays_natively
    observations, _ = envs.reset(seed=0)
    single = gymnasium.make("Exact61-v0", players=2)
    assert np.array_equal(observations[1], single.reset(seed=1)[0])


def test_native_false_keeps_the_python_games() -> None:
    """`native=False` (a vector-only option) keeps the `AgentGame`s a feature may read."""
    envs = Exact61VectorEnv(2, 2, opponents="greedy", native=False)
    assert not envs.plays_natively and len(envs.games) == 2
    observations, _ = envs.reset(seed=0)
    single = gymnasium.make("Exact61-v0", players=2)
    assert np.array_equal(observations[1], single.reset(seed=1)[0])


@pytest.mark.parametrize("max_rounds", [2**64, 2**70])
def test_a_cap_on_rounds_past_the_native_count_is_taken_as_exact61_v0_takes_it(
    max_rounds: int,
) -> None:
    """`max_rounds=2**70` (no cap, as a sweep may write it) is taken by `Exact61-v0` and by the
    Python batch, and was refused by the native one as pyo3's bare "OverflowError: int too big
    to convert", naming no setting: no match lasts 2**64 rounds, so it plays as they do."""
    single = gymnasium.make("Exact61-v0", max_rounds=max_rounds)
    envs = Exact61VectorEnv(2, max_rounds=max_rounds)
    python = Exact61VectorEnv(2, max_rounds=max_rounds, native=False)
    first, _ = single.reset(seed=5)
    for each in (envs, python):
        observations, _ = each.reset(seed=5)
        assert (observations[0] == first).all()
        each.close()
    single.close()
