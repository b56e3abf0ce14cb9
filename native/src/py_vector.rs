//! The batched environment's games for Python (`exact61.research.vector`): `VectorGames`, N
//! games of `Exact61-v0` against the simple bots, one call a `reset` and one a `step` for all
//! of them, the GIL released while they play. Everything a step says is written into numpy
//! arrays the object made once and shares with Python (its attributes), so no Python object
//! is made per game.

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::bots::Bot;
use crate::engine::side_count;
use crate::observation::{ActionSpace, ObservationLayout};
use crate::py_playout::NATIVE_BOTS;
use crate::vector::{Autoreset, Batch, Outputs, Settings, StepError};

/// The arrays a batch writes, shared with Python.
struct Arrays {
    observations: Py<PyArray2<f32>>,
    masks: Py<PyArray2<i8>>,
    rewards: Py<PyArray1<f64>>,
    terminations: Py<PyArray1<bool>>,
    truncations: Py<PyArray1<bool>>,
    illegal: Py<PyArray1<bool>>,
    autoreset: Py<PyArray1<bool>>,
    reseeded: Py<PyArray1<bool>>,
    scores: Py<PyArray2<i64>>,
    rounds: Py<PyArray1<i64>>,
    ended: Py<PyArray1<bool>>,
    final_observations: Py<PyArray2<f32>>,
    final_scores: Py<PyArray2<i64>>,
    final_rounds: Py<PyArray1<i64>>,
}

/// The arrays borrowed for writing, for one call.
struct Borrowed<'py> {
    observations: PyReadwriteArray2<'py, f32>,
    masks: PyReadwriteArray2<'py, i8>,
    rewards: PyReadwriteArray1<'py, f64>,
    terminations: PyReadwriteArray1<'py, bool>,
    truncations: PyReadwriteArray1<'py, bool>,
    illegal: PyReadwriteArray1<'py, bool>,
    autoreset: PyReadwriteArray1<'py, bool>,
    reseeded: PyReadwriteArray1<'py, bool>,
    scores: PyReadwriteArray2<'py, i64>,
    rounds: PyReadwriteArray1<'py, i64>,
    ended: PyReadwriteArray1<'py, bool>,
    final_observations: PyReadwriteArray2<'py, f32>,
    final_scores: PyReadwriteArray2<'py, i64>,
    final_rounds: PyReadwriteArray1<'py, i64>,
}

impl Arrays {
    fn new(py: Python<'_>, n: usize, size: usize, actions: usize, sides: usize) -> Self {
        Arrays {
            observations: PyArray2::zeros(py, [n, size], false).unbind(),
            masks: PyArray2::zeros(py, [n, actions], false).unbind(),
            rewards: PyArray1::zeros(py, n, false).unbind(),
            terminations: PyArray1::zeros(py, n, false).unbind(),
            truncations: PyArray1::zeros(py, n, false).unbind(),
            illegal: PyArray1::zeros(py, n, false).unbind(),
            autoreset: PyArray1::zeros(py, n, false).unbind(),
            reseeded: PyArray1::zeros(py, n, false).unbind(),
            scores: PyArray2::zeros(py, [n, sides], false).unbind(),
            // a game not reset yet is a match before its first round, as `Match(players)` is
            rounds: PyArray1::from_vec(py, vec![-1; n]).unbind(),
            ended: PyArray1::zeros(py, n, false).unbind(),
            final_observations: PyArray2::zeros(py, [n, size], false).unbind(),
            final_scores: PyArray2::zeros(py, [n, sides], false).unbind(),
            final_rounds: PyArray1::zeros(py, n, false).unbind(),
        }
    }

    /// Every array borrowed for writing (an error if Python code holds a Rust borrow of one).
    fn borrow<'py>(&self, py: Python<'py>) -> PyResult<Borrowed<'py>> {
        Ok(Borrowed {
            observations: self.observations.bind(py).try_readwrite()?,
            masks: self.masks.bind(py).try_readwrite()?,
            rewards: self.rewards.bind(py).try_readwrite()?,
            terminations: self.terminations.bind(py).try_readwrite()?,
            truncations: self.truncations.bind(py).try_readwrite()?,
            illegal: self.illegal.bind(py).try_readwrite()?,
            autoreset: self.autoreset.bind(py).try_readwrite()?,
            reseeded: self.reseeded.bind(py).try_readwrite()?,
            scores: self.scores.bind(py).try_readwrite()?,
            rounds: self.rounds.bind(py).try_readwrite()?,
            ended: self.ended.bind(py).try_readwrite()?,
            final_observations: self.final_observations.bind(py).try_readwrite()?,
            final_scores: self.final_scores.bind(py).try_readwrite()?,
            final_rounds: self.final_rounds.bind(py).try_readwrite()?,
        })
    }
}

