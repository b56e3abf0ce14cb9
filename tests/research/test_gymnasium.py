"""`Exact61-v0`: Gymnasium's env checker, seeding, rewards, masks and forced actions."""

from __future__ import annotations

import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import exact61.research.gymnasium  # noqa: E402, F401 - registers Exact61-v0
from exact61.core import dumps, match_to_record, replay  # noqa: E402
from exact61.research import encoding  # noqa: E402


def episode(env: object, seed: int, rng: np.random.Generator) -> tuple[list[bytes], float]:
    obs, info = env.reset(seed=seed)
    seen = [obs.tobytes()]
    reward = 0.0
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        seen.append(obs.tobytes())
        done = terminated or truncated
    return seen, reward


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gymnasium_env_checker_passes(players: int) -> None:
    env = gymnasium.make("Exact61-v0", players=players, opponents="greedy")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]


def test_same_seed_same_episode() -> None:
    env = gymnasium.make("Exact61-v0", players=3, opponents=["random", "heuristic"])
    first = episode(env, 4, np.random.default_rng(1))
    second = episode(env, 4, np.random.default_rng(1))
    other = episode(env, 5, np.random.default_rng(1))
    assert first == second
    assert first != other


@pytest.mark.parametrize(("players", "seat"), [(2, 1), (4, 2)])
def test_reward_is_the_agents_side_result_and_the_record_verifies(players: int, seat: int) -> None:
    env = gymnasium.make("Exact61-v0", players=players, seat=seat, opponents="greedy")
    _, reward = episode(env, 9, np.random.default_rng(9))
    match = env.unwrapped.match
    assert match.is_over
    assert reward == (1.0 if match.side_of(seat) == match.winner else -1.0)  # R30, R2
    replay(dumps(match_to_record(match)))


def test_mask_and_observation_are_the_agents_seat_view() -> None:
    env = gymnasium.make("Exact61-v0", players=2, seat=1, opponents="random")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        match = env.unwrapped.match
        assert match.to_act == 1
        assert np.array_equal(obs, encoding.observe(match.view(1)))
        legal = encoding.legal_ids(match.legal_actions())
        assert list(np.flatnonzero(info["action_mask"])) == legal
        assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"])
        assert len(legal) > 1  # forced actions are played for the agent by default
        obs, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            break


def test_forced_actions_can_be_left_to_the_agent() -> None:
    env = gymnasium.make("Exact61-v0", players=2, opponents="greedy", skip_forced=False)
    _, info = env.reset(seed=1)
    singles = 0
    for _ in range(200):
        legal = np.flatnonzero(info["action_mask"])
        singles += len(legal) == 1
        _, _, terminated, truncated, info = env.step(int(legal[0]))
        if terminated or truncated:
            break
    assert singles > 0


def test_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = gymnasium.make("Exact61-v0")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    # the episode is over, though the round still waits for the agent: nothing is legal, and
    # a step is refused as after any end (it once went on playing the same game)
    assert not info["action_mask"].any() and not env.unwrapped.action_masks().any()
    legal = env.unwrapped.match.legal_actions()
    assert legal  # the match itself would take a move
    with pytest.raises(RuntimeError, match="the episode is over: call reset"):
        env.step(encoding.ACTION_INDEX[legal[0]])
    _, info = env.reset(seed=3)  # and a reset begins the next
    assert info["action_mask"].any() and "illegal_action" not in info


def test_a_step_before_any_reset_says_to_reset_first() -> None:
    env = gymnasium.make("Exact61-v0").unwrapped
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="no episode has started: call reset"):
        env.step(0)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        gymnasium.make("Exact61-v0", opponents="nobody")
    with pytest.raises(ValueError, match="3 opponents"):
        gymnasium.make("Exact61-v0", players=4, opponents=["greedy"])
    with pytest.raises(ValueError, match="R2"):
        gymnasium.make("Exact61-v0", players=5)


def test_numpy_integers_are_settings_and_other_numbers_are_refused_naming_them() -> None:
    """A sweep over `np.arange(2, 5)` gives numpy integers: players=np.int64(3) had been refused
    as 'not np.int64(3)', while max_rounds=1.5 was taken and seat=1.0 failed deep inside."""
    env = gymnasium.make(
        "Exact61-v0", players=np.int64(3), seat=np.int32(1), max_rounds=np.int64(2)
    ).unwrapped
    assert (env.players, env.seat, env.max_rounds) == (3, 1, 2)
    assert all(type(n) is int for n in (env.players, env.seat, env.max_rounds))
    _, info = env.reset(seed=1)
    assert info["action_mask"].any()
    assert check_env(env) is None
    wrong = {
        "players": (2.0, r"R2: .* not 2\.0"),
        "seat": (1.0, r"no seat 1\.0 among 2 players"),
        "max_rounds": (1.5, r"max_rounds must be a whole number of at least 1, not 1\.5"),
        "opponents": (None, "opponents is a bot name or a list of 1, one per other seat"),
    }
    for setting, (value, said) in wrong.items():
        with pytest.raises(ValueError, match=said):
            gymnasium.make("Exact61-v0", **{setting: value})
    with pytest.raises(ValueError, match="not '3'"):
        gymnasium.make("Exact61-v0", max_rounds="3")


