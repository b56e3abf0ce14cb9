"""`python_exact61`: OpenSpiel's own game checks, the same deals as the core, information
states, resampling, serialisation, and OpenSpiel's search bots playing whole matches."""

from __future__ import annotations

import io
import random
import subprocess
import sys
import unittest
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
eo = pytest.importorskip("exact61.research.openspiel")
ob = pytest.importorskip("exact61.research.openspiel_bots")
from open_spiel.python.algorithms import generate_playthrough  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from exact61.core import (  # noqa: E402
    ALL_TILES,
    DRAW,
    Deal,
    Match,
    Phase,
    Play,
    dumps,
    match_to_record,
    replay,
)
from exact61.research import encoding  # noqa: E402
from tests.helpers import played_match  # noqa: E402

CHANCE = pyspiel.PlayerId.CHANCE


def load(players: int, **params: object) -> object:
    return pyspiel.load_game(eo.GAME_NAME, {"players": players, **params})


def random_state(game: object, rng: random.Random, steps: int) -> object:
    """The state after `steps` random actions (chance by its probabilities)."""
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state = random_state_step(state, rng)
    return state


def test_registered_with_its_parameters() -> None:
    game = pyspiel.load_game("python_exact61(players=4,one_round=True)")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == encoding.ACTION_COUNT
    assert game.max_chance_outcomes() == 28
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert load(3).num_players() == 3
    assert game.observation_tensor_size() == encoding.OBSERVATION_SIZE
    with pytest.raises(ValueError, match="R2"):
        load(5)
    # The same checks, in the same words, as the Gymnasium and PettingZoo environments.
    with pytest.raises(ValueError, match="max_rounds must be a whole number of at least 1, not 0"):
        pyspiel.load_game("python_exact61", {"max_rounds": 0})


def test_the_game_made_directly_checks_its_parameters_as_load_game_does() -> None:
    """`eo.Exact61Game({"one_round": "False"})` (as the bots' module shows the game made) was a
    single round, bool("False") being True, and {"player": 3} was a 2-player game, the typo
    unnoticed; pyspiel.load_game refuses both. one_round is checked as the environments check it,
    and a parameter the game does not have is named."""
    for wrong in ("False", 1, None):
        with pytest.raises(ValueError, match=r"^one_round must be True or False, not "):
            eo.Exact61Game({"one_round": wrong})
    said = r"^python_exact61 has no parameter 'player': it has max_rounds, one_round, players$"
    with pytest.raises(ValueError, match=said):
        eo.Exact61Game({"player": 3})
    assert eo.Exact61Game({"one_round": np.bool_(True)}).one_round is True
    assert eo.Exact61Game().get_parameters() == load(2).get_parameters()


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("beyond", [False, True])
def test_more_rounds_than_openspiel_counts_are_refused_naming_max_rounds(
    players: int, beyond: bool
) -> None:
    """OpenSpiel counts a game's actions (and a tensor's numbers) in a C int: a `max_rounds`
    past it was refused as pybind11's "Unable to cast Python instance of type <class 'int'> to
    C++ type '?'" or GameInfo's "incompatible constructor arguments", naming no setting. The
    most it holds is said, and the most is taken (past a C int, OpenSpiel's own parameters
    refuse it before the game sees it)."""
    most = eo.most_rounds(players)
    max_rounds = 2**31 - 1 if beyond else most + 1
    with pytest.raises(ValueError, match=rf"^max_rounds must be at most {most:,} at {players} "):
        load(players, max_rounds=max_rounds)
    assert load(players, max_rounds=most).max_game_length() <= 2**31 - 1
    assert load(players, max_rounds=max_rounds, one_round=True).max_game_length() > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_with_serialisation(players: int) -> None:
    # OpenSpiel's own checks: legal actions sorted and distinct, chance probabilities summing
    # to 1, clones and serialised states printing the same, observation and information
    # tensors of the declared sizes, returns zero-sum within the utility bounds, game length.
    pyspiel.random_sim_test(load(players), num_sims=3, serialize=True, verbose=False)
    pyspiel.random_sim_test(
        load(players, one_round=True), num_sims=5, serialize=True, verbose=False
    )


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_same_deals_through_openspiel_and_the_core_give_the_same_events(
    players: int, seed: int
) -> None:
    core = played_match(players, seed, ["greedy"] * players)  # deals whole, from a seed
    state = load(players).new_initial_state()
    required = None
    for r, log in enumerate(core.rounds):
        assert log.deal is not None
        # R6/R8: a lot only when no domino maker must open; uniform over the seats.
        if required is None:
            assert state.current_player() == CHANCE
            assert state.chance_outcomes() == [(s, 1 / players) for s in range(players)]
            state.apply_action(log.opener)
        # R5: the deal, one tile at a time, uniform over the tiles not yet dealt.
        dealt = 0
        for hand in log.deal.hands:
            for tile in hand:
                outcomes = state.chance_outcomes()
                assert len(outcomes) == 28 - dealt and outcomes[0][1] == pytest.approx(
                    1 / len(outcomes)
                )
                state.apply_action(tile.ordinal)
                dealt += 1
        reference = Match(players, scores=_scores_before(core, r))
        reference.start_round(Deal(log.deal.hands, log.deal.boneyard), log.opener)
        for step in log.steps:
            assert state.current_player() == step.seat
            assert state.legal_actions() == encoding.legal_ids(reference.legal_actions())
            state.apply_action(encoding.action_id(step.action))
            if step.action is DRAW:  # R10: chance draws from the face-down boneyard
                assert step.drawn is not None
                left = len(reference.rounds[-1].deal.boneyard) - _draws(reference)
                assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / left] * left)
                state.apply_action(step.drawn.ordinal)
            reference.apply(step.action)
            played = eo.core_match(state).rounds[r]
            assert played.events == reference.rounds[-1].events
            assert played.steps == reference.rounds[-1].steps
        played = eo.core_match(state).rounds[r]
        assert played.end == log.end and played.events == log.events
        required = _domino_seat(log)  # R8: the domino maker opens the next round
    assert state.is_terminal()
    assert eo.core_match(state).scores == core.scores
    assert state.returns() == encoding.match_returns(core)
    assert state.returns()[core.winner] == 1.0  # seat 0 or 1 is on side 0 or 1 (R2)
    record, original = eo.to_record(state), match_to_record(core)
    for mine, theirs in zip(record["rounds"], original["rounds"], strict=True):
        assert {k: mine[k] for k in ("opener", "hands", "actions", "events", "end")} == {
            k: theirs[k] for k in ("opener", "hands", "actions", "events", "end")
        }