impl Borrowed<'_> {
    /// The arrays as slices (each was made C-contiguous and never reshaped).
    fn outputs(&mut self) -> PyResult<Outputs<'_>> {
        Ok(Outputs {
            observations: self.observations.as_slice_mut()?,
            masks: self.masks.as_slice_mut()?,
            rewards: self.rewards.as_slice_mut()?,
            terminations: self.terminations.as_slice_mut()?,
            truncations: self.truncations.as_slice_mut()?,
            illegal: self.illegal.as_slice_mut()?,
            autoreset: self.autoreset.as_slice_mut()?,
            reseeded: self.reseeded.as_slice_mut()?,
            scores: self.scores.as_slice_mut()?,
            rounds: self.rounds.as_slice_mut()?,
            ended: self.ended.as_slice_mut()?,
            final_observations: self.final_observations.as_slice_mut()?,
            final_scores: self.final_scores.as_slice_mut()?,
            final_rounds: self.final_rounds.as_slice_mut()?,
        })
    }
}

/// `num_envs` games of `Exact61-v0` against the simple bots, stepped together natively: the
/// engine of `exact61.research.vector.Exact61VectorEnv` where every opponent plays natively.
///
/// `opponents` are the other seats' bots in seat order, by canonical name (`random`, `greedy`,
/// `heuristic`). The observation's layout and the action space are Python's, handed over:
/// `blocks` is `encoding.OBSERVATION_SLICES` as `(name, start, stop)`, `observation_size`
/// `encoding.OBSERVATION_SIZE`, `max_passes` `encoding.MAX_PASSES`, `action_moves` the engine
/// move of each action of `encoding.ACTIONS`. ValueError for settings that cannot be, naming
/// the rule where one says so.
///
/// What the games show lives in the arrays that are its attributes, which `reset` and `step`
/// write in place: `observations` (num_envs x observation_size, float32), `masks` (num_envs x
/// actions, int8), `rewards` (float64), `terminations`, `truncations`, `illegal` (the action
/// was illegal), `autoreset` (next-step autoreset: the next step only resets the game),
/// `reseeded` (the game started from its seed in the last call), `scores` (num_envs x sides,
/// raw, int64), `rounds` (int64, from 0; -1 before a game's first reset); with same-step
/// autoreset, `ended` (the game's episode ended and it was reset in the last step) and what it
/// ended with: `final_observations`, `final_scores`, `final_rounds` (only those rows are
/// written). A call writes them with the GIL released: another Python thread must leave them
/// alone until it returns (a second call on the same object meanwhile is refused, as a borrow).
#[pyclass(module = "exact61.core._native")]
pub struct VectorGames {
    batch: Batch,
    arrays: Arrays,
}

