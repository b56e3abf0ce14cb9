"""`learned:FILE`: a bot playing a policy learned from the observation, with numpy alone.

A policy file is a plain `.npz` (no pickles): a JSON header and the weights of a small network
that reads the observation of `exact61.bots.observation` (the one `Exact61-v0` gives) and
scores every one of the 450 actions. `examples/train_ppo_agent.py` trains one (PyTorch, the
`examples` extra); playing it needs numpy only. The bot encodes its seat's view exactly as the
environments do and plays the legal action with the highest score (illegal actions' scores are
minus infinity, as in training).

The network, format `exact61-policy` version 1 (`forward` is the reference):

    h = obs;  h = act(W_k h + b_k)  for each hidden layer k      (act: relu or tanh)
    logits = W_pi h + b_pi  +  sum over f of  phi_f * (W_f h + b_f)

where `phi` (`action_features`) holds, per action, what its credit means from the own score
(the credit, landing exactly on 61, being rejected for passing it, R4 and R30) and the pips of
its tile (R19-R21): features a network would otherwise have to learn 450 times over. A file
may add a fifth, `threat`: the credit the next seat can expect to take after the placement
(`heuristic.expected_reply`, from the tiles the seat cannot see), which the observation
cannot give without playing the move, so it is worked out from the seat's view by the rules
(`reply_threats`). The file's header lists the features it reads.
"""

from __future__ import annotations

import json
import os
import random
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from exact61.bots.heuristic import expected_reply, unseen_by
from exact61.bots.observation import (
    ACTION_COUNT,
    ACTION_INDEX,
    ACTIONS,
    OBSERVATION_SIZE,
    OBSERVATION_SLICES,
    observe,
)
from exact61.core import TARGET_RAW, Action, Play, SeatView
from exact61.core.settlement import accepts, lands

FORMAT = "exact61-policy"
VERSION = 1
ACTIVATIONS = ("relu", "tanh")
# Per action, in this order (`action_features`); a file reads the first four or all five.
FEATURES = ("credit", "exact", "rejected", "pips", "threat")
BASE_FEATURES = FEATURES[:4]
CREDIT_SCALE = 50.0  # a credit of 50 raw (10 display points) is 1.0
PIPS_SCALE = 12.0  # the heaviest tile, [6|6]

_CREDITS = OBSERVATION_SLICES["credits"]
_OWN_SCORE = OBSERVATION_SLICES["scores"].start  # the observer's side comes first
# Each action's tile pips / 12 (0 for draw and pass), fixed by the action space.
ACTION_PIPS = np.array(
    [a.tile.pips / PIPS_SCALE if isinstance(a, Play) else 0.0 for a in ACTIONS], np.float32
)

FloatArray = npt.NDArray[np.float32]


class PolicyError(ValueError):
    """A policy file that cannot be played: missing, unreadable, not a policy, or for another
    game than asked. The message is one line, naming the file."""


@dataclass(frozen=True)
class Policy:
    """A loaded policy: its header and weights (float32), checked against each other."""

    header: dict[str, Any]
    hidden: tuple[tuple[FloatArray, FloatArray], ...]  # (weight, bias) of each hidden layer
    policy: tuple[FloatArray, FloatArray]
    features: tuple[FloatArray, FloatArray]
    activation: str

    @property
    def players(self) -> int:
        return int(self.header["players"])

    @property
    def reads_threat(self) -> bool:
        """Whether the policy reads the `threat` feature (then `forward` needs `threat`)."""
        return bool(self.header["features"] == list(FEATURES))

    def logits(
        self,
        obs: FloatArray,
        mask: npt.NDArray[Any] | None = None,
        threat: FloatArray | None = None,
    ) -> FloatArray:
        """Each action's score for observations `obs` (one, or a batch of rows); with `mask`
        (nonzero where legal), illegal actions score minus infinity."""
        return forward(self, obs, mask, threat)


