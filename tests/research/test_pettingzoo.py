"""The PettingZoo AEC environment: PettingZoo's own tests, seeding, rewards, records."""

from __future__ import annotations

import contextlib
import io
import re
import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
from pettingzoo.test import (  # noqa: E402
    api_test,
    parallel_api_test,
    parallel_seed_test,
    performance_benchmark,
    render_test,
    seed_test,
)
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

from exact61.core import ALL_TILES, Phase, dumps, match_to_record, replay  # noqa: E402
from exact61.render.picture import draw  # noqa: E402
from exact61.research import encoding  # noqa: E402
from exact61.research.pettingzoo import env, raw_env  # noqa: E402

# api_test warns about every dict observation with an action mask, which is PettingZoo's own
# recommended form for masked games (its classic games get the same two warnings).
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def play_out(table: object, seed: int, rng: np.random.Generator) -> list[tuple]:
    """Play random legal actions to the end; every (agent, observation, reward) on the way."""
    table.reset(seed=seed)
    seen = []
    for agent in table.agent_iter():
        obs, reward, termination, truncation, _ = table.last()
        seen.append((agent, obs["observation"].tobytes(), reward))
        if termination or truncation:
            table.step(None)
        else:
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_seed_and_render_tests(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(players=players), num_cycles=1000)
    unexpected = {
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    }
    assert not unexpected
    seed_test(lambda **kw: env(players=players, **kw), num_cycles=500)
    with contextlib.redirect_stdout(io.StringIO()):  # render_mode="human" prints
        render_test(lambda **kw: env(players=players, **kw))


@pytest.mark.parametrize("players", [2, 4])
def test_the_turn_based_parallel_form_passes_pettingzoos_parallel_tests(players: int) -> None:
    """The docs said there was no parallel form: `aec_to_parallel` refuses a turn-based game,
    but PettingZoo's `turn_based_aec_to_parallel` is made for one."""
    parallel_api_test(turn_based_aec_to_parallel(env(players=players)), num_cycles=500)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its random actions are mostly illegal moves
        parallel_seed_test(
            lambda **kw: turn_based_aec_to_parallel(env(players=players, **kw)), num_cycles=100
        )
    table = turn_based_aec_to_parallel(env(players=players, one_round=True))
    observations, _ = table.reset(seed=5)
    rng = np.random.default_rng(5)
    returns = dict.fromkeys(table.possible_agents, 0.0)
    while table.agents:  # every agent gives an action; only the one to act plays it
        masks = {agent: observations[agent]["action_mask"] for agent in table.agents}
        assert sum(bool(mask.any()) for mask in masks.values()) == 1
        actions = {
            agent: int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
            for agent, mask in masks.items()
        }
        observations, rewards, _, _, _ = table.step(actions)
        for agent, reward in rewards.items():
            returns[agent] += reward
    assert abs(sum(returns.values())) < 1e-9  # zero-sum, no illegal move made


@pytest.mark.slow
def test_pettingzoo_performance_benchmark_plays_many_episodes() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(env(players=4))  # 5 seconds of random play, resets included
    turns = re.search(r"([\d.]+) turns per second", out.getvalue())
    assert turns is not None and float(turns.group(1)) > 100


def test_same_seed_same_episode_and_another_seed_another() -> None:
    first = play_out(env(players=3), 11, np.random.default_rng(0))
    second = play_out(env(players=3), 11, np.random.default_rng(0))
    other = play_out(env(players=3), 12, np.random.default_rng(0))
    assert first == second
    assert first != other


@pytest.mark.parametrize("players", [2, 4])
def test_rewards_at_the_end_go_to_the_side_that_reached_61(players: int) -> None:
    table = raw_env(players=players)
    rng = np.random.default_rng(players)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    table.reset(seed=players)
    for agent in table.agent_iter():
        obs, reward, termination, truncation, _ = table.last()
        totals[agent] += reward
        if termination or truncation:
            table.step(None)
        else:
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    match = table.match
    assert match.is_over
    expected = {
        f"seat_{s}": 1.0 if match.side_of(s) == match.winner else -1.0 for s in range(players)
    }
    assert totals == expected  # R30; at 4 players both partners (R2)
    replay(dumps(match_to_record(match)))  # the episode is a valid exact61-match/1 record


