"""The batched `Exact61-v0`: a native VectorEnv giving, game by game, what the single
environment gives (compared step by step with Gymnasium's own SyncVectorEnv of it)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv  # noqa: E402

import exact61.research.gymnasium  # noqa: E402, F401 - registers Exact61-v0
from exact61.research import encoding  # noqa: E402
from exact61.research.vector import Exact61VectorEnv  # noqa: E402


def batched(num_envs: int, **kwargs: Any) -> Any:
    return gymnasium.make_vec(
        "Exact61-v0", num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )


def test_make_vec_gives_the_native_vector_environment() -> None:
    envs = batched(3, players=4)
    assert isinstance(envs, Exact61VectorEnv) and isinstance(envs, VectorEnv)
    assert not isinstance(envs, SyncVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.observation_space.shape == (3, encoding.OBSERVATION_SIZE)
    assert envs.single_action_space.n == encoding.ACTION_COUNT
    observations, infos = envs.reset(seed=0)
    assert observations.shape == (3, encoding.OBSERVATION_SIZE)
    assert observations.dtype == np.float32
    assert infos["action_mask"].shape == (3, encoding.ACTION_COUNT)
    assert infos["action_mask"].dtype == np.int8
    assert np.array_equal(envs.action_masks(), infos["action_mask"])
    assert (infos["action_mask"].sum(axis=1) > 1).all()  # every game at a real choice
    with pytest.raises(ValueError, match="R2"):
        batched(2, players=5)
    with pytest.raises(ValueError, match="does not render"):
        batched(2, render_mode="ansi")


def pick(mask: Any, rng: Any) -> int:
    """A legal action, now and then an illegal one (any action once the episode is over)."""
    if not mask.any():
        return 0
    return int(rng.choice(np.flatnonzero(mask if rng.random() > 0.01 else mask == 0)))


CASES = [
    pytest.param(dict(players=2), "NextStep", 4, 500, id="2-players-match"),
    pytest.param(dict(players=3, one_round=True), "SameStep", 4, 300, id="3-players-round"),
    pytest.param(
        dict(players=4, seat=2, opponents=["random", "greedy", "random"]),
        "NextStep",
        3,
        400,
        id="4-players-seat-2",
    ),
    pytest.param(
        dict(players=2, skip_forced=False, max_rounds=2), "SameStep", 3, 400, id="forced-shown"
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("settings", "mode", "num_envs", "steps"), CASES)
def test_every_game_plays_as_the_single_environment(
    settings: dict[str, Any], mode: str, num_envs: int, steps: int
) -> None:
    """Observations, rewards, ends, masks (and the final observations of same-step autoreset)
    equal to SyncVectorEnv's over the single environment, through autoresets, now and then an
    illegal action."""
    ours = batched(num_envs, autoreset_mode=mode, **settings)
    theirs = gymnasium.make_vec(
        "Exact61-v0",
        num_envs=num_envs,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode(mode)},
        **settings,
    )
    assert ours.metadata["autoreset_mode"] is theirs.metadata["autoreset_mode"]
    mine, my_infos = ours.reset(seed=7)
    expected, infos = theirs.reset(seed=7)
    assert np.array_equal(mine, expected)
    rng = np.random.default_rng(3)
    ends = illegal = 0
    for _ in range(steps):
        assert np.array_equal(my_infos["action_mask"], infos["action_mask"])
        actions = np.array([pick(mask, rng) for mask in infos["action_mask"]])
        *mine_out, my_infos = ours.step(actions)
        *expected_out, infos = theirs.step(actions)
        for got, want in zip(mine_out, expected_out, strict=True):
            assert np.array_equal(got, want)
        if "final_obs" in infos:
            done = infos["_final_obs"]
            assert np.array_equal(my_infos["_final_obs"], done)
            for got, want in zip(
                my_infos["final_obs"][done], infos["final_obs"][done], strict=True
            ):
                assert np.array_equal(got, want)
        said = infos.get("final_info", infos)  # same-step autoreset: of the ended episodes
        if "illegal_action" in said:
            mine_said = my_infos.get("final_info", my_infos)
            assert np.array_equal(mine_said["illegal_action"], said["illegal_action"])
            illegal += int(said["illegal_action"].sum())
        assert_same_standing(my_infos, infos)
        assert_same_standing(my_infos.get("final_info", my_infos), said)
        ends += int((mine_out[2] | mine_out[3]).sum())
    assert ends >= 2 and illegal >= 1


def assert_same_standing(mine: dict[str, Any], theirs: dict[str, Any]) -> None:
    """Each game's scores and round as SyncVectorEnv says them (its scores are tuples in an
    object array; ours a row of ints a game)."""
    for key in ("scores", "round"):
        shown = theirs[f"_{key}"]
        assert np.array_equal(mine[f"_{key}"], shown)
        for got, want in zip(mine[key][shown], theirs[key][shown], strict=True):
            assert tuple(np.atleast_1d(got)) == tuple(np.atleast_1d(want))


def test_reset_seeds_and_partial_resets() -> None:
    envs = batched(3, players=2, autoreset_mode="Disabled")
    first, _ = envs.reset(seed=[5, 6, 7])
    again, _ = envs.reset(seed=5)  # 5, 6, 7 again
    assert np.array_equal(first, again)
    single = gymnasium.make("Exact61-v0", players=2)
    assert np.array_equal(first[1], single.reset(seed=6)[0])
    other, _ = envs.reset()  # on from each game's own seeded source, as Env.reset(seed=None)
    assert not np.array_equal(other, first)
    mask = np.array([False, True, False])
    partial, _ = envs.reset(seed=[None, 6, None], options={"reset_mask": mask})
    assert np.array_equal(partial[1], first[1]) and np.array_equal(partial[0], other[0])
    observations, _ = envs.reset(seed=1)
    observations[:] = 2.0  # the arrays handed out are copies
    assert envs.step(envs.action_masks().argmax(axis=1))[0].max() <= 1.0


def test_an_action_outside_the_space_is_an_error_not_a_move() -> None:
    """450, -1 or 3.7 is the agent's bug: a ValueError, as from `Exact61-v0`, where it had been
    taken for an illegal move (reward -1) or as 3. A game whose step only resets it (next-step
    autoreset) ignores its action, as SyncVectorEnv's games do."""
    envs = batched(3, players=2)
    _, infos = envs.reset(seed=1)
    legal = [int(np.flatnonzero(mask)[0]) for mask in infos["action_mask"]]
    for wrong in (450, -1):
        with pytest.raises(ValueError, match=f"no action number {wrong}"):
            envs.step(np.array([legal[0], wrong, legal[2]]))
    with pytest.raises(ValueError, match="whole number"):
        envs.step(np.array([float(a) for a in legal]) + 0.7)
    single = gymnasium.make("Exact61-v0")
    _, info = single.reset(seed=1)
    for wrong in (450, -1, 3.7, "3", True, np.float64(2)):
        with pytest.raises(ValueError, match=r"no action number|whole number"):
            single.step(wrong)
    move = int(np.flatnonzero(info["action_mask"])[0])
    assert single.step(np.int64(move))[2] in (True, False)  # numpy integers are actions