#[pymethods]
impl VectorGames {
    #[new]
    #[pyo3(signature = (
        num_envs, players, seat, opponents, *, one_round, max_rounds, skip_forced,
        autoreset_mode, blocks, observation_size, max_passes, action_moves
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        players: usize,
        seat: usize,
        opponents: Vec<String>,
        one_round: bool,
        max_rounds: u64,
        skip_forced: bool,
        autoreset_mode: &str,
        blocks: Vec<(String, usize, usize)>,
        observation_size: usize,
        max_passes: f64,
        action_moves: Vec<u16>,
    ) -> PyResult<Self> {
        let invalid = |message: String| PyValueError::new_err(message);
        if !(2..=4).contains(&players) {
            return Err(invalid(format!(
                "R2: Exact 61 Five Up is for 2, 3 or 4 players, not {players}"
            )));
        }
        if seat >= players {
            return Err(invalid(format!("no seat {seat} among {players} players")));
        }
        if opponents.len() != players - 1 {
            return Err(invalid(format!(
                "{players} players need {} opponents, not {}",
                players - 1,
                opponents.len()
            )));
        }
        if num_envs < 1 {
            return Err(invalid(format!(
                "num_envs must be at least 1, not {num_envs}"
            )));
        }
        if max_rounds < 1 {
            return Err(invalid(format!(
                "max_rounds must be at least 1, not {max_rounds}"
            )));
        }
        let mut bots = [None; 4];
        let others = (0..players).filter(|&s| s != seat);
        for (s, name) in others.zip(&opponents) {
            bots[s] = Some(Bot::named(name).ok_or_else(|| {
                invalid(format!(
                    "'{name}' does not play natively: only {}",
                    NATIVE_BOTS.join(", ")
                ))
            })?);
        }
        let mode = Autoreset::named(autoreset_mode).ok_or_else(|| {
            invalid(format!(
                "no autoreset mode '{autoreset_mode}': NextStep, SameStep or Disabled"
            ))
        })?;
        let actions = ActionSpace::new(&action_moves).map_err(invalid)?;
        let layout = ObservationLayout::new(&blocks, observation_size, max_passes, actions.len())
            .map_err(invalid)?;
        let settings = Settings {
            players,
            seat,
            bots,
            one_round,
            max_rounds,
            skip_forced,
        };
        let arrays = Arrays::new(
            py,
            num_envs,
            observation_size,
            actions.len(),
            side_count(players),
        );
        Ok(VectorGames {
            batch: Batch::new(settings, mode, layout, actions, num_envs),
            arrays,
        })
    }

    /// Start the games marked in `chosen` (bool, num_envs), game i from match seed `seeds[i]`
    /// (uint64, below 2**62: `int(np_random.integers(2**62))`, as `Exact61-v0`'s reset),
    /// each played to the agent's first decision; their rows, masks and standing are written,
    /// their terminations, truncations and autoreset cleared.
    fn reset(
        &mut self,
        py: Python<'_>,
        chosen: PyReadonlyArray1<'_, bool>,
        seeds: PyReadonlyArray1<'_, u64>,
    ) -> PyResult<()> {
        let n = self.batch.games.len();
        let chosen = one_a_game(&chosen, n, "chosen")?;
        let seeds = one_a_game(&seeds, n, "seeds")?;
        let mut borrowed = self.arrays.borrow(py)?;
        let mut out = borrowed.outputs()?;
        let batch = &mut self.batch;
        py.detach(|| batch.reset(chosen, seeds, &mut out));
        Ok(())
    }

    /// One step of every game: game i takes action `actions[i]` (int64), or is only reset
    /// (next-step autoreset, its action ignored), or takes it and, its episode over, starts
    /// again at once (same-step autoreset); a game that starts takes its match seed from
    /// `seeds[i]` and is marked in `reseeded`. Returns how many actions were illegal and how
    /// many episodes ended and were reset in this step (same-step autoreset).
    ///
    /// Nothing is played when a game cannot act: RuntimeError when its episode is over
    /// (`reset()` first), ValueError for an action outside the space.
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        seeds: PyReadonlyArray1<'_, u64>,
    ) -> PyResult<(usize, usize)> {
        let n = self.batch.games.len();
        let actions = one_a_game(&actions, n, "actions")?;
        let seeds = one_a_game(&seeds, n, "seeds")?;
        let mut borrowed = self.arrays.borrow(py)?;
        let mut out = borrowed.outputs()?;
        match self.batch.check_step(actions, out.autoreset) {
            Ok(()) => {}
            Err(StepError::Over(_)) => {
                return Err(PyRuntimeError::new_err("the episode is over: call reset()"));
            }
            Err(StepError::NoAction(_, action)) => {
                let last = self.batch.actions.len() - 1;
                return Err(PyValueError::new_err(format!(
                    "no action number {action}: the actions are 0 to {last}"
                )));
            }
        }
        let batch = &mut self.batch;
        Ok(py.detach(|| batch.step(actions, seeds, &mut out)))
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.batch.games.len()
    }

    #[getter]
    fn observations(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.arrays.observations.clone_ref(py)
    }

    #[getter]
    fn masks(&self, py: Python<'_>) -> Py<PyArray2<i8>> {
        self.arrays.masks.clone_ref(py)
    }

    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.arrays.rewards.clone_ref(py)
    }

    #[getter]
    fn terminations(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.arrays.terminations.clone_ref(py)
    }

    #[getter]
    fn truncations(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.arrays.truncations.clone_ref(py)
    }

    #[getter]
    fn illegal(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.arrays.illegal.clone_ref(py)
    }

    #[getter]
    fn autoreset(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.arrays.autoreset.clone_ref(py)
    }

    #[getter]
    fn reseeded(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.arrays.reseeded.clone_ref(py)
    }

    #[getter]
    fn scores(&self, py: Python<'_>) -> Py<PyArray2<i64>> {
        self.arrays.scores.clone_ref(py)
    }

    #[getter]
    fn rounds(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.arrays.rounds.clone_ref(py)
    }

    #[getter]
    fn ended(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.arrays.ended.clone_ref(py)
    }

    #[getter]
    fn final_observations(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.arrays.final_observations.clone_ref(py)
    }

    #[getter]
    fn final_scores(&self, py: Python<'_>) -> Py<PyArray2<i64>> {
        self.arrays.final_scores.clone_ref(py)
    }

    #[getter]
    fn final_rounds(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.arrays.final_rounds.clone_ref(py)
    }
}

/// `array` as a slice of one entry a game; ValueError naming it otherwise.
fn one_a_game<'a, T: numpy::Element>(
    array: &'a PyReadonlyArray1<'_, T>,
    n: usize,
    name: &str,
) -> PyResult<&'a [T]> {
    match array.as_slice() {
        Ok(slice) if slice.len() == n => Ok(slice),
        _ => Err(PyValueError::new_err(format!(
            "{name} must be a contiguous array of one entry for each of the {n} games"
        ))),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VectorGames>()?;
    Ok(())
}
