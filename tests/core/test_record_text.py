"""The fast record writer gives the very line the reference writer gives."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from exact61 import Match, dumps, match_to_record
from exact61.core.records import record_text


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    cut=st.integers(min_value=0, max_value=300),
    extra=st.dictionaries(st.sampled_from(["bots", "program", "lang", "note"]), st.text()),
)
def test_record_text_equals_dumps_of_match_to_record(
    seed: int, players: int, cut: int, extra: dict[str, str]
) -> None:
    rng = random.Random(seed)
    match = Match(players)
    actions = 0
    while not match.is_over and actions < cut:  # finished and unfinished matches alike
        match.deal_next_round(rng)
        while match.to_act is not None and actions < cut:
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
            actions += 1
    for kwargs in ({}, {"seed": seed}, {"seed": seed, "extra": extra}):
        assert record_text(match, **kwargs) == dumps(match_to_record(match, **kwargs))  # type: ignore[arg-type]


def test_a_log_names_the_same_step_whatever_equal_action_is_passed() -> None:
    """A caller's own equal `Play` (as a replay or a client builds it) logs the engine's step:
    every step of a round is one of the engine's, shared, not copied."""
    from exact61 import Play
    from exact61.core.log import STEPS

    engine_steps = {id(step) for step in STEPS if step is not None}
    rng = random.Random(11)
    match = Match(4)
    while not match.is_over:
        match.deal_next_round(rng)
        while match.to_act is not None:
            action = rng.choice(match.legal_actions())
            if isinstance(action, Play):
                action = Play(action.tile, action.at)  # equal, not the engine's object
            match.apply(action)
    steps = [step for log in match.rounds for step in log.steps]
    assert len(steps) > 100
    assert all(id(step) in engine_steps for step in steps)
