"""`learned:FILE`: a policy file played with numpy alone (no torch here), its spec, its errors."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from exact61.bots import (
    FILE_BOTS,
    GreedyBot,
    LearnedBot,
    budget_of,
    check_bot_players,
    check_bot_spec,
    file_of,
    make_bot,
)
from exact61.bots import observation as obs_module
from exact61.bots.heuristic import expected_reply, unseen_by
from exact61.bots.learned import (
    ACTION_PIPS,
    BASE_FEATURES,
    CREDIT_SCALE,
    FEATURES,
    PolicyError,
    action_features,
    forward,
    load_policy,
    policy_from_arrays,
    policy_header,
    reply_threats,
)
from exact61.core import TARGET_RAW, Action, Match, Phase, Play, SeatView
from exact61.table import Table
from tests.cli.test_cli import exact61, no_traceback

SHIPPED = Path(__file__).parents[2] / "examples" / "ppo_agent.npz"


def policy_arrays(
    hidden: tuple[int, ...] = (16,),
    players: int = 2,
    seed: int = 0,
    feature_bias: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0),
    scale: float = 0.1,
) -> dict[str, Any]:
    """A format-1 policy with random weights (and the given bias of each action feature: four
    numbers, `BASE_FEATURES`, or five, `FEATURES` with the threat)."""
    rng = np.random.default_rng(seed)
    features = FEATURES if len(feature_bias) == len(FEATURES) else BASE_FEATURES
    header = policy_header(hidden, players, features=features)
    arrays: dict[str, Any] = {"header": np.array(json.dumps(header))}
    width = obs_module.OBSERVATION_SIZE
    for k, n in enumerate(hidden):
        arrays[f"hidden.{k}.weight"] = rng.normal(0, scale, (n, width)).astype(np.float32)
        arrays[f"hidden.{k}.bias"] = rng.normal(0, scale, n).astype(np.float32)
        width = n
    arrays["policy.weight"] = rng.normal(0, scale, (obs_module.ACTION_COUNT, width))
    arrays["policy.bias"] = rng.normal(0, scale, obs_module.ACTION_COUNT)
    arrays["features.weight"] = np.zeros((len(features), width))
    arrays["features.bias"] = np.array(feature_bias, np.float64)
    return arrays


def write(path: Path, arrays: dict[str, Any]) -> Path:
    np.savez(path, **arrays)
    return path


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    return write(tmp_path / "Agent.npz", policy_arrays())


def play_match(seats: list[Any], seed: int) -> Match:
    """A whole match of these bots, checking every choice is among the legal actions."""
    match = Match(len(seats))
    chance = random.Random(seed)
    while not match.is_over and len(match.rounds) < 100:
        if match.phase is not Phase.PLAY:
            match.deal_next_round(chance)
            continue
        seat = match.to_act
        assert seat is not None
        legal = match.legal_actions()
        action = seats[seat].choose(match.view(seat))
        assert action in legal
        match.apply(action)
    return match


# ---- the spec -------------------------------------------------------------------------------


def test_the_spec_keeps_the_path_as_written(policy_file: Path) -> None:
    spec = f"Learned:{policy_file}"
    assert check_bot_spec(spec) == f"learned:{policy_file}"  # the file's case is kept
    assert check_bot_spec(f"  learned: {policy_file} ") == f"learned:{policy_file}"
    assert file_of(spec) == str(policy_file) and file_of("ismcts:500") is None
    assert FILE_BOTS == ("learned",)
    assert budget_of(spec) == (None, None)  # no iterations or seconds, whatever the path holds
    assert isinstance(make_bot(spec, random.Random(1)), LearnedBot)
    check_bot_players(spec, 2)
    check_bot_players("greedy", 3)  # other bots play any count


def test_a_path_with_at_signs_and_colons_is_a_path(tmp_path: Path) -> None:
    odd = tmp_path / "run@0.05s:v2.npz"
    write(odd, policy_arrays())
    assert check_bot_spec(f"learned:{odd}") == f"learned:{odd}"
    assert budget_of(f"learned:{odd}") == (None, None)


def test_unknown_bots_name_learned_among_the_choices() -> None:
    with pytest.raises(ValueError, match=r"learned:FILE"):
        check_bot_spec("learnt")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "No such file or directory"),
        (b"not a zip at all", "not a policy file"),
        ({"weights": np.zeros(3)}, "no readable header"),
        ({"header": np.array('{"format": "other"}')}, "its format is not 'exact61-policy'"),
    ],
)
def test_a_file_that_is_not_a_policy_is_refused_in_one_line(
    tmp_path: Path, content: Any, message: str
) -> None:
    path = tmp_path / "p.npz"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, dict):
        write(path, content)
    with pytest.raises(ValueError, match=message) as err:
        check_bot_spec(f"learned:{path}")
    assert "\n" not in str(err.value) and str(path) in str(err.value)
    assert str(err.value).startswith(f"bad bot 'learned:{path}': ")


def test_weights_that_do_not_fit_the_header_are_refused(tmp_path: Path) -> None:
    arrays = policy_arrays(hidden=(16,))
    arrays["hidden.0.weight"] = arrays["hidden.0.weight"][:, :700]
    with pytest.raises(
        PolicyError, match=r"hidden.0.weight has shape \(16, 700\), not \(16, 751\)"
    ):
        load_policy(write(tmp_path / "a.npz", arrays))
    arrays = policy_arrays()
    del arrays["features.bias"]
    with pytest.raises(PolicyError, match=r"no features\.bias"):
        load_policy(write(tmp_path / "b.npz", arrays))
    arrays = policy_arrays()
    arrays["policy.bias"][3] = np.nan
    with pytest.raises(PolicyError, match="not finite"):
        load_policy(write(tmp_path / "c.npz", arrays))
    arrays = policy_arrays()
    header = json.loads(str(arrays["header"]))
    arrays["header"] = np.array(json.dumps({**header, "version": 2}))
    with pytest.raises(PolicyError, match="version 2; this exact61 reads 1"):
        load_policy(write(tmp_path / "d.npz", arrays))
    arrays = policy_arrays()  # four features' weights under a header naming five
    arrays["header"] = np.array(json.dumps({**header, "features": list(FEATURES)}))
    with pytest.raises(PolicyError, match=r"features\.weight has shape \(4, 16\), not \(5, 16\)"):
        load_policy(write(tmp_path / "f.npz", arrays))
    arrays["header"] = np.array(json.dumps({**header, "features": ["credit", "threat"]}))
    with pytest.raises(PolicyError, match=r"its action features are \['credit', 'threat'\]"):
        load_policy(write(tmp_path / "g.npz", arrays))


def test_a_pickle_in_the_file_is_never_loaded(tmp_path: Path) -> None:
    arrays = policy_arrays()
    arrays["header"] = np.array([{"format": "exact61-policy"}], dtype=object)
    np.savez(tmp_path / "e.npz", **arrays)  # an object array: readable only with pickles
    with pytest.raises(PolicyError, match="not a policy file"):
        load_policy(tmp_path / "e.npz")


def test_a_policy_for_other_players_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "three.npz", policy_arrays(players=3))
    check_bot_spec(f"learned:{path}")  # a policy file, but for 3 players
    with pytest.raises(ValueError, match=r"a policy for 3 players, not 2 \(--players\)"):
        check_bot_players(f"learned:{path}", 2)
    bot = make_bot(f"learned:{path}", random.Random(0))
    match = Match(2)
    match.deal_next_round(random.Random(1))
    seat = match.to_act
    assert seat is not None
    with pytest.raises(PolicyError, match="cannot play 2"):
        bot.choose(match.view(seat))


def test_a_rewritten_file_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path / "p.npz", policy_arrays(seed=1))
    first = load_policy(path)
    assert load_policy(path) is first  # read once
    write(path, policy_arrays(seed=2, hidden=(8,)))
    assert load_policy(path).hidden[0][0].shape == (8, obs_module.OBSERVATION_SIZE)


# ---- playing --------------------------------------------------------------------------------


@pytest.mark.parametrize("features", [len(BASE_FEATURES), len(FEATURES)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_plays_only_legal_actions_through_whole_matches(
    tmp_path: Path, players: int, features: int
) -> None:
    bias = (0.0,) * features
    arrays = policy_arrays(players=players, hidden=(32, 16), feature_bias=bias)
    path = write(tmp_path / "p.npz", arrays)
    for seed in range(2):
        bots = [make_bot(f"learned:{path}", random.Random(s)) for s in range(players)]
        bots[1] = GreedyBot(random.Random(9))
        match = play_match(bots, seed)
        assert match.is_over


def test_a_table_and_its_seats_take_the_spec(policy_file: Path) -> None:
    table = Table(2, [f"learned:{policy_file}", "greedy"], seed=3, bots_per="seat")
    table.play_out()
    assert table.match.is_over
    assert table.seats[0] == f"learned:{policy_file}"


def test_its_observation_is_the_environments_observation(policy_file: Path) -> None:
    """The research interfaces read the same encoding: the same function, and the same numbers
    as the batched Exact61-v0 at each of the agent's decisions (read from the views of its
    games, played alongside as single environments: the batched one may play natively)."""
    pytest.importorskip("gymnasium")
    from exact61.research import encoding
    from exact61.research.gymnasium import Exact61Env
    from exact61.research.vector import Exact61VectorEnv

    assert encoding.observe is obs_module.observe
    bot = make_bot(f"learned:{policy_file}", random.Random(0))
    assert isinstance(bot, LearnedBot)
    env = Exact61VectorEnv(3, 2, opponents="greedy", autoreset_mode="Disabled")
    games = [Exact61Env(2, opponents="greedy") for _ in range(3)]
    observations, _ = env.reset(seed=5)
    for i, game in enumerate(games):
        game.reset(seed=5 + i)  # game i of the batch
    rng = np.random.default_rng(0)
    compared = 0
    for _ in range(40):
        for i, game in enumerate(games):
            if game.match.phase is Phase.PLAY:
                view = game.match.view(game.seat)
                assert np.array_equal(bot.observation(view), observations[i])
                compared += 1
        masks = env.action_masks()
        if not all(g.match.phase is Phase.PLAY for g in games):
            break
        actions = [rng.choice(np.flatnonzero(m)) for m in masks]
        observations, *_ = env.step(actions)
        for game, action in zip(games, actions, strict=True):
            game.step(action)
    assert compared > 30


def test_the_action_features_read_the_credit_against_the_own_score() -> None:
    obs = np.zeros((2, obs_module.OBSERVATION_SIZE), np.float32)
    credits = obs_module.OBSERVATION_SLICES["credits"].start
    scores = obs_module.OBSERVATION_SLICES["scores"].start
    a, b = 40, 41  # two placements
    obs[:, credits + a] = 10 / TARGET_RAW
    obs[:, credits + b] = 25 / TARGET_RAW
    obs[0, scores] = 280 / TARGET_RAW  # 280 + 25 = 305: exactly 61 (R30)
    obs[1, scores] = 290 / TARGET_RAW  # 290 + 25 passes 61: rejected (R4)
    phi = action_features(obs)
    assert phi.shape == (2, len(BASE_FEATURES), obs_module.ACTION_COUNT)
    credit, exact, rejected, pips = (phi[:, k] for k in range(4))
    assert credit[0, b] == pytest.approx(0.5) and credit[0, a] == pytest.approx(0.2)
    assert exact[0, b] == 1 and exact[0, a] == 0 and exact[1, b] == 0
    assert rejected[1, b] == 1 and rejected[1, a] == 0 and rejected[0].sum() == 0
    action = obs_module.ACTIONS[a]
    assert isinstance(action, Play)
    assert pips[0, a] == pytest.approx(action.tile.pips / 12) == ACTION_PIPS[a]
    assert pips[0, obs_module.DRAW_ACTION] == 0


def test_masked_logits_never_pick_an_illegal_action() -> None:
    policy = policy_from_arrays(policy_arrays(scale=3.0))
    obs = np.random.default_rng(1).random((5, obs_module.OBSERVATION_SIZE), np.float32)
    mask = np.zeros((5, obs_module.ACTION_COUNT), np.int8)
    mask[:, [7, 300]] = 1
    logits = forward(policy, obs, mask)
    assert np.isneginf(logits[mask == 0]).all()
    assert set(logits.argmax(axis=1).tolist()) <= {7, 300}


def positions(seeds: range, players: int = 2) -> Iterator[tuple[SeatView, list[Action]]]:
    """(view, legal) at every choice of greedy-played matches."""
    for seed in seeds:
        match = Match(players)
        chance = random.Random(seed)
        greedy = GreedyBot(random.Random(seed))
        while not match.is_over and len(match.rounds) < 100:
            if match.phase is not Phase.PLAY:
                match.deal_next_round(chance)
                continue
            seat = match.to_act
            assert seat is not None
            view, legal = match.view(seat), match.legal_actions()
            if len(legal) > 1:
                yield view, legal
            match.apply(greedy.choose(view))


def test_a_policy_valuing_only_the_credit_plays_greedys_credit() -> None:
    """The features reach the choice as the format says: credit up, passing 61 down, exactly
    61 first; such a policy takes the credit greedy takes in every position of a few matches."""
    policy = policy_from_arrays(policy_arrays(feature_bias=(10.0, 100.0, -100.0, 0.01), scale=0.0))
    learned = LearnedBot(random.Random(0), policy)
    greedy = GreedyBot(random.Random(0))
    for view, _ in positions(range(3)):
        mine, theirs = learned.choose(view), greedy.choose(view)
        score = view.scores[view.side]
        worth = [0, 0]
        for k, action in enumerate((mine, theirs)):
            if isinstance(action, Play):
                credit = view.layout.credit_after(action.tile, action.at)
                worth[k] = credit if score + credit <= TARGET_RAW else 0
        assert worth[0] == worth[1]


def test_the_threat_is_the_next_seats_expected_reply_after_each_placement() -> None:
    """R15: for each placement, what the next seat can expect to score on the layout it
    leaves, from the tiles this seat cannot see; nothing for a draw, a pass or an illegal
    action, nor when the placement would end the round (R17)."""
    checked = 0
    for view, legal in positions(range(4), players=3):
        threat = reply_threats(view, legal)
        ids = [obs_module.ACTION_INDEX[a] for a in legal]
        assert not threat[np.setdiff1d(np.arange(obs_module.ACTION_COUNT), ids)].any()
        for action, i in zip(legal, ids, strict=True):
            if not isinstance(action, Play) or len(view.hand) == 1:
                assert threat[i] == 0
            else:
                layout = view.layout.copy()
                layout.place(action.tile, action.at)
                nxt = view.hand_sizes[(view.seat + 1) % view.players]
                want = expected_reply(layout, unseen_by(view), nxt) / CREDIT_SCALE
                assert threat[i] == pytest.approx(want, abs=1e-6)
                checked += 1
    assert checked > 100 and threat.dtype == np.float32


def test_a_policy_reading_the_threat_weighs_the_reply_against_the_credit() -> None:
    """A policy whose only weights are +credit and -threat (and exactly 61 first, passing 61
    last) plays the placement with the best credit less the next seat's expected reply."""
    bias = (10.0, 100.0, -100.0, 0.0, -10.0)
    policy = policy_from_arrays(policy_arrays(feature_bias=bias, scale=0.0))
    assert policy.reads_threat and not policy_from_arrays(policy_arrays()).reads_threat
    learned = LearnedBot(random.Random(0), policy)
    differs = 0
    for view, legal in positions(range(3)):
        choice = learned.choose(view)
        threat = reply_threats(view, legal)
        score = view.scores[view.side]
        worth = {}
        for action in legal:
            worth[action] = 0.0
            if isinstance(action, Play):
                credit = view.layout.credit_after(action.tile, action.at)
                reply = float(threat[obs_module.ACTION_INDEX[action]]) * CREDIT_SCALE
                worth[action] = (
                    1000.0
                    if score + credit == TARGET_RAW
                    else -1000.0
                    if score + credit > TARGET_RAW
                    else credit - reply
                )
        assert worth[choice] == pytest.approx(max(worth.values()), abs=1e-3)
        differs += choice != GreedyBot(random.Random(0)).choose(view)
    assert differs > 0  # the threat changes choices greedy would make


