//! The searches for Python (`exact61.bots`): one call a decision, the GIL released while it
//! thinks, the bot's random source handed over and back (`random.Random.getstate()`'s words),
//! so the Python bot's source goes on as if it had searched itself.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::engine::Position;
use crate::ismcts::{search, Settings};
use crate::rng::PyRandom;
use crate::sampler::Knowledge;
use crate::tables::TILE_COUNT;

/// A random source from `random.Random.getstate()[1]` (625 words).
pub fn source(words: &[u32]) -> PyResult<PyRandom> {
    PyRandom::from_state(words).ok_or_else(|| {
        PyValueError::new_err("a random source's state is 625 words (random.Random.getstate)")
    })
}

/// The round a seat sees, as a match's position (`sampler.position_of(view, book=True)`): its
/// own tiles, no one else's (a search deals them), the layout, the seat to act.
#[derive(FromPyObject)]
pub struct Seen {
    players: usize,
    seat: usize,
    own: Vec<u8>,
    placements: Vec<u16>,
    to_act: usize,
    opener: usize,
    scores: Vec<i32>,
    pending: i8,
    /// The unseen tiles and every hidden slot as (seat, forbidden values), tightest first.
    pool: Vec<u8>,
    order: Vec<(usize, u8)>,
}

impl Seen {
    fn check(&self) -> PyResult<()> {
        let fine = (2..=4).contains(&self.players)
            && self.seat < self.players
            && self.to_act < self.players
            && self.opener < self.players
            && self
                .own
                .iter()
                .chain(&self.pool)
                .all(|&t| (t as usize) < TILE_COUNT)
            && self.order.iter().all(|&(s, _)| s < self.players);
        if fine {
            Ok(())
        } else {
            Err(PyValueError::new_err("not a seat's view of a round"))
        }
    }

    fn template(&self) -> Position {
        let hands: Vec<Vec<u8>> = (0..self.players)
            .map(|s| {
                if s == self.seat {
                    self.own.clone()
                } else {
                    Vec::new()
                }
            })
            .collect();
        Position::resume(
            &hands,
            &self.placements,
            &[],
            self.to_act,
            self.opener,
            &self.scores,
            self.pending,
            true,
        )
    }

    fn knowledge(&self) -> Knowledge {
        Knowledge {
            players: self.players,
            pool: self.pool.clone(),
            order: self.order.clone(),
        }
    }
}

/// Each root move class's visits, the iterations run, the random source's state after them.
type Searched = (Vec<(u16, u32)>, u64, Vec<u32>);

/// `ISMCTSBot.choose`'s search from what the seat sees: `iterations` (or until `seconds`
/// pass), exploration and epsilon as the bot's. Returns each root move class's visits, the
/// iterations run, and the random source's state after them.
#[pyfunction]
#[pyo3(signature = (seen, rng_state, iterations, seconds, exploration, epsilon))]
fn ismcts_search(
    py: Python<'_>,
    seen: Seen,
    rng_state: Vec<u32>,
    iterations: u64,
    seconds: Option<f64>,
    exploration: f64,
    epsilon: f64,
) -> PyResult<Searched> {
    seen.check()?;
    let mut rng = source(&rng_state)?;
    let template = seen.template();
    let knowledge = seen.knowledge();
    let settings = Settings {
        iterations,
        seconds,
        exploration,
        epsilon,
    };
    let found = py.detach(|| {
        search(
            &template, &knowledge, seen.seat, &seen.own, settings, &mut rng,
        )
    });
    Ok((found.visits, found.iterations, rng.state().to_vec()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ismcts_search, m)?)?;
    Ok(())
}
