//! Whole matches of the simple bots for Python (`exact61.simulation`), played with the GIL
//! released: one call a match, its record text and totals back.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::bots::Bot;
use crate::playout::{play_match as play, random_playout};
use crate::rng::PyRandom;

/// The bots a match of `simulate` or `tournament` can play natively, by their canonical names.
pub(crate) const NATIVE_BOTS: [&str; 3] = ["random", "greedy", "heuristic"];

/// What `play_match` returns: the record's text; the totals (winner, rounds, actions, domino,
/// block, target, rejected); and each seat's decisions and seconds of thinking (when timed).
type Played = (
    String,
    (Option<usize>, usize, usize, usize, usize, usize, usize),
    Vec<u32>,
    Vec<f64>,
    u64,
);

/// Play a match of `bots` (canonical names, one a seat: `random`, `greedy`, `heuristic`) to its
/// end, as `Table.play_out` plays a table of bots that keeps one bot a seat: the deals from
/// `random.Random(seed)` (`seed_bytes` is abs(seed), little-endian), each seat's bot from
/// `random.Random(f"{seed_text}:seat:{seat}")`. `head` is the record's text up to its rounds
/// (`records.record_head`). Returns the record as `records.record_text` writes it, the
/// totals `simulate` counts, with `timed` each seat's decisions and thinking time, and the
/// digest of every action (the lockstep test's: `tests/core/test_lockstep.py`).
#[pyfunction]
#[pyo3(signature = (players, seed_bytes, seed_text, bots, head, *, timed = false))]
fn play_match(
    py: Python<'_>,
    players: usize,
    seed_bytes: &Bound<'_, PyBytes>,
    seed_text: &str,
    bots: Vec<String>,
    head: &str,
    timed: bool,
) -> PyResult<Played> {
    if !(2..=4).contains(&players) || bots.len() != players {
        return Err(PyValueError::new_err(format!(
            "R2: {players} players need {players} bots, not {}",
            bots.len()
        )));
    }
    let kinds = bots
        .iter()
        .map(|name| {
            Bot::named(name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{name:?} does not play natively: only {}",
                    NATIVE_BOTS.join(", ")
                ))
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let chance = PyRandom::from_int_bytes(seed_bytes.as_bytes());
    let seed_text = seed_text.to_string();
    let head = head.to_string();
    let (text, log) = py.detach(move || {
        let log = play(players, chance, &seed_text, &kinds, timed);
        (log.record_text(&head), log)
    });
    let totals = log.totals();
    Ok((
        text,
        (
            log.winner,
            totals.rounds,
            totals.actions,
            totals.domino,
            totals.block,
            totals.target,
            totals.rejected,
        ),
        log.decisions[..players].to_vec(),
        log.nanos[..players]
            .iter()
            .map(|&n| n as f64 / 1e9)
            .collect(),
        log.digest.0,
    ))
}

/// Play `matches` matches of uniformly random moves on search positions, every draw from one
/// source, `random.Random(seed)`, keeping nothing: the engine's own playouts, as
/// `benchmarks/bench_selfplay.py` counts them. Returns the actions played and the source's
/// state after them.
#[pyfunction]
fn random_playouts(
    py: Python<'_>,
    players: usize,
    matches: u64,
    seed: u64,
) -> PyResult<(u64, Vec<u32>)> {
    if !(2..=4).contains(&players) {
        return Err(PyValueError::new_err(format!(
            "R2: Exact 61 Five Up is for 2, 3 or 4 players, not {players}"
        )));
    }
    let mut rng = PyRandom::from_u64(seed);
    let actions = py.detach(|| {
        (0..matches)
            .map(|_| random_playout(players, &mut rng))
            .sum()
    });
    Ok((actions, rng.state().to_vec()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    m.add("NATIVE_BOTS", NATIVE_BOTS.to_vec())?;
    m.add_function(wrap_pyfunction!(play_match, m)?)?;
    Ok(())
}