def test_the_threat_is_given_exactly_to_the_policies_that_read_it() -> None:
    obs = np.zeros((1, obs_module.OBSERVATION_SIZE), np.float32)
    threat = np.zeros((1, obs_module.ACTION_COUNT), np.float32)
    reads = policy_from_arrays(policy_arrays(feature_bias=(0.0,) * 5))
    base = policy_from_arrays(policy_arrays())
    with pytest.raises(ValueError, match="needs the threat"):
        forward(reads, obs)
    with pytest.raises(ValueError, match="does not read the threat"):
        forward(base, obs, threat=threat)
    assert forward(reads, obs, threat=threat).shape == (1, obs_module.ACTION_COUNT)
    assert action_features(obs, threat).shape == (1, len(FEATURES), obs_module.ACTION_COUNT)


# ---- the command line -----------------------------------------------------------------------


@pytest.mark.slow
def test_the_command_line_names_a_bad_policy_file_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.npz"
    result = exact61("tournament", "--bots", f"learned:{missing},greedy", "--matches", "2")
    assert result.returncode == 2 and "No such file or directory" in result.stderr
    assert f"bad bot 'learned:{missing}'" in result.stderr
    no_traceback(result)
    three = write(tmp_path / "three.npz", policy_arrays(players=3))
    for args in (
        ("tournament", "--bots", f"learned:{three},greedy", "--matches", "2"),
        ("simulate", "--bot", f"learned:{three}", "--matches", "1", "--out", tmp_path / "m"),
        ("play", "--plain", "--seats", f"human,learned:{three}"),
    ):
        result = exact61(*args)
        assert result.returncode == 2, result.stderr
        assert "a policy for 3 players, not 2 (--players)" in result.stderr
        no_traceback(result)


@pytest.mark.slow
def test_a_tournament_plays_a_learned_policy(tmp_path: Path, policy_file: Path) -> None:
    spec = f"learned:{policy_file.name}"  # relative to the folder it runs in
    result = exact61(
        "tournament",
        "--bots",
        f"{spec},random",
        "--matches",
        "4",
        "--workers",
        "1",
        "--out",
        tmp_path / "t.jsonl",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert spec in result.stdout
    assert exact61("replay", tmp_path / "t.jsonl").returncode == 0


# ---- the shipped policy ---------------------------------------------------------------------


@pytest.mark.skipif(not SHIPPED.exists(), reason="no policy shipped in examples/")
def test_the_shipped_policy_plays_legal_moves_and_beats_random() -> None:
    policy = load_policy(SHIPPED)
    assert policy.players == 2 and policy.header["format"] == "exact61-policy"
    wins = 0
    for seed in range(6):
        bots: list[Any] = [
            LearnedBot(random.Random(seed), policy),
            make_bot("random", random.Random(seed)),
        ]
        if seed % 2:
            bots.reverse()
        match = play_match(bots, 100 + seed)
        assert match.winner is not None
        wins += match.winner == seed % 2
    assert wins >= 5  # greedy itself beats random 9 times in 10