def test_observations_match_the_core_and_hide_other_hands() -> None:
    table = raw_env(players=4)
    table.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        if table.match.phase is not Phase.PLAY:
            break
        match = table.match
        for s, agent in enumerate(table.possible_agents):
            obs = table.observe(agent)
            assert np.array_equal(obs["observation"], encoding.observe(match.view(s)))
            hand = np.flatnonzero(obs["observation"][encoding.OBSERVATION_SLICES["hand"]])
            assert {ALL_TILES[t] for t in hand} == set(match.hand(s))
            mask = np.flatnonzero(obs["action_mask"])
            legal = encoding.legal_ids(match.legal_actions()) if match.to_act == s else []
            assert list(mask) == legal
        acting = table.observe(table.agent_selection)["action_mask"]
        table.step(int(rng.choice(np.flatnonzero(acting))))


def test_ansi_render_draws_the_layout_without_hands() -> None:
    table = raw_env(players=2, render_mode="ansi")
    table.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(12):
        table.step(
            int(rng.choice(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])))
        )
    text = table.render()
    match = table.match
    assert text.startswith(draw(match.layout).text().rstrip("\n"))
    assert f"Boneyard: {match.boneyard_size}" in text
    hidden = [t for s in range(2) for t in match.hand(s)]
    assert not [t for t in hidden if str(t) in text]


def test_illegal_action_ends_the_episode_for_the_wrapped_env() -> None:
    table = env(players=2)
    table.reset(seed=3)
    agent = table.agent_selection
    mask = table.observe(agent)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns about the illegal move
        table.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(table.terminations.values())
    assert table.rewards[agent] == -1


def test_an_action_outside_the_space_is_a_value_error_that_names_it() -> None:
    # PettingZoo's own check said only "action is not in action space" (an AssertionError)
    table = env(players=2)
    table.reset(seed=4)
    played = len(table.unwrapped.match.rounds[-1].steps)
    assert played == 0
    for wrong, said in ((450, "no action number 450"), (-1, "no action number -1")):
        with pytest.raises(ValueError, match=said):
            table.step(wrong)
    for wrong in (3.7, "3", True):
        with pytest.raises(ValueError, match="an action is a whole number from 0 to 449"):
            table.step(wrong)
    agent = table.agent_selection
    legal = int(np.flatnonzero(table.observe(agent)["action_mask"])[0])
    assert len(table.unwrapped.match.rounds[-1].steps) == 0  # nothing above was played
    table.step(np.int64(legal))  # a numpy number is taken
    assert len(table.unwrapped.match.rounds[-1].steps) == 1


def test_settings_are_checked_as_exact61_v0_checks_them() -> None:
    """max_rounds=0 (or -3) had been taken, and played one round as max_rounds=1 would;
    players=2.0 failed deep inside with a TypeError."""
    for wrong in (0, -3, 1.5):
        with pytest.raises(ValueError, match="max_rounds must be a whole number of at least 1"):
            env(players=2, max_rounds=wrong)
    for wrong in (2.0, 5, "2"):
        with pytest.raises(ValueError, match="R2: Exact 61 Five Up is for 2, 3 or 4 players"):
            env(players=wrong)
    table = env(players=np.int64(3), max_rounds=np.int64(1))
    table.reset(seed=2)
    assert table.unwrapped.players == 3 and type(table.unwrapped.players) is int
    assert table.possible_agents == ["seat_0", "seat_1", "seat_2"]


def test_the_raw_environment_refuses_what_is_no_action_too() -> None:
    """raw_env (no wrappers) had played 3.7 as action 3 (int()) and read -1 as a pass; 450
    was an IndexError."""
    table = raw_env(players=2)
    table.reset(seed=1)
    for wrong, said in ((450, "no action number 450"), (-1, "no action number -1")):
        with pytest.raises(ValueError, match=said):
            table.step(wrong)
    for wrong in (3.7, np.float64(2.0), True, "3"):
        with pytest.raises(ValueError, match="an action is a whole number from 0 to 449"):
            table.step(wrong)
    assert not table.match.rounds[-1].steps  # nothing above was played
    legal = int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0])
    table.step(np.int64(legal))
    assert len(table.match.rounds[-1].steps) == 1


def test_seeds_are_whole_numbers_from_zero_numpy_ones_too() -> None:
    """reset(seed=np.int64(3)) had failed in random.Random, while 1.5 and "3" were taken and
    -1 gave the episode of seed 1."""
    first = play_out(env(players=2), 3, np.random.default_rng(0))
    table = env(players=2)
    table.reset(seed=np.int64(3))
    assert table.observe(table.agent_selection)["observation"].tobytes() == first[0][1]
    for wrong in (1.5, "3", b"3", True, np.float64(3)):
        with pytest.raises(TypeError, match="seed must be an int or None"):
            table.reset(seed=wrong)
    with pytest.raises(ValueError, match="seed must be at least 0, not -1"):
        table.reset(seed=-1)