def reply_threats(view: SeatView, legal: Sequence[Action]) -> FloatArray:
    """The `threat` feature of each action (450 numbers): for a legal placement that does not
    empty the hand, the credit the next seat can expect to take after it, / CREDIT_SCALE; 0 for
    every other action (a placement that ends the round leaves no reply, R17)."""
    out = np.zeros(ACTION_COUNT, np.float32)
    plays = [a for a in legal if isinstance(a, Play)]
    if len(view.hand) <= 1 or len(plays) <= 1:
        return out  # one placement or none: nothing to weigh it against
    unseen = unseen_by(view)
    hand = view.hand_sizes[(view.seat + 1) % view.players]
    for play in plays:
        layout = view.layout.copy()
        layout.place(play.tile, play.at)
        out[ACTION_INDEX[play]] = expected_reply(layout, unseen, hand) / CREDIT_SCALE
    return out


def action_features(obs: FloatArray, threat: FloatArray | None = None) -> FloatArray:
    """`phi` for observations `obs` (... x 751): ... x 4 x 450 in `FEATURES` order, or with
    `threat` (... x 450, `reply_threats`) ... x 5 x 450."""
    credits = np.rint(obs[..., _CREDITS] * TARGET_RAW)
    own = np.rint(obs[..., _OWN_SCORE] * TARGET_RAW)[..., None]
    scored = credits > 0
    pips = np.broadcast_to(ACTION_PIPS, credits.shape)
    rows = [
        credits / CREDIT_SCALE,
        scored & lands(own, credits),  # R30: wins the match
        scored & ~accepts(own, credits),  # R4: rejected whole
        pips,
    ]
    if threat is not None:
        rows.append(np.broadcast_to(threat, credits.shape))
    return np.stack(rows, axis=-2).astype(np.float32)