def _scores_before(match: Match, r: int) -> list[int]:
    scores = [0] * len(match.scores)
    for log in match.rounds[:r]:
        for event in log.events:
            if event.accepted:
                scores[event.side] += event.raw
    return scores


def _draws(match: Match) -> int:
    return sum(1 for s in match.rounds[-1].steps if s.action is DRAW)


def _domino_seat(log: object) -> int | None:
    end = log.end  # type: ignore[attr-defined]
    return end.seat if end.kind == "domino" else None


def _hidden(state: object, seat: int) -> set[object]:
    match = eo.core_match(state)
    seen = set(match.hand(seat)) | set(match.layout.tiles)
    return set(ALL_TILES) - seen


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_resampled_states_look_the_same_to_the_seat_and_replay(players: int) -> None:
    """OpenSpiel's ResampleInfostateTest, in Python (pyspiel does not export it), plus: the
    resampled state's own history rebuilds it, and its record verifies."""
    game = load(players)
    rng = random.Random(players)
    changed = 0
    for _ in range(4):
        state = game.new_initial_state()
        for _ in range(rng.randrange(40, 300)):
            if state.is_terminal():
                break
            if not state.is_chance_node() and rng.random() < 0.3:
                for p in range(players):
                    other = state.resample_from_infostate(p, rng.random)
                    assert other.current_player() == state.current_player()
                    assert other.information_state_string(p) == state.information_state_string(p)
                    assert other.information_state_tensor(p) == state.information_state_tensor(p)
                    assert other.observation_string(p) == state.observation_string(p)
                    assert other.observation_tensor(p) == state.observation_tensor(p)
                    assert list(other.history()) == other.episode.actions
                    replay(dumps(eo.to_record(other)))
                    changed += str(other) != str(state)
            state = random_state_step(state, rng)
    assert changed > 20  # hidden hands really are resampled