def test_an_opponent_searching_for_a_time_is_warned_of_as_not_reproducible() -> None:
    """`ismcts@0.01s` plays as many iterations as fit in the time, so the same seed gave other
    episodes without a word, where the docs promised the same; `ismcts:N` searches alike."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gymnasium.make("Exact61-v0", opponents="ismcts:20")
        gymnasium.make_vec(
            "Exact61-v0", num_envs=2, vectorization_mode="vector_entry_point", opponents="greedy"
        )
    assert not [str(w.message) for w in caught]
    for make in (
        lambda: gymnasium.make("Exact61-v0", players=3, opponents=["greedy", "ISMCTS@0.01s"]),
        lambda: gymnasium.make_vec(
            "Exact61-v0", num_envs=2, vectorization_mode="vector_entry_point", opponents="expert@1s"
        ),
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            make()
        said = [str(w.message) for w in caught]
        assert len(said) == 1 and "searches for a time" in said[0], said
        assert "the same seed and actions may not give the same episode" in said[0]


def test_one_round_reward_is_the_gain_against_the_mean() -> None:
    env = gymnasium.make("Exact61-v0", players=2, opponents="greedy", one_round=True)
    _, reward = episode(env, 6, np.random.default_rng(6))
    match = env.unwrapped.match
    assert len(match.rounds) == 1
    assert reward == pytest.approx(encoding.round_returns(2, [0, 0], match.scores)[0])


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seat"), [(2, 0), (3, 2), (4, 1)])
def test_one_round_episodes_start_at_a_decision_of_the_agent(players: int, seat: int) -> None:
    # About 1 in 300 deals leaves the agent's seat no choice in the whole round: such a game
    # was returned by reset() already over (an all-zero mask, and step() raised).
    env = gymnasium.make(
        "Exact61-v0", players=players, seat=seat, opponents="greedy", one_round=True
    )
    for seed in range(3000):
        _, info = env.reset(seed=seed)
        match = env.unwrapped.match
        assert match.to_act == seat, seed
        assert info["action_mask"].sum() > 1, seed  # a real choice: forced ones are played
    assert len(match.rounds) == 1


def test_a_game_the_agent_never_decides_in_is_dealt_again() -> None:
    env = gymnasium.make("Exact61-v0", players=2, opponents="greedy", one_round=True)
    _, info = env.reset(seed=163)  # its first deal ends in a domino of seat 1, seat 0 forced
    rng = np.random.default_rng(0)
    steps, done = 0, False
    while not done:
        _, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        steps += 1
        done = terminated or truncated
    assert steps >= 1 and terminated and not truncated
    with pytest.raises(ValueError, match="max_rounds"):
        gymnasium.make("Exact61-v0", max_rounds=0)


def test_seeds_of_numpy_and_wrong_types() -> None:
    """A sweep's `np.arange` seeds the single environment as it seeds the batched one and
    PettingZoo's (Gymnasium's own check took only a Python int, and took True as 1)."""
    env = gymnasium.make("Exact61-v0", players=2)
    first, _ = env.reset(seed=np.int64(5))
    again, _ = env.reset(seed=5)
    assert np.array_equal(first, again)
    assert np.array_equal(env.reset(seed=np.uint8(5))[0], again)
    for wrong in (1.5, True, "5", b"5", np.float64(5.0)):
        with pytest.raises(TypeError, match="seed must be an int or None"):
            env.reset(seed=wrong)
    with pytest.raises(ValueError, match="seed must be at least 0, not -1"):
        env.reset(seed=-1)


@pytest.mark.parametrize("setting", ["one_round", "skip_forced"])
def test_true_or_false_settings_take_bools_only(setting: str) -> None:
    """`one_round="False"` (a config file's string) had been taken as True, a single round for
    a match, and the native batched env refused it with pyo3's TypeError: every environment now
    refuses what is not True or False in one line, and takes numpy's bools."""
    from exact61.research.pettingzoo import raw_env
    from exact61.research.vector import Exact61VectorEnv

    makers = [
        lambda value: gymnasium.make("Exact61-v0", **{setting: value}),
        lambda value: Exact61VectorEnv(2, **{setting: value}),
        lambda value: Exact61VectorEnv(2, native=False, **{setting: value}),
    ]
    if setting == "one_round":
        makers.append(lambda value: raw_env(**{setting: value}))
    for make in makers:
        for wrong in ("False", None, 0, 1.0):
            with pytest.raises(ValueError, match=f"^{setting} must be True or False, not "):
                make(wrong)
        make(np.bool_(True))  # numpy's bool is a setting, as numpy's integers are
    made = gymnasium.make("Exact61-v0", **{setting: np.bool_(True)}).unwrapped
    assert getattr(made, setting) is True


def test_a_wrong_number_of_opponents_is_said_in_plain_words() -> None:
    """It had said "2 players need 1 opponents"."""
    for players, opponents, said in (
        (2, ["greedy", "random"], "2 players need 1 opponent, one per other seat, not 2"),
        (4, ["greedy"], "4 players need 3 opponents, one per other seat, not 1"),
    ):
        with pytest.raises(ValueError, match=f"^{said}$"):
            gymnasium.make("Exact61-v0", players=players, opponents=opponents)


def test_opponents_that_are_not_bot_names_are_refused_naming_opponents() -> None:
    """opponents=[None] or [3] failed inside the bots' spec check with "AttributeError:
    'NoneType' object has no attribute 'strip'", and b"greedy" was six opponents (its bytes):
    each is a ValueError saying what opponents takes, from the single and batched environments."""
    from exact61.research.vector import Exact61VectorEnv

    makers = [
        lambda opponents: gymnasium.make("Exact61-v0", players=2, opponents=opponents),
        lambda opponents: Exact61VectorEnv(2, players=2, opponents=opponents),
        lambda opponents: Exact61VectorEnv(2, players=2, opponents=opponents, native=False),
    ]
    for make in makers:
        for wrong in ([None], [3], b"g", b"greedy", bytearray(b"g"), [b"greedy"]):
            with pytest.raises(ValueError, match=r"^opponents is a bot name or a list of 1, one "):
                make(wrong)
        make(np.array(["greedy"]))  # numpy's strings are names