def policy_header(
    hidden: Sequence[int],
    players: int,
    activation: str = "relu",
    features: Sequence[str] = FEATURES,
    **extra: Any,
) -> dict[str, Any]:
    """The header of a format-1 policy file with these layers and action features (`FEATURES`
    or `BASE_FEATURES`; `extra`: anything JSON-able about its training, kept alongside)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "observation_size": OBSERVATION_SIZE,
        "action_count": ACTION_COUNT,
        "hidden": list(hidden),
        "activation": activation,
        "features": list(features),
        "players": players,
        **extra,
    }


def forward(
    policy: Policy,
    obs: FloatArray,
    mask: npt.NDArray[Any] | None = None,
    threat: FloatArray | None = None,
) -> FloatArray:
    """The reference forward pass of format 1 (see the module); `threat` (`reply_threats`,
    one row per observation) is needed exactly when the policy reads it."""
    if policy.reads_threat != (threat is not None):
        need = "needs" if policy.reads_threat else "does not read"
        raise ValueError(f"this policy {need} the threat feature")
    h = np.asarray(obs, np.float32)
    phi = action_features(h, threat)
    for weight, bias in policy.hidden:
        h = h @ weight.T + bias
        h = np.maximum(h, 0.0) if policy.activation == "relu" else np.tanh(h)
    logits = h @ policy.policy[0].T + policy.policy[1]
    per_feature = h @ policy.features[0].T + policy.features[1]  # ... x 4
    logits = logits + np.einsum("...f,...fa->...a", per_feature, phi)
    if mask is not None:
        logits = np.where(np.asarray(mask) != 0, logits, -np.inf)
    return logits.astype(np.float32)


def _fail(path: Path, why: str) -> PolicyError:
    return PolicyError(f"{path}: {why}")


def load_policy(path: str | os.PathLike[str]) -> Policy:
    """The policy in `path`, read once per version of the file (PolicyError, one line, for a
    file that is missing, unreadable or not a policy of this format)."""
    file = Path(path)
    try:
        stat = file.stat()
    except OSError as err:
        raise _fail(file, err.strerror or str(err)) from None
    return _load(str(file.resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _load(path: str, _mtime: int, _size: int) -> Policy:
    file = Path(path)
    try:
        with np.load(file, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
        why = err.strerror if isinstance(err, OSError) and err.strerror else "not a policy file"
        raise _fail(file, f"{why} (an .npz from examples/train_ppo_agent.py)") from None
    return policy_from_arrays(arrays, file)


def policy_from_arrays(arrays: dict[str, Any], file: Path | str = "policy") -> Policy:
    """A policy from its arrays (as saved: `header` a JSON string, then the weights);
    PolicyError names what does not fit."""
    file = Path(file)
    try:
        header = json.loads(str(arrays["header"]))
    except (KeyError, ValueError):
        raise _fail(file, "not a policy file: no readable header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _fail(file, f"not a policy file: its format is not {FORMAT!r}")
    if header.get("version") != VERSION:
        raise _fail(
            file, f"policy format version {header.get('version')!r}; this exact61 reads {VERSION}"
        )
    if header.get("observation_size") != OBSERVATION_SIZE:
        raise _fail(
            file,
            f"made for observations of {header.get('observation_size')!r} numbers, "
            f"not {OBSERVATION_SIZE}",
        )
    if header.get("action_count") != ACTION_COUNT:
        raise _fail(file, f"made for {header.get('action_count')!r} actions, not {ACTION_COUNT}")
    if header.get("features") not in (list(BASE_FEATURES), list(FEATURES)):
        raise _fail(file, f"its action features are {header.get('features')!r}")
    if header.get("players") not in (2, 3, 4):
        raise _fail(file, f"made for {header.get('players')!r} players")
    activation = header.get("activation")
    if activation not in ACTIVATIONS:
        raise _fail(file, f"unknown activation {activation!r}")
    sizes = header.get("hidden")
    if not isinstance(sizes, list) or not all(isinstance(n, int) and n > 0 for n in sizes):
        raise _fail(file, f"bad hidden layer sizes {sizes!r}")

    def weights(name: str, shape: tuple[int, ...]) -> FloatArray:
        array = arrays.get(name)
        if array is None:
            raise _fail(file, f"no {name} in the file")
        if array.shape != shape or not np.issubdtype(array.dtype, np.floating):
            raise _fail(file, f"{name} has shape {array.shape}, not {shape}")
        if not np.all(np.isfinite(array)):
            raise _fail(file, f"{name} holds a number that is not finite")
        return np.asarray(array, np.float32)

    hidden = []
    width = OBSERVATION_SIZE
    for k, n in enumerate(sizes):
        layer = (weights(f"hidden.{k}.weight", (n, width)), weights(f"hidden.{k}.bias", (n,)))
        hidden.append(layer)
        width = n
    f = len(header["features"])
    return Policy(
        header=header,
        hidden=tuple(hidden),
        policy=(
            weights("policy.weight", (ACTION_COUNT, width)),
            weights("policy.bias", (ACTION_COUNT,)),
        ),
        features=(weights("features.weight", (f, width)), weights("features.bias", (f,))),
        activation=activation,
    )


class LearnedBot:
    """Plays the legal action the policy scores highest (deterministic; `rng` breaks no ties,
    and is taken only as every bot takes one)."""

    name = "learned"

    def __init__(self, rng: random.Random, policy: Policy) -> None:
        self._rng = rng
        self.policy = policy
        self._obs = np.zeros(OBSERVATION_SIZE, np.float32)

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if view.players != self.policy.players:
            raise PolicyError(
                f"a policy for {self.policy.players} players cannot play {view.players}"
            )
        ids = [ACTION_INDEX[a] for a in legal]
        threat = reply_threats(view, legal) if self.policy.reads_threat else None
        logits = forward(self.policy, self.observation(view), threat=threat)
        return legal[int(np.argmax(logits[ids]))]

    def observation(self, view: SeatView) -> FloatArray:
        """What the policy reads: the seat's observation, as `Exact61-v0` gives it."""
        return observe(view, out=self._obs)