def random_state_step(state: object, rng: random.Random) -> object:
    """The state after one random action (chance by its probabilities)."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


def decode_rounds(rows: object, players: int) -> list[tuple[object, ...]]:
    """The rows of an information state tensor read back: per round begun, its opener, the
    dealt tiles shown and every item, as ("play", seat, action), ("draw", seat, tile or None),
    ("pass", seat) or ("holds", seat, tile), seats relative to the observer."""
    out = []
    for row in np.asarray(rows):
        if not row.any():
            continue
        opener = round(row[0] * encoding.MAX_PLAYERS) - 1
        dealt = [ALL_TILES[round(x * 28) - 1] for x in row[1 : encoding.ROUND_HEAD] if x]
        items: list[tuple[object, ...]] = []
        for x in row[encoding.ROUND_HEAD :]:
            if not x:
                continue
            code = round(float(x) * encoding.ITEM_CODES) - 1
            seat, k = code % encoding.MAX_PLAYERS, code // encoding.MAX_PLAYERS
            if k == encoding.DRAW_ACTION:
                items.append(("draw", seat, None))
            elif k == encoding.PASS_ACTION:
                items.append(("pass", seat))
            elif k < encoding.ACTION_COUNT:
                items.append(("play", seat, encoding.ACTIONS[k]))
            elif k < encoding.ACTION_COUNT + 28:
                items.append(("draw", seat, ALL_TILES[k - encoding.ACTION_COUNT]))
            else:
                items.append(("holds", seat, ALL_TILES[k - encoding.ACTION_COUNT - 28]))
        out.append((None if opener < 0 else opener, dealt, items))
    return out


def seen_rounds(match: Match, seat: int | None) -> list[tuple[object, ...]]:
    """Every round of `match` as `seat` saw it (None: as everyone did), as `decode_rounds`."""
    out = []
    players = match.players
    origin = 0 if seat is None else seat
    for log in match.rounds:
        assert log.deal is not None
        items: list[tuple[object, ...]] = []
        for step in log.steps:
            rel = (step.seat - origin) % players
            if step.action is DRAW:
                items.append(("draw", rel, step.drawn if step.seat == seat else None))
            elif isinstance(step.action, Play):
                items.append(("play", rel, step.action))
            else:
                items.append(("pass", rel))
        if log.end is not None and log.end.hands is not None:  # R18, R20: hands revealed
            for s, hand in enumerate(log.end.hands):
                items += [("holds", (s - origin) % players, t) for t in sorted(hand)]
        dealt = [] if seat is None else sorted(log.deal.hands[seat])
        out.append(((log.opener - origin) % players, dealt, items))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_information_states_and_observations_hold_what_the_seat_may_know(players: int) -> None:
    game = load(players)
    rng = random.Random(20 + players)
    state = game.new_initial_state()
    checked = 0
    width = encoding.round_width(players)
    while not state.is_terminal() and checked < 400:
        if not state.is_chance_node():
            match = eo.core_match(state)
            for p in range(players):
                # The observation tensor is the shared encoding of the seat's view.
                expected = encoding.observe(match.view(p))
                assert np.array_equal(np.asarray(state.observation_tensor(p)), expected)
                hidden = _hidden(state, p)
                current = state.information_state_string(p).split(" || ")[-1]
                assert current.startswith(f"r{len(match.rounds) - 1} opener")
                assert not [t for t in hidden if str(t) in current]
                assert not [t for t in hidden if str(t) in state.observation_string(p)]
                info = np.asarray(state.information_state_tensor(p))
                assert np.array_equal(info[: encoding.OBSERVATION_SIZE], expected)
                rows = info[encoding.OBSERVATION_SIZE + 1 :].reshape(-1, width)
                # Every round so far, as the seat saw it: another seat's draw shows no tile.
                assert decode_rounds(rows, players) == seen_rounds(match, p)
                checked += 1
        state = random_state_step(state, rng)
    assert checked >= 100


@pytest.mark.slow
def test_information_state_tensor_covers_the_whole_match() -> None:
    """For each seat, equal information state strings (perfect recall) exactly when the
    tensors are equal, over every state of whole matches; earlier rounds are all in it."""
    game = load(2)
    width = encoding.round_width(2)
    assert game.information_state_tensor_size() == (
        encoding.OBSERVATION_SIZE + 1 + eo.DEFAULT_MAX_ROUNDS * width
    )
    pairs: list[set[tuple[str, bytes]]] = [set(), set()]
    rounds_seen = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            for p in range(2):
                tensor = np.asarray(state.information_state_tensor(p), np.float32)
                assert tensor.min() >= -1.0 and tensor.max() <= 1.0
                pairs[p].add((state.information_state_string(p), tensor.tobytes()))
            state = random_state_step(state, rng)
        match = eo.core_match(state)
        rounds_seen = max(rounds_seen, len(match.rounds))
        rows = np.asarray(state.information_state_tensor(1))[encoding.OBSERVATION_SIZE + 1 :]
        assert decode_rounds(rows.reshape(-1, width), 2) == seen_rounds(match, 1)
    assert rounds_seen >= 3
    for seen in pairs:
        assert len({text for text, _ in seen}) == len({tensor for _, tensor in seen}) == len(seen)


def public(perfect_recall: bool) -> object:
    return pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, private_info=pyspiel.PrivateInfoType.NONE
    )


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_public_observer_shows_no_hand(players: int) -> None:
    game = load(players)
    assert game.make_observer(public(False), {}) is not None  # the C++ API finds it too
    observers = [make_observation(game, public(recall)) for recall in (False, True)]
    assert observers[0].tensor.size == encoding.PUBLIC_OBSERVATION_SIZE
    rng = random.Random(30 + players)
    forks = 0
    state = game.new_initial_state()
    for _ in range(400):
        if state.is_terminal():
            break
        if not state.is_chance_node() and rng.random() < 0.3:
            # Worlds each seat cannot tell from this one: every hand hidden from that seat is
            # dealt anew, so between two of them every hand may differ.
            worlds = [state] + [
                state.resample_from_infostate(p, rng.random) for p in range(players)
            ]
            for observer in observers:
                seen = set()
                for world in worlds:
                    for p in range(players):
                        observer.set_from(world, p)
                        seen.add((observer.string_from(world, p), observer.tensor.tobytes()))
                assert len(seen) == 1  # the same for every seat, whatever the hands
            forks += len({str(world) for world in worlds}) > 1
        state = random_state_step(state, rng)
    assert forks > 5
    match = eo.core_match(state)
    observers[1].set_from(state, 0)
    rows = observers[1].dict["rounds"]
    assert decode_rounds(rows, players) == seen_rounds(match, None)


def dealt_state(game: object, hands: list[list[int]], opener: int = 0) -> object:
    state = game.new_initial_state()
    state.apply_action(opener)  # the lot (R6)
    for hand in hands:
        for tile in hand:
            state.apply_action(tile)
    return state


def test_public_observation_is_the_same_whoever_holds_which_hand() -> None:
    game = load(2)
    one = dealt_state(game, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])
    swapped = dealt_state(game, [[5, 6, 7, 8, 9], [0, 1, 2, 3, 4]])
    for recall in (False, True):
        observer = make_observation(game, public(recall))
        observer.set_from(one, 0)
        tensor, text = observer.tensor.copy(), observer.string_from(one, 0)
        observer.set_from(swapped, 1)
        assert np.array_equal(observer.tensor, tensor)
        assert observer.string_from(swapped, 1) == text
    assert one.observation_string(0) != swapped.observation_string(0)
    private = make_observation(
        game, pyspiel.IIGObservationType(public_info=False, perfect_recall=False)
    )
    private.set_from(one, 0)
    assert set(np.flatnonzero(private.dict["hand"])) == {0, 1, 2, 3, 4}
    assert private.string_from(one, 0) == "seat 0 | hand [0|0] [0|1] [0|2] [0|3] [0|4]"
    with pytest.raises(ValueError, match="one seat"):
        make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            ),
        )


def test_observation_does_not_depend_on_the_order_tiles_were_dealt() -> None:
    game = load(2)
    one = dealt_state(game, [[4, 0, 9, 2, 27], [5, 6, 7, 8, 10]], opener=1)
    other = dealt_state(game, [[27, 9, 4, 2, 0], [10, 8, 7, 6, 5]], opener=1)
    rng = random.Random(3)
    for _ in range(12):  # the same actions from both: same legal actions, by number
        for p in range(2):
            assert one.observation_string(p) == other.observation_string(p)
            assert one.information_state_string(p) == other.information_state_string(p)
            assert one.observation_tensor(p) == other.observation_tensor(p)
            assert one.information_state_tensor(p) == other.information_state_tensor(p)
        if one.is_chance_node():
            outcome = one.chance_outcomes()[0][0]
            one.apply_action(outcome)
            other.apply_action(outcome)
            continue
        legal = one.legal_actions()
        assert other.legal_actions() == legal
        action = legal[rng.randrange(len(legal))]
        one.apply_action(action)
        other.apply_action(action)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_api_checks_and_playthrough(players: int) -> None:
    """OpenSpiel's own checks on sampled states (its integration API test) and its playthrough
    generator, which asks for the public and private observers: on single rounds (a whole
    match's playthrough prints thousands of states)."""
    api_test = pytest.importorskip("open_spiel.integration_tests.api_test")
    name = f"{eo.GAME_NAME}(players={players},one_round=True)"
    case = type(
        "Exact61API",
        (api_test.EnforceAPIOnPartialTreeBase,),
        {"game": pyspiel.load_game(name), "game_name": eo.GAME_NAME},
    )
    result = unittest.TextTestRunner(stream=io.StringIO()).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(case)
    )
    assert result.wasSuccessful() and result.testsRun >= 5, result.failures + result.errors
    text = generate_playthrough.playthrough(name, None, seed=players)
    assert "PublicObservationString() = " in text
    assert "PrivateObservationString(0) = " in text