def test_seeds_of_numpy_and_wrong_types() -> None:
    envs = batched(2, players=2)
    first, _ = envs.reset(seed=np.int64(5))
    again, _ = envs.reset(seed=5)
    assert np.array_equal(first, again)
    listed, _ = envs.reset(seed=np.array([5, 6]))
    assert np.array_equal(listed, again)
    for wrong in (1.5, True, "x"):
        with pytest.raises(TypeError, match="seed must be"):
            envs.reset(seed=wrong)
    for wrong in ([5, 1.5], [True, 6], ["5", "6"], np.array([5.0, 6.0])):  # int() took them
        with pytest.raises(TypeError, match=r"seed must be an int, .* in a sequence"):
            envs.reset(seed=wrong)
    assert np.array_equal(envs.reset(seed=[np.int64(5), None])[0][0], again[0])
    with pytest.raises(ValueError, match=r"R2.*2\.0"):
        batched(2, players=2.0)


def test_numpy_integers_are_settings_of_the_batch() -> None:
    envs = batched(np.int64(2), players=np.int64(4), seat=np.int8(3), max_rounds=np.uint8(5))
    assert envs.num_envs == 2 and type(envs.num_envs) is int
    observations, infos = envs.reset(seed=1)
    assert observations.shape == (2, encoding.OBSERVATION_SIZE)
    assert infos["scores"].shape == (2, 2)  # 4 players: two sides
    for wrong in (2.0, True, "2"):
        with pytest.raises(ValueError, match="num_envs must be a whole number of at least 1"):
            Exact61VectorEnv(wrong)


