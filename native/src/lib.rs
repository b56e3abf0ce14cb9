//! exact61's native core: the rules engine of `exact61.core.engine` in Rust, and the loops
//! that run many moves without returning to Python. Built into the package as the extension
//! module `exact61.core._native` (PyO3); the Python engine stays the reference that defines
//! the behaviour, and the fallback where no native build exists.

pub mod bots;
pub mod engine;
pub mod equity;
pub mod evaluate;
pub mod expert;
pub mod ismcts;
pub mod observation;
pub mod playout;
mod py_engine;
mod py_playout;
mod py_search;
mod py_vector;
pub mod rng;
pub mod sampler;
pub mod solver;
pub mod tables;
pub mod vector;

use pyo3::prelude::*;

/// The native engine: positions and the functions that play them, as `exact61.core.engine`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ENGINE", "native")?;
    py_engine::register(m)?;
    py_playout::register(m)?;
    py_search::register(m)?;
    py_vector::register(m)?;
    Ok(())
}