def test_serialised_states_continue_the_same_game() -> None:
    game = load(3)
    rng = random.Random(4)
    state = random_state(game, rng, 150)
    text = pyspiel.serialize_game_and_state(game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert str(copy) == str(state) and list(copy.history()) == list(state.history())
    for p in range(3):
        assert copy.information_state_string(p) == state.information_state_string(p)
    follow = random.Random(9)
    again = random.Random(9)
    while not state.is_terminal():
        random_state_step(state, follow)
        random_state_step(copy, again)
        assert str(copy) == str(state)
    assert copy.returns() == state.returns()


@pytest.mark.slow
def test_openspiel_search_bots_finish_matches_whose_records_verify(tmp_path: Path) -> None:
    two = load(2)
    ismcts_vs_greedy = ob.play(
        two, [ob.ismcts_bot(two, seed=1, max_simulations=4), ob.ProjectBot("greedy", 2)], seed=1
    )
    four = load(4)
    mcts_pair = [
        ob.DeterminizedMCTSBot(four, seed=3, max_simulations=4, determinizations=1)
        if seat % 2 == 0
        else ob.ProjectBot("random", seat)
        for seat in range(4)
    ]
    mcts_vs_random = ob.play(four, mcts_pair, seed=2)
    path = tmp_path / "openspiel.jsonl"
    lines = []
    for state in (ismcts_vs_greedy, mcts_vs_random):
        assert state.is_terminal()
        match = eo.core_match(state)
        assert match.is_over and match.winner is not None
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0)
        winners = [s for s in range(match.players) if returns[s] == 1.0]
        assert winners == [s for s in range(match.players) if match.side_of(s) == match.winner]
        lines.append(dumps(eo.to_record(state, seed=0)))
    path.write_text("\n".join(lines) + "\n")
    result = subprocess.run(
        [sys.executable, "-m", "exact61", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 matches verified" in result.stdout


def test_openspiel_ismcts_resamples_through_its_default_sampler() -> None:
    """Without a seeded resampler, ISMCTSBot passes pyspiel's own probability sampler."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(3)
    rng = random.Random(6)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        random_state_step(state, rng)
    random_state_np = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, random_state_np), 2.0, 3, random_state=random_state_np
    )
    assert bot.step(state) in state.legal_actions()


def test_illegal_actions_are_refused_naming_the_rule() -> None:
    game = load(2)
    state = random_state(game, random.Random(1), 0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    illegal = next(a for a in range(encoding.ACTION_COUNT) if a not in legal)
    history = list(state.history())
    with pytest.raises(Exception, match=r"R\d+"):
        state.apply_action(illegal)
    with pytest.raises(Exception, match="R9"):
        state.apply_action(-2)  # not DRAW, as Python's negative indexing would have it
    assert state.legal_actions() == legal
    assert list(state.history()) == history
    assert eo.core_match(state).phase is Phase.PLAY


def test_action_strings_of_numbers_outside_the_space_are_refused() -> None:
    """action_to_string(0, -1) had said "pass" and a chance outcome -1 the last tile (Python's
    negative indexing), 450 an IndexError: as apply_action, they are not actions."""
    game = load(2)
    state = game.new_initial_state()
    assert state.is_chance_node()  # the lot for the opener: a seat
    with pytest.raises(Exception, match="no chance outcome -1: they are 0 to 1"):
        state.action_to_string(CHANCE, -1)
    state.apply_action(0)
    assert state.is_chance_node()  # the deal: a tile
    assert state.action_to_string(CHANCE, 27) == f"deal {ALL_TILES[27]} to seat 0"
    for wrong in (-1, 28):
        with pytest.raises(Exception, match=f"no chance outcome {wrong}: they are 0 to 27"):
            state.action_to_string(CHANCE, wrong)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    assert state.action_to_string(player, encoding.PASS_ACTION) == "pass"
    for wrong in (-1, encoding.ACTION_COUNT):
        with pytest.raises(Exception, match=f"no action number {wrong}: the actions are 0 to 449"):
            state.action_to_string(player, wrong)


def play_out(state: object, rng: random.Random) -> None:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    ("params", "said"),
    [
        pytest.param({}, r"^R30: the game is over: the match is over$", id="match"),
        pytest.param(
            {"one_round": True},
            r"^R5: the game is over: its one round has been played \(one_round\)$",
            id="one-round",
        ),
        pytest.param(
            {"max_rounds": 1},
            r"^R5: the game is over: 1 round played without a winner \(max_rounds\)$",
            id="max-rounds",
        ),
    ],
)
def test_an_action_after_the_end_names_how_the_game_ended(
    params: dict[str, object], said: str
) -> None:
    """An action on a terminal state had always cited R30 (a side reached 61), also after a
    one-round game or a match stopped at max_rounds, where nobody had."""
    state = load(2, **params).new_initial_state()
    play_out(state, random.Random(3))
    assert eo.core_match(state).is_over == (not params)  # no side reaches 61 in one round
    with pytest.raises(Exception, match=said):
        state.apply_action(0)


def test_seeds_of_the_bots_play_and_records_are_whole_numbers_from_zero() -> None:
    """`play(..., seed=b"ab")`, "ab", 1.5 and -1 (the same chance as seed 1) were taken by
    random.Random, and np.int64(7) refused by it with a list of the types it takes; OpenSpiel's
    search bots said numpy's "Cannot cast scalar from dtype('S2')"; to_record wrote "ab" as a
    record's seed (which `exact61 replay` refuses) and failed in json on np.int64. Each now
    checks its seed as the environments' resets do."""
    game = load(2)

    def greedy_pair(seed: object) -> list[object]:
        return [ob.ProjectBot("greedy", seed), ob.ProjectBot("greedy", seed)]

    makers = [
        lambda seed: ob.play(game, greedy_pair(1), seed=seed),
        greedy_pair,
        lambda seed: ob.ismcts_bot(game, seed=seed, max_simulations=5),
        lambda seed: ob.DeterminizedMCTSBot(game, seed=seed, max_simulations=5),
        ob.resampler,
    ]
    for make in makers:
        for wrong in (b"ab", "ab", 1.5, True, np.float64(3)):
            with pytest.raises(TypeError, match="seed must be an int or None"):
                make(wrong)
        with pytest.raises(ValueError, match="seed must be at least 0, not -1"):
            make(-1)
        make(np.int64(7))  # a sweep's seed
    state = ob.play(game, greedy_pair(1), seed=np.int64(7))
    assert eo.to_record(state, seed=7) == eo.to_record(
        ob.play(game, greedy_pair(1), seed=7), seed=7
    )
    assert eo.to_record(state, seed=np.int64(7))["seed"] == 7
    for wrong in (b"ab", "ab", 1.5):
        with pytest.raises(TypeError, match="seed must be an int or None"):
            eo.to_record(state, seed=wrong)
