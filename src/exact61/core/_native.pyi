"""The native core (`native/`, Rust): the engine of `exact61.core.engine`, the same functions
on positions of its own, which read as the Python engine's lists (`engine.POSITION_FIELDS`).
Built where a Rust toolchain was at install time; `exact61.core.engines` chooses between the two.
"""

from collections.abc import Iterator, Sequence
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from exact61.core.settlement import Event

ENGINE: Final[str]

class Position:
    """A round as the native engine plays it: `position[i]` is its item
    `engine.POSITION_FIELDS[i]`; a match's has a book (`[13]`) whose logs grow as it plays."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...

class Book:
    """A match position's book: each hand's tiles as they came, and the round's logs."""

    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def steps(self) -> list[int]: ...
    @property
    def public(self) -> list[int]: ...
    @property
    def draws(self) -> list[list[int]]: ...
    @property
    def events(self) -> list[Event]: ...

def start(
    hands: Sequence[Sequence[int]],
    boneyard: Sequence[int],
    opener: int,
    scores: Sequence[int],
    *,
    book: bool = True,
) -> Position: ...
def resume(
    hands: Sequence[Sequence[int]],
    placements: Sequence[int],
    boneyard: Sequence[int],
    to_act: int,
    opener: int,
    scores: Sequence[int],
    pending: int = -1,
    *,
    book: bool = True,
) -> Position: ...
def redeal(
    position: Position, hands: Sequence[Sequence[int]], boneyard: Sequence[int]
) -> Position: ...
def copy(position: Position) -> Position: ...
def clone(position: Position) -> Position: ...
def legal_moves(position: Position) -> list[int]: ...
def distinct_moves(position: Position) -> list[int]: ...
def playable(position: Position) -> int: ...
def credit_of(position: Position, move: int) -> int: ...
def play(position: Position, move: int) -> tuple[Event, ...]: ...
def arrange_draw(position: Position, tile: int) -> None: ...
def hand_of(position: Position, seat: int) -> int: ...
def hand_pips(position: Position) -> tuple[int, ...]: ...
def won_by(position: Position) -> int | None: ...
def search_key(position: Position) -> tuple[object, ...]: ...

NATIVE_BOTS: list[str]

def play_match(
    players: int,
    seed_bytes: bytes,
    seed_text: str,
    bots: Sequence[str],
    head: str,
    *,
    timed: bool = False,
) -> tuple[
    str,
    tuple[int | None, int, int, int, int, int, int],
    list[int],
    list[float],
    int,
]: ...

class _Seen(Protocol):
    players: int
    seat: int
    own: tuple[int, ...]
    placements: tuple[int, ...]
    to_act: int
    opener: int
    scores: tuple[int, ...]
    pending: int
    pool: tuple[int, ...]
    order: tuple[tuple[int, int], ...]

def ismcts_search(
    seen: _Seen,
    rng_state: list[int],
    iterations: int,
    seconds: float | None,
    exploration: float,
    epsilon: float,
) -> tuple[list[tuple[int, int]], int, list[int]]: ...

class EquityTable:
    """The match equity table in the native core (`exact61.search.equity.EquityTable`'s
    numbers, looked up as it does)."""

    def __init__(
        self,
        w2: list[list[float]],
        w4: list[list[float]],
        w3: list[int],
        low: dict[int, int],
    ) -> None: ...
    def win_probabilities(
        self, players: int, scores: Sequence[int], opener: int | None
    ) -> list[float]: ...

def solve(
    position: Any,
    table: EquityTable,
    node_limit: int | None = None,
    *,
    every_move: bool = True,
) -> tuple[list[tuple[int, tuple[float, ...]]], int] | None: ...

class SearchTree:
    """A native search's tree, kept in the native core until asked for."""

    def rows(self) -> list[tuple[int, int, float, list[tuple[int, int]]]]: ...
    def root(self) -> list[tuple[int, int, int, float]]: ...

def solve_goal(
    position: Any,
    seat: int,
    values: list[float],
    node_limit: int | None = None,
    most: int | None = None,
    *,
    every_move: bool = True,
) -> tuple[list[tuple[int, tuple[float, ...]]], int] | None: ...
def expert_evaluate(
    seen: _Seen,
    choices: list[tuple[int, float, list[float]]],
    classes: list[int],
    table: EquityTable,
    settings: Any,
    rng_state: list[int],
) -> tuple[SearchTree, npt.NDArray[np.float64], int, list[int]]: ...
def evaluate_moves(
    seen: _Seen,
    hidden: list[int] | None,
    classes: list[int],
    tiles_left: int,
    table: EquityTable,
    settings: Any,
    rng_state: list[int],
) -> tuple[npt.NDArray[np.float64], int, int, list[int]]: ...
def random_playouts(players: int, matches: int, seed: int) -> tuple[int, list[int]]: ...

class VectorGames:
    """`num_envs` games of `Exact61-v0` against the simple bots (`NATIVE_BOTS`, the other seats'
    in seat order), stepped together natively, one call a `reset` and one a `step`, the GIL
    released: `exact61.research.vector.Exact61VectorEnv`'s games where every opponent plays
    natively. The observation's layout and the action space are Python's, handed over
    (`encoding.OBSERVATION_SLICES` as `blocks`, `OBSERVATION_SIZE`, `MAX_PASSES`, and the engine
    move of each of `encoding.ACTIONS`); ValueError for settings that cannot be.

    What the games show lives in the arrays below, written in place by every call."""

    def __init__(
        self,
        num_envs: int,
        players: int,
        seat: int,
        opponents: Sequence[str],
        *,
        one_round: bool,
        max_rounds: int,
        skip_forced: bool,
        autoreset_mode: str,
        blocks: Sequence[tuple[str, int, int]],
        observation_size: int,
        max_passes: float,
        action_moves: Sequence[int],
    ) -> None: ...
    def reset(self, chosen: npt.NDArray[np.bool_], seeds: npt.NDArray[np.uint64]) -> None:
        """Start the games of `chosen`, game i from match seed `seeds[i]`, each played to the
        agent's first decision."""
    def step(
        self, actions: npt.NDArray[np.int64], seeds: npt.NDArray[np.uint64]
    ) -> tuple[int, int]:
        """Every game's step (an action, an autoreset, or both); a game that starts takes
        `seeds[i]` and is marked in `reseeded`. Returns how many actions were illegal and how
        many episodes ended and were reset (same-step autoreset). RuntimeError when a game's
        episode is over, ValueError for an action outside the space: nothing is played then."""
    @property
    def num_envs(self) -> int: ...
    @property
    def observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def masks(self) -> npt.NDArray[np.int8]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float64]: ...
    @property
    def terminations(self) -> npt.NDArray[np.bool_]: ...
    @property
    def truncations(self) -> npt.NDArray[np.bool_]: ...
    @property
    def illegal(self) -> npt.NDArray[np.bool_]: ...
    @property
    def autoreset(self) -> npt.NDArray[np.bool_]: ...
    @property
    def reseeded(self) -> npt.NDArray[np.bool_]: ...
    @property
    def scores(self) -> npt.NDArray[np.int64]: ...
    @property
    def rounds(self) -> npt.NDArray[np.int64]: ...
    @property
    def ended(self) -> npt.NDArray[np.bool_]: ...
    @property
    def final_observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def final_scores(self) -> npt.NDArray[np.int64]: ...
    @property
    def final_rounds(self) -> npt.NDArray[np.int64]: ...