@pytest.mark.parametrize("native", [True, False])
def test_an_illegal_action_ends_a_game_for_good_with_autoreset_disabled(native: bool) -> None:
    """An illegal action ends its game's episode as any end does: its mask empties, the next
    step is refused naming the game, and its own reset begins the next (the game once went on
    being played after its -1)."""
    envs = batched(3, autoreset_mode="Disabled", native=native)
    _, infos = envs.reset(seed=4)
    actions = infos["action_mask"].argmax(axis=1)
    actions[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    _, rewards, terminated, _, infos = envs.step(actions)
    assert rewards[1] == -1.0 and terminated[1] and infos["illegal_action"][1]
    assert not infos["action_mask"][1].any() and not envs.action_masks()[1].any()
    assert infos["action_mask"][[0, 2]].any(axis=1).all() or terminated[[0, 2]].any()
    again = np.where(infos["action_mask"].any(axis=1), infos["action_mask"].argmax(axis=1), 0)
    with pytest.raises(RuntimeError, match="the episode of game 1 is over: reset it"):
        envs.step(again)
    _, infos = envs.reset(options={"reset_mask": np.array([False, True, False])})
    assert infos["action_mask"][1].any()


@pytest.mark.parametrize("native", [True, False])
def test_a_closed_vector_environment_plays_no_more(native: bool) -> None:
    envs = batched(2, native=native)
    envs.reset(seed=3)
    envs.close()
    envs.close()  # twice: nothing more happens
    for again in (lambda: envs.step(np.zeros(2, np.int64)), envs.reset):
        with pytest.raises(RuntimeError, match="the vector environment is closed"):
            again()


@pytest.mark.parametrize("native", [True, False])
def test_actions_of_another_shape_are_refused_naming_the_games(native: bool) -> None:
    envs = batched(3, native=native)
    with pytest.raises(RuntimeError, match="game 0 has no episode yet: call reset"):
        envs.step(np.zeros(3, np.int64))
    _, infos = envs.reset(seed=5)
    legal = infos["action_mask"].argmax(axis=1)
    for wrong in (legal[:2], legal.reshape(3, 1), np.concatenate([legal, legal]), legal[0]):
        with pytest.raises(ValueError, match=r"one action for each of the 3 games.*shape \(3,\)"):
            envs.step(wrong)


@pytest.mark.parametrize("native", [True, False])
def test_an_action_outside_the_space_moves_no_game(native: bool) -> None:
    """The step is refused whole: the games before the bad action did not move (the Python
    games once played theirs before the ValueError)."""
    envs = batched(3, native=native)
    observations, infos = envs.reset(seed=6)
    observations = observations.copy()
    legal = infos["action_mask"].argmax(axis=1)
    with pytest.raises(ValueError, match="no action number 999"):
        envs.step(np.array([legal[0], legal[1], 999]))
    assert np.array_equal(envs.unwrapped.observations, observations)
    envs.step(legal)  # and the step is taken from there: every game moves
    moved = envs.unwrapped.observations != observations
    assert moved.any(axis=1).all()


def test_the_research_extra_asks_for_a_gymnasium_with_autoreset_modes() -> None:
    """The vector environment imports `gymnasium.vector.AutoresetMode`, which Gymnasium 1.1
    added: the extra's `gymnasium>=1.0` let pip keep a 1.0, where importing
    `exact61.research.gymnasium` failed with an ImportError."""
    pyproject = Path(__file__).parents[2] / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    wanted = [Requirement(r) for r in extras["research"] if Requirement(r).name == "gymnasium"]
    assert len(wanted) == 1
    assert not wanted[0].specifier.contains(Version("1.0.0"))
    assert wanted[0].specifier.contains(Version("1.1.0"))
    assert AutoresetMode.NEXT_STEP.value == "NextStep"  # the name the environment imports


@pytest.mark.parametrize("native", [True, False])
def test_a_negative_seed_is_refused_before_any_game_resets(native: bool) -> None:
    """reset(seed=-1) raised gymnasium.error.Error (not a ValueError, unlike Exact61-v0's and
    PettingZoo's), and seed=[5, 6, -1] reset games 0 and 1 before refusing game 2's seed."""
    envs = batched(3, players=2, native=native)
    fresh = batched(3, players=2, native=native)
    _, infos = envs.reset(seed=1)
    fresh.reset(seed=1)
    for wrong, said in ((-1, r"-1$"), ([5, 6, -1], r"-1 in a sequence$"), ([np.int64(-2)] * 3, "")):
        with pytest.raises(ValueError, match=r"^seed must be at least 0, not " + said):
            envs.reset(seed=wrong)
    actions = infos["action_mask"].argmax(axis=1)
    assert np.array_equal(envs.step(actions)[0], fresh.step(actions)[0])


@pytest.mark.parametrize("native", [True, False])
def test_a_huge_num_envs_is_refused_naming_it(native: bool) -> None:
    """num_envs=2**63 raised numpy's bare 'OverflowError: Python int too large to convert to C
    long' and 2**40 a MemoryError of 2.93 PiB for an array of shape (2**40, 751): neither named
    the setting. Past `MAX_NUM_ENVS` (each game takes about 28 KB) it is a ValueError."""
    from exact61.research.vector import MAX_NUM_ENVS

    for wrong in (2**63, 2**40, MAX_NUM_ENVS + 1, np.uint64(2**63)):
        with pytest.raises(ValueError, match=rf"^num_envs must be at most {MAX_NUM_ENVS:,}"):
            Exact61VectorEnv(wrong, native=native)
    with pytest.raises(ValueError, match="num_envs"):
        batched(2**63, players=2)


@pytest.mark.parametrize("native", [True, False])
@pytest.mark.parametrize("wrong", [b"ab", bytearray(b"ab"), memoryview(b"ab"), "ab"])
def test_bytes_are_no_seeds(native: bool, wrong: Any) -> None:
    """reset(seed=b"ab") was read as the seeds 97 and 98 (bytes are a sequence of ints): a
    seed is an int or a sequence of ints, so bytes, as a str, are a TypeError."""
    envs = batched(2, players=2, native=native)
    with pytest.raises(TypeError, match=r"^seed must be an int, a sequence of ints or None"):
        envs.reset(seed=wrong)


@pytest.mark.parametrize("native", [True, False])
def test_a_reset_mask_is_of_bools_not_the_games_numbers(native: bool) -> None:
    """options={"reset_mask": np.array([0, 1])}, the numbers of both ended games (as
    `np.flatnonzero` gives them), was read as the mask [False, True]: game 0 was silently left
    as it was. A mask that is not of bools is a TypeError, as SyncVectorEnv's."""
    envs = batched(2, players=2, autoreset_mode="Disabled", native=native)
    before, _ = envs.reset(seed=5)
    for wrong in (np.array([0, 1]), [1, 0], np.array([0.5, 0.0]), np.array([2, 0], np.uint8)):
        with pytest.raises(TypeError, match=r"^reset_mask must be .* bools"):
            envs.reset(seed=[7, 8], options={"reset_mask": wrong})
    after, _ = envs.reset(seed=[7, 8], options={"reset_mask": [True, False]})  # a list of bools
    assert not np.array_equal(after[0], before[0]) and np.array_equal(after[1], before[1])
    with pytest.raises(ValueError, match=r"^reset_mask must have shape \(2,\)"):
        envs.reset(options={"reset_mask": np.ones(3, np.bool_)})


@pytest.mark.parametrize("native", [True, False])
def test_pickling_the_batch_says_it_cannot_be(native: bool) -> None:
    """docs/research.md says the batched environment cannot be pickled; the Python games' batch
    said "cannot pickle memoryview objects" (its rows' views), the native one named its
    VectorGames: both now say what cannot be pickled and what to do instead."""
    import copy
    import pickle

    envs = batched(2, players=2, native=native)
    for attempt in (pickle.dumps, copy.deepcopy, copy.copy):
        with pytest.raises(TypeError, match=r"^the batched Exact61-v0 cannot be pickled or copied"):
            attempt(envs)
